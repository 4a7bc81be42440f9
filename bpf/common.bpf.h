/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Maps and helpers shared by every probe; the probes form one object
 * (bpf/reclaimscope.bpf.c).
 */
#ifndef RS_COMMON_BPF_H
#define RS_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "rs_common.h"
#include "aging.h"
#include "compat.bpf.h"

#ifndef ENOMEM
#define ENOMEM 12 /* vmlinux.h has no errno values */
#endif

/* Set by userspace before load. */
const volatile bool rs_stream_events = false;
/*
 * Wake the consumer once this much is waiting in the ring (userspace sets a
 * quarter of the ring); below that, records wait for the consumer's own
 * timer (rs_collector_poll).
 */
const volatile __u64 rs_wakeup_bytes = 1 << 20;
/*
 * Tracepoints run their programs with preemption off (userspace found it by
 * trying: rs_probe_tp_preemption); see rs_tp_add.
 */
const volatile bool rs_tp_preempt_off = false;
/* Node of every lruvec on a one-node machine; RS_NODE_UNKNOWN otherwise. */
const volatile __u16 rs_fixed_node = RS_NODE_UNKNOWN;
/*
 * The latency budget, ns (--budget-ms): reclaims, passes and throttles
 * longer than it are counted in the *_over_budget fields and per task, so
 * that a budget is judged exactly without event records.
 */
const volatile __u64 rs_budget_ns = RS_DEFAULT_BUDGET_NS;
/*
 * Agings seen to start and end, two steps each (aging.bpf.c): odd while one
 * runs.  A shadow's test reads max_seq inside the kernel and again here,
 * after it; an aging between the two reads moves max_seq, so the test
 * compares this count before and after (refault.bpf.c).
 */
__u64 rs_aging_steps = 0;
/*
 * ns per jiffy (NSEC_PER_SEC / HZ), written by userspace once it knows the
 * kernel's HZ (src/model/gens.c): the generations' births are jiffies.  0
 * until then, and no eviction's age is taken.
 */
__u64 rs_ns_per_jiffy = 0;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct rs_task_state);
} rs_task SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct rs_agg_key);
	__type(value, struct rs_agg_value);
} rs_agg SEC(".maps");

/*
 * Where a cell goes when rs_agg cannot allocate it.  rs_agg allocates its
 * elements as they are first touched (preallocated, it would cost 16384
 * cells times the CPUs); the kernel's BPF allocator hands them out from a
 * small per-CPU cache refilled later, from irq_work, so a burst of new
 * memcgs reclaiming at once on one CPU can find it empty: the update fails
 * with ENOMEM though the map has room (seen on 6.12, nine memcgs starting
 * together).  This map is preallocated, so only a full map fails; it is
 * small (userspace sizes it by the CPUs, RS_SPILL_CELLS) and userspace adds
 * a key's cells here to its rs_agg cells.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, RS_SPILL_CELLS_MAX);
	__type(key, struct rs_agg_key);
	__type(value, struct rs_agg_value);
} rs_agg_spill SEC(".maps");

/*
 * Latency histograms: shared, not per-CPU (per-CPU buckets would cost more
 * memory than they save); the events are per reclaim call, not per folio,
 * so atomic adds do not contend.  One entry per memcg, kind and octave
 * with a count (rs_common.h): room for 10,000 memcgs with three kinds of
 * four octaves each, or about 5,700 whose five kinds span 23 octaves
 * (the wbstorm scenario's memcg); a fuller map counts hist_full, which
 * report warns of (the octaves reached last, the tail, are the ones
 * lost).  The daemon's batched read walks every bucket of the table each
 * refresh, so it is not larger than that.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 131072);
	__type(key, struct rs_hist_key);
	__type(value, struct rs_hist_value);
} rs_hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RS_NR_STATS);
	__type(key, __u32);
	__type(value, __u64);
} rs_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} rs_events SEC(".maps");

static const struct rs_agg_value rs_zero_agg;

/*
 * Set once something may have changed the maps a snapshot reads, cleared by
 * the snapshot that reads them: with thousands of idle memcgs, reading every
 * entry each refresh was most of an idle daemon's time.  Set after the
 * change (rs_changed_mark), so that a snapshot which clears it either sees
 * the change or leaves the flag set for the next one; only tested while
 * set, so the line stays shared between CPUs until a snapshot clears it.
 * No barrier orders the change before the test (it would cost every run):
 * userspace reads once more after a snapshot that found the flag set
 * (src/collect/collector_maps.c: maps_changed).
 */
__u32 rs_changed = 0;

static __always_inline void rs_changed_mark(void)
{
	if (!rs_changed)
		rs_changed = 1;
}

/*
 * Per-CPU values still need atomic adds: programs run with migration, not
 * preemption, disabled, so two tasks on one CPU can interleave an update
 * (rs_tp_add: not where tracepoint programs run with preemption off).
 */
static __always_inline void rs_stat_add(__u32 stat, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&rs_stats, &stat);

	if (v)
		__sync_fetch_and_add(v, n);
}

/*
 * A task's state where its task storage could not be made.  Kernels with
 * the per-CPU bpf_task_storage_busy count (kernel/bpf/bpf_task_storage.c;
 * 6.12's and 6.18's BTF have it, 7.2's and 7.3's not) refuse to create a
 * task's storage from a tracing program while any task on the CPU is
 * inside task storage code: one preempted there, or one exiting, which
 * frees its own.  Under the lab's aging workload (16 fresh threads a
 * round) 6.18 refused now and then, and every event of that task went
 * uncounted.  Such a task's state is kept in rs_task_spare instead, keyed
 * by thread id and start time (a reused id is another task; the idle
 * tasks, all thread 0, by CPU).  Userspace takes out the entries of tasks
 * that are gone (collector_maps.c); a full map counts a state miss.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RS_SPARE_STATES);
	__type(key, struct rs_spare_key);
	__type(value, struct rs_task_state);
} rs_task_spare SEC(".maps");

static const struct rs_task_state rs_zero_state;
/* tests only: no task storage at all, every state spare (collector.c) */
const volatile bool rs_spare_only = false;
/* set once a state is kept spare: until then no event looks there */
__u32 rs_spare_used = 0;

static __always_inline struct rs_task_state *rs_spare(struct task_struct *task,
						      bool create)
{
	struct rs_spare_key key = {.tid = (__u32)bpf_get_current_pid_tgid(),
				   .start_time = task->start_time};
	struct rs_task_state *st;

	if (!key.tid)
		key.cpu = bpf_get_smp_processor_id();
	st = bpf_map_lookup_elem(&rs_task_spare, &key);
	if (st || !create)
		return st;
	/* BPF_NOEXIST: a state an interrupt on this task made meanwhile
	 * stays, and nobody holds a pointer to an entry being replaced */
	if (!bpf_map_update_elem(&rs_task_spare, &key, &rs_zero_state,
				 BPF_NOEXIST)) {
		rs_stat_add(RS_STAT_SPARE_STATES, 1);
		if (!rs_spare_used)
			rs_spare_used = 1;
	}
	return bpf_map_lookup_elem(&rs_task_spare, &key);
}

static __always_inline struct rs_task_state *rs_state(bool create)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct rs_task_state *st;

	st = rs_spare_only ? NULL
			   : bpf_task_storage_get(&rs_task, task, NULL, 0);
	if (st)
		return st;
	/* a task whose state is spare keeps it there: a storage made
	 * later would start it again from nothing */
	if (rs_spare_used) {
		st = rs_spare(task, false);
		if (st)
			return st;
	}
	if (!create)
		return NULL;
	if (!rs_spare_only)
		st = bpf_task_storage_get(&rs_task, task, NULL,
					  BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!st)
		st = rs_spare(task, true);
	if (!st)
		rs_stat_add(RS_STAT_STATE_MISSES, 1);
	return st;
}

static __always_inline bool rs_current_is_kswapd(void)
{
	/* a plain load from the task's BTF pointer: no probe-read call */
	return bpf_get_current_task_btf()->flags & RS_PF_KSWAPD;
}

/* The reclaimer kind for an event outside an lruvec pass. */
static __always_inline __u8 rs_reclaimer_of(const struct rs_task_state *st)
{
	if (st->in_pass)
		return st->pass_reclaimer;
	if (st->in_classic)
		return st->classic_reclaimer;
	if (rs_current_is_kswapd())
		return RS_RECLAIMER_KSWAPD;
	if (st->in_node_reclaim)
		return RS_RECLAIMER_NODE;
	if (st->in_memcg)
		return RS_RECLAIMER_MEMCG;
	if (st->in_direct)
		return RS_RECLAIMER_DIRECT;
	return RS_RECLAIMER_OTHER;
}

static const struct rs_hist_value rs_zero_hist;

static __always_inline void rs_hist_add(__u64 cgid, enum rs_hist hist, __u64 ns)
{
	__u32 bucket = rs_hist_bucket(ns);
	struct rs_hist_key key = {.cgroup_id = cgid,
				  .hist = hist,
				  .octave = bucket >> RS_HIST_SUB_BITS};
	struct rs_hist_value *h;
	__u32 sub = bucket & (RS_HIST_SUBS - 1);

	h = bpf_map_lookup_elem(&rs_hist, &key);
	if (!h) {
		bpf_map_update_elem(&rs_hist, &key, &rs_zero_hist, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&rs_hist, &key);
	}
	if (h)
		__sync_fetch_and_add(&h->count[sub], 1);
	else
		rs_stat_add(RS_STAT_HIST_FULL, 1);
}

static __always_inline struct rs_agg_value *rs_agg_get(__u64 cgid, __u16 node,
						       __u8 reclaimer)
{
	struct rs_agg_key key = {
		.cgroup_id = cgid, .node = node, .reclaimer = reclaimer};
	struct rs_agg_value *val;

	val = bpf_map_lookup_elem(&rs_agg, &key);
	if (val)
		return val;
	if (bpf_map_update_elem(&rs_agg, &key, &rs_zero_agg, BPF_NOEXIST) !=
	    -ENOMEM) {
		val = bpf_map_lookup_elem(&rs_agg, &key);
		if (val) /* made here, or by another CPU meanwhile */
			return val;
	}
	/* no room, or no memory to hand out now: the spill map */
	val = bpf_map_lookup_elem(&rs_agg_spill, &key);
	if (val)
		return val;
	if (!bpf_map_update_elem(&rs_agg_spill, &key, &rs_zero_agg,
				 BPF_NOEXIST))
		rs_stat_add(RS_STAT_AGG_SPILLED, 1);
	val = bpf_map_lookup_elem(&rs_agg_spill, &key);
	if (!val)
		rs_stat_add(RS_STAT_AGG_FULL, 1);
	return val;
}

/*
 * Whose an lruvec is (struct rs_lruvec_owner).  Working it out takes five
 * probe reads (the container_of to the memcg, its cgroup and kernfs node,
 * pgdat and node_id: see compat.bpf.h), so programs inside a pass or a
 * shrink_lruvec() of the same lruvec take what its entry worked out
 * (rs_owner_held).
 *
 * target: the reclaim's target memcg as the kernel handed it (a BTF
 * pointer: scan_control's), or NULL.  A limit reclaim mostly scans the
 * target's own lruvec, whose cgroup id then takes three plain loads through
 * it instead of three probe reads; on a one-node machine the node is known.
 */
static __always_inline void rs_owner_of(struct lruvec *lruvec,
					struct mem_cgroup *target,
					struct rs_lruvec_owner *o)
{
	struct mem_cgroup *memcg = rs_lruvec_memcg(lruvec);

	o->lruvec = (__u64)lruvec;
	o->memcg = (__u64)memcg;
	if (memcg && (__u64)memcg == (__u64)target)
		o->cgid = rs_btf_memcg_cgroup_id(target);
	else
		o->cgid = rs_memcg_cgroup_id(memcg);
	o->node = rs_fixed_node != RS_NODE_UNKNOWN ? rs_fixed_node
						   : rs_lruvec_node(lruvec);
}

/* Whether the task is inside the MGLRU pass on lruvec. */
static __always_inline bool rs_on_pass(const struct rs_task_state *st,
				       struct lruvec *lruvec)
{
	return st->in_pass && st->pass.lruvec == (__u64)lruvec;
}

/*
 * The owner of lruvec as the pass (when on_pass: rs_on_pass) or the
 * shrink_lruvec() in progress on it worked it out; NULL if neither is.
 */
static __always_inline const struct rs_lruvec_owner *
rs_owner_held(const struct rs_task_state *st, struct lruvec *lruvec,
	      bool on_pass)
{
	if (on_pass)
		return &st->pass;
	if (st->in_classic && st->classic.lruvec == (__u64)lruvec)
		return &st->classic;
	return NULL;
}

/* The same, or worked out into *spare where neither pass holds it. */
static __always_inline const struct rs_lruvec_owner *
rs_owner(const struct rs_task_state *st, struct lruvec *lruvec, bool on_pass,
	 struct rs_lruvec_owner *spare)
{
	const struct rs_lruvec_owner *held = rs_owner_held(st, lruvec, on_pass);

	if (held)
		return held;
	rs_owner_of(lruvec, NULL, spare);
	return spare;
}

/* Where an event of the current task (state st, may be NULL) belongs. */
struct rs_where {
	__u64 cgid;
	__u16 node;
	__u8 reclaimer;
};

static __always_inline void rs_locate(struct rs_task_state *st,
				      struct rs_where *w, __u16 fallback_node)
{
	w->cgid = RS_CGROUP_NONE;
	w->node = fallback_node;
	if (st) {
		rs_attribute(st, &w->cgid, &w->node, fallback_node);
		w->reclaimer = rs_reclaimer_of(st);
	} else {
		w->reclaimer = rs_current_is_kswapd() ? RS_RECLAIMER_KSWAPD
						      : RS_RECLAIMER_OTHER;
	}
}

static __always_inline struct rs_agg_value *rs_agg_of(const struct rs_where *w)
{
	return rs_agg_get(w->cgid, w->node, w->reclaimer);
}

/* Most per-event counts are often 0 (dirty, writeback, ...): a locked add
 * of nothing still costs its cycles. */
static __always_inline void rs_cell_add(struct rs_agg_value *agg, __u32 field,
					__u64 n, bool locked)
{
	if (!n || field >= RS_NR_FIELDS)
		return;
	if (locked)
		__sync_fetch_and_add(&agg->v[field], n);
	else
		agg->v[field] += n;
}

/* An add from a program that may be preempted (rs_stat_add says why). */
static __always_inline void rs_add(struct rs_agg_value *agg, __u32 field,
				   __u64 n)
{
	rs_cell_add(agg, field, n, true);
}

/*
 * An add from a tracepoint program.  Where they run with preemption off, no
 * other task can come between the load and the store of a plain add on this
 * CPU's cell, and the function programs' adds to it are single locked
 * instructions that cannot land in between either (our programs never run
 * in interrupts): the lock is not needed.  rs_tp_preempt_off is constant
 * once loaded, so the verifier keeps only one of the two.
 */
static __always_inline void rs_tp_add(struct rs_agg_value *agg, __u32 field,
				      __u64 n)
{
	rs_cell_add(agg, field, n, !rs_tp_preempt_off);
}

/*
 * Reserve a record stamped `now`, the clock read the program made for the
 * event (a second read cost ~20 ns a record); every failure is counted so
 * that nothing is lost silently.  Returns NULL when streaming is off.
 */
static __always_inline void *rs_reserve_at(__u32 size, __u16 type, __u64 cgid,
					   __u16 node, __u8 reclaimer,
					   __u64 now)
{
	struct rs_event_hdr *hdr;

	if (!rs_stream_events)
		return NULL;
	hdr = bpf_ringbuf_reserve(&rs_events, size, 0);
	if (!hdr) {
		rs_stat_add(RS_STAT_RING_DROPS, 1);
		/* per type too: each type has an in-kernel count to check by */
		rs_stat_add(RS_STAT_RING_DROPS_TYPE0 + (type & 7), 1);
		return NULL;
	}
	hdr->ts_ns = now;
	hdr->cgroup_id = cgid;
	hdr->pid = bpf_get_current_pid_tgid();
	hdr->type = type;
	hdr->node = node;
	hdr->reclaimer = reclaimer;
	__builtin_memset(hdr->pad, 0, sizeof(hdr->pad));
	return hdr;
}

/* A record of a program that has not read the clock. */
static __always_inline void *rs_reserve(__u32 size, __u16 type, __u64 cgid,
					__u16 node, __u8 reclaimer)
{
	if (!rs_stream_events) /* no clock read then */
		return NULL;
	return rs_reserve_at(size, type, cgid, node, reclaimer,
			     bpf_ktime_get_ns());
}

/*
 * A wakeup per record (the default whenever the consumer has caught up)
 * costs the producer an irq_work (a self-IPI, a VM exit under a hypervisor)
 * and the consumer a context switch each, and caps the consumer near a
 * million records a second: wake it once, when the record that fills the
 * ring past rs_wakeup_bytes goes in.  A lagging consumer is not woken again
 * for every later record; its own timer covers a missed wakeup.
 */
static __always_inline void rs_submit(void *rec, __u32 size)
{
	/* what waits, this record (reserved: past the producer mark) included
	 */
	__u64 waiting = bpf_ringbuf_query(&rs_events, BPF_RB_AVAIL_DATA);
	__u64 flags =
		waiting >= rs_wakeup_bytes && waiting - size < rs_wakeup_bytes
			? BPF_RB_FORCE_WAKEUP
			: BPF_RB_NO_WAKEUP;

	bpf_ringbuf_submit(rec, flags);
	rs_stat_add(RS_STAT_RING_RECORDS, 1);
}

/*
 * The kernel skips a program's run on a CPU where the same program is
 * already running: one preempted there (fentry/fexit, and tracepoints where
 * they run preemptible) makes every other task's event on that CPU vanish,
 * and a lost pass entry or exit misattributes what follows.  So every
 * program is attached RS_COPIES times and the copies of one call run in
 * order; the first copy that runs in a call does the work.  A copy knows a
 * new call has begun when the last copy this task ran for the slot was not
 * an earlier one.  An event is lost only when every copy is busy on that
 * CPU; such losses are counted (the first copy's skipped runs minus the
 * runs later copies made up for).
 *
 * The order needs care: tracepoints call probes of equal priority in attach
 * order, trampolines (fentry/fexit) the last attached first; the collector
 * attaches accordingly (src/collect/collector.c).
 */
static __always_inline bool rs_run_copy(__u32 slot, int copy,
					struct rs_task_state **stp)
{
	struct rs_task_state *st = rs_state(true);
	bool new_call;

	/* the body gets the state, looked up once per run */
	*stp = st;
	if (!st || slot >= RS_NR_SLOTS)
		return copy == 1; /* cannot tell: never count twice */
	new_call = st->last_copy[slot] == 0 || st->last_copy[slot] >= copy;
	st->last_copy[slot] = copy;
	if (new_call && copy > 1)
		rs_stat_add(RS_STAT_SECOND_RUNS0 + slot, 1);
	return new_call;
}

#define RS_PROG_COPY(sec, name, slot, copy, call, ...)                         \
	SEC(sec)                                                               \
	int BPF_PROG(name, __VA_ARGS__)                                        \
	{                                                                      \
		struct rs_task_state *st;                                      \
                                                                               \
		if (rs_run_copy(slot, copy, &st)) {                            \
			call;                                                  \
			rs_changed_mark();                                     \
		}                                                              \
		return 0;                                                      \
	}

/* 1 when slot's section in RS_SLOTS is not sec (folded by clang). */
#define RS_SLOT_SEC_DIFFERS(id, hook, section, target, slot, sec)              \
	((slot) == RS_SLOT_##id &&                                             \
	 __builtin_strcmp(#section "/" target, sec) != 0) ||

/* 1 when RS_PROG_SPECS' row p is the program name in slot (folded). */
#define RS_SPEC_IS(p, s, pat, name, slot)                                      \
	(__builtin_strcmp(#p, #name) == 0 && RS_SLOT_##s == (slot)) ||

/*
 * The program "name" and its copies "name_2" ... "name_5", in the section
 * its slot's row in RS_SLOTS names, and listed with that slot in
 * RS_PROG_SPECS.
 */
_Static_assert(RS_COPIES == 5, "RS_PROGS writes out five copies");
#define RS_PROGS(sec, name, slot, call, ...)                                   \
	_Static_assert(!(RS_SLOTS(RS_SLOT_SEC_DIFFERS, slot, sec) 0), #name    \
		       ": " sec " is not its slot's section (RS_SLOTS)");      \
	_Static_assert(RS_PROG_SPECS(RS_SPEC_IS, name, slot) 0,                \
		       #name " has no row in RS_PROG_SPECS with its slot");    \
	RS_PROG_COPY(sec, name, slot, 1, call, __VA_ARGS__)                    \
	RS_PROG_COPY(sec, name##_2, slot, 2, call, __VA_ARGS__)                \
	RS_PROG_COPY(sec, name##_3, slot, 3, call, __VA_ARGS__)                \
	RS_PROG_COPY(sec, name##_4, slot, 4, call, __VA_ARGS__)                \
	RS_PROG_COPY(sec, name##_5, slot, 5, call, __VA_ARGS__)

#endif /* RS_COMMON_BPF_H */
