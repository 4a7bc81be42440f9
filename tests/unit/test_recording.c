// SPDX-License-Identifier: GPL-2.0
/* Reading recordings back: what is refused and why, what is tolerated, and
 * the figures report and diff derive (fairness, percentiles, budgets). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>
#include "analysis.h"
#include "fields.h"
#include "recording.h"
#include "compare_view.h"
#include "report_view.h"

#define HEADER "{\"type\":\"header\",\"schema\":1,\"kernel\":\"k\"}\n"

static int read_text(const char *text, struct rs_recording *r, char *err,
		     size_t size)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = rs_recording_read(f, "t.ndjson", 8.3e6, r, err, size);
	fclose(f);
	return rc;
}

/* Refused, with the line number and a word of the reason in the message. */
static void refused(const char *text, const char *where, const char *why)
{
	struct rs_recording r;
	char err[512] = "";

	assert_int_equal(read_text(text, &r, err, sizeof(err)), -1);
	if (!strstr(err, where) || !strstr(err, why))
		fail_msg("message \"%s\" lacks \"%s\" or \"%s\"", err, where,
			 why);
}

static void refusals(void **state)
{
	(void)state;
	refused("", "t.ndjson", "empty");
	refused("{\"type\":\"snapshot\",\"t\":1,\"memcgs\":[]}\n",
		":1:", "not the header");
	refused("{\"type\":\"header\",\"schema\":6}\n", ":1:", "schema 6");
	refused(HEADER "not json\n{\"type\":\"summary\"}\n", ":2:", "not JSON");
	refused(HEADER "{\"type\":\"snapshot\",\"t\":-1,\"memcgs\":[]}\n",
		":2:", "out of range");
	refused(HEADER "{\"type\":\"snapshot\",\"t\":2,\"memcgs\":[]}\n"
		       "{\"type\":\"snapshot\",\"t\":1,\"memcgs\":[]}\n",
		":3:", "backwards");
	refused(HEADER "{\"type\":\"snapshot\",\"t\":1,\"memcgs\":[{\"id\":1,"
		       "\"scanned\":\"many\"}]}\n",
		":2:", "\"scanned\" is not a number");
	refused(HEADER "{\"type\":\"snapshot\",\"t\":1,\"memcgs\":[{\"id\":1,"
		       "\"scanned\":1e300}]}\n",
		":2:", "out of range");
	refused(HEADER "{\"type\":\"summary\",\"memcgs\":[{\"id\":1,"
		       "\"histograms\":{\"pass\":[[1000,1]]}}]}\n",
		":2:", "power of two");
	/* from schema 3 on, the bounds of 16 buckets per power of two */
	refused("{\"type\":\"header\",\"schema\":3}\n"
		"{\"type\":\"summary\",\"memcgs\":[{\"id\":1,"
		"\"histograms\":{\"pass\":[[1000,1]]}}]}\n",
		":2:", "not a bucket's upper bound");
	refused("{\"type\":\"header\",\"schema\":3}\n"
		"{\"type\":\"summary\",\"memcgs\":[{\"id\":1,"
		"\"histograms\":{\"pass\":[[274877906945,1]]}}]}\n",
		":2:", "not a bucket's upper bound");
	refused(HEADER "{\"type\":\"summary\",\"memcgs\":[{\"id\":-4}]}\n",
		":2:", "\"id\"");
	refused(HEADER "{\"type\":\"event\",\"kind\":\"shrink\",\"id\":1,"
		       "\"t\":1,\"t\":2}\n",
		":2:", "duplicate");
	refused(HEADER "{\"type\":\"summary\",\"memcgs\":[]}\n"
		       "{\"type\":\"snapshot\",\"t\":1,\"memcgs\":[]}\n",
		":3:", "after the summary");
	refused(HEADER "[1,2,3]\n", ":2:", "no \"type\"");
	/* a blank first line does not make the second one the header */
	refused("\n{\"type\":\"snapshot\",\"t\":1,\"memcgs\":[]}\n",
		":2:", "not the header");
	refused("\n\n", "t.ndjson", "no header");
	refused(HEADER "{\"type\":\"summary\",\"memcgs\":[{\"id\":1,"
		       "\"tiers\":{\"anon\":[],\"file\":[{},{},{},{},{}]}}]}\n",
		":2:", "at most 4 tiers");
	refused(HEADER
		"{\"type\":\"summary\",\"memcgs\":[{\"id\":1,"
		"\"tiers\":{\"anon\":[{\"evicted\":-1}],\"file\":[]}}]}\n",
		":2:", "\"evicted\" is out of range");
	/* a memcg's summary entry twice: whose counts would they be? */
	refused(HEADER "{\"type\":\"summary\",\"memcgs\":[{\"id\":1},"
		       "{\"id\":1}]}\n",
		":2:", "listed twice");
	/* counts that would wrap when summed */
	refused(HEADER "{\"type\":\"summary\",\"memcgs\":[{\"id\":1,"
		       "\"histograms\":{\"pass\":[[1024,9000000000000000000],"
		       "[1024,9000000000000000000]]}}]}\n",
		":2:", "count over");
}

/*
 * diff: a path in one recording only is listed, not dropped; a path that
 * several memcgs had in turn pairs them in order; a cut-short recording is
 * said to be one.
 */
static void diff_sides(void **state)
{
	const char *a_text =
		HEADER "{\"type\":\"snapshot\",\"t\":1,\"memcgs\":["
		       "{\"id\":1,\"path\":\"/x\",\"scanned\":1},"
		       "{\"id\":2,\"path\":\"/dup\",\"scanned\":2},"
		       "{\"id\":3,\"path\":\"/dup\",\"scanned\":3}]}\n";
	const char *b_text =
		HEADER "{\"type\":\"summary\",\"duration\":1,\"memcgs\":["
		       "{\"id\":4,\"path\":\"/y\",\"scanned\":1},"
		       "{\"id\":5,\"path\":\"/dup\",\"scanned\":20},"
		       "{\"id\":6,\"path\":\"/dup\",\"scanned\":30},"
		       "{\"id\":7,\"path\":\"/dup\",\"scanned\":40}]}\n";
	struct rs_recording a, b;
	char err[512];
	json_t *d, *m;
	const char *paths[8];
	size_t n;

	(void)state;
	assert_int_equal(read_text(a_text, &a, err, sizeof(err)), 0);
	assert_int_equal(read_text(b_text, &b, err, sizeof(err)), 0);
	d = rs_diff_json("a", &a, "b", &b, NULL, 0);
	assert_true(json_is_true(
		json_object_get(json_object_get(d, "cut_short"), "a")));
	assert_true(json_is_false(
		json_object_get(json_object_get(d, "cut_short"), "b")));
	assert_int_equal(json_array_size(json_object_get(d, "only_in_a")), 1);
	assert_string_equal(json_string_value(json_array_get(
				    json_object_get(d, "only_in_a"), 0)),
			    "/x");
	assert_int_equal(json_array_size(json_object_get(d, "only_in_b")), 2);
	m = json_object_get(d, "memcgs");
	n = json_array_size(m);
	assert_int_equal(n, 3); /* the totals and two /dup pairs */
	for (size_t i = 0; i < n; i++)
		paths[i] = json_string_value(
			json_object_get(json_array_get(m, i), "path"));
	assert_string_equal(paths[1], "/dup (1 of 3)");
	assert_string_equal(paths[2], "/dup (2 of 3)");
	/* the second /dup of A is compared with the second of B */
	assert_true(
		json_real_value(json_object_get(
			json_object_get(json_object_get(json_array_get(m, 2),
							"metrics"),
					"scanned"),
			"b")) == 30);
	json_decref(d);
	rs_recording_free(&a);
	rs_recording_free(&b);
}

/* A line longer than the reader's bound is refused once the bound is
 * read, not after the whole line is held. */
static void long_line(void **state)
{
	size_t n = (16 << 20) + 4096;
	char *text = malloc(sizeof(HEADER) + n + 2);

	(void)state;
	assert_non_null(text);
	strcpy(text, HEADER);
	memset(text + strlen(HEADER), ' ', n);
	strcpy(text + strlen(HEADER) + n, "\n");
	refused(text, ":2:", "a line of over");
	free(text);
}

/* Memcgs in any order of id: found again, and sorted in the result. */
static void many_memcgs(void **state)
{
	size_t n = 20000, len = 0, cap = 64 * n + 256;
	char *text = malloc(cap), err[512];
	struct rs_recording r;

	(void)state;
	assert_non_null(text);
	len += (size_t)snprintf(text, cap, "%s", HEADER);
	for (int pass = 0; pass < 2; pass++) {
		len += (size_t)snprintf(text + len, cap - len,
					"{\"type\":\"snapshot\",\"t\":%d,"
					"\"memcgs\":[",
					pass + 1);
		for (size_t i = 0; i < n; i++)
			len += (size_t)snprintf(text + len, cap - len,
						"%s{\"id\":%zu,\"scanned\":1}",
						i ? "," : "",
						n - i); /* descending */
		len += (size_t)snprintf(text + len, cap - len, "]}\n");
	}
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nr_memcgs, n);
	/*
	 * 2n lookups, n inserts and the rehashes as the table doubles: a few
	 * slots each, in descending order as in ascending (a scan of a list,
	 * or a sorted array kept by insertion, would look at ~n per lookup)
	 */
	if (r.index_probes > 16 * n)
		fail_msg("%zu slots looked at for %zu memcgs", r.index_probes,
			 n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(r.memcgs[i].id, i + 1);
		assert_true(r.memcgs[i].total[RS_F_SCANNED] == 2);
	}
	rs_recording_free(&r);
	free(text);
}

static void tolerated(void **state)
{
	struct rs_recording r;
	char err[512];
	const char *text = HEADER
		"{\"type\":\"future\",\"x\":1}\n" /* a newer line type */
		"{\"type\":\"snapshot\",\"t\":1,\"new_key\":[1],\"memcgs\":["
		"{\"id\":5,\"path\":\"/a\",\"scanned\":10,\"reclaimed\":4,"
		"\"agings\":null}]}\n"
		"{\"type\":\"snapshot\",\"t\":2,\"memcgs\":[{\"id\":5,"
		"\"path\":\"/a\",\"scanned\":20,\"reclaimed\":6}]}\n"
		"{\"type\":\"snapshot\",\"t\":3,\"memc"; /* cut short */

	(void)state;
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	assert_false(r.has_summary);
	assert_int_equal(r.nr_memcgs, 1);
	/* no summary: totals are the snapshots' sums */
	assert_true(r.memcgs[0].total[RS_F_SCANNED] == 30);
	assert_true(r.memcgs[0].total[RS_F_RECLAIMED] == 10);
	assert_true(isnan(r.memcgs[0].total[RS_F_AGINGS])); /* null: unknown */
	assert_int_equal(r.memcgs[0].nr_points, 2);
	assert_true(r.memcgs[0].points[1].rate[RS_SERIES_SCANNED] == 20);
	rs_recording_free(&r);
}

/* The tiers of a summary come back as written, and feed the PID rows. */
static void tiers(void **state)
{
	struct rs_recording r;
	char err[512];
	const char *text = HEADER
		"{\"type\":\"summary\",\"memcgs\":[{\"id\":1,"
		"\"path\":\"/a\",\"tiers\":{\"anon\":[{\"refaulted\":1,"
		"\"evicted\":2,\"protected\":0,\"avg_refaulted\":3,"
		"\"avg_total\":6}],\"file\":[{\"refaulted\":0,\"evicted\":10,"
		"\"protected\":0,\"avg_refaulted\":0,\"avg_total\":0},"
		"{\"protected\":7}]}},{\"id\":2,\"path\":\"/b\","
		"\"tiers\":null}]}\n";

	(void)state;
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nr_memcgs, 2);
	assert_true(r.memcgs[0].has_tiers);
	assert_int_equal(r.memcgs[0].tiers.nr_tiers, 2);
	assert_int_equal(r.memcgs[0].tiers.v[1][1][RS_TIER_PROTECTED], 7);
	/* (3 + 1) / (6 + 2 + 0) */
	assert_true(rs_tiers_refault_pct(&r.memcgs[0].tiers, 0, 0) == 50.0);
	assert_true(rs_tiers_refault_pct(&r.memcgs[0].tiers, 1, 0) == 0.0);
	assert_true(isnan(rs_tiers_refault_pct(&r.memcgs[0].tiers, 0, 1)));
	assert_false(r.memcgs[1].has_tiers);
	rs_recording_free(&r);
}

/* A snapshot at t with lru_gens entries (' for "). */
#define GSNAP(t, entries)                                                      \
	"{\"type\":\"snapshot\",\"t\":" #t                                     \
	",\"memcgs\":[],\"lru_gens\":" entries "}\n"

/* Timelines read back: a memcg's samples in order, an end, MGLRU off
 * (null), a memcg whose timeline resumes; figures as the model's. */
static void gens_timelines(void **state)
{
	struct rs_recording r;
	struct rs_values v;
	char err[512] = "";
	/* 3 alive (5..7) at t 1, seq 8 born at t 3 (7 closed with 7 + 70
	 * pages), MGLRU off at t 4, back at t 6 with 2 alive, held to t 8 */
	const char *text =
		"{\"type\":\"header\",\"schema\":5,\"kernel\":\"k\"}\n" GSNAP(
			1,
			"[{\"id\":1,\"path\":\"/a\",\"node\":0,\"t\":1,"
			"\"min_seq\":{\"anon\":5,\"file\":5},\"max_seq\":7,"
			"\"gens\":[{\"seq\":5,\"age_ms\":3000,\"anon\":5,"
			"\"file\":50},{\"seq\":6,\"age_ms\":2000,\"anon\":6,"
			"\"file\":60},{\"seq\":7,\"age_ms\":500,\"anon\":7,"
			"\"file\":70}]}]") GSNAP(3,
						 "[{\"id\":1,\"path\":\"/"
						 "a\",\"node\":0,\"t\":3,"
						 "\"min_seq\":{\"anon\":6,"
						 "\"file\":6},\"max_seq\":8,"
						 "\"gens\":[{\"seq\":6,\"age_"
						 "ms\":4000,\"anon\":6,"
						 "\"file\":60},{\"seq\":7,"
						 "\"age_ms\":2500,\"anon\":7,"
						 "\"file\":70},{\"seq\":8,"
						 "\"age_ms\":1000,\"anon\":0,"
						 "\"file\":1}]}]") GSNAP(4,
									 "null")
			GSNAP(6,
			      "[{\"id\":1,\"path\":\"/a\",\"node\":0,\"t\":6,"
			      "\"min_seq\":{\"anon\":9,\"file\":9},\"max_seq\":"
			      "10,"
			      "\"gens\":[{\"seq\":9,\"age_ms\":null,\"anon\":1,"
			      "\"file\":1},{\"seq\":10,\"age_ms\":null,"
			      "\"anon\":1,"
			      "\"file\":1}]}]") "{\"type\":\"snapshot\",\"t\":"
						"8,\"memcgs\":[]}\n";
	const struct rs_rec_memcg *m;

	(void)state;
	if (read_text(text, &r, err, sizeof(err)))
		fail_msg("%s", err);
	m = rs_recording_find(&r, "/a");
	assert_non_null(m);
	assert_true(m->has_gens);
	rs_rec_values(&r, m, &v);
	/* held: 3 alive 1..3 and 3..4 (off at 4), 2 alive 6..8 */
	assert_true(fabs(rs_gens_figure(&v.gens, RS_GENS_ALIVE_MEAN) -
			 (3 * 3 + 2 * 2) / 5.0) < 1e-9);
	assert_true(rs_gens_figure(&v.gens, RS_GENS_ALIVE_MIN) == 2);
	/* births: 6 and 7 (gaps 1 s and 1.5 s) at t 1, 8 (1.5 s) at t 3;
	 * none at t 6 (ages unknown) */
	assert_true(fabs(rs_gens_figure(&v.gens, RS_GENS_AGING_INTERVAL) -
			 4000.0 / 3) < 1e-9);
	assert_true(rs_gens_figure(&v.gens, RS_GENS_PAGES_AT_AGING) == 77);
	rs_recording_free(&r);
	/* seqs 0..3, stamped together when the lruvec was made, are no
	 * agings (a memcg that never aged read an interval of 0 ms), nor is
	 * seq 4's gap from seq 3 (the lruvec's age at its first aging) */
	assert_int_equal(
		read_text("{\"type\":\"header\",\"schema\":5,\"kernel\":"
			  "\"k\"}\n" GSNAP(
				  1,
				  "[{\"id\":1,\"path\":\"/a\",\"node\":0,"
				  "\"t\":1,\"min_seq\":{\"anon\":1,\"file\":1},"
				  "\"max_seq\":4,\"gens\":[{\"seq\":1,"
				  "\"age_ms\":900,\"anon\":1,\"file\":1},"
				  "{\"seq\":2,\"age_ms\":900,\"anon\":1,"
				  "\"file\":1},{\"seq\":3,\"age_ms\":900,"
				  "\"anon\":1,\"file\":1},{\"seq\":4,"
				  "\"age_ms\":100,\"anon\":1,\"file\":1}]}]"),
			  &r, err, sizeof(err)),
		0);
	m = rs_recording_find(&r, "/a");
	assert_non_null(m);
	rs_rec_values(&r, m, &v);
	assert_true(isnan(rs_gens_figure(&v.gens, RS_GENS_AGING_INTERVAL)));
	assert_true(rs_gens_figure(&v.gens, RS_GENS_ALIVE_MIN) == 4);
	rs_recording_free(&r);
	/* none read: unknown */
	assert_int_equal(read_text(HEADER "{\"type\":\"snapshot\",\"t\":1,"
					  "\"memcgs\":[{\"id\":1}]}\n",
				   &r, err, sizeof(err)),
			 0);
	rs_rec_values(&r, &r.memcgs[0], &v);
	assert_false(v.has_gens);
	rs_recording_free(&r);
}

static void gens_refusals(void **state)
{
	(void)state;
	refused(HEADER GSNAP(1, "{}"), ":2:", "not an array");
	refused(HEADER GSNAP(1, "[{\"id\":1,\"t\":1}]"), ":2:", "\"node\"");
	refused(HEADER GSNAP(1, "[{\"id\":1,\"node\":0,\"t\":1}]"),
		":2:", "needs");
	refused(HEADER GSNAP(1, "[{\"id\":1,\"node\":0,\"t\":1,\"min_seq\":"
				"{\"anon\":1,\"file\":1},\"max_seq\":2,"
				"\"gens\":[{\"seq\":2,\"anon\":0,\"file\":0},"
				"{\"seq\":1,\"anon\":0,\"file\":0}]}]"),
		":2:", "not in order");
	refused(HEADER GSNAP(1,
			     "[{\"id\":1,\"node\":0,\"t\":1,\"min_seq\":"
			     "{\"anon\":1,\"file\":1},\"max_seq\":3,"
			     "\"gens\":[{\"seq\":1,\"anon\":0,\"file\":0}]}]"),
		":2:", "max_seq");
	refused(HEADER GSNAP(1, "[{\"id\":1,\"node\":0,\"t\":1,\"min_seq\":"
				"{\"anon\":1.5,\"file\":1},\"max_seq\":3,"
				"\"gens\":[]}]"),
		":2:", "whole");
	refused(HEADER GSNAP(1,
			     "[{\"id\":1,\"node\":0,\"t\":1,\"min_seq\":"
			     "{\"anon\":1,\"file\":1},\"max_seq\":5,\"gens\":"
			     "[{},{},{},{},{}]}]"),
		":2:", "more than");
	refused(HEADER GSNAP(1, "[{\"id\":1,\"node\":0,\"t\":1,\"min_seq\":"
				"{\"anon\":1,\"file\":1},\"max_seq\":1,"
				"\"gens\":[]}]"),
		":2:", "without generations");
	refused(HEADER GSNAP(2,
			     "[{\"id\":1,\"node\":0,\"t\":2,\"min_seq\":"
			     "{\"anon\":1,\"file\":1},\"max_seq\":1,"
			     "\"gens\":[{\"seq\":1,\"anon\":0,\"file\":0}]}]")
			GSNAP(3,
			      "[{\"id\":1,\"node\":0,\"t\":1,\"min_seq\":"
			      "{\"anon\":1,\"file\":1},\"max_seq\":2,"
			      "\"gens\":[{\"seq\":2,\"anon\":0,\"file\":0}]}]"),
		":3:", "back in time");
	/* an end names its node */
	refused(HEADER GSNAP(1, "[{\"id\":1,\"end\":true}]"),
		":2:", "\"node\"");
}

/* The picture's points: the oldest kept when they are thinned, marks
 * kept, MGLRU off drawn as nothing alive. */
static void gens_points(void **state)
{
	char *text = NULL, err[512] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct rs_recording r;
	const struct rs_rec_memcg *m;
	int aged = 0;

	(void)state;
	assert_non_null(f);
	fprintf(f, "{\"type\":\"header\",\"schema\":5,\"kernel\":\"k\"}\n");
	for (int i = 1; i <= 600; i++)
		fprintf(f,
			"{\"type\":\"snapshot\",\"t\":%d,\"memcgs\":[],"
			"\"lru_gens\":[{\"id\":1,\"path\":\"/a\",\"node\":0,"
			"\"t\":%d,\"min_seq\":{\"anon\":%d,\"file\":%d},"
			"\"max_seq\":%d,\"gens\":[{\"seq\":%d,\"age_ms\":"
			"1000,\"anon\":1,\"file\":2},{\"seq\":%d,\"age_ms\":0,"
			"\"anon\":3,\"file\":4}]}]}\n",
			i, i, i, i, i + 1, i, i + 1);
	fprintf(f, "{\"type\":\"snapshot\",\"t\":601,\"memcgs\":[],"
		   "\"lru_gens\":null}\n");
	assert_int_equal(fclose(f), 0);
	f = fmemopen(text, len, "r");
	assert_non_null(f);
	if (rs_recording_read(f, "t.ndjson", 0, &r, err, sizeof(err)))
		fail_msg("%s", err);
	fclose(f);
	free(text);
	m = rs_recording_find(&r, "/a");
	assert_non_null(m);
	assert_true(m->nr_gpoints > 100 && m->nr_gpoints <= RS_GENS_POINTS);
	assert_true(m->gpoints[0].t == 1);
	/* the youngest (rank 0) 3 anon and 4 file, the one before 1 and 2 */
	assert_true(m->gpoints[0].anon[0] == 3 && m->gpoints[0].file[1] == 2);
	assert_int_equal(m->gpoints[0].nr, 2);
	for (size_t i = 0; i < m->nr_gpoints; i++) {
		assert_true(i == 0 || m->gpoints[i].t > m->gpoints[i - 1].t);
		aged += m->gpoints[i].aged;
	}
	/* every sample after the first aged: thinned, still marked */
	assert_true(aged >= (int)m->nr_gpoints - 2);
	assert_true(m->gpoints[m->nr_gpoints - 1].t == 601);
	assert_int_equal(m->gpoints[m->nr_gpoints - 1].nr, 0);
	rs_recording_free(&r);
}

/* The LRU at OOM: a mean over the records that have generations. */
static void oom_means(void **state)
{
	struct rs_recording r;
	struct rs_values v;
	char err[512];
	const char *text = HEADER
		"{\"type\":\"event\",\"kind\":\"oom\",\"id\":1,"
		"\"t\":1,\"generations\":[{\"seq\":1,\"anon\":512,"
		"\"file\":256}]}\n"
		"{\"type\":\"event\",\"kind\":\"oom\",\"id\":1,\"t\":2}\n"
		"{\"type\":\"summary\",\"memcgs\":[{\"id\":1,\"ooms\":2}]}\n";

	(void)state;
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nr_memcgs, 1);
	rs_rec_values(&r, &r.memcgs[0], &v);
	/* 512 pages of 4 KiB: 2 MiB, over one record, not two */
	assert_true(v.event_value[RS_EVV_OOM_ANON_MIB] == 2.0);
	assert_true(v.event_value[RS_EVV_OOM_FILE_MIB] == 1.0);
	rs_recording_free(&r);
}

/*
 * MGLRU off (the header's, then a snapshot's "mglru"): an OOM record's
 * generations are lrugen's stale state (recorders before 2026-12-07 wrote
 * them), left out; on again, counted.
 */
static void oom_generations_while_mglru_off(void **state)
{
	struct rs_recording r;
	struct rs_values v;
	char err[512];
	const char *text =
		"{\"type\":\"header\",\"schema\":1,\"kernel\":\"k\","
		"\"mglru\":false}\n"
		"{\"type\":\"event\",\"kind\":\"oom\",\"id\":1,"
		"\"t\":1,\"generations\":[{\"seq\":1,\"anon\":0,"
		"\"file\":0,\"age_ms\":742639}]}\n"
		"{\"type\":\"snapshot\",\"t\":2,\"memcgs\":[],"
		"\"mglru\":true}\n"
		"{\"type\":\"event\",\"kind\":\"oom\",\"id\":1,"
		"\"t\":3,\"generations\":[{\"seq\":1,\"anon\":512,"
		"\"file\":256,\"age_ms\":40},{\"seq\":2,\"anon\":0,"
		"\"file\":0,\"age_ms\":10}]}\n"
		"{\"type\":\"summary\",\"memcgs\":[{\"id\":1,\"ooms\":2}]}\n";

	(void)state;
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	rs_rec_values(&r, &r.memcgs[0], &v);
	/* the second record's alone: 2 MiB anon, 1 MiB file, 40 ms */
	assert_true(v.event_value[RS_EVV_OOM_ANON_MIB] == 2.0);
	assert_true(v.event_value[RS_EVV_OOM_FILE_MIB] == 1.0);
	assert_true(v.event_value[RS_EVV_OOM_OLDEST_AGE_MS] == 40.0);
	assert_true(v.event_value[RS_EVV_OOM_YOUNGEST_AGE_MS] == 10.0);
	rs_recording_free(&r);
}

/*
 * Pages turn into bytes by the recorded kernel's page size (arm64: 16 or
 * 64 KiB), whatever machine reads the recording; a recording that does not
 * say (made before 2026-12-07, on x86-64) is read as 4 KiB, and says so.
 */
static void page_size_of_the_recording(void **state)
{
	struct rs_recording r;
	struct rs_values v;
	char err[512];
	const char *oom = "{\"type\":\"event\",\"kind\":\"oom\",\"id\":1,"
			  "\"t\":1,\"generations\":[{\"seq\":1,\"anon\":512,"
			  "\"file\":256}]}\n"
			  "{\"type\":\"summary\",\"memcgs\":[{\"id\":1}]}\n";
	char text[1024];

	(void)state;
	snprintf(text, sizeof(text),
		 "{\"type\":\"header\",\"schema\":1,\"kernel\":\"k\","
		 "\"page_size\":16384}\n%s",
		 oom);
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	assert_true(r.page_size == 16384 && r.page_size_said);
	rs_rec_values(&r, &r.memcgs[0], &v);
	/* 512 pages of 16 KiB: 8 MiB (4 KiB pages would say 2) */
	assert_true(v.event_value[RS_EVV_OOM_ANON_MIB] == 8.0);
	assert_true(v.event_value[RS_EVV_OOM_FILE_MIB] == 4.0);
	rs_recording_free(&r);

	snprintf(text, sizeof(text), HEADER "%s", oom);
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	assert_true(r.page_size == 4096 && !r.page_size_said);
	rs_rec_values(&r, &r.memcgs[0], &v);
	assert_true(v.event_value[RS_EVV_OOM_ANON_MIB] == 2.0);
	rs_recording_free(&r);

	refused("{\"type\":\"header\",\"schema\":1,\"page_size\":3000}\n",
		":1:", "page_size");
	refused("{\"type\":\"header\",\"schema\":1,\"page_size\":512}\n",
		":1:", "page_size");
	refused("{\"type\":\"header\",\"schema\":1,\"page_size\":2097152}"
		"\n",
		":1:", "page_size");
	refused("{\"type\":\"header\",\"schema\":1,\"page_size\":\"4K\"}\n",
		":1:", "page_size");
}

static void jain(void **state)
{
	double equal[] = {3, 3, 3, 3}, one[] = {1, 0, 0, 0},
	       ramp[] = {1, 2, 3, 4};

	(void)state;
	assert_true(fabs(rs_jain(equal, 4) - 1.0) < 1e-12);
	assert_true(fabs(rs_jain(one, 4) - 0.25) < 1e-12);
	/* (1+2+3+4)^2 / (4 * (1+4+9+16)) = 100 / 120 */
	assert_true(fabs(rs_jain(ramp, 4) - 100.0 / 120) < 1e-12);
	assert_true(isnan(rs_jain(one, 0)));
}

static int metric(const char *name)
{
	for (int i = 0; i < rs_nr_rows; i++)
		if (!strcmp(rs_rows[i].key, name))
			return i;
	fail_msg("no metric %s", name);
	return -1;
}

/* Two leaf memcgs and their parent: fairness over the leaves only. */
static void figures(void **state)
{
	struct rs_recording r;
	const struct rs_rec_memcg *a;
	char err[512];
	const char *text = HEADER
		"{\"type\":\"event\",\"kind\":\"shrink\",\"id\":2,\"t\":1,"
		"\"duration_ns\":9000000,\"budget\":100,\"budget_used\":150}\n"
		"{\"type\":\"event\",\"kind\":\"shrink\",\"id\":2,\"t\":1,"
		"\"duration_ns\":1000000,\"budget\":100,\"budget_used\":50}\n"
		"{\"type\":\"event\",\"kind\":\"reclaim\",\"id\":2,\"t\":1,"
		"\"reclaimer\":\"memcg\",\"duration_ns\":2000000,"
		"\"nr_reclaimed\":64,\"nr_to_reclaim\":32}\n"
		"{\"type\":\"summary\",\"duration\":10,\"drops\":0,\"memcgs\":["
		"{\"id\":1,\"path\":\"/p\",\"reclaimed\":100,\"isolated\":100,"
		"\"mem_current_avg\":8192000},"
		"{\"id\":2,\"path\":\"/p/"
		"a\",\"reclaimed\":100,\"isolated\":400,"
		/* the reclaim record's 64 of 32, as the kernel counted it */
		"\"goal_reclaims\":1,\"goal_ratio\":2.0,"
		"\"mem_current_avg\":4096000,\"histograms\":{\"pass\":"
		"[[1048576,1],[16777216,1]],\"direct_reclaim\":null}},"
		"{\"id\":3,\"path\":\"/p/"
		"b\",\"reclaimed\":300,\"isolated\":300,"
		"\"mem_current_avg\":4096000}]}\n";
	int n;

	(void)state;
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	a = rs_recording_find(&r, "/p/a");
	assert_non_null(a);
	/* x = 100/1000 and 300/1000 pages per page held: J = 0.16/(2*0.1) */
	assert_true(fabs(rs_fairness(&r, &n) - 0.8) < 1e-12);
	assert_int_equal(n, 2);
	assert_true(rs_rec_row_value(&r, a, metric("efficiency")) == 25);
	/* the p99 bucket bound (16.8 ms) is capped by the longest pass, 9 ms */
	assert_true(rs_rec_row_value(&r, a, metric("pass_p99")) == 9);
	assert_true(rs_rec_row_value(&r, a, metric("pass_p50")) ==
		    1048576 / 1e6);
	assert_true(rs_rec_row_value(&r, a, metric("passes_over_budget")) == 1);
	assert_true(rs_rec_row_value(&r, a, metric("memcg_max")) == 2);
	assert_true(rs_rec_row_value(&r, a, metric("over_reclaim")) == 2);
	assert_true(isnan(rs_rec_row_value(&r, a, metric("direct_p99"))));
	assert_int_equal(a->budget_use[15], 1); /* 150 % */
	assert_int_equal(a->budget_use[5], 1);	/* 50 % */
	rs_recording_free(&r);
}

/*
 * Schema 3's log-linear buckets give quantiles inside a bucket; the same
 * counts in a schema 2 recording are log2 buckets, whose quantile is the
 * power of two.
 */
static void loglinear_quantiles(void **state)
{
	static const char *const body =
		"{\"type\":\"summary\",\"duration\":1,\"memcgs\":[{\"id\":1,"
		"\"path\":\"/a\",\"histograms\":{\"pass\":[[8388608,100]],"
		"\"memcg_reclaim\":[[8126464,50],[8388608,50]]}}]}\n";
	struct rs_recording r;
	const struct rs_rec_memcg *a;
	char err[256], text[1024];

	(void)state;
	snprintf(text, sizeof(text), "%s%s",
		 "{\"type\":\"header\",\"schema\":3}\n", body);
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	a = rs_recording_find(&r, "/a");
	assert_non_null(a);
	/* (8126464, 8388608] ns: rank 50 of 100 halfway in */
	assert_float_equal(rs_rec_row_value(&r, a, metric("pass_p50")),
			   8.257536, 1e-12);
	assert_float_equal(rs_rec_row_value(&r, a, metric("pass_p99")),
			   8.126464 + 0.262144 * 0.99, 1e-12);
	/* rank 50 of 100 is the last of the first bucket: its bound */
	assert_float_equal(rs_rec_row_value(&r, a, metric("memcg_p50")),
			   8.126464, 1e-12);
	rs_recording_free(&r);
	snprintf(text, sizeof(text), "%s%s",
		 "{\"type\":\"header\",\"schema\":2}\n", body);
	/* 8126464 is no power of two: a schema 2 recording cannot have it */
	assert_int_equal(read_text(text, &r, err, sizeof(err)), -1);
	snprintf(text, sizeof(text), "%s%s",
		 "{\"type\":\"header\",\"schema\":2}\n",
		 "{\"type\":\"summary\",\"duration\":1,\"memcgs\":[{\"id\":1,"
		 "\"path\":\"/a\",\"histograms\":{\"pass\":"
		 "[[8388608,100]]}}]}\n");
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	a = rs_recording_find(&r, "/a");
	assert_true(rs_rec_row_value(&r, a, metric("pass_p50")) == 8.388608);
	rs_recording_free(&r);
}

/*
 * The total of a memcg's own counters: on cgroup v2 a parent's memory.stat
 * and memory.events include its children's, so the total takes the
 * top-most listed memcgs only; on v1 each memcg's are its own.
 */
static void nested_total(void **state)
{
	static const char *const body =
		"{\"type\":\"summary\",\"duration\":1,\"memcgs\":["
		"{\"id\":1,\"path\":\"/t\",\"reclaimed\":5,"
		"\"refaults_anon\":10,\"oom_kills\":1},"
		"{\"id\":2,\"path\":\"/t/c\",\"reclaimed\":3,"
		"\"refaults_anon\":4,\"oom_kills\":1},"
		"{\"id\":3,\"path\":\"/tt\",\"reclaimed\":1,"
		"\"refaults_anon\":2,\"oom_kills\":0}]}\n";
	static const char *const headers[] = {
		"{\"type\":\"header\",\"schema\":2,\"cgroup_version\":2}\n",
		"{\"type\":\"header\",\"schema\":2,\"cgroup_version\":1}\n",
	};
	static const double refaults[] = {12, 16}, ooms[] = {1, 2};

	(void)state;
	for (int v = 0; v < 2; v++) {
		struct rs_recording r;
		struct rs_rec_memcg t;
		char text[1024], err[256];

		snprintf(text, sizeof(text), "%s%s", headers[v], body);
		assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
		rs_recording_total(&r, &t);
		/* the kernel's per-LRU counters are every memcg's own */
		assert_true(t.total[RS_F_RECLAIMED] == 9);
		assert_true(t.total[RS_F_REFAULTS_ANON] == refaults[v]);
		assert_true(t.total[RS_F_OOM_KILLS] == ooms[v]);
		rs_rec_memcg_release(&t);
		rs_recording_free(&r);
	}
	/*
	 * cgroup v2's root listed (the lab's aging run on 6.18): it has no
	 * memory.events, so its OOM kills are unknown, whatever the file
	 * says (recordings before said 0), and /a's stand for the total;
	 * its refaults (memory.stat) are known and include /a's
	 */
	for (int v = 0; v < 2; v++) {
		struct rs_recording r;
		struct rs_rec_memcg t;
		char text[1024], err[256];

		snprintf(text, sizeof(text),
			 "{\"type\":\"header\",\"schema\":4,"
			 "\"cgroup_version\":2}\n"
			 "{\"type\":\"summary\",\"duration\":1,\"memcgs\":["
			 "{\"id\":1,\"path\":\"/\",\"refaults_file\":100,"
			 "\"oom_kills\":%s},"
			 "{\"id\":2,\"path\":\"/a\",\"refaults_file\":100,"
			 "\"oom_kills\":13}]}\n",
			 v ? "0" : "null");
		assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
		assert_true(isnan(
			rs_recording_find(&r, "/")->total[RS_F_OOM_KILLS]));
		rs_recording_total(&r, &t);
		assert_true(t.total[RS_F_OOM_KILLS] == 13);
		assert_true(t.total[RS_F_REFAULTS_FILE] == 100);
		rs_rec_memcg_release(&t);
		rs_recording_free(&r);
	}
}

/* A recording cut short: the drops its snapshots counted stand for the
 * summary's, so figures that need every event are not guessed. */
static void cut_short_drops(void **state)
{
	struct rs_recording r;
	char err[512];
	const char *text = HEADER
		"{\"type\":\"event\",\"kind\":\"shrink\",\"id\":2,\"t\":0.5,"
		"\"duration_ns\":9000000,\"budget\":100,\"budget_used\":150}\n"
		"{\"type\":\"snapshot\",\"t\":1,\"memcgs\":[{\"id\":2,"
		"\"path\":\"/a\",\"shrinks\":2}],\"drops\":3,\"missed\":1,"
		"\"agg_full\":0}\n"
		"{\"type\":\"snapshot\",\"t\":2,\"memcgs\":[],\"drops\":2,"
		"\"missed\":0,\"agg_full\":4}\n";

	(void)state;
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	assert_false(r.has_summary);
	assert_int_equal(r.drops, 5);
	assert_int_equal(r.missed, 1);
	assert_int_equal(r.agg_full, 4);
	/* one of two passes has its record: the longest is not known */
	assert_true(isnan(rs_rec_row_value(&r, rs_recording_find(&r, "/a"),
					   metric("pass_max"))));
	rs_recording_free(&r);
	/* an earlier version's negative interval of lost events: read, the
	 * summary's count stands */
	assert_int_equal(
		read_text(HEADER
			  "{\"type\":\"snapshot\",\"t\":1,\"memcgs\":[],"
			  "\"missed\":3}\n"
			  "{\"type\":\"snapshot\",\"t\":2,\"memcgs\":[],"
			  "\"missed\":-3}\n"
			  "{\"type\":\"summary\",\"duration\":2,\"missed\":0,"
			  "\"memcgs\":[]}\n",
			  &r, err, sizeof(err)),
		0);
	assert_int_equal(r.missed, 0);
	rs_recording_free(&r);
}

/* A workload's own outcome: merged per workload and worker, as metrics. */
static void outcomes(void **state)
{
	struct rs_recording r;
	struct rs_rec_memcg total;
	const struct rs_rec_memcg *w0;
	char err[512];
	const char *text = HEADER
		"{\"type\":\"outcome\",\"workload\":\"ycsb\",\"memcg\":\"/y\","
		"\"ops_per_s\":1000,\"lat_p99_ms\":4.5,"
		"\"lat_hist\":[[1048576,3],[2097152,1]]}\n"
		"{\"type\":\"outcome\",\"workload\":\"ycsb\",\"exit_status\":0,"
		"\"oom_killed\":false}\n"
		/* lab.sh's line of what the machine read and wrote, merged */
		"{\"type\":\"outcome\",\"workload\":\"ycsb\","
		"\"pgpgin_kib\":123456,\"pgpgout_kib\":789}\n"
		"{\"type\":\"outcome\",\"workload\":\"t\",\"worker\":0,"
		"\"memcg\":\"/w0\",\"progress\":100}\n"
		"{\"type\":\"outcome\",\"workload\":\"t\",\"worker\":1,"
		"\"memcg\":\"/w1\",\"progress\":300,\"exit_status\":137,"
		"\"oom_killed\":true}\n"
		"{\"type\":\"outcome\",\"workload\":\"t\",\"worker\":2,"
		"\"memcg\":\"/w2\",\"exit_status\":1}\n"
		"{\"type\":\"summary\",\"duration\":10,\"memcgs\":["
		"{\"id\":2,\"path\":\"/w0\",\"reclaimed\":1}]}\n";

	(void)state;
	assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
	/* two lines of ycsb's whole merged into one entry */
	assert_int_equal(r.nr_outcomes, 4);
	assert_true(r.outcomes[0].v[RS_OUT_EXIT_STATUS] == 0);
	assert_true(r.outcomes[0].lat_hist_known);
	assert_int_equal(r.outcomes[0].lat_hist[20], 3);
	rs_recording_total(&r, &total);
	assert_true(rs_rec_row_value(&r, &total, metric("ops_per_s")) == 1000);
	assert_true(rs_rec_row_value(&r, &total, metric("lat_p99")) == 4.5);
	assert_true(rs_rec_row_value(&r, &total, metric("pgpgin")) == 123456);
	assert_true(rs_rec_row_value(&r, &total, metric("pgpgout")) == 789);
	assert_true(rs_rec_row_value(&r, &total, metric("worker_progress")) ==
		    200);
	/* Jain's index of 100 and 300: 400^2 / (2 * 100000) */
	assert_true(
		fabs(rs_rec_row_value(&r, &total, metric("worker_fairness")) -
		     0.8) < 1e-12);
	assert_true(rs_rec_row_value(&r, &total, metric("oom_killed")) == 1);
	/* worker 2 exited 1 without an OOM kill; worker 1 was OOM-killed */
	assert_true(rs_rec_row_value(&r, &total, metric("failed")) == 1);
	assert_true(isnan(rs_rec_row_value(&r, &total, metric("mb_per_s"))));
	w0 = rs_recording_find(&r, "/w0");
	assert_true(rs_rec_row_value(&r, w0, metric("worker_progress")) == 100);
	assert_true(isnan(rs_rec_row_value(&r, w0, metric("ops_per_s"))));
	rs_rec_memcg_release(&total);
	rs_recording_free(&r);
	refused(HEADER "{\"type\":\"outcome\",\"ops\":1}\n", ":2:", "workload");
	refused(HEADER "{\"type\":\"outcome\",\"workload\":\"w\","
		       "\"oom_killed\":1}\n",
		":2:", "oom_killed");
	refused(HEADER "{\"type\":\"outcome\",\"workload\":\"w\","
		       "\"ops_per_s\":-1}\n",
		":2:", "ops_per_s");
}

/*
 * Counters renamed in schema 4 (one name per quantity): a recording made
 * by reclaimscope before it (schema 3: the aging workload on 6.18 in the
 * lab, its event records and all but three snapshots left out) is read
 * under the new names, each equal to what the file holds under the old
 * one; a recording of schema 4 is not read under an old name.
 */
#define SCHEMA3 "tests/unit/data/schema3-aging.ndjson"

static void old_names(void **state)
{
	struct rs_recording r;
	char err[512] = "";
	FILE *f = fopen(SCHEMA3, "r");
	json_t *summary = NULL, *memcgs;
	json_error_t jerr;
	char line[1 << 16];
	size_t i, aliased = 0;
	json_t *e;

	(void)state;
	assert_non_null(f);
	assert_int_equal(
		rs_recording_read(f, SCHEMA3, 8.3e6, &r, err, sizeof(err)), 0);
	assert_int_equal(r.schema, 3);
	/* the summary as the file has it, under the old keys */
	rewind(f);
	while (!summary && fgets(line, sizeof(line), f)) {
		json_t *o = json_loads(line, 0, &jerr);

		if (o && !strcmp(json_string_value(json_object_get(o, "type")),
				 "summary"))
			summary = o;
		else
			json_decref(o);
	}
	fclose(f);
	assert_non_null(summary);
	memcgs = json_object_get(summary, "memcgs");
	assert_true(json_array_size(memcgs) > 0);
	json_array_foreach (memcgs, i, e) {
		const struct rs_rec_memcg *m = rs_recording_find(
			&r, json_string_value(json_object_get(e, "path")));

		assert_non_null(m);
		for (int fld = 0; fld < RS_NR_FIELDS; fld++) {
			const char *old = rs_field_old_key(fld);
			json_t *v;

			if (!old)
				continue;
			/* the new name is not in the file */
			assert_null(json_object_get(e, rs_fields[fld].key));
			v = json_object_get(e, old);
			if (!v || json_is_null(v)) {
				assert_true(isnan(m->total[fld]));
				continue;
			}
			if (m->total[fld] != json_number_value(v))
				fail_msg("%s: %s %g, the file's %s %g", m->path,
					 rs_fields[fld].key, m->total[fld], old,
					 json_number_value(v));
			aliased++;
		}
	}
	/* the aging run's memcg passed, aged and stalled: real values */
	assert_true(aliased >= 5);
	assert_true(rs_recording_find(&r, "/aging")->total[RS_F_PASSES] > 0);
	assert_true(rs_recording_find(&r, "/aging")->total[RS_F_AGING_TIME] >
		    0);
	/* by reclaimer: its pass time, under pass_ns there */
	e = json_object_get(
		json_object_get(json_object_get(json_array_get(memcgs, 0),
						"by_reclaimer"),
				"memcg"),
		"pass_ns");
	assert_non_null(e);
	assert_true(rs_recording_find(
			    &r, json_string_value(json_object_get(
					json_array_get(memcgs, 0), "path")))
			    ->pass_ns_by[RS_RECLAIMER_MEMCG] ==
		    json_number_value(e));
	json_decref(summary);
	rs_recording_free(&r);
	/* without its summary, the totals are the snapshots' sums: read
	 * under the old names too (its three snapshots: 31 + 5 + 7 passes) */
	{
		FILE *in = fopen(SCHEMA3, "r");
		char *text = NULL;
		size_t size = 0;
		FILE *cut = open_memstream(&text, &size);

		assert_non_null(in);
		assert_non_null(cut);
		while (fgets(line, sizeof(line), in))
			if (!strstr(line, "\"type\":\"summary\""))
				fputs(line, cut);
		fclose(in);
		assert_int_equal(fclose(cut), 0);
		assert_int_equal(read_text(text, &r, err, sizeof(err)), 0);
		assert_false(r.has_summary);
		assert_true(
			rs_recording_find(&r, "/aging")->total[RS_F_PASSES] ==
			31 + 5 + 7);
		assert_true(
			rs_recording_find(&r, "/aging")->total[RS_F_PASS_TIME] >
			0);
		rs_recording_free(&r);
		free(text);
	}
	/* schema 4: an old name is not a counter any more */
	assert_int_equal(
		read_text(
			"{\"type\":\"header\",\"schema\":4,\"kernel\":\"k\"}\n"
			"{\"type\":\"summary\",\"duration\":1,\"memcgs\":[{"
			"\"id\":2,\"path\":\"/a\",\"shrinks\":7,"
			"\"passes\":3}]}\n",
			&r, err, sizeof(err)),
		0);
	assert_true(rs_recording_find(&r, "/a")->total[RS_F_PASSES] == 3);
	rs_recording_free(&r);
	assert_int_equal(
		read_text(
			"{\"type\":\"header\",\"schema\":4,\"kernel\":\"k\"}\n"
			"{\"type\":\"summary\",\"duration\":1,\"memcgs\":[{"
			"\"id\":2,\"path\":\"/a\",\"shrinks\":7}]}\n",
			&r, err, sizeof(err)),
		0);
	assert_true(isnan(rs_recording_find(&r, "/a")->total[RS_F_PASSES]));
	rs_recording_free(&r);
	/* every alias names a field, once */
	for (int fld = 0; fld < RS_NR_FIELDS; fld++) {
		const char *old = rs_field_old_key(fld);

		if (old) {
			assert_int_equal(rs_field_by_old_key(old), fld);
			assert_int_equal(rs_field_by_key(old), -1);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refusals),
		cmocka_unit_test(loglinear_quantiles),
		cmocka_unit_test(long_line),
		cmocka_unit_test(diff_sides),
		cmocka_unit_test(many_memcgs),
		cmocka_unit_test(tolerated),
		cmocka_unit_test(jain),
		cmocka_unit_test(figures),
		cmocka_unit_test(nested_total),
		cmocka_unit_test(outcomes),
		cmocka_unit_test(cut_short_drops),
		cmocka_unit_test(tiers),
		cmocka_unit_test(gens_timelines),
		cmocka_unit_test(gens_refusals),
		cmocka_unit_test(gens_points),
		cmocka_unit_test(oom_means),
		cmocka_unit_test(oom_generations_while_mglru_off),
		cmocka_unit_test(page_size_of_the_recording),
		cmocka_unit_test(old_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
