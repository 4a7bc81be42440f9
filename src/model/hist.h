/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A latency histogram in log-linear buckets (include/rs_common.h), kept
 * sparse by octave as the kernel keeps it: a memcg's latencies span a few
 * of the 34 octaves, and 544 counters for each memcg and kind would be
 * most of a daemon's or a report's memory.
 */
#ifndef RS_HIST_H
#define RS_HIST_H

#include <stdbool.h>
#include <linux/types.h>

#include "rs_common.h"

struct rs_histogram {
	__u64 octaves; /* bit o: counts holds octave o's RS_HIST_SUBS */
	__u64 *counts; /* one block per octave present, ascending */
	/*
	 * Counted in log2 buckets (a recording before schema 3): each count
	 * sits in the last bucket of its power of two, and a quantile is that
	 * power of two, not a value interpolated inside it.
	 */
	bool log2;
};

/* Octave o's RS_HIST_SUBS counts, NULL while it has none. */
const __u64 *rs_hist_block(const struct rs_histogram *h, unsigned int octave);
/* The same, made (zeroed) when missing; NULL without memory. */
__u64 *rs_hist_block_get(struct rs_histogram *h, unsigned int octave);

__u64 rs_hist_count(const struct rs_histogram *h, unsigned int bucket);
/* Adds n to a bucket: 0, -1 without memory, 1 past what a __u64 holds
 * (the bucket is then left as it was). */
int rs_hist_add(struct rs_histogram *h, unsigned int bucket, __u64 n);
/* Adds every bucket of from (0, -1, 1 as rs_hist_add; a log2 side makes
 * the sum log2). */
int rs_hist_merge(struct rs_histogram *into, const struct rs_histogram *from);
/* Every count to 0, the blocks kept. */
void rs_hist_zero(struct rs_histogram *h);
void rs_hist_free(struct rs_histogram *h);
bool rs_hist_empty(const struct rs_histogram *h);
/* All counts as a double (a __u64 sum could wrap). */
double rs_hist_total(const struct rs_histogram *h);
/* The first bucket >= from with a count; RS_HIST_BUCKETS when none. */
unsigned int rs_hist_next(const struct rs_histogram *h, unsigned int from);
/* Folded into the powers of two 2^0..2^37 ns (bucket b holds
 * (2^(b-1), 2^b]), for /metrics' `le` bounds; saturating. */
void rs_hist_log2(const struct rs_histogram *h,
		  __u64 out[RS_HIST_LOG2_BUCKETS]);

/* The same histogram counted in log2 buckets (log2 set): 0, or -1 without
 * memory (h kept as it was). */
int rs_hist_fold_log2(struct rs_histogram *h);

/*
 * Quantile q (0..1) in ns: the bucket that holds the value of rank
 * ceil(q * count), interpolated linearly inside it (a log2 histogram: the
 * bucket's upper bound); -1 when empty; +infinity when that is the last
 * bucket, which also holds every value past it (where is unknown).
 */
double rs_hist_quantile(const struct rs_histogram *h, double q);

#endif
