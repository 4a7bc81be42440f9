// SPDX-License-Identifier: GPL-2.0
/*
 * MGLRU aging: try_to_inc_max_seq() (a new generation) and
 * try_to_inc_min_seq() (retiring the oldest).
 */
#include "common.bpf.h"

/*
 * try_to_inc_max_seq(lruvec, seq, swappiness | can_swap, force_scan): the
 * third parameter changed from bool can_swap to int swappiness in v6.14
 * ("mm/mglru: rework type selection"), which this program does not read, so
 * one program serves both.
 */
static __always_inline void aging_enter(struct rs_task_state *st)
{
	if (st)
		st->aging_start_ns = bpf_ktime_get_ns();
}

RS_PROGS("fentry/try_to_inc_max_seq", rs_aging_enter, RS_SLOT_AGING_ENTER,
	 aging_enter(st), struct lruvec *lruvec, unsigned long seq)

static __always_inline void aging_exit(struct rs_task_state *st,
				       struct lruvec *lruvec, unsigned long seq,
				       bool force_scan, bool success)
{
	const struct rs_lruvec_owner *held;
	struct rs_lruvec_owner owner;
	struct rs_aging_event *ev;
	struct rs_agg_value *agg;
	__u64 cgid, now, duration;
	__u16 node;
	__u8 reclaimer, trigger;
	bool on_pass;

	if (!st || !st->aging_start_ns) /* not seen entering */
		return;
	now = bpf_ktime_get_ns();
	duration = now - st->aging_start_ns;
	st->aging_start_ns = 0;
	on_pass = rs_on_pass(st, lruvec);
	held = rs_owner(st, lruvec, on_pass, &owner);
	cgid = held->cgid;
	node = held->node;
	if (on_pass) {
		/* should_run_aging() said yes inside this pass */
		st->aged = 1;
		st->aging_ok |= success;
		reclaimer = st->pass_reclaimer;
		trigger = RS_AGING_RECLAIM;
	} else if (rs_current_is_kswapd()) {
		reclaimer = RS_RECLAIMER_KSWAPD;
		trigger = RS_AGING_KSWAPD;
	} else {
		reclaimer = rs_reclaimer_of(st);
		trigger = RS_AGING_OTHER;
	}

	agg = rs_agg_get(cgid, node, reclaimer);
	if (agg) {
		rs_add(agg, RS_F_AGING_ATTEMPTS, 1);
		rs_add(agg, RS_F_AGINGS, success);
		rs_add(agg, RS_F_AGING_NS, duration);
	}
	rs_hist_add(cgid, RS_HIST_AGING, duration);

	ev = rs_reserve_at(sizeof(*ev), RS_EV_AGING, cgid, node, reclaimer,
			   now);
	if (!ev)
		return;
	ev->seq = seq;
	/* min before max: both only grow, so min <= max holds in the record */
	ev->min_seq[0] = lruvec->lrugen.min_seq[0];
	ev->min_seq[1] = lruvec->lrugen.min_seq[1];
	ev->max_seq = lruvec->lrugen.max_seq;
	ev->duration_ns = duration;
	for (int gen = 0; gen < RS_MAX_NR_GENS; gen++)
		for (int type = 0; type < 2; type++)
			ev->nr_pages[gen][type] =
				rs_lrugen_pages(lruvec, gen, type);
	ev->force_scan = force_scan;
	ev->success = success;
	ev->trigger = trigger;
	__builtin_memset(ev->pad, 0, sizeof(ev->pad));
	rs_submit(ev, sizeof(*ev));
}

RS_PROGS("fexit/try_to_inc_max_seq", rs_aging_exit, RS_SLOT_AGING_EXIT,
	 aging_exit(st, lruvec, seq, force_scan, success),
	 struct lruvec *lruvec, unsigned long seq, int swappiness,
	 bool force_scan, bool success)

/*
 * try_to_inc_min_seq() returns void since "mm/mglru: scan and count the exact
 * number of folios" (v7.2) and bool before; neither is read: the advance is
 * measured from lrugen.min_seq[] before and after.
 */
static __always_inline void min_seq_enter(struct rs_task_state *st,
					  struct lruvec *lruvec)
{
	if (!st)
		return;
	st->min_seq_armed = 1;
	st->min_seq_before = rs_min_seq_sum(lruvec);
}

RS_PROGS("fentry/try_to_inc_min_seq", rs_min_seq_enter, RS_SLOT_MIN_SEQ_ENTER,
	 min_seq_enter(st, lruvec), struct lruvec *lruvec)

static __always_inline void min_seq_exit(struct rs_task_state *st,
					 struct lruvec *lruvec)
{
	const struct rs_lruvec_owner *held;
	struct rs_lruvec_owner owner;
	struct rs_agg_value *agg;
	__u64 after;

	if (!st || !st->min_seq_armed)
		return;
	st->min_seq_armed = 0;
	after = rs_min_seq_sum(lruvec);
	if (after <= st->min_seq_before)
		return;
	held = rs_owner(st, lruvec, rs_on_pass(st, lruvec), &owner);
	agg = rs_agg_get(held->cgid, held->node, rs_reclaimer_of(st));
	if (agg)
		rs_add(agg, RS_F_MIN_SEQ_ADVANCES, after - st->min_seq_before);
}

RS_PROGS("fexit/try_to_inc_min_seq", rs_min_seq_exit, RS_SLOT_MIN_SEQ_EXIT,
	 min_seq_exit(st, lruvec), struct lruvec *lruvec)
