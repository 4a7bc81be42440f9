// SPDX-License-Identifier: GPL-2.0
/* The pass-exit deduction and the budget mirror shared with the BPF side. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/types.h>
#include "rs_common.h"
#include "shrink.h"

static struct rs_pass_facts memcg_pass(void)
{
	/* memcg limit reclaim of 32 pages, budget 200, nothing special */
	struct rs_pass_facts f = {
		.budget = 200,
		.budget_used = 120,
		.nr_reclaimed = 10,
		.nr_to_reclaim = 32,
		.batches = 2,
		.last_delta = 56,
		.budget_known = 1,
	};
	return f;
}

static void exit_budget(void **state)
{
	struct rs_pass_facts f = memcg_pass();

	(void)state;
	f.budget_used = 200;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_BUDGET);
	/* a batch may scan more than asked: still the budget */
	f.budget_used = 260;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_BUDGET);
	/* zero budget: the loop never ran */
	f = memcg_pass();
	f.budget = 0;
	f.budget_used = 0;
	f.batches = 0;
	f.last_delta = 0;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_BUDGET);
}

static void exit_no_progress(void **state)
{
	struct rs_pass_facts f = memcg_pass();

	(void)state;
	f.last_delta = 0;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_NO_PROGRESS);
	/* even with the budget gone: delta == 0 is tested first */
	f.budget_used = 500;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_NO_PROGRESS);
}

static void exit_target(void **state)
{
	struct rs_pass_facts f = memcg_pass();

	(void)state;
	/* memcg reclaim stops at its target too (v7.2 should_abort_scan) */
	f.nr_reclaimed = 32;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_TARGET);
	/* the target wins over a simultaneously exhausted budget */
	f.budget_used = 200;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_TARGET);
	/* high order: at least min(2 << order, 32) pages */
	f = memcg_pass();
	f.nr_to_reclaim = 1;
	f.order = 3;
	f.nr_reclaimed = 15;
	assert_int_not_equal(rs_classify_exit(&f), RS_EXIT_TARGET);
	f.nr_reclaimed = 16;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_TARGET);
	f.order = 9; /* capped at 32 */
	f.nr_reclaimed = 32;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_TARGET);
	/* kswapd stopping early for no visible reason: watermarks met */
	f = memcg_pass();
	f.root_reclaim = 1;
	f.kswapd = 1;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_TARGET);
}

static void exit_below_min(void **state)
{
	struct rs_pass_facts f = memcg_pass();

	(void)state;
	/* before the first batch */
	f.batches = 0;
	f.budget_used = 0;
	f.last_delta = 0;
	f.need_rotate = 1;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_BELOW_MIN);
	/* in the middle of the loop */
	f = memcg_pass();
	f.need_rotate = 1;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_BELOW_MIN);
	/* after a successful aging in memcg reclaim: only below_min ends it */
	f.aged = f.aging_ok = 1;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_BELOW_MIN);
}

static void exit_after_aging(void **state)
{
	struct rs_pass_facts f = memcg_pass();

	(void)state;
	f.root_reclaim = 1;
	f.aged = 1;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_AFTER_AGING);
	/* memcg reclaim goes on after aging */
	f.root_reclaim = 0;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_UNKNOWN);
}

static void exit_unknown(void **state)
{
	struct rs_pass_facts f = memcg_pass();

	(void)state;
	/* proactive reclaim interrupted by a signal looks like this */
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_UNKNOWN);
	/* a pre-series kernel: no budget seen */
	f.budget_known = 0;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_UNKNOWN);
	f.last_delta = 0;
	assert_int_equal(rs_classify_exit(&f), RS_EXIT_NO_PROGRESS);
}

static void budget_mirror(void **state)
{
	struct rs_budget_inputs in = {
		.evictable = 10000,
		.priority = 2,
		.online = 1,
	};

	(void)state;
	assert_int_equal(rs_mglru_budget(&in), 2500);
	in.priority = 12;
	assert_int_equal(rs_mglru_budget(&in), 2);
	/* an offline memcg is scraped whole, whatever the priority */
	in.online = 0;
	assert_int_equal(rs_mglru_budget(&in), 10000);
	/* memory.min protects proportionally: 10000 - 10000*4000/8001 */
	in = (struct rs_budget_inputs){
		.evictable = 10000, .emin = 4000, .usage = 8000, .online = 1};
	assert_int_equal(rs_mglru_budget(&in), 10000 - 10000ULL * 4000 / 8001);
	/* memory.low counts unless this is a low reclaim */
	in = (struct rs_budget_inputs){
		.evictable = 10000, .elow = 6000, .usage = 8000, .online = 1};
	assert_int_equal(rs_mglru_budget(&in), 10000 - 10000ULL * 6000 / 8001);
	in.memcg_low_reclaim = 1; /* then only emin (0) protects */
	assert_int_equal(rs_mglru_budget(&in), 10000);
	/* never below SWAP_CLUSTER_MAX when protected; usage >= protection */
	in = (struct rs_budget_inputs){
		.evictable = 100, .emin = 9000, .usage = 10, .online = 1};
	assert_int_equal(rs_mglru_budget(&in), 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_budget),
		cmocka_unit_test(exit_no_progress),
		cmocka_unit_test(exit_target),
		cmocka_unit_test(exit_below_min),
		cmocka_unit_test(exit_after_aging),
		cmocka_unit_test(exit_unknown),
		cmocka_unit_test(budget_mirror),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
