/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memcg OOM probe (bpf/oom.bpf.c): one record per mem_cgroup_out_of_memory()
 * call, with the memcg's LRU as the OOM decision found it, the evidence for
 * (or against) "OOM despite evictable file folios".  Needs rs_common.h and
 * aging.h first.
 */
#ifndef RS_OOM_H
#define RS_OOM_H

/* RS_EV_OOM */
struct rs_oom_event {
	struct rs_event_hdr hdr;
	/* the memcg's generations on the node the OOM ran on, as aging's */
	__u64 max_seq;
	__u64 min_seq[2]; /* anon, file */
	__s64 nr_pages[RS_MAX_NR_GENS][2];
	/*
	 * Each generation's birth (lrugen.timestamps[seq % RS_MAX_NR_GENS],
	 * jiffies) and jiffies at the OOM: the generations' ages, as lru_gen
	 * shows them, once userspace knows HZ.
	 */
	__u64 birth[RS_MAX_NR_GENS];
	__u64 jiffies;
	/* the OOMing task's last MGLRU pass, if it ran one */
	__u64 last_pass_reclaimed;
	__u64 last_pass_budget;
	/* ... and what it met at the LRU's tail (reclaim_stat) */
	__u64 last_pass_isolated;
	__u64 last_pass_dirty;
	__u64 last_pass_writeback;
	/*
	 * The machine's swap, pages (nr_swap_pages, total_swap_pages: found
	 * through kallsyms; swap_known 0 where they are not there), and the
	 * OOM node's dirty and writeback pages (NR_FILE_DIRTY, NR_WRITEBACK:
	 * the node's, not the memcg's, whose counts sit behind an index
	 * table the kernel does not describe in BTF).
	 */
	__s64 swap_free;
	__s64 swap_total;
	__s64 node_dirty;
	__s64 node_writeback;
	__s32 order;
	__u8 killed;	/* mem_cgroup_out_of_memory() returned true */
	__u8 lru_known; /* the memcg's lruvec on that node was found */
	__u8 last_exit_known;
	__u8 last_exit;	 /* enum rs_exit_reason */
	__u8 stat_known; /* the kernel's reclaim_stat has nr_dirty, nr_writeback
			  */
	__u8 swap_known;
	__u8 node_known;
	__u8 births_known; /* birth[] and jiffies were read */
	__u8 pad[4];
};

#endif /* RS_OOM_H */
