/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Benchmark programs (bpf/bench.bpf.c), loaded by tests/bench/rs-bench only:
 * an empty control program, a peer that counts the vmscan tracepoints per
 * cgroup the way a bpftrace one-liner does, the fair peer (the same bare
 * counter on every point `record` attaches to) and a synthetic producer of
 * event records.  Needs rs_common.h first.
 */
#ifndef RS_BENCH_H
#define RS_BENCH_H

/* BPF_PROG_TEST_RUN context of rs_bench_emit */
struct rs_bench_emit_args {
	__u32 records; /* records to emit in this run */
	__u32 emitted; /* out: records reserved and submitted */
};

/* What the peer counts, per cgroup (the bpftrace map's value). */
struct rs_bench_peer_key {
	__u64 cgroup_id;
	__u32 tracepoint; /* enum rs_bench_tp */
	__u32 pad;
};

enum rs_bench_tp {
	RS_BENCH_TP_ISOLATE,
	RS_BENCH_TP_SHRINK_INACTIVE,
	RS_BENCH_TP_SHRINK_ACTIVE,
	RS_BENCH_TP_MEMCG_BEGIN,
	RS_BENCH_TP_MEMCG_END,
	RS_BENCH_TP_DIRECT_BEGIN,
	RS_BENCH_TP_DIRECT_END,
	RS_BENCH_TP_SLAB_END,
	RS_BENCH_NR_TP,
};

/*
 * The fair peer's attach points are numbered from here in the same key's
 * tracepoint field: one bare counter per point `record` attaches, found
 * at run time (rs-bench points), so any point number is past the enum.
 */
#define RS_BENCH_FAIR_FIRST 64

#endif /* RS_BENCH_H */
