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
/*
 * The walk counters of each lruvec as far as an aging that ended on it has
 * counted them (rs_walk_stats), by memcg and node: an aging's share is what
 * they grew by since.  Walkers of one lruvec run together (each takes the
 * next mm off its list) and their ends interleave; the kernel's counters
 * only grow (added to under the mm list's lock), so each end raises the
 * entry to what it read with a compare-and-swap and counts the rise it
 * made: every increment is counted once, by whoever saw it first, and the
 * sum is the highest value read minus the first.  A memcg's first entry is
 * made as an aging starts, before its walk adds anything, so nothing is
 * missed; an LRU map, because an entry dropped for room is made again the
 * same way.  Keyed by cgroup id, never reused, not by the lruvec's address,
 * which a new memcg can get.
 */
struct rs_walk_key {
	__u64 cgid;
	__u16 node;
	__u8 pad[6];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct rs_walk_key);
	__type(value, __u64[RS_NR_WALK_STATS]);
} rs_walk_seen SEC(".maps");

static __always_inline void aging_enter(struct rs_task_state *st,
					struct lruvec *lruvec)
{
	const struct rs_lruvec_owner *held;
	struct rs_lruvec_owner owner;
	struct rs_walk_key key = {0};
	__u64 now[RS_NR_WALK_STATS];

	if (!st)
		return;
	__sync_fetch_and_add(&rs_aging_steps, 1);
	st->aging_start_ns = bpf_ktime_get_ns();
	if (!rs_walk_stats(lruvec, now))
		return;
	held = rs_owner(st, lruvec, rs_on_pass(st, lruvec), &owner);
	key.cgid = held->cgid;
	key.node = held->node;
	bpf_map_update_elem(&rs_walk_seen, &key, now, BPF_NOEXIST);
}

RS_PROGS("fentry/try_to_inc_max_seq", rs_aging_enter, RS_SLOT_AGING_ENTER,
	 aging_enter(st, lruvec), struct lruvec *lruvec, unsigned long seq)

/*
 * What the walk counters of the lruvec grew by since an aging that ended on
 * it last counted them (see rs_walk_seen), into grown; false where the
 * kernel keeps none.  An entry lost since this aging began (the map full
 * of newer memcgs) is made again, and what it had is counted as lost.
 */
static __always_inline bool walk_grown(const struct rs_lruvec_owner *held,
				       struct lruvec *lruvec,
				       __u64 grown[RS_NR_WALK_STATS])
{
	struct rs_walk_key key = {.cgid = held->cgid, .node = held->node};
	__u64 now[RS_NR_WALK_STATS];
	__u64 *seen;

	if (!rs_walk_stats(lruvec, now))
		return false;
	__builtin_memset(grown, 0, RS_NR_WALK_STATS * sizeof(__u64));
	seen = bpf_map_lookup_elem(&rs_walk_seen, &key);
	if (!seen) {
		bpf_map_update_elem(&rs_walk_seen, &key, now, BPF_NOEXIST);
		rs_stat_add(RS_STAT_AGG_FULL, 1);
		return true;
	}
	for (int i = 0; i < RS_NR_WALK_STATS; i++) {
		bool done = false;

		/* a few tries: each lost one means another end rose it */
		for (int try = 0; try < 4 && !done; try++) {
			__u64 was = seen[i];

			if (now[i] <=
			    was) /* counted by an end that read later */
				done = true;
			else if (__sync_val_compare_and_swap(&seen[i], was,
							     now[i]) == was) {
				grown[i] = now[i] - was;
				done = true;
			}
		}
		if (!done)
			rs_stat_add(RS_STAT_AGG_FULL, 1);
	}
	return true;
}

static __always_inline void aging_exit(struct rs_task_state *st,
				       struct lruvec *lruvec, unsigned long seq,
				       bool force_scan, bool success)
{
	const struct rs_lruvec_owner *held;
	struct rs_lruvec_owner owner;
	struct rs_aging_event *ev;
	struct rs_agg_value *agg;
	__u64 cgid, now, duration;
	__u64 walk[RS_NR_WALK_STATS];
	__u16 node;
	__u8 reclaimer, trigger;
	bool on_pass, walk_known;

	if (!st || !st->aging_start_ns) /* not seen entering */
		return;
	__sync_fetch_and_add(&rs_aging_steps, 1);
	now = bpf_ktime_get_ns();
	duration = now - st->aging_start_ns;
	st->aging_start_ns = 0;
	on_pass = rs_on_pass(st, lruvec);
	held = rs_owner(st, lruvec, on_pass, &owner);
	cgid = held->cgid;
	node = held->node;
	walk_known = walk_grown(held, lruvec, walk);
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
		rs_add(agg, RS_F_AGING_TIME, duration);
		if (walk_known) {
			rs_add(agg, RS_F_WALK_PTES, walk[RS_WALK_PTES]);
			rs_add(agg, RS_F_WALK_YOUNG, walk[RS_WALK_YOUNG]);
			rs_add(agg, RS_F_WALK_PMDS, walk[RS_WALK_PMDS]);
			rs_add(agg, RS_F_WALK_BLOOM_ADDED,
			       walk[RS_WALK_BLOOM_ADDED]);
		}
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
	/* plain loads: the compiler must not move max's above min's */
	asm volatile("" ::: "memory");
	ev->max_seq = lruvec->lrugen.max_seq;
	ev->duration_ns = duration;
	ev->gens_known = rs_lrugen_gens_fit(lruvec);
	for (int gen = 0; gen < RS_MAX_NR_GENS; gen++)
		for (int type = 0; type < 2; type++)
			ev->nr_pages[gen][type] =
				ev->gens_known
					? rs_lrugen_pages(lruvec, gen, type)
					: 0;
	for (int i = 0; i < RS_NR_WALK_STATS; i++)
		ev->walk[i] = walk_known ? walk[i] : 0;
	ev->walk_known = walk_known;
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
