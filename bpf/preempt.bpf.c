// SPDX-License-Identifier: GPL-2.0
/*
 * Preemption probe (include/preempt.h): a tracepoint program that tells
 * whether it runs preemptible (rs_preemptible in compat.bpf.h).  It is
 * loaded and run once, before the probes' object, on a tracepoint the loader
 * fires itself (a fork); every ordinary tracepoint calls its programs the
 * same way (__DO_TRACE in include/linux/tracepoint.h), so what holds here
 * holds for vmscan's.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "rs_common.h"
#include "aging.h" /* compat.bpf.h's generation count */
#include "preempt.h"
#include "compat.bpf.h"

/* Set by the loader: its own process id. */
const volatile __u32 rs_probe_tgid = 0;

struct rs_preempt_seen rs_preempt_seen = {};

SEC("tp_btf/sched_process_fork")
int BPF_PROG(rs_preempt_probe, struct task_struct *parent,
	     struct task_struct *child)
{
	int preemptible;

	if (parent->tgid != rs_probe_tgid)
		return 0;
	preemptible = rs_preemptible();
	__sync_fetch_and_add(&rs_preempt_seen.runs, 1);
	if (preemptible < 0)
		__sync_fetch_and_add(&rs_preempt_seen.unknown, 1);
	else if (!preemptible)
		__sync_fetch_and_add(&rs_preempt_seen.preempt_off, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
