/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Least privilege: once the probes are attached, give up every capability
 * the rest of the run does not need.
 */
#ifndef RS_PRIVILEGES_H
#define RS_PRIVILEGES_H

#include <stddef.h>

/*
 * Drop every capability (effective, permitted, inheritable, ambient and the
 * bounding set) if still_works(ctx) returns 0 without any; otherwise keep
 * only CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN, those the BPF syscall may
 * ask for.  Writes what is kept to kept ("none", or the names); 0, or
 * -errno when the capabilities could not be changed at all.
 */
int rs_drop_capabilities(int (*still_works)(void *ctx), void *ctx, char *kept,
			 size_t size);

#endif
