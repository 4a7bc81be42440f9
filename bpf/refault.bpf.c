// SPDX-License-Identifier: GPL-2.0
/*
 * Refaults under MGLRU (opt-in, --refaults: these run per refaulted folio).
 * workingset_refault() tests the folio's shadow entry with
 * lru_gen_test_recent(), which says where the folio was evicted from, the
 * generation it left (min_seq then, in the token) and whether that was
 * fewer than MAX_NR_GENS generations ago; the kernel then counts the
 * refault (memory.stat workingset_refault_*), and if recent a restore when
 * the folio was of the workingset (workingset_restore_*) and an activation
 * when in a fault (workingset_activate_*: see below), on the evicting lruvec
 * and only when the folio is charged there again (mm/workingset.c,
 * lru_gen_refault()).  The same here, plus the distance in generations.
 */
#include "common.bpf.h"

static __always_inline void refault_enter(struct rs_task_state *st)
{
	if (!st)
		return;
	st->refault_armed = 1;
	st->refault_tested = 0;
	st->refault_aging_steps = *(volatile __u64 *)&rs_aging_steps;
}

RS_PROGS("fentry/workingset_refault", rs_refault_enter, RS_SLOT_REFAULT_ENTER,
	 refault_enter(st), struct folio *folio, void *shadow)

/*
 * The shadow's test.  Since v7.2 ("mm/mglru: ...anon eviction mask") it
 * has a fifth parameter (file); the four read here lead in both, and the
 * result comes by bpf_get_func_ret(), wherever it sits.  Called from
 * workingset_test_recent() too (mincore, cachestat): counted only inside
 * workingset_refault().
 */
static __always_inline void recent_exit(struct rs_task_state *st, void *ctx,
					struct lruvec **lruvecp,
					unsigned long *tokenp,
					bool *workingsetp)
{
	struct lruvec *lruvec = NULL;
	unsigned long token = 0;
	__u64 recent = 0, before;
	bool workingset = false;

	if (!st || !st->refault_armed)
		return;
	if (bpf_probe_read_kernel(&lruvec, sizeof(lruvec), lruvecp) ||
	    bpf_probe_read_kernel(&token, sizeof(token), tokenp) ||
	    bpf_probe_read_kernel(&workingset, sizeof(workingset),
				  workingsetp) ||
	    bpf_get_func_ret(ctx, &recent) || !lruvec)
		return;
	st->refault_lruvec = (__u64)lruvec;
	st->refault_token = token;
	st->refault_max_seq = BPF_CORE_READ(lruvec, lrugen.max_seq);
	/*
	 * The kernel read max_seq between refault_enter and here: an aging
	 * that ran (or was running) in that time may have moved it since.
	 * Read after max_seq, so an aging that moved it has been seen
	 * starting.
	 */
	before = st->refault_aging_steps;
	st->refault_raced =
		(before & 1) || *(volatile __u64 *)&rs_aging_steps != before;
	st->refault_recent = recent & 1;
	st->refault_workingset = workingset;
	st->refault_tested = 1;
}

RS_PROGS("fexit/lru_gen_test_recent", rs_recent_exit, RS_SLOT_RECENT_EXIT,
	 recent_exit(st, ctx, lruvec, token, workingset), void *shadow,
	 struct lruvec **lruvec, unsigned long *token, bool *workingset)

/* folio_nr_pages(): 1, or _nr_pages of a large folio (since v6.10). */
struct folio___nr {
	unsigned int _nr_pages;
} __attribute__((preserve_access_index));

static __always_inline __u64 rs_folio_pages(struct folio *folio,
					    unsigned long flags)
{
	int head = bpf_core_enum_value(enum pageflags, PG_head);
	struct folio___nr *f = (void *)folio;

	if (!(flags & (1UL << (head & 63))))
		return 1;
	if (!bpf_core_field_exists(f->_nr_pages))
		return 1; /* the fields say null (FOLIO_NR_PAGES) */
	return BPF_CORE_READ(f, _nr_pages);
}

/*
 * Whether a folio's memcg_data (its flags masked off) is memcg: a memcg
 * pointer, or an obj_cgroup whose memcg it is.  Kernels that reparent LRU
 * folios charge them to an obj_cgroup (folio_memcg() goes through
 * obj_cgroup_memcg()), earlier ones to the memcg itself; which, no BTF
 * says, so both are tried.  An obj_cgroup's memcg field lines up with
 * nothing in struct mem_cgroup that could point at a memcg (its css's
 * reference counter sits there), so the second test cannot pass wrongly.
 */
static __always_inline bool rs_folio_charged_to(unsigned long memcg_data,
						struct mem_cgroup *memcg)
{
	struct obj_cgroup *objcg = (void *)memcg_data;

	if (!memcg || !memcg_data)
		return false;
	if (memcg_data == (unsigned long)memcg)
		return true;
	return BPF_CORE_READ(objcg, memcg) == memcg;
}

/*
 * The refault fields of a type: each anon row, then the same rows for file,
 * in one order (include/rs_common.h), so a file field is its anon twin plus
 * the distance between the two blocks.
 */
#define RS_REFAULT_FILE_OFFSET                                                 \
	(RS_F_REFAULT_TESTED_FILE - RS_F_REFAULT_TESTED_ANON)
_Static_assert(RS_F_REFAULT_GENS_8_UP_FILE - RS_F_REFAULT_GENS_8_UP_ANON ==
			       RS_REFAULT_FILE_OFFSET &&
		       RS_F_REFAULT_GENS_8_UP_ANON -
				       RS_F_REFAULT_GENS_0_1_ANON ==
			       3,
	       "refault fields: anon and file blocks of the same order");

/* log2 buckets of generations: 0-1, 2-3, 4-7, 8 and more */
static __always_inline __u32 rs_gens_bucket(__s64 distance)
{
	return distance < 2 ? 0 : distance < 4 ? 1 : distance < 8 ? 2 : 3;
}

static __always_inline void refault_count(struct rs_task_state *st,
					  struct folio *folio)
{
	struct lruvec *lruvec = (struct lruvec *)st->refault_lruvec;
	struct task_struct *task = (void *)bpf_get_current_task();
	int swapbacked = bpf_core_enum_value(enum pageflags, PG_swapbacked);
	int flag_bits = bpf_core_enum_value(enum page_memcg_data_flags,
					    __NR_MEMCG_DATA_FLAGS);
	int tiers = bpf_core_field_size(lruvec->lrugen.avg_refaulted[0]) /
		    sizeof(unsigned long);
	struct rs_lruvec_owner owner;
	struct rs_agg_value *agg;
	unsigned long flags = 0, memcg_data;
	__u64 pages, evicted_seq;
	__u32 type_off;
	__s64 distance;
	bool ours;
	int shift;

	/*
	 * The kernel counts only when the folio is charged to the evicting
	 * memcg again (lruvec == folio_lruvec()): the memcgs are compared
	 * here, not the nodes (a folio read back on another node is counted
	 * here and not by the kernel).  The owner carries the memcg: one
	 * walk from the lruvec for both.
	 */
	rs_owner_of(lruvec, NULL, &owner);
	memcg_data = folio->memcg_data & ~(unsigned long)(flag_bits - 1);
	if (!rs_folio_charged_to(memcg_data, (void *)owner.memcg))
		return;
	/* folio->flags: an unsigned long, or a struct of one since v6.17 */
	bpf_probe_read_kernel(&flags, sizeof(flags), &folio->flags);
	type_off =
		flags & (1UL << (swapbacked & 63)) ? 0 : RS_REFAULT_FILE_OFFSET;
	pages = rs_folio_pages(folio, flags);
	agg = rs_agg_get(owner.cgid, owner.node, RS_RECLAIMER_OTHER);
	if (!agg)
		return;
	rs_add(agg, RS_F_REFAULT_TESTED_ANON + type_off, pages);
	if (st->refault_recent) {
		/*
		 * lru_gen_in_fault() (current->in_lru_fault): recent
		 * refaults in a fault, of the workingset or not, and those
		 * of the workingset only (what 7.2's workingset_activate_*
		 * count, equal in the VM); kernels' activation rules differ
		 * (seed 011, a later patch not in 7.2, changes activation in
		 * a fault again) and no BTF tells them apart, so both are
		 * counted.
		 */
		bool in_fault =
			BPF_CORE_READ_BITFIELD_PROBED(task, in_lru_fault);

		rs_add(agg, RS_F_REFAULT_RECENT_ANON + type_off, pages);
		if (in_fault)
			rs_add(agg, RS_F_REFAULT_IN_FAULT_ANON + type_off,
			       pages);
		if (in_fault && st->refault_workingset)
			rs_add(agg, RS_F_REFAULT_ACTIVATED_ANON + type_off,
			       pages);
		if (st->refault_workingset)
			rs_add(agg, RS_F_REFAULT_RESTORED_ANON + type_off,
			       pages);
	}
	/*
	 * The token is min_seq at the eviction shifted past the folio's
	 * reference count, LRU_REFS_WIDTH bits: MAX_NR_TIERS - 2 where the
	 * page flags have room (include/linux/mmzone.h), which no BTF says.
	 * So the distance is checked against the kernel's own verdict, and
	 * a disagreement is counted instead of a bucket; except where an
	 * aging ran during the test (counted as raced), which can move
	 * max_seq past the kernel's verdict.
	 */
	shift = tiers > 2 ? tiers - 2 : 0;
	evicted_seq = st->refault_token >> (shift & 7);
	distance = (__s64)(st->refault_max_seq - evicted_seq);
	if (distance < 0)
		distance = -distance;
	ours = distance < rs_lrugen_nr_gens(lruvec);
	if (st->refault_raced) {
		rs_add(agg, RS_F_REFAULT_DIST_RACED, 1);
	} else if (ours != (bool)st->refault_recent) {
		rs_add(agg, RS_F_REFAULT_DIST_DISAGREE, 1);
		return;
	}
	rs_add(agg,
	       RS_F_REFAULT_GENS_0_1_ANON + type_off + rs_gens_bucket(distance),
	       pages);
}

static __always_inline void refault_exit(struct rs_task_state *st,
					 struct folio *folio)
{
	if (!st || !st->refault_armed)
		return;
	st->refault_armed = 0;
	if (st->refault_tested) /* MGLRU tested the shadow */
		refault_count(st, folio);
}

RS_PROGS("fexit/workingset_refault", rs_refault_exit, RS_SLOT_REFAULT_EXIT,
	 refault_exit(st, folio), struct folio *folio, void *shadow)
