// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "fields.h"
#include "tiers.h"
#include "shrink.h"
#include "aging.h"

#define RS_FIELD_ROW(id, k, u, n, h)                                           \
	[RS_F_##id] = {.key = (k),                                             \
		       .unit = #u,                                             \
		       .unit_id = RS_UNIT_##u,                                 \
		       .needs = (n),                                           \
		       .help = (h)},
const struct rs_field_info rs_fields[RS_NR_FIELDS] = {RS_FIELDS(RS_FIELD_ROW)};
#undef RS_FIELD_ROW

#define RS_HOOK_ROW(id, n, kind)                                               \
	[RS_HOOK_##id] = {.name = (n),                                         \
			  .fentry = (kind) == 'f',                             \
			  .bpf = (kind) == 'f' || (kind) == 't',               \
			  .kernel_field = (kind) == 'k'},
const struct rs_hook_info rs_hooks[RS_NR_HOOKS] = {RS_HOOKS(RS_HOOK_ROW)};
#undef RS_HOOK_ROW

#define RS_HIST_NS_PER_ns 1
#define RS_HIST_NS_PER_us 1000
#define RS_HIST_ROW(id, k, mt, u, n, s, h)                                     \
	[RS_HIST_##id] = {.key = (k),                                          \
			  .metric = (mt),                                      \
			  .ns_per_unit = RS_HIST_NS_PER_##u,                   \
			  .needs = (n),                                        \
			  .sum = RS_F_##s,                                     \
			  .help = (h)},
const struct rs_hist_info rs_hist_infos[RS_NR_HISTS] = {RS_HISTS(RS_HIST_ROW)};
#undef RS_HIST_ROW

double rs_field_scale(enum rs_field f)
{
	return rs_fields[f].unit_id == RS_UNIT_ratio ? 1.0 / RS_RATIO_ONE : 1;
}

int rs_field_over_budget_of(enum rs_field f)
{
	switch (f) {
	case RS_F_PASSES_OVER_BUDGET:
		return RS_F_PASSES;
	case RS_F_DIRECT_OVER_BUDGET:
		return RS_F_DIRECT_RECLAIMS;
	case RS_F_MEMCG_OVER_BUDGET:
		return RS_F_MEMCG_RECLAIMS;
	case RS_F_THROTTLES_OVER_BUDGET:
		return RS_F_THROTTLES;
	default:
		return -1;
	}
}

int rs_field_by_key(const char *key)
{
	for (int i = 0; i < RS_NR_FIELDS; i++)
		if (!strcmp(rs_fields[i].key, key))
			return i;
	return -1;
}

/*
 * The alias list: fields whose key changed in schema 4, when every counter
 * took the one name its catalogue row had (report, diff and top had called
 * them so already).  A reader of schema 1 to 3 takes the old key; the
 * recording format's documentation lists the same pairs.
 */
static const struct {
	enum rs_field field;
	const char *old_key;
} field_aliases[] = {
	{RS_F_PASSES, "shrinks"},
	{RS_F_PASS_TIME, "pass_ns"},
	{RS_F_AGING_TIME, "aging_ns"},
	{RS_F_THROTTLED, "throttle_us"},
	{RS_F_DIRECT_TIME, "direct_reclaim_ns"},
	{RS_F_MEMCG_TIME, "memcg_reclaim_ns"},
	{RS_F_KSWAPD_RUN_TIME, "kswapd_run_ns"},
};

const char *rs_field_old_key(enum rs_field f)
{
	for (size_t i = 0; i < sizeof(field_aliases) / sizeof(*field_aliases);
	     i++)
		if (field_aliases[i].field == f)
			return field_aliases[i].old_key;
	return NULL;
}

int rs_field_by_old_key(const char *key)
{
	for (size_t i = 0; i < sizeof(field_aliases) / sizeof(*field_aliases);
	     i++)
		if (!strcmp(field_aliases[i].old_key, key))
			return (int)field_aliases[i].field;
	return -1;
}

const char *rs_reclaimer_name(unsigned int reclaimer)
{
	static const char *const names[RS_NR_RECLAIMERS] = {
		[RS_RECLAIMER_OTHER] = "other",
		[RS_RECLAIMER_KSWAPD] = "kswapd",
		[RS_RECLAIMER_DIRECT] = "direct",
		[RS_RECLAIMER_MEMCG] = "memcg",
		[RS_RECLAIMER_PROACTIVE] = "proactive",
		[RS_RECLAIMER_NODE] = "node",
	};
	return reclaimer < RS_NR_RECLAIMERS ? names[reclaimer] : "other";
}

const char *rs_exit_reason_name(unsigned int reason)
{
	static const char *const names[RS_NR_EXIT_REASONS] = {
		[RS_EXIT_BUDGET] = "budget_exhausted",
		[RS_EXIT_NO_PROGRESS] = "no_progress",
		[RS_EXIT_TARGET] = "target_met",
		[RS_EXIT_BELOW_MIN] = "below_min",
		[RS_EXIT_AFTER_AGING] = "after_aging",
		[RS_EXIT_UNKNOWN] = "unknown",
	};
	return reason < RS_NR_EXIT_REASONS ? names[reason] : "unknown";
}

const char *rs_aging_trigger_name(unsigned int trigger)
{
	switch (trigger) {
	case RS_AGING_RECLAIM:
		return "reclaim";
	case RS_AGING_KSWAPD:
		return "kswapd";
	default:
		return "other";
	}
}

const char *rs_tier_counter_name(unsigned int counter)
{
	static const char *const names[RS_NR_TIER_COUNTERS] = {
		[RS_TIER_REFAULTED] = "refaulted",
		[RS_TIER_EVICTED] = "evicted",
		[RS_TIER_PROTECTED] = "protected",
		[RS_TIER_AVG_REFAULTED] = "avg_refaulted",
		[RS_TIER_AVG_TOTAL] = "avg_total"};

	return counter < RS_NR_TIER_COUNTERS ? names[counter] : "unknown";
}

const char *rs_event_type_name(unsigned int type)
{
	static const char *const names[RS_EV_LAST + 1] = {
		[RS_EV_SHRINK] = "shrink",
		[RS_EV_AGING] = "aging",
		[RS_EV_WRITEBACK] = "writeback",
		[RS_EV_THROTTLE] = "throttle",
		[RS_EV_RECLAIM] = "reclaim",
		[RS_EV_OOM] = "oom",
		[RS_EV_KSWAPD_RUN] = "kswapd_run",
	};
	return type <= RS_EV_LAST && names[type] ? names[type] : "unknown";
}

const char *rs_throttle_reason_name(int reason)
{
	/* enum vmscan_throttle_state */
	static const char *const names[] = {"writeback", "isolated",
					    "noprogress", "congested"};
	return reason >= 0 && reason < 4 ? names[reason] : "unknown";
}

const char *rs_wb_reason_name(unsigned int reason, char *buf, size_t size)
{
	/* enum wb_reason, in order */
	static const char *const names[] = {
		"background",	 "vmscan",	  "sync",
		"periodic",	 "laptop_timer",  "fs_free_space",
		"forker_thread", "foreign_flush",
	};

	if (reason < sizeof(names) / sizeof(names[0]))
		return names[reason];
	snprintf(buf, size, "reason_%u", reason);
	return buf;
}

const struct rs_global_stat rs_global_stats[] = {
	{RS_STAT_RING_DROPS, "drops", "ring_drops_total",
	 "event records dropped: the ring buffer was full", true},
	{RS_STAT_RING_RECORDS, "records", "ring_records_total",
	 "event records submitted to the ring buffer", false},
	{RS_STAT_AGG_FULL, "agg_full", "agg_map_full_total",
	 "counter updates lost: the per-memcg map reached its cap of tracked "
	 "(memcg, node, reclaimer) cells",
	 true},
	{RS_STAT_AGG_SPILLED, "agg_spilled", "agg_map_spilled_total",
	 "counter cells kept in the reserve map: the per-memcg map was at "
	 "its cap, or had no memory to hand out at once (totals stay exact)",
	 false},
	{RS_STAT_NAMES_FULL, "names_full", "names_map_full_total",
	 "memcgs made while the naming map was full: named by a cgroupfs scan "
	 "if they still exist",
	 false},
	{RS_STAT_PROG_MISSES, "missed", "missed_events_total",
	 "events lost: the kernel skipped every copy of a program", true},
	{RS_STAT_STATE_MISSES, "state_misses", "state_misses_total",
	 "events without per-task state (not attributed)", false},
	{RS_STAT_HIST_FULL, "hist_full", "hist_map_full_total",
	 "histogram updates lost: the histogram map was full", false},
	{RS_STAT_SPARE_STATES, "spare_states", "task_states_spare_total",
	 "tasks whose state was kept in the spare map: the kernel would not "
	 "make their task storage (their events are counted all the same)",
	 false},
	{RS_STAT_TASKS_LOST, "tasks_lost", "task_stalls_lost_total",
	 "stalls not counted per task: the per-task map was full (the "
	 "memcgs' own counts keep them)",
	 false},
};
const size_t rs_nr_global_stats =
	sizeof(rs_global_stats) / sizeof(rs_global_stats[0]);
