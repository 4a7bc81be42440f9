/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics over repeated runs, for comparing groups of recordings: the
 * mean with a 95% confidence interval (Student's t) and Welch's two-sided
 * t-test of two means.  Pure C.
 */
#ifndef RS_STATS_H
#define RS_STATS_H

struct rs_sample {
	int n;
	double mean;
	double sd;   /* sample standard deviation; NaN with n < 2 */
	double ci95; /* half-width of the mean's 95% interval; NaN, n < 2 */
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
 * has fewer than two values.  Two samples without spread: 1 when their
 * means are equal, else 0.
 */
double rs_welch_p(const struct rs_sample *a, const struct rs_sample *b);

#endif
