// SPDX-License-Identifier: GPL-2.0
/* Sparse log-linear latency histograms (hist.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

#define BLOCK_BYTES (RS_HIST_SUBS * sizeof(__u64))

/* Where octave o's block sits among those present. */
static unsigned int block_index(const struct rs_histogram *h,
				unsigned int octave)
{
	return (unsigned int)__builtin_popcountll(h->octaves &
						  ((1ULL << octave) - 1));
}

const __u64 *rs_hist_block(const struct rs_histogram *h, unsigned int octave)
{
	if (octave >= RS_HIST_OCTAVES || !(h->octaves & (1ULL << octave)))
		return NULL;
	return h->counts + (size_t)block_index(h, octave) * RS_HIST_SUBS;
}

__u64 *rs_hist_block_get(struct rs_histogram *h, unsigned int octave)
{
	unsigned int nr = (unsigned int)__builtin_popcountll(h->octaves), at;
	__u64 *counts;

	if (octave >= RS_HIST_OCTAVES)
		return NULL;
	at = block_index(h, octave);
	if (h->octaves & (1ULL << octave))
		return h->counts + (size_t)at * RS_HIST_SUBS;
	counts = realloc(h->counts, (nr + 1) * BLOCK_BYTES);
	if (!counts)
		return NULL;
	memmove(counts + (size_t)(at + 1) * RS_HIST_SUBS,
		counts + (size_t)at * RS_HIST_SUBS, (nr - at) * BLOCK_BYTES);
	memset(counts + (size_t)at * RS_HIST_SUBS, 0, BLOCK_BYTES);
	h->counts = counts;
	h->octaves |= 1ULL << octave;
	return counts + (size_t)at * RS_HIST_SUBS;
}

__u64 rs_hist_count(const struct rs_histogram *h, unsigned int bucket)
{
	const __u64 *block = rs_hist_block(h, bucket / RS_HIST_SUBS);

	return block ? block[bucket % RS_HIST_SUBS] : 0;
}

int rs_hist_add(struct rs_histogram *h, unsigned int bucket, __u64 n)
{
	__u64 *block;

	if (!n)
		return 0;
	block = rs_hist_block_get(h, bucket / RS_HIST_SUBS);
	if (!block)
		return -1;
	if (__builtin_add_overflow(block[bucket % RS_HIST_SUBS], n,
				   &block[bucket % RS_HIST_SUBS]))
		return 1;
	return 0;
}

int rs_hist_merge(struct rs_histogram *into, const struct rs_histogram *from)
{
	int ret = 0;

	into->log2 |= from->log2;
	for (unsigned int b = rs_hist_next(from, 0); b < RS_HIST_BUCKETS;
	     b = rs_hist_next(from, b + 1)) {
		int err = rs_hist_add(into, b, rs_hist_count(from, b));

		if (err < 0)
			return err;
		ret |= err;
	}
	return ret;
}

void rs_hist_zero(struct rs_histogram *h)
{
	if (h->counts)
		memset(h->counts, 0,
		       (size_t)__builtin_popcountll(h->octaves) * BLOCK_BYTES);
}

void rs_hist_free(struct rs_histogram *h)
{
	free(h->counts);
	memset(h, 0, sizeof(*h));
}

unsigned int rs_hist_next(const struct rs_histogram *h, unsigned int from)
{
	for (unsigned int b = from; b < RS_HIST_BUCKETS; b++) {
		const __u64 *block = rs_hist_block(h, b / RS_HIST_SUBS);

		if (!block) { /* to the next octave */
			b |= RS_HIST_SUBS - 1;
			continue;
		}
		if (block[b % RS_HIST_SUBS])
			return b;
	}
	return RS_HIST_BUCKETS;
}

bool rs_hist_empty(const struct rs_histogram *h)
{
	return rs_hist_next(h, 0) == RS_HIST_BUCKETS;
}

double rs_hist_total(const struct rs_histogram *h)
{
	double sum = 0;
	size_t n = (size_t)__builtin_popcountll(h->octaves) * RS_HIST_SUBS;

	for (size_t i = 0; i < n; i++)
		sum += (double)h->counts[i];
	return sum;
}

void rs_hist_log2(const struct rs_histogram *h, __u64 out[RS_HIST_LOG2_BUCKETS])
{
	memset(out, 0, RS_HIST_LOG2_BUCKETS * sizeof(*out));
	for (unsigned int b = rs_hist_next(h, 0); b < RS_HIST_BUCKETS;
	     b = rs_hist_next(h, b + 1)) {
		/* the power of two at or above the bucket's upper bound:
		 * every power of two is a bucket's bound, so it holds all
		 * of the bucket */
		__u64 hi = rs_hist_bucket_hi(b);
		unsigned int k = rs_log2_floor(hi);
		__u64 *slot;

		if (hi & (hi - 1))
			k++;
		slot = &out[k < RS_HIST_LOG2_BUCKETS
				    ? k
				    : RS_HIST_LOG2_BUCKETS - 1];
		if (__builtin_add_overflow(*slot, rs_hist_count(h, b), slot))
			*slot = ~0ULL;
	}
}

int rs_hist_fold_log2(struct rs_histogram *h)
{
	struct rs_histogram folded = {.log2 = true};
	__u64 log2[RS_HIST_LOG2_BUCKETS];

	if (h->log2)
		return 0;
	rs_hist_log2(h, log2);
	/* each power of two's count in the bucket that ends at it */
	for (int k = 0; k < RS_HIST_LOG2_BUCKETS; k++)
		if (rs_hist_add(&folded, rs_hist_bucket(1ULL << k), log2[k]) <
		    0) {
			rs_hist_free(&folded);
			return -1;
		}
	rs_hist_free(h);
	*h = folded;
	return 0;
}

double rs_hist_quantile(const struct rs_histogram *h, double q)
{
	/* counted in doubles: buckets summed in a __u64 can wrap (each
	 * bucket may hold up to 2^64 - 1), and a wrapped count gives a
	 * wrong quantile rather than none */
	double count = rs_hist_total(h), seen = 0, rank;
	unsigned int last = RS_HIST_BUCKETS;

	if (!count)
		return -1;
	/* the smallest bucket with at least q * count values at or below
	 * its upper bound, and where in it the rank falls */
	rank = q * count;
	for (unsigned int b = rs_hist_next(h, 0); b < RS_HIST_BUCKETS;
	     b = rs_hist_next(h, b + 1)) {
		double n = (double)rs_hist_count(h, b), hi, lo, frac;

		last = b;
		if (seen + n < rank) {
			seen += n;
			continue;
		}
		/* the last bucket also holds every value past its bound
		 * (rs_hist_bucket): the rank lies past the range */
		if (b == RS_HIST_BUCKETS - 1)
			return INFINITY;
		hi = (double)rs_hist_bucket_hi(b);
		if (h->log2)
			return hi;
		lo = b ? (double)rs_hist_bucket_hi(b - 1) : 0;
		/* past 2^53 the doubles round: never outside the bucket */
		frac = (rank - seen) / n;
		return lo + (hi - lo) * (frac < 0 ? 0 : frac > 1 ? 1 : frac);
	}
	return (double)rs_hist_bucket_hi(last);
}
