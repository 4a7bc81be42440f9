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
#include "preempt.h"
#include "compat.bpf.h"

struct rs_preempt_seen rs_preempt_seen = {};

/*
 * Every fork, not only the loader's: any fork calls the tracepoint the same
 * way, and a filter on our process id would miss in a PID namespace (the
 * kernel's ids are not the ones getpid() gives there).
 */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(rs_preempt_probe, struct task_struct *parent,
	     struct task_struct *child)
{
	int preemptible = rs_preemptible();

	__sync_fetch_and_add(&rs_preempt_seen.runs, 1);
	if (preemptible < 0)
		__sync_fetch_and_add(&rs_preempt_seen.unknown, 1);
	else if (!preemptible)
		__sync_fetch_and_add(&rs_preempt_seen.preempt_off, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
