/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a recording says, as numbers: its memcgs as the catalogue's values
 * (catalogue.h), the whole recording as one memcg, and fairness.  Pure C.
 */
#ifndef RS_ANALYSIS_H
#define RS_ANALYSIS_H

#include "catalogue.h"
#include "recording.h"

/*
 * A recording's memcg as the catalogue's values: its summary's fields and
 * histograms, what its event records show (when the recording has every
 * one) and the outcomes of the workloads run in it.  v points into r and m.
 */
void rs_rec_values(const struct rs_recording *r, const struct rs_rec_memcg *m,
		   struct rs_values *v);
/* Catalogue row i for memcg m of recording r; NaN when unknown. */
double rs_rec_row_value(const struct rs_recording *r,
			const struct rs_rec_memcg *m, int i);

/*
 * The whole recording as one memcg: fields and histograms summed over the
 * summary's memcgs (or all, for a recording cut short).  Free with
 * rs_rec_memcg_release().
 */
void rs_recording_total(const struct rs_recording *r, struct rs_rec_memcg *t);

/*
 * A recording before schema 3 has log2 histograms, whose percentiles are a
 * bucket's power of two: compared with another's they must be measured
 * alike.  rs_rec_memcg_fold_log2 folds a memcg's histograms into powers
 * of two (log2); 0, or -1 without memory.
 */
static inline bool rs_recording_log2(const struct rs_recording *r)
{
	return r->schema < 3;
}
int rs_rec_memcg_fold_log2(struct rs_rec_memcg *m);
int rs_recording_fold_log2(struct rs_recording *r);

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
#endif
