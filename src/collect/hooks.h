/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which BPF program serves which hook, and which variant fits the running
 * kernel.  Programs in the same slot are alternatives for one attach point;
 * the first whose pattern matches the kernel's BTF is loaded, with its
 * copies "<prog>_2" ... "<prog>_5" (see RS_PROGS in bpf/common.bpf.h).
 */
#ifndef RS_HOOKS_H
#define RS_HOOKS_H

#include <linux/types.h>
#include <stdbool.h>
#include "rs_common.h"

/* An attach point: RS_SLOTS' row. */
struct rs_slot_info {
	enum rs_hook hook;
	const char *target; /* kernel function or tracepoint */
	bool tracepoint;    /* tp_btf (else fentry/fexit) */
};

extern const struct rs_slot_info rs_slots[RS_NR_SLOTS];

/* RS_PROG_SPECS' row (include/rs_common.h). */
struct rs_prog_spec {
	const char *prog; /* program name in the skeleton */
	enum rs_slot slot;
	const struct rs_slot_info *at; /* rs_slots[slot] */
	const char *pattern; /* parameter names (functions) or types (tp) */
};

/* per-spec arrays of the collector are sized by this (a static assert in
 * hooks.c keeps the table within it) */
#define RS_MAX_PROG_SPECS 64

extern const struct rs_prog_spec rs_prog_specs[];
extern const int rs_nr_prog_specs;

/*
 * Prototypes of a hook's function that some kernels have and that no
 * program reads, because they do not carry what the hook's fields need:
 * there the hook is missing, with why, where a prototype nobody knows
 * fails it.
 */
struct rs_unread_proto {
	enum rs_hook hook;
	const char *pattern; /* as rs_prog_spec's */
	const char *why;
};

extern const struct rs_unread_proto rs_unread_protos[];
extern const int rs_nr_unread_protos;

#endif
