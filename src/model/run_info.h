/* SPDX-License-Identifier: GPL-2.0 */
/* What a run knows about the kernel and its hooks: plain data for views. */
#ifndef RS_RUN_INFO_H
#define RS_RUN_INFO_H

#include <linux/types.h>
#include <stdbool.h>
#include "rs_common.h"

enum rs_hook_state {
	RS_HOOK_UNTRIED, /* not loaded yet (or the load failed as a whole) */
	RS_HOOK_MISSING,
	RS_HOOK_ATTACHED,
	RS_HOOK_FAILED,
};

struct rs_hook_status {
	enum rs_hook_state state;
	char why[160]; /* for missing/failed: the reason */
	/*
	 * With the kernel's BPF run-time statistics on (cost_known): the
	 * hook's events (runs of its programs' first copies) and the time all
	 * copies of its programs took, since attach.
	 */
	__u64 runs;
	__u64 run_ns;
	/*
	 * Attached: the first copies' program names, space-separated; the
	 * copies are NAME_2 ... NAME_<RS_COPIES> (what bpftool lists).
	 */
	char programs[96];
};

struct rs_run_info {
	char kernel[128];  /* uname -r */
	bool btf;	   /* /sys/kernel/btf/vmlinux */
	int mglru_enabled; /* /sys/kernel/mm/lru_gen/enabled: -1 absent */
	bool series;  /* handle_reclaim_writeback + lruvec_evictable_size */
	int nr_nodes; /* possible NUMA nodes */
	/* the kernel's page size in bytes (4, 16 or 64 KiB on arm64): what
	 * a page counted turns into bytes by */
	long page_size;
	bool fentry_ok;	      /* fentry/fexit can be loaded */
	bool bpf_denied;      /* not permitted to load BPF: nothing was tried */
	char fentry_why[160]; /* why not */
	/*
	 * Tracepoint programs run with preemption off (1), preemptible (0),
	 * cannot tell (-errno): rs_probe_tp_preemption().
	 */
	int tp_preempt_off;
	char tp_preempt_why[96];
	/* copies attached of each program (RS_PROGS), 1 to RS_COPIES */
	int copies;
	bool refaults; /* --refaults: the refault hook was asked for */
	/* --budget-ms: what the *_over_budget counters count against, ns */
	__u64 budget_ns;
	struct rs_hook_status hooks[RS_NR_HOOKS];
	__u64 attached;	       /* RS_HOOK_BIT()s */
	char start[40];	       /* RFC 3339 */
	__u64 start_ns;	       /* CLOCK_MONOTONIC at start, as BPF sees it */
	char cgroup_root[256]; /* mount point of the memory controller */
	/* record --cgroup: the memcgs kept are those at or under it; NULL:
	 * every memcg (the header says it: a reader cannot tell a memcg
	 * outside it was idle) */
	const char *cgroup_filter;
	int cgroup_version;  /* 1 or 2, 0 if none */
	char caps_kept[160]; /* capabilities kept after attach: "none", ... */
	/* kernel.bpf_stats_enabled (or our --bpf-stats): hooks' runs, run_ns */
	bool cost_known;
};

/* "attached", "missing" or "failed" */
const char *rs_hook_state_word(enum rs_hook_state state);
/* The header's form: the word, and for a failure its reason. */
const char *rs_hook_state_text(const struct rs_hook_status *h, char *buf,
			       size_t size);

/* A BPF hook attached while the kernel times programs: runs, run_ns hold. */
bool rs_hook_cost_known(const struct rs_run_info *info, enum rs_hook h);

/* Copies of each function program attached (RS_PROGS): --copies. */
static inline int rs_fn_copies(const struct rs_run_info *info)
{
	return info->copies > 0 && info->copies < RS_COPIES ? info->copies
							    : RS_COPIES;
}

/*
 * Copies of each tracepoint program attached: one where they run with
 * preemption off (no other task can find one busy), else as functions'.
 */
static inline int rs_tp_copies(const struct rs_run_info *info)
{
	return info->tp_preempt_off == 1 ? 1 : rs_fn_copies(info);
}

/* Mode in one word: "full", "partial" or "tracepoint-only". */
const char *rs_mode(const struct rs_run_info *info);

#endif
