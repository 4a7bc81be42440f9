// SPDX-License-Identifier: GPL-2.0
/*
 * The metric catalogue walked row by row: every row reaches every view it
 * belongs to (JSON, /metrics, top, report, report --json, diff), and a row
 * computed live by top equals the same row computed by report from the
 * recording of that run.  Adding a row is all it takes to be shown.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>
#include "analysis.h"
#include "catalogue.h"
#include "compare_view.h"
#include "fields.h"
#include "json_view.h"
#include "prom_view.h"
#include "report_view.h"
#include "top_view.h"

#define ID 42
#define PATH "/t"

/* Text written by fn into a string (free it). */
#define CAPTURE(buf, fn)                                                       \
	do {                                                                   \
		size_t len_;                                                   \
		FILE *f_ = open_memstream(&(buf), &len_);                      \
		assert_non_null(f_);                                           \
		fn;                                                            \
		assert_int_equal(fclose(f_), 0);                               \
	} while (0)

/* The snapshots' lines of full_model's last run (its timelines), which
 * recording_at writes before the summary. */
static char snapshot_lines[4096];

/* Generations seq lo..max on node 0, born 1 s apart, the youngest
 * young_s old at model time t. */
static struct rs_lruvec_gens gens_at(__u64 lo, __u64 max, double t,
				     double young_s)
{
	struct rs_lruvec_gens g = {.node = 0, .t = t, .max_seq = max};

	g.min_seq[0] = g.min_seq[1] = lo;
	for (__u64 seq = lo; seq <= max; seq++)
		g.gen[g.nr++] = (struct rs_gen_sample){
			.seq = seq,
			.anon = seq * 10,
			.file = seq * 100,
			.stamp = seq * 250,
			.age = young_s + (double)(max - seq)};
	return g;
}

/*
 * A model with every hook attached and every counter, histogram and gauge
 * of memcg PATH non-zero, on two nodes, over two snapshots.
 */
static struct rs_model *full_model(void)
{
	struct rs_model *m = rs_model_new(~0ULL);
	struct rs_agg_key k0 = {
		.cgroup_id = ID, .node = 0, .reclaimer = RS_RECLAIMER_DIRECT};
	struct rs_agg_key k1 = {
		.cgroup_id = ID, .node = 1, .reclaimer = RS_RECLAIMER_KSWAPD};
	/* counts at 2^20 ns and 2^24 ns: the last bucket of two octaves */
	__u32 b20 = rs_hist_bucket(1 << 20), b24 = rs_hist_bucket(1 << 24);
	__u64 v[RS_NR_FIELDS], at20[RS_HIST_SUBS] = {0},
			       at24[RS_HIST_SUBS] = {0};

	for (int step = 1; step <= 2; step++) {
		for (int f = 0; f < RS_NR_FIELDS; f++)
			v[f] = (__u64)step * (f + 1) * 1000;
		/* a ratio's fixed point: 1.5 per goal reclaim */
		v[RS_F_GOAL_RATIO] =
			v[RS_F_GOAL_RECLAIMS] * 3 * RS_RATIO_ONE / 2;
		/* a count over the latency budget is part of its kind's */
		v[RS_F_PASSES_OVER_BUDGET] = v[RS_F_PASSES] / 4;
		v[RS_F_DIRECT_OVER_BUDGET] = v[RS_F_DIRECT_RECLAIMS] / 4;
		v[RS_F_MEMCG_OVER_BUDGET] = v[RS_F_MEMCG_RECLAIMS] / 4;
		v[RS_F_THROTTLES_OVER_BUDGET] = v[RS_F_THROTTLES] / 4;
		at20[b20 % RS_HIST_SUBS] = 4 * step;
		at24[b24 % RS_HIST_SUBS] = step;
		if (step == 1)
			for (int f = 0; f < RS_NR_FIELDS; f++)
				if (rs_fields[f].needs & RS_HOOK_BIT(CGROUPFS))
					rs_model_cg_baseline(m, ID, f, 0);
		rs_model_begin(m);
		assert_int_equal(rs_model_add(m, &k0, v), 0);
		assert_int_equal(rs_model_add(m, &k1, v), 0);
		for (int h = 0; h < RS_NR_HISTS; h++)
			assert_int_equal(
				rs_model_hist_add(m, ID, h, b20 / RS_HIST_SUBS,
						  at20) ||
					rs_model_hist_add(m, ID, h,
							  b24 / RS_HIST_SUBS,
							  at24),
				0);
		rs_model_end(m, 2.0 * step);
		for (int f = 0; f < RS_NR_FIELDS; f++)
			if (rs_fields[f].needs & RS_HOOK_BIT(CGROUPFS))
				rs_model_cg_sample(m, ID, f, 700 * step);
		rs_model_cg_apply(m);
		rs_model_set_gauges(m, ID, 64 << 20, 128 << 20, 1.5);
		assert_int_equal(rs_model_set_path(m, ID, PATH), 0);
		/* the tiers as a read finds them: state, replaced each time */
		struct rs_tiers t = {.nr_tiers = RS_MAX_NR_TIERS};

		for (int type = 0; type < 2; type++)
			for (int tier = 0; tier < RS_MAX_NR_TIERS; tier++)
				for (int c = 0; c < RS_NR_TIER_COUNTERS; c++)
					t.v[type][tier][c] =
						(__u64)step * (type + 1) *
						(tier + 2) * (c + 3);
		assert_int_equal(rs_model_set_tiers(m, ID, &t), 0);
		/* the timeline: an aging between the snapshots */
		struct rs_lruvec_gens g = step == 1 ? gens_at(5, 7, 2.0, 1.0)
						    : gens_at(6, 8, 4.0, 0.5);
		assert_int_equal(rs_model_set_gens(m, ID, &g), 0);
		/* the snapshot's timeline entries as record writes them, in a
		 * snapshot of no counters (the summary has them) */
		json_t *full = rs_json_snapshot(m, NULL, NULL,
						rs_model_snapshots(m) - 1),
		       *snap = json_pack("{s:s, s:f, s:[], s:O}", "type",
					 "snapshot", "t", rs_model_time(m),
					 "memcgs", "lru_gens",
					 json_object_get(full, "lru_gens"));
		char *line = json_dumps(snap, JSON_COMPACT);

		assert_non_null(line);
		if (step == 1)
			snapshot_lines[0] = '\0';
		assert_true(strlen(snapshot_lines) + strlen(line) + 2 <
			    sizeof(snapshot_lines));
		strcat(snapshot_lines, line);
		strcat(snapshot_lines, "\n");
		free(line);
		json_decref(snap);
		json_decref(full);
	}
	return m;
}

static const struct rs_memcg *the_memcg(const struct rs_model *m)
{
	const struct rs_memcg *mc = rs_model_find(m, ID);

	assert_non_null(mc);
	return mc;
}

/*
 * Event and outcome records of memcg ID (42) as record writes them, with
 * ' for " (turned back by recording_of).
 */
static const char records[] =
	"{'type':'event','kind':'shrink','id':42,'t':1,"
	"'duration_ns':9000000,'budget':100,'budget_used':150}\n"
	"{'type':'event','kind':'reclaim','id':42,'t':1,'reclaimer':'direct',"
	"'duration_ns':12000000,'nr_reclaimed':64,'nr_to_reclaim':32}\n"
	"{'type':'event','kind':'reclaim','id':42,'t':1,'reclaimer':'memcg',"
	"'duration_ns':2000000,'nr_reclaimed':64,'nr_to_reclaim':32}\n"
	"{'type':'event','kind':'throttle','id':42,'t':1,'delayed_us':3000}\n"
	"{'type':'event','kind':'oom','id':42,'t':1,'killed':true,'order':0,"
	"'max_seq':7,'min_seq_anon':5,'min_seq_file':5,'generations':["
	"{'seq':5,'age_ms':900,'anon':10,'file':256},"
	"{'seq':6,'age_ms':400,'anon':20,'file':0},"
	"{'seq':7,'age_ms':100,'anon':2,'file':0}]}\n"
	"{'type':'outcome','workload':'w','memcg':'" PATH "','ops':10,"
	"'ops_per_s':5,'mb_per_s':2,'lat_mean_ms':1,'lat_p50_ms':1,"
	"'lat_p95_ms':2,'lat_p99_ms':3,'iterations':4,'exit_status':0,"
	"'pgpgin_kib':7,'pgpgout_kib':8,"
	"'oom_killed':false}\n"
	"{'type':'outcome','workload':'w','memcg':'" PATH "','worker':0,"
	"'progress':10,'exit_status':0,'oom_killed':false}\n"
	"{'type':'outcome','workload':'w','memcg':'" PATH "','worker':1,"
	"'progress':30,'exit_status':0,'oom_killed':false}\n";

/*
 * The recording of the model's run: its summary after a header and, with
 * records, the event and outcome records above (a longest pass shorter
 * than its histogram bucket's bound).
 */
static void recording_at(const struct rs_model *m, bool with_records,
			 __u64 header_budget_ns, double asked_budget_ns,
			 struct rs_recording *r)
{
	json_t *summary = rs_json_summary(m, rs_model_time(m), NULL);
	char *line = json_dumps(summary, JSON_COMPACT), *text = NULL, err[256];
	size_t len;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(line);
	assert_non_null(f);
	fprintf(f, "{\"type\":\"header\",\"schema\":%d", RS_SCHEMA);
	if (header_budget_ns)
		fprintf(f, ",\"budget_ns\":%llu",
			(unsigned long long)header_budget_ns);
	fprintf(f, "}\n%s", snapshot_lines);
	for (const char *c = records; with_records && *c; c++)
		fputc(*c == '\'' ? '"' : *c, f);
	fprintf(f, "%s\n", line);
	assert_int_equal(fclose(f), 0);
	free(line);
	json_decref(summary);
	f = fmemopen(text, len, "r");
	assert_non_null(f);
	if (rs_recording_read(f, "t.ndjson", asked_budget_ns, r, err,
			      sizeof(err)))
		fail_msg("recording not read: %s", err);
	fclose(f);
	free(text);
}

/* As today's recordings are: the kernel counted over 8.3 ms, as asked. */
static void recording_of(const struct rs_model *m, bool with_records,
			 struct rs_recording *r)
{
	recording_at(m, with_records, RS_DEFAULT_BUDGET_NS, 0, r);
}

static void table_is_whole(void **state)
{
	int field_rows[RS_NR_FIELDS] = {0};
	char a[RS_ROW_TITLE_SIZE], b[RS_ROW_TITLE_SIZE];

	(void)state;
	for (int i = 0; i < rs_nr_rows; i++) {
		const struct rs_row *row = &rs_rows[i];

		assert_non_null(row->key);
		assert_non_null(rs_row_unit(i));
		assert_non_null(rs_row_help(i));
		/* report rows first, then the live-only ones */
		assert_true((row->section != NULL) == (i < rs_nr_report_rows));
		assert_true(row->section || rs_row_live(i));
		if (row->kind == RS_ROW_FIELD) {
			field_rows[row->a]++;
			/* one name: the recording's, JSON's and /metrics' */
			assert_string_equal(row->key, rs_fields[row->a].key);
		}
		for (int j = 0; j < i; j++) {
			if (!strcmp(rs_rows[j].key, row->key))
				fail_msg("key %s twice", row->key);
			if (rs_row_live(i) && rs_row_live(j) &&
			    !strcmp(rs_row_title(i, a, sizeof(a)),
				    rs_row_title(j, b, sizeof(b))))
				fail_msg("title %s twice", a);
		}
	}
	/* every counter the kernel gives reaches report, diff and top */
	for (int f = 0; f < RS_NR_FIELDS; f++)
		if (field_rows[f] != 1)
			fail_msg("field %s has %d rows, not 1",
				 rs_fields[f].key, field_rows[f]);
	/* a column's name before schema 4 (and its old title) still
	 * names its row */
	assert_true(rs_top_row_by_name("passes") >= 0);
	assert_int_equal(rs_top_row_by_name("shrinks/s"),
			 rs_top_row_by_name("passes"));
	assert_int_equal(rs_top_row_by_name("throttle_us"),
			 rs_top_row_by_name("throttled"));
	assert_int_equal(rs_top_row_by_name("nosuch/s"), -1);
	assert_int_equal(rs_top_row_by_name("/s"), -1);
	/* the short lists: places 1..n, each once (a gap would end the
	 * list there, a repeat would hide a row); top's are live rows, the
	 * headline's report rows */
	for (int l = RS_LIST_TOP; l <= RS_LIST_HEADLINE; l++) {
		int rows[256], n = rs_row_list(l, rows, 256), placed = 0;

		for (int i = 0; i < rs_nr_rows; i++)
			placed += (l == RS_LIST_TOP
					   ? rs_rows[i].top_place
					   : rs_rows[i].headline_place) > 0;
		assert_true(n > 10);
		assert_int_equal(n, placed);
		for (int k = 0; k < n; k++) {
			if (l == RS_LIST_TOP)
				assert_true(rs_row_live(rows[k]));
			else
				assert_true(rows[k] < rs_nr_report_rows);
			for (int j = 0; j < k; j++)
				assert_int_not_equal(rows[j], rows[k]);
		}
	}
}

/* Every counter and histogram in the JSON summary and in /metrics. */
static void raw_values_in_json_and_metrics(void **state)
{
	struct rs_model *m = full_model();
	struct rs_run_info info = {0};
	json_t *s = rs_json_summary(m, 4, NULL), *mc;
	char *prom = NULL, name[128];

	(void)state;
	mc = json_array_get(json_object_get(s, "memcgs"), 0);
	assert_non_null(mc);
	CAPTURE(prom, assert_int_equal(rs_prom_write(f_, m, &info), 0));
	for (int f = 0; f < RS_NR_FIELDS; f++) {
		json_t *v = json_object_get(mc, rs_fields[f].key);

		if (!json_is_number(v))
			fail_msg("JSON %s is not a number", rs_fields[f].key);
		/* a family's member is a label value of one metric */
		if (rs_prom_label_value(f))
			snprintf(name, sizeof(name), "=\"%s\"}",
				 rs_prom_label_value(f));
		else
			snprintf(name, sizeof(name), "\n%s{",
				 rs_prom_field_name(f, name + 64, 64));
		if (!strstr(prom, name))
			fail_msg("/metrics lacks %s", name);
	}
	/* two cells of 2 * 1000 * (index + 1) goal reclaims, 1.5 each */
	assert_true(json_real_value(json_object_get(mc, "goal_ratio")) ==
		    2 * 2 * 1000.0 * (RS_F_GOAL_RECLAIMS + 1) * 1.5);
	for (int h = 0; h < RS_NR_HISTS; h++) {
		snprintf(name, sizeof(name), "reclaimscope_%s_seconds_bucket{",
			 rs_hist_infos[h].metric);
		assert_non_null(strstr(prom, name));
		assert_true(json_is_array(
			json_object_get(json_object_get(mc, "histograms"),
					rs_hist_infos[h].key)));
	}
	free(prom);
	json_decref(s);
	rs_model_free(m);
}

/* A line of /metrics that is a series of name with every matcher in
 * matchers (`k="v",k2="v2"`, or empty). */
static bool served(const char *prom, const char *name, const char *matchers)
{
	size_t nlen = strlen(name);

	for (const char *line = prom; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *eol = strchrnul(line, '\n');
		char want[160];
		const char *m = matchers;
		bool all = true;

		if (strncmp(line, name, nlen) || line[nlen] != '{')
			continue;
		while (*m && all) {
			size_t len = strcspn(m, ",");
			const char *hit;

			snprintf(want, sizeof(want), "%.*s", (int)len, m);
			hit = strstr(line, want);
			all = hit && hit < eol;
			m += len + (m[len] == ',');
		}
		if (all)
			return true;
	}
	return false;
}

/*
 * Every series a generated rule selects is one /metrics serves (its name
 * and label matchers), on a model where every counter and histogram
 * moved: a rule cannot name a metric, or a label value, that is not
 * there.
 */
static void rules_select_served_series(void **state)
{
	struct rs_model *m = full_model();
	struct rs_run_info info = {0};
	char *prom = NULL, *rules = NULL;
	int selectors = 0;

	(void)state;
	CAPTURE(prom, assert_int_equal(rs_prom_write(f_, m, &info), 0));
	CAPTURE(rules, assert_int_equal(rs_prom_rules(f_), 0));
	for (const char *p = rules; (p = strstr(p, "(rate(")); selectors++) {
		char name[128], matchers[160] = "";
		size_t len;

		p += strlen("(rate(");
		len = strcspn(p, "{[");
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		if (p[len] == '{')
			snprintf(matchers, sizeof(matchers), "%.*s",
				 (int)strcspn(p + len + 1, "}"), p + len + 1);
		if (!served(prom, name, matchers))
			fail_msg("a rule selects %s{%s}, which /metrics does "
				 "not serve",
				 name, matchers);
	}
	/* the shares, means, rates, quantiles and yields: dozens */
	assert_true(selectors > 40);
	/* each recorded once: two rows may not make one name */
	for (const char *p = rules; (p = strstr(p, "record: ")); p++) {
		size_t len = strcspn(p, "\n");

		for (const char *q = strstr(p + len, "record: "); q;
		     q = strstr(q + 1, "record: "))
			if (strcspn(q, "\n") == len && !strncmp(p, q, len))
				fail_msg("%.*s twice", (int)len, p);
	}
	/* a counter's rate, where its row asks for one, under the names the
	 * rules file had before they were generated (the alerts use them) */
	for (int i = 0; i < rs_nr_report_rows; i++) {
		char want[400], name[128];

		if (!rs_rows[i].rate_rule)
			continue;
		assert_int_equal(rs_rows[i].kind, RS_ROW_FIELD);
		rs_prom_field_name(rs_rows[i].a, name, sizeof(name));
		name[strlen(name) - strlen("_total")] = '\0';
		snprintf(want, sizeof(want),
			 "record: memcg:%s:rate5m\n"
			 "        expr: sum by (instance, memcg) "
			 "(rate(%s_total[5m]))\n",
			 name, name);
		assert_non_null(strstr(rules, want));
	}
	assert_non_null(strstr(
		rules, "record: memcg:reclaimscope_scanned_pages:rate5m"));
	assert_non_null(strstr(
		rules, "record: memcg:reclaimscope_isolated_pages:rate5m"));
	assert_non_null(strstr(
		rules, "record: memcg:reclaimscope_reclaimed_pages:rate5m"));
	assert_non_null(strstr(
		rules, "record: memcg:reclaimscope_throttled_seconds:rate5m"));
	free(prom);
	free(rules);
	rs_model_free(m);
}

/*
 * The JSON API's rows: every row top can show, under its report name,
 * over the last interval and since the start, with the seconds they cover;
 * the same numbers the catalogue gives top.
 */
static void live_rows_in_json(void **state)
{
	struct rs_model *m = full_model();
	json_t *sum = rs_json_summary(m, rs_model_time(m), NULL),
	       *snap = rs_json_snapshot(m, NULL, NULL, 0);
	const struct rs_memcg *mc = rs_model_find(m, ID);

	(void)state;
	rs_json_add_rows(sum, m, false);
	rs_json_add_rows(snap, m, true);
	assert_true(json_real_value(json_object_get(sum, "span")) == 4);
	assert_true(json_real_value(json_object_get(snap, "span")) == 2);
	for (int k = 0; k < 2; k++) {
		json_t *o = k ? snap : sum;
		json_t *e = json_array_get(json_object_get(o, "memcgs"), 0),
		       *rows = json_object_get(e, "metrics");
		struct rs_values v;
		int live = 0;

		assert_non_null(rows);
		rs_model_values(m, mc, k, -1, k ? 2 : 4, &v);
		for (int i = 0; i < rs_nr_rows; i++) {
			json_t *got = json_object_get(rows, rs_rows[i].key);
			double want = rs_row_number(&v, i);

			if (!rs_row_live(i)) {
				assert_null(got);
				continue;
			}
			live++;
			if (isnan(want))
				assert_true(json_is_null(got));
			else
				assert_float_equal(json_number_value(got), want,
						   1e-9 * fabs(want));
		}
		assert_int_equal(json_object_size(rows), live);
		/* one a person can check: reclaimed / isolated, in % */
		assert_float_equal(
			json_number_value(json_object_get(rows, "efficiency")),
			100.0 *
				json_number_value(
					json_object_get(e, "reclaimed")) /
				json_number_value(
					json_object_get(e, "isolated")),
			1e-9);
	}
	json_decref(sum);
	json_decref(snap);
	rs_model_free(m);
}

/* A line "    KEY  value" of a text table. */
static bool has_row(const char *text, const char *key)
{
	char want[96];

	snprintf(want, sizeof(want), "\n    %s ", key);
	return strstr(text, want) != NULL;
}

/* Every report row in report, report --json, the HTML report and diff. */
static void report_rows_in_report_and_diff(void **state)
{
	struct rs_model *m = full_model();
	struct rs_recording r;
	char *text = NULL, *diff = NULL, *html = NULL;
	json_t *js, *dj, *metrics = NULL, *dmetrics = NULL;
	size_t i;
	json_t *e;

	(void)state;
	recording_of(m, true, &r);
	CAPTURE(text, rs_report_text(f_, "t", &r, true));
	CAPTURE(html, assert_int_equal(rs_report_html(f_, "t", &r), 0));
	CAPTURE(diff, rs_diff_text(f_, "a", &r, "b", &r));
	js = rs_report_json("t", &r, NULL, 0);
	dj = rs_diff_json("a", &r, "b", &r, NULL, 0);
	json_array_foreach (json_object_get(js, "memcgs"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "path")),
			    PATH))
			metrics = json_object_get(e, "metrics");
	json_array_foreach (json_object_get(dj, "memcgs"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "path")),
			    PATH))
			dmetrics = json_object_get(e, "metrics");
	assert_non_null(metrics);
	assert_non_null(dmetrics);
	/* 256 file pages on the LRU at the one OOM */
	assert_true(json_real_value(json_object_get(metrics, "oom_file_lru")) ==
		    1.0);
	/* the oldest generation listed and the youngest, at that OOM */
	assert_true(json_real_value(json_object_get(
			    metrics, "oom_oldest_age")) == 900.0);
	assert_true(json_real_value(json_object_get(
			    metrics, "oom_youngest_age")) == 100.0);
	for (int i = 0; i < rs_nr_report_rows; i++) {
		const char *key = rs_rows[i].key;
		char cell[96];

		if (!has_row(text, key))
			fail_msg("report lacks %s", key);
		if (!json_is_number(json_object_get(metrics, key)))
			fail_msg("report --json: %s is not a number", key);
		if (!json_object_get(dmetrics, key))
			fail_msg("diff --json lacks %s", key);
		snprintf(cell, sizeof(cell), "<td>%s</td>", key);
		if (!strstr(html, cell))
			fail_msg("report --html lacks %s", key);
		snprintf(cell, sizeof(cell), "\n%s ", key);
		if (!strstr(diff, cell) && !has_row(diff, key))
			fail_msg("diff lacks %s", key);
	}
	json_decref(js);
	json_decref(dj);
	free(text);
	free(diff);
	free(html);
	rs_recording_free(&r);
	rs_model_free(m);
}

/* Every live row as a top column, with a value. */
static void live_rows_in_top(void **state)
{
	struct rs_model *m = full_model();
	struct rs_run_info info = {.kernel = "k"};
	struct rs_top_opts o = {0};
	char title[RS_ROW_TITLE_SIZE], *frame = NULL;

	(void)state;
	for (int i = 0; i < rs_nr_rows; i++) {
		char *line, *cell;
		const char *t;

		if (!rs_row_live(i))
			continue;
		o.cols[0] = i;
		o.nr_cols = 1;
		CAPTURE(frame, rs_top_frame(f_, m, &info, &o, 2.0));
		t = rs_row_title(i, title, sizeof(title));
		line = strstr(frame, "\nMEMCG");
		assert_non_null(line);
		if (!strstr(line, t))
			fail_msg("top lacks the column %s", t);
		line = strstr(frame, "\n" PATH " ");
		if (!line)
			fail_msg("top: no row for %s in column %s", PATH, t);
		cell = line + 1 + strlen(PATH);
		while (*cell == ' ')
			cell++;
		if (!strncmp(cell, "n/a", 3) || *cell == '-')
			fail_msg("top: %s is %.8s", t, cell);
		free(frame);
	}
	rs_model_free(m);
}

/*
 * Each row live over the run so far equals the same row from the
 * recording of it: top and report compute with the same code.
 */
static void live_equals_recorded(void **state)
{
	struct rs_model *m = full_model();
	const struct rs_memcg *mc = the_memcg(m);
	struct rs_recording r;
	struct rs_values live;

	(void)state;
	recording_of(m, false, &r);
	rs_model_values(m, mc, false, -1, rs_model_time(m), &live);
	for (int i = 0; i < rs_nr_report_rows; i++) {
		double a, b;

		if (!rs_row_live(i))
			continue;
		a = rs_row_number(&live, i);
		b = rs_rec_row_value(&r, rs_recording_find(&r, PATH), i);
		if (isnan(a) || !(fabs(a - b) <= 1e-9 * fabs(a)))
			fail_msg("%s: live %g, recorded %g", rs_rows[i].key, a,
				 b);
	}
	assert_true(rs_row_number(&live, rs_row_by_key("over_reclaim")) == 1.5);
	/* two cells, direct reclaim on node 0 and kswapd on node 1, alike */
	assert_true(rs_row_number(&live, rs_row_by_key("reclaimed_by_kswapd")) *
			    2 ==
		    live.field[RS_F_RECLAIMED]);
	assert_true(rs_row_number(&live, rs_row_by_key("reclaimed_by_memcg")) ==
		    0);
	/* each reclaimer's yield: its pages over its own pass time */
	assert_true(rs_row_number(&live, rs_row_by_key("kswapd_yield")) ==
		    live.field[RS_F_RECLAIMED] / live.field[RS_F_PASS_TIME] *
			    1e6);
	assert_true(rs_row_number(&live, rs_row_by_key("kswapd_pass_time")) *
			    2 ==
		    live.field[RS_F_PASS_TIME] / 1e6);
	rs_recording_free(&r);
	rs_model_free(m);
}

/* One node's share: per-node counts, memcg-wide values '-' not n/a. */
/* The counts over the latency budget of PATH in r: passes, direct, memcg,
 * throttles. */
static void over_counts(const struct rs_recording *r, double out[4])
{
	static const char *const keys[] = {
		"passes_over_budget", "direct_over_budget", "memcg_over_budget",
		"throttles_over_budget"};

	for (int k = 0; k < 4; k++)
		out[k] = rs_rec_row_value(r, rs_recording_find(r, PATH),
					  rs_row_by_key(keys[k]));
}

/*
 * Counts over the latency budget: the kernel's at the budget it counted
 * with; at another budget, or in a recording from before the kernel
 * counted, the event records' (records: a 9 ms pass, a 12 ms direct
 * reclaim, a 2 ms memcg reclaim, a 3 ms throttle); without records, null.
 */
static void over_budget_sources(void **state)
{
	struct rs_model *m = full_model();
	const struct rs_memcg *mc = the_memcg(m);
	struct rs_recording r;
	struct rs_values live;
	double c[4];
	char *text = NULL;

	(void)state;
	rs_model_values(m, mc, false, -1, rs_model_time(m), &live);
	/* the recording's own budget: the kernel's counts, with or without
	 * records */
	for (int with = 0; with < 2; with++) {
		recording_at(m, with, RS_DEFAULT_BUDGET_NS, 0, &r);
		over_counts(&r, c);
		assert_true(c[0] == live.field[RS_F_PASSES_OVER_BUDGET]);
		assert_true(c[1] == live.field[RS_F_DIRECT_OVER_BUDGET]);
		assert_true(c[2] == live.field[RS_F_MEMCG_OVER_BUDGET]);
		assert_true(c[3] == live.field[RS_F_THROTTLES_OVER_BUDGET]);
		assert_true(c[0] > 1);
		rs_recording_free(&r);
	}
	/* asked for it by name: the same */
	recording_at(m, false, RS_DEFAULT_BUDGET_NS, 8.3e6, &r);
	over_counts(&r, c);
	assert_true(c[1] == live.field[RS_F_DIRECT_OVER_BUDGET]);
	rs_recording_free(&r);
	/* another budget: from the records, strictly longer than it */
	recording_at(m, true, RS_DEFAULT_BUDGET_NS, 10e6, &r);
	over_counts(&r, c);
	assert_true(c[0] == 0 && c[1] == 1 && c[2] == 0 && c[3] == 0);
	rs_recording_free(&r);
	recording_at(m, true, RS_DEFAULT_BUDGET_NS, 2e6, &r);
	over_counts(&r, c);
	assert_true(c[0] == 1 && c[1] == 1 && c[2] == 0 && c[3] == 1);
	rs_recording_free(&r);
	/* before the kernel counted: the default budget, from the records */
	recording_at(m, true, 0, 0, &r);
	assert_true(r.budget_ns == RS_DEFAULT_BUDGET_NS);
	over_counts(&r, c);
	assert_true(c[0] == 1 && c[1] == 1 && c[2] == 0 && c[3] == 0);
	rs_recording_free(&r);
	/* no records, no kernel count at this budget: null, and why */
	recording_at(m, false, 0, 0, &r);
	over_counts(&r, c);
	for (int k = 0; k < 4; k++)
		assert_true(isnan(c[k]));
	rs_recording_free(&r);
	recording_at(m, false, RS_DEFAULT_BUDGET_NS, 16.7e6, &r);
	over_counts(&r, c);
	for (int k = 0; k < 4; k++)
		assert_true(isnan(c[k]));
	CAPTURE(text, rs_report_text(f_, "t", &r, true));
	if (!strstr(text, "n/a (counted over 8.3 ms)") ||
	    !strstr(text, "latency budget 16.7 ms (the kernel counted over "
			  "8.3 ms: counts n/a)"))
		fail_msg("the report does not say why: %s", text);
	free(text);
	rs_recording_free(&r);
	rs_model_free(m);
	{
		/* more direct reclaims over the budget than direct reclaims:
		 * refused */
		static const char bad[] =
			"{\"type\":\"header\",\"schema\":2,\"budget_ns\":1}\n"
			"{\"type\":\"summary\",\"duration\":1,\"memcgs\":[{"
			"\"path\":\"/a\",\"id\":5,\"direct_reclaims\":3,"
			"\"direct_over_budget\":4}]}\n";
		char err[256];
		FILE *f = fmemopen((void *)bad, sizeof(bad) - 1, "r");

		assert_int_equal(
			rs_recording_read(f, "bad", 0, &r, err, sizeof(err)),
			-1);
		assert_non_null(strstr(err, "direct_over_budget 4 over "
					    "direct_reclaims 3"));
		fclose(f);
	}
}

static void node_share(void **state)
{
	struct rs_model *m = full_model();
	const struct rs_memcg *mc = the_memcg(m);
	struct rs_values all, node;

	(void)state;
	rs_model_values(m, mc, true, -1, 2, &all);
	rs_model_values(m, mc, true, 1, 2, &node);
	assert_true(node.field[RS_F_RECLAIMED] * 2 ==
		    all.field[RS_F_RECLAIMED]);
	assert_int_equal(rs_row_eval(&node, rs_row_by_key("refaults")).state,
			 RS_VALUE_NONE);
	assert_int_equal(rs_row_eval(&node, rs_row_by_key("mem_avg")).state,
			 RS_VALUE_NONE);
	assert_int_equal(rs_row_eval(&node, rs_row_by_key("efficiency")).state,
			 RS_VALUE_OK);
	rs_model_free(m);
}

#ifdef RS_NEW_ROW_TEST
/*
 * Built with tests/unit/new_row.h's row and nothing else: the every-row
 * tests above cover it in each output; here its value, its generated rule
 * and its places.
 */
static void new_row_everywhere(void **state)
{
	struct rs_model *m = full_model();
	const struct rs_memcg *mc = rs_model_find(m, ID);
	int i = rs_row_by_key("isolated_per_pass"), rows[256], n;
	struct rs_values v;
	char *rules = NULL;

	(void)state;
	assert_true(i >= 0 && i < rs_nr_report_rows);
	rs_model_values(m, mc, false, -1, rs_model_time(m), &v);
	assert_true(v.field[RS_F_PASSES] > 0);
	assert_true(rs_row_number(&v, i) ==
		    v.field[RS_F_ISOLATED] / v.field[RS_F_PASSES]);
	CAPTURE(rules, assert_int_equal(rs_prom_rules(f_), 0));
	assert_non_null(strstr(rules, "record: memcg:reclaimscope_"
				      "isolated_per_pass:mean5m"));
	n = rs_row_list(RS_LIST_HEADLINE, rows, 256);
	assert_int_equal(rows[n - 1], i);
	n = rs_row_list(RS_LIST_TOP, rows, 256);
	assert_int_equal(rows[n - 1], i);
	free(rules);
	rs_model_free(m);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_is_whole),
		cmocka_unit_test(raw_values_in_json_and_metrics),
		cmocka_unit_test(rules_select_served_series),
		cmocka_unit_test(report_rows_in_report_and_diff),
		cmocka_unit_test(live_rows_in_top),
		cmocka_unit_test(live_rows_in_json),
		cmocka_unit_test(live_equals_recorded),
		cmocka_unit_test(over_budget_sources),
		cmocka_unit_test(node_share),
#ifdef RS_NEW_ROW_TEST
		cmocka_unit_test(new_row_everywhere),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
