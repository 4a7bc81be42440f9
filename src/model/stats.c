// SPDX-License-Identifier: GPL-2.0
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
	/* runs equal but for rounding (a mean of gaps summed in another
	 * order: 6 and 6.000000000000001 ms) have no spread, not one of
	 * 8e-15 that a reader of the table cannot tell from a real one */
	if (s->n && s->max - s->min > 1e-12 * fmax(fabs(s->max), fabs(s->min)))
		for (int i = 0; i < n; i++)
			if (!isnan(x[i]))
				sq += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = s->n >= 2 ? sqrt(sq / (s->n - 1)) : NAN;
	s->ci95 = s->n >= 2 ? rs_t_critical(0.05, s->n - 1) * s->sd / sqrt(s->n)
			    : NAN;
	s->cv = s->n >= 2 && s->mean != 0 ? s->sd / fabs(s->mean) : NAN;
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

/*
 * Welch's standard error of the difference of means and its degrees of
 * freedom (Welch-Satterthwaite); false with fewer than two values a side.
 * *se is 0 (and *df NaN) when neither side has any spread.
 */
static bool welch_se(const struct rs_sample *a, const struct rs_sample *b,
		     double *se, double *df)
{
	double va, vb, se2;

	if (a->n < 2 || b->n < 2)
		return false;
	va = a->sd * a->sd / a->n;
	vb = b->sd * b->sd / b->n;
	se2 = va + vb;
	*se = sqrt(se2);
	*df = se2 == 0 ? NAN
		       : se2 * se2 /
				 (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return true;
}

double rs_welch_p(const struct rs_sample *a, const struct rs_sample *b)
{
	double se, df;

	if (!welch_se(a, b, &se, &df) || se == 0)
		return NAN;
	return rs_t_two_sided_p((b->mean - a->mean) / se, df);
}

/* C(n, k) as a double (exact while it fits 53 bits, which is all we use) */
static double choose(int n, int k)
{
	double c = 1;

	if (k < 0 || k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (int i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return round(c);
}

double rs_perm_p_min(int na, int nb)
{
	if (na < 1 || nb < 1)
		return NAN;
	return (na == nb ? 2 : 1) / choose(na + nb, na);
}

/*
 * The pooled values, a's first, NaN left out, and centred on their mean:
 * the test depends on differences only, and sums of centred values keep
 * their precision (a count of 10^13 plus 0..9 summed as is loses its
 * last digits, and a tolerance from it decides ties wrongly).
 */
struct pooled {
	double *v;
	int na, nb;
	double total; /* of the centred values: about 0 */
	double scale; /* the largest centred value's size */
};

static void centre(struct pooled *p)
{
	int n = p->na + p->nb;
	double mean = 0;

	for (int i = 0; i < n; i++)
		mean += p->v[i] / n;
	p->total = p->scale = 0;
	for (int i = 0; i < n; i++) {
		p->v[i] -= mean;
		p->total += p->v[i];
		p->scale = fmax(p->scale, fabs(p->v[i]));
	}
}

static int pool(const double *a, int na, const double *b, int nb,
		struct pooled *p)
{
	p->v = malloc(sizeof(double) * (size_t)(na + nb + 1));
	p->na = p->nb = 0;
	if (!p->v)
		return -1;
	for (int i = 0; i < na; i++)
		if (!isnan(a[i]))
			p->v[p->na++] = a[i];
	for (int i = 0; i < nb; i++)
		if (!isnan(b[i]))
			p->v[p->na + p->nb++] = b[i];
	centre(p);
	return 0;
}

/* b's mean minus a's when b's values sum to sb */
static double diff_of(const struct pooled *p, double sb)
{
	return sb / p->nb - (p->total - sb) / p->na;
}

/*
 * The next nb-subset of [0, n) in lexicographic order, *sb (the sum of its
 * values) kept up to date by what changed; false after the last.
 */
static bool next_split(const struct pooled *p, int *idx, double *sb)
{
	int nb = p->nb, n = p->na + p->nb, i = nb - 1;

	if (nb < 1 || nb > n)
		return false;
	while (i >= 0 && idx[i] == n - nb + i)
		i--;
	if (i < 0)
		return false;
	for (int j = i; j < nb; j++)
		*sb -= p->v[idx[j]];
	idx[i]++;
	for (int j = i + 1; j < nb; j++)
		idx[j] = idx[j - 1] + 1;
	for (int j = i; j < nb; j++)
		*sb += p->v[idx[j]];
	return true;
}

/* splitmix64: a fixed seed, so that a resampled p is the same each run */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* *resampled: the p was estimated from random splits, not counted */
static double pooled_perm_p(const struct pooled *p, bool *resampled)
{
	int n = p->na + p->nb, *idx;
	double observed, splits = choose(n, p->nb), hits = 0, tol, sb = 0;

	*resampled = false;
	if (p->na < 1 || p->nb < 1)
		return NAN;
	for (int i = p->na; i < n; i++)
		sb += p->v[i];
	observed = fabs(diff_of(p, sb));
	/* a split whose difference equals the observed one up to rounding
	 * counts as at least as large: sums of n values of size scale are
	 * off by some n ulps of it */
	tol = 1e-12 * observed + 8.0 * n * DBL_EPSILON * p->scale;
	if (observed <= tol)
		return 1; /* every split is at least as far apart */
	idx = calloc((size_t)n, sizeof(int));
	if (!idx)
		return NAN;
	if (splits <= RS_PERM_EXACT_SPLITS) {
		sb = 0;
		for (int i = 0; i < p->nb; i++) {
			idx[i] = i;
			sb += p->v[i];
		}
		do
			hits += fabs(diff_of(p, sb)) >= observed - tol;
		while (next_split(p, idx, &sb));
		free(idx);
		return hits / splits;
	}
	*resampled = true;
	for (int i = 0; i < n; i++)
		idx[i] = i;
	{
		uint64_t state = 0x5eed;

		for (int r = 0; r < RS_PERM_RESAMPLES; r++) {
			/* a random nb-subset: the first nb of a partial
			 * Fisher-Yates shuffle (i < nb < n: n - i >= 1) */
			sb = 0;
			for (int i = 0; i < p->nb && i < n - 1; i++) {
				int j = i + (int)(next_random(&state) %
						  (uint64_t)(n - i));
				int t = idx[i];

				idx[i] = idx[j];
				idx[j] = t;
				sb += p->v[idx[i]];
			}
			hits += fabs(diff_of(p, sb)) >= observed - tol;
		}
	}
	free(idx);
	return (1 + hits) / (1 + RS_PERM_RESAMPLES);
}

double rs_perm_p(const double *a, int na, const double *b, int nb)
{
	struct pooled p;
	double pv;
	bool resampled;

	if (pool(a, na, b, nb, &p))
		return NAN;
	pv = pooled_perm_p(&p, &resampled);
	free(p.v);
	return pv;
}

/* Bisections of the detectable change enumerate every split some 60 times:
 * beyond this many splits the t distribution's figure stands in. */
#define RS_PERM_BISECT_SPLITS 20000

/* p with b centred on a's mean and moved by shift (q: room for it) */
static double shifted_p(const struct pooled *p, struct pooled *q, double ma,
			double mb, double shift)
{
	bool resampled;

	for (int i = 0; i < p->na; i++)
		q->v[i] = p->v[i];
	for (int i = p->na; i < p->na + p->nb; i++)
		q->v[i] = p->v[i] - mb + ma + shift;
	centre(q);
	return pooled_perm_p(q, &resampled);
}

/*
 * The smallest shift d of b, centred on a's mean, that the permutation
 * test calls significant at alpha: the search's upper end is doubled
 * until p there is below alpha (groups that no longer overlap are not
 * enough: with unequal sizes a mirrored split can be as extreme), and NaN
 * when no shift is.  0: any shift (neither group has a spread).
 */
static double perm_detectable(const struct pooled *p, double alpha)
{
	struct pooled q = *p;
	double ma = 0, mb = 0, lo = 0, hi, d, lo_a = INFINITY, hi_a = -INFINITY,
	       lo_b = INFINITY, hi_b = -INFINITY;

	if (p->na < 1 || p->nb < 1)
		return NAN;
	q.v = calloc((size_t)p->na + (size_t)p->nb, sizeof(double));
	if (!q.v)
		return NAN;
	for (int i = 0; i < p->na; i++) {
		ma += p->v[i] / p->na;
		lo_a = fmin(lo_a, p->v[i]);
		hi_a = fmax(hi_a, p->v[i]);
	}
	for (int i = p->na; i < p->na + p->nb; i++) {
		mb += p->v[i] / p->nb;
		lo_b = fmin(lo_b, p->v[i]);
		hi_b = fmax(hi_b, p->v[i]);
	}
	/* past both spreads the groups no longer overlap: a start */
	hi = (hi_a - lo_a) + (hi_b - lo_b);
	if (hi == 0) { /* no spread: one shift tells for all */
		d = shifted_p(p, &q, ma, mb, 1) < alpha ? 0 : NAN;
		free(q.v);
		return d;
	}
	for (int it = 0; it < 64 && shifted_p(p, &q, ma, mb, hi) >= alpha; it++)
		hi *= 2;
	if (shifted_p(p, &q, ma, mb, hi) >= alpha) {
		free(q.v);
		return NAN;
	}
	for (int it = 0; it < 60 && hi - lo > 1e-9 * hi; it++) {
		double mid = (lo + hi) / 2;

		if (shifted_p(p, &q, ma, mb, mid) < alpha)
			hi = mid;
		else
			lo = mid;
	}
	free(q.v);
	return hi;
}

/*
 * What Welch's test needs to call a difference significant: t_crit * se;
 * and into *mde what it calls so in RS_MDE_POWER of repeats, the one-sided
 * t quantile of the power added (two-sided 2 (1 - power)).
 */
static double welch_detectable(const struct rs_sample *a,
			       const struct rs_sample *b, double alpha,
			       double *mde)
{
	double se, df, t;

	*mde = NAN;
	if (!welch_se(a, b, &se, &df))
		return NAN;
	if (se == 0)
		return *mde = 0;
	t = rs_t_critical(alpha, df);
	*mde = (t + rs_t_critical(2 * (1 - RS_MDE_POWER), df)) * se;
	return t * se;
}

void rs_compare(const double *a, int na, const double *b, int nb, bool counts,
		double alpha, struct rs_comparison *c)
{
	struct rs_sample sa, sb;
	struct pooled p;

	c->test = RS_TEST_NONE;
	c->resampled = false;
	c->p = c->p_min = c->detectable = c->mde = NAN;
	rs_sample_of(a, na, &sa);
	rs_sample_of(b, nb, &sb);
	if (!sa.n || !sb.n)
		return;
	if (!counts) {
		double welch = rs_welch_p(&sa, &sb);

		if (!isnan(welch)) {
			c->test = RS_TEST_WELCH;
			c->p = welch;
			c->p_min = 0;
			c->detectable =
				welch_detectable(&sa, &sb, alpha, &c->mde);
			return;
		}
	}
	if (pool(a, na, b, nb, &p))
		return;
	c->test = RS_TEST_PERMUTATION;
	c->p = pooled_perm_p(&p, &c->resampled);
	c->p_min = rs_perm_p_min(p.na, p.nb);
	if (c->resampled) /* no p below one in as many resamples */
		c->p_min = fmax(c->p_min, 1.0 / (1 + RS_PERM_RESAMPLES));
	if (c->p_min >= alpha)
		c->detectable = NAN;
	else if (choose(p.na + p.nb, p.nb) <= RS_PERM_BISECT_SPLITS)
		c->detectable = perm_detectable(&p, alpha);
	else
		c->detectable = welch_detectable(&sa, &sb, alpha, &c->mde);
	c->mde = c->detectable; /* the permutation test's: B's own shift */
	free(p.v);
}
