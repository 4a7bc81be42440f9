// SPDX-License-Identifier: GPL-2.0
/* Stalls per task (src/model/stalls.c): deltas from the kernel's cumulative
 * counts, entries removed and made again, the fold of tasks gone past the
 * bound (sums exact, memory bounded), and a memcg forgotten. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "stalls.h"

static struct rs_task_key key(__u64 cgid, __u32 tid, __u32 kind)
{
	return (struct rs_task_key){
		.cgroup_id = cgid, .tid = tid, .kind = kind};
}

static struct rs_task_stall val(__u64 count, __u64 total, __u64 max,
				const char *comm)
{
	/* each stall of max or longer over the budget: max is "long" */
	struct rs_task_stall v = {.count = count,
				  .total_ns = total,
				  .max_ns = max,
				  .over_budget = max >= 400 ? count / 2 : 0,
				  .tgid = 7};

	strncpy(v.comm, comm, sizeof(v.comm));
	return v;
}

static const struct rs_stall *find(const struct rs_stalls *s, __u64 cgid,
				   __u32 tid, __u32 kind)
{
	for (size_t i = 0; i < rs_stalls_nr(s); i++) {
		const struct rs_stall *e = rs_stalls_get(s, i);

		if (e->cgroup_id == cgid && e->tid == tid && e->kind == kind)
			return e;
	}
	return NULL;
}

static void deltas(void **state)
{
	struct rs_stalls *s = rs_stalls_new();
	struct rs_task_key k = key(10, 100, RS_STALL_MEMCG);
	struct rs_task_stall v = val(3, 300, 200, "stall-a");
	const struct rs_stall *e;

	(void)state;
	rs_stalls_begin(s);
	assert_int_equal(rs_stalls_add(s, &k, &v, false), 0);
	rs_stalls_end(s);
	e = find(s, 10, 100, RS_STALL_MEMCG);
	assert_non_null(e);
	assert_int_equal(e->count, 3);
	assert_int_equal(e->i_count, 3);
	assert_string_equal(e->comm, "stall-a");
	/* the next read: 2 more; an unmoved read says so (1) */
	rs_stalls_begin(s);
	v = val(5, 700, 400, "stall-a");
	assert_int_equal(rs_stalls_add(s, &k, &v, false), 0);
	rs_stalls_end(s);
	e = find(s, 10, 100, RS_STALL_MEMCG);
	assert_int_equal(e->count, 5);
	assert_int_equal(e->i_count, 2);
	assert_int_equal(e->i_total_ns, 400);
	assert_int_equal(e->max_ns, 400);
	/* over the budget, as the kernel counts: 2 in all, 2 of them now */
	assert_int_equal(e->over_budget, 2);
	assert_int_equal(e->i_over_budget, 2);
	rs_stalls_begin(s);
	assert_int_equal(rs_stalls_add(s, &k, &v, true), 1); /* removed */
	rs_stalls_end(s);
	e = find(s, 10, 100, RS_STALL_MEMCG);
	assert_true(e->gone);
	assert_int_equal(e->i_count, 0);
	/* not gone after all: the kernel's new entry counts from 0 */
	rs_stalls_begin(s);
	v = val(1, 50, 50, "stall-a");
	assert_int_equal(rs_stalls_add(s, &k, &v, false), 0);
	rs_stalls_end(s);
	e = find(s, 10, 100, RS_STALL_MEMCG);
	assert_int_equal(e->count, 6);
	assert_int_equal(e->over_budget, 2); /* the new entry's 0 added */
	assert_int_equal(e->i_over_budget, 0);
	assert_int_equal(e->total_ns, 750);
	assert_false(e->gone);
	/* the same task throttled too: still one task of memcg 10 */
	{
		struct rs_task_key t = key(10, 100, RS_STALL_THROTTLE);
		__u64 *cgids, *tasks;

		v = val(1, 1000, 1000, "stall-a");
		rs_stalls_begin(s);
		assert_int_equal(rs_stalls_add(s, &t, &v, false), 0);
		rs_stalls_end(s);
		assert_int_equal(rs_stalls_memcg_tasks(s, &cgids, &tasks), 1);
		assert_int_equal(tasks[0], 1);
		free(cgids);
		free(tasks);
	}
	rs_stalls_free(s);
}

/* 10 x the bound of short-lived tasks: sums exact, entries bounded */
static void fold(void **state)
{
	struct rs_stalls *s = rs_stalls_new();
	__u64 want_count = 0, want_total = 0, want_over = 0, count = 0,
	      total = 0, over = 0;
	const struct rs_stall *e;

	(void)state;
	for (__u32 tid = 1; tid <= 10 * RS_STALLS_KEEP; tid++) {
		struct rs_task_key k =
			key(tid % 2 ? 10 : 20, tid, RS_STALL_DIRECT);
		struct rs_task_stall v = val(2, tid, tid, "short");

		rs_stalls_begin(s);
		assert_int_equal(rs_stalls_add(s, &k, &v, false), 0);
		assert_int_equal(rs_stalls_add(s, &k, &v, true), 1);
		rs_stalls_end(s);
		want_count += 2;
		want_total += tid;
		want_over += v.over_budget;
		assert_true(rs_stalls_nr(s) <= RS_STALLS_KEEP + 2);
	}
	for (size_t i = 0; i < rs_stalls_nr(s); i++) {
		count += rs_stalls_get(s, i)->count;
		total += rs_stalls_get(s, i)->total_ns;
		over += rs_stalls_get(s, i)->over_budget;
	}
	assert_int_equal(count, want_count);
	assert_true(want_over > 0);
	assert_int_equal(over, want_over);
	assert_int_equal(total, want_total);
	assert_true(rs_stalls_folded(s) > 0);
	assert_int_equal(rs_stalls_lost(s), 0);
	e = find(s, 10, 0, RS_STALL_DIRECT);
	assert_non_null(e);
	assert_string_equal(e->comm, RS_STALLS_EXITED_COMM);
	{
		__u64 max = 0; /* the longest of memcg 10's, folded or not */

		for (size_t i = 0; i < rs_stalls_nr(s); i++)
			if (rs_stalls_get(s, i)->cgroup_id == 10 &&
			    rs_stalls_get(s, i)->max_ns > max)
				max = rs_stalls_get(s, i)->max_ns;
		assert_int_equal(max, 10 * RS_STALLS_KEEP - 1);
	}
	{
		__u64 *cgids, *tasks; /* every task once, folded or not */
		size_t n = rs_stalls_memcg_tasks(s, &cgids, &tasks);

		assert_int_equal(n, 2);
		assert_int_equal(cgids[0], 10);
		assert_int_equal(tasks[0], 5 * RS_STALLS_KEEP);
		assert_int_equal(cgids[1], 20);
		assert_int_equal(tasks[1], 5 * RS_STALLS_KEEP);
		free(cgids);
		free(tasks);
	}
	/* a memcg forgotten: its entries with it */
	rs_stalls_forget(s, 10);
	for (size_t i = 0; i < rs_stalls_nr(s); i++)
		assert_int_equal(rs_stalls_get(s, i)->cgroup_id, 20);
	assert_non_null(find(s, 20, 0, RS_STALL_DIRECT));
	rs_stalls_free(s);
}

static void kinds(void **state)
{
	(void)state;
	for (int k = 0; k < RS_NR_STALL_KINDS; k++)
		assert_int_equal(rs_stall_kind_of(rs_stall_kind_name(k)), k);
	assert_null(rs_stall_kind_name(RS_NR_STALL_KINDS));
	assert_int_equal(rs_stall_kind_of("kswapd"), -1);
	assert_int_equal(rs_stall_kind_of(NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deltas),
		cmocka_unit_test(fold),
		cmocka_unit_test(kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
