/* SPDX-License-Identifier: GPL-2.0 */
/* What the running kernel offers, found by looking and trying. */
#ifndef RS_KERNEL_H
#define RS_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include "run_info.h"

struct btf;

/* Fill kernel release, BTF, MGLRU state, series presence, node count. */
void rs_kernel_probe(struct rs_run_info *info, const struct btf *vmlinux);
/*
 * The kernel struct members some kernels lack (RS_HOOKS' 'k' rows,
 * "struct.member"): present ("attached", so the fields that need them are
 * known) or missing with the reason, as found in btf.
 */
void rs_kernel_fields(struct rs_run_info *info, const struct btf *btf);

/*
 * The architecture this program was built for ("x86-64", "arm64"), and the
 * one a kernel's BTF is of; NULL where the build or the BTF is neither.  Under
 * a user-mode emulator (qemu-user, binfmt_misc) a build of one runs on a kernel
 * of the other; its BPF programs, compiled for its own registers and layouts,
 * must not load there.
 */
const char *rs_build_arch(void);
const char *rs_btf_arch(const struct btf *btf);
/* /sys/kernel/mm/lru_gen/enabled (its bits; 0: MGLRU off), -1 if absent. */
int rs_kernel_mglru(void);
/* kernel.bpf_stats_enabled: the kernel times every BPF program run. */
bool rs_kernel_bpf_stats(void);

/*
 * A function's parameter names ("lruvec,sc,swappiness") or a tracepoint's
 * parameter types from its btf_trace_<name> typedef ("gfp_t,int,struct
 * mem_cgroup *").  -ENOENT when the kernel has no such function/tracepoint.
 */
int rs_btf_func_params(const struct btf *btf, const char *func, char *buf,
		       size_t size);
int rs_btf_tp_params(const struct btf *btf, const char *tp, char *buf,
		     size_t size);
/* Does "a,b,c" match the pattern "a,*,c" (each * one parameter, a final
 * "..." any further ones)? */
bool rs_signature_matches(const char *sig, const char *pattern);

/* Can an fentry program be loaded here?  0, or -errno with a reason. */
int rs_probe_fentry(const struct btf *btf, const char *func, char *why,
		    size_t size);

/*
 * Does this kernel run tracepoint programs with preemption disabled?  Runs
 * bpf/preempt.bpf.c on our own fork: 1 yes, 0 no (preemptible: another task
 * can find a program busy on a CPU, and the kernel then skips it), -errno
 * when it cannot be told; why says what was seen.
 */
int rs_probe_tp_preemption(char *why, size_t size);

#endif
