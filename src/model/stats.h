/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics over repeated runs, for comparing groups of recordings: the
 * mean with a 95% confidence interval (Student's t), Welch's two-sided
 * t-test of two means, and the exact permutation test of two means that
 * counts and yes/no outcomes need (a t-test assumes a spread that three
 * runs of an OOM kill cannot show).  Pure C.
 */
#ifndef RS_STATS_H
#define RS_STATS_H

#include <stdbool.h>

struct rs_sample {
	int n;
	double mean;
	double sd;   /* sample standard deviation; NaN with n < 2 */
	double ci95; /* half-width of the mean's 95% interval; NaN, n < 2 */
	/* run-to-run coefficient of variation, sd / |mean|; NaN with n < 2
	 * or a mean of 0 */
	double cv;
	double min, max;
};

/* The sample of x[0..n), NaN values left out (n counts the rest). */
void rs_sample_of(const double *x, int n, struct rs_sample *s);

/* Two-sided tail probability of Student's t with df degrees of freedom. */
double rs_t_two_sided_p(double t, double df);

/* The t with two-sided tail probability p (0 < p < 1), df degrees. */
double rs_t_critical(double p, double df);

/*
 * Welch's two-sided t-test: the probability of a difference of means at
 * least this large if both samples came from one mean.  NaN when either
 * has fewer than two values, or neither has any spread (the t statistic
 * is then undefined, and no p follows from it: use the permutation test).
 */
double rs_welch_p(const struct rs_sample *a, const struct rs_sample *b);

/*
 * The two-sided permutation test of a difference of means (Fisher-Pitman):
 * of all ways to split the pooled values into groups of a's and b's sizes,
 * the share whose difference of means is at least the observed one.  It
 * assumes nothing of the values' distribution, so it fits counts and
 * yes/no outcomes (on 0/1 values it is Fisher's exact test).  Exact by
 * enumeration up to RS_PERM_EXACT_SPLITS splits, else estimated from
 * RS_PERM_RESAMPLES random splits of a fixed seed ((1 + hits) / (1 +
 * resamples), so the same input gives the same p).  NaN values are left
 * out; NaN when a side has no value.
 */
#define RS_PERM_EXACT_SPLITS 200000
#define RS_PERM_RESAMPLES 20000
double rs_perm_p(const double *a, int na, const double *b, int nb);

/*
 * The smallest p the permutation test can give groups of na and nb values,
 * whatever they are: 2 / C(na + nb, na) for equal sizes (the split and its
 * mirror), 1 / C(na + nb, na) otherwise; for 3 runs against 3, 0.1.
 */
double rs_perm_p_min(int na, int nb);

/* Which test judged a comparison. */
enum rs_test {
	RS_TEST_NONE,	     /* a side without values */
	RS_TEST_WELCH,	     /* Welch's t-test */
	RS_TEST_PERMUTATION, /* the exact (or resampled) permutation test */
};

struct rs_comparison {
	enum rs_test test;
	double p;	/* NaN with RS_TEST_NONE */
	bool resampled; /* the permutation p estimated from random splits */
	double p_min;	/* the smallest p the test could give these sizes */
	/*
	 * The smallest difference of means the test would have called
	 * significant at alpha, had b been a's mean plus it with b's own
	 * spread: what effect the runs could have seen.  0: any change;
	 * NaN: none (p_min >= alpha, too few runs), or no test.
	 */
	double detectable;
	/*
	 * The minimum detectable effect at power RS_MDE_POWER: the difference
	 * of means the test would call significant at alpha in that share of
	 * repeats with these sizes and spreads.  Welch: (t(alpha/2) +
	 * t(1 - power)) * se.  The permutation test: detectable (the shift of
	 * B's own runs it calls significant).  0 and NaN as detectable.
	 */
	double mde;
};

#define RS_MDE_POWER 0.8

/*
 * Compare b against a at the two-sided level alpha.  counts: the values
 * are counts or yes/no outcomes, judged by the permutation test; other
 * values by Welch's t-test, or by the permutation test where Welch's
 * cannot judge (fewer than two values on a side, or no spread at all).
 */
void rs_compare(const double *a, int na, const double *b, int nb, bool counts,
		double alpha, struct rs_comparison *c);

#endif
