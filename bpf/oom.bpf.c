// SPDX-License-Identifier: GPL-2.0
/*
 * Memcg OOMs: when a memcg OOM-kills, what its LRU held (generations by type)
 * and how the OOMing task's last reclaim pass ended.  MGLRU's quick resort
 * to the OOM killer is the charge the article weighs; this is the evidence.
 */
#include "common.bpf.h"
#include "oom.h"

/*
 * The memcg's lruvec on node nid, nodes 0 to 3 (NULL beyond):
 * mem_cgroup.nodeinfo[] is a flexible array of pointers, and the verifier
 * takes only constant offsets into a BTF pointer.
 */
static __always_inline struct lruvec *rs_memcg_lruvec(struct mem_cgroup *memcg,
						      int nid)
{
	struct mem_cgroup_per_node *pn;

	if (!bpf_core_field_exists(memcg->nodeinfo))
		return NULL;
	switch (nid) {
	case 0:
		pn = BPF_CORE_READ(memcg, nodeinfo[0]);
		break;
	case 1:
		pn = BPF_CORE_READ(memcg, nodeinfo[1]);
		break;
	case 2:
		pn = BPF_CORE_READ(memcg, nodeinfo[2]);
		break;
	case 3:
		pn = BPF_CORE_READ(memcg, nodeinfo[3]);
		break;
	default:
		return NULL;
	}
	return pn ? &pn->lruvec : NULL;
}

/*
 * The machine's free and total swap (mm/swapfile.c), found by address in
 * kallsyms (the kernel's BTF describes only per-CPU variables): weak, so a
 * kernel without them, or without their symbols, still loads, and the
 * record says it does not know.
 */
extern const void nr_swap_pages __ksym __weak;
extern const void total_swap_pages __ksym __weak;

/* A node's counter (enum node_stat_item), read: vm_stat sits too far
 * into pglist_data for a load instruction's offset. */
static __always_inline bool rs_node_stat(struct pglist_data *pgdat, int item,
					 __s64 *value)
{
	long v = 0;

	if (!pgdat ||
	    bpf_probe_read_kernel(&v, sizeof(v),
				  (void *)&pgdat->vm_stat + item * sizeof(v)))
		return false;
	*value = v;
	return true;
}

static __always_inline void oom_swap_and_node(struct rs_oom_event *ev,
					      struct lruvec *lruvec)
{
	struct pglist_data *pgdat;
	long free = 0, total = 0;

	if (&nr_swap_pages && &total_swap_pages &&
	    !bpf_probe_read_kernel(&free, sizeof(free), &nr_swap_pages) &&
	    !bpf_probe_read_kernel(&total, sizeof(total), &total_swap_pages)) {
		ev->swap_known = 1;
		ev->swap_free = free;
		ev->swap_total = total;
	}
	if (!lruvec ||
	    !bpf_core_enum_value_exists(enum node_stat_item, NR_FILE_DIRTY) ||
	    !bpf_core_enum_value_exists(enum node_stat_item, NR_WRITEBACK))
		return;
	pgdat = BPF_CORE_READ(lruvec, pgdat);
	ev->node_known = rs_node_stat(pgdat,
				      bpf_core_enum_value(enum node_stat_item,
							  NR_FILE_DIRTY),
				      &ev->node_dirty) &&
			 rs_node_stat(pgdat,
				      bpf_core_enum_value(enum node_stat_item,
							  NR_WRITEBACK),
				      &ev->node_writeback);
}

static __always_inline void oom_exit(struct rs_task_state *st,
				     struct mem_cgroup *memcg, int order,
				     bool killed)
{
	__u64 cgid = rs_btf_memcg_cgroup_id(memcg);
	int nid = bpf_get_numa_node_id();
	struct rs_oom_event *ev;
	struct rs_agg_value *agg;
	struct lruvec *lruvec;

	agg = rs_agg_get(cgid, rs_fixed_node, RS_RECLAIMER_MEMCG);
	if (agg)
		rs_add(agg, RS_F_OOMS, 1);
	ev = rs_reserve(sizeof(*ev), RS_EV_OOM, cgid,
			rs_fixed_node != RS_NODE_UNKNOWN ? rs_fixed_node : nid,
			RS_RECLAIMER_MEMCG);
	if (!ev)
		return;
	__builtin_memset((void *)ev + sizeof(ev->hdr), 0,
			 sizeof(*ev) - sizeof(ev->hdr));
	ev->order = order;
	ev->killed = killed;
	/*
	 * The generations, where the kernel has MGLRU and it is on: this
	 * hook exists without it, and an unguarded read of lrugen would fail
	 * the program and lose the count of OOMs with it.
	 */
	lruvec = rs_memcg_lruvec(memcg, nid);
	if (lruvec && bpf_core_field_exists(lruvec->lrugen) &&
	    bpf_core_field_exists(lruvec->lrugen.max_seq) &&
	    bpf_core_field_exists(lruvec->lrugen.min_seq) &&
	    bpf_core_field_exists(lruvec->lrugen.timestamps) &&
	    rs_lrugen_gens_fit(lruvec) && rs_lrugen_on(lruvec)) {
		ev->lru_known = 1;
		/*
		 * min before max, as aging's record: both only grow and
		 * min_seq < max_seq at every instant, so read in this order
		 * they keep min <= max.  Read the other way round, an aging
		 * and an eviction between the reads (this program can be
		 * preempted) gave a min above the max and a record with no
		 * generation (the VM's mix scenario, once in CI).
		 */
		ev->min_seq[0] = BPF_CORE_READ(lruvec, lrugen.min_seq[0]);
		ev->min_seq[1] = BPF_CORE_READ(lruvec, lrugen.min_seq[1]);
		ev->max_seq = BPF_CORE_READ(lruvec, lrugen.max_seq);
		for (int gen = 0; gen < RS_MAX_NR_GENS; gen++)
			for (int type = 0; type < 2; type++)
				ev->nr_pages[gen][type] =
					rs_lrugen_pages(lruvec, gen, type);
		/*
		 * The births after the seqs: the slot of a seq read above is
		 * reused only once min_seq has passed it and an aging has run,
		 * both between these reads, which would show the oldest
		 * generation younger than it was (lru_gen's read has the same
		 * race).
		 */
		for (int gen = 0; gen < RS_MAX_NR_GENS; gen++)
			ev->birth[gen] =
				BPF_CORE_READ(lruvec, lrugen.timestamps[gen]);
		ev->jiffies = bpf_jiffies64();
		ev->births_known = 1;
	}
	if (st && st->last_exit_known) {
		ev->last_exit_known = 1;
		ev->last_exit = st->last_exit;
		ev->last_pass_reclaimed = st->last_pass_reclaimed;
		ev->last_pass_budget = st->last_pass_budget;
		ev->last_pass_isolated = st->last_pass_isolated;
		ev->last_pass_dirty = st->last_pass_dirty;
		ev->last_pass_writeback = st->last_pass_writeback;
		ev->stat_known =
			bpf_core_field_exists(struct reclaim_stat, nr_dirty) &&
			bpf_core_field_exists(struct reclaim_stat,
					      nr_writeback);
	}
	oom_swap_and_node(ev, lruvec);
	rs_submit(ev, sizeof(*ev));
}

RS_PROGS("fexit/mem_cgroup_out_of_memory", rs_oom_exit, RS_SLOT_OOM_EXIT,
	 oom_exit(st, memcg, order, ret), struct mem_cgroup *memcg,
	 gfp_t gfp_mask, int order, bool ret)
