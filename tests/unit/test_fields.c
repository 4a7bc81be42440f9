// SPDX-License-Identifier: GPL-2.0
/* The field table and the recording format, parsed back with jansson. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "event_line.h"
#include "fields.h"
#include "json_view.h"
#include "prom_view.h"
#include "shrink.h"
#include "aging.h"
#include "vmscan.h"
#include "writeback.h"
#include "oom.h"

static void table_is_sane(void **state)
{
	(void)state;
	for (int i = 0; i < RS_NR_FIELDS; i++) {
		const char *k = rs_fields[i].key;

		assert_non_null(k);
		assert_true(strlen(rs_fields[i].help) > 10);
		assert_true(rs_fields[i].needs != 0);
		/* usable as a metric name after the reclaimscope_ prefix */
		for (const char *p = k; *p; p++)
			assert_true((*p >= 'a' && *p <= 'z') || *p == '_' ||
				    (*p >= '0' && *p <= '9'));
		for (int j = 0; j < i; j++)
			assert_string_not_equal(k, rs_fields[j].key);
		assert_int_equal(rs_field_by_key(k), i);
	}
	assert_int_equal(rs_field_by_key("no_such_field"), -1);
	assert_string_equal(rs_fields[RS_F_THROTTLED].unit, "us");
	assert_int_equal(rs_fields[RS_F_PASS_TIME].unit_id, RS_UNIT_ns);
}

/* Render, serialize, parse back: what a consumer of the file sees. */
static json_t *roundtrip(json_t *obj)
{
	char *text = json_dumps(obj, JSON_COMPACT);
	json_error_t err;
	json_t *back;

	assert_non_null(text);
	assert_null(strchr(text, '\n'));
	back = json_loads(text, 0, &err);
	assert_non_null(back);
	free(text);
	json_decref(obj);
	return back;
}

/* An event line read back: one line, '\n'-terminated, valid JSON. */
static json_t *event_json(struct rs_event_writer *w, const struct rs_model *m,
			  const struct rs_run_info *info, const void *rec,
			  size_t size)
{
	size_t len;
	const char *line = rs_event_line(w, m, info, rec, size, &len);
	json_error_t err;
	json_t *back;

	assert_non_null(line);
	assert_true(len > 1 && line[len - 1] == '\n');
	assert_null(memchr(line, '\n', len - 1));
	back = json_loadb(line, len, 0, &err);
	if (!back)
		fail_msg("%.*s: %s", (int)len, line, err.text);
	return back;
}

static struct rs_model *sample_model(__u64 hooks)
{
	struct rs_model *m = rs_model_new(hooks);
	struct rs_agg_key k1 = {
		.cgroup_id = 42, .node = 0, .reclaimer = RS_RECLAIMER_MEMCG};
	struct rs_agg_key k2 = {
		.cgroup_id = 42, .node = 1, .reclaimer = RS_RECLAIMER_KSWAPD};
	struct rs_agg_key k3 = {
		.cgroup_id = 43, .node = 0, .reclaimer = RS_RECLAIMER_MEMCG};
	__u64 v[RS_NR_FIELDS] = {0};

	v[RS_F_ISOLATED] = 100;
	v[RS_F_RECLAIMED] = 60;
	v[RS_F_BUDGET] = 400;
	rs_model_begin(m);
	rs_model_add(m, &k1, v);
	v[RS_F_ISOLATED] = 11;
	rs_model_add(m, &k2, v);
	rs_model_add(m, &k3, v);
	rs_model_end(m, 1.5);
	rs_model_set_path(m, 42, "/a/b");
	rs_model_set_path(m, 43, "/c");
	rs_model_begin(m);
	rs_model_end(m, 2.0);
	return m;
}

static json_t *find_memcg(json_t *arr, const char *path)
{
	size_t i;
	json_t *e;

	json_array_foreach (arr, i, e)
		if (!strcmp(json_string_value(json_object_get(e, "path")),
			    path))
			return e;
	return NULL;
}

static void summary_totals_and_nulls(void **state)
{
	/* tracepoint-only: no lruvec pass hooks */
	__u64 hooks =
		RS_HOOK_BIT(LRU_ISOLATE) | RS_HOOK_BIT(LRU_SHRINK_INACTIVE);
	struct rs_model *m = sample_model(hooks);
	json_t *s = roundtrip(rs_json_summary(m, 2.0, NULL));
	json_t *mc, *nodes;

	(void)state;
	assert_string_equal(json_string_value(json_object_get(s, "type")),
			    "summary");
	mc = find_memcg(json_object_get(s, "memcgs"), "/a/b");
	assert_non_null(mc);
	assert_int_equal(json_integer_value(json_object_get(mc, "id")), 42);
	assert_int_equal(json_integer_value(json_object_get(mc, "isolated")),
			 111);
	assert_int_equal(json_integer_value(json_object_get(mc, "reclaimed")),
			 120);
	/* the kernel could not give a budget here: null, not 0 */
	assert_true(json_is_null(json_object_get(mc, "budget")));
	assert_true(json_is_null(json_object_get(mc, "agings")));
	/* every field of the table is a key */
	for (int f = 0; f < RS_NR_FIELDS; f++)
		assert_non_null(json_object_get(mc, rs_fields[f].key));
	nodes = json_object_get(mc, "nodes");
	assert_int_equal(json_array_size(nodes), 2);
	assert_non_null(
		json_object_get(json_object_get(mc, "by_reclaimer"), "kswapd"));
	json_decref(s);

	/* a filter keeps /a/b and drops /c */
	s = roundtrip(rs_json_summary(m, 2.0, "/a"));
	assert_int_equal(json_array_size(json_object_get(s, "memcgs")), 1);
	json_decref(s);
	rs_model_free(m);
}

static void snapshot_is_per_interval(void **state)
{
	__u64 all = (1ULL << RS_NR_HOOKS) - 1;
	struct rs_model *m = sample_model(all);
	json_t *s;
	struct rs_agg_key k1 = {
		.cgroup_id = 42, .node = 0, .reclaimer = RS_RECLAIMER_MEMCG};
	__u64 v[RS_NR_FIELDS] = {0};

	(void)state;
	v[RS_F_ISOLATED] = 130; /* 30 more than before */
	v[RS_F_RECLAIMED] = 60;
	v[RS_F_BUDGET] = 400;
	rs_model_begin(m);
	rs_model_add(m, &k1, v);
	rs_model_end(m, 3.0);
	s = roundtrip(rs_json_snapshot(m, NULL, NULL, 0));
	assert_string_equal(json_string_value(json_object_get(s, "type")),
			    "snapshot");
	/* only memcgs active in the interval */
	assert_int_equal(json_array_size(json_object_get(s, "memcgs")), 1);
	assert_int_equal(
		json_integer_value(json_object_get(
			find_memcg(json_object_get(s, "memcgs"), "/a/b"),
			"isolated")),
		30);
	assert_int_equal(json_integer_value(json_object_get(s, "drops")), 0);
	json_decref(s);
	rs_model_free(m);
}

static void header_and_events(void **state)
{
	struct rs_run_info info = {.mglru_enabled = 7,
				   .series = true,
				   .nr_nodes = 1,
				   .start_ns = 1000};
	struct rs_model *m = sample_model((1ULL << RS_NR_HOOKS) - 1);
	struct rs_shrink_event sh = {0};
	struct rs_aging_event ag = {0};
	struct rs_event_writer *w = rs_event_writer_new();
	json_t *h, *e, *gens;
	size_t len;

	(void)state;
	assert_non_null(w);
	strcpy(info.kernel, "7.2.13");
	strcpy(info.start, "2026-12-03T00:00:00.000Z");
	info.hooks[RS_HOOK_EVICT_FOLIOS].state = RS_HOOK_ATTACHED;
	info.hooks[RS_HOOK_SHRINK_LRUVEC].state = RS_HOOK_FAILED;
	strcpy(info.hooks[RS_HOOK_SHRINK_LRUVEC].why, "EPERM");
	info.hooks[RS_HOOK_KSWAPD].state = RS_HOOK_MISSING;
	h = roundtrip(rs_json_header(&info));
	assert_int_equal(json_integer_value(json_object_get(h, "schema")),
			 RS_SCHEMA);
	assert_true(json_is_true(json_object_get(h, "mglru")));
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(h, "hooks"),
						  "evict_folios")),
		"attached");
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(h, "hooks"),
						  "shrink_lruvec")),
		"failed: EPERM");
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(h, "hooks"),
						  "mm_vmscan_kswapd")),
		"missing");
	json_decref(h);

	sh.hdr = (struct rs_event_hdr){.ts_ns = 1000 + 2500000000ULL,
				       .cgroup_id = 42,
				       .type = RS_EV_SHRINK,
				       .reclaimer = RS_RECLAIMER_KSWAPD};
	sh.budget = 100;
	sh.budget_used = 64;
	sh.budget_known = 1;
	sh.exit_reason = RS_EXIT_TARGET;
	e = event_json(w, m, &info, &sh, sizeof(sh));
	assert_string_equal(json_string_value(json_object_get(e, "kind")),
			    "shrink");
	assert_string_equal(json_string_value(json_object_get(e, "path")),
			    "/a/b");
	assert_string_equal(json_string_value(json_object_get(e, "exit")),
			    "target_met");
	assert_string_equal(json_string_value(json_object_get(e, "reclaimer")),
			    "kswapd");
	assert_true(json_real_value(json_object_get(e, "t")) == 2.5);
	json_decref(e);
	/* a truncated record is refused, not read past its end */
	assert_null(rs_event_line(w, m, &info, &sh, sizeof(sh) - 1, &len));

	ag.hdr = (struct rs_event_hdr){.cgroup_id = 43, .type = RS_EV_AGING};
	ag.success = 1;
	ag.min_seq[0] = 5;
	ag.min_seq[1] = 6;
	ag.max_seq = 8;
	ag.nr_pages[5 % 4][0] = 10;
	ag.nr_pages[8 % 4][1] = 20;
	/* a kernel with another MAX_NR_GENS: no sizes, null not wrong */
	e = event_json(w, m, &info, &ag, sizeof(ag));
	assert_true(json_is_null(json_object_get(e, "generations")));
	assert_true(json_is_null(json_object_get(e, "walk_ptes")));
	json_decref(e);
	ag.gens_known = 1;
	ag.walk_known = 1;
	ag.walk[RS_WALK_YOUNG] = 7;
	e = event_json(w, m, &info, &ag, sizeof(ag));
	assert_int_equal(json_integer_value(json_object_get(e, "walk_young")),
			 7);
	gens = json_object_get(e, "generations");
	assert_int_equal(json_array_size(gens), 4); /* seq 5..8 */
	assert_int_equal(json_integer_value(json_object_get(
				 json_array_get(gens, 0), "anon")),
			 10);
	assert_int_equal(json_integer_value(json_object_get(
				 json_array_get(gens, 3), "file")),
			 20);
	json_decref(e);
	rs_event_writer_free(w);
	rs_model_free(m);
}

/* The keys of o in order, comma-separated, for comparing with the format. */
static void keys_of(json_t *o, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (void *it = json_object_iter(o); it;
	     it = json_object_iter_next(o, it))
		n += snprintf(out + n, size - n, "%s%s", n ? "," : "",
			      json_object_iter_key(it));
}

static const char *line_of(struct rs_event_writer *w, const struct rs_model *m,
			   const struct rs_run_info *info, const void *rec,
			   size_t size)
{
	static char copy[8192];
	size_t len;
	const char *line = rs_event_line(w, m, info, rec, size, &len);

	assert_non_null(line);
	assert_true(len < sizeof(copy));
	memcpy(copy, line, len);
	copy[len] = '\0';
	return copy;
}

/*
 * Every kind of event line: the keys and their order as
 * docs/recording-format.md has them, values exact (t to the nanosecond,
 * signed where the kernel's are), paths escaped or left out, the path cache
 * following renames and ids that share a slot.
 */
static void event_lines(void **state)
{
	struct rs_run_info info = {.start_ns = 5000000000ULL};
	struct rs_model *m = rs_model_new(~0ULL);
	struct rs_event_writer *w = rs_event_writer_new();
	struct rs_writeback_event wb = {
		.hdr = {.ts_ns = 5000000000ULL + 1234567890123ULL,
			.cgroup_id = 7,
			.pid = 4242,
			.type = RS_EV_WRITEBACK,
			.node = 1,
			.reclaimer = RS_RECLAIMER_DIRECT},
		.nr_taken = 32,
		.dirty = 5,
		.unqueued_dirty = 4,
		.congested = 3,
		.writeback = 2,
		.immediate = 1,
		.pageout = 6,
		.flusher_woken = 1};
	struct rs_throttle_event th = {
		.hdr = {.ts_ns = 5000000000ULL + 7000000000ULL,
			.cgroup_id = RS_CGROUP_NONE,
			.type = RS_EV_THROTTLE,
			.node = RS_NODE_UNKNOWN,
			.reclaimer = RS_RECLAIMER_KSWAPD},
		.reason = 1,
		.usec_timeout = -1,
		.usec_delayed = 100000};
	struct rs_reclaim_event rc = {
		.hdr = {.ts_ns = 1,	      /* before the start: t is 0 */
			.cgroup_id = 7 + 256, /* the slot of 7 in the cache */
			.type = RS_EV_RECLAIM,
			.reclaimer = RS_RECLAIMER_MEMCG},
		.duration_ns = 8300000,
		.nr_reclaimed = 512};
	struct rs_event_hdr unknown = {.type = RS_EV_LAST + 1};
	char keys[512], longpath[4001];
	const char *line;
	json_t *e;
	size_t len;

	(void)state;
	assert_non_null(m);
	assert_non_null(w);
	assert_int_equal(
		rs_model_set_path(m, 7, "/a \"b\"\\c\n\td\x01/\xc3\xa9"), 0);
	line = line_of(w, m, &info, &wb, sizeof(wb));
	assert_non_null(strstr(line, "\"t\":1234.567890123,"));
	e = event_json(w, m, &info, &wb, sizeof(wb));
	keys_of(e, keys, sizeof(keys));
	assert_string_equal(keys, "type,kind,t,pid,id,path,node,reclaimer,"
				  "nr_taken,dirty,unqueued_dirty,congested,"
				  "writeback,immediate,pageout,flusher_woken");
	/* control characters and the backslash escaped, UTF-8 kept */
	assert_string_equal(json_string_value(json_object_get(e, "path")),
			    "/a \"b\"\\x5cc\\x0a\\x09d\\x01/\xc3\xa9");
	assert_string_equal(json_string_value(json_object_get(e, "kind")),
			    "writeback");
	assert_int_equal(json_integer_value(json_object_get(e, "pid")), 4242);
	assert_int_equal(json_integer_value(json_object_get(e, "id")), 7);
	assert_int_equal(json_integer_value(json_object_get(e, "node")), 1);
	assert_string_equal(json_string_value(json_object_get(e, "reclaimer")),
			    "direct");
	assert_int_equal(json_integer_value(json_object_get(e, "nr_taken")),
			 32);
	assert_int_equal(
		json_integer_value(json_object_get(e, "unqueued_dirty")), 4);
	assert_int_equal(json_integer_value(json_object_get(e, "pageout")), 6);
	assert_true(json_is_true(json_object_get(e, "flusher_woken")));
	json_decref(e);

	/* unattributed, node unknown, negative values, a whole second */
	line = line_of(w, m, &info, &th, sizeof(th));
	assert_non_null(strstr(line, "\"t\":7.0,"));
	e = event_json(w, m, &info, &th, sizeof(th));
	keys_of(e, keys, sizeof(keys));
	assert_string_equal(keys, "type,kind,t,pid,id,path,node,reclaimer,"
				  "reason,timeout_us,delayed_us");
	assert_string_equal(json_string_value(json_object_get(e, "path")),
			    "(unattributed)");
	assert_true(json_is_null(json_object_get(e, "node")));
	assert_string_equal(json_string_value(json_object_get(e, "reason")),
			    "isolated");
	assert_int_equal(json_integer_value(json_object_get(e, "timeout_us")),
			 -1);
	assert_int_equal(json_integer_value(json_object_get(e, "delayed_us")),
			 100000);
	json_decref(e);

	/* an id with no path yet: no "path"; nr_to_reclaim 0 is left out */
	line = line_of(w, m, &info, &rc, sizeof(rc));
	assert_non_null(strstr(line, "\"t\":0.0,"));
	e = event_json(w, m, &info, &rc, sizeof(rc));
	keys_of(e, keys, sizeof(keys));
	assert_string_equal(keys, "type,kind,t,pid,id,node,reclaimer,"
				  "duration_ns,nr_reclaimed");
	json_decref(e);
	/* it gets one (sharing 7's cache slot), then 7 is renamed */
	assert_int_equal(rs_model_set_path(m, 7 + 256, "/other"), 0);
	e = event_json(w, m, &info, &rc, sizeof(rc));
	assert_string_equal(json_string_value(json_object_get(e, "path")),
			    "/other");
	json_decref(e);
	assert_int_equal(rs_model_set_path(m, 7, "/renamed"), 0);
	e = event_json(w, m, &info, &wb, sizeof(wb));
	assert_string_equal(json_string_value(json_object_get(e, "path")),
			    "/renamed");
	json_decref(e);

	/* a path that is not UTF-8 is kept, its bad byte escaped */
	assert_int_equal(rs_model_set_path(m, 7, "/bad\xff"), 0);
	e = event_json(w, m, &info, &wb, sizeof(wb));
	assert_string_equal(json_string_value(json_object_get(e, "path")),
			    "/bad\\xff");
	json_decref(e);
	/* a long one grows the line */
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	assert_int_equal(rs_model_set_path(m, 7, longpath), 0);
	e = event_json(w, m, &info, &wb, sizeof(wb));
	assert_string_equal(json_string_value(json_object_get(e, "path")),
			    longpath);
	json_decref(e);

	/* numbers as printf prints them, every length, both signs */
	{
		static const __u64 values[] = {0,
					       9,
					       10,
					       99,
					       100,
					       101,
					       999,
					       1000,
					       8300000,
					       12345678901234567ULL,
					       9223372036854775807ULL};
		struct rs_aging_event ag = {.hdr = {.type = RS_EV_AGING},
					    .max_seq = 0,
					    .gens_known = 1};
		char want[64];

		for (size_t i = 0; i < sizeof(values) / sizeof(values[0]);
		     i++) {
			rc.duration_ns = values[i];
			line = line_of(w, m, &info, &rc, sizeof(rc));
			snprintf(want, sizeof(want), "\"duration_ns\":%llu,",
				 (unsigned long long)values[i]);
			assert_non_null(strstr(line, want));
			ag.nr_pages[0][0] = -(__s64)values[i];
			ag.nr_pages[0][1] = (__s64)values[i] - INT64_MAX - 1;
			line = line_of(w, m, &info, &ag, sizeof(ag));
			snprintf(want, sizeof(want),
				 "{\"seq\":0,\"anon\":%lld,\"file\":%lld}",
				 (long long)ag.nr_pages[0][0],
				 (long long)ag.nr_pages[0][1]);
			assert_non_null(strstr(line, want));
		}
	}

	/* not ours, or cut short: no line, and not an allocation failure */
	errno = 0;
	assert_null(
		rs_event_line(w, m, &info, &unknown, sizeof(unknown), &len));
	assert_int_not_equal(errno, ENOMEM);
	assert_null(rs_event_line(w, m, &info, &wb, sizeof(wb.hdr), &len));
	assert_null(rs_event_line(w, m, &info, &wb, 3, &len));
	rs_event_writer_free(w);
	rs_model_free(m);
}

/*
 * An OOM record's generations carry their ages from the births and jiffies
 * it read, as lru_gen computes them, once HZ is known: null before, and no
 * key where no births were read (a kernel without MGLRU's stamps).
 */
static void oom_generation_ages(void **state)
{
	struct rs_run_info info = {.nr_nodes = 1, .start_ns = 1000};
	struct rs_model *m = sample_model((1ULL << RS_NR_HOOKS) - 1);
	struct rs_event_writer *w = rs_event_writer_new();
	struct rs_oom_event oom = {
		.hdr = {.type = RS_EV_OOM, .cgroup_id = 42, .ts_ns = 2000},
		.max_seq = 7,
		.min_seq = {6, 5},
		.lru_known = 1,
		.births_known = 1,
		.jiffies = 1250};
	const __u64 want_ms[] = {1000, 600, 200}; /* seqs 5, 6, 7 at HZ 250 */
	json_t *e, *g;
	size_t i;

	(void)state;
	assert_non_null(w);
	oom.birth[5 % 4] = 1000;
	oom.birth[6 % 4] = 1100;
	oom.birth[7 % 4] = 1200;
	oom.birth[4 % 4] = 1300; /* a slot not alive: never read */
	oom.nr_pages[5 % 4][1] = 256;
	e = event_json(w, m, &info, &oom, sizeof(oom));
	json_array_foreach (json_object_get(e, "generations"), i, g) {
		assert_true(i < 3);
		assert_true(json_is_null(json_object_get(g, "age_ms")));
	}
	assert_int_equal(i, 3);
	json_decref(e);
	rs_model_set_hz(m, 250);
	e = event_json(w, m, &info, &oom, sizeof(oom));
	json_array_foreach (json_object_get(e, "generations"), i, g) {
		assert_int_equal(json_integer_value(json_object_get(g, "seq")),
				 5 + i);
		assert_int_equal(
			json_integer_value(json_object_get(g, "age_ms")),
			want_ms[i]);
	}
	json_decref(e);
	/* a birth after the jiffies read after it cannot be: unknown */
	oom.birth[7 % 4] = 1300;
	e = event_json(w, m, &info, &oom, sizeof(oom));
	g = json_array_get(json_object_get(e, "generations"), 2);
	assert_true(json_is_null(json_object_get(g, "age_ms")));
	json_decref(e);
	/* seq 5's slot reused by an aging between the reads (born after
	 * seq 6): not seq 5's birth, null; the others as before */
	oom.birth[7 % 4] = 1200;
	oom.birth[5 % 4] = 1150;
	e = event_json(w, m, &info, &oom, sizeof(oom));
	g = json_array_get(json_object_get(e, "generations"), 0);
	assert_true(json_is_null(json_object_get(g, "age_ms")));
	g = json_array_get(json_object_get(e, "generations"), 1);
	assert_int_equal(json_integer_value(json_object_get(g, "age_ms")), 600);
	json_decref(e);
	oom.births_known = 0;
	e = event_json(w, m, &info, &oom, sizeof(oom));
	json_array_foreach (json_object_get(e, "generations"), i, g)
		assert_null(json_object_get(g, "age_ms"));
	json_decref(e);
	rs_event_writer_free(w);
	rs_model_free(m);
}

static void path_filter(void **state)
{
	(void)state;
	assert_true(rs_path_matches("/a/b", "/a"));
	assert_true(rs_path_matches("/a", "/a/"));
	assert_true(rs_path_matches("/a/b", "/"));
	assert_false(rs_path_matches("/ab", "/a"));
	assert_false(rs_path_matches(NULL, "/a"));
	assert_true(rs_path_matches(NULL, NULL));
}

/* The hooks' cost: absent without the kernel's statistics, exact with. */
static void prom_hook_cost(void **state)
{
	struct rs_model *m = rs_model_new(RS_HOOK_BIT(LRU_ISOLATE));
	struct rs_run_info info = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(m);
	info.hooks[RS_HOOK_LRU_ISOLATE].state = RS_HOOK_ATTACHED;
	info.hooks[RS_HOOK_LRU_ISOLATE].runs = 1234;
	info.hooks[RS_HOOK_LRU_ISOLATE].run_ns = 98765432;
	info.hooks[RS_HOOK_LRU_SHRINK_INACTIVE].state = RS_HOOK_MISSING;
	info.hooks[RS_HOOK_LRU_SHRINK_INACTIVE].runs = 7;

	f = open_memstream(&buf, &len);
	assert_int_equal(rs_prom_write(f, m, &info), 0);
	fclose(f);
	assert_null(strstr(buf, "hook_run"));
	free(buf);

	info.cost_known = true;
	f = open_memstream(&buf, &len);
	assert_int_equal(rs_prom_write(f, m, &info), 0);
	fclose(f);
	assert_non_null(strstr(
		buf,
		"reclaimscope_hook_runs_total{hook=\"mm_vmscan_lru_isolate\"} "
		"1234\n"));
	assert_non_null(strstr(buf,
			       "reclaimscope_hook_run_seconds_total{hook="
			       "\"mm_vmscan_lru_isolate\"} 0.098765432\n"));
	assert_non_null(
		strstr(buf, "# TYPE reclaimscope_hook_runs_total counter"));
	/* a hook that is not attached has no cost series */
	assert_null(strstr(
		buf, "hook_runs_total{hook=\"mm_vmscan_lru_shrink_inactive\""));
	free(buf);
	rs_model_free(m);
}

/*
 * A cell with reclaims serves its count over the latency budget from 0 (a
 * counter first seen above 0 would hide its first rise from rate()); one
 * without serves neither.
 */
static void prom_over_budget_from_zero(void **state)
{
	struct rs_model *m = rs_model_new(~0ULL);
	struct rs_agg_key with = {.cgroup_id = 7,
				  .reclaimer = RS_RECLAIMER_DIRECT},
			  without = {.cgroup_id = 8,
				     .reclaimer = RS_RECLAIMER_KSWAPD};
	__u64 v[RS_NR_FIELDS] = {0}, w[RS_NR_FIELDS] = {0};
	struct rs_run_info info = {.budget_ns = 8300000};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_non_null(m);
	v[RS_F_DIRECT_RECLAIMS] = 3;
	w[RS_F_SCANNED] = 5;
	rs_model_begin(m);
	assert_int_equal(rs_model_add(m, &with, v), 0);
	assert_int_equal(rs_model_add(m, &without, w), 0);
	rs_model_end(m, 1.0);
	assert_int_equal(rs_model_set_path(m, 7, "/a"), 0);
	assert_int_equal(rs_model_set_path(m, 8, "/b"), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(rs_prom_write(f, m, &info), 0);
	fclose(f);
	assert_non_null(strstr(buf, "reclaimscope_direct_over_budget_total{"
				    "memcg=\"/a\",node=\"0\",reclaimer="
				    "\"direct\"} 0\n"));
	assert_null(strstr(buf, "over_budget_total{memcg=\"/b\""));
	/* no memcg reclaims: no memcg_over_budget series */
	assert_null(strstr(buf, "reclaimscope_memcg_over_budget_total{"));
	assert_non_null(
		strstr(buf, "reclaimscope_latency_budget_seconds 0.0083\n"));
	free(buf);
	rs_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_is_sane),
		cmocka_unit_test(prom_hook_cost),
		cmocka_unit_test(prom_over_budget_from_zero),
		cmocka_unit_test(summary_totals_and_nulls),
		cmocka_unit_test(snapshot_is_per_interval),
		cmocka_unit_test(header_and_events),
		cmocka_unit_test(event_lines),
		cmocka_unit_test(oom_generation_ages),
		cmocka_unit_test(path_filter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
