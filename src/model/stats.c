// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include "stats.h"

void rs_sample_of(const double *x, int n, struct rs_sample *s)
{
	double sum = 0, sq = 0;

	s->n = 0;
	s->min = INFINITY;
	s->max = -INFINITY;
	for (int i = 0; i < n; i++) {
		if (isnan(x[i]))
			continue;
		s->n++;
		sum += x[i];
		s->min = fmin(s->min, x[i]);
		s->max = fmax(s->max, x[i]);
	}
	s->mean = s->n ? sum / s->n : NAN;
	for (int i = 0; i < n; i++)
		if (!isnan(x[i]))
			sq += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = s->n >= 2 ? sqrt(sq / (s->n - 1)) : NAN;
	s->ci95 = s->n >= 2 ? rs_t_critical(0.05, s->n - 1) * s->sd / sqrt(s->n)
			    : NAN;
	if (!s->n)
		s->min = s->max = NAN;
}

/*
 * The continued fraction of the regularized incomplete beta function,
 * evaluated by the modified Lentz method; converges fast for
 * x < (a + 1) / (a + b + 2), which the caller arranges.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		double odd = -(a + m) * (a + b + m) * x /
			     ((a + 2 * m) * (a + 2 * m + 1));
		double step;

		d = 1 + even * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + even / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		d = 1 + odd * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + odd / c;
		if (fabs(c) < tiny)
			c = tiny;
		step = d * c;
		h *= step;
		if (fabs(step - 1) < eps)
			break;
	}
	return h;
}

/* I_x(a, b), the regularized incomplete beta function */
static double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double rs_t_two_sided_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double rs_t_critical(double p, double df)
{
	double lo = 0, hi = 1e6;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	/* the tail probability falls as t grows: bisect */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (rs_t_two_sided_p(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double rs_welch_p(const struct rs_sample *a, const struct rs_sample *b)
{
	double va, vb, se2, df;

	if (a->n < 2 || b->n < 2)
		return NAN;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	se2 = va + vb;
	if (se2 == 0)
		return a->mean == b->mean ? 1 : 0;
	df = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return rs_t_two_sided_p((b->mean - a->mean) / sqrt(se2), df);
}
