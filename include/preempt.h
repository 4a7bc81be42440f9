/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Preemption probe (bpf/preempt.bpf.c): does this kernel run tracepoint
 * programs with preemption disabled?  If so, no other task can enter a
 * tracepoint program on a CPU where it is running, the kernel never skips
 * one as busy, and one copy of each suffices (RS_PROGS in
 * bpf/common.bpf.h).  Needs rs_common.h first.
 */
#ifndef RS_PREEMPT_H
#define RS_PREEMPT_H

/* What the probe saw in the fork tracepoints it ran for while loaded. */
struct rs_preempt_seen {
	__u32 runs;	   /* forks seen (ours, and any other meanwhile) */
	__u32 preempt_off; /* of them, with preemption disabled */
	__u32 unknown;	   /* of them, where that could not be told */
	__u32 pad;
};

#endif
