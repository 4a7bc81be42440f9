/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MGLRU aging probe (bpf/aging.bpf.c): one record per try_to_inc_max_seq()
 * call, with the generation sizes after it.  Needs rs_common.h first.
 */
#ifndef RS_AGING_H
#define RS_AGING_H

#define RS_MAX_NR_GENS 4 /* MAX_NR_GENS */

/*
 * The page-table walk's counters (the kernel's NR_MM_STATS, in its order):
 * leaf entries (PTEs) scanned, found young; non-leaf entries (PMDs) found,
 * added to the Bloom filter.
 */
enum rs_walk_stat {
	RS_WALK_PTES,
	RS_WALK_YOUNG,
	RS_WALK_PMDS,
	RS_WALK_BLOOM_ADDED,
	RS_NR_WALK_STATS,
};

/* Who asked for the aging. */
enum rs_aging_trigger {
	RS_AGING_RECLAIM, /* inside an lruvec reclaim pass */
	RS_AGING_KSWAPD,  /* kswapd's lru_gen_age_node() */
	RS_AGING_OTHER,	  /* /sys/kernel/debug/lru_gen writes and others */
};

struct rs_aging_event {
	struct rs_event_hdr hdr;
	__u64 seq;	  /* the max_seq the caller saw */
	__u64 max_seq;	  /* after */
	__u64 min_seq[2]; /* after: anon, file */
	__u64 duration_ns;
	/* pages per generation after aging: [seq % 4][anon, file] */
	__s64 nr_pages[RS_MAX_NR_GENS][2];
	/*
	 * The walk's counters added since the lruvec's last aging ended
	 * (enum rs_walk_stat); walk_known is 0 where the kernel keeps none.
	 */
	__u64 walk[RS_NR_WALK_STATS];
	__u8 walk_known;
	__u8 gens_known; /* nr_pages filled: the kernel has RS_MAX_NR_GENS */
	__u8 force_scan;
	__u8 success;
	__u8 trigger; /* enum rs_aging_trigger */
	__u8 pad[3];
};

#endif /* RS_AGING_H */
