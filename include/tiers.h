/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MGLRU's tiers as the PID controller reads them (bpf/tiers.bpf.c): per
 * memcg, node, type and tier, the counters mm/vmscan.c's read_ctrl_pos()
 * adds up to choose the type to evict and the tiers to protect.  One record
 * per memcg and node, written by a cgroup iterator each time it is read.
 * Needs linux/types.h first.
 */
#ifndef RS_TIERS_H
#define RS_TIERS_H

/*
 * The most tiers a record holds.  The kernel's MAX_NR_TIERS has been 4
 * since MGLRU came (v6.1); the program reads the count from the arrays'
 * sizes in BTF and says how many it found (nr_tiers), up to this.
 */
#define RS_MAX_NR_TIERS 4

/* Per type and tier, in lru_gen_full's order. */
enum rs_tier_counter {
	RS_TIER_REFAULTED,     /* refaulted[hist]: pages refaulted (r) */
	RS_TIER_EVICTED,       /* evicted[hist]: pages evicted (e) */
	RS_TIER_PROTECTED,     /* protected[hist]: pages kept by the tier (p) */
	RS_TIER_AVG_REFAULTED, /* avg_refaulted: the moving average (R) */
	RS_TIER_AVG_TOTAL,     /* avg_total (T) */
	RS_NR_TIER_COUNTERS,
};

struct rs_tier_record {
	__u64 cgid;
	__u16 node;
	__u8 nr_tiers; /* the kernel's MAX_NR_TIERS; 0: no MGLRU here */
	__u8 pad[5];
	/* [anon, file][tier][enum rs_tier_counter], pages */
	__u64 v[2][RS_MAX_NR_TIERS][RS_NR_TIER_COUNTERS];
};

#endif /* RS_TIERS_H */
