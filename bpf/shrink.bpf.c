// SPDX-License-Identifier: GPL-2.0
/*
 * lruvec passes: MGLRU's try_to_shrink_lruvec() with its scan budget and
 * batches, and the classic LRU's shrink_lruvec().  Both set the per-task
 * attribution that the tracepoint layer uses.
 */
#include "common.bpf.h"
#include "shrink.h"

_Static_assert(RS_F_EXIT_BUDGET + RS_EXIT_UNKNOWN == RS_F_EXIT_OTHER &&
		       RS_F_EXIT_BUDGET + RS_EXIT_AFTER_AGING ==
			       RS_F_EXIT_AFTER_AGING &&
		       RS_F_EXIT_BUDGET + RS_EXIT_BELOW_MIN ==
			       RS_F_EXIT_BELOW_MIN,
	       "exit_* fields follow enum rs_exit_reason");

char LICENSE[] SEC("license") = "GPL";

static __always_inline __u8 pass_reclaimer(struct rs_task_state *st,
					   struct scan_control *sc,
					   struct mem_cgroup *target)
{
	if (rs_current_is_kswapd())
		return RS_RECLAIMER_KSWAPD;
	if (rs_sc_proactive(sc))
		return RS_RECLAIMER_PROACTIVE;
	if (st->in_node_reclaim)
		return RS_RECLAIMER_NODE;
	if (rs_sc_hibernation(sc))
		return RS_RECLAIMER_OTHER;
	if (target)
		return RS_RECLAIMER_MEMCG;
	return RS_RECLAIMER_DIRECT;
}

/* root_reclaim(): no target, or the root memcg as target. */
static __always_inline bool is_root_reclaim(struct mem_cgroup *target)
{
	return !target || !target->css.parent;
}

static __always_inline void pass_enter(struct rs_task_state *st,
				       struct lruvec *lruvec,
				       struct scan_control *sc)
{
	const struct rs_lruvec_owner *held;
	struct mem_cgroup *target;

	if (!st)
		return;
	/*
	 * sc, lruvec and what their pointers lead to are BTF pointers of the
	 * fentry/fexit arguments: plain loads, no probe-read calls.  Memcg
	 * reclaim enters the pass from shrink_lruvec() of the same lruvec.
	 */
	target = sc->target_mem_cgroup;
	held = rs_owner_held(st, lruvec, false);
	if (held)
		st->pass = *held;
	else
		rs_owner_of(lruvec, target, &st->pass);
	st->pass_reclaimer = pass_reclaimer(st, sc, target);
	st->pass_start_ns = bpf_ktime_get_ns();
	st->evictable = 0;
	st->budget = 0;
	st->budget_used = 0;
	st->pass_isolated = 0;
	st->pass_reclaimed = 0;
	st->pass_dirty = 0;
	st->pass_writeback = 0;
	st->nr_to_reclaim = sc->nr_to_reclaim;
	st->batches = 0;
	st->batches_anon = 0;
	st->batches_file = 0;
	st->batches_empty = 0;
	st->type_fallbacks = 0;
	st->last_delta = 0;
	st->priority = sc->priority;
	st->swappiness = -1;
	st->budget_known = 0;
	st->kbudget_known = 0;
	st->aborted = 0;
	st->abort_checks = 0;
	st->aged = 0;
	st->aging_ok = 0;
	st->root_reclaim = is_root_reclaim(target);
	st->pass_target = (__u64)target;
	st->memcg_low_reclaim = rs_sc_memcg_low_reclaim(sc);
	st->in_pass = 1;
	/* only scan_control tells memory.reclaim from limit reclaim */
	if (st->in_memcg && st->pass_reclaimer == RS_RECLAIMER_PROACTIVE)
		st->memcg_reclaimer = RS_RECLAIMER_PROACTIVE;
	if (st->in_classic)
		st->classic_saw_pass = 1;
	if (st->in_one && st->one.lruvec == (__u64)lruvec)
		st->one_ran = 1;
}

RS_PROGS("fentry/try_to_shrink_lruvec", rs_pass_enter, RS_SLOT_PASS_ENTER,
	 pass_enter(st, lruvec, sc), struct lruvec *lruvec,
	 struct scan_control *sc)

/*
 * The first lruvec_evictable_size() of a pass is get_nr_to_scan()'s: mirror
 * the budget computed from it.
 */
static __always_inline void evictable_exit(struct rs_task_state *st,
					   struct lruvec *lruvec,
					   int swappiness, unsigned long ret)
{
	struct rs_budget_inputs in = {};
	struct mem_cgroup *memcg;

	if (!st || st->budget_known || !rs_on_pass(st, lruvec))
		return;
	memcg = (struct mem_cgroup *)st->pass.memcg;
	in.evictable = ret;
	in.priority = st->priority;
	in.online = true;
	in.memcg_low_reclaim = st->memcg_low_reclaim;
	if (memcg) {
		in.online = BPF_CORE_READ(memcg, css.flags) & CSS_ONLINE;
		in.usage = BPF_CORE_READ(memcg, memory.usage.counter);
		/* mem_cgroup_protection(): none when memcg is the target */
		if ((__u64)memcg != st->pass_target) {
			in.emin = BPF_CORE_READ(memcg, memory.emin);
			in.elow = BPF_CORE_READ(memcg, memory.elow);
		}
	}
	st->evictable = ret;
	st->swappiness = swappiness;
	st->budget = rs_mglru_budget(&in);
	st->budget_known = 1;
}

RS_PROGS("fexit/lruvec_evictable_size", rs_evictable_exit,
	 RS_SLOT_EVICTABLE_EXIT, evictable_exit(st, lruvec, swappiness, ret),
	 struct lruvec *lruvec, int swappiness, unsigned long ret)

/*
 * The first apply_proportional_protection() of a pass is get_nr_to_scan()'s
 * (an offline memcg's pass calls none): the kernel's own budget, to check
 * the mirror above against.
 */
static __always_inline void protection_exit(struct rs_task_state *st,
					    struct mem_cgroup *memcg,
					    struct scan_control *sc,
					    unsigned long ret)
{
	if (!st || !st->in_pass || st->kbudget_known ||
	    st->pass.memcg != (__u64)memcg)
		return;
	/* get_nr_to_scan(): the same sc->priority the pass began with */
	st->kbudget = st->priority >= 0 && st->priority < 64
			      ? ret >> st->priority
			      : 0;
	st->kbudget_known = 1;
}

RS_PROGS("fexit/apply_proportional_protection", rs_protection_exit,
	 RS_SLOT_PROTECTION_EXIT, protection_exit(st, memcg, sc, ret),
	 struct mem_cgroup *memcg, struct scan_control *sc, unsigned long scan,
	 unsigned long ret)

/*
 * should_abort_scan() true ends the pass (reclaimed enough, watermarks met,
 * a signal for proactive reclaim): the kernel's own answer, where
 * rs_classify_exit() deduces RS_EXIT_TARGET.
 */
static __always_inline void abort_exit(struct rs_task_state *st,
				       struct lruvec *lruvec, bool ret)
{
	if (!st || !rs_on_pass(st, lruvec))
		return;
	st->abort_checks++;
	if (ret)
		st->aborted = 1;
}

RS_PROGS("fexit/should_abort_scan", rs_abort_exit, RS_SLOT_ABORT_EXIT,
	 abort_exit(st, lruvec, ret), struct lruvec *lruvec,
	 struct scan_control *sc, bool ret)

/* One evict_folios() batch of the current pass: its return uses the budget. */
static __always_inline void note_batch(struct rs_task_state *st,
				       struct lruvec *lruvec, int scanned)
{
	if (!st || !rs_on_pass(st, lruvec))
		return;
	st->batches++;
	st->last_delta = scanned;
	st->budget_used += scanned;
}

/* v7.2: evict_folios(nr_to_scan, lruvec, sc, swappiness) */
RS_PROGS("fexit/evict_folios", rs_evict_exit_v2, RS_SLOT_EVICT_EXIT,
	 note_batch(st, lruvec, ret), unsigned long nr_to_scan,
	 struct lruvec *lruvec, struct scan_control *sc, int swappiness,
	 int ret)

/* v6.12: evict_folios(lruvec, sc, swappiness) */
RS_PROGS("fexit/evict_folios", rs_evict_exit_v1, RS_SLOT_EVICT_EXIT,
	 note_batch(st, lruvec, ret), struct lruvec *lruvec,
	 struct scan_control *sc, int swappiness, int ret)

/*
 * The batch's type.  isolate_folios() tries the type get_type_to_scan()
 * chose (the PID controller's file/anon balance), then the other one if
 * the first isolated nothing; since v7.2 ("mm/mglru: scan and count the
 * exact number of folios") it returns what both tries scanned and says
 * through its pointers how many folios were isolated, of which type, and
 * what that try scanned.  A first try that scanned more than nothing shows
 * as total > that try's; one that found the type with nothing to evict
 * scans nothing and is not seen.  The pointers are evict_folios()' locals,
 * still live at this exit.  Kernels before 7.2 return only the type of
 * the last try: their isolate_folios is left detached (probe says so).
 */
static __always_inline void isolate_exit(struct rs_task_state *st,
					 struct lruvec *lruvec,
					 const int *isolated_p,
					 const int *type_p,
					 const int *type_scanned_p, int scanned)
{
	int isolated = 0, type = 0, type_scanned = 0;

	if (!st || !rs_on_pass(st, lruvec))
		return;
	bpf_probe_read_kernel(&isolated, sizeof(isolated), isolated_p);
	if (isolated <= 0) {
		st->batches_empty++;
		return;
	}
	bpf_probe_read_kernel(&type, sizeof(type), type_p);
	bpf_probe_read_kernel(&type_scanned, sizeof(type_scanned),
			      type_scanned_p);
	if (type)
		st->batches_file++;
	else
		st->batches_anon++;
	if (scanned > type_scanned)
		st->type_fallbacks++;
}

RS_PROGS("fexit/isolate_folios", rs_isolate_exit, RS_SLOT_ISOLATE_EXIT,
	 isolate_exit(st, lruvec, isolated, isolate_type, isolate_scanned, ret),
	 unsigned long nr_to_scan, struct lruvec *lruvec,
	 struct scan_control *sc, int swappiness, struct list_head *list,
	 int *isolated, int *isolate_type, int *isolate_scanned, int ret)

/*
 * A pass's exit, in three steps: why it ended (the facts, and what the OOM
 * record keeps of the last pass), its counters, its event record.
 */
static __always_inline enum rs_exit_reason
pass_exit_reason(struct rs_task_state *st, struct scan_control *sc,
		 bool need_rotate, enum rs_exit_reason *deduced)
{
	struct rs_pass_facts facts = {};
	enum rs_exit_reason why;

	facts.budget = st->budget;
	facts.budget_used = st->budget_used;
	facts.nr_reclaimed = sc->nr_reclaimed;
	facts.nr_to_reclaim = st->nr_to_reclaim;
	facts.batches = st->batches;
	facts.last_delta = st->last_delta;
	facts.budget_known = st->budget_known;
	facts.root_reclaim = st->root_reclaim;
	facts.kswapd = st->pass_reclaimer == RS_RECLAIMER_KSWAPD;
	facts.aged = st->aged;
	facts.aging_ok = st->aging_ok;
	facts.need_rotate = need_rotate;
	facts.order = sc->order;
	*deduced = rs_classify_exit(&facts);
	/* the kernel's own answer where it gave one: the loop breaks on it */
	why = st->aborted ? RS_EXIT_TARGET : *deduced;
	/* kept for the OOM record, should this task's reclaim end in one */
	st->last_exit = why;
	st->last_exit_known = 1;
	st->last_pass_reclaimed = st->pass_reclaimed;
	st->last_pass_budget = st->budget;
	st->last_pass_isolated = st->pass_isolated;
	st->last_pass_dirty = st->pass_dirty;
	st->last_pass_writeback = st->pass_writeback;
	return why;
}

static __always_inline void pass_count(struct rs_task_state *st,
				       bool need_rotate,
				       enum rs_exit_reason why, __u64 duration)
{
	struct rs_agg_value *agg;

	if (!st->budget_known)
		rs_stat_add(RS_STAT_PASS_NO_BUDGET, 1);
	agg = rs_agg_get(st->pass.cgid, st->pass.node, st->pass_reclaimer);
	if (agg) {
		rs_add(agg, RS_F_PASSES, 1);
		rs_add(agg, RS_F_BATCHES, st->batches);
		rs_add(agg, RS_F_BATCHES_ANON, st->batches_anon);
		rs_add(agg, RS_F_BATCHES_FILE, st->batches_file);
		rs_add(agg, RS_F_BATCHES_EMPTY, st->batches_empty);
		rs_add(agg, RS_F_TYPE_FALLBACKS, st->type_fallbacks);
		rs_add(agg, RS_F_BUDGET, st->budget);
		rs_add(agg, RS_F_BUDGET_USED, st->budget_used);
		rs_add(agg, RS_F_PASS_TIME, duration);
		if (duration > rs_budget_ns)
			rs_add(agg, RS_F_PASSES_OVER_BUDGET, 1);
		rs_add(agg, RS_F_ROTATIONS, need_rotate);
		rs_add(agg, RS_F_ABORT_CHECKS, st->abort_checks);
		rs_add(agg, RS_F_ABORTS, st->aborted);
		if (st->kbudget_known) {
			rs_add(agg, RS_F_BUDGET_KERNEL, st->kbudget);
			rs_add(agg, RS_F_BUDGET_KERNEL_PASSES, 1);
		}
		/* the exit_* fields follow enum rs_exit_reason */
		rs_add(agg, RS_F_EXIT_BUDGET + why, 1);
	}
	rs_hist_add(st->pass.cgid, RS_HIST_PASS, duration);
}

static __always_inline void
pass_event(struct rs_task_state *st, bool need_rotate, enum rs_exit_reason why,
	   enum rs_exit_reason deduced, __u64 now, __u64 duration)
{
	struct rs_shrink_event *ev;

	ev = rs_reserve_at(sizeof(*ev), RS_EV_SHRINK, st->pass.cgid,
			   st->pass.node, st->pass_reclaimer, now);
	if (!ev)
		return;
	ev->evictable = st->evictable;
	ev->budget = st->budget;
	ev->budget_used = st->budget_used;
	ev->isolated = st->pass_isolated;
	ev->reclaimed = st->pass_reclaimed;
	ev->duration_ns = duration;
	ev->nr_to_reclaim = st->nr_to_reclaim;
	ev->batches = st->batches;
	ev->last_batch = st->last_delta;
	ev->priority = st->priority;
	ev->swappiness = st->swappiness;
	ev->exit_reason = why;
	ev->need_rotate = need_rotate;
	ev->budget_known = st->budget_known;
	ev->aged = st->aged;
	ev->budget_kernel = st->kbudget_known ? st->kbudget : 0;
	ev->budget_kernel_known = st->kbudget_known;
	ev->aborted = st->aborted;
	ev->abort_known = st->abort_checks > 0;
	ev->exit_deduced = deduced;
	__builtin_memset(ev->pad, 0, sizeof(ev->pad));
	rs_submit(ev, sizeof(*ev));
}

static __always_inline void pass_exit(struct rs_task_state *st,
				      struct lruvec *lruvec,
				      struct scan_control *sc, bool need_rotate)
{
	enum rs_exit_reason why, deduced;
	__u64 now, duration;

	if (!st || !st->in_pass)
		return;
	st->in_pass = 0;
	st->last_cgid = st->pass.cgid;
	st->last_node = st->pass.node;
	now = bpf_ktime_get_ns();
	duration = now - st->pass_start_ns;
	why = pass_exit_reason(st, sc, need_rotate, &deduced);
	pass_count(st, need_rotate, why, duration);
	pass_event(st, need_rotate, why, deduced, now, duration);
}

RS_PROGS("fexit/try_to_shrink_lruvec", rs_pass_exit, RS_SLOT_PASS_EXIT,
	 pass_exit(st, lruvec, sc, need_rotate), struct lruvec *lruvec,
	 struct scan_control *sc, bool need_rotate)

static __always_inline void classic_enter(struct rs_task_state *st,
					  struct lruvec *lruvec,
					  struct scan_control *sc)
{
	if (!st)
		return;
	rs_owner_of(lruvec, sc->target_mem_cgroup, &st->classic);
	st->classic_reclaimer = pass_reclaimer(st, sc, sc->target_mem_cgroup);
	st->classic_saw_pass = 0;
	/* the reclaim's goal, for goal_ratio (MGLRU passes set it too) */
	st->nr_to_reclaim = sc->nr_to_reclaim;
	st->in_classic = 1;
	if (st->in_memcg && st->classic_reclaimer == RS_RECLAIMER_PROACTIVE)
		st->memcg_reclaimer = RS_RECLAIMER_PROACTIVE;
}

RS_PROGS("fentry/shrink_lruvec", rs_classic_enter, RS_SLOT_CLASSIC_ENTER,
	 classic_enter(st, lruvec, sc), struct lruvec *lruvec,
	 struct scan_control *sc)

static __always_inline void classic_exit(struct rs_task_state *st)
{
	struct rs_agg_value *agg;

	if (!st || !st->in_classic)
		return;
	st->in_classic = 0;
	st->last_cgid = st->classic.cgid;
	st->last_node = st->classic.node;
	/* MGLRU memcg reclaim goes through shrink_lruvec(): no classic pass */
	if (st->classic_saw_pass)
		return;
	agg = rs_agg_get(st->classic.cgid, st->classic.node,
			 st->classic_reclaimer);
	if (agg)
		rs_add(agg, RS_F_CLASSIC_SHRINKS, 1);
}

RS_PROGS("fexit/shrink_lruvec", rs_classic_exit, RS_SLOT_CLASSIC_EXIT,
	 classic_exit(st), struct lruvec *lruvec, struct scan_control *sc)

/* --- the memcg LRU: root reclaim's walk over memcgs (shrink_many) -------- */

static __always_inline void one_enter(struct rs_task_state *st,
				      struct lruvec *lruvec,
				      struct scan_control *sc)
{
	if (!st)
		return;
	rs_owner_of(lruvec, sc->target_mem_cgroup, &st->one);
	st->one_reclaimer = pass_reclaimer(st, sc, sc->target_mem_cgroup);
	st->one_ran = 0;
	st->in_one = 1;
}

RS_PROGS("fentry/shrink_one", rs_one_enter, RS_SLOT_ONE_ENTER,
	 one_enter(st, lruvec, sc), struct lruvec *lruvec,
	 struct scan_control *sc)

/* A visit of the walk: whether it ran a pass or skipped the memcg. */
static __always_inline void one_exit(struct rs_task_state *st,
				     struct lruvec *lruvec)
{
	struct rs_agg_value *agg;

	if (!st || !st->in_one || st->one.lruvec != (__u64)lruvec)
		return;
	st->in_one = 0;
	agg = rs_agg_get(st->one.cgid, st->one.node, st->one_reclaimer);
	if (!agg)
		return;
	rs_add(agg, RS_F_MEMCG_LRU_VISITS, 1);
	rs_add(agg, RS_F_MEMCG_LRU_SKIPS, !st->one_ran);
}

RS_PROGS("fexit/shrink_one", rs_one_exit, RS_SLOT_ONE_EXIT,
	 one_exit(st, lruvec), struct lruvec *lruvec, struct scan_control *sc,
	 int ret)

/* Where the memcg LRU moved a memcg's lruvec (op: RS_MEMCG_LRU_*). */
static __always_inline void rotate(struct rs_task_state *st,
				   struct lruvec *lruvec, int op)
{
	struct rs_lruvec_owner spare;
	const struct rs_lruvec_owner *o = &spare;
	struct rs_agg_value *agg;
	__u8 reclaimer = RS_RECLAIMER_OTHER;
	__u32 field;

	switch (op) {
	case RS_MEMCG_LRU_HEAD:
		field = RS_F_MEMCG_LRU_TO_HEAD;
		break;
	case RS_MEMCG_LRU_TAIL:
		field = RS_F_MEMCG_LRU_TO_TAIL;
		break;
	case RS_MEMCG_LRU_OLD:
		field = RS_F_MEMCG_LRU_TO_OLD;
		break;
	case RS_MEMCG_LRU_YOUNG:
		field = RS_F_MEMCG_LRU_TO_YOUNG;
		break;
	default:
		return;
	}
	/* shrink_many() moves the lruvec its shrink_one() just visited */
	if (st && st->one.lruvec == (__u64)lruvec) {
		o = &st->one;
		reclaimer = st->one_reclaimer;
	} else {
		rs_owner_of(lruvec, NULL, &spare);
	}
	agg = rs_agg_get(o->cgid, o->node, reclaimer);
	if (agg)
		rs_add(agg, field, 1);
}

RS_PROGS("fentry/lru_gen_rotate_memcg", rs_rotate, RS_SLOT_ROTATE,
	 rotate(st, lruvec, op), struct lruvec *lruvec, int op)
