/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MGLRU's state per lruvec (bpf/tiers.bpf.c): the tiers as the PID
 * controller reads them (per memcg, node, type and tier, the counters
 * mm/vmscan.c's read_ctrl_pos() adds up to choose the type to evict and the
 * tiers to protect) and the generations as /sys/kernel/debug/lru_gen lists
 * them (the timeline's samples).  One record per memcg and node, written by
 * a cgroup iterator each time it is read.  Needs linux/types.h first.
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

/*
 * The generations a record holds: the kernel's MAX_NR_GENS, 4 since MGLRU
 * came (v6.1).  A kernel with another count gets gens_known 0, so that a
 * generation is never put in another's slot (RS_MAX_NR_GENS, aging.h, is
 * the same number; this header includes nothing).
 */
#define RS_TIER_NR_GENS 4

/*
 * The iterator puts each lruvec's record in a hash map (rs_tier_records,
 * keyed by memcg and node), not in its read buffer: a cgroup iterator's
 * output is one buffer of 8 pages (kernel/bpf/cgroup_iter.c), so about 68
 * records, and a walk that writes more fails whole (EOPNOTSUPP).  The
 * map's bound, in lruvecs; walk is the read that wrote a record (older
 * ones are of memcgs gone since, and are taken out).
 */
#define RS_TIER_MAX_LRUVECS 262144

struct rs_tier_key {
	__u64 cgid;
	__u32 node;
	__u32 pad;
};

struct rs_tier_record {
	__u64 walk;
	__u64 cgid;
	__u16 node;
	__u8 nr_tiers;	 /* the kernel's MAX_NR_TIERS; 0: tiers not read */
	__u8 gens_known; /* 1: the generations below were read */
	__u8 pad[4];
	/* [anon, file][tier][enum rs_tier_counter], pages */
	__u64 v[2][RS_MAX_NR_TIERS][RS_NR_TIER_COUNTERS];
	/*
	 * The generations: min_seq read before max_seq (both only grow, so
	 * min <= max holds between the reads), then per slot (seq %
	 * RS_TIER_NR_GENS) its birth (lrugen.timestamps[], jiffies) and pages
	 * by type, summed over zones as lru_gen shows them.
	 */
	__u64 min_seq[2], max_seq;
	__u64 birth[RS_TIER_NR_GENS];
	__u64 pages[RS_TIER_NR_GENS][2];
	/* the clocks when this lruvec was read: jiffies (the births' clock)
	 * and CLOCK_MONOTONIC, ns, from which userspace learns HZ */
	__u64 jiffies, mono_ns;
};

#endif /* RS_TIERS_H */
