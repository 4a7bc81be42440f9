/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metric catalogue: one row per quantity a person reads (efficiency,
 * over-reclaim, a latency's p99, a workload's throughput ...), saying what
 * it is called, its unit, which way is better, and how it is computed from
 * a memcg's values.  top's columns, report, report --html, report --json
 * and diff render rows of it and name nothing themselves.
 *
 * Rows are evaluated over struct rs_values, which both the live model (one
 * interval, or the run so far: rs_model_values) and a recording
 * (rs_rec_values) provide, so that `top` and `report` compute a row with
 * the same code.  The raw counters behind the rows are the field table
 * (RS_FIELDS in rs_common.h, shared with BPF), which also names their JSON
 * keys and Prometheus metrics; histograms are RS_HISTS, the tool's own
 * counters rs_global_stats (fields.h).  Pure C.
 */
#ifndef RS_CATALOGUE_H
#define RS_CATALOGUE_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include "rs_common.h"
#include "recording.h"
#include "hist.h"
#include "gens.h"

enum rs_better { RS_NEUTRAL, RS_LOWER, RS_HIGHER };

/* Figures only event records give, beside maxima and counts over budget. */
enum rs_event_value {
	RS_EVV_OOM_FILE_MIB, /* file pages in the LRU at an OOM, mean, MiB */
	RS_EVV_OOM_ANON_MIB, /* anon pages ..., MiB */
	RS_EVV_OOM_OLDEST_AGE_MS,   /* the oldest generation's age, mean, ms */
	RS_EVV_OOM_YOUNGEST_AGE_MS, /* the youngest's (since the last aging) */
	RS_NR_EVENT_VALUES
};

/* Values of a memcg read from cgroupfs, apart from its counters. */
enum rs_gauge {
	RS_GAUGE_MEM,	  /* memory.current, bytes: mean over the span */
	RS_GAUGE_MEM_MAX, /* memory.max, bytes; +inf for no limit */
	RS_GAUGE_PSI,	  /* memory.pressure "some avg10", % */
	RS_NR_GAUGES
};

/*
 * What one memcg (or one node of it, or a whole recording) holds over a
 * span of time: what rows are computed from.  NaN or NULL: unknown.
 */
struct rs_values {
	double span;		    /* seconds the values cover */
	double field[RS_NR_FIELDS]; /* in the field's unit; NaN: unknown */
	const struct rs_histogram *hist[RS_NR_HISTS]; /* NULL: unknown */
	double gauge[RS_NR_GAUGES];
	/*
	 * One node's share of a memcg: values the memcg keeps as a whole
	 * (histograms, gauges, memory.stat counters) have no such share.
	 */
	bool node_share;
	/* From event records, where the recording has every one: NaN. */
	double event_max_ms[RS_NR_HISTS];	/* the longest event */
	double event_value[RS_NR_EVENT_VALUES]; /* enum rs_event_value */
	double reclaimed_by[RS_NR_RECLAIMERS];	/* pages, per reclaimer */
	double pass_ms_by[RS_NR_RECLAIMERS];	/* MGLRU pass time, ms */
	const struct rs_tiers *tiers; /* MGLRU's tiers at the end; NULL */
	/* what the generation timelines showed over the span, if has_gens
	 * (none read: no MGLRU, or a recording before schema 5) */
	struct rs_gens_acc gens;
	bool has_gens;
	/* The workloads' outcomes in scope: all for a total, else the
	 * memcg's (path). */
	const struct rs_outcome *outcomes;
	size_t nr_outcomes;
	const char *path;
	bool is_total;
};

/* Every value unknown, no outcomes: what providers start from. */
void rs_values_init(struct rs_values *v, double span);

/* How a row is computed. */
enum rs_row_kind {
	RS_ROW_FIELD,	     /* field a; a time field in ms */
	RS_ROW_PERCENT,	     /* 100 * a / b */
	RS_ROW_MEAN,	     /* a / b */
	RS_ROW_SUM,	     /* a + b */
	RS_ROW_RATE,	     /* a per second of the span */
	RS_ROW_QUANTILE,     /* quantile q of histogram h, in ms */
	RS_ROW_EVENT_MAX,    /* the longest event of histogram h's kind, ms */
	RS_ROW_EVENT_VALUE,  /* event_value[ev] */
	RS_ROW_RECLAIMED_BY, /* pages reclaimed by reclaimer */
	RS_ROW_PASS_TIME_BY, /* ms of MGLRU passes run by reclaimer */
	RS_ROW_YIELD, /* pages reclaimer reclaimed per ms of its passes */
	RS_ROW_GAUGE, /* gauge g; bytes in MiB */
	RS_ROW_TIER_REFAULT, /* the PID controller's refault % of lru_type, tier
			      */
	RS_ROW_OUTCOME,	     /* the workloads' outcome key out, combined */
	RS_ROW_GENS,	     /* figure gf of the generation timelines */
};

/* How a workload's outcome key is combined over the processes in scope. */
enum rs_outcome_combine {
	RS_OUT_COMBINE_SUM,	    /* summed over the workloads */
	RS_OUT_COMBINE_ONE,	    /* of the one workload that has it */
	RS_OUT_COMBINE_TRUE,	    /* processes where it is non-zero */
	RS_OUT_COMBINE_FAILED,	    /* processes exiting non-zero, not OOM */
	RS_OUT_COMBINE_WORKER_MEAN, /* mean over the workers */
	RS_OUT_COMBINE_WORKER_JAIN, /* Jain's index over the workers */
};

struct rs_row {
	const char *key;  /* report, diff, report --json, top --show */
	const char *unit; /* for people: "pages", "%", "ms", ... */
	enum rs_better better;
	const char *section; /* the report's heading; NULL: live only */
	const char *help;
	enum rs_row_kind kind;
	enum rs_field a, b;
	enum rs_hist h;
	double q;
	enum rs_gauge g;
	int lru_type, tier; /* RS_ROW_TIER_REFAULT: 0 anon, 1 file */
	enum rs_event_value ev;
	enum rs_reclaimer reclaimer;
	enum rs_outcome_key out;
	enum rs_outcome_combine combine;
	enum rs_gens_figure gf;
	/*
	 * top: the column's title (NULL: the key, and "/s" when per_second)
	 * and width; per_second: a count or a time, shown per second of the
	 * interval.
	 */
	const char *title;
	int width;
	bool per_second;
	/*
	 * Places in two short lists, 1 the first, 0 not in it: top's
	 * default columns, and the headline table (`diff --headline`, the
	 * lab's report: the workload's outcome first, then what reclaim did
	 * behind it).
	 */
	int top_place, headline_place;
	/*
	 * A counter (RS_ROW_FIELD) whose per-memcg 5-minute rate the rules
	 * file records, as memcg:<its /metrics name less _total>:rate5m.
	 */
	bool rate_rule;
};

/*
 * The rows, those of the report first: rows [0, rs_nr_report_rows) have a
 * section and are in report, report --json, --html and diff; the rest
 * (gauges a recording does not keep) only in top.
 */
extern const struct rs_row rs_rows[];
extern const int rs_nr_rows, rs_nr_report_rows;
int rs_row_by_key(const char *key); /* -1 if none */

/* The short lists rows hold places in (struct rs_row's *_place). */
enum rs_row_list {
	RS_LIST_TOP,	  /* top's default columns */
	RS_LIST_HEADLINE, /* diff --headline: the lab's table */
};
/* The rows of list l in their places' order, at most max; how many. */
int rs_row_list(enum rs_row_list l, int *rows, int max);

enum rs_value_state {
	RS_VALUE_OK,
	RS_VALUE_NONE, /* nothing to show: 0/0, no event, not per node */
	RS_VALUE_NA,   /* the kernel or the recording cannot tell */
};

struct rs_value {
	enum rs_value_state state;
	double v;
};

/* Row i over v. */
struct rs_value rs_row_eval(const struct rs_values *v, int i);
/* The same as a number: NaN unless RS_VALUE_OK. */
double rs_row_number(const struct rs_values *v, int i);
/* A row's unit and help: the row's, else its field's. */
const char *rs_row_unit(int i);
/*
 * Whether row i counts something (pages, events, processes OOM-killed or
 * failed, iterations): such values are compared between groups of runs
 * with the exact permutation test, not a t-test, which assumes a spread
 * that a count seen in three runs often does not show.
 */
bool rs_row_counts(int i);
/*
 * The report's rows grouped by section, the sections in the order they
 * first appear and the rows of each in the table's order: order[j] is the
 * j-th row to show (rs_nr_report_rows of them), so that a heading is
 * printed once.
 */
const int *rs_report_order(void);
const char *rs_row_help(int i);
/* Which way is better: "lower", "higher" or "-". */
const char *rs_row_better_name(int i);
/* top's column title (buf of RS_ROW_TITLE_SIZE) and width. */
#define RS_ROW_TITLE_SIZE 64
const char *rs_row_title(int i, char *buf, size_t size);
int rs_row_width(int i);
/* A row can be shown live: it needs no event records nor outcomes. */
bool rs_row_live(int i);

/* Quantile q of a histogram counted in units of ns_per_unit ns, in ms
 * (rs_hist_quantile); NaN when empty, +infinity past its range. */
double rs_hist_quantile_ms(const struct rs_histogram *h, double q,
			   double ns_per_unit);
/* Jain's index of n values (NaN when n < 1 or all are 0). */
double rs_jain(const double *x, int n);

#endif
