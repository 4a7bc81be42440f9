/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel differences, in one place.  Each helper names the kernel change it
 * covers.  Programs whose prototypes differ between kernels come in variants
 * (suffix _v<N>); userspace picks one by the parameter names (functions) or
 * types (tracepoints) it finds in the running kernel's BTF and switches the
 * others off before load (src/collect/hooks.c).
 */
#ifndef RS_COMPAT_BPF_H
#define RS_COMPAT_BPF_H

#include "aging.h" /* RS_MAX_NR_GENS */

/* include/linux/sched.h: not in BTF, stable since 2.6. */
#define RS_PF_KSWAPD 0x00020000

/*
 * lru_gen_rotate_memcg()'s op: an anonymous enum of mm/vmscan.c (since
 * v6.6, "mm: multi-gen LRU: per-node lru_gen_folio lists"), so CO-RE cannot
 * name it; the same values in the BTF of 6.12, 6.18, 7.2 and 7.3.  An op
 * outside them is counted in none of the memcg_lru_to_* fields.
 */
#define RS_MEMCG_LRU_HEAD 1
#define RS_MEMCG_LRU_TAIL 2
#define RS_MEMCG_LRU_OLD 3
#define RS_MEMCG_LRU_YOUNG 4

/*
 * The scan_control bitfields below are read from sc, a BTF pointer (an
 * fentry/fexit argument): BPF_CORE_READ_BITFIELD loads the word that holds
 * the field directly, where the _PROBED variant made a probe-read call.
 */

/*
 * struct scan_control.proactive appeared in v6.0 ("mm: vmscan: make
 * memory.reclaim proactive"); older kernels cannot tell proactive reclaim
 * apart from limit reclaim.
 */
static __always_inline bool rs_sc_proactive(struct scan_control *sc)
{
	if (bpf_core_field_exists(sc->proactive))
		return BPF_CORE_READ_BITFIELD(sc, proactive);
	return false;
}

/* scan_control.memcg_low_reclaim: bitfield, present since v4.19. */
static __always_inline bool rs_sc_memcg_low_reclaim(struct scan_control *sc)
{
	return BPF_CORE_READ_BITFIELD(sc, memcg_low_reclaim);
}

/* scan_control.hibernation_mode: v5.8 ("mm: vmscan: ... hibernation"). */
static __always_inline bool rs_sc_hibernation(struct scan_control *sc)
{
	if (bpf_core_field_exists(sc->hibernation_mode))
		return BPF_CORE_READ_BITFIELD(sc, hibernation_mode);
	return false;
}

/*
 * struct reclaim_stat's counters (mm/vmscan.c, filled by
 * shrink_folio_list() and read by the lru_shrink_inactive tracepoint and
 * handle_reclaim_writeback()).  Its members move: nr_pageout is gone from
 * 7.3's struct (Debian's 7.3.4 BTF has no member of that name; its trace
 * event no longer records it either), after being there since v5.x.  An
 * unguarded read of a member the kernel lacks fails the whole program at
 * load (CO-RE poisons the instruction), and with it every value the
 * program counts: 7.3 lost `reclaimed` that way.  So each member is read
 * under an existence check: a kernel without it gives `absent` (RS_NO_COUNT,
 * a record's null, or 0 for a sum).  The check is resolved at load: no
 * instruction of it runs on the reclaim path.  Userspace finds the same members
 * in the kernel's BTF (RS_HOOKS' 'k' rows) and shows the fields they feed as
 * null. The rest of what the programs read is listed, with why it may stay
 * unguarded, in tests/host/core_fields.py, which checks the object.
 */
#define rs_reclaim_stat(stat, member, absent)                                  \
	(bpf_core_field_exists((stat)->member) ? (__u32)(stat)->member         \
					       : (absent))

/*
 * cgroup id as userspace sees it (inode number of the cgroup directory):
 * kernfs_node.id is a u64 since v5.5 ("kernfs: combine ino/id lookup
 * functions into kernfs_find_and_get_node_by_id()").
 */
static __always_inline __u64 rs_memcg_cgroup_id(struct mem_cgroup *memcg)
{
	if (!memcg)
		return RS_CGROUP_NONE;
	return BPF_CORE_READ(memcg, css.cgroup, kn, id);
}

/*
 * The same for a memcg the kernel hands a tp_btf/fentry program (a BTF
 * pointer): plain loads, which the verifier turns into fault-safe ones, cost
 * a few nanoseconds where each bpf_probe_read_kernel of a BPF_CORE_READ chain
 * is a helper call.  Pointers that went through a probe read (scalars to the
 * verifier) must use rs_memcg_cgroup_id.
 */
static __always_inline __u64 rs_btf_memcg_cgroup_id(struct mem_cgroup *memcg)
{
	if (!memcg)
		return RS_CGROUP_NONE;
	return memcg->css.cgroup->kn->id;
}

/*
 * The memcg of the current task: task->cgroups->subsys[memory_cgrp_id], on
 * cgroup v1 and v2 alike.  memory_cgrp_id's value depends on the config, so
 * it is relocated.  Plain loads from the task's BTF pointer (see above); a
 * non-sleepable program runs inside an RCU read section, which the
 * __rcu task->cgroups needs.
 */
static __always_inline __u64 rs_current_memcg_cgroup_id(void)
{
	int id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	struct cgroup_subsys_state *css;

	if (id < 0 || id >= CGROUP_SUBSYS_COUNT)
		return RS_CGROUP_NONE;
	css = bpf_get_current_task_btf()->cgroups->subsys[id];
	if (!css)
		return RS_CGROUP_NONE;
	return css->cgroup->kn->id;
}

/*
 * The memcg of an lruvec: container_of(lruvec, struct mem_cgroup_per_node,
 * lruvec)->memcg, or none when memcg is disabled and the lruvec is the
 * node's own (pgdat->__lruvec).
 */
static __always_inline struct mem_cgroup *rs_lruvec_memcg(struct lruvec *lruvec)
{
	struct pglist_data *pgdat = BPF_CORE_READ(lruvec, pgdat);
	struct mem_cgroup_per_node *pn;

	if (pgdat && (void *)lruvec == (void *)&pgdat->__lruvec)
		return NULL;
	pn = (void *)lruvec -
	     bpf_core_field_offset(struct mem_cgroup_per_node, lruvec);
	return BPF_CORE_READ(pn, memcg);
}

static __always_inline __u16 rs_lruvec_node(struct lruvec *lruvec)
{
	return BPF_CORE_READ(lruvec, pgdat, node_id);
}

/*
 * lrugen.min_seq[] sums: retirements of anon plus file generations.  lruvec
 * is a function argument (BTF pointer): plain loads.
 */
static __always_inline __u64 rs_min_seq_sum(struct lruvec *lruvec)
{
	return lruvec->lrugen.min_seq[0] + lruvec->lrugen.min_seq[1];
}

/*
 * The page-table walk's statistics, lruvec->mm_state.stats[NR_HIST_GENS]
 * [NR_MM_STATS] (mm/vmscan.c, reset_mm_stats(); the per-lruvec mm_state
 * since v6.8, "mm/mglru: ... memcg LRU ... mm_state", earlier per memcg, and
 * only with CONFIG_LRU_GEN_WALKS_MMU).  Each walk of an mm adds its counts
 * to the slot of its generation; with one slot (NR_HIST_GENS 1, every
 * kernel without CONFIG_LRU_GEN_STATS) the slot is never cleared, so the
 * four are running totals since the lruvec was made, which is what
 * /sys/kernel/debug/lru_gen_full prints (T Y F A).  With more slots a slot
 * is cleared as the next generation starts: no running total, and this
 * returns false, as on a kernel without the member.  Debian's 6.12 BTF
 * flattens the array to stats[4]: a flavor for each shape, as below.  The
 * order (MM_LEAF_TOTAL, MM_LEAF_YOUNG, MM_NONLEAF_FOUND, MM_NONLEAF_ADDED)
 * comes from an anonymous enum CO-RE cannot name; it is the same in the
 * BTF of 6.12, 6.18, 7.2 and 7.3.
 */
struct lru_gen_mm_state___nested {
	unsigned long stats[1][RS_NR_WALK_STATS];
} __attribute__((preserve_access_index));
struct lru_gen_mm_state___flat {
	unsigned long stats[1];
} __attribute__((preserve_access_index));
struct lruvec___nested_walk {
	struct lru_gen_mm_state___nested mm_state;
} __attribute__((preserve_access_index));
struct lruvec___flat_walk {
	struct lru_gen_mm_state___flat mm_state;
} __attribute__((preserve_access_index));

static __always_inline bool rs_walk_stats(struct lruvec *lruvec,
					  __u64 out[RS_NR_WALK_STATS])
{
	struct lruvec___nested_walk *nested = (void *)lruvec;
	struct lruvec___flat_walk *flat = (void *)lruvec;
	__u32 offset, size;

	if (bpf_core_field_exists(nested->mm_state.stats)) {
		offset = bpf_core_field_offset(nested->mm_state.stats);
		size = bpf_core_field_size(nested->mm_state.stats);
	} else if (bpf_core_field_exists(flat->mm_state.stats)) {
		offset = bpf_core_field_offset(flat->mm_state.stats);
		size = bpf_core_field_size(flat->mm_state.stats);
	} else {
		return false;
	}
	if (size != RS_NR_WALK_STATS * sizeof(unsigned long))
		return false; /* a history of slots: see above */
	return !bpf_probe_read_kernel(out, RS_NR_WALK_STATS * sizeof(__u64),
				      (void *)lruvec + offset);
}

/*
 * lrugen's tier counters, which the PID controller reads (mm/vmscan.c,
 * read_ctrl_pos()): avg_refaulted[ANON_AND_FILE][MAX_NR_TIERS], avg_total
 * the same, and per history slot protected, evicted and refaulted
 * [NR_HIST_GENS][ANON_AND_FILE][n].  n is MAX_NR_TIERS, but protected had
 * MAX_NR_TIERS - 1 (tier 0 is never protected) before v6.14 ("mm/mglru:
 * rework workingset protection"); the slot in use for a type is its
 * min_seq % NR_HIST_GENS.  Every count comes from the arrays' sizes.
 * Debian's 6.12 BTF flattens the arrays (see nr_pages below): a flavor for
 * each shape.
 */
struct lru_gen_folio___tiers_nested {
	unsigned long avg_refaulted[2][1];
	unsigned long avg_total[2][1];
	unsigned long protected[1][2][1];
	atomic_long_t evicted[1][2][1];
	atomic_long_t refaulted[1][2][1];
} __attribute__((preserve_access_index));
struct lru_gen_folio___tiers_flat {
	unsigned long avg_refaulted[1];
	unsigned long avg_total[1];
	unsigned long protected[1];
	atomic_long_t evicted[1];
	atomic_long_t refaulted[1];
} __attribute__((preserve_access_index));

/* Where each array is in lrugen and how many bytes it has. */
struct rs_tier_layout {
	__u32 avg_refaulted, avg_total, protected, evicted, refaulted;
	__u32 avg_size, protected_size, evicted_size;
};

/* The layout of flavor pointer f, where all its arrays exist. */
#define RS_TIER_LAYOUT_OF(f, l)                                                \
	(bpf_core_field_exists((f)->avg_refaulted) &&                          \
	 bpf_core_field_exists((f)->protected) &&                              \
	 bpf_core_field_exists((f)->evicted) &&                                \
	 bpf_core_field_exists((f)->refaulted) &&                              \
	 ((l)->avg_refaulted = bpf_core_field_offset((f)->avg_refaulted),      \
	  (l)->avg_total = bpf_core_field_offset((f)->avg_total),              \
	  (l)->protected = bpf_core_field_offset((f)->protected),              \
	  (l)->evicted = bpf_core_field_offset((f)->evicted),                  \
	  (l)->refaulted = bpf_core_field_offset((f)->refaulted),              \
	  (l)->avg_size = bpf_core_field_size((f)->avg_refaulted),             \
	  (l)->protected_size = bpf_core_field_size((f)->protected),           \
	  (l)->evicted_size = bpf_core_field_size((f)->evicted), true))

static __always_inline bool rs_tier_layout(struct rs_tier_layout *l)
{
	struct lru_gen_folio___tiers_nested *nested = 0;
	struct lru_gen_folio___tiers_flat *flat = 0;

	return RS_TIER_LAYOUT_OF(nested, l) || RS_TIER_LAYOUT_OF(flat, l);
}

/*
 * lrugen.nr_pages[MAX_NR_GENS][ANON_AND_FILE][MAX_NR_ZONES], summed over
 * zones, each at least 0 (as debugfs lru_gen shows them).  The BTF of
 * Debian's 6.12 (built with an older pahole) flattens multi-dimensional arrays
 * to nr_pages[40], which CO-RE does not take as compatible with [4][2][5]; each
 * shape gets a flavor, the one the kernel has is used, and the array is indexed
 * by hand with the zone count derived from its size.
 */
struct lru_gen_folio___nested {
	long nr_pages[1][2][1];
} __attribute__((preserve_access_index));
struct lru_gen_folio___flat {
	long nr_pages[1];
} __attribute__((preserve_access_index));

/*
 * The kernel's MAX_NR_GENS, from lrugen.timestamps[MAX_NR_GENS] (there since
 * MGLRU came, v6.1): records hold RS_MAX_NR_GENS generations and index them
 * seq % RS_MAX_NR_GENS, so their sizes are filled only where the two agree
 * (rs_lrugen_gens_fit), never guessed.
 */
static __always_inline __u32 rs_lrugen_nr_gens(struct lruvec *lruvec)
{
	return bpf_core_field_size(lruvec->lrugen.timestamps) / sizeof(long);
}

static __always_inline bool rs_lrugen_gens_fit(struct lruvec *lruvec)
{
	return rs_lrugen_nr_gens(lruvec) == RS_MAX_NR_GENS;
}

/*
 * Whether this lruvec's pages are on MGLRU's generations now: a kernel
 * built with MGLRU keeps lrugen while lru_gen/enabled is off, its page
 * counts 0 and its births stale (the classic LRU's OOMs read 0 MiB on the
 * LRU and generations 12 minutes old).  lrugen.enabled (since MGLRU came,
 * 6.1: "mm: multi-gen LRU: groundwork", set by lru_gen_change_state())
 * says so per lruvec; without the field, as before: on.
 */
static __always_inline bool rs_lrugen_on(struct lruvec *lruvec)
{
	if (!bpf_core_field_exists(lruvec->lrugen.enabled))
		return true;
	return BPF_CORE_READ(lruvec, lrugen.enabled);
}

static __always_inline __s64 rs_lrugen_pages(struct lruvec *lruvec, int gen,
					     int type)
{
	void *lrugen = &lruvec->lrugen;
	struct lru_gen_folio___nested *nested = lrugen;
	struct lru_gen_folio___flat *flat = lrugen;
	__u32 offset, size, zones;
	__s64 sum = 0;

	if (bpf_core_field_exists(nested->nr_pages)) {
		offset = bpf_core_field_offset(nested->nr_pages);
		size = bpf_core_field_size(nested->nr_pages);
	} else if (bpf_core_field_exists(flat->nr_pages)) {
		offset = bpf_core_field_offset(flat->nr_pages);
		size = bpf_core_field_size(flat->nr_pages);
	} else {
		return 0;
	}
	zones = size / sizeof(long) / (rs_lrugen_nr_gens(lruvec) * 2);
	for (__u32 zone = 0; zone < 8; zone++) {
		long pages = 0;

		if (zone >= zones)
			break;
		bpf_probe_read_kernel(&pages, sizeof(pages),
				      lrugen + offset +
					      ((gen * 2 + type) * zones +
					       zone) * sizeof(long));
		/* a zone's count goes below 0 for a moment while folios
		 * move between generations; lru_gen_seq_show() (debugfs
		 * lru_gen, the figure we must equal) takes each zone as
		 * max(count, 0), and so do we */
		sum += pages > 0 ? pages : 0;
	}
	return sum;
}

/*
 * Whether the running BPF program could be preempted: 1 yes, 0 no, -1 cannot
 * tell.  The kernel runs every BPF program with at least migration disabled;
 * where the caller already disabled preemption (tracepoints did, in
 * __DO_TRACE, before they moved to SRCU-fast: "tracing: Guard
 * __DECLARE_TRACE() use of __DO_TRACE_CALL() with SRCU-fast"), the program
 * runner does not disable migration as well, so a task with migration
 * enabled runs the program with preemption off.  A migrate_disable()d task
 * may be either: counted as preemptible, the safe side.
 * task_struct.migration_disabled: v5.11 ("sched: Add migrate_disable()"
 * for every config, not only PREEMPT_RT).  (Reading the preemption count
 * itself needs the address of a per-CPU variable, which kernels without
 * CONFIG_KALLSYMS_ALL do not give the verifier.)
 */
static __always_inline int rs_preemptible(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (!bpf_core_field_exists(task->migration_disabled))
		return -1;
	return task->migration_disabled != 0;
}

#endif /* RS_COMPAT_BPF_H */
