// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "catalogue.h"
#include "fields.h"

/*
 * Rows in the report's order, by section.  Every field of RS_FIELDS has one
 * RS_ROW_FIELD row (a unit test checks it), so every counter reaches report
 * and diff; a field's JSON key and Prometheus name are the field table's.
 */
/*
 * A counter's row takes the field's own key (RS_FIELDS): one name in the
 * recording, JSON, /metrics, top, report and diff.  Unit and help: the
 * field's (a time in ms).
 */
#define FIELD_KEY(id, k, u, n, h) static const char field_key_##id[] = k;
RS_FIELDS(FIELD_KEY)
#undef FIELD_KEY
/* (after the section: more of the row's members, e.g. .title) */
#define FIELD(f, better_, sec, ...)                                            \
	{                                                                      \
		.key = field_key_##f, .better = (better_), .section = (sec),   \
		.kind = RS_ROW_FIELD, .a = RS_F_##f, .per_second = true,       \
		__VA_ARGS__                                                    \
	}
#define EXIT(f)                                                                \
	{                                                                      \
		.key = field_key_##f, .unit = "passes", .section = SEC_PASSES, \
		.kind = RS_ROW_FIELD, .a = RS_F_##f, .per_second = true        \
	}
#define BY(r, k, help_)                                                        \
	{                                                                      \
		.key = (k), .unit = "pages", .section = SEC_RECLAIM,           \
		.help = (help_), .kind = RS_ROW_RECLAIMED_BY,                  \
		.reclaimer = RS_RECLAIMER_##r, .per_second = true              \
	}
#define QUANT(hist, quant, k, sec, help_, ...)                                 \
	{                                                                      \
		.key = (k), .unit = "ms", .better = RS_LOWER,                  \
		.section = (sec), .help = (help_), .kind = RS_ROW_QUANTILE,    \
		.h = RS_HIST_##hist, .q = (quant), __VA_ARGS__                 \
	}
#define EVMAX(hist, k, sec, help_)                                             \
	{                                                                      \
		.key = (k), .unit = "ms", .better = RS_LOWER,                  \
		.section = (sec), .help = (help_), .kind = RS_ROW_EVENT_MAX,   \
		.h = RS_HIST_##hist                                            \
	}
#define OUT(k, unit_, better_, outkey, how, help_, ...)                        \
	{                                                                      \
		.key = (k), .unit = (unit_), .better = (better_),              \
		.section = "workload", .help = (help_),                        \
		.kind = RS_ROW_OUTCOME, .out = RS_OUT_##outkey,                \
		.combine = RS_OUT_COMBINE_##how, __VA_ARGS__                   \
	}

#define SEC_RECLAIM "reclaim"
#define SEC_PASSES "MGLRU passes"
#define SEC_AGING "aging"
#define SEC_WB "writeback"
#define SEC_LATENCY "latency"
#define SEC_OUTCOME "outcome"

/* Rows of top only (gauges a recording does not keep): after the others. */
#define LIVE_ONLY_ROWS                                                         \
	{.key = "psi_some_avg10",                                              \
	 .top_place = 14,                                                      \
	 .unit = "%",                                                          \
	 .better = RS_LOWER,                                                   \
	 .help = "memory.pressure some avg10 (%)",                             \
	 .kind = RS_ROW_GAUGE,                                                 \
	 .g = RS_GAUGE_PSI,                                                    \
	 .title = "psi10",                                                     \
	 .width = 6},                                                          \
	{                                                                      \
		.key = "mem_max", .top_place = 16, .unit = "MiB",              \
		.help = "memory.max", .kind = RS_ROW_GAUGE,                    \
		.g = RS_GAUGE_MEM_MAX, .title = "maxMiB", .width = 7           \
	}

const struct rs_row rs_rows[] = {
	/* reclaim */
	FIELD(SCANNED, RS_NEUTRAL, SEC_RECLAIM, .top_place = 1,
	      .headline_place = 11, .rate_rule = true),
	FIELD(ISOLATED, RS_NEUTRAL, SEC_RECLAIM, .top_place = 2,
	      .rate_rule = true),
	FIELD(RECLAIMED, RS_NEUTRAL, SEC_RECLAIM, .top_place = 3,
	      .headline_place = 12, .rate_rule = true),
	{.key = "efficiency",
	 .top_place = 4,
	 .headline_place = 13,
	 .unit = "% reclaimed/isolated",
	 .better = RS_HIGHER,
	 .section = SEC_RECLAIM,
	 .help = "pages reclaimed / pages isolated",
	 .kind = RS_ROW_PERCENT,
	 .a = RS_F_RECLAIMED,
	 .b = RS_F_ISOLATED,
	 .title = "eff%",
	 .width = 5},
	{.key = "file_share_reclaimed",
	 .unit = "%",
	 .section = SEC_RECLAIM,
	 .help = "file share of the pages reclaimed",
	 .kind = RS_ROW_PERCENT,
	 .a = RS_F_RECLAIMED_FILE,
	 .b = RS_F_RECLAIMED},
	{.key = "file_share_isolated",
	 .top_place = 5,
	 .unit = "%",
	 .section = SEC_RECLAIM,
	 .help = "file share of the isolated pages",
	 .kind = RS_ROW_PERCENT,
	 .a = RS_F_ISOLATED_FILE,
	 .b = RS_F_ISOLATED,
	 .title = "file%",
	 .width = 5},
	BY(KSWAPD, "reclaimed_by_kswapd", "pages kswapd reclaimed"),
	BY(DIRECT, "reclaimed_by_direct",
	   "pages global direct reclaim took (allocating tasks stalled)"),
	BY(MEMCG, "reclaimed_by_memcg",
	   "pages reclaimed for a memcg limit (memory.max, memory.high)"),
	BY(PROACTIVE, "reclaimed_by_proactive", "pages memory.reclaim took"),
	BY(NODE, "reclaimed_by_node", "pages node_reclaim took"),
	BY(OTHER, "reclaimed_by_other",
	   "pages reclaimed by no reclaimer above"),
	/* each reclaimer's yield: what its passes took per ms they ran */
	{.key = "kswapd_pass_time",
	 .unit = "ms",
	 .section = SEC_PASSES,
	 .help = "time kswapd spent in MGLRU passes on this memcg",
	 .kind = RS_ROW_PASS_TIME_BY,
	 .reclaimer = RS_RECLAIMER_KSWAPD,
	 .per_second = true},
	{.key = "kswapd_yield",
	 .unit = "pages/ms",
	 .better = RS_HIGHER,
	 .section = SEC_PASSES,
	 .help = "pages kswapd reclaimed from this memcg per ms of its passes "
		 "on it (low: kswapd scans a memcg that yields little)",
	 .kind = RS_ROW_YIELD,
	 .reclaimer = RS_RECLAIMER_KSWAPD,
	 .title = "kswapd/ms",
	 .width = 9},
	{.key = "direct_pass_time",
	 .unit = "ms",
	 .section = SEC_PASSES,
	 .help = "time global direct reclaim (allocating tasks) spent in MGLRU "
		 "passes on this memcg",
	 .kind = RS_ROW_PASS_TIME_BY,
	 .reclaimer = RS_RECLAIMER_DIRECT,
	 .per_second = true},
	{.key = "direct_yield",
	 .unit = "pages/ms",
	 .better = RS_HIGHER,
	 .section = SEC_PASSES,
	 .help = "pages global direct reclaim took from this memcg per ms of "
		 "its passes on it",
	 .kind = RS_ROW_YIELD,
	 .reclaimer = RS_RECLAIMER_DIRECT,
	 .title = "direct/ms",
	 .width = 9},
	/* a pass's take: falls when passes end with little (budget spent on
	 * pages that could not go, or aborted early) */
	{.key = "reclaimed_per_pass",
	 .unit = "pages per pass",
	 .better = RS_HIGHER,
	 .section = SEC_PASSES,
	 .help = "pages reclaimed per MGLRU pass (with MGLRU off for part of "
		 "the run, the classic LRU's reclaim counts too)",
	 .kind = RS_ROW_MEAN,
	 .a = RS_F_RECLAIMED,
	 .b = RS_F_PASSES,
	 .title = "rcl/pass",
	 .headline_place = 33},
	FIELD(ISOLATED_FILE, RS_NEUTRAL, SEC_RECLAIM),
	FIELD(RECLAIMED_FILE, RS_NEUTRAL, SEC_RECLAIM),
	FIELD(ACTIVE_ISOLATED, RS_NEUTRAL, SEC_RECLAIM),
	FIELD(DEACTIVATED, RS_NEUTRAL, SEC_RECLAIM),
	FIELD(CLASSIC_SHRINKS, RS_NEUTRAL, SEC_RECLAIM),
	FIELD(SLAB_FREED, RS_NEUTRAL, SEC_RECLAIM),
	FIELD(KSWAPD_WAKES, RS_NEUTRAL, SEC_RECLAIM),
	FIELD(KSWAPD_SLEEPS, RS_NEUTRAL, SEC_RECLAIM),
	FIELD(KSWAPD_RUNS, RS_NEUTRAL, SEC_RECLAIM),
	FIELD(KSWAPD_RUN_TIME, RS_NEUTRAL, SEC_RECLAIM),
	FIELD(KSWAPD_PAST_HIGH, RS_LOWER, SEC_RECLAIM),
	FIELD(KSWAPD_RUNS_SHORT, RS_LOWER, SEC_RECLAIM),
	/* MGLRU passes */
	FIELD(PASSES, RS_NEUTRAL, SEC_PASSES, .title = "passes/s",
	      .top_place = 7, .headline_place = 20),
	FIELD(BATCHES, RS_NEUTRAL, SEC_PASSES),
	FIELD(BATCHES_ANON, RS_NEUTRAL, SEC_PASSES),
	FIELD(BATCHES_FILE, RS_NEUTRAL, SEC_PASSES),
	FIELD(BATCHES_EMPTY, RS_LOWER, SEC_PASSES),
	FIELD(TYPE_FALLBACKS, RS_LOWER, SEC_PASSES),
	{.key = "file_batch_share",
	 .unit = "%",
	 .section = SEC_PASSES,
	 .help = "batches that isolated file folios / all batches: the "
		 "file/anon balance the PID controller struck",
	 .kind = RS_ROW_PERCENT,
	 .a = RS_F_BATCHES_FILE,
	 .b = RS_F_BATCHES,
	 .title = "fbatch%",
	 .width = 7},
	/* the PID controller's inputs, read as the kernel holds them */
	{.key = "pid_anon_refault",
	 .unit = "% of tier 0",
	 .section = SEC_PASSES,
	 .help = "refaulted / evicted and protected anon pages of tier 0, "
		 "moving average plus the current window: what MGLRU's PID "
		 "controller weighs against file's to pick the type to evict "
		 "(at the end of the run, or now)",
	 .kind = RS_ROW_TIER_REFAULT,
	 .lru_type = 0,
	 .tier = 0,
	 .title = "arf%",
	 .width = 6},
	{.key = "pid_file_refault",
	 .unit = "% of tier 0",
	 .section = SEC_PASSES,
	 .help = "the same for file pages",
	 .kind = RS_ROW_TIER_REFAULT,
	 .lru_type = 1,
	 .tier = 0,
	 .title = "frf%",
	 .width = 6},
	{.key = "type_fallback_share",
	 .unit = "%",
	 .section = SEC_PASSES,
	 .better = RS_LOWER,
	 .help = "batches whose chosen type isolated nothing, so the other "
		 "was tried / all batches",
	 .kind = RS_ROW_PERCENT,
	 .a = RS_F_TYPE_FALLBACKS,
	 .b = RS_F_BATCHES},
	{.key = field_key_BUDGET,
	 .unit = "pages assigned",
	 .section = SEC_PASSES,
	 .kind = RS_ROW_FIELD,
	 .a = RS_F_BUDGET,
	 .per_second = true},
	FIELD(BUDGET_USED, RS_NEUTRAL, SEC_PASSES),
	{.key = "budget_use",
	 .top_place = 6,
	 .headline_place = 21,
	 .unit = "% used/assigned",
	 .section = SEC_PASSES,
	 .help = "MGLRU scan budget used / assigned",
	 .kind = RS_ROW_PERCENT,
	 .a = RS_F_BUDGET_USED,
	 .b = RS_F_BUDGET,
	 .title = "budget%",
	 .width = 7},
	EXIT(EXIT_BUDGET),
	EXIT(EXIT_NO_PROGRESS),
	EXIT(EXIT_TARGET),
	EXIT(EXIT_BELOW_MIN),
	EXIT(EXIT_AFTER_AGING),
	EXIT(EXIT_OTHER),
	FIELD(ABORTS, RS_NEUTRAL, SEC_PASSES),
	FIELD(ABORT_CHECKS, RS_NEUTRAL, SEC_PASSES),
	FIELD(BUDGET_KERNEL, RS_NEUTRAL, SEC_PASSES),
	FIELD(BUDGET_KERNEL_PASSES, RS_NEUTRAL, SEC_PASSES),
	FIELD(ROTATIONS, RS_NEUTRAL, SEC_PASSES),
	FIELD(MEMCG_LRU_VISITS, RS_NEUTRAL, SEC_PASSES),
	FIELD(MEMCG_LRU_SKIPS, RS_NEUTRAL, SEC_PASSES),
	FIELD(MEMCG_LRU_TO_HEAD, RS_NEUTRAL, SEC_PASSES),
	FIELD(MEMCG_LRU_TO_TAIL, RS_NEUTRAL, SEC_PASSES),
	FIELD(MEMCG_LRU_TO_OLD, RS_NEUTRAL, SEC_PASSES),
	FIELD(MEMCG_LRU_TO_YOUNG, RS_NEUTRAL, SEC_PASSES),
	FIELD(PASS_TIME, RS_NEUTRAL, SEC_PASSES),
	QUANT(PASS, 0.5, "pass_p50", SEC_PASSES, "MGLRU pass latency, median"),
	QUANT(PASS, 0.99, "pass_p99", SEC_PASSES,
	      "MGLRU pass latency, 99th percentile"),
	EVMAX(PASS, "pass_max", SEC_PASSES, "the longest MGLRU pass"),
	FIELD(PASSES_OVER_BUDGET, RS_LOWER, SEC_PASSES),
	/* aging */
	FIELD(AGINGS, RS_NEUTRAL, SEC_AGING, .top_place = 8,
	      .headline_place = 22),
	{.key = "aging_rate",
	 .unit = "per s",
	 .section = SEC_AGING,
	 .help = "agings per second",
	 .kind = RS_ROW_RATE,
	 .a = RS_F_AGINGS},
	FIELD(AGING_ATTEMPTS, RS_NEUTRAL, SEC_AGING),
	FIELD(AGING_TIME, RS_NEUTRAL, SEC_AGING),
	FIELD(MIN_SEQ_ADVANCES, RS_NEUTRAL, SEC_AGING),
	FIELD(WALK_PTES, RS_NEUTRAL, SEC_AGING),
	FIELD(WALK_YOUNG, RS_NEUTRAL, SEC_AGING),
	{.key = "walk_young_share",
	 .unit = "%",
	 .section = SEC_AGING,
	 .help = "page-table entries the walk found young / scanned: how "
		 "much of what it read was in use (low: a walk mostly wasted)",
	 .kind = RS_ROW_PERCENT,
	 .a = RS_F_WALK_YOUNG,
	 .b = RS_F_WALK_PTES,
	 .title = "young%",
	 .width = 6},
	{.key = "walk_ptes_per_aging",
	 .unit = "entries",
	 .section = SEC_AGING,
	 .help = "page-table entries scanned per aging attempt",
	 .kind = RS_ROW_MEAN,
	 .a = RS_F_WALK_PTES,
	 .b = RS_F_AGING_ATTEMPTS},
	FIELD(WALK_PMDS, RS_NEUTRAL, SEC_AGING),
	FIELD(WALK_BLOOM_ADDED, RS_NEUTRAL, SEC_AGING),
	/* the generation timelines (gens.h) */
	{.key = "gens_alive",
	 .unit = "generations",
	 .section = SEC_AGING,
	 .help = "generations alive (as lru_gen lists them, min_seq to "
		 "max_seq), mean over the time each timeline sample held: "
		 "near 2, MGLRU's least, eviction is catching up with aging",
	 .kind = RS_ROW_GENS,
	 .gf = RS_GENS_ALIVE_MEAN,
	 .title = "gens",
	 .width = 5,
	 .headline_place = 23},
	{.key = "gens_alive_min",
	 .unit = "generations",
	 .section = SEC_AGING,
	 .help = "the fewest generations alive in any timeline sample",
	 .kind = RS_ROW_GENS,
	 .gf = RS_GENS_ALIVE_MIN},
	{.key = "aging_interval",
	 .unit = "ms",
	 .section = SEC_AGING,
	 .help = "time between two agings: the gap between consecutive "
		 "generations' births as the kernel stamped them, mean over "
		 "the births by aging the timelines saw",
	 .kind = RS_ROW_GENS,
	 .gf = RS_GENS_AGING_INTERVAL,
	 .headline_place = 24},
	{.key = "pages_per_gen_at_aging",
	 .unit = "pages",
	 .section = SEC_AGING,
	 .help = "anon and file pages in a generation at the first timeline "
		 "read after a younger one was born, mean: how much aging "
		 "left in a generation",
	 .kind = RS_ROW_GENS,
	 .gf = RS_GENS_PAGES_AT_AGING},
	{.key = "evict_age",
	 .unit = "ms",
	 .section = SEC_AGING,
	 .help = "age of the generation an MGLRU eviction batch took from "
		 "(its type's oldest, min_seq), mean over the batches: how "
		 "long pages sat before eviction reached them; short means "
		 "eviction is close behind aging",
	 .kind = RS_ROW_MEAN,
	 .a = RS_F_EVICT_AGE_SUM,
	 .b = RS_F_EVICT_AGED,
	 .title = "evage",
	 .width = 7,
	 .headline_place = 25},
	{.key = "evict_age_p99",
	 .unit = "ms",
	 .section = SEC_AGING,
	 .help = "age of the generation an MGLRU eviction batch took from, "
		 "99th percentile (unknown past 35.8 h: the histogram's last "
		 "bucket)",
	 .kind = RS_ROW_QUANTILE,
	 .h = RS_HIST_EVICT_AGE,
	 .q = 0.99},
	FIELD(EVICT_AGE_SUM, RS_NEUTRAL, SEC_AGING),
	FIELD(EVICT_AGED, RS_NEUTRAL, SEC_AGING),
	FIELD(EVICT_UNAGED, RS_NEUTRAL, SEC_AGING),
	QUANT(AGING, 0.5, "aging_p50", SEC_AGING, "aging latency, median"),
	QUANT(AGING, 0.9, "aging_p90", SEC_AGING,
	      "aging latency, 90th percentile"),
	QUANT(AGING, 0.99, "aging_p99", SEC_AGING,
	      "aging latency, 99th percentile"),
	/* writeback */
	FIELD(FLUSHER_WAKEUPS, RS_NEUTRAL, SEC_WB, .top_place = 9,
	      .headline_place = 26),
	FIELD(THROTTLES, RS_LOWER, SEC_WB, .top_place = 10,
	      .headline_place = 27),
	FIELD(THROTTLES_WRITEBACK, RS_LOWER, SEC_WB),
	FIELD(THROTTLES_ISOLATED, RS_LOWER, SEC_WB),
	FIELD(THROTTLES_NOPROGRESS, RS_LOWER, SEC_WB),
	FIELD(THROTTLES_CONGESTED, RS_LOWER, SEC_WB),
	FIELD(THROTTLES_OVER_BUDGET, RS_LOWER, SEC_WB),
	/* seconds throttled per second: 0.1 is a tenth of the time */
	FIELD(THROTTLED, RS_LOWER, SEC_WB, .title = "thrms/s", .width = 8,
	      .top_place = 11, .headline_place = 28, .rate_rule = true),
	QUANT(THROTTLE, 0.5, "throttle_p50", SEC_WB, "throttle delay, median"),
	QUANT(THROTTLE, 0.9, "throttle_p90", SEC_WB,
	      "throttle delay, 90th percentile"),
	QUANT(THROTTLE, 0.99, "throttle_p99", SEC_WB,
	      "throttle delay, 99th percentile"),
	EVMAX(THROTTLE, "throttle_max", SEC_WB, "the longest throttle delay"),
	FIELD(WB_CHECKS, RS_NEUTRAL, SEC_WB),
	FIELD(DIRTY, RS_NEUTRAL, SEC_WB),
	FIELD(UNQUEUED_DIRTY, RS_NEUTRAL, SEC_WB),
	FIELD(WRITEBACK, RS_NEUTRAL, SEC_WB),
	FIELD(CONGESTED, RS_NEUTRAL, SEC_WB),
	FIELD(IMMEDIATE, RS_NEUTRAL, SEC_WB),
	FIELD(PAGEOUT, RS_NEUTRAL, SEC_WB),
	/* latency */
	FIELD(DIRECT_RECLAIMS, RS_LOWER, SEC_LATENCY, .headline_place = 31),
	QUANT(DIRECT, 0.5, "direct_p50", SEC_LATENCY,
	      "direct reclaim latency, median"),
	QUANT(DIRECT, 0.9, "direct_p90", SEC_LATENCY,
	      "direct reclaim latency, 90th percentile"),
	{.key = "direct_p99",
	 .top_place = 12,
	 .headline_place = 32,
	 .unit = "ms",
	 .better = RS_LOWER,
	 .section = SEC_LATENCY,
	 .help = "direct reclaim latency, 99th percentile (ms, bucket bound)",
	 .kind = RS_ROW_QUANTILE,
	 .h = RS_HIST_DIRECT,
	 .q = 0.99,
	 .title = "drp99ms",
	 .width = 8},
	EVMAX(DIRECT, "direct_max", SEC_LATENCY, "the longest direct reclaim"),
	FIELD(DIRECT_OVER_BUDGET, RS_LOWER, SEC_LATENCY),
	FIELD(DIRECT_TIME, RS_LOWER, SEC_LATENCY),
	FIELD(DIRECT_RECLAIMED, RS_NEUTRAL, SEC_LATENCY),
	FIELD(MEMCG_RECLAIMS, RS_NEUTRAL, SEC_LATENCY, .headline_place = 29),
	QUANT(MEMCG, 0.5, "memcg_p50", SEC_LATENCY,
	      "memcg reclaim latency, median"),
	QUANT(MEMCG, 0.9, "memcg_p90", SEC_LATENCY,
	      "memcg reclaim latency, 90th percentile"),
	QUANT(MEMCG, 0.99, "memcg_p99", SEC_LATENCY,
	      "memcg reclaim latency, 99th percentile", .headline_place = 30),
	EVMAX(MEMCG, "memcg_max", SEC_LATENCY, "the longest memcg reclaim"),
	FIELD(MEMCG_OVER_BUDGET, RS_LOWER, SEC_LATENCY),
	FIELD(MEMCG_TIME, RS_NEUTRAL, SEC_LATENCY),
	FIELD(MEMCG_RECLAIMED, RS_NEUTRAL, SEC_LATENCY),
	FIELD(NODE_RECLAIMS, RS_NEUTRAL, SEC_LATENCY),
	{.key = "over_reclaim",
	 .unit = "x nr_to_reclaim",
	 .better = RS_LOWER,
	 .section = SEC_LATENCY,
	 .help = "mean of pages reclaimed / goal over the direct and memcg "
		 "reclaims whose goal was seen",
	 .kind = RS_ROW_MEAN,
	 .a = RS_F_GOAL_RATIO,
	 .b = RS_F_GOAL_RECLAIMS,
	 .title = "overrcl",
	 .width = 7},
	FIELD(GOAL_RECLAIMS, RS_NEUTRAL, SEC_LATENCY),
	FIELD(GOAL_RATIO, RS_NEUTRAL, SEC_LATENCY),
	/* outcome */
	{.key = "refaults",
	 .top_place = 13,
	 .headline_place = 14,
	 .unit = "pages",
	 .better = RS_LOWER,
	 .section = SEC_OUTCOME,
	 .help = "pages refaulted (memory.stat)",
	 .kind = RS_ROW_SUM,
	 .a = RS_F_REFAULTS_ANON,
	 .b = RS_F_REFAULTS_FILE,
	 .title = "refault/s",
	 .width = 9,
	 .per_second = true},
	FIELD(REFAULTS_ANON, RS_LOWER, SEC_OUTCOME),
	FIELD(REFAULTS_FILE, RS_LOWER, SEC_OUTCOME),
	/* --refaults: the shadow test of each refault (MGLRU) */
	FIELD(REFAULT_TESTED_ANON, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_RECENT_ANON, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_IN_FAULT_ANON, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_ACTIVATED_ANON, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_RESTORED_ANON, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_GENS_0_1_ANON, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_GENS_2_3_ANON, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_GENS_4_7_ANON, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_GENS_8_UP_ANON, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_TESTED_FILE, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_RECENT_FILE, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_IN_FAULT_FILE, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_ACTIVATED_FILE, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_RESTORED_FILE, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_GENS_0_1_FILE, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_GENS_2_3_FILE, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_GENS_4_7_FILE, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_GENS_8_UP_FILE, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(REFAULT_DIST_DISAGREE, RS_LOWER, SEC_OUTCOME),
	FIELD(REFAULT_DIST_RACED, RS_NEUTRAL, SEC_OUTCOME),
	FIELD(OOMS, RS_LOWER, SEC_OUTCOME),
	{.key = "oom_file_lru",
	 .headline_place = 16,
	 .unit = "MiB",
	 .section = SEC_OUTCOME,
	 .help = "file pages on the memcg's LRU when it OOMed, mean over its "
		 "OOMs (oom records): evictable file memory the OOM did not "
		 "wait "
		 "for",
	 .kind = RS_ROW_EVENT_VALUE,
	 .ev = RS_EVV_OOM_FILE_MIB},
	{.key = "oom_anon_lru",
	 .headline_place = 17,
	 .unit = "MiB",
	 .section = SEC_OUTCOME,
	 .help = "anon pages on the memcg's LRU when it OOMed, mean over its "
		 "OOMs",
	 .kind = RS_ROW_EVENT_VALUE,
	 .ev = RS_EVV_OOM_ANON_MIB},
	{.key = "oom_oldest_age",
	 .headline_place = 18,
	 .unit = "ms",
	 .section = SEC_OUTCOME,
	 .help = "age of the oldest generation on the memcg's LRU when it "
		 "OOMed (the lower min_seq's, as lru_gen shows it), mean over "
		 "its OOMs: how long the pages that were not evicted had sat "
		 "there",
	 .kind = RS_ROW_EVENT_VALUE,
	 .ev = RS_EVV_OOM_OLDEST_AGE_MS},
	{.key = "oom_youngest_age",
	 .headline_place = 19,
	 .unit = "ms",
	 .section = SEC_OUTCOME,
	 .help = "age of the youngest generation (max_seq's) when the memcg "
		 "OOMed, mean over its OOMs: the time since its last aging",
	 .kind = RS_ROW_EVENT_VALUE,
	 .ev = RS_EVV_OOM_YOUNGEST_AGE_MS},
	FIELD(OOM_KILLS, RS_LOWER, SEC_OUTCOME, .headline_place = 15),
	{.key = "mem_avg",
	 .top_place = 15,
	 .unit = "MiB",
	 .section = SEC_OUTCOME,
	 .help = "memory.current",
	 .kind = RS_ROW_GAUGE,
	 .g = RS_GAUGE_MEM,
	 .title = "memMiB",
	 .width = 7},
	/* workload: the workload's own figures (outcome records) */
	OUT("ops_per_s", "ops/s", RS_HIGHER, OPS_PER_S, SUM,
	    "the workload's throughput", .headline_place = 1),
	OUT("mb_per_s", "MB/s", RS_HIGHER, MB_PER_S, SUM,
	    "the workload's throughput", .headline_place = 2),
	OUT("lat_mean", "ms", RS_LOWER, LAT_MEAN_MS, ONE,
	    "the workload's mean latency", .headline_place = 3),
	OUT("lat_p50", "ms", RS_LOWER, LAT_P50_MS, ONE,
	    "the workload's median latency"),
	OUT("lat_p95", "ms", RS_LOWER, LAT_P95_MS, ONE,
	    "the workload's 95th percentile latency"),
	OUT("lat_p99", "ms", RS_LOWER, LAT_P99_MS, ONE,
	    "the workload's 99th percentile latency", .headline_place = 4),
	OUT("iterations", "completed", RS_HIGHER, ITERATIONS, SUM,
	    "iterations the workload completed", .headline_place = 5),
	OUT("ops", "operations", RS_HIGHER, OPS, SUM,
	    "operations the workload completed"),
	OUT("worker_progress", "mean per worker", RS_HIGHER, PROGRESS,
	    WORKER_MEAN, "the workers' mean progress", .headline_place = 6),
	OUT("worker_fairness", "Jain's index of progress", RS_HIGHER, PROGRESS,
	    WORKER_JAIN, "how evenly the workers progressed (1: evenly)",
	    .headline_place = 7),
	OUT("pgpgin", "KiB", RS_LOWER, PGPGIN_KIB, SUM,
	    "KiB read from block devices while the workload ran (the "
	    "machine's /proc/vmstat pgpgin, as the series' cover letter "
	    "counts it; in the lab, less the tools disk's)",
	    .headline_place = 10),
	OUT("pgpgout", "KiB", RS_NEUTRAL, PGPGOUT_KIB, SUM,
	    "KiB written to block devices while the workload ran "
	    "(/proc/vmstat pgpgout)"),
	OUT("oom_killed", "processes", RS_LOWER, OOM_KILLED, TRUE,
	    "the workload's processes OOM-killed", .headline_place = 8),
	OUT("failed", "processes (exit != 0, not OOM)", RS_LOWER, EXIT_STATUS,
	    FAILED, "the workload's processes that failed otherwise",
	    .headline_place = 9),
#ifdef RS_EXTRA_ROWS /* tests: a row added as a contributor would */
#include RS_EXTRA_ROWS
#endif
	LIVE_ONLY_ROWS,
};
const int rs_nr_rows = sizeof(rs_rows) / sizeof(rs_rows[0]);
const int rs_nr_report_rows =
	sizeof(rs_rows) / sizeof(rs_rows[0]) -
	sizeof((struct rs_row[]){LIVE_ONLY_ROWS}) / sizeof(struct rs_row);

#undef FIELD
#undef QUANT
#undef EVMAX
#undef EXIT
#undef BY
#undef OUT
#undef LIVE_ONLY_ROWS

int rs_row_by_key(const char *key)
{
	for (int i = 0; i < rs_nr_rows; i++)
		if (!strcmp(rs_rows[i].key, key))
			return i;
	return -1;
}

static int row_place(enum rs_row_list l, int i)
{
	return l == RS_LIST_TOP ? rs_rows[i].top_place
				: rs_rows[i].headline_place;
}

int rs_row_list(enum rs_row_list l, int *rows, int max)
{
	int n = 0;

	/* places are small and few: find place 1, 2, ... in turn */
	for (int place = 1;; place++) {
		int found = -1;

		for (int i = 0; i < rs_nr_rows && found < 0; i++)
			if (row_place(l, i) == place)
				found = i;
		if (found < 0 || n == max)
			return n;
		rows[n++] = found;
	}
}

bool rs_row_live(int i)
{
	switch (rs_rows[i].kind) {
	case RS_ROW_EVENT_MAX:
	case RS_ROW_EVENT_VALUE:
	case RS_ROW_OUTCOME:
		return false;
	default:
		return true;
	}
}

const char *rs_row_better_name(int i)
{
	return rs_rows[i].better == RS_LOWER	? "lower"
	       : rs_rows[i].better == RS_HIGHER ? "higher"
						: "-";
}

const char *rs_row_unit(int i)
{
	const struct rs_row *row = &rs_rows[i];

	if (row->unit)
		return row->unit;
	switch (rs_fields[row->a].unit_id) {
	case RS_UNIT_ns:
	case RS_UNIT_us:
		return "ms";
	case RS_UNIT_ratio:
		return "sum of ratios";
	default:
		return rs_fields[row->a].unit;
	}
}

const int *rs_report_order(void)
{
	static int order[sizeof(rs_rows) / sizeof(rs_rows[0])];
	static bool done;
	int n = 0;

	if (done)
		return order;
	for (int i = 0; i < rs_nr_report_rows; i++) {
		bool first = true;

		for (int k = 0; k < i && first; k++)
			first = strcmp(rs_rows[k].section, rs_rows[i].section);
		if (!first)
			continue;
		for (int j = i; j < rs_nr_report_rows; j++)
			if (!strcmp(rs_rows[j].section, rs_rows[i].section))
				order[n++] = j;
	}
	done = true;
	return order;
}

bool rs_row_counts(int i)
{
	const struct rs_row *row = &rs_rows[i];

	switch (row->kind) {
	case RS_ROW_FIELD:
	case RS_ROW_SUM:
		return rs_fields[row->a].unit_id == RS_UNIT_pages ||
		       rs_fields[row->a].unit_id == RS_UNIT_count;
	case RS_ROW_RECLAIMED_BY:
		return true;
	case RS_ROW_OUTCOME:
		return row->combine == RS_OUT_COMBINE_TRUE ||
		       row->combine == RS_OUT_COMBINE_FAILED ||
		       row->out == RS_OUT_ITERATIONS ||
		       row->out == RS_OUT_OPS ||
		       row->out == RS_OUT_PGPGIN_KIB ||
		       row->out == RS_OUT_PGPGOUT_KIB;
	default:
		return false;
	}
}

const char *rs_row_help(int i)
{
	return rs_rows[i].help ?: rs_fields[rs_rows[i].a].help;
}

const char *rs_row_title(int i, char *buf, size_t size)
{
	if (rs_rows[i].title)
		return rs_rows[i].title;
	snprintf(buf, size, "%s%s", rs_rows[i].key,
		 rs_rows[i].per_second ? "/s" : "");
	return buf;
}

int rs_row_width(int i)
{
	char buf[RS_ROW_TITLE_SIZE];

	if (rs_rows[i].width)
		return rs_rows[i].width;
	return (int)strlen(rs_row_title(i, buf, sizeof(buf))) + 1;
}

void rs_values_init(struct rs_values *v, double span)
{
	memset(v, 0, sizeof(*v));
	v->span = span;
	for (int f = 0; f < RS_NR_FIELDS; f++)
		v->field[f] = NAN;
	for (int g = 0; g < RS_NR_GAUGES; g++)
		v->gauge[g] = NAN;
	for (int h = 0; h < RS_NR_HISTS; h++)
		v->event_max_ms[h] = NAN;
	for (int e = 0; e < RS_NR_EVENT_VALUES; e++)
		v->event_value[e] = NAN;
	for (int r = 0; r < RS_NR_RECLAIMERS; r++)
		v->reclaimed_by[r] = v->pass_ms_by[r] = NAN;
}

double rs_hist_quantile_ms(const struct rs_histogram *h, double q,
			   double ns_per_unit)
{
	double v = rs_hist_quantile(h, q);

	return v < 0 ? NAN : v * ns_per_unit / 1e6;
}

double rs_jain(const double *x, int n)
{
	double sum = 0, sq = 0;

	for (int i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	if (n < 1 || sq == 0)
		return NAN;
	return sum * sum / (n * sq);
}

/* An outcome in the scope of v: all for the total, else those run in it. */
static bool outcome_in(const struct rs_outcome *e, const struct rs_values *v)
{
	return v->is_total ||
	       (e->memcg && v->path && !strcmp(e->memcg, v->path));
}

static double outcome_value(const struct rs_values *vals,
			    enum rs_outcome_combine how,
			    enum rs_outcome_key key)
{
	double sum = 0, one = NAN, *x;
	int n = 0, ones = 0;

	x = calloc(vals->nr_outcomes ? vals->nr_outcomes : 1, sizeof(*x));
	if (!x)
		return NAN;
	for (size_t i = 0; i < vals->nr_outcomes; i++) {
		const struct rs_outcome *e = &vals->outcomes[i];
		double v = e->v[key];
		bool worker = e->worker >= 0;

		if (!outcome_in(e, vals) || isnan(v))
			continue;
		switch (how) {
		case RS_OUT_COMBINE_SUM:
		case RS_OUT_COMBINE_ONE:
			if (worker)
				continue;
			sum += v;
			one = v;
			ones++;
			break;
		case RS_OUT_COMBINE_TRUE:
		case RS_OUT_COMBINE_FAILED:
			/* processes: the workers, or the workload if it has
			 * none */
			if (e->has_workers)
				continue;
			sum += how == RS_OUT_COMBINE_TRUE
				       ? v != 0
				       : v != 0 &&
						 !(e->v[RS_OUT_OOM_KILLED] > 0);
			break;
		default:
			if (!worker)
				continue;
			break;
		}
		x[n++] = v;
	}
	switch (how) {
	case RS_OUT_COMBINE_SUM:
		sum = ones ? sum : NAN;
		break;
	case RS_OUT_COMBINE_ONE:
		sum = ones == 1 ? one : NAN;
		break;
	case RS_OUT_COMBINE_TRUE:
	case RS_OUT_COMBINE_FAILED:
		sum = n ? sum : NAN;
		break;
	case RS_OUT_COMBINE_WORKER_MEAN:
		for (int i = 0; i < n; i++)
			sum += x[i];
		sum = n ? sum / n : NAN;
		break;
	default:
		sum = n >= 2 ? rs_jain(x, n) : NAN;
		break;
	}
	free(x);
	return sum;
}

static const struct rs_value NA = {RS_VALUE_NA, NAN};
static const struct rs_value NONE = {RS_VALUE_NONE, NAN};

static struct rs_value ok(double v)
{
	return (struct rs_value){RS_VALUE_OK, v};
}

/* A value that is NaN is one the kernel or recording cannot give. */
static struct rs_value known(double v)
{
	return isnan(v) ? NA : ok(v);
}

/* The memcg keeps it as a whole (memory.stat, memory.events). */
static bool memcg_wide(enum rs_field f)
{
	return rs_fields[f].needs & RS_HOOK_BIT(CGROUPFS);
}

/* A field in the unit people read: a time in ms. */
static double shown(const struct rs_values *v, enum rs_field f)
{
	switch (rs_fields[f].unit_id) {
	case RS_UNIT_ns:
		return v->field[f] / 1e6;
	case RS_UNIT_us:
		return v->field[f] / 1e3;
	default:
		return v->field[f];
	}
}

struct rs_value rs_row_eval(const struct rs_values *v, int i)
{
	const struct rs_row *row = &rs_rows[i];
	double a = v->field[row->a], b = v->field[row->b], pct;

	switch (row->kind) {
	case RS_ROW_FIELD:
		if (v->node_share && memcg_wide(row->a))
			return NONE;
		return known(shown(v, row->a));
	case RS_ROW_PERCENT:
	case RS_ROW_MEAN:
		if (isnan(a) || isnan(b))
			return NA;
		if (!(b > 0))
			return NONE;
		/* a mean of times in ms, as their field's row shows them */
		if (row->kind == RS_ROW_MEAN)
			a = shown(v, row->a);
		return ok((row->kind == RS_ROW_PERCENT ? 100.0 : 1.0) * a / b);
	case RS_ROW_SUM:
		if (isnan(a) || isnan(b))
			return NA;
		if (v->node_share && (memcg_wide(row->a) || memcg_wide(row->b)))
			return NONE;
		return ok(a + b);
	case RS_ROW_RATE:
		if (isnan(a))
			return NA;
		return v->span > 0 ? ok(a / v->span) : NONE;
	case RS_ROW_QUANTILE: {
		double q, max = v->event_max_ms[row->h];

		if (!v->hist[row->h])
			return NA;
		if (v->node_share)
			return NONE;
		q = rs_hist_quantile_ms(v->hist[row->h], row->q,
					rs_hist_infos[row->h].ns_per_unit);
		if (isnan(q))
			return NONE;
		/* past the histogram's range: not known, never its bound */
		if (isinf(q))
			return NA;
		/* a point inside a bucket may lie above every value in it */
		return ok(max < q ? max : q);
	}
	case RS_ROW_EVENT_MAX:
		return known(v->event_max_ms[row->h]);
	case RS_ROW_EVENT_VALUE:
		return known(v->event_value[row->ev]);
	case RS_ROW_RECLAIMED_BY:
		return known(v->reclaimed_by[row->reclaimer]);
	case RS_ROW_PASS_TIME_BY:
		return known(v->pass_ms_by[row->reclaimer]);
	case RS_ROW_YIELD:
		a = v->reclaimed_by[row->reclaimer];
		b = v->pass_ms_by[row->reclaimer];
		if (isnan(a) || isnan(b))
			return NA;
		return b > 0 ? ok(a / b) : NONE;
	case RS_ROW_GAUGE:
		if (v->node_share)
			return NONE;
		if (row->g == RS_GAUGE_PSI)
			return known(v->gauge[row->g]);
		return known(v->gauge[row->g] / 1048576);
	case RS_ROW_TIER_REFAULT:
		if (v->node_share)
			return NONE; /* read per memcg, summed over nodes */
		if (!v->tiers)
			return NA;
		pct = rs_tiers_refault_pct(v->tiers, row->lru_type, row->tier);
		return isnan(pct) ? NONE : ok(pct);
	case RS_ROW_OUTCOME:
		return known(outcome_value(v, row->combine, row->out));
	case RS_ROW_GENS:
		if (v->node_share)
			return NONE; /* kept per memcg, over its nodes */
		if (!v->has_gens)
			return NA;
		pct = rs_gens_figure(&v->gens, row->gf);
		return isnan(pct) ? NONE : ok(pct);
	}
	return NA;
}

double rs_row_number(const struct rs_values *v, int i)
{
	struct rs_value x = rs_row_eval(v, i);

	return x.state == RS_VALUE_OK ? x.v : NAN;
}
