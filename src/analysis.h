/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a recording says, as numbers: the metrics `report` prints, `report
 * --html` tabulates and `diff` compares, one table for all three.  Pure C.
 */
#ifndef RS_ANALYSIS_H
#define RS_ANALYSIS_H

#include "recording.h"

enum rs_better { RS_NEUTRAL, RS_LOWER, RS_HIGHER };

struct rs_metric {
	const char *name; /* also the key of diff --json */
	const char *unit; /* for people: "pages", "%", "ms", ... */
	enum rs_better better;
	const char *section; /* report heading it belongs to */
	bool from_outcome;   /* the workload's own figure (outcome records) */
};

extern const struct rs_metric rs_metrics[];
extern const int rs_nr_metrics;

/* The value of metric i for a memcg of recording r; NaN when unknown. */
double rs_metric_value(const struct rs_recording *r,
		       const struct rs_rec_memcg *m, int i);

/*
 * The whole recording as one memcg: fields and histograms summed over the
 * summary's memcgs (or all, for a recording cut short).  Free with
 * rs_rec_memcg_release().
 */
void rs_recording_total(const struct rs_recording *r, struct rs_rec_memcg *t);
void rs_rec_memcg_release(struct rs_rec_memcg *m);

/* The memcgs a report lists: in the summary (all, if there is none). */
bool rs_rec_memcg_listed(const struct rs_recording *r,
			 const struct rs_rec_memcg *m);

/*
 * Jain's fairness index of reclaim relative to memory held, over the leaf
 * memcgs with a known mean memory.current:
 *   x_i = pages reclaimed from memcg i / its mean size in pages,
 *   J = (sum x_i)^2 / (n * sum x_i^2),
 * 1 when every memcg gave up the same share of what it held, 1/n when one
 * memcg bore all the reclaim.  NaN with fewer than two such memcgs.
 * *n gets the number of memcgs it was computed over.
 */
double rs_fairness(const struct rs_recording *r, int *n);
/* Jain's index of n values (NaN when n < 1 or all are 0). */
double rs_jain(const double *x, int n);

/* Quantile q of a histogram as its bucket's upper bound in ms; NaN. */
double rs_hist_quantile_ms(const __u64 buckets[RS_HIST_BUCKETS], double q);

#endif
