/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Definitions shared by the BPF programs and userspace: hooks, reclaimer
 * kinds, the per-memcg counter fields, the aggregation key and the per-task
 * attribution state.  No includes: the BPF side gets its types from
 * vmlinux.h, userspace from <linux/types.h>.
 */
#ifndef RS_COMMON_H
#define RS_COMMON_H

/*
 * Hooks, one per kernel function or tracepoint (begin/end pairs count as
 * one).  Order is the order `probe` prints them in.  X(id, name, kind)
 * where kind is 'f' for fentry/fexit, 't' for a tracepoint, 'c' for the
 * memcg's own files (memory.stat, memory.events), read by userspace, 'i'
 * for an iterator that userspace runs to read kernel state, and
 * 'k' for a member of a kernel struct that some kernels lack, named
 * "struct.member": the programs read it under an existence check
 * (bpf/compat.bpf.h), userspace finds it in the kernel's BTF, and the
 * fields that need it are null where it is missing, the rest of the hook
 * unharmed.
 */
#define RS_HOOKS(X)                                                            \
	X(TRY_TO_SHRINK_LRUVEC, "try_to_shrink_lruvec", 'f')                   \
	X(EVICT_FOLIOS, "evict_folios", 'f')                                   \
	X(ISOLATE_FOLIOS, "isolate_folios", 'f')                               \
	X(LRUVEC_EVICTABLE_SIZE, "lruvec_evictable_size", 'f')                 \
	X(APPLY_PROTECTION, "apply_proportional_protection", 'f')              \
	X(SHOULD_ABORT_SCAN, "should_abort_scan", 'f')                         \
	X(SHRINK_ONE, "shrink_one", 'f')                                       \
	X(ROTATE_MEMCG, "lru_gen_rotate_memcg", 'f')                           \
	X(MEMCG_OOM, "mem_cgroup_out_of_memory", 'f')                          \
	X(TRY_TO_INC_MAX_SEQ, "try_to_inc_max_seq", 'f')                       \
	X(TRY_TO_INC_MIN_SEQ, "try_to_inc_min_seq", 'f')                       \
	X(HANDLE_RECLAIM_WRITEBACK, "handle_reclaim_writeback", 'f')           \
	X(WAKEUP_FLUSHER_THREADS, "wakeup_flusher_threads", 'f')               \
	X(SHRINK_LRUVEC, "shrink_lruvec", 'f')                                 \
	X(BALANCE_PGDAT, "balance_pgdat", 'f')                                 \
	/* opt-in (--refaults): runs per refaulted folio */                    \
	X(REFAULTS, "lru_gen_test_recent", 'f')                                \
	X(DIRECT_RECLAIM, "mm_vmscan_direct_reclaim", 't')                     \
	X(MEMCG_RECLAIM, "mm_vmscan_memcg_reclaim", 't')                       \
	X(NODE_RECLAIM, "mm_vmscan_node_reclaim", 't')                         \
	X(LRU_ISOLATE, "mm_vmscan_lru_isolate", 't')                           \
	X(LRU_SHRINK_INACTIVE, "mm_vmscan_lru_shrink_inactive", 't')           \
	X(LRU_SHRINK_ACTIVE, "mm_vmscan_lru_shrink_active", 't')               \
	X(THROTTLED, "mm_vmscan_throttled", 't')                               \
	X(KSWAPD, "mm_vmscan_kswapd", 't')                                     \
	X(SHRINK_SLAB, "mm_shrink_slab_end", 't')                              \
	X(CGROUP_NAMES, "cgroup_mkdir", 't') /* and cgroup_rmdir */            \
	X(CGROUPFS, "cgroupfs", 'c')                                           \
	X(TIERS, "cgroup_iter", 'i') /* bpf/tiers.bpf.c: state, not events */  \
	X(RS_DIRTY, "reclaim_stat.nr_dirty", 'k')                              \
	X(RS_UNQUEUED_DIRTY, "reclaim_stat.nr_unqueued_dirty", 'k')            \
	X(RS_CONGESTED, "reclaim_stat.nr_congested", 'k')                      \
	X(RS_WRITEBACK, "reclaim_stat.nr_writeback", 'k')                      \
	X(RS_IMMEDIATE, "reclaim_stat.nr_immediate", 'k')                      \
	X(RS_PAGEOUT, "reclaim_stat.nr_pageout", 'k')                          \
	X(WALK_STATS, "lru_gen_mm_state.stats", 'k')                           \
	X(FOLIO_NR_PAGES, "folio._nr_pages", 'k')

#define RS_HOOK_ENUM(id, name, kind) RS_HOOK_##id,
enum rs_hook { RS_HOOKS(RS_HOOK_ENUM) RS_NR_HOOKS };
#undef RS_HOOK_ENUM
#define RS_HOOK_BIT(id) (1ULL << RS_HOOK_##id)

/* Who is reclaiming. */
enum rs_reclaimer {
	RS_RECLAIMER_OTHER,
	RS_RECLAIMER_KSWAPD,
	RS_RECLAIMER_DIRECT, /* global direct reclaim by an allocating task */
	RS_RECLAIMER_MEMCG,  /* memcg limit (memory.max / memory.high) */
	RS_RECLAIMER_PROACTIVE, /* memory.reclaim */
	RS_RECLAIMER_NODE,	/* node_reclaim (zone_reclaim_mode) */
	RS_NR_RECLAIMERS
};

/*
 * Counter fields kept per (memcg, node, reclaimer) in the kernel and summed
 * by userspace.  One table for every view: X(id, key, unit, needs, help)
 * where key is the JSON key (and, with the reclaimscope_ prefix, the metric
 * name), unit one of the tokens pages/count/ns/us/ratio, and needs the hooks
 * without which the value cannot be known (absent, never 0).
 */
/*
 * A reclaim's goal is seen by the lruvec pass it runs (sc->nr_to_reclaim),
 * its end by the reclaim tracepoints.
 */
#define RS_GOAL_HOOKS                                                          \
	(RS_HOOK_BIT(DIRECT_RECLAIM) | RS_HOOK_BIT(MEMCG_RECLAIM) |            \
	 RS_HOOK_BIT(SHRINK_LRUVEC))
/*
 * Fields of unit "ratio" hold sums of ratios in fixed point, RS_RATIO_ONE
 * to 1 (BPF has no floating point); views show them divided by it.  2^20:
 * a ratio's rounding is below 1e-6, and 2^44 reclaims fit.
 */
#define RS_RATIO_SHIFT 20
#define RS_RATIO_ONE (1ULL << RS_RATIO_SHIFT)

/* The type of each batch: isolate_folios() inside a pass. */
#define RS_TYPE_HOOKS                                                          \
	(RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(ISOLATE_FOLIOS))

/* Refaults: opt-in, and the folio's size where large folios have one. */
#define RS_REFAULT_HOOKS (RS_HOOK_BIT(REFAULTS) | RS_HOOK_BIT(FOLIO_NR_PAGES))
/* an eviction batch's age: the isolation inside an MGLRU pass */
#define RS_EVICT_AGE_HOOKS                                                     \
	(RS_HOOK_BIT(LRU_ISOLATE) | RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC))

/* The walk counters: read at aging's ends, where the kernel keeps them. */
#define RS_WALK_HOOKS                                                          \
	(RS_HOOK_BIT(TRY_TO_INC_MAX_SEQ) | RS_HOOK_BIT(WALK_STATS))

#define RS_FIELDS(X)                                                           \
	X(SCANNED, "scanned", pages, RS_HOOK_BIT(LRU_ISOLATE),                 \
	  "pages scanned on inactive lists (mm_vmscan_lru_isolate "            \
	  "nr_scanned)")                                                       \
	X(ISOLATED, "isolated", pages, RS_HOOK_BIT(LRU_ISOLATE),               \
	  "pages taken off inactive lists (nr_taken); MGLRU's memory.stat "    \
	  "pgscan")                                                            \
	X(ISOLATED_FILE, "isolated_file", pages, RS_HOOK_BIT(LRU_ISOLATE),     \
	  "file pages taken off inactive lists")                               \
	X(ACTIVE_ISOLATED, "active_isolated", pages, RS_HOOK_BIT(LRU_ISOLATE), \
	  "pages taken off active lists (classic LRU only)")                   \
	X(RECLAIMED, "reclaimed", pages, RS_HOOK_BIT(LRU_SHRINK_INACTIVE),     \
	  "pages reclaimed (mm_vmscan_lru_shrink_inactive); memory.stat "      \
	  "pgsteal")                                                           \
	X(RECLAIMED_FILE, "reclaimed_file", pages,                             \
	  RS_HOOK_BIT(LRU_SHRINK_INACTIVE), "file pages reclaimed")            \
	X(DIRTY, "dirty", pages,                                               \
	  RS_HOOK_BIT(LRU_SHRINK_INACTIVE) | RS_HOOK_BIT(RS_DIRTY),            \
	  "dirty pages met by shrink_folio_list")                              \
	X(WRITEBACK, "writeback", pages,                                       \
	  RS_HOOK_BIT(LRU_SHRINK_INACTIVE) | RS_HOOK_BIT(RS_WRITEBACK),        \
	  "pages under writeback met by shrink_folio_list")                    \
	X(CONGESTED, "congested", pages,                                       \
	  RS_HOOK_BIT(LRU_SHRINK_INACTIVE) | RS_HOOK_BIT(RS_CONGESTED),        \
	  "dirty or writeback pages on a congested device")                    \
	X(IMMEDIATE, "immediate", pages,                                       \
	  RS_HOOK_BIT(LRU_SHRINK_INACTIVE) | RS_HOOK_BIT(RS_IMMEDIATE),        \
	  "writeback pages marked for immediate reclaim")                      \
	X(PAGEOUT, "pageout", pages,                                           \
	  RS_HOOK_BIT(LRU_SHRINK_INACTIVE) | RS_HOOK_BIT(RS_PAGEOUT),          \
	  "pages written out by reclaim itself")                               \
	X(DEACTIVATED, "deactivated", pages, RS_HOOK_BIT(LRU_SHRINK_ACTIVE),   \
	  "pages moved from active to inactive (classic LRU only)")            \
	X(PASSES, "passes", count, RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC),          \
	  "MGLRU lruvec reclaim passes (try_to_shrink_lruvec)")                \
	X(BATCHES, "batches", count,                                           \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(EVICT_FOLIOS),       \
	  "evict_folios batches within MGLRU passes")                          \
	X(BATCHES_ANON, "batches_anon", count, RS_TYPE_HOOKS,                  \
	  "batches that isolated anon folios")                                 \
	X(BATCHES_FILE, "batches_file", count, RS_TYPE_HOOKS,                  \
	  "batches that isolated file folios")                                 \
	X(BATCHES_EMPTY, "batches_empty", count, RS_TYPE_HOOKS,                \
	  "batches that isolated nothing of either type")                      \
	X(TYPE_FALLBACKS, "type_fallbacks", count, RS_TYPE_HOOKS,              \
	  "batches whose first type (the PID controller's choice) was "        \
	  "scanned without isolating a folio, so the other type was tried")    \
	X(BUDGET, "budget", pages,                                             \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) |                                  \
		  RS_HOOK_BIT(LRUVEC_EVICTABLE_SIZE),                          \
	  "scan budget assigned to MGLRU passes")                              \
	X(BUDGET_USED, "budget_used", pages,                                   \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(EVICT_FOLIOS),       \
	  "scan budget used (sum of evict_folios returns)")                    \
	X(PASS_TIME, "pass_time", ns, RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC),       \
	  "time spent in MGLRU passes")                                        \
	X(PASSES_OVER_BUDGET, "passes_over_budget", count,                     \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC),                                   \
	  "MGLRU passes longer than the latency budget")                       \
	X(EXIT_BUDGET, "exit_budget", count,                                   \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(EVICT_FOLIOS),       \
	  "passes that ended with the scan budget exhausted")                  \
	X(EXIT_NO_PROGRESS, "exit_no_progress", count,                         \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(EVICT_FOLIOS),       \
	  "passes that ended because a batch made no progress")                \
	X(EXIT_TARGET, "exit_target", count,                                   \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(EVICT_FOLIOS),       \
	  "passes that ended with the target met or watermarks ok")            \
	X(EXIT_BELOW_MIN, "exit_below_min", count,                             \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(EVICT_FOLIOS),       \
	  "passes that ended because the memcg is below memory.min")           \
	X(EXIT_AFTER_AGING, "exit_after_aging", count,                         \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(EVICT_FOLIOS) |      \
		  RS_HOOK_BIT(TRY_TO_INC_MAX_SEQ),                             \
	  "root-reclaim passes that ended after aging")                        \
	X(EXIT_OTHER, "exit_other", count,                                     \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(EVICT_FOLIOS),       \
	  "passes whose end cannot be told apart (e.g. signal, old kernel)")   \
	X(ABORT_CHECKS, "abort_checks", count,                                 \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(SHOULD_ABORT_SCAN),  \
	  "should_abort_scan() calls within MGLRU passes")                     \
	X(ABORTS, "aborts", count,                                             \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(SHOULD_ABORT_SCAN),  \
	  "passes should_abort_scan() ended: the kernel's own answer that "    \
	  "reclaim did enough (exit_target is deduced)")                       \
	X(BUDGET_KERNEL, "budget_kernel", pages,                               \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(APPLY_PROTECTION),   \
	  "scan budget as the kernel computed it (apply_proportional_"         \
	  "protection() >> priority), over the passes that called it")         \
	X(BUDGET_KERNEL_PASSES, "budget_kernel_passes", count,                 \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) | RS_HOOK_BIT(APPLY_PROTECTION),   \
	  "passes whose budget the kernel's computation showed")               \
	X(MEMCG_LRU_VISITS, "memcg_lru_visits", count,                         \
	  RS_HOOK_BIT(SHRINK_ONE),                                             \
	  "times root reclaim's walk of the memcg LRU came to this memcg "     \
	  "(shrink_one)")                                                      \
	X(MEMCG_LRU_SKIPS, "memcg_lru_skips", count,                           \
	  RS_HOOK_BIT(SHRINK_ONE) | RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC),         \
	  "of those, visits that ran no pass (not in the segment reclaim "     \
	  "takes, or protected by memory.min/low)")                            \
	X(MEMCG_LRU_TO_HEAD, "memcg_lru_to_head", count,                       \
	  RS_HOOK_BIT(ROTATE_MEMCG),                                           \
	  "memcg LRU moves to the head of its bin (lru_gen_rotate_memcg "      \
	  "MEMCG_LRU_HEAD)")                                                   \
	X(MEMCG_LRU_TO_TAIL, "memcg_lru_to_tail", count,                       \
	  RS_HOOK_BIT(ROTATE_MEMCG),                                           \
	  "memcg LRU moves to the tail of its bin (MEMCG_LRU_TAIL)")           \
	X(MEMCG_LRU_TO_OLD, "memcg_lru_to_old", count,                         \
	  RS_HOOK_BIT(ROTATE_MEMCG),                                           \
	  "memcg LRU moves to the old generation's bin: reclaimed first "      \
	  "(MEMCG_LRU_OLD)")                                                   \
	X(MEMCG_LRU_TO_YOUNG, "memcg_lru_to_young", count,                     \
	  RS_HOOK_BIT(ROTATE_MEMCG),                                           \
	  "memcg LRU moves to the young generation's bin: reclaimed last "     \
	  "(MEMCG_LRU_YOUNG)")                                                 \
	X(ROTATIONS, "rotations", count, RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC),    \
	  "passes that asked for the memcg LRU to rotate (need_rotate)")       \
	X(CLASSIC_SHRINKS, "classic_shrinks", count,                           \
	  RS_HOOK_BIT(SHRINK_LRUVEC),                                          \
	  "classic-LRU lruvec passes (shrink_lruvec without MGLRU)")           \
	X(AGING_ATTEMPTS, "aging_attempts", count,                             \
	  RS_HOOK_BIT(TRY_TO_INC_MAX_SEQ), "calls of try_to_inc_max_seq")      \
	X(AGINGS, "agings", count, RS_HOOK_BIT(TRY_TO_INC_MAX_SEQ),            \
	  "successful agings: max_seq advances")                               \
	X(AGING_TIME, "aging_time", ns, RS_HOOK_BIT(TRY_TO_INC_MAX_SEQ),       \
	  "time spent aging")                                                  \
	X(WALK_PTES, "walk_ptes", count, RS_WALK_HOOKS,                        \
	  "page-table entries aging's walk scanned (lru_gen_full T)")          \
	X(WALK_YOUNG, "walk_young", count, RS_WALK_HOOKS,                      \
	  "of them found young: accessed since the last walk (lru_gen_full "   \
	  "Y)")                                                                \
	X(WALK_PMDS, "walk_pmds", count, RS_WALK_HOOKS,                        \
	  "non-leaf page-table entries (PMDs) the walk found (lru_gen_full "   \
	  "F)")                                                                \
	X(WALK_BLOOM_ADDED, "walk_bloom_added", count, RS_WALK_HOOKS,          \
	  "of them added to the Bloom filter for the next walk (lru_gen_full " \
	  "A)")                                                                \
	X(MIN_SEQ_ADVANCES, "min_seq_advances", count,                         \
	  RS_HOOK_BIT(TRY_TO_INC_MIN_SEQ),                                     \
	  "generations retired (min_seq advances, anon plus file)")            \
	X(WB_CHECKS, "writeback_checks", count,                                \
	  RS_HOOK_BIT(HANDLE_RECLAIM_WRITEBACK),                               \
	  "handle_reclaim_writeback calls")                                    \
	X(UNQUEUED_DIRTY, "unqueued_dirty", pages,                             \
	  RS_HOOK_BIT(HANDLE_RECLAIM_WRITEBACK) |                              \
		  RS_HOOK_BIT(RS_UNQUEUED_DIRTY),                              \
	  "dirty pages not yet queued for writeback")                          \
	X(FLUSHER_WAKEUPS, "flusher_wakeups", count,                           \
	  RS_HOOK_BIT(HANDLE_RECLAIM_WRITEBACK) |                              \
		  RS_HOOK_BIT(RS_UNQUEUED_DIRTY),                              \
	  "flusher wakeups: every taken page was dirty and unqueued")          \
	X(THROTTLES, "throttles", count, RS_HOOK_BIT(THROTTLED),               \
	  "reclaim throttles (mm_vmscan_throttled)")                           \
	X(THROTTLED, "throttled", us, RS_HOOK_BIT(THROTTLED),                  \
	  "time spent throttled")                                              \
	X(THROTTLES_WRITEBACK, "throttles_writeback", count,                   \
	  RS_HOOK_BIT(THROTTLED), "throttles waiting for writeback")           \
	X(THROTTLES_ISOLATED, "throttles_isolated", count,                     \
	  RS_HOOK_BIT(THROTTLED), "throttles: too many pages isolated")        \
	X(THROTTLES_NOPROGRESS, "throttles_noprogress", count,                 \
	  RS_HOOK_BIT(THROTTLED), "throttles: reclaim made no progress")       \
	X(THROTTLES_CONGESTED, "throttles_congested", count,                   \
	  RS_HOOK_BIT(THROTTLED), "throttles: congested writeback")            \
	X(THROTTLES_OVER_BUDGET, "throttles_over_budget", count,               \
	  RS_HOOK_BIT(THROTTLED),                                              \
	  "throttles that delayed longer than the latency budget")             \
	X(DIRECT_RECLAIMS, "direct_reclaims", count,                           \
	  RS_HOOK_BIT(DIRECT_RECLAIM),                                         \
	  "global direct reclaims by tasks of this memcg")                     \
	X(DIRECT_TIME, "direct_time", ns, RS_HOOK_BIT(DIRECT_RECLAIM),         \
	  "time tasks of this memcg stalled in "                               \
	  "global direct reclaim")                                             \
	X(DIRECT_RECLAIMED, "direct_reclaimed", pages,                         \
	  RS_HOOK_BIT(DIRECT_RECLAIM),                                         \
	  "pages reclaimed by those direct reclaims")                          \
	X(DIRECT_OVER_BUDGET, "direct_over_budget", count,                     \
	  RS_HOOK_BIT(DIRECT_RECLAIM),                                         \
	  "direct reclaims longer than the latency budget")                    \
	X(MEMCG_RECLAIMS, "memcg_reclaims", count, RS_HOOK_BIT(MEMCG_RECLAIM), \
	  "memcg reclaims (limit or memory.reclaim) targeting this memcg")     \
	X(MEMCG_TIME, "memcg_time", ns, RS_HOOK_BIT(MEMCG_RECLAIM),            \
	  "time spent in those memcg reclaims")                                \
	X(MEMCG_RECLAIMED, "memcg_reclaimed", pages,                           \
	  RS_HOOK_BIT(MEMCG_RECLAIM),                                          \
	  "pages reclaimed by those memcg reclaims")                           \
	X(MEMCG_OVER_BUDGET, "memcg_over_budget", count,                       \
	  RS_HOOK_BIT(MEMCG_RECLAIM),                                          \
	  "memcg reclaims longer than the latency budget")                     \
	X(GOAL_RECLAIMS, "goal_reclaims", count, RS_GOAL_HOOKS,                \
	  "direct and memcg reclaims whose goal (sc->nr_to_reclaim) an "       \
	  "lruvec pass showed")                                                \
	X(GOAL_RATIO, "goal_ratio", ratio, RS_GOAL_HOOKS,                      \
	  "sum over those reclaims of pages reclaimed / goal (over-reclaim "   \
	  "is this over goal_reclaims)")                                       \
	X(NODE_RECLAIMS, "node_reclaims", count, RS_HOOK_BIT(NODE_RECLAIM),    \
	  "node_reclaim calls (zone_reclaim_mode)")                            \
	X(KSWAPD_WAKES, "kswapd_wakes", count, RS_HOOK_BIT(KSWAPD),            \
	  "kswapd wakeups (per node, not per memcg)")                          \
	X(KSWAPD_SLEEPS, "kswapd_sleeps", count, RS_HOOK_BIT(KSWAPD),          \
	  "kswapd going back to sleep (per node, not per memcg)")              \
	X(KSWAPD_RUNS, "kswapd_runs", count, RS_HOOK_BIT(BALANCE_PGDAT),       \
	  "kswapd balance_pgdat() runs (per node, not per memcg)")             \
	X(KSWAPD_RUN_TIME, "kswapd_run_time", ns, RS_HOOK_BIT(BALANCE_PGDAT),  \
	  "time in kswapd balance_pgdat() runs (per node)")                    \
	X(KSWAPD_PAST_HIGH, "kswapd_past_high", pages,                         \
	  RS_HOOK_BIT(BALANCE_PGDAT),                                          \
	  "free pages past the high watermarks of the zones a kswapd run "     \
	  "balanced, at its end, summed over runs (per node): reclaim past "   \
	  "its target")                                                        \
	X(KSWAPD_RUNS_SHORT, "kswapd_runs_short", count,                       \
	  RS_HOOK_BIT(BALANCE_PGDAT),                                          \
	  "kswapd runs that ended with free pages below those high "           \
	  "watermarks (per node)")                                             \
	X(REFAULTS_ANON, "refaults_anon", pages, RS_HOOK_BIT(CGROUPFS),        \
	  "anon pages faulted back in after reclaim (memory.stat "             \
	  "workingset_refault_anon)")                                          \
	X(REFAULTS_FILE, "refaults_file", pages, RS_HOOK_BIT(CGROUPFS),        \
	  "file pages read back in after reclaim (memory.stat "                \
	  "workingset_refault_file)")                                          \
	X(OOMS, "ooms", count, RS_HOOK_BIT(MEMCG_OOM),                         \
	  "memcg OOMs: mem_cgroup_out_of_memory() calls for this memcg "       \
	  "(memory.events oom), each with an oom record of its LRU")           \
	X(OOM_KILLS, "oom_kills", count, RS_HOOK_BIT(CGROUPFS),                \
	  "tasks OOM-killed in this memcg (memory.events oom_kill)")           \
	X(SLAB_FREED, "slab_freed", count, RS_HOOK_BIT(SHRINK_SLAB),           \
	  "objects freed by slab shrinkers")                                   \
	X(REFAULT_TESTED_ANON, "refault_tested_anon", pages, RS_REFAULT_HOOKS, \
	  "anon pages refaulted whose shadow MGLRU tested, in the memcg that " \
	  "evicted them (memory.stat workingset_refault_anon)")                \
	X(REFAULT_RECENT_ANON, "refault_recent_anon", pages, RS_REFAULT_HOOKS, \
	  "of those, evicted fewer than MAX_NR_GENS generations before (the "  \
	  "verdict of the kernel)")                                            \
	X(REFAULT_IN_FAULT_ANON, "refault_in_fault_anon", pages,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "recent anon refaults in a fault, of the workingset or not: a "      \
	  "wider activation rule than 7.2's (its workingset_activate_anon "    \
	  "counts refault_activated_anon)")                                    \
	X(REFAULT_ACTIVATED_ANON, "refault_activated_anon", pages,             \
	  RS_REFAULT_HOOKS,                                                    \
	  "recent anon refaults of the workingset in a fault: what the "       \
	  "kernel activates since that change, as in 7.2 (memory.stat "        \
	  "workingset_activate_anon)")                                         \
	X(REFAULT_RESTORED_ANON, "refault_restored_anon", pages,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "recent anon refaults of the workingset (memory.stat "               \
	  "workingset_restore_anon)")                                          \
	X(REFAULT_GENS_0_1_ANON, "refault_gens_0_1_anon", pages,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "anon refaults evicted 0 or 1 generations before (max_seq at the "   \
	  "refault against min_seq at the eviction)")                          \
	X(REFAULT_GENS_2_3_ANON, "refault_gens_2_3_anon", pages,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "anon refaults evicted 2 or 3 generations before (max_seq at the "   \
	  "refault against min_seq at the eviction)")                          \
	X(REFAULT_GENS_4_7_ANON, "refault_gens_4_7_anon", pages,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "anon refaults evicted 4 to 7 generations before (max_seq at the "   \
	  "refault against min_seq at the eviction)")                          \
	X(REFAULT_GENS_8_UP_ANON, "refault_gens_8_up_anon", pages,             \
	  RS_REFAULT_HOOKS,                                                    \
	  "anon refaults evicted 8 or more generations before (max_seq at "    \
	  "the refault against min_seq at the eviction)")                      \
	X(REFAULT_TESTED_FILE, "refault_tested_file", pages, RS_REFAULT_HOOKS, \
	  "file pages refaulted whose shadow MGLRU tested, in the memcg that " \
	  "evicted them (memory.stat workingset_refault_file)")                \
	X(REFAULT_RECENT_FILE, "refault_recent_file", pages, RS_REFAULT_HOOKS, \
	  "of those, evicted fewer than MAX_NR_GENS generations before (the "  \
	  "verdict of the kernel)")                                            \
	X(REFAULT_IN_FAULT_FILE, "refault_in_fault_file", pages,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "recent file refaults in a fault, of the workingset or not: a "      \
	  "wider activation rule than 7.2's (its workingset_activate_file "    \
	  "counts refault_activated_file)")                                    \
	X(REFAULT_ACTIVATED_FILE, "refault_activated_file", pages,             \
	  RS_REFAULT_HOOKS,                                                    \
	  "recent file refaults of the workingset in a fault: what the "       \
	  "kernel activates since that change, as in 7.2 (memory.stat "        \
	  "workingset_activate_file)")                                         \
	X(REFAULT_RESTORED_FILE, "refault_restored_file", pages,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "recent file refaults of the workingset (memory.stat "               \
	  "workingset_restore_file)")                                          \
	X(REFAULT_GENS_0_1_FILE, "refault_gens_0_1_file", pages,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "file refaults evicted 0 or 1 generations before (max_seq at the "   \
	  "refault against min_seq at the eviction)")                          \
	X(REFAULT_GENS_2_3_FILE, "refault_gens_2_3_file", pages,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "file refaults evicted 2 or 3 generations before (max_seq at the "   \
	  "refault against min_seq at the eviction)")                          \
	X(REFAULT_GENS_4_7_FILE, "refault_gens_4_7_file", pages,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "file refaults evicted 4 to 7 generations before (max_seq at the "   \
	  "refault against min_seq at the eviction)")                          \
	X(REFAULT_GENS_8_UP_FILE, "refault_gens_8_up_file", pages,             \
	  RS_REFAULT_HOOKS,                                                    \
	  "file refaults evicted 8 or more generations before (max_seq at "    \
	  "the refault against min_seq at the eviction)")                      \
	X(REFAULT_DIST_DISAGREE, "refault_dist_disagree", count,               \
	  RS_REFAULT_HOOKS,                                                    \
	  "refaults whose distance from the shadow disagreed with the "        \
	  "verdict of the kernel (then in no distance bucket): nonzero means " \
	  "this kernel packs its shadows otherwise")                           \
	X(REFAULT_DIST_RACED, "refault_dist_raced", count, RS_REFAULT_HOOKS,   \
	  "refaults whose shadow was tested while an aging ran: max_seq may "  \
	  "have moved between the kernel's read and ours, so the distance "    \
	  "(its bucket) is the one after the aging, and is not checked "       \
	  "against the kernel's verdict")                                      \
	X(EVICT_AGE_SUM, "evict_age_sum", us, RS_EVICT_AGE_HOOKS,              \
	  "the age of the generation each MGLRU eviction batch took from "     \
	  "(its type's min_seq, as lru_gen ages it), summed over the batches " \
	  "aged (evict_aged)")                                                 \
	X(EVICT_AGED, "evict_aged", count, RS_EVICT_AGE_HOOKS,                 \
	  "MGLRU eviction batches whose generation's age was taken")           \
	X(EVICT_UNAGED, "evict_unaged", count, RS_EVICT_AGE_HOOKS,             \
	  "MGLRU eviction batches whose generation's age could not be "        \
	  "taken: before the recorder knew HZ (its first read of the "         \
	  "generations), or the birth unreadable")

#define RS_FIELD_ENUM(id, key, unit, needs, help) RS_F_##id,
enum rs_field { RS_FIELDS(RS_FIELD_ENUM) RS_NR_FIELDS };
#undef RS_FIELD_ENUM

/*
 * Histograms of durations (latencies, and the ages of the generations
 * MGLRU evicted from), per memcg (not per node or reclaimer: one memcg's
 * distributions are what top's details and Prometheus show).  X(id, key,
 * metric, unit, needs, sum, help): key names the JSON object, metric with
 * reclaimscope_ and _seconds the Prometheus histogram; unit (ns or us) is
 * what the programs count in it, so that ages of hours fit where
 * latencies need ns; RS_F_<sum> is the field that sums its values (the
 * histogram's Prometheus _sum).  Values are in the unit, in log-linear
 * buckets: each power of two is split into RS_HIST_SUBS equal buckets, so a
 * bucket is at most 1/16 (6.25%) of the values it holds wide and a latency
 * budget between two powers of two (8.3 ms) is judged within one.  A bucket
 * holds (lo, hi] with whole-unit bounds, and every power of two is some
 * bucket's hi, so the log2 `le` bounds of /metrics are exact sums.  The last
 * bucket also holds every value past RS_HIST_MAX_NS units (2^37: 137 s in
 * ns, 38 h in us): a quantile there is unknown, and /metrics counts it
 * under +Inf only.
 */
#define RS_HISTS(X)                                                            \
	X(DIRECT, "direct_reclaim", "direct_reclaim_duration", ns,             \
	  RS_HOOK_BIT(DIRECT_RECLAIM), DIRECT_TIME,                            \
	  "global direct reclaim stalls of this memcg's tasks")                \
	X(MEMCG, "memcg_reclaim", "memcg_reclaim_duration", ns,                \
	  RS_HOOK_BIT(MEMCG_RECLAIM), MEMCG_TIME,                              \
	  "memcg reclaims targeting this memcg (limit or memory.reclaim)")     \
	X(PASS, "pass", "pass_duration", ns,                                   \
	  RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC), PASS_TIME,                        \
	  "MGLRU lruvec reclaim passes")                                       \
	X(AGING, "aging", "aging_duration", ns,                                \
	  RS_HOOK_BIT(TRY_TO_INC_MAX_SEQ), AGING_TIME,                         \
	  "aging (try_to_inc_max_seq) calls")                                  \
	X(THROTTLE, "throttle", "throttle_duration", ns,                       \
	  RS_HOOK_BIT(THROTTLED), THROTTLED, "reclaim throttle delays")        \
	X(EVICT_AGE, "evict_age", "evict_age", us, RS_EVICT_AGE_HOOKS,         \
	  EVICT_AGE_SUM,                                                       \
	  "ages of the generations MGLRU evicted from, one per eviction "      \
	  "batch")

#define RS_HIST_ENUM(id, key, metric, unit, needs, sum, help) RS_HIST_##id,
enum rs_hist { RS_HISTS(RS_HIST_ENUM) RS_NR_HISTS };
#undef RS_HIST_ENUM

/*
 * Bucket b = octave * RS_HIST_SUBS + sub.  Octave 0 is 1 ns per bucket:
 * bucket b < 16 holds b + 1 ns (and 0).  Octave o >= 1 splits
 * (2^(o+3), 2^(o+4)] ns into 16: its bucket sub holds
 * (2^(o-1) * (16 + sub), 2^(o-1) * (17 + sub)].  The last octave ends at
 * 2^37 ns (about 137 s); longer values go to its last bucket.
 */
#define RS_HIST_SUB_BITS 4
#define RS_HIST_SUBS (1U << RS_HIST_SUB_BITS)
#define RS_HIST_OCTAVES 34
#define RS_HIST_BUCKETS (RS_HIST_OCTAVES * RS_HIST_SUBS)
#define RS_HIST_MAX_NS (1ULL << 37)
/* The powers of two 2^0 .. 2^37 ns: the `le` bounds /metrics serves. */
#define RS_HIST_LOG2_BUCKETS 38

/*
 * One entry per memcg, histogram and octave that has a count: a memcg's
 * latencies span a few octaves, so its events find the few entries its
 * last events warmed (a key per bucket sent each event to a cold one,
 * ~140 ns of memcg_end, BENCHMARKS.md), and 34 octaves of 16 counters
 * for every memcg and kind would be most of the memory.
 */
struct rs_hist_key {
	__u64 cgroup_id;
	__u32 hist;   /* enum rs_hist */
	__u32 octave; /* < RS_HIST_OCTAVES */
};

struct rs_hist_value {
	__u64 count[RS_HIST_SUBS];
};

/* floor(log2(x)) for x >= 1; shifts only (BPF has no clz) */
static inline __u32 rs_log2_floor(__u64 x)
{
	__u32 k = 0;

	if (x >> 32) {
		x >>= 32;
		k += 32;
	}
	if (x >> 16) {
		x >>= 16;
		k += 16;
	}
	if (x >> 8) {
		x >>= 8;
		k += 8;
	}
	if (x >> 4) {
		x >>= 4;
		k += 4;
	}
	if (x >> 2) {
		x >>= 2;
		k += 2;
	}
	if (x >> 1)
		k += 1;
	return k;
}

/* The bucket of a value in ns, clamped to the last one. */
static inline __u32 rs_hist_bucket(__u64 ns)
{
	__u64 x = ns ? ns - 1 : 0; /* bounds are (lo, hi]: place ns - 1 */
	__u32 k;

	if (x >= RS_HIST_MAX_NS)
		x = RS_HIST_MAX_NS - 1;
	if (x < RS_HIST_SUBS)
		return (__u32)x;
	k = rs_log2_floor(x); /* >= RS_HIST_SUB_BITS */
	return (k - RS_HIST_SUB_BITS + 1) * RS_HIST_SUBS +
	       (__u32)((x >> (k - RS_HIST_SUB_BITS)) & (RS_HIST_SUBS - 1));
}

/* A bucket's upper bound in ns (its lower bound is the bucket before's). */
static inline __u64 rs_hist_bucket_hi(__u32 b)
{
	__u32 octave = b / RS_HIST_SUBS, sub = b % RS_HIST_SUBS;

	if (!octave)
		return sub + 1;
	return (1ULL << (octave - 1)) * (RS_HIST_SUBS + 1 + sub);
}

/*
 * The latency budget the *_over_budget counters count against unless told
 * otherwise (record, daemon and top --budget-ms): a 120 Hz frame.
 */
#define RS_DEFAULT_BUDGET_NS 8300000ULL
/* The largest budget --budget-ms takes: an hour. */
#define RS_MAX_BUDGET_NS 3600000000000ULL

/* cgroup id 0: reclaim the kernel did not tie to any memcg. */
#define RS_CGROUP_NONE 0ULL
/* Node unknown (tracepoint-only mode on a multi-node machine). */
#define RS_NODE_UNKNOWN 0xffffU

struct rs_agg_key {
	__u64 cgroup_id;
	__u16 node;
	__u8 reclaimer; /* enum rs_reclaimer */
	__u8 pad[5];
};

struct rs_agg_value {
	__u64 v[RS_NR_FIELDS];
};

/*
 * Cells of the preallocated spill map (bpf/common.bpf.h: rs_agg_spill), per
 * CPU: about 4 MiB in all however many CPUs, at least 16 and at most 256.
 */
#define RS_SPILL_CELLS_MAX 256
#define RS_SPILL_CELLS_MIN 16
#define RS_SPILL_BYTES (4U << 20)

/*
 * Attach points ("slots").  Every program is attached RS_COPIES times, and a
 * later copy does the work only when the kernel skipped the earlier ones
 * (see RS_PROGS in bpf/common.bpf.h); variants of one attach point share a
 * slot.
 */
/*
 * Under emulation, with 8 reclaimers on 2 CPUs (the tenants scenario), the
 * kernel skipped up to one run in 25 of a long program, several copies at
 * once; three copies still lost a few pass exits, five none.
 */
#define RS_COPIES 5
/*
 * Task states kept aside where task storage refuses one (rs_task_spare,
 * common.bpf.h): tasks alive at once, the entries of those gone taken out
 * every snapshot.
 */
#define RS_SPARE_STATES 1024
struct rs_spare_key {
	__u32 tid;
	__u32 cpu; /* the idle tasks (tid 0): one per CPU; else 0 */
	__u64 start_time;
};
/*
 * X(id, hook, section, target, ...): a slot's programs are in the section
 * "section/target" (fentry, fexit or tp_btf), and a failure of any of them
 * turns off the hook; the rest of RS_SLOTS' arguments go to X.  Its
 * programs, with what they read, are listed in src/collect/hooks.h
 * (RS_PROG_SPECS); static asserts hold each program's section to its slot
 * (RS_PROGS, bpf/common.bpf.h) and each listed program and its copies to
 * the skeleton (src/collect/collector.c).
 */
#define RS_SLOTS(X, ...)                                                       \
	X(PASS_ENTER, TRY_TO_SHRINK_LRUVEC, fentry, "try_to_shrink_lruvec",    \
	  __VA_ARGS__)                                                         \
	X(PASS_EXIT, TRY_TO_SHRINK_LRUVEC, fexit, "try_to_shrink_lruvec",      \
	  __VA_ARGS__)                                                         \
	X(EVICTABLE_EXIT, LRUVEC_EVICTABLE_SIZE, fexit,                        \
	  "lruvec_evictable_size", __VA_ARGS__)                                \
	X(PROTECTION_EXIT, APPLY_PROTECTION, fexit,                            \
	  "apply_proportional_protection", __VA_ARGS__)                        \
	X(ABORT_EXIT, SHOULD_ABORT_SCAN, fexit, "should_abort_scan",           \
	  __VA_ARGS__)                                                         \
	X(ONE_ENTER, SHRINK_ONE, fentry, "shrink_one", __VA_ARGS__)            \
	X(ONE_EXIT, SHRINK_ONE, fexit, "shrink_one", __VA_ARGS__)              \
	X(ROTATE, ROTATE_MEMCG, fentry, "lru_gen_rotate_memcg", __VA_ARGS__)   \
	X(OOM_EXIT, MEMCG_OOM, fexit, "mem_cgroup_out_of_memory", __VA_ARGS__) \
	X(EVICT_EXIT, EVICT_FOLIOS, fexit, "evict_folios", __VA_ARGS__)        \
	X(ISOLATE_EXIT, ISOLATE_FOLIOS, fexit, "isolate_folios", __VA_ARGS__)  \
	X(CLASSIC_ENTER, SHRINK_LRUVEC, fentry, "shrink_lruvec", __VA_ARGS__)  \
	X(CLASSIC_EXIT, SHRINK_LRUVEC, fexit, "shrink_lruvec", __VA_ARGS__)    \
	X(BALANCE_ENTER, BALANCE_PGDAT, fentry, "balance_pgdat", __VA_ARGS__)  \
	X(BALANCE_EXIT, BALANCE_PGDAT, fexit, "balance_pgdat", __VA_ARGS__)    \
	X(REFAULT_ENTER, REFAULTS, fentry, "workingset_refault", __VA_ARGS__)  \
	X(REFAULT_EXIT, REFAULTS, fexit, "workingset_refault", __VA_ARGS__)    \
	X(RECENT_EXIT, REFAULTS, fexit, "lru_gen_test_recent", __VA_ARGS__)    \
	X(AGING_ENTER, TRY_TO_INC_MAX_SEQ, fentry, "try_to_inc_max_seq",       \
	  __VA_ARGS__)                                                         \
	X(AGING_EXIT, TRY_TO_INC_MAX_SEQ, fexit, "try_to_inc_max_seq",         \
	  __VA_ARGS__)                                                         \
	X(MIN_SEQ_ENTER, TRY_TO_INC_MIN_SEQ, fentry, "try_to_inc_min_seq",     \
	  __VA_ARGS__)                                                         \
	X(MIN_SEQ_EXIT, TRY_TO_INC_MIN_SEQ, fexit, "try_to_inc_min_seq",       \
	  __VA_ARGS__)                                                         \
	X(WRITEBACK, HANDLE_RECLAIM_WRITEBACK, fentry,                         \
	  "handle_reclaim_writeback", __VA_ARGS__)                             \
	X(FLUSHER, WAKEUP_FLUSHER_THREADS, fentry, "wakeup_flusher_threads",   \
	  __VA_ARGS__)                                                         \
	X(DIRECT_BEGIN, DIRECT_RECLAIM, tp_btf,                                \
	  "mm_vmscan_direct_reclaim_begin", __VA_ARGS__)                       \
	X(DIRECT_END, DIRECT_RECLAIM, tp_btf, "mm_vmscan_direct_reclaim_end",  \
	  __VA_ARGS__)                                                         \
	X(MEMCG_BEGIN, MEMCG_RECLAIM, tp_btf, "mm_vmscan_memcg_reclaim_begin", \
	  __VA_ARGS__)                                                         \
	X(MEMCG_END, MEMCG_RECLAIM, tp_btf, "mm_vmscan_memcg_reclaim_end",     \
	  __VA_ARGS__)                                                         \
	X(NODE_BEGIN, NODE_RECLAIM, tp_btf, "mm_vmscan_node_reclaim_begin",    \
	  __VA_ARGS__)                                                         \
	X(NODE_END, NODE_RECLAIM, tp_btf, "mm_vmscan_node_reclaim_end",        \
	  __VA_ARGS__)                                                         \
	X(ISOLATE, LRU_ISOLATE, tp_btf, "mm_vmscan_lru_isolate", __VA_ARGS__)  \
	X(SHRINK_INACTIVE, LRU_SHRINK_INACTIVE, tp_btf,                        \
	  "mm_vmscan_lru_shrink_inactive", __VA_ARGS__)                        \
	X(SHRINK_ACTIVE, LRU_SHRINK_ACTIVE, tp_btf,                            \
	  "mm_vmscan_lru_shrink_active", __VA_ARGS__)                          \
	X(THROTTLED, THROTTLED, tp_btf, "mm_vmscan_throttled", __VA_ARGS__)    \
	X(KSWAPD_WAKE, KSWAPD, tp_btf, "mm_vmscan_kswapd_wake", __VA_ARGS__)   \
	X(KSWAPD_SLEEP, KSWAPD, tp_btf, "mm_vmscan_kswapd_sleep", __VA_ARGS__) \
	X(SLAB_END, SHRINK_SLAB, tp_btf, "mm_shrink_slab_end", __VA_ARGS__)    \
	X(CGROUP_MKDIR, CGROUP_NAMES, tp_btf, "cgroup_mkdir", __VA_ARGS__)     \
	X(CGROUP_RMDIR, CGROUP_NAMES, tp_btf, "cgroup_rmdir", __VA_ARGS__)

#define RS_SLOT_ENUM(id, hook, section, target, ...) RS_SLOT_##id,
enum rs_slot { RS_SLOTS(RS_SLOT_ENUM) RS_NR_SLOTS };
#undef RS_SLOT_ENUM

/*
 * X(prog, slot, pattern, ...): the BPF programs (RS_PROGS in bpf/), each
 * with the slot it is attached to (programs of one slot are alternatives, tried
 * in this order) and the pattern the kernel's BTF must match for it.
 * Function patterns are parameter names, matched by name because positions
 * moved between kernels (see the compat notes in bpf/compat.bpf.h);
 * tracepoint patterns are parameter types from btf_trace_<name>.  The
 * rest of RS_PROG_SPECS' arguments go to X.  RS_PROGS asserts that its
 * program has a row here with its slot.
 */
#define RS_ULONG "long unsigned int"
#define RS_PROG_SPECS(X, ...)                                                  \
	X(rs_pass_enter, PASS_ENTER, "lruvec,sc", __VA_ARGS__)                 \
	X(rs_pass_exit, PASS_EXIT, "lruvec,sc", __VA_ARGS__)                   \
	X(rs_evict_exit_v2, EVICT_EXIT, "nr_to_scan,lruvec,sc,swappiness",     \
	  __VA_ARGS__)                                                         \
	X(rs_evict_exit_v1, EVICT_EXIT, "lruvec,sc,swappiness", __VA_ARGS__)   \
	X(rs_isolate_exit, ISOLATE_EXIT,                                       \
	  "nr_to_scan,lruvec,sc,swappiness,list,isolated,isolate_type,"        \
	  "isolate_scanned",                                                   \
	  __VA_ARGS__)                                                         \
	X(rs_evictable_exit, EVICTABLE_EXIT, "lruvec,swappiness", __VA_ARGS__) \
	X(rs_protection_exit, PROTECTION_EXIT, "memcg,sc,scan", __VA_ARGS__)   \
	X(rs_abort_exit, ABORT_EXIT, "lruvec,sc", __VA_ARGS__)                 \
	X(rs_one_enter, ONE_ENTER, "lruvec,sc", __VA_ARGS__)                   \
	X(rs_one_exit, ONE_EXIT, "lruvec,sc", __VA_ARGS__)                     \
	X(rs_rotate, ROTATE, "lruvec,op", __VA_ARGS__)                         \
	X(rs_oom_exit, OOM_EXIT, "memcg,gfp_mask,order", __VA_ARGS__)          \
	X(rs_aging_enter, AGING_ENTER, "lruvec,seq,*,force_scan", __VA_ARGS__) \
	X(rs_aging_exit, AGING_EXIT, "lruvec,seq,*,force_scan", __VA_ARGS__)   \
	X(rs_min_seq_enter, MIN_SEQ_ENTER, "lruvec,*", __VA_ARGS__)            \
	X(rs_min_seq_exit, MIN_SEQ_EXIT, "lruvec,*", __VA_ARGS__)              \
	X(rs_writeback, WRITEBACK, "nr_taken,pgdat,sc,stat", __VA_ARGS__)      \
	X(rs_flusher, FLUSHER, "reason", __VA_ARGS__)                          \
	X(rs_classic_enter, CLASSIC_ENTER, "lruvec,sc", __VA_ARGS__)           \
	X(rs_classic_exit, CLASSIC_EXIT, "lruvec,sc", __VA_ARGS__)             \
	/* the hook is the shadow's test: without it the others count nothing  \
	 */                                                                    \
	X(rs_recent_exit, RECENT_EXIT, "shadow,lruvec,token,workingset,...",   \
	  __VA_ARGS__)                                                         \
	X(rs_refault_enter, REFAULT_ENTER, "folio,shadow", __VA_ARGS__)        \
	X(rs_refault_exit, REFAULT_EXIT, "folio,shadow", __VA_ARGS__)          \
	X(rs_balance_enter, BALANCE_ENTER, "pgdat,order,highest_zoneidx",      \
	  __VA_ARGS__)                                                         \
	X(rs_balance_exit, BALANCE_EXIT, "pgdat,order,highest_zoneidx",        \
	  __VA_ARGS__)                                                         \
	X(rs_direct_begin_v2, DIRECT_BEGIN, "gfp_t,int,struct mem_cgroup *",   \
	  __VA_ARGS__)                                                         \
	X(rs_direct_begin_v1, DIRECT_BEGIN, "int,gfp_t", __VA_ARGS__)          \
	X(rs_direct_end, DIRECT_END, RS_ULONG ",...", __VA_ARGS__)             \
	X(rs_memcg_begin_v2, MEMCG_BEGIN, "gfp_t,int,struct mem_cgroup *",     \
	  __VA_ARGS__)                                                         \
	X(rs_memcg_begin_v1, MEMCG_BEGIN, "int,gfp_t", __VA_ARGS__)            \
	X(rs_memcg_end, MEMCG_END, RS_ULONG ",...", __VA_ARGS__)               \
	X(rs_node_begin, NODE_BEGIN, "int,int,gfp_t", __VA_ARGS__)             \
	X(rs_node_end, NODE_END, RS_ULONG ",...", __VA_ARGS__)                 \
	X(rs_lru_isolate, ISOLATE,                                             \
	  "int,int," RS_ULONG "," RS_ULONG "," RS_ULONG "," RS_ULONG ",int",   \
	  __VA_ARGS__)                                                         \
	X(rs_lru_shrink_inactive, SHRINK_INACTIVE,                             \
	  "int," RS_ULONG "," RS_ULONG ",struct reclaim_stat *,int,int",       \
	  __VA_ARGS__)                                                         \
	X(rs_lru_shrink_active, SHRINK_ACTIVE,                                 \
	  "int," RS_ULONG "," RS_ULONG "," RS_ULONG ",...", __VA_ARGS__)       \
	X(rs_throttled, THROTTLED, "int,int,int,int", __VA_ARGS__)             \
	X(rs_kswapd_wake, KSWAPD_WAKE, "int,int,int", __VA_ARGS__)             \
	X(rs_kswapd_sleep, KSWAPD_SLEEP, "int", __VA_ARGS__)                   \
	X(rs_slab_end_v2, SLAB_END,                                            \
	  "struct shrinker *,int,int,long int,long int,long int,"              \
	  "struct mem_cgroup *",                                               \
	  __VA_ARGS__)                                                         \
	X(rs_slab_end_v1, SLAB_END, "struct shrinker *,int,int,...",           \
	  __VA_ARGS__)                                                         \
	X(rs_cgroup_mkdir, CGROUP_MKDIR, "struct cgroup *,...", __VA_ARGS__)   \
	X(rs_cgroup_rmdir, CGROUP_RMDIR, "struct cgroup *,...", __VA_ARGS__)

/* Global (not per memcg) counters, in a per-CPU array. */
enum rs_stat {
	RS_STAT_RING_DROPS,	/* records that could not be reserved */
	RS_STAT_RING_RECORDS,	/* records submitted */
	RS_STAT_AGG_FULL,	/* updates lost: aggregation map full */
	RS_STAT_STATE_MISSES,	/* no per-task state could be had */
	RS_STAT_PASS_NO_BUDGET, /* MGLRU passes where the budget was unseen */
	RS_STAT_HIST_FULL,	/* histogram updates lost: map full */
	/*
	 * Events lost: program runs the kernel skipped (the same program busy
	 * on that CPU) that the twin did not make up for.  Computed by the
	 * collector from bpf_prog_info, not counted by BPF.
	 */
	RS_STAT_PROG_MISSES,
	RS_STAT_FLUSHER_REASON0, /* wakeup_flusher_threads by wb_reason ... */
	RS_STAT_FLUSHER_REASON_LAST = RS_STAT_FLUSHER_REASON0 + 15,
	/* runs of a slot's later copies that did the work (first skipped) */
	RS_STAT_SECOND_RUNS0,
	RS_STAT_SECOND_RUNS_LAST = RS_STAT_SECOND_RUNS0 + RS_NR_SLOTS - 1,
	/* RS_STAT_RING_DROPS split by enum rs_event_type (index 0 unused) */
	RS_STAT_RING_DROPS_TYPE0,
	RS_STAT_RING_DROPS_TYPE_LAST = RS_STAT_RING_DROPS_TYPE0 + 7,
	RS_STAT_NAMES_FULL,  /* memcg names lost: rs_names full (cgnames.h) */
	RS_STAT_AGG_SPILLED, /* cells made in rs_agg_spill (common.bpf.h) */
	RS_STAT_TASKS_LOST,  /* stalls not kept per task: rs_task_stalls full */
	RS_STAT_SPARE_STATES, /* task states kept in rs_task_spare */
	RS_NR_STATS
};

/* Record types on the ring buffer. */
enum rs_event_type {
	RS_EV_SHRINK = 1,
	RS_EV_AGING,
	RS_EV_WRITEBACK,
	RS_EV_THROTTLE,
	RS_EV_RECLAIM,
	RS_EV_OOM,
	RS_EV_KSWAPD_RUN,
	RS_EV_LAST = RS_EV_KSWAPD_RUN
};

struct rs_event_hdr {
	__u64 ts_ns; /* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	__u64 cgroup_id;
	__u32 pid;
	__u16 type; /* enum rs_event_type */
	__u16 node;
	__u8 reclaimer; /* enum rs_reclaimer */
	__u8 pad[7];
};

/*
 * The lruvec a pass is on and whose it is, worked out once at the pass's
 * entry (bpf/common.bpf.h: rs_owner_of).  Addresses are plain numbers.
 */
struct rs_lruvec_owner {
	__u64 lruvec;
	__u64 memcg;
	__u64 cgid;
	__u16 node;
	__u8 pad[6];
};

/*
 * Per-task state that ties tracepoints to the memcg whose LRU the task is
 * scanning.  A task's memcg is only known inside an lruvec pass (MGLRU
 * try_to_shrink_lruvec, classic shrink_lruvec); outside one, events go to the
 * memcg reclaim target, then to the last memcg the task scanned.
 */
struct rs_task_state {
	/* attribution */
	struct rs_lruvec_owner pass;	/* MGLRU pass (valid if in_pass) */
	struct rs_lruvec_owner classic; /* shrink_lruvec (if in_classic) */
	__u64 target_cgid; /* memcg reclaim target (valid if in_memcg) */
	__u64 last_cgid;   /* last memcg this task scanned */
	__u16 last_node;
	__u8 pad4[6];
	__u8 in_pass, in_classic, in_direct, in_memcg, in_node_reclaim;
	__u8 pass_reclaimer, classic_reclaimer, memcg_reclaimer;
	__u8 classic_saw_pass;
	__u8 pad0[2];

	/* current MGLRU pass */
	__u64 pass_target; /* sc->target_mem_cgroup, as a plain address */
	__u64 pass_start_ns;
	__u64 evictable;
	__u64 budget;
	__u64 budget_used;
	__u64 pass_isolated;
	__u64 pass_reclaimed;
	__u64 nr_to_reclaim; /* sc->nr_to_reclaim of the invocation */
	__u32 batches;
	__u32 last_delta;
	/* isolate_folios() in this pass: batches by what they isolated */
	__u32 batches_anon, batches_file, batches_empty, type_fallbacks;
	__s32 priority;
	__s32 swappiness;
	__u8 budget_known;
	__u8 aged;     /* should_run_aging said yes during this pass */
	__u8 aging_ok; /* ... and try_to_inc_max_seq succeeded */
	__u8 root_reclaim;
	__u8 memcg_low_reclaim;
	__u8 aborted;	    /* should_abort_scan() said so in this pass */
	__u8 kbudget_known; /* kbudget: apply_proportional_protection() ran */
	__u8 pad1[1];
	__u64 kbudget;	    /* the kernel's budget, >> priority */
	__u32 abort_checks; /* should_abort_scan() calls in this pass */
	__u32 pad5;
	/* the memcg LRU walk's current shrink_one() (valid if in_one) */
	struct rs_lruvec_owner one;
	__u8 in_one, one_ran, one_reclaimer;
	/* the task's last MGLRU pass: how it ended (enum rs_exit_reason) */
	__u8 last_exit_known, last_exit;
	__u8 pad6[3];
	__u64 last_pass_reclaimed, last_pass_budget;

	__u8 min_seq_armed; /* try_to_inc_min_seq() entered */
	__u8 pad3[7];
	/* RS_PROGS: the last copy (1-based) this task ran, per slot */
	__u8 last_copy[RS_NR_SLOTS];
	__u8 pad2[(8 - RS_NR_SLOTS % 8) % 8];

	/* aging, min_seq and reclaim-invocation timing */
	__u64 aging_start_ns;
	__u64 min_seq_before;
	__u64 direct_start_ns;
	__u64 memcg_start_ns;

	/* kswapd's balance_pgdat() run in progress (valid if in_balance) */
	__u64 balance_start_ns;
	__u64 balance_isolated;	 /* inactive pages isolated in the run */
	__u64 balance_reclaimed; /* pages reclaimed in the run */
	__u64 balance_free_before, balance_high;
	__u8 in_balance;
	__u8 pad7[7];

	/* reclaim_stat of the current MGLRU pass, and of the last one */
	__u64 pass_dirty, pass_writeback;
	__u64 last_pass_dirty, last_pass_writeback, last_pass_isolated;

	/* workingset_refault() in progress (--refaults): the shadow's test */
	__u64 refault_lruvec; /* the evicting lruvec, as tested */
	__u64 refault_token;
	__u64 refault_max_seq;
	__u64 refault_aging_steps; /* rs_aging_steps as the refault began */
	__u8 refault_armed, refault_tested, refault_recent, refault_workingset;
	__u8 refault_raced; /* an aging ran, or may have, during the test */
	__u8 pad8[3];
};

/*
 * Where an event seen by this task belongs: the memcg of the lruvec being
 * shrunk (MGLRU pass first, then classic), else the memcg reclaim target,
 * else the last memcg the task scanned.
 */
static inline void rs_attribute(const struct rs_task_state *st, __u64 *cgid,
				__u16 *node, __u16 fallback_node)
{
	if (st->in_pass) {
		*cgid = st->pass.cgid;
		*node = st->pass.node;
	} else if (st->in_classic) {
		*cgid = st->classic.cgid;
		*node = st->classic.node;
	} else if (st->in_memcg) {
		*cgid = st->target_cgid;
		*node = fallback_node;
	} else {
		*cgid = st->last_cgid;
		*node = st->last_cgid ? st->last_node : fallback_node;
	}
}

#endif /* RS_COMMON_H */
