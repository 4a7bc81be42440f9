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
	rs_sample_of(x, 1, &s);
	assert_int_equal(s.n, 1);
	assert_true(isnan(s.ci95) && isnan(s.sd));
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
	/* no spread on either side: equal means or not */
	rs_sample_of(c, 3, &sc);
	rs_sample_of(d, 3, &sd);
	near(rs_welch_p(&sc, &sc), 1, 0);
	near(rs_welch_p(&sc, &sd), 0, 0);
	/* one run on a side: untested */
	rs_sample_of(c, 1, &sd);
	assert_true(isnan(rs_welch_p(&sc, &sd)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_table),
		cmocka_unit_test(samples),
		cmocka_unit_test(welch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
