/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The field table: one row per counter, rendered by every view (JSON keys,
 * top columns, Prometheus metrics, report rows), so that they cannot drift.
 */
#ifndef RS_FIELDS_H
#define RS_FIELDS_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include "rs_common.h"

/* lower case: the table names units by these tokens */
enum rs_unit {
	RS_UNIT_pages,
	RS_UNIT_count,
	RS_UNIT_ns,
	RS_UNIT_us,
	RS_UNIT_ratio, /* a sum of ratios, RS_RATIO_ONE to 1 */
};

struct rs_field_info {
	const char *key;  /* JSON key */
	const char *unit; /* "pages", "count", "ns", "us", "ratio" */
	enum rs_unit unit_id;
	__u64 needs; /* RS_HOOK_BIT()s without which it is unknown */
	const char *help;
};

extern const struct rs_field_info rs_fields[RS_NR_FIELDS];

/* Latency histograms (RS_HISTS): values in ns, log-linear buckets. */
struct rs_hist_info {
	const char *key;
	const char *metric; /* reclaimscope_<metric>_seconds */
	double ns_per_unit; /* 1: counted in ns, 1000: in us */
	__u64 needs;
	enum rs_field sum; /* the field that sums its values */
	const char *help;
};
extern const struct rs_hist_info rs_hist_infos[RS_NR_HISTS];

static inline bool rs_hist_known(enum rs_hist h, __u64 attached)
{
	return (rs_hist_infos[h].needs & attached) == rs_hist_infos[h].needs;
}

struct rs_hook_info {
	const char *name;
	bool fentry; /* fentry/fexit */
	bool bpf;    /* a BPF hook (else the memcg's own files or a field) */
	/* a kernel struct member ("struct.member") some kernels lack */
	bool kernel_field;
};
extern const struct rs_hook_info rs_hooks[RS_NR_HOOKS];

/*
 * For a count over the latency budget (*_over_budget), the field that
 * counts every one of its kind (passes_over_budget: passes); else -1.
 */
int rs_field_over_budget_of(enum rs_field f);

/* What a field's kernel count is in the unit it is shown in: 1, or
 * 1 / RS_RATIO_ONE for a ratio's fixed point. */
double rs_field_scale(enum rs_field f);

/* A field is known when every hook it needs is attached. */
static inline bool rs_field_known(enum rs_field f, __u64 attached)
{
	return (rs_fields[f].needs & attached) == rs_fields[f].needs;
}

/*
 * The tool's own counters (enum rs_stat) that views show: one row each,
 * so that the recording's key, the Prometheus metric and the reader agree.
 */
struct rs_global_stat {
	enum rs_stat stat;
	const char *key;  /* JSON key of the summary (and snapshot) */
	const char *prom; /* Prometheus name, without the prefix */
	const char *help;
	bool in_snapshot; /* also per interval, in every snapshot */
};
extern const struct rs_global_stat rs_global_stats[];
extern const size_t rs_nr_global_stats;

const char *rs_reclaimer_name(unsigned int reclaimer);
const char *rs_exit_reason_name(unsigned int reason);
const char *rs_aging_trigger_name(unsigned int trigger);
/* enum rs_tier_counter: the JSON key and Prometheus label value */
const char *rs_tier_counter_name(unsigned int counter);
const char *rs_throttle_reason_name(int reason);
/* enum rs_event_type: the "kind" of a record in a recording */
const char *rs_event_type_name(unsigned int type);
int rs_field_by_key(const char *key); /* -1 if none */
/*
 * The key field f had in recordings before schema 4 (and in JSON and
 * /metrics before them), where it differs; NULL if it has only one.
 */
const char *rs_field_old_key(enum rs_field f);
/* A field by its old key (the alias list); -1 if none. */
int rs_field_by_old_key(const char *key);
/* A flusher wakeup reason (enum wb_reason); buf for unknown ones. */
const char *rs_wb_reason_name(unsigned int reason, char *buf, size_t size);

#endif
