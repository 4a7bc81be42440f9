// SPDX-License-Identifier: GPL-2.0
/* Statistics over repeated runs against published values: Student's t
 * tables and a Welch test worked by hand. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "stats.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void t_table(void **state)
{
	(void)state;
	/* two-sided 5 %: the rows of every t table */
	near(rs_t_critical(0.05, 1), 12.7062, 1e-4);
	near(rs_t_critical(0.05, 2), 4.3027, 1e-4);
	near(rs_t_critical(0.05, 4), 2.7764, 1e-4);
	near(rs_t_critical(0.05, 30), 2.0423, 1e-4);
	near(rs_t_critical(0.01, 10), 3.1693, 1e-4);
	near(rs_t_two_sided_p(0, 5), 1, 1e-12);
	near(rs_t_two_sided_p(2.5706, 5), 0.05, 1e-4);
	/* df 1 is the Cauchy distribution: p = 1 - 2 atan(t) / pi */
	near(rs_t_two_sided_p(3, 1), 1 - 2 * atan(3) / M_PI, 1e-10);
}

static void samples(void **state)
{
	const double x[] = {1, 2, 3, NAN, 4, 5};
	struct rs_sample s;

	(void)state;
	rs_sample_of(x, 6, &s);
	assert_int_equal(s.n, 5);
	near(s.mean, 3, 1e-12);
	near(s.sd, sqrt(2.5), 1e-12);
	near(s.ci95, 2.7764 * sqrt(2.5) / sqrt(5), 1e-3);
	near(s.min, 1, 0);
	near(s.max, 5, 0);
	near(s.cv, sqrt(2.5) / 3, 1e-12);
	rs_sample_of(x, 1, &s);
	assert_int_equal(s.n, 1);
	assert_true(isnan(s.ci95) && isnan(s.sd) && isnan(s.cv));
	{
		/* a mean of 0 has no coefficient of variation; a negative
		 * mean's is of its size */
		const double z[] = {-1, 1}, neg[] = {-2, -4};

		rs_sample_of(z, 2, &s);
		assert_true(isnan(s.cv));
		rs_sample_of(neg, 2, &s);
		near(s.cv, sqrt(2) / 3, 1e-12);
	}
	{
		/* runs equal but for rounding: no spread (the lab's table
		 * printed 6 ± 7.98e-15, cv 1.5e-14 %) */
		const double r[] = {6.000000000000001, 5.999999999999999, 6};

		rs_sample_of(r, 3, &s);
		assert_true(s.sd == 0 && s.ci95 == 0 && s.cv == 0);
	}
}

static void welch(void **state)
{
	const double a[] = {19.8, 20.4, 19.6, 17.8, 18.5,
			    18.9, 18.3, 18.9, 19.5, 22.0};
	const double b[] = {28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7,
			    27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0,
			    23.9, 21.6, 24.3, 20.4, 23.9, 13.3};
	const double c[] = {5, 5, 5}, d[] = {6, 6, 6};
	struct rs_sample sa, sb, sc, sd;
	double p;

	(void)state;
	rs_sample_of(a, 10, &sa);
	rs_sample_of(b, 20, &sb);
	/* by hand: t = 2.2192, df = 24.9889 (Welch-Satterthwaite) */
	p = rs_welch_p(&sa, &sb);
	near(p, 2 * 0.017894, 5e-4);
	near(rs_welch_p(&sb, &sa), p, 1e-12);
	/* no spread on either side: t is undefined, and so is p (it was 0,
	 * a verdict three runs of a count cannot carry) */
	rs_sample_of(c, 3, &sc);
	rs_sample_of(d, 3, &sd);
	assert_true(isnan(rs_welch_p(&sc, &sc)));
	assert_true(isnan(rs_welch_p(&sc, &sd)));
	/* one run on a side: no Welch test (the permutation test judges) */
	rs_sample_of(c, 1, &sd);
	assert_true(isnan(rs_welch_p(&sc, &sd)));
}

/* The permutation test against splits counted by hand and Fisher's exact
 * test (R's fisher.test on the same 2x2 tables). */
static void permutation(void **state)
{
	const double none[] = {0, 0, 0}, one[] = {1, 1, 1};
	const double all5[] = {1, 1, 1, 1, 1}, none5[] = {0, 0, 0, 0, 0};
	const double three_of_5[] = {1, 1, 1, 0, 0};
	const double lo[] = {1, 2, 3, 4}, hi[] = {5, 6, 7};
	const double x[] = {10, 12, NAN, 11}, y[] = {13, 15, 14};

	(void)state;
	/* 0,0,0 against 1,1,1: of the C(6,3) = 20 splits, the observed and
	 * its mirror are as extreme: 0.1, never below */
	near(rs_perm_p(none, 3, one, 3), 0.1, 1e-12);
	near(rs_perm_p_min(3, 3), 0.1, 1e-12);
	near(rs_perm_p(none, 2, one, 2), 2.0 / 6, 1e-12);
	/* 5 of 5 against 0 of 5: Fisher 2/252 */
	near(rs_perm_p(all5, 5, none5, 5), 2.0 / 252, 1e-12);
	/* 3 of 5 against 0 of 5: Fisher's two-sided p = 0.1667 (42/252) */
	near(rs_perm_p(three_of_5, 5, none5, 5), 42.0 / 252, 1e-12);
	/* equal groups: every split as extreme */
	near(rs_perm_p(one, 3, one, 3), 1, 0);
	/* 1..4 against 5..7: d = 3.5, and the mirror split {1,2,3} gives
	 * -3.5: 2 of C(7,3) = 35 */
	near(rs_perm_p(lo, 4, hi, 3), 2.0 / 35, 1e-12);
	near(rs_perm_p_min(4, 3), 1.0 / 35, 1e-12);
	/* NaN left out: {10,12,11} against {13,15,14}: 2 of 20 */
	near(rs_perm_p(x, 4, y, 3), 0.1, 1e-12);
	assert_true(isnan(rs_perm_p(x, 0, y, 3)));
}

/* Large groups are resampled with a fixed seed: the same p each time, and
 * near the exact one. */
static void permutation_resampled(void **state)
{
	double a[14], b[14], p1, p2;

	(void)state;
	for (int i = 0; i < 14; i++) {
		a[i] = i;
		b[i] = i + 4;
	}
	/* C(28,14) = 40,116,600 splits: resampled */
	p1 = rs_perm_p(a, 14, b, 14);
	p2 = rs_perm_p(a, 14, b, 14);
	near(p1, p2, 0);
	/* t-test on the same data: p = 0.0177; the permutation p is close */
	assert_true(p1 > 0.005 && p1 < 0.04);
}

static void comparison(void **state)
{
	const double none[] = {0, 0, 0}, one[] = {1, 1, 1};
	const double none5[] = {0, 0, 0, 0, 0}, one5[] = {1, 1, 1, 1, 1};
	const double a[] = {10, 12, 11}, b[] = {20, 21, 22};
	struct rs_comparison c;

	(void)state;
	/* an OOM kill in 3 of 3 runs against 0 of 3: no verdict possible */
	rs_compare(none, 3, one, 3, true, 0.05, &c);
	assert_int_equal(c.test, RS_TEST_PERMUTATION);
	near(c.p, 0.1, 1e-12);
	near(c.p_min, 0.1, 1e-12);
	assert_true(isnan(c.detectable));
	/* 5 against 5: significant, and any change was detectable */
	rs_compare(none5, 5, one5, 5, true, 0.05, &c);
	near(c.p, 2.0 / 252, 1e-12);
	near(c.detectable, 0, 0);
	/* not counts, but no spread at all: Welch cannot judge, the
	 * permutation test does */
	rs_compare(none, 3, one, 3, false, 0.05, &c);
	assert_int_equal(c.test, RS_TEST_PERMUTATION);
	/* with spread: Welch, and the change it could have seen is
	 * t(0.05, df) * se: sd 1 on both sides, se = sqrt(2/3), df 4 */
	rs_compare(a, 3, b, 3, false, 0.05, &c);
	assert_int_equal(c.test, RS_TEST_WELCH);
	near(c.detectable, 2.7764 * sqrt(2.0 / 3), 1e-3);
	/* the minimum detectable effect at power 0.8 adds the one-sided
	 * 80% quantile of t with 4 df (0.9410): a change that large is
	 * called significant in 4 repeats of 5 */
	near(c.mde, (2.7764 + 0.9410) * sqrt(2.0 / 3), 1e-3);
	/* counts with spread, 5 a side: the detectable shift is where the
	 * permutation p falls under 0.05; at that shift it does, just
	 * below it it does not */
	{
		const double x[] = {3, 5, 4, 6, 2}, y[] = {13, 15, 14, 16, 12};
		double shifted[5];

		rs_compare(x, 5, y, 5, true, 0.05, &c);
		assert_true(c.detectable > 0 && c.detectable < 10);
		/* the permutation test's: the shift of B's own runs */
		near(c.mde, c.detectable, 0);
		for (int i = 0; i < 5; i++)
			shifted[i] = x[i] + c.detectable * 1.001;
		assert_true(rs_perm_p(x, 5, shifted, 5) < 0.05);
		for (int i = 0; i < 5; i++)
			shifted[i] = x[i] + c.detectable * 0.95;
		assert_true(rs_perm_p(x, 5, shifted, 5) >= 0.05);
	}
	/* 3 against 4 (the mirrored split as extreme once they part):
	 * p = 0.057 for a change of 10.5, so what could be seen is larger
	 * than that (about 18), never smaller than a change not called
	 * significant */
	{
		const double x[] = {100, 100, 100}, y[] = {103, 113, 113, 113};

		rs_compare(x, 3, y, 4, true, 0.05, &c);
		assert_true(c.p >= 0.05);
		assert_true(c.detectable > 10.5);
		assert_true(c.detectable > 17 && c.detectable < 19);
	}
	/* a shift of every value changes nothing: 10^13 + 0..4 against
	 * 10^13 + 5..9 is 2 of 252, as 0..4 against 5..9 is */
	{
		double x[5], y[5];

		for (int i = 0; i < 5; i++) {
			x[i] = 1e13 + i;
			y[i] = 1e13 + 5 + i;
		}
		near(rs_perm_p(x, 5, y, 5), 2.0 / 252, 1e-12);
	}
	/* 8 against 13: C(21,8) = 203,490 splits, resampled and said so;
	 * its smallest p is one in as many resamples */
	{
		double x[8], y[13];

		for (int i = 0; i < 8; i++)
			x[i] = i;
		for (int i = 0; i < 13; i++)
			y[i] = i + 2;
		rs_compare(x, 8, y, 13, true, 0.05, &c);
		assert_true(c.resampled);
		assert_true(c.p_min >= 1.0 / (1 + RS_PERM_RESAMPLES));
	}
	/* no value on a side: no test */
	rs_compare(none, 0, one, 3, true, 0.05, &c);
	assert_int_equal(c.test, RS_TEST_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_table),
		cmocka_unit_test(samples),
		cmocka_unit_test(welch),
		cmocka_unit_test(permutation),
		cmocka_unit_test(permutation_resampled),
		cmocka_unit_test(comparison),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
