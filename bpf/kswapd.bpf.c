// SPDX-License-Identifier: GPL-2.0
/*
 * kswapd's balance_pgdat() runs: how long each took, what it isolated and
 * reclaimed (the LRU tracepoints add to the run in progress, vmscan.bpf.c),
 * and the node's free pages against the high watermarks it reclaims to, at
 * both ends.  Reclaim continuing past its target is one of the article's
 * charges; free pages past the watermarks at a run's end are its measure.
 */
#include "common.bpf.h"
#include "kswapd.h"

/*
 * Free pages and high watermarks (with their boosts: high_wmark_pages())
 * summed over the zones kswapd balances, 0 to highest_zoneidx.  The kernel
 * judges each zone apart (pgdat_balanced(): any one zone over its mark,
 * with lowmem reserves) and this sums them, so it is the node's distance
 * from its targets, not the kernel's verdict.  node_zones[] is read by
 * address (the verifier takes only constant offsets into a BTF pointer),
 * its length and struct zone's size from BTF.  The zone members are core
 * (tests/host/core_fields.py: in every kernel with balance_pgdat() we
 * know); false where the enum values that index them are missing.
 */
static __always_inline bool rs_node_free_high(struct pglist_data *pgdat,
					      int highest_zoneidx, __u64 *free,
					      __u64 *high)
{
	__u64 zone_size, zones, base;
	int wmark_high, free_item;

	if (!bpf_core_enum_value_exists(enum zone_watermarks, WMARK_HIGH) ||
	    !bpf_core_enum_value_exists(enum zone_stat_item, NR_FREE_PAGES))
		return false;
	wmark_high = bpf_core_enum_value(enum zone_watermarks, WMARK_HIGH);
	free_item = bpf_core_enum_value(enum zone_stat_item, NR_FREE_PAGES);
	zone_size = bpf_core_type_size(struct zone);
	if (!zone_size)
		return false;
	zones = bpf_core_field_size(pgdat->node_zones) / zone_size;
	base = (__u64)pgdat + bpf_core_field_offset(pgdat->node_zones);
	*free = 0;
	*high = 0;
	for (int i = 0; i < RS_MAX_ZONES; i++) {
		struct zone *zone = (struct zone *)(base + i * zone_size);
		unsigned long mark = 0, boost = 0;
		long nr_free = 0;

		if (i >= zones || i > highest_zoneidx)
			break;
		bpf_probe_read_kernel(&mark, sizeof(mark),
				      (void *)&zone->_watermark +
					      wmark_high * sizeof(mark));
		bpf_core_read(&boost, sizeof(boost), &zone->watermark_boost);
		bpf_probe_read_kernel(&nr_free, sizeof(nr_free),
				      (void *)&zone->vm_stat +
					      free_item * sizeof(nr_free));
		*high += mark + boost;
		*free += nr_free > 0 ? nr_free : 0; /* per-CPU drift */
	}
	return true;
}

static __always_inline void balance_enter(struct rs_task_state *st,
					  struct pglist_data *pgdat,
					  int highest_zoneidx)
{
	if (!st)
		return;
	st->in_balance = 1;
	st->balance_start_ns = bpf_ktime_get_ns();
	st->balance_isolated = 0;
	st->balance_reclaimed = 0;
	if (!rs_node_free_high(pgdat, highest_zoneidx, &st->balance_free_before,
			       &st->balance_high)) {
		st->balance_free_before = 0;
		st->balance_high = 0;
	}
}

RS_PROGS("fentry/balance_pgdat", rs_balance_enter, RS_SLOT_BALANCE_ENTER,
	 balance_enter(st, pgdat, highest_zoneidx), struct pglist_data *pgdat,
	 int order, int highest_zoneidx)

static __always_inline void balance_exit(struct rs_task_state *st,
					 struct pglist_data *pgdat, int order,
					 int highest_zoneidx,
					 unsigned int order_after)
{
	__u64 now = bpf_ktime_get_ns(), free_after = 0, high_after = 0;
	struct rs_kswapd_run_event *ev;
	struct rs_agg_value *agg;
	bool zones;
	__u16 node;
	int nid;

	if (!st || !st->in_balance)
		return; /* the run began before we attached */
	st->in_balance = 0;
	zones = rs_node_free_high(pgdat, highest_zoneidx, &free_after,
				  &high_after);
	/*
	 * Read, not loaded: node_id sits ~170 KiB into pglist_data, past the
	 * 16-bit offset of a load instruction, which libbpf cannot relocate.
	 */
	if (bpf_core_read(&nid, sizeof(nid), &pgdat->node_id))
		nid = 0;
	node = nid;
	agg = rs_agg_get(RS_CGROUP_NONE, node, RS_RECLAIMER_KSWAPD);
	if (agg) {
		rs_add(agg, RS_F_KSWAPD_RUNS, 1);
		rs_add(agg, RS_F_KSWAPD_RUN_TIME, now - st->balance_start_ns);
		if (zones && free_after >= high_after)
			rs_add(agg, RS_F_KSWAPD_PAST_HIGH,
			       free_after - high_after);
		else if (zones)
			rs_add(agg, RS_F_KSWAPD_RUNS_SHORT, 1);
	}
	ev = rs_reserve_at(sizeof(*ev), RS_EV_KSWAPD_RUN, RS_CGROUP_NONE, node,
			   RS_RECLAIMER_KSWAPD, now);
	if (!ev)
		return;
	ev->duration_ns = now - st->balance_start_ns;
	ev->isolated = st->balance_isolated;
	ev->reclaimed = st->balance_reclaimed;
	ev->free_before = st->balance_free_before;
	ev->high_before = st->balance_high;
	ev->free_after = free_after;
	ev->high_after = high_after;
	ev->order = order;
	ev->highest_zoneidx = highest_zoneidx;
	ev->order_after = order_after;
	ev->zones_known = zones;
	__builtin_memset(ev->pad, 0, sizeof(ev->pad));
	rs_submit(ev, sizeof(*ev));
}

RS_PROGS("fexit/balance_pgdat", rs_balance_exit, RS_SLOT_BALANCE_EXIT,
	 balance_exit(st, pgdat, order, highest_zoneidx, ret),
	 struct pglist_data *pgdat, int order, int highest_zoneidx,
	 unsigned int ret)
