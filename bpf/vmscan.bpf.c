// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint layer: vmscan tracepoints, which every kernel with BTF has.
 * Inside an lruvec pass (shrink.bpf.c) events go to the memcg whose LRU is
 * scanned; without the pass hooks (tracepoint-only mode) they go to the
 * memcg reclaim target, and global reclaim stays unattributed.
 */
#include "common.bpf.h"
#include "vmscan.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RS_TASK_STALLS_MAX);
	__type(key, struct rs_task_key);
	__type(value, struct rs_task_stall);
} rs_task_stalls SEC(".maps");

/*
 * The stall into the current task's entry (over: longer than the latency
 * budget, as the caller found for its memcg's count).  Only the task itself
 * writes its entries (the key holds its id), so plain adds are exact.
 */
static __always_inline void task_stall(__u64 cgid, __u32 kind, __u64 ns,
				       bool over)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct rs_task_key key = {
		.cgroup_id = cgid, .tid = (__u32)id, .kind = kind};
	struct rs_task_stall *v = bpf_map_lookup_elem(&rs_task_stalls, &key);

	if (!v) {
		struct rs_task_stall fresh = {.tgid = id >> 32};

		bpf_map_update_elem(&rs_task_stalls, &key, &fresh, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&rs_task_stalls, &key);
		if (!v) { /* full */
			rs_stat_add(RS_STAT_TASKS_LOST, 1);
			return;
		}
	}
	v->count++;
	v->total_ns += ns;
	v->over_budget += over;
	if (ns > v->max_ns)
		v->max_ns = ns;
	v->tgid = id >> 32; /* a tid reused by another process: its own */
	/* the name it has now: a task renamed by exec shows its new one */
	bpf_get_current_comm(v->comm, sizeof(v->comm));
}

static __always_inline void emit_reclaim(__u64 cgid, __u8 reclaimer, __u64 now,
					 __u64 duration, __u64 nr_reclaimed,
					 __u64 nr_to_reclaim)
{
	struct rs_reclaim_event *ev;

	ev = rs_reserve_at(sizeof(*ev), RS_EV_RECLAIM, cgid, rs_fixed_node,
			   reclaimer, now);
	if (!ev)
		return;
	ev->duration_ns = duration;
	ev->nr_reclaimed = nr_reclaimed;
	ev->nr_to_reclaim = nr_to_reclaim;
	ev->gfp_flags = 0;
	ev->order = 0;
	rs_submit(ev, sizeof(*ev));
}

/*
 * How far a reclaim went past its goal: reclaimed / nr_to_reclaim summed in
 * fixed point (RS_RATIO_ONE), where an lruvec pass showed the goal; the
 * reclaim record carries the same two numbers.
 */
static __always_inline void goal_add(struct rs_agg_value *agg,
				     __u64 nr_reclaimed, __u64 nr_to_reclaim)
{
	if (!nr_to_reclaim)
		return;
	rs_tp_add(agg, RS_F_GOAL_RECLAIMS, 1);
	rs_tp_add(agg, RS_F_GOAL_RATIO,
		  (nr_reclaimed << RS_RATIO_SHIFT) / nr_to_reclaim);
}

/* --- direct reclaim ------------------------------------------------------ */

static __always_inline void direct_begin(struct rs_task_state *st)
{
	if (!st)
		return;
	st->in_direct = 1;
	st->nr_to_reclaim = 0;
	st->direct_start_ns = bpf_ktime_get_ns();
}

/* v7.2 ("mm: vmscan: add memcg to the reclaim tracepoints"): gfp, order, memcg
 */
static __always_inline void direct_begin_v2(struct rs_task_state *st, gfp_t gfp,
					    int order, struct mem_cgroup *memcg)
{
	direct_begin(st);
}

RS_PROGS("tp_btf/mm_vmscan_direct_reclaim_begin", rs_direct_begin_v2,
	 RS_SLOT_DIRECT_BEGIN, direct_begin_v2(st, gfp, order, memcg),
	 gfp_t gfp, int order, struct mem_cgroup *memcg)

/* before: order, gfp */
static __always_inline void direct_begin_v1(struct rs_task_state *st, int order,
					    gfp_t gfp)
{
	direct_begin(st);
}

RS_PROGS("tp_btf/mm_vmscan_direct_reclaim_begin", rs_direct_begin_v1,
	 RS_SLOT_DIRECT_BEGIN, direct_begin_v1(st, order, gfp), int order,
	 gfp_t gfp)

static __always_inline void direct_end(struct rs_task_state *st,
				       unsigned long nr_reclaimed)
{
	struct rs_agg_value *agg;
	__u64 cgid, now, duration;
	bool over;

	if (!st || !st->in_direct)
		return;
	st->in_direct = 0;
	/* no pass outlives its invocation, even if its exit was lost */
	st->in_pass = st->in_classic = 0;
	now = bpf_ktime_get_ns();
	duration = now - st->direct_start_ns;
	over = duration > rs_budget_ns;
	/* the stall belongs to the task's own memcg */
	cgid = rs_current_memcg_cgroup_id();
	agg = rs_agg_get(cgid, rs_fixed_node, RS_RECLAIMER_DIRECT);
	if (agg) {
		rs_tp_add(agg, RS_F_DIRECT_RECLAIMS, 1);
		rs_tp_add(agg, RS_F_DIRECT_TIME, duration);
		rs_tp_add(agg, RS_F_DIRECT_RECLAIMED, nr_reclaimed);
		if (over)
			rs_tp_add(agg, RS_F_DIRECT_OVER_BUDGET, 1);
		goal_add(agg, nr_reclaimed, st->nr_to_reclaim);
	}
	rs_hist_add(cgid, RS_HIST_DIRECT, duration);
	task_stall(cgid, RS_STALL_DIRECT, duration, over);
	emit_reclaim(cgid, RS_RECLAIMER_DIRECT, now, duration, nr_reclaimed,
		     st->nr_to_reclaim);
}

RS_PROGS("tp_btf/mm_vmscan_direct_reclaim_end", rs_direct_end,
	 RS_SLOT_DIRECT_END, direct_end(st, nr_reclaimed),
	 unsigned long nr_reclaimed)

/* --- memcg reclaim (limit and memory.reclaim) ----------------------------- */

static __always_inline void memcg_begin(struct rs_task_state *st, __u64 target)
{
	if (!st)
		return;
	st->in_memcg = 1;
	st->memcg_reclaimer = RS_RECLAIMER_MEMCG; /* PROACTIVE: see shrink */
	st->target_cgid = target;
	st->nr_to_reclaim = 0;
	st->memcg_start_ns = bpf_ktime_get_ns();
}

/* v7.2: the target memcg is an argument */
static __always_inline void memcg_begin_v2(struct rs_task_state *st, gfp_t gfp,
					   int order, struct mem_cgroup *memcg)
{
	memcg_begin(st, rs_btf_memcg_cgroup_id(memcg));
}

RS_PROGS("tp_btf/mm_vmscan_memcg_reclaim_begin", rs_memcg_begin_v2,
	 RS_SLOT_MEMCG_BEGIN, memcg_begin_v2(st, gfp, order, memcg), gfp_t gfp,
	 int order, struct mem_cgroup *memcg)

/* before: no memcg; the charging task's memcg is the usual target */
static __always_inline void memcg_begin_v1(struct rs_task_state *st, int order,
					   gfp_t gfp)
{
	memcg_begin(st, rs_current_memcg_cgroup_id());
}

RS_PROGS("tp_btf/mm_vmscan_memcg_reclaim_begin", rs_memcg_begin_v1,
	 RS_SLOT_MEMCG_BEGIN, memcg_begin_v1(st, order, gfp), int order,
	 gfp_t gfp)

static __always_inline void memcg_end(struct rs_task_state *st,
				      unsigned long nr_reclaimed)
{
	struct rs_agg_value *agg;
	__u64 now, duration;
	__u8 reclaimer;
	bool over;

	if (!st || !st->in_memcg)
		return;
	st->in_memcg = 0;
	/* no pass outlives its invocation, even if its exit was lost */
	st->in_pass = st->in_classic = 0;
	now = bpf_ktime_get_ns();
	duration = now - st->memcg_start_ns;
	over = duration > rs_budget_ns;
	reclaimer = st->memcg_reclaimer;
	agg = rs_agg_get(st->target_cgid, rs_fixed_node, reclaimer);
	if (agg) {
		rs_tp_add(agg, RS_F_MEMCG_RECLAIMS, 1);
		rs_tp_add(agg, RS_F_MEMCG_TIME, duration);
		rs_tp_add(agg, RS_F_MEMCG_RECLAIMED, nr_reclaimed);
		if (over)
			rs_tp_add(agg, RS_F_MEMCG_OVER_BUDGET, 1);
		goal_add(agg, nr_reclaimed, st->nr_to_reclaim);
	}
	rs_hist_add(st->target_cgid, RS_HIST_MEMCG, duration);
	task_stall(st->target_cgid,
		   reclaimer == RS_RECLAIMER_PROACTIVE ? RS_STALL_PROACTIVE
						       : RS_STALL_MEMCG,
		   duration, over);
	emit_reclaim(st->target_cgid, reclaimer, now, duration, nr_reclaimed,
		     st->nr_to_reclaim);
}

RS_PROGS("tp_btf/mm_vmscan_memcg_reclaim_end", rs_memcg_end, RS_SLOT_MEMCG_END,
	 memcg_end(st, nr_reclaimed), unsigned long nr_reclaimed)

/* --- node reclaim ----------------------------------------------------------
 */

static __always_inline void node_begin(struct rs_task_state *st, int nid,
				       int order, gfp_t gfp)
{
	if (st)
		st->in_node_reclaim = 1;
}

RS_PROGS("tp_btf/mm_vmscan_node_reclaim_begin", rs_node_begin,
	 RS_SLOT_NODE_BEGIN, node_begin(st, nid, order, gfp), int nid,
	 int order, gfp_t gfp)

static __always_inline void node_end(struct rs_task_state *st,
				     unsigned long nr_reclaimed)
{
	struct rs_agg_value *agg;

	if (!st || !st->in_node_reclaim)
		return;
	st->in_node_reclaim = 0;
	/* no pass outlives its invocation, even if its exit was lost */
	st->in_pass = st->in_classic = 0;
	agg = rs_agg_get(rs_current_memcg_cgroup_id(), rs_fixed_node,
			 RS_RECLAIMER_NODE);
	if (agg)
		rs_tp_add(agg, RS_F_NODE_RECLAIMS, 1);
}

RS_PROGS("tp_btf/mm_vmscan_node_reclaim_end", rs_node_end, RS_SLOT_NODE_END,
	 node_end(st, nr_reclaimed), unsigned long nr_reclaimed)

/* --- LRU scanning ----------------------------------------------------------
 */

/*
 * The age of the generation an MGLRU eviction batch took from: scan_folios()
 * isolates from its type's min_seq and traces before it returns, with the
 * lruvec's lru_lock held (evict_folios), so min_seq is the generation the
 * batch came from; its age is jiffies less its birth, as lru_gen counts it,
 * in us (ages of hours fit the histogram).  The lruvec is the pass's (no
 * eviction outside a pass is seen: debugfs lru_gen's own).
 */
static __always_inline void evict_age(struct rs_task_state *st,
				      struct rs_agg_value *agg, __u64 cgid,
				      int lru)
{
	struct lruvec *lruvec = (struct lruvec *)st->pass.lruvec;
	__u64 per_jiffy = rs_ns_per_jiffy, seq, birth = 0, now, age_us = 0;

	if (!lruvec || !bpf_core_field_exists(lruvec->lrugen.min_seq) ||
	    !bpf_core_field_exists(lruvec->lrugen.timestamps) ||
	    !rs_lrugen_gens_fit(lruvec))
		return;
	/* HZ not known yet: counted, and nothing read */
	if (!per_jiffy) {
		if (agg)
			rs_tp_add(agg, RS_F_EVICT_UNAGED, 1);
		return;
	}
	/* MGLRU traces its type as LRU_INACTIVE_ANON or _FILE */
	if (lru == LRU_INACTIVE_FILE)
		seq = BPF_CORE_READ(lruvec, lrugen.min_seq[1]);
	else
		seq = BPF_CORE_READ(lruvec, lrugen.min_seq[0]);
	for (int gen = 0; gen < RS_MAX_NR_GENS; gen++)
		if (seq % RS_MAX_NR_GENS == gen)
			birth = BPF_CORE_READ(lruvec, lrugen.timestamps[gen]);
	now = bpf_jiffies64();
	/* no birth read (a stamp is never 0: jiffies start near 2^32 and
	 * take years to come back to it) */
	if (!birth) {
		if (agg)
			rs_tp_add(agg, RS_F_EVICT_UNAGED, 1);
		return;
	}
	if (now > birth)
		age_us = (now - birth) * per_jiffy / 1000;
	if (agg) {
		rs_tp_add(agg, RS_F_EVICT_AGE_SUM, age_us);
		rs_tp_add(agg, RS_F_EVICT_AGED, 1);
	}
	rs_hist_add(cgid, RS_HIST_EVICT_AGE, age_us);
}

static __always_inline void
lru_isolate(struct rs_task_state *st, int highest_zoneidx, int order,
	    unsigned long nr_requested, unsigned long nr_scanned,
	    unsigned long nr_skipped, unsigned long nr_taken, int lru)
{
	struct rs_where w;
	rs_locate(st, &w, rs_fixed_node);
	struct rs_agg_value *agg = rs_agg_of(&w);
	bool active = lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE;

	if (st && st->in_pass)
		st->pass_isolated += nr_taken;
	if (st && st->in_pass && nr_taken && !active)
		evict_age(st, agg, w.cgid, lru);
	if (st && st->in_balance && !active)
		st->balance_isolated += nr_taken; /* as RS_F_ISOLATED */
	if (!agg)
		return;
	if (active) {
		rs_tp_add(agg, RS_F_ACTIVE_ISOLATED, nr_taken);
		return;
	}
	rs_tp_add(agg, RS_F_SCANNED, nr_scanned);
	rs_tp_add(agg, RS_F_ISOLATED, nr_taken);
	if (lru == LRU_INACTIVE_FILE)
		rs_tp_add(agg, RS_F_ISOLATED_FILE, nr_taken);
}

RS_PROGS("tp_btf/mm_vmscan_lru_isolate", rs_lru_isolate, RS_SLOT_ISOLATE,
	 lru_isolate(st, highest_zoneidx, order, nr_requested, nr_scanned,
		     nr_skipped, nr_taken, lru),
	 int highest_zoneidx, int order, unsigned long nr_requested,
	 unsigned long nr_scanned, unsigned long nr_skipped,
	 unsigned long nr_taken, int lru)

/*
 * file is a bool for the classic LRU and LRU_INACTIVE_{ANON,FILE} (0 or 2)
 * for MGLRU's evict_folios(): non-zero means file either way.
 */
static __always_inline void
lru_shrink_inactive(struct rs_task_state *st, int nid, unsigned long nr_scanned,
		    unsigned long nr_reclaimed, struct reclaim_stat *stat,
		    int priority, int file)
{
	struct rs_where w;
	rs_locate(st, &w, nid);
	struct rs_agg_value *agg = rs_agg_of(&w);
	__u32 dirty = rs_reclaim_stat(stat, nr_dirty, 0);
	__u32 writeback = rs_reclaim_stat(stat, nr_writeback, 0);

	if (st && st->in_pass) {
		st->pass_reclaimed += nr_reclaimed;
		/* for the OOM record: what the pass met at the LRU's tail */
		st->pass_dirty += dirty;
		st->pass_writeback += writeback;
	}
	if (st && st->in_balance)
		st->balance_reclaimed += nr_reclaimed;
	if (!agg)
		return;
	rs_tp_add(agg, RS_F_RECLAIMED, nr_reclaimed);
	if (file)
		rs_tp_add(agg, RS_F_RECLAIMED_FILE, nr_reclaimed);
	rs_tp_add(agg, RS_F_DIRTY, dirty);
	rs_tp_add(agg, RS_F_WRITEBACK, writeback);
	rs_tp_add(agg, RS_F_CONGESTED, rs_reclaim_stat(stat, nr_congested, 0));
	rs_tp_add(agg, RS_F_IMMEDIATE, rs_reclaim_stat(stat, nr_immediate, 0));
	rs_tp_add(agg, RS_F_PAGEOUT, rs_reclaim_stat(stat, nr_pageout, 0));
}

RS_PROGS("tp_btf/mm_vmscan_lru_shrink_inactive", rs_lru_shrink_inactive,
	 RS_SLOT_SHRINK_INACTIVE,
	 lru_shrink_inactive(st, nid, nr_scanned, nr_reclaimed, stat, priority,
			     file),
	 int nid, unsigned long nr_scanned, unsigned long nr_reclaimed,
	 struct reclaim_stat *stat, int priority, int file)

static __always_inline void lru_shrink_active(struct rs_task_state *st, int nid,
					      unsigned long nr_taken,
					      unsigned long nr_active,
					      unsigned long nr_deactivated)
{
	struct rs_where w;
	struct rs_agg_value *agg;

	rs_locate(st, &w, nid);
	agg = rs_agg_of(&w);
	if (agg)
		rs_tp_add(agg, RS_F_DEACTIVATED, nr_deactivated);
}

RS_PROGS("tp_btf/mm_vmscan_lru_shrink_active", rs_lru_shrink_active,
	 RS_SLOT_SHRINK_ACTIVE,
	 lru_shrink_active(st, nid, nr_taken, nr_active, nr_deactivated),
	 int nid, unsigned long nr_taken, unsigned long nr_active,
	 unsigned long nr_deactivated)

/* --- throttling, kswapd, slab ----------------------------------------------
 */

static __always_inline void throttled(struct rs_task_state *st, int nid,
				      int usec_timeout, int usec_delayed,
				      int reason)
{
	struct rs_throttle_event *ev;
	struct rs_agg_value *agg;
	struct rs_where w;
	/* never negative in the kernel; 0 if it were, in every count alike */
	__u64 delayed_ns = usec_delayed > 0 ? (__u64)usec_delayed * 1000 : 0;
	bool over = delayed_ns > rs_budget_ns;

	rs_locate(st, &w, nid);
	agg = rs_agg_of(&w);
	if (agg) {
		rs_tp_add(agg, RS_F_THROTTLES, 1);
		rs_tp_add(agg, RS_F_THROTTLED, usec_delayed);
		if (over)
			rs_tp_add(agg, RS_F_THROTTLES_OVER_BUDGET, 1);
		/* enum vmscan_throttle_state, in order */
		if (reason == VMSCAN_THROTTLE_WRITEBACK)
			rs_tp_add(agg, RS_F_THROTTLES_WRITEBACK, 1);
		else if (reason == VMSCAN_THROTTLE_ISOLATED)
			rs_tp_add(agg, RS_F_THROTTLES_ISOLATED, 1);
		else if (reason == VMSCAN_THROTTLE_NOPROGRESS)
			rs_tp_add(agg, RS_F_THROTTLES_NOPROGRESS, 1);
		else if (reason == VMSCAN_THROTTLE_CONGESTED)
			rs_tp_add(agg, RS_F_THROTTLES_CONGESTED, 1);
	}
	rs_hist_add(w.cgid, RS_HIST_THROTTLE, delayed_ns);
	task_stall(w.cgid, RS_STALL_THROTTLE, delayed_ns, over);
	ev = rs_reserve(sizeof(*ev), RS_EV_THROTTLE, w.cgid, w.node,
			w.reclaimer);
	if (!ev)
		return;
	ev->reason = reason;
	ev->usec_timeout = usec_timeout;
	ev->usec_delayed = usec_delayed;
	ev->pad = 0;
	rs_submit(ev, sizeof(*ev));
}

RS_PROGS("tp_btf/mm_vmscan_throttled", rs_throttled, RS_SLOT_THROTTLED,
	 throttled(st, nid, usec_timeout, usec_delayed, reason), int nid,
	 int usec_timeout, int usec_delayed, int reason)

static __always_inline void kswapd_wake(struct rs_task_state *st, int nid,
					int zid, int order)
{
	struct rs_agg_value *agg =
		rs_agg_get(RS_CGROUP_NONE, nid, RS_RECLAIMER_KSWAPD);

	if (agg)
		rs_tp_add(agg, RS_F_KSWAPD_WAKES, 1);
}

RS_PROGS("tp_btf/mm_vmscan_kswapd_wake", rs_kswapd_wake, RS_SLOT_KSWAPD_WAKE,
	 kswapd_wake(st, nid, zid, order), int nid, int zid, int order)

static __always_inline void kswapd_sleep(struct rs_task_state *st, int nid)
{
	struct rs_agg_value *agg =
		rs_agg_get(RS_CGROUP_NONE, nid, RS_RECLAIMER_KSWAPD);

	if (agg)
		rs_tp_add(agg, RS_F_KSWAPD_SLEEPS, 1);
}

RS_PROGS("tp_btf/mm_vmscan_kswapd_sleep", rs_kswapd_sleep, RS_SLOT_KSWAPD_SLEEP,
	 kswapd_sleep(st, nid), int nid)

/* v7.2: the memcg is the last argument */
static __always_inline void
slab_end_v2(struct rs_task_state *st, struct shrinker *shr, int nid,
	    int shrinker_retval, long unused_scan_cnt, long new_scan_cnt,
	    long total_scan, struct mem_cgroup *memcg)
{
	struct rs_agg_value *agg;

	if (shrinker_retval <= 0)
		return;
	agg = rs_agg_get(rs_btf_memcg_cgroup_id(memcg), nid,
			 st ? rs_reclaimer_of(st) : RS_RECLAIMER_OTHER);
	if (agg)
		rs_tp_add(agg, RS_F_SLAB_FREED, shrinker_retval);
}

RS_PROGS("tp_btf/mm_shrink_slab_end", rs_slab_end_v2, RS_SLOT_SLAB_END,
	 slab_end_v2(st, shr, nid, shrinker_retval, unused_scan_cnt,
		     new_scan_cnt, total_scan, memcg),
	 struct shrinker *shr, int nid, int shrinker_retval,
	 long unused_scan_cnt, long new_scan_cnt, long total_scan,
	 struct mem_cgroup *memcg)

/* before: attributed like the LRU events */
static __always_inline void slab_end_v1(struct rs_task_state *st,
					struct shrinker *shr, int nid,
					int shrinker_retval)
{
	struct rs_agg_value *agg;
	struct rs_where w;

	if (shrinker_retval <= 0)
		return;
	rs_locate(st, &w, nid);
	agg = rs_agg_of(&w);
	if (agg)
		rs_tp_add(agg, RS_F_SLAB_FREED, shrinker_retval);
}

RS_PROGS("tp_btf/mm_shrink_slab_end", rs_slab_end_v1, RS_SLOT_SLAB_END,
	 slab_end_v1(st, shr, nid, shrinker_retval), struct shrinker *shr,
	 int nid, int shrinker_retval)
