// SPDX-License-Identifier: GPL-2.0
/* The model: attribution, aggregation across nodes and reclaimers,
 * intervals against totals, memcg death, paths. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>
#include "json_view.h"
#include "model.h"
#include "analysis.h"
#include "recording.h"
#include "catalogue.h"

static const __u64 all_hooks = (1ULL << RS_NR_HOOKS) - 1;

static void add(struct rs_model *m, __u64 cg, __u16 node, __u8 rec,
		__u64 scanned, __u64 reclaimed)
{
	struct rs_agg_key key = {
		.cgroup_id = cg, .node = node, .reclaimer = rec};
	__u64 v[RS_NR_FIELDS] = {0};

	v[RS_F_SCANNED] = scanned;
	v[RS_F_RECLAIMED] = reclaimed;
	assert_int_equal(rs_model_add(m, &key, v), 0);
}

static __u64 total_of(const struct rs_memcg *mc, enum rs_field f)
{
	return rs_memcg_value(mc, f, false);
}

static __u64 interval_of(const struct rs_memcg *mc, enum rs_field f)
{
	return rs_memcg_value(mc, f, true);
}

static void attribution(void **state)
{
	struct rs_task_state st = {0};
	__u64 cg;
	__u16 node;

	(void)state;
	/* nothing known: unattributed, on the fallback node */
	rs_attribute(&st, &cg, &node, 3);
	assert_int_equal(cg, RS_CGROUP_NONE);
	assert_int_equal(node, 3);
	/* memcg reclaim target */
	st.in_memcg = 1;
	st.target_cgid = 50;
	rs_attribute(&st, &cg, &node, 1);
	assert_int_equal(cg, 50);
	/* a classic lruvec pass is more precise than the target */
	st.in_classic = 1;
	st.classic.cgid = 60;
	st.classic.node = 2;
	rs_attribute(&st, &cg, &node, 1);
	assert_int_equal(cg, 60);
	assert_int_equal(node, 2);
	/* an MGLRU pass (nested in shrink_lruvec for memcg reclaim) wins */
	st.in_pass = 1;
	st.pass.cgid = 70;
	st.pass.node = 0;
	rs_attribute(&st, &cg, &node, 1);
	assert_int_equal(cg, 70);
	assert_int_equal(node, 0);
	/* after the passes and the invocation: the last memcg scanned */
	st.in_pass = st.in_classic = st.in_memcg = 0;
	st.last_cgid = 70;
	st.last_node = 0;
	rs_attribute(&st, &cg, &node, 1);
	assert_int_equal(cg, 70);
	assert_int_equal(node, 0);
}

static void aggregates_nodes_and_reclaimers(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	const struct rs_memcg *mc;

	(void)state;
	rs_model_begin(m);
	add(m, 100, 0, RS_RECLAIMER_KSWAPD, 10, 5);
	add(m, 100, 1, RS_RECLAIMER_KSWAPD, 20, 7);
	add(m, 100, 1, RS_RECLAIMER_MEMCG, 30, 11);
	add(m, 7, 0, RS_RECLAIMER_DIRECT, 1, 1);
	rs_model_end(m, 1.0);
	assert_int_equal(rs_model_nr_memcgs(m), 2);
	/* ordered by id */
	assert_int_equal(rs_model_memcg(m, 0)->id, 7);
	mc = rs_model_find(m, 100);
	assert_non_null(mc);
	assert_int_equal(total_of(mc, RS_F_SCANNED), 60);
	assert_int_equal(total_of(mc, RS_F_RECLAIMED), 23);
	assert_int_equal(mc->nr_cells, 3);
	assert_null(rs_model_find(m, 5));
	rs_model_free(m);
}

static void interval_and_total(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	const struct rs_memcg *mc;

	(void)state;
	rs_model_begin(m);
	add(m, 100, 0, RS_RECLAIMER_MEMCG, 10, 4);
	rs_model_end(m, 1.0);
	mc = rs_model_find(m, 100);
	assert_int_equal(interval_of(mc, RS_F_SCANNED), 10);

	/* cumulative 25: this interval 15, total 25 */
	rs_model_begin(m);
	add(m, 100, 0, RS_RECLAIMER_MEMCG, 25, 4);
	rs_model_end(m, 2.0);
	mc = rs_model_find(m, 100);
	assert_int_equal(interval_of(mc, RS_F_SCANNED), 15);
	assert_int_equal(interval_of(mc, RS_F_RECLAIMED), 0);
	assert_int_equal(total_of(mc, RS_F_SCANNED), 25);

	/* a snapshot without the cell: totals stay, the interval is zero */
	rs_model_begin(m);
	add(m, 200, 0, RS_RECLAIMER_MEMCG, 1, 1);
	rs_model_end(m, 3.0);
	mc = rs_model_find(m, 100);
	assert_int_equal(total_of(mc, RS_F_SCANNED), 25);
	assert_int_equal(interval_of(mc, RS_F_SCANNED), 0);
	assert_true(rs_model_time(m) == 3.0);
	rs_model_free(m);
}

static void memcg_death_keeps_path(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	__u64 ids[4];
	char buf[64];
	const struct rs_memcg *mc;

	(void)state;
	rs_model_begin(m);
	add(m, 100, 0, RS_RECLAIMER_MEMCG, 10, 4);
	add(m, RS_CGROUP_NONE, 0, RS_RECLAIMER_KSWAPD, 3, 3);
	rs_model_end(m, 1.0);
	/* id 0 is never asked for */
	assert_int_equal(rs_model_unresolved(m, ids, 4), 1);
	assert_int_equal(ids[0], 100);
	mc = rs_model_find(m, 100);
	assert_string_equal(rs_memcg_display_path(mc, buf, sizeof(buf)),
			    "(unknown:100)");
	assert_string_equal(
		rs_memcg_display_path(rs_model_find(m, 0), buf, sizeof(buf)),
		"(unattributed)");
	assert_int_equal(rs_model_set_path(m, 100, "/tenants/a"), 0);
	/* at once: the summary after the last snapshot needs it */
	assert_string_equal(rs_model_find(m, 100)->path, "/tenants/a");
	assert_int_equal(rs_model_unresolved(m, ids, 4), 0);
	rs_model_begin(m);
	add(m, 100, 0, RS_RECLAIMER_MEMCG, 12, 4);
	rs_model_end(m, 2.0);
	mc = rs_model_find(m, 100);
	assert_string_equal(mc->path, "/tenants/a");
	assert_false(mc->gone);

	/* the memcg goes away: path and totals stay, marked gone */
	rs_model_mark_gone(m, 100);
	rs_model_begin(m);
	rs_model_end(m, 3.0);
	mc = rs_model_find(m, 100);
	assert_true(mc->gone);
	assert_string_equal(mc->path, "/tenants/a");
	assert_int_equal(total_of(mc, RS_F_SCANNED), 12);
	/* and is not resolved again and again */
	assert_int_equal(rs_model_unresolved(m, ids, 4), 0);
	rs_model_free(m);
}

/* A count read lower than before (a loss a copy made up for later) is the
 * total as read, never a negative interval. */
static void stats_never_go_back(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	__u64 stats[RS_NR_STATS] = {0};

	(void)state;
	stats[RS_STAT_PROG_MISSES] = 52;
	rs_model_set_stats(m, stats);
	assert_int_equal(rs_model_stat_interval(m, RS_STAT_PROG_MISSES), 52);
	stats[RS_STAT_PROG_MISSES] = 32;
	rs_model_set_stats(m, stats);
	assert_int_equal(rs_model_stat(m, RS_STAT_PROG_MISSES), 32);
	assert_int_equal(rs_model_stat_interval(m, RS_STAT_PROG_MISSES), 0);
	stats[RS_STAT_PROG_MISSES] = 60;
	rs_model_set_stats(m, stats);
	assert_int_equal(rs_model_stat(m, RS_STAT_PROG_MISSES), 60);
	assert_int_equal(rs_model_stat_interval(m, RS_STAT_PROG_MISSES), 8);
	rs_model_free(m);
}

static void stats_interval(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	__u64 stats[RS_NR_STATS] = {0};

	(void)state;
	stats[RS_STAT_RING_DROPS] = 5;
	rs_model_set_stats(m, stats);
	stats[RS_STAT_RING_DROPS] = 8;
	rs_model_set_stats(m, stats);
	assert_int_equal(rs_model_stat(m, RS_STAT_RING_DROPS), 8);
	assert_int_equal(rs_model_stat_interval(m, RS_STAT_RING_DROPS), 3);
	rs_model_free(m);
}

static void own_counters(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	const struct rs_memcg *mc;

	(void)state;
	/* 100 existed at the start with 40 refaults; 200 was created later */
	rs_model_cg_baseline(m, 100, RS_F_REFAULTS_FILE, 40);
	rs_model_begin(m);
	add(m, 100, 0, RS_RECLAIMER_MEMCG, 10, 4);
	add(m, 200, 0, RS_RECLAIMER_MEMCG, 10, 4);
	rs_model_end(m, 1.0);
	rs_model_cg_sample(m, 100, RS_F_REFAULTS_FILE, 55);
	rs_model_cg_sample(m, 200, RS_F_REFAULTS_FILE, 7);
	rs_model_cg_sample(m, 200, RS_F_OOM_KILLS, 1);
	rs_model_cg_apply(m);
	mc = rs_model_find(m, 100);
	assert_int_equal(total_of(mc, RS_F_REFAULTS_FILE), 15);
	assert_int_equal(interval_of(mc, RS_F_REFAULTS_FILE), 15);
	mc = rs_model_find(m, 200);
	assert_int_equal(total_of(mc, RS_F_REFAULTS_FILE), 7);
	assert_int_equal(total_of(mc, RS_F_OOM_KILLS), 1);
	/* the next snapshot keeps the totals; the interval is per sample */
	rs_model_begin(m);
	rs_model_end(m, 2.0);
	rs_model_cg_sample(m, 100, RS_F_REFAULTS_FILE, 60);
	rs_model_cg_apply(m);
	mc = rs_model_find(m, 100);
	assert_int_equal(total_of(mc, RS_F_REFAULTS_FILE), 20);
	assert_int_equal(interval_of(mc, RS_F_REFAULTS_FILE), 5);
	assert_int_equal(total_of(mc, RS_F_SCANNED), 10);
	rs_model_free(m);
}

/*
 * An own counter whose file could not be read (EACCES) is unknown, not 0:
 * null in the JSON, until a read succeeds; for good when the baseline could
 * not be read (what came before the run is not known).
 */
static void own_counters_unreadable(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	const struct rs_memcg *mc;
	json_t *sum, *e;
	size_t i;

	(void)state;
	rs_model_cg_baseline(m, 100, RS_F_REFAULTS_FILE, 40);
	rs_model_cg_unreadable(m, 200, RS_F_REFAULTS_FILE, true);
	rs_model_begin(m);
	add(m, 100, 0, RS_RECLAIMER_MEMCG, 10, 4);
	add(m, 200, 0, RS_RECLAIMER_MEMCG, 10, 4);
	rs_model_end(m, 1.0);
	rs_model_cg_unreadable(m, 100, RS_F_REFAULTS_FILE, false);
	rs_model_cg_sample(m, 200, RS_F_REFAULTS_FILE, 7);
	rs_model_cg_apply(m);
	mc = rs_model_find(m, 100);
	assert_false(rs_memcg_field_known(m, mc, RS_F_REFAULTS_FILE));
	assert_true(rs_memcg_field_known(m, mc, RS_F_REFAULTS_ANON));
	assert_true(rs_memcg_field_known(m, mc, RS_F_SCANNED));
	/* a later read of 200 does not make up for its baseline */
	assert_false(rs_memcg_field_known(m, rs_model_find(m, 200),
					  RS_F_REFAULTS_FILE));
	sum = rs_json_summary(m, 1.0, NULL);
	json_array_foreach (json_object_get(sum, "memcgs"), i, e) {
		assert_true(json_is_null(json_object_get(e, "refaults_file")));
		assert_true(json_is_integer(json_object_get(e, "scanned")));
	}
	json_decref(sum);
	/* readable again: the cumulative counter is exact again */
	rs_model_begin(m);
	rs_model_end(m, 2.0);
	rs_model_cg_sample(m, 100, RS_F_REFAULTS_FILE, 60);
	rs_model_cg_apply(m);
	mc = rs_model_find(m, 100);
	assert_true(rs_memcg_field_known(m, mc, RS_F_REFAULTS_FILE));
	assert_int_equal(total_of(mc, RS_F_REFAULTS_FILE), 20);
	rs_model_free(m);
}

/* A memcg with cells on more nodes than a small fixed array would hold:
 * the summary lists every node (the JSON view once kept 64). */
static void many_nodes(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	json_t *sum, *nodes;

	(void)state;
	rs_model_begin(m);
	for (int node = 0; node < 70; node++)
		add(m, 100, (__u16)node, RS_RECLAIMER_KSWAPD, 1, 1);
	rs_model_end(m, 1.0);
	sum = rs_json_summary(m, 1.0, NULL);
	nodes = json_object_get(
		json_array_get(json_object_get(sum, "memcgs"), 0), "nodes");
	assert_int_equal(json_array_size(nodes), 70);
	assert_int_equal(json_integer_value(json_object_get(
				 json_array_get(nodes, 69), "scanned")),
			 1);
	json_decref(sum);
	rs_model_free(m);
}

/*
 * The memcgs find their path entries in one walk (next_path): entries that
 * exist, entries made on the way (an active memcg without one), and memcgs
 * with none, interleaved.  Each must keep its own path, activity and
 * counters.
 */
static void path_entries_in_one_walk(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	const __u64 ids[] = {10, 20, 30, 40, 50};
	const struct rs_memcg *mc;
	__u64 unresolved[8];

	(void)state;
	/* entries for 20 and 40 only, before any snapshot */
	assert_int_equal(rs_model_set_path(m, 20, "/b"), 0);
	assert_int_equal(rs_model_set_path(m, 40, "/d"), 0);
	rs_model_cg_baseline(m, 40, RS_F_REFAULTS_FILE, 100);
	rs_model_begin(m);
	for (size_t i = 0; i < 5; i++)
		add(m, ids[i], 0, RS_RECLAIMER_MEMCG, 10 * (i + 1), i + 1);
	rs_model_end(m, 1.0);
	/* only the middle one is active in the second */
	rs_model_begin(m);
	for (size_t i = 0; i < 5; i++)
		add(m, ids[i], 0, RS_RECLAIMER_MEMCG,
		    10 * (i + 1) + (ids[i] == 30), i + 1);
	rs_model_end(m, 2.0);
	rs_model_cg_sample(m, 40, RS_F_REFAULTS_FILE, 103);
	rs_model_cg_apply(m);
	for (size_t i = 0; i < 5; i++) {
		mc = rs_model_find(m, ids[i]);
		assert_non_null(mc);
		assert_int_equal(total_of(mc, RS_F_SCANNED),
				 10 * (i + 1) + (ids[i] == 30));
		assert_true(mc->last_active == (ids[i] == 30 ? 2.0 : 1.0));
	}
	assert_string_equal(rs_model_find(m, 20)->path, "/b");
	assert_string_equal(rs_model_find(m, 40)->path, "/d");
	assert_null(rs_model_find(m, 30)->path);
	assert_int_equal(total_of(rs_model_find(m, 40), RS_F_REFAULTS_FILE), 3);
	assert_int_equal(total_of(rs_model_find(m, 50), RS_F_REFAULTS_FILE), 0);
	/* the resolver's to-do list: the three without a path, in order */
	assert_int_equal(rs_model_unresolved(m, unresolved, 8), 3);
	assert_int_equal(unresolved[0], 10);
	assert_int_equal(unresolved[1], 30);
	assert_int_equal(unresolved[2], 50);
	rs_model_free(m);
}

/*
 * A memcg with one cell reads the cell's arrays, one with more a sum of its
 * own: both across snapshots that insert cells before and between them, and
 * the memcg's own counters never show in its cell.
 */
static void sums_of_one_and_many_cells(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	const struct rs_memcg *mc;
	const struct rs_cell *cells;
	__u64 v[RS_NR_FIELDS];
	size_t nr;

	(void)state;
	rs_model_begin(m);
	add(m, 10, 0, RS_RECLAIMER_MEMCG, 1, 1);
	add(m, 20, 0, RS_RECLAIMER_KSWAPD, 2, 1);
	add(m, 20, 1, RS_RECLAIMER_KSWAPD, 3, 1);
	add(m, 30, 0, RS_RECLAIMER_DIRECT, 4, 1);
	add(m, 30, 0, RS_RECLAIMER_MEMCG, 5, 1);
	add(m, 30, 1, RS_RECLAIMER_DIRECT, 6, 1);
	rs_model_end(m, 1.0);
	rs_model_cg_sample(m, 10, RS_F_REFAULTS_ANON, 9);
	rs_model_cg_apply(m);
	assert_int_equal(total_of(rs_model_find(m, 10), RS_F_SCANNED), 1);
	assert_int_equal(total_of(rs_model_find(m, 20), RS_F_SCANNED), 5);
	assert_int_equal(total_of(rs_model_find(m, 30), RS_F_SCANNED), 15);
	assert_int_equal(total_of(rs_model_find(m, 30), RS_F_RECLAIMED), 3);
	mc = rs_model_find(m, 10);
	assert_int_equal(total_of(mc, RS_F_REFAULTS_ANON), 9);
	assert_int_equal(interval_of(mc, RS_F_REFAULTS_ANON), 9);
	cells = rs_model_cells(m, &nr);
	assert_int_equal(nr, 6);
	assert_int_equal(cells[0].key.cgroup_id, 10);
	assert_int_equal(cells[0].total[RS_F_REFAULTS_ANON], 0);

	/* new cells before, inside and after the others; 10 gets a second */
	rs_model_begin(m);
	add(m, 5, 0, RS_RECLAIMER_MEMCG, 100, 0);
	add(m, 10, 0, RS_RECLAIMER_MEMCG, 11, 1);
	add(m, 10, 1, RS_RECLAIMER_KSWAPD, 20, 0);
	add(m, 20, 0, RS_RECLAIMER_KSWAPD, 2, 1);
	add(m, 25, 0, RS_RECLAIMER_MEMCG, 7, 7);
	add(m, 30, 1, RS_RECLAIMER_DIRECT, 16, 1);
	add(m, 40, 0, RS_RECLAIMER_MEMCG, 8, 8);
	rs_model_end(m, 2.0);
	assert_int_equal(rs_model_nr_memcgs(m), 6);
	mc = rs_model_find(m, 10);
	assert_int_equal(mc->nr_cells, 2);
	assert_int_equal(total_of(mc, RS_F_SCANNED), 31);
	assert_int_equal(interval_of(mc, RS_F_SCANNED), 30);
	/* the own counters stay until the next sample */
	assert_int_equal(total_of(mc, RS_F_REFAULTS_ANON), 9);
	mc = rs_model_find(m, 20);
	assert_int_equal(total_of(mc, RS_F_SCANNED), 5);
	assert_int_equal(interval_of(mc, RS_F_SCANNED), 0);
	mc = rs_model_find(m, 30);
	assert_int_equal(total_of(mc, RS_F_SCANNED), 25);
	assert_int_equal(interval_of(mc, RS_F_SCANNED), 10);
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		mc = rs_model_memcg(m, i);
		rs_memcg_values(mc, false, v);
		for (int f = 0; f < RS_NR_FIELDS; f++)
			assert_int_equal(v[f], total_of(mc, f));
		rs_memcg_values(mc, true, v);
		for (int f = 0; f < RS_NR_FIELDS; f++)
			assert_int_equal(v[f], interval_of(mc, f));
	}
	assert_int_equal(total_of(rs_model_find(m, 5), RS_F_SCANNED), 100);
	assert_int_equal(total_of(rs_model_find(m, 40), RS_F_RECLAIMED), 8);
	rs_model_free(m);
}

/*
 * Bucket b holds (hi(b - 1), hi(b)]: 16 per power of two, each at most
 * 1/16 of its lower bound wide, every power of two a bound (a valid `le`).
 */
static void hist_buckets_are_le_bounds(void **state)
{
	__u32 last = 0;

	(void)state;
	assert_int_equal(rs_hist_bucket(0), 0);
	assert_int_equal(rs_hist_bucket(1), 0);
	assert_int_equal(rs_hist_bucket(2), 1);
	assert_int_equal(rs_hist_bucket(16), 15);
	assert_int_equal(rs_hist_bucket(17), 16);
	assert_int_equal(rs_hist_bucket(32), 31);
	assert_int_equal(rs_hist_bucket(33), 32);
	assert_int_equal(rs_hist_bucket(34), 32);
	assert_int_equal(rs_hist_bucket(35), 33);
	assert_int_equal(rs_hist_bucket_hi(16), 17);
	assert_int_equal(rs_hist_bucket_hi(32), 34);
	/* 8.3 ms, a 120 Hz frame: in (8.126464, 8.388608] ms */
	assert_int_equal(rs_hist_bucket_hi(rs_hist_bucket(8300000)), 8388608);
	assert_int_equal(rs_hist_bucket_hi(rs_hist_bucket(8300000) - 1),
			 8126464);
	assert_int_equal(rs_hist_bucket(8388609), rs_hist_bucket(8300000) + 1);
	assert_int_equal(rs_hist_bucket(~0ULL), RS_HIST_BUCKETS - 1);
	assert_int_equal(rs_hist_bucket_hi(RS_HIST_BUCKETS - 1),
			 RS_HIST_MAX_NS);
	for (int k = 0; k < RS_HIST_LOG2_BUCKETS; k++)
		assert_int_equal(rs_hist_bucket_hi(rs_hist_bucket(1ULL << k)),
				 1ULL << k);
	for (__u32 b = 1; b < RS_HIST_BUCKETS; b++) {
		__u64 lo = rs_hist_bucket_hi(b - 1), hi = rs_hist_bucket_hi(b);

		assert_true(hi > lo);
		assert_int_equal(rs_hist_bucket(lo + 1), b);
		assert_int_equal(rs_hist_bucket(hi), b);
		assert_true(lo < 16 || (hi - lo) * 16 <= lo);
	}
	for (__u64 v = 1; v < (1ULL << 37); v = v * 3 / 2 + 1) {
		__u32 b = rs_hist_bucket(v);

		assert_true(v <= rs_hist_bucket_hi(b));
		if (b)
			assert_true(v > rs_hist_bucket_hi(b - 1));
		assert_true(b >= last);
		last = b;
	}
}

static void hist_quantiles(void **state)
{
	struct rs_histogram h = {0};
	__u32 kib = rs_hist_bucket(1024), mib = rs_hist_bucket(1 << 20),
	      gib = rs_hist_bucket(1 << 30);
	double lo = (double)rs_hist_bucket_hi(mib - 1), hi = 1 << 20;

	(void)state;
	assert_true(rs_hist_quantile(&h, 0.5) < 0); /* empty */
	/* added out of order: the octaves' blocks stay sorted */
	assert_int_equal(rs_hist_add(&h, gib, 1), 0);  /* 1 value <= 1 Gi ns */
	assert_int_equal(rs_hist_add(&h, kib, 90), 0); /* 90 <= 1024 ns */
	assert_int_equal(rs_hist_add(&h, mib, 9), 0);  /* 9 <= 1 Mi ns */
	assert_int_equal(rs_hist_next(&h, 0), kib);
	assert_int_equal(rs_hist_next(&h, kib + 1), mib);
	assert_int_equal(rs_hist_next(&h, mib + 1), gib);
	assert_int_equal(rs_hist_next(&h, gib + 1), RS_HIST_BUCKETS);
	assert_true(rs_hist_total(&h) == 100);
	/* inside a bucket, linear: rank 50 of 90 in (992, 1024] */
	assert_float_equal(rs_hist_quantile(&h, 0.5), 992 + 32 * 50.0 / 90,
			   1e-9);
	assert_true(rs_hist_quantile(&h, 0.90) == 1024);
	assert_float_equal(rs_hist_quantile(&h, 0.91), lo + (hi - lo) / 9,
			   1e-6);
	assert_true(rs_hist_quantile(&h, 0.99) == 1 << 20);
	assert_true(rs_hist_quantile(&h, 1.0) == 1 << 30);
	/* the last bucket holds every value past 2^37 ns: a quantile that
	 * falls in it lies past the range */
	assert_int_equal(rs_hist_add(&h, rs_hist_bucket(RS_HIST_MAX_NS), 100),
			 0);
	assert_true(rs_hist_quantile(&h, 0.5) == 1 << 30);
	assert_true(isinf(rs_hist_quantile(&h, 0.99)));
	rs_hist_free(&h);
	/* past 2^53 the doubles round: a quantile still lies in its bucket */
	assert_int_equal(rs_hist_add(&h, 100, 1ULL << 61), 0);
	assert_int_equal(rs_hist_add(&h, 200, 285), 0);
	assert_int_equal(rs_hist_add(&h, 300, (1ULL << 61) + 570), 0);
	assert_true(rs_hist_quantile(&h, 0.5) <= rs_hist_bucket_hi(200));
	assert_true(rs_hist_quantile(&h, 0.5) >= rs_hist_bucket_hi(199));
	rs_hist_free(&h);
	assert_int_equal(rs_hist_add(&h, kib, 90), 0);
	assert_int_equal(rs_hist_add(&h, mib, 9), 0);
	assert_int_equal(rs_hist_add(&h, gib, 1), 0);
	/* counted in log2 buckets: the power of two, as before */
	h.log2 = true;
	assert_true(rs_hist_quantile(&h, 0.5) == 1024);
	assert_true(rs_hist_quantile(&h, 0.91) == 1 << 20);
	rs_hist_free(&h);
}

/* Folding into powers of two, merging, and a count past 2^64. */
static void hist_fold_and_merge(void **state)
{
	struct rs_histogram a = {0}, b = {0};
	__u64 log2[RS_HIST_LOG2_BUCKETS];

	(void)state;
	assert_int_equal(rs_hist_add(&a, rs_hist_bucket(8300000), 3), 0);
	assert_int_equal(rs_hist_add(&a, rs_hist_bucket(8388608), 1), 0);
	assert_int_equal(rs_hist_add(&a, rs_hist_bucket(8388609), 2), 0);
	assert_int_equal(rs_hist_add(&a, 0, 4), 0);
	rs_hist_log2(&a, log2);
	assert_int_equal(log2[0], 4);
	assert_int_equal(log2[23], 4); /* (2^22, 2^23] */
	assert_int_equal(log2[24], 2);
	assert_int_equal(rs_hist_add(&b, rs_hist_bucket(8300000), ~0ULL - 3),
			 0);
	assert_int_equal(rs_hist_merge(&b, &a), 1); /* past 2^64 - 1 */
	rs_hist_zero(&b);
	assert_true(rs_hist_empty(&b));
	assert_int_equal(rs_hist_merge(&b, &a), 0);
	assert_int_equal(rs_hist_count(&b, rs_hist_bucket(8388609)), 2);
	b.log2 = false;
	a.log2 = true;
	assert_int_equal(rs_hist_merge(&b, &a), 0);
	assert_true(b.log2); /* a log2 side makes the sum log2 */
	rs_hist_free(&a);
	rs_hist_free(&b);
}

/* A histogram of one nonzero bucket, as the BPF side's entry holds it. */
static int hist_add(struct rs_model *m, __u64 id, enum rs_hist h, int bucket,
		    __u64 count)
{
	__u64 counts[RS_HIST_SUBS] = {0};

	counts[bucket % RS_HIST_SUBS] = count;
	return rs_model_hist_add(m, id, h, bucket / RS_HIST_SUBS, counts);
}

/* A snapshot of memcg 7 whose memcg-reclaim bucket 12 holds count. */
static const struct rs_hist_counts *hist_round(struct rs_model *m, double t,
					       __u64 count)
{
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 2, 2);
	assert_int_equal(hist_add(m, 7, RS_HIST_MEMCG, 12, count), 0);
	rs_model_end(m, t);
	return rs_memcg_hist(rs_model_find(m, 7), RS_HIST_MEMCG);
}

static void hist_intervals(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	const struct rs_hist_counts *hc;
	const struct rs_memcg *mc;
	__u64 none[RS_HIST_SUBS] = {0};

	(void)state;
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 1, 1);
	assert_int_equal(hist_add(m, 7, RS_HIST_MEMCG, 12, 5), 0);
	/* an all-zero histogram takes no memory */
	assert_int_equal(rs_model_hist_add(m, 7, RS_HIST_PASS, 3, none), 0);
	rs_model_end(m, 1);
	mc = rs_model_find(m, 7);
	assert_non_null(mc->hists);
	assert_int_equal(
		rs_hist_count(&mc->hists->kind[RS_HIST_MEMCG]->total, 12), 5);
	assert_int_equal(
		rs_hist_count(&mc->hists->kind[RS_HIST_MEMCG]->interval, 12),
		5);
	/* only the kinds with counts take memory */
	for (int h = 0; h < RS_NR_HISTS; h++)
		if (h != RS_HIST_MEMCG)
			assert_null(rs_memcg_hist(mc, h));
	hc = hist_round(m, 2, 8);
	assert_int_equal(rs_hist_count(&hc->total, 12), 8);
	assert_int_equal(rs_hist_count(&hc->interval, 12), 3);
	/* a quiet interval: totals stay, the interval is empty */
	hc = hist_round(m, 3, 8);
	assert_int_equal(rs_hist_count(&hc->interval, 12), 0);
	/* a smaller count: a new owner of the key, counted from 0 */
	hc = hist_round(m, 4, 2);
	assert_int_equal(rs_hist_count(&hc->interval, 12), 2);
	assert_int_equal(rs_hist_count(&hc->total, 12), 2);
	/* out of range (a newer BPF side): ignored, not a crash */
	assert_int_equal(hist_add(m, 7, RS_NR_HISTS, 0, 1), 0);
	assert_int_equal(hist_add(m, 7, RS_HIST_MEMCG, RS_HIST_BUCKETS, 1), 0);
	assert_int_equal(rs_hist_count(&hc->total, 12), 2);
	rs_model_free(m);
}

/* A snapshot the collector read nothing into (no program ran). */
static void empty_round(struct rs_model *m, double t)
{
	rs_model_begin(m);
	rs_model_end(m, t);
}

/*
 * Snapshots with nothing added (the collector skipped maps no program
 * changed): the first zeroes the intervals, later ones leave the memcgs as
 * they are; the next add must see them all zeroed and count from the
 * totals.
 */
static void snapshots_without_adds(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	const struct rs_hist_counts *hc;
	const struct rs_memcg *mc;

	(void)state;
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 4);
	add(m, 7, 0, RS_RECLAIMER_KSWAPD, 5, 1);
	add(m, 9, 0, RS_RECLAIMER_MEMCG, 3, 3);
	assert_int_equal(hist_add(m, 7, RS_HIST_MEMCG, 12, 5), 0);
	rs_model_end(m, 1);
	for (double t = 2; t <= 4; t++) {
		empty_round(m, t);
		assert_true(rs_model_time(m) == t);
		assert_int_equal(rs_model_nr_memcgs(m), 2);
		mc = rs_model_find(m, 7);
		assert_non_null(mc);
		assert_int_equal(total_of(mc, RS_F_SCANNED), 15);
		assert_int_equal(interval_of(mc, RS_F_SCANNED), 0);
		assert_true(mc->last_active == 1);
		hc = rs_memcg_hist(mc, RS_HIST_MEMCG);
		assert_int_equal(rs_hist_count(&hc->total, 12), 5);
		assert_int_equal(rs_hist_count(&hc->interval, 12), 0);
		assert_int_equal(total_of(rs_model_find(m, 9), RS_F_SCANNED),
				 3);
	}
	/* one memcg moves again: only its interval, from its totals */
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 4);
	add(m, 7, 0, RS_RECLAIMER_KSWAPD, 8, 1);
	add(m, 9, 0, RS_RECLAIMER_MEMCG, 3, 3);
	assert_int_equal(hist_add(m, 7, RS_HIST_MEMCG, 12, 6), 0);
	rs_model_end(m, 5);
	mc = rs_model_find(m, 7);
	assert_int_equal(total_of(mc, RS_F_SCANNED), 18);
	assert_int_equal(interval_of(mc, RS_F_SCANNED), 3);
	assert_true(mc->last_active == 5);
	assert_int_equal(
		rs_hist_count(&rs_memcg_hist(mc, RS_HIST_MEMCG)->interval, 12),
		1);
	assert_int_equal(interval_of(rs_model_find(m, 9), RS_F_SCANNED), 0);
	/* a histogram that moved alone is zeroed by the next empty one */
	rs_model_begin(m);
	assert_int_equal(hist_add(m, 7, RS_HIST_MEMCG, 12, 9), 0);
	rs_model_end(m, 6);
	mc = rs_model_find(m, 7);
	assert_int_equal(
		rs_hist_count(&rs_memcg_hist(mc, RS_HIST_MEMCG)->interval, 12),
		3);
	assert_int_equal(interval_of(mc, RS_F_SCANNED), 0);
	empty_round(m, 7);
	mc = rs_model_find(m, 7);
	assert_int_equal(
		rs_hist_count(&rs_memcg_hist(mc, RS_HIST_MEMCG)->interval, 12),
		0);
	assert_int_equal(total_of(mc, RS_F_SCANNED), 18);
	rs_model_free(m);
}

static void gone_memcgs_expire(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	__u64 ids[4];

	(void)state;
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	add(m, 8, 0, RS_RECLAIMER_MEMCG, 20, 6);
	rs_model_end(m, 10);
	rs_model_set_path(m, 7, "/a");
	rs_model_set_path(m, 8, "/b");
	rs_model_mark_gone(m, 7);
	assert_int_equal(rs_model_expired(m, 60, ids, 4), 0);
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	add(m, 8, 0, RS_RECLAIMER_MEMCG, 20, 6);
	rs_model_end(m, 69);
	/* marking again does not restart the clock */
	rs_model_mark_gone(m, 7);
	assert_int_equal(rs_model_expired(m, 60, ids, 4), 0);
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	add(m, 8, 0, RS_RECLAIMER_MEMCG, 20, 6);
	rs_model_end(m, 70);
	assert_int_equal(rs_model_expired(m, 60, ids, 4), 1);
	assert_int_equal(ids[0], 7);
	rs_model_forget(m, 7);
	assert_int_equal(rs_model_nr_memcgs(m), 1);
	assert_null(rs_model_find(m, 7));
	assert_null(rs_model_path(m, 7));
	assert_string_equal(rs_model_find(m, 8)->path, "/b");
	assert_int_equal(total_of(rs_model_find(m, 8), RS_F_SCANNED), 20);
	rs_model_free(m);
}

/* Tiers are kept for tracked memcgs only, across snapshots, until forgotten. */
static void tiers_of_tracked_memcgs(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	struct rs_tiers t = {.nr_tiers = 4};

	(void)state;
	t.v[1][0][RS_TIER_EVICTED] = 123;
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	rs_model_end(m, 1);
	assert_int_equal(rs_model_set_tiers(m, 7, &t), 0);
	/* memcg 9 never reclaimed: its tiers are not kept */
	assert_int_equal(rs_model_set_tiers(m, 9, &t), 0);
	assert_int_equal(rs_model_find(m, 7)->tiers->v[1][0][RS_TIER_EVICTED],
			 123);
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	add(m, 9, 0, RS_RECLAIMER_MEMCG, 1, 1);
	rs_model_end(m, 2);
	assert_non_null(rs_model_find(m, 7)->tiers); /* kept across snapshots */
	assert_null(rs_model_find(m, 9)->tiers);
	rs_model_forget(m, 7); /* and freed with the memcg (the sanitizers) */
	rs_model_free(m);
}

/* A record as the tier iterator writes it: generations lo..max. */
static struct rs_tier_record gens_record(__u64 lo, __u64 max, __u64 jiffies)
{
	struct rs_tier_record rec = {.cgid = 7, .node = 0, .gens_known = 1};

	rec.min_seq[0] = lo;
	rec.min_seq[1] = lo + 1;
	rec.max_seq = max;
	rec.jiffies = jiffies;
	for (__u64 seq = lo; seq <= max; seq++) {
		rec.birth[seq % RS_TIER_NR_GENS] = 1000 + seq * 250;
		rec.pages[seq % RS_TIER_NR_GENS][0] = seq * 10;
		rec.pages[seq % RS_TIER_NR_GENS][1] = seq * 100;
	}
	return rec;
}

/* A read torn by an aging: a younger generation's birth in an older one's
 * slot (born after the next), or more generations than can be alive. */
static void gens_torn(void **state)
{
	struct rs_tier_record rec = gens_record(5, 7, 5000);
	struct rs_lruvec_gens g;

	(void)state;
	assert_false(rs_gens_record_torn(&rec));
	/* seq 9 born in seq 5's slot after the seqs were read */
	rec.birth[5 % RS_TIER_NR_GENS] = 1000 + 9 * 250;
	assert_true(rs_gens_record_torn(&rec));
	rec = gens_record(5, 8, 5000);
	assert_false(rs_gens_record_torn(&rec));
	rec.max_seq = 9; /* min read before an aging, max after */
	assert_true(rs_gens_record_torn(&rec));
	/* in a sample's ages (a recording's): one younger than the next */
	rec = gens_record(5, 8, 5000);
	rs_gens_from_record(&rec, 250, 1.0, &g);
	assert_false(rs_gens_sample_torn(&g));
	g.gen[0].age = g.gen[1].age - 0.004;
	assert_true(rs_gens_sample_torn(&g));
	g.gen[0].age = NAN;
	assert_false(rs_gens_sample_torn(&g));
}

/* HZ from jiffies against the monotonic clock: only the kernel's
 * choices, and only where the span tells them apart. */
static void hz_learnt(void **state)
{
	(void)state;
	assert_int_equal(rs_hz_learn(5000, 0, 5250, 1000000000ull), 250);
	assert_int_equal(rs_hz_learn(5000, 0, 5300, 1000000000ull), 300);
	assert_int_equal(rs_hz_learn(5000, 0, 6000, 1000000000ull), 1000);
	assert_int_equal(rs_hz_learn(5000, 0, 5200, 2000000000ull), 100);
	/* from one reading: jiffies began at 2^32 - 300 HZ */
	assert_int_equal(rs_hz_from_boot((1ULL << 32) - 300 * 250 + 100 * 250,
					 100000000000ull),
			 250);
	assert_int_equal(
		rs_hz_from_boot((1ULL << 32) - 300 * 1000 + 259200ULL * 1000,
				259200000000000ull),
		1000);
	assert_int_equal(rs_hz_from_boot((1ULL << 32) - 300 * 300 + 30 * 300,
					 30000000000ull),
			 300);
	/* a few ticks behind, as a loaded guest's are: still 100 */
	assert_int_equal(
		rs_hz_from_boot((1ULL << 32) - 300 * 100 + 10 * 100 - 5,
				10000000000ull),
		100);
	/* near 300 s the choices meet; elsewhere, no rate that fits */
	assert_int_equal(rs_hz_from_boot(1ULL << 32, 300000000000ull), 0);
	assert_int_equal(
		rs_hz_from_boot((1ULL << 32) + 250 * 20, 320000000000ull), 0);
	assert_int_equal(rs_hz_from_boot(12345, 100000000000ull), 0);
	/* 500 a second, 200 s past the 300: no tick rate the kernel has */
	assert_int_equal(
		rs_hz_from_boot((1ULL << 32) + 500 * 200, 500000000000ull), 0);
	/* jiffies 50 ms behind at either end: still 250, never 300 */
	assert_int_equal(rs_hz_learn(5000, 0, 5238, 1000000000ull), 250);
	assert_int_equal(rs_hz_learn(5000, 0, 5262, 1000000000ull), 250);
	/* the case a tenth of a second let through: 0.2 s, 47 ms behind */
	assert_int_equal(rs_hz_learn(5000, 0, 5062, 200000000ull), 0);
	/* too close, backwards, or no tick rate the kernel has */
	assert_int_equal(rs_hz_learn(5000, 0, 5025, 100000000ull), 0);
	assert_int_equal(rs_hz_learn(5000, 5, 5250, 5), 0);
	assert_int_equal(rs_hz_learn(5250, 0, 5000, 1000000000ull), 0);
	assert_int_equal(rs_hz_learn(5000, 0, 5500, 1000000000ull), 0);
	assert_int_equal(rs_hz_learn(5000, 0, 5275, 1000000000ull), 0);
}

/* A record's generations: those alive, oldest first, born at t less their
 * age at the read; unknown ages without HZ; never more than the kernel
 * keeps. */
static void gens_from_records(void **state)
{
	struct rs_tier_record rec = gens_record(5, 7, 1000 + 7 * 250 + 500);
	struct rs_lruvec_gens g;

	(void)state;
	rs_gens_from_record(&rec, 250, 100.0, &g);
	assert_int_equal(g.nr, 3);
	assert_int_equal(g.gen[0].seq, 5);
	assert_int_equal(g.gen[2].seq, 7);
	assert_int_equal(g.gen[1].anon, 60);
	assert_int_equal(g.gen[1].file, 600);
	assert_int_equal(g.max_seq, 7);
	assert_int_equal(g.min_seq[1], 6);
	/* seq 7 born 500 jiffies (2 s) before the read, seq 5 500 earlier */
	assert_true(fabs(g.gen[2].age - 2.0) < 1e-9);
	assert_true(fabs(g.gen[0].age - 4.0) < 1e-9);
	rs_gens_from_record(&rec, 0, 100.0, &g);
	assert_true(isnan(g.gen[0].age));
	/* a torn read (max_seq read after an aging and an eviction) lists
	 * at most RS_GENS_MAX, ending at max_seq */
	rec.min_seq[0] = rec.min_seq[1] = 2;
	rs_gens_from_record(&rec, 250, 100.0, &g);
	assert_int_equal(g.nr, RS_GENS_MAX);
	assert_int_equal(g.gen[0].seq, 4);
	rec.min_seq[0] = rec.min_seq[1] = 9; /* min above max: max alone */
	rs_gens_from_record(&rec, 250, 100.0, &g);
	assert_int_equal(g.nr, 1);
	assert_int_equal(g.gen[0].seq, 7);
}

/* A snapshot at t with memcg 7's reclaim in it. */
static void gens_snapshot(struct rs_model *m, double t)
{
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	rs_model_end(m, t);
}

/* memcg 7's generations as the iterator read them at t (HZ 250). */
static void gens_read(struct rs_model *m, const struct rs_tier_record *rec,
		      double t)
{
	struct rs_lruvec_gens g;

	rs_gens_from_record(rec, 250, t, &g);
	assert_int_equal(rs_model_set_gens(m, 7, &g), 0);
}

/* What the timelines show (gens.h): the generations alive weighted by how
 * long each sample held, the least, the gap between births (each once),
 * and a generation's pages at the first read after a younger one's birth;
 * through the model's rows, the run's and the interval's. */
static void gens_figures(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	struct rs_tier_record rec = gens_record(5, 7, 4000);
	const struct rs_memcg *mc;
	struct rs_values v;
	int alive = rs_row_by_key("gens_alive"),
	    least = rs_row_by_key("gens_alive_min"),
	    gap = rs_row_by_key("aging_interval"),
	    pages = rs_row_by_key("pages_per_gen_at_aging");

	(void)state;
	assert_true(alive >= 0 && least >= 0 && gap >= 0 && pages >= 0);
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	rs_model_end(m, 1);
	mc = rs_model_find(m, 7);
	rs_model_values(m, mc, false, -1, 1, &v);
	assert_int_equal(rs_row_eval(&v, alive).state, RS_VALUE_NA);
	/* seqs 5-7 born 1 s apart (250 jiffies at 250 Hz), at t = 1 */
	gens_read(m, &rec, 1.0);
	/* t = 2: the same state, not a sample */
	gens_snapshot(m, 2);
	rec.jiffies += 250;
	gens_read(m, &rec, 2.0);
	/* t = 3: seq 8 born, 5 gone: 7 closed with 70 + 700 pages */
	gens_snapshot(m, 3);
	rec = gens_record(6, 8, 4500);
	gens_read(m, &rec, 3.0);
	/* t = 4: two alive, 8 closed with 880 */
	gens_snapshot(m, 4);
	rec = gens_record(8, 9, 5000);
	gens_read(m, &rec, 4.0);
	mc = rs_model_find(m, 7);
	rs_model_values(m, mc, false, -1, 4, &v);
	/* 3 alive from t = 1 to 3, then 3 from 3 to 4; the last has held
	 * for no time yet */
	assert_true(fabs(rs_row_number(&v, alive) - 3.0) < 1e-9);
	assert_true(rs_row_number(&v, least) == 2.0);
	assert_true(fabs(rs_row_number(&v, gap) - 1000.0) < 1e-6);
	assert_true(fabs(rs_row_number(&v, pages) - 825.0) < 1e-9);
	/* the interval: the last sample alone */
	rs_model_values(m, mc, true, -1, 1, &v);
	assert_true(fabs(rs_row_number(&v, alive) - 3.0) < 1e-9);
	assert_true(rs_row_number(&v, least) == 2.0);
	assert_true(fabs(rs_row_number(&v, pages) - 880.0) < 1e-9);
	/* one node's share: kept per memcg */
	rs_model_values(m, mc, false, 0, 4, &v);
	assert_int_equal(rs_row_eval(&v, alive).state, RS_VALUE_NONE);
	/* t = 6, no sample since t = 4: the last held 2 s at 2 alive */
	gens_snapshot(m, 6);
	mc = rs_model_find(m, 7);
	rs_model_values(m, mc, false, -1, 6, &v);
	assert_true(fabs(rs_row_number(&v, alive) - 13.0 / 5) < 1e-9);
	/* the interval (4 to 6): the last sample's hold alone */
	rs_model_values(m, mc, true, -1, 2, &v);
	assert_true(fabs(rs_row_number(&v, alive) - 2.0) < 1e-9);
	assert_int_equal(rs_row_eval(&v, gap).state, RS_VALUE_NONE);
	rs_model_free(m);
}

/* Generations lo..max on node, each born 1 s after its elder, the
 * youngest young_s old at t (ages whole ms, as recordings keep them). */
static struct rs_lruvec_gens gens_of(int node, __u64 lo, __u64 max, double t,
				     double young_s)
{
	struct rs_lruvec_gens g = {.node = node, .t = t, .max_seq = max};

	g.min_seq[0] = g.min_seq[1] = lo;
	for (__u64 seq = lo; seq <= max; seq++)
		g.gen[g.nr++] = (struct rs_gen_sample){
			.seq = seq,
			.anon = seq,
			.file = 10 * seq,
			.stamp = seq,
			.age = young_s + (double)(max - seq) * (1 + node)};
	return g;
}

/*
 * What top shows equals what report reads back from the recording of the
 * same run, through two nodes, a sample like the last, MGLRU off and on
 * again (no birth counted twice), and a memcg gone (one "end" per node).
 */
static void gens_live_equals_recorded(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	struct rs_run_info info = {.kernel = "k", .mglru_enabled = 1};
	/* the reads, step by step: step 2 reads node 0 as it was and node 1
	 * aged; step 3 has MGLRU off; step 4 is back on, the same stamps and
	 * one birth more; in step 5 /b goes */
	static const struct {
		int step;
		__u64 id;
		int node;
		__u64 lo, max;
		double young;
	} reads[] = {
		{1, 7, 0, 5, 7, 0.2}, {1, 7, 1, 3, 6, 0.1},
		{1, 8, 0, 2, 4, 0.3}, {2, 7, 0, 5, 7, 1.2},
		{2, 7, 1, 4, 7, 0.5}, {4, 7, 0, 6, 8, 0.4},
		{4, 7, 1, 6, 8, 0.6}, {4, 8, 0, 3, 5, 0.7},
		{5, 7, 0, 7, 9, 0.1},
	};
	static const char *const keys[] = {"gens_alive", "gens_alive_min",
					   "aging_interval",
					   "pages_per_gen_at_aging"};
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	__u64 written = 0;
	struct rs_recording r;

	(void)state;
	assert_non_null(f);
	fprintf(f, "{\"type\":\"header\",\"schema\":%d,\"kernel\":\"k\"}\n",
		RS_SCHEMA);
	for (int step = 1; step <= 6; step++) {
		double t = step;
		struct rs_lruvec_gens g;
		json_t *snap;
		char *line;

		rs_model_begin(m);
		add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
		add(m, 8, 0, RS_RECLAIMER_MEMCG, 10, 5);
		rs_model_end(m, t);
		if (step == 1) {
			rs_model_set_path(m, 7, "/a");
			rs_model_set_path(m, 8, "/b");
		}
		info.mglru_enabled = step == 3 ? 0 : 1;
		for (size_t k = 0; k < sizeof(reads) / sizeof(reads[0]); k++)
			if (reads[k].step == step) {
				g = gens_of(reads[k].node, reads[k].lo,
					    reads[k].max, t, reads[k].young);
				rs_model_set_gens(m, reads[k].id, &g);
			}
		if (step == 5)
			rs_model_mark_gone(m, 8);
		if (!info.mglru_enabled)
			rs_model_clear_gens(m);
		snap = rs_json_snapshot(m, &info, NULL, written);
		written = rs_model_snapshots(m);
		line = json_dumps(snap, JSON_COMPACT);
		assert_non_null(line);
		fprintf(f, "%s\n", line);
		free(line);
		json_decref(snap);
	}
	assert_int_equal(fclose(f), 0);
	f = fmemopen(text, len, "r");
	assert_non_null(f);
	if (rs_recording_read(f, "t.ndjson", 0, &r, err, sizeof(err)))
		fail_msg("not read: %s", err);
	fclose(f);
	for (__u64 id = 7; id <= 8; id++) {
		const struct rs_memcg *mc = rs_model_find(m, id);
		const struct rs_rec_memcg *rm =
			rs_recording_find(&r, id == 7 ? "/a" : "/b");
		struct rs_values live, rec;

		assert_non_null(rm);
		rs_model_values(m, mc, false, -1, rs_model_time(m), &live);
		rs_rec_values(&r, rm, &rec);
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			int i = rs_row_by_key(keys[k]);
			double a = rs_row_number(&live, i),
			       b = rs_row_number(&rec, i);

			/* /a has every figure; /b none of its aging (its
			 * one aging came across MGLRU off) */
			if (id == 8 && k == 3 ? !isnan(a) || !isnan(b)
					      : isnan(a) || !(fabs(a - b) <=
							      1e-9 * fabs(a)))
				fail_msg("memcg %llu %s: live %g, recorded %g",
					 (unsigned long long)id, keys[k], a, b);
		}
	}
	/* /a: births 6, 7 (node 0) and 5, 6 (node 1) at t 1, 7 on node 1
	 * at t 2, 8 on both at t 4 (not 6, 7 again), 9 at t 5; not 4 (its
	 * gap from seq 3, made with the lruvec, is no aging's) */
	{
		struct rs_values v;
		const struct rs_memcg *mc = rs_model_find(m, 7);
		double gaps = 2 * 1.0 + 2 * 2.0 + 2.0 + 1.0 + 2.0 + 1.0;

		rs_model_values(m, mc, false, -1, rs_model_time(m), &v);
		assert_true(fabs(rs_row_number(
					 &v, rs_row_by_key("aging_interval")) -
				 1e3 * gaps / 8) < 1e-6);
	}
	rs_recording_free(&r);
	free(text);
	rs_model_free(m);
}

/* Timeline samples: kept for tracked memcgs only, each read's ages its
 * own, changed marks the snapshot the state last moved in, a
 * memcg gone ends its timeline, and MGLRU off clears them all. */
static void gens_timeline(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	struct rs_tier_record rec = gens_record(5, 7, 4000);
	struct rs_lruvec_gens g;
	const struct rs_memcg *mc;

	(void)state;
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	rs_model_end(m, 1);
	rs_gens_from_record(&rec, 250, 1.0, &g);
	assert_int_equal(rs_model_set_gens(m, 7, &g), 0);
	g.node = 2; /* a second node, past an unread one */
	assert_int_equal(rs_model_set_gens(m, 7, &g), 0);
	assert_int_equal(rs_model_set_gens(m, 9, &g), 0); /* untracked */
	mc = rs_model_find(m, 7);
	assert_int_equal(mc->nr_gens, 3);
	assert_true(isnan(mc->gens[1].t));
	assert_int_equal(mc->gens[0].changed, rs_model_snapshots(m));
	assert_true(mc->gens[0].t == 1.0);
	/* the next snapshot: the same state, read later (older ages): not a
	 * sample, the first read kept as it was (its age now is the same) */
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	rs_model_end(m, 2);
	rec.jiffies += 250;
	rs_gens_from_record(&rec, 250, 2.1, &g);
	assert_int_equal(rs_model_set_gens(m, 7, &g), 0);
	mc = rs_model_find(m, 7);
	assert_int_equal(mc->gens[0].changed, rs_model_snapshots(m) - 1);
	/* seq 5: 1,750 jiffies old at the first read */
	assert_true(fabs(mc->gens[0].gen[0].age - 7.0) < 1e-9);
	assert_true(mc->gens[0].t == 1.0); /* that read's own time */
	/* an aging: seq 8 is new, 5 retired */
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	rs_model_end(m, 3);
	rec = gens_record(6, 8, 4500);
	rs_gens_from_record(&rec, 250, 3.0, &g);
	assert_int_equal(rs_model_set_gens(m, 7, &g), 0);
	mc = rs_model_find(m, 7);
	assert_int_equal(mc->gens[0].changed, rs_model_snapshots(m));
	assert_int_equal(mc->gens[0].gen[0].seq, 6);
	assert_int_equal(mc->gens[0].nr, 3);
	/* gone: the timeline ends in this snapshot, and no later read
	 * (a dying memcg is still listed) starts it again */
	rs_model_set_path(m, 7, "/a");
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	rs_model_end(m, 4);
	rs_model_mark_gone(m, 7);
	mc = rs_model_find(m, 7);
	assert_true(mc->gens[0].ended);
	assert_int_equal(mc->gens[0].ended_at, rs_model_snapshots(m));
	assert_int_equal(mc->gens[0].changed, rs_model_snapshots(m) - 1);
	rec = gens_record(7, 9, 5000);
	rs_gens_from_record(&rec, 250, 4.0, &g);
	assert_int_equal(rs_model_set_gens(m, 7, &g), 0);
	assert_int_equal(rs_model_find(m, 7)->gens[0].max_seq, 8);
	/* MGLRU off: no sample anywhere (each slot kept for what it
	 * counted) */
	rs_model_clear_gens(m);
	mc = rs_model_find(m, 7);
	for (unsigned n = 0; n < mc->nr_gens; n++) {
		assert_true(isnan(mc->gens[n].t));
		assert_int_equal(mc->gens[n].nr, 0);
	}
	rs_model_forget(m, 7); /* freed with the memcg (the sanitizers) */
	rs_model_free(m);
}

/* The timeline as the recording writes it: a snapshot lists the lruvecs
 * that moved in it, then an "end" once the memcg is gone, and null while
 * MGLRU is off; the summary keeps each memcg's last sample. */
static void gens_in_json(void **state)
{
	struct rs_model *m = rs_model_new(all_hooks);
	struct rs_tier_record rec = gens_record(5, 7, 4000);
	struct rs_run_info info = {.mglru_enabled = 7};
	struct rs_lruvec_gens g;
	json_t *snap, *e, *sum;

	(void)state;
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	rs_model_end(m, 1);
	rs_model_set_path(m, 7, "/a");
	rs_gens_from_record(&rec, 250, 1.0, &g);
	assert_int_equal(rs_model_set_gens(m, 7, &g), 0);
	snap = rs_json_snapshot(m, &info, NULL, rs_model_snapshots(m) - 1);
	e = json_array_get(json_object_get(snap, "lru_gens"), 0);
	assert_string_equal(json_string_value(json_object_get(e, "path")),
			    "/a");
	assert_int_equal(json_integer_value(json_object_get(e, "max_seq")), 7);
	assert_int_equal(json_array_size(json_object_get(e, "gens")), 3);
	/* seq 5: 1,750 jiffies at HZ 250 */
	assert_int_equal(json_integer_value(json_object_get(
				 json_array_get(json_object_get(e, "gens"), 0),
				 "age_ms")),
			 7000);
	json_decref(snap);
	/* unchanged in the next snapshot: no entry, no key */
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	rs_model_end(m, 2);
	rs_gens_from_record(&rec, 250, 2.0, &g);
	assert_int_equal(rs_model_set_gens(m, 7, &g), 0);
	snap = rs_json_snapshot(m, &info, NULL, rs_model_snapshots(m) - 1);
	assert_null(json_object_get(snap, "lru_gens"));
	json_decref(snap);
	/* gone: one "end" */
	rs_model_begin(m);
	add(m, 7, 0, RS_RECLAIMER_MEMCG, 10, 5);
	rs_model_end(m, 3);
	rs_model_mark_gone(m, 7);
	snap = rs_json_snapshot(m, &info, NULL, rs_model_snapshots(m) - 1);
	e = json_array_get(json_object_get(snap, "lru_gens"), 0);
	assert_true(json_is_true(json_object_get(e, "end")));
	assert_null(json_object_get(e, "gens"));
	json_decref(snap);
	sum = rs_json_summary(m, 3, NULL);
	e = json_array_get(
		json_object_get(
			json_array_get(json_object_get(sum, "memcgs"), 0),
			"lru_gens"),
		0);
	assert_true(json_is_true(json_object_get(e, "ended")));
	assert_int_equal(json_integer_value(json_object_get(e, "max_seq")), 7);
	json_decref(sum);
	/* written once over the three refreshes (as record's last snapshot
	 * may be): the sample the first took and the end the last found */
	snap = rs_json_snapshot(m, &info, NULL, rs_model_snapshots(m) - 3);
	assert_int_equal(json_array_size(json_object_get(snap, "lru_gens")), 2);
	assert_non_null(json_object_get(
		json_array_get(json_object_get(snap, "lru_gens"), 0), "gens"));
	assert_true(json_is_true(json_object_get(
		json_array_get(json_object_get(snap, "lru_gens"), 1), "end")));
	json_decref(snap);
	/* MGLRU off: null, and nothing left to show */
	info.mglru_enabled = 0;
	rs_model_clear_gens(m);
	snap = rs_json_snapshot(m, &info, NULL, rs_model_snapshots(m) - 1);
	assert_true(json_is_null(json_object_get(snap, "lru_gens")));
	json_decref(snap);
	sum = rs_json_summary(m, 3, NULL);
	assert_true(json_is_null(json_object_get(
		json_array_get(json_object_get(sum, "memcgs"), 0),
		"lru_gens")));
	json_decref(sum);
	rs_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(attribution),
		cmocka_unit_test(aggregates_nodes_and_reclaimers),
		cmocka_unit_test(interval_and_total),
		cmocka_unit_test(memcg_death_keeps_path),
		cmocka_unit_test(stats_interval),
		cmocka_unit_test(own_counters),
		cmocka_unit_test(stats_never_go_back),
		cmocka_unit_test(own_counters_unreadable),
		cmocka_unit_test(many_nodes),
		cmocka_unit_test(sums_of_one_and_many_cells),
		cmocka_unit_test(path_entries_in_one_walk),
		cmocka_unit_test(hist_buckets_are_le_bounds),
		cmocka_unit_test(hist_quantiles),
		cmocka_unit_test(hist_fold_and_merge),
		cmocka_unit_test(hist_intervals),
		cmocka_unit_test(gone_memcgs_expire),
		cmocka_unit_test(snapshots_without_adds),
		cmocka_unit_test(tiers_of_tracked_memcgs),
		cmocka_unit_test(hz_learnt),
		cmocka_unit_test(gens_torn),
		cmocka_unit_test(gens_from_records),
		cmocka_unit_test(gens_timeline),
		cmocka_unit_test(gens_figures),
		cmocka_unit_test(gens_live_equals_recorded),
		cmocka_unit_test(gens_in_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
