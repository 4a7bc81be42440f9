// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark programs, never part of reclaimscope itself (include/bench.h).
 * The producer goes through rs_reserve/rs_submit, so that it pays what the
 * real probes pay per record and wakes the consumer the way they do.
 */
#include "common.bpf.h"
#include "vmscan.h"
#include "bench.h"

/* --- control: what a program that does nothing costs at each tracepoint -- */

#define RS_BENCH_EMPTY(tp)                                                     \
	SEC("tp_btf/" #tp)                                                     \
	int BPF_PROG(rs_empty_##tp)                                            \
	{                                                                      \
		return 0;                                                      \
	}

RS_BENCH_EMPTY(mm_vmscan_lru_isolate)
RS_BENCH_EMPTY(mm_vmscan_lru_shrink_inactive)
RS_BENCH_EMPTY(mm_vmscan_lru_shrink_active)
RS_BENCH_EMPTY(mm_vmscan_memcg_reclaim_begin)
RS_BENCH_EMPTY(mm_vmscan_memcg_reclaim_end)
RS_BENCH_EMPTY(mm_vmscan_direct_reclaim_begin)
RS_BENCH_EMPTY(mm_vmscan_direct_reclaim_end)
RS_BENCH_EMPTY(mm_shrink_slab_end)

/*
 * The same for the function hooks: a trampoline costs more than a
 * tracepoint's call.  shrink_lruvec runs once per lruvec pass with either
 * LRU; left out where fentry cannot load (rs-bench open_bench).
 */
SEC("fentry/shrink_lruvec")
int BPF_PROG(rs_empty_fentry_shrink_lruvec)
{
	return 0;
}

SEC("fexit/shrink_lruvec")
int BPF_PROG(rs_empty_fexit_shrink_lruvec)
{
	return 0;
}

/* --- peer: `@[cgroup, probe] = count()` over the same tracepoints --------- */

/* per-CPU, as bpftrace keeps count() maps */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct rs_bench_peer_key);
	__type(value, __u64);
} rs_bench_counts SEC(".maps");

/* set: the fair peer's programs with nothing in them (the verifier drops the
 * count), what their dispatch alone costs */
const volatile bool rs_fair_empty;

static __always_inline void peer_count(__u32 tp)
{
	struct rs_bench_peer_key key = {.tracepoint = tp};
	static const __u64 one = 1;
	__u64 *n;

	if (rs_fair_empty)
		return;
	key.cgroup_id = bpf_get_current_cgroup_id();

	n = bpf_map_lookup_elem(&rs_bench_counts, &key);
	if (n)
		*n += 1;
	else
		bpf_map_update_elem(&rs_bench_counts, &key, &one, BPF_NOEXIST);
}

#define RS_BENCH_PEER(tp, id)                                                  \
	SEC("tp_btf/" #tp)                                                     \
	int BPF_PROG(rs_peer_##tp)                                             \
	{                                                                      \
		peer_count(id);                                                \
		return 0;                                                      \
	}

RS_BENCH_PEER(mm_vmscan_lru_isolate, RS_BENCH_TP_ISOLATE)
RS_BENCH_PEER(mm_vmscan_lru_shrink_inactive, RS_BENCH_TP_SHRINK_INACTIVE)
RS_BENCH_PEER(mm_vmscan_lru_shrink_active, RS_BENCH_TP_SHRINK_ACTIVE)
RS_BENCH_PEER(mm_vmscan_memcg_reclaim_begin, RS_BENCH_TP_MEMCG_BEGIN)
RS_BENCH_PEER(mm_vmscan_memcg_reclaim_end, RS_BENCH_TP_MEMCG_END)
RS_BENCH_PEER(mm_vmscan_direct_reclaim_begin, RS_BENCH_TP_DIRECT_BEGIN)
RS_BENCH_PEER(mm_vmscan_direct_reclaim_end, RS_BENCH_TP_DIRECT_END)
RS_BENCH_PEER(mm_shrink_slab_end, RS_BENCH_TP_SLAB_END)

/*
 * --- the fair peer: the floor for a tool on our attach points -------------
 *
 * One template per kind; rs-bench loads it once per point `record`
 * attaches to (fentry, fexit or tp_btf), retargeted before load, each with
 * its point's number, all counting into the first load's map.  The bodies
 * read no argument, so one template verifies against any target.
 */
const volatile __u32 rs_fair_point = RS_BENCH_FAIR_FIRST;

SEC("fentry/shrink_lruvec")
int BPF_PROG(rs_fair_fentry)
{
	peer_count(rs_fair_point);
	return 0;
}

SEC("fexit/shrink_lruvec")
int BPF_PROG(rs_fair_fexit)
{
	peer_count(rs_fair_point);
	return 0;
}

SEC("tp_btf/mm_vmscan_lru_isolate")
int BPF_PROG(rs_fair_tp)
{
	peer_count(rs_fair_point);
	return 0;
}

/*
 * --- the floor run by programs the kernel runs with preemption off -------
 *
 * Issue 33's candidates for one copy per point: the same bare counter as a
 * kprobe-session program (entry and exit of a function, through fprobe,
 * which runs its handlers with preemption off) and as a perf-event
 * tracepoint program (perf's tracepoint handler holds preemption off).
 * Both are skipped only while another kprobe, perf or map-syscall section
 * holds the CPU's bpf_prog_active.  rs-bench attach nopreempt.
 */
SEC("kprobe.multi")
int rs_fair_ksession(struct pt_regs *ctx)
{
	peer_count(rs_fair_point);
	return 0; /* from the entry run: run the exit too */
}

SEC("tracepoint/vmscan/mm_vmscan_lru_isolate")
int rs_fair_ptp(void *ctx)
{
	peer_count(rs_fair_point);
	return 0;
}

/* --- producer: reclaim records, as many as asked, through the real path -- */

static long emit_one(__u32 i, void *ctx)
{
	__u32 *emitted = ctx;
	struct rs_reclaim_event *ev;

	ev = rs_reserve(sizeof(*ev), RS_EV_RECLAIM, 1000 + (i & 63), 0,
			RS_RECLAIMER_MEMCG);
	if (!ev)
		return 0;
	ev->duration_ns = 1000 + i;
	ev->nr_reclaimed = 32;
	ev->nr_to_reclaim = 32;
	ev->gfp_flags = 0;
	ev->order = 0;
	rs_submit(ev, sizeof(*ev));
	(*emitted)++;
	return 0;
}

SEC("syscall")
int rs_bench_emit(struct rs_bench_emit_args *args)
{
	__u32 emitted = 0; /* bpf_loop's context must be on the stack */

	bpf_loop(args->records, emit_one, &emitted, 0);
	args->emitted = emitted;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
