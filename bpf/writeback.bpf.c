// SPDX-License-Identifier: GPL-2.0
/*
 * Dirty and writeback folios met by reclaim: handle_reclaim_writeback(),
 * shared by MGLRU and the classic LRU since "mm/vmscan: unify writeback
 * reclaim statistic and throttling" (v7.2), and flusher wakeups by reason.
 */
#include "common.bpf.h"
#include "writeback.h"

static __always_inline void writeback(struct rs_task_state *st,
				      unsigned long nr_taken,
				      struct pglist_data *pgdat,
				      struct scan_control *sc,
				      struct reclaim_stat *stat)
{
	/* flusher_wakeups and unqueued_dirty are null without the member */
	__u32 unqueued = rs_reclaim_stat(stat, nr_unqueued_dirty, RS_NO_COUNT);
	bool woken = unqueued == nr_taken;
	struct rs_writeback_event *ev;
	struct rs_agg_value *agg;
	struct rs_where w;

	/* node_id sits beyond a 16-bit load offset in pglist_data */
	rs_locate(st, &w, BPF_CORE_READ(pgdat, node_id));
	agg = rs_agg_of(&w);
	if (agg) {
		rs_add(agg, RS_F_WB_CHECKS, 1);
		/* resolved at load, like the read: no test at run time */
		if (bpf_core_field_exists(stat->nr_unqueued_dirty))
			rs_add(agg, RS_F_UNQUEUED_DIRTY, unqueued);
		rs_add(agg, RS_F_FLUSHER_WAKEUPS, woken);
	}

	ev = rs_reserve(sizeof(*ev), RS_EV_WRITEBACK, w.cgid, w.node,
			w.reclaimer);
	if (!ev)
		return;
	ev->nr_taken = nr_taken;
	ev->dirty = rs_reclaim_stat(stat, nr_dirty, RS_NO_COUNT);
	ev->unqueued_dirty = unqueued;
	ev->congested = rs_reclaim_stat(stat, nr_congested, RS_NO_COUNT);
	ev->writeback = rs_reclaim_stat(stat, nr_writeback, RS_NO_COUNT);
	ev->immediate = rs_reclaim_stat(stat, nr_immediate, RS_NO_COUNT);
	ev->pageout = rs_reclaim_stat(stat, nr_pageout, RS_NO_COUNT);
	ev->flusher_woken = woken;
	__builtin_memset(ev->pad, 0, sizeof(ev->pad));
	rs_submit(ev, sizeof(*ev));
}

RS_PROGS("fentry/handle_reclaim_writeback", rs_writeback, RS_SLOT_WRITEBACK,
	 writeback(st, nr_taken, pgdat, sc, stat), unsigned long nr_taken,
	 struct pglist_data *pgdat, struct scan_control *sc,
	 struct reclaim_stat *stat)

static __always_inline void flusher(struct rs_task_state *st,
				    enum wb_reason reason)
{
	__u32 r = reason;

	if (r > RS_STAT_FLUSHER_REASON_LAST - RS_STAT_FLUSHER_REASON0)
		r = RS_STAT_FLUSHER_REASON_LAST - RS_STAT_FLUSHER_REASON0;
	rs_stat_add(RS_STAT_FLUSHER_REASON0 + r, 1);
}

RS_PROGS("fentry/wakeup_flusher_threads", rs_flusher, RS_SLOT_FLUSHER,
	 flusher(st, reason), enum wb_reason reason)
