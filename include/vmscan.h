/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint layer (bpf/vmscan.bpf.c), which works on any kernel with BTF:
 * vmscan tracepoints aggregated per memcg, plus throttle and reclaim
 * records.  Needs rs_common.h first.
 */
#ifndef RS_VMSCAN_H
#define RS_VMSCAN_H

/* enum vmscan_throttle_state */
#define RS_NR_THROTTLE_REASONS 4

struct rs_throttle_event {
	struct rs_event_hdr hdr;
	__s32 reason; /* VMSCAN_THROTTLE_* as passed to the tracepoint */
	__s32 usec_timeout;
	__s32 usec_delayed;
	__u32 pad;
};

/* A direct, memcg or node reclaim invocation, from begin to end. */
struct rs_reclaim_event {
	struct rs_event_hdr hdr;
	__u64 duration_ns;
	__u64 nr_reclaimed;
	__u64 nr_to_reclaim; /* 0 when not seen */
	__u32 gfp_flags;
	__s32 order;
};

/*
 * Reclaim stalls per task: who stalled, in which memcg, how (the memcg is
 * the one the stall's counters go to: the task's own for a direct reclaim,
 * the target for a memcg reclaim, where the pass was for a throttle).
 * rs_task_stalls holds the counts since the task's first stall; userspace
 * removes a task's entries once the task is gone (its last counts read),
 * and a stall that finds the map full is counted in RS_STAT_TASKS_LOST.
 */
enum rs_stall_kind {
	RS_STALL_DIRECT,    /* global direct reclaim (direct_reclaims) */
	RS_STALL_MEMCG,	    /* memcg limit or memory.high (memcg_reclaims) */
	RS_STALL_PROACTIVE, /* memory.reclaim (memcg_reclaims too) */
	RS_STALL_THROTTLE,  /* mm_vmscan_throttled (throttles) */
	RS_NR_STALL_KINDS
};

#define RS_TASK_STALLS_MAX 16384
#define RS_COMM_LEN 16 /* TASK_COMM_LEN */

struct rs_task_key {
	__u64 cgroup_id;
	__u32 tid;
	__u32 kind; /* enum rs_stall_kind */
};

struct rs_task_stall {
	__u64 count;
	__u64 total_ns; /* a throttle's: its usec_delayed x 1000 */
	__u64 max_ns;
	__u64 over_budget; /* stalls longer than the latency budget */
	__u32 tgid;
	char comm[RS_COMM_LEN]; /* as at its last stall */
	__u32 pad;
};

#endif /* RS_VMSCAN_H */
