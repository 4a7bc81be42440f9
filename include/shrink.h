/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MGLRU lruvec pass probe (bpf/shrink.bpf.c): one record per
 * try_to_shrink_lruvec() call, with the scan budget the kernel computed and
 * what became of it.  Needs rs_common.h first.
 */
#ifndef RS_SHRINK_H
#define RS_SHRINK_H

/*
 * Why try_to_shrink_lruvec()'s loop ended (mm/vmscan.c, v7.2).  The order is
 * that of the exit_* fields (RS_F_EXIT_BUDGET + reason).
 */
enum rs_exit_reason {
	RS_EXIT_BUDGET,	     /* nr_to_scan used up (or zero to begin with) */
	RS_EXIT_NO_PROGRESS, /* evict_folios() returned 0 */
	RS_EXIT_TARGET,	     /* should_abort_scan(): target met / wmark ok */
	RS_EXIT_BELOW_MIN,   /* mem_cgroup_below_min() */
	RS_EXIT_AFTER_AGING, /* root reclaim stops after aging */
	RS_EXIT_UNKNOWN,     /* cannot be told (pre-series kernel, signal) */
	RS_NR_EXIT_REASONS
};

/* What the pass looked like when it returned. */
struct rs_pass_facts {
	__u64 budget;
	__u64 budget_used;
	__u64 nr_reclaimed;  /* sc->nr_reclaimed at return */
	__u64 nr_to_reclaim; /* sc->nr_to_reclaim */
	__u32 batches;
	__u32 last_delta; /* last evict_folios() return */
	__u8 budget_known;
	__u8 root_reclaim;
	__u8 kswapd;
	__u8 aged;	  /* should_run_aging() was true at least once */
	__u8 aging_ok;	  /* a try_to_inc_max_seq() in the pass succeeded */
	__u8 need_rotate; /* return value */
	__u8 order;	  /* sc->order */
};

/*
 * Deduce the exit reason from what the loop leaves behind.  The loop, as
 * built in Debian's 7.2 kernel (read from its machine code):
 *
 *   nr_to_scan = budget;
 *   while (nr_to_scan > 0) {
 *       if (below_min) { need_rotate = true; break; }
 *       if (should_run_aging) { need_rotate |= inc_max_seq(); should_age = 1; }
 *       delta = evict_folios(min(nr_to_scan, 64));
 *       if (!delta) break;
 *       if (should_abort_scan) break;
 *       if (root_reclaim && should_age) break;
 *       nr_to_scan -= delta;
 *   }
 *
 * should_abort_scan() is true, for every kind of reclaim, once nr_reclaimed
 * reaches max(nr_to_reclaim, min(2 << order, 32)); for kswapd at order 0
 * also when the watermarks are met (not repeated here: a kswapd pass that
 * stopped for no other visible reason is counted as RS_EXIT_TARGET); for
 * proactive reclaim when a signal is pending (RS_EXIT_UNKNOWN).
 */
static inline enum rs_exit_reason
rs_classify_exit(const struct rs_pass_facts *f)
{
	__u64 gap, goal;

	if (!f->budget_known)
		return f->batches && !f->last_delta ? RS_EXIT_NO_PROGRESS
						    : RS_EXIT_UNKNOWN;
	if (f->batches == 0)
		/* the loop never evicted: no budget, or below min at once */
		return f->budget == 0 ? RS_EXIT_BUDGET : RS_EXIT_BELOW_MIN;
	if (f->last_delta == 0)
		return RS_EXIT_NO_PROGRESS;
	gap = f->order < 5 ? 2ULL << f->order : 32;
	if (gap > 32)
		gap = 32;
	goal = f->nr_to_reclaim > gap ? f->nr_to_reclaim : gap;
	if (f->nr_reclaimed >= goal)
		return RS_EXIT_TARGET;
	if (f->root_reclaim && f->aged)
		return RS_EXIT_AFTER_AGING;
	if (f->budget_used >= f->budget)
		return RS_EXIT_BUDGET;
	/* below_min sets need_rotate; so does a successful aging */
	if (f->need_rotate && !f->aging_ok)
		return RS_EXIT_BELOW_MIN;
	if (f->kswapd)
		return RS_EXIT_TARGET; /* watermarks met */
	if (f->need_rotate)
		return RS_EXIT_BELOW_MIN;
	return RS_EXIT_UNKNOWN;
}

/* Budget as get_nr_to_scan() computes it (mm/vmscan.c, v7.2). */
struct rs_budget_inputs {
	__u64 evictable; /* lruvec_evictable_size() */
	__u64 emin,
		elow; /* memcg->memory.emin/elow (0 if memcg is the target) */
	__u64 usage;  /* mem_cgroup_size(memcg) */
	__s32 priority;
	__u8 online;
	__u8 memcg_low_reclaim;
};

static inline __u64 rs_mglru_budget(const struct rs_budget_inputs *in)
{
	__u64 scan = in->evictable;

	/* try to scrape all its memory if this memcg was deleted */
	if (!in->online)
		return scan;
	/* apply_proportional_protection() */
	if (in->emin || in->elow) {
		__u64 protection, size = in->usage;

		if (!in->memcg_low_reclaim && in->elow > in->emin)
			protection = in->elow;
		else
			protection = in->emin;
		if (size < protection)
			size = protection;
		scan -= scan * protection / (size + 1);
		if (scan < 32) /* SWAP_CLUSTER_MAX */
			scan = 32;
	}
	if (in->priority < 0 || in->priority > 63)
		return 0;
	return scan >> in->priority;
}

struct rs_shrink_event {
	struct rs_event_hdr hdr;
	__u64 evictable;
	__u64 budget;
	__u64 budget_used;
	__u64 isolated;
	__u64 reclaimed;
	__u64 duration_ns;
	__u64 nr_to_reclaim;
	__u32 batches;
	__u32 last_batch; /* the last evict_folios() return */
	__s32 priority;
	__s32 swappiness;
	__u8 exit_reason; /* enum rs_exit_reason: aborted, else deduced */
	__u8 need_rotate;
	__u8 budget_known;
	__u8 aged;
	__u64 budget_kernel; /* apply_proportional_protection() >> priority */
	__u8 budget_kernel_known;
	__u8 aborted;	   /* should_abort_scan() ended it */
	__u8 abort_known;  /* should_abort_scan() was called in the pass */
	__u8 exit_deduced; /* rs_classify_exit()'s, where exit_reason is
			    * the kernel's own (aborted) */
	__u8 pad[4];
};

#endif /* RS_SHRINK_H */
