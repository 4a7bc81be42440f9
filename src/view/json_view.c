// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "json_view.h"
#include "fields.h"
#include "shrink.h"
#include "aging.h"
#include "writeback.h"
#include "vmscan.h"

bool rs_path_matches(const char *path, const char *filter)
{
	size_t n;

	if (!filter || !*filter || !strcmp(filter, "/"))
		return true;
	if (!path)
		return false;
	n = strlen(filter);
	while (n > 1 && filter[n - 1] == '/')
		n--;
	return !strncmp(path, filter, n) && (path[n] == '\0' || path[n] == '/');
}

json_t *rs_json_hooks(const struct rs_run_info *info)
{
	json_t *hooks = json_object();
	char buf[200];

	for (int h = 0; h < RS_NR_HOOKS; h++)
		json_object_set_new(
			hooks, rs_hooks[h].name,
			json_string(rs_hook_state_text(&info->hooks[h], buf,
						       sizeof(buf))));
	return hooks;
}

void rs_json_kernel(json_t *o, const struct rs_run_info *info)
{
	json_object_set_new(o, "kernel", json_string(info->kernel));
	json_object_set_new(o, "mglru", json_boolean(info->mglru_enabled > 0));
	json_object_set_new(o, "mglru_enabled",
			    info->mglru_enabled < 0
				    ? json_null()
				    : json_integer(info->mglru_enabled));
	json_object_set_new(o, "series", json_boolean(info->series));
	json_object_set_new(o, "nodes", json_integer(info->nr_nodes));
	/* pages counted turn into bytes by it: a reader on another machine
	 * (an x86 laptop reading an arm64 phone's recording) must not take
	 * its own */
	if (info->page_size > 0)
		json_object_set_new(o, "page_size",
				    json_integer(info->page_size));
	json_object_set_new(o, "cgroup_version",
			    json_integer(info->cgroup_version));
}

json_t *rs_json_header(const struct rs_run_info *info)
{
	json_t *o = json_object();

	json_object_set_new(o, "type", json_string("header"));
	json_object_set_new(o, "schema", json_integer(RS_SCHEMA));
	rs_json_kernel(o, info);
	json_object_set_new(o, "hooks", rs_json_hooks(info));
	/* --copies: what a run of the experiment in BENCHMARKS.md used */
	json_object_set_new(o, "copies", json_integer(rs_fn_copies(info)));
	/* --refaults: the per-folio refault hook was asked for */
	json_object_set_new(o, "refaults", json_boolean(info->refaults));
	/* --budget-ms: the *_over_budget counts and the stalls' count over
	 * it (rs_json_header's readers: a report at another budget takes
	 * them from event records) */
	json_object_set_new(o, "budget_ns",
			    json_integer((json_int_t)info->budget_ns));
	json_object_set_new(o, "start", json_string(info->start));
	/* t = 0 on CLOCK_MONOTONIC: ties the recording's times to other
	 * records of the same machine (a trace, a test's own stamps) */
	json_object_set_new(o, "start_mono_ns",
			    json_integer((json_int_t)info->start_ns));
	if (info->cgroup_filter) {
		/* in the escaped form of the recording's paths */
		size_t size = RS_ESCAPED_SIZE(strlen(info->cgroup_filter));
		char *shown = malloc(size);

		if (shown)
			json_object_set_new(
				o, "cgroup_filter",
				json_string(rs_name_shown(
					info->cgroup_filter, shown, size,
					RS_ESCAPE_BACKSLASH)));
		free(shown);
	}
	if (info->caps_kept[0])
		json_object_set_new(o, "capabilities_kept",
				    json_string(info->caps_kept));
	return o;
}

/*
 * A memcg's field values, null where the hooks to know them are missing or
 * its own file could not be read.
 */
static void set_fields(json_t *o, const __u64 *v, const struct rs_model *m,
		       const struct rs_memcg *mc)
{
	for (int f = 0; f < RS_NR_FIELDS; f++)
		json_object_set_new(
			o, rs_fields[f].key,
			rs_json_field(f, v[f], rs_memcg_field_known(m, mc, f)));
}

json_t *rs_json_field(enum rs_field f, __u64 v, bool known)
{
	if (!known)
		return json_null();
	if (rs_fields[f].unit_id == RS_UNIT_ratio)
		return json_real(v * rs_field_scale(f));
	return json_integer((json_int_t)v);
}

static json_t *memcg_head(const struct rs_memcg *mc)
{
	json_t *o = json_object();
	char buf[RS_PATH_BUF];

	json_object_set_new(
		o, "path",
		json_string(rs_memcg_display_path(mc, buf, sizeof(buf))));
	json_object_set_new(o, "id", json_integer((json_int_t)mc->id));
	if (mc->gone)
		json_object_set_new(o, "gone", json_true());
	return o;
}

static bool any_nonzero(const __u64 *v)
{
	for (int f = 0; f < RS_NR_FIELDS; f++)
		if (v[f])
			return true;
	return false;
}

/*
 * The stalls per task (stalls.h) of the memcgs under filter: the last
 * interval's top RS_STALLS_TOP (counts of the interval; max_ns the longest
 * so far), or all of them since the start.
 */
static json_t *stalls_json(const struct rs_model *m, const char *filter,
			   bool interval)
{
	const struct rs_stalls *st = rs_model_stalls_of(m);
	const struct rs_stall **v = NULL;
	size_t nr = st ? rs_stalls_ranked(st, interval, &v) : 0, n = 0;
	json_t *arr = json_array();

	for (size_t i = 0; i < nr; i++) /* those under the filter */
		if (!filter ||
		    rs_path_matches(rs_model_path(m, v[i]->cgroup_id), filter))
			v[n++] = v[i];
	if (interval && n > RS_STALLS_TOP)
		n = RS_STALLS_TOP;
	for (size_t i = 0; i < n; i++) {
		const struct rs_stall *e = v[i];
		json_t *o = json_object();

		json_object_set_new(o, "tid", json_integer(e->tid));
		json_object_set_new(o, "tgid", json_integer(e->tgid));
		json_object_set_new(o, "comm", rs_json_name(e->comm));
		json_object_set_new(o, "id",
				    json_integer((json_int_t)e->cgroup_id));
		/* the memcg by id only: its path is the memcgs' (20,000
		 * entries of long paths would make the summary line huge) */
		json_object_set_new(o, "kind",
				    json_string(rs_stall_kind_name(e->kind)));
		json_object_set_new(
			o, "count",
			json_integer((json_int_t)(interval ? e->i_count
							   : e->count)));
		json_object_set_new(
			o, "total_ns",
			json_integer((json_int_t)(interval ? e->i_total_ns
							   : e->total_ns)));
		json_object_set_new(o, "max_ns",
				    json_integer((json_int_t)e->max_ns));
		json_object_set_new(
			o, "over_budget",
			json_integer((json_int_t)(interval ? e->i_over_budget
							   : e->over_budget)));
		if (e->gone)
			json_object_set_new(o, "gone", json_true());
		json_array_append_new(arr, o);
	}
	free(v);
	return arr;
}

json_t *rs_json_number(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

json_t *rs_json_rows(const struct rs_model *m, const struct rs_memcg *mc,
		     bool interval)
{
	struct rs_values v;
	json_t *o = json_object();

	rs_model_values(m, mc, interval, -1,
			interval ? rs_model_interval(m) : rs_model_time(m), &v);
	for (int i = 0; i < rs_nr_rows; i++)
		if (rs_row_live(i))
			json_object_set_new(
				o, rs_rows[i].key,
				rs_json_number(rs_row_number(&v, i)));
	return o;
}

void rs_json_add_rows(json_t *o, const struct rs_model *m, bool interval)
{
	json_t *e;
	size_t i;

	json_object_set_new(
		o, "span",
		json_real(interval ? rs_model_interval(m) : rs_model_time(m)));
	json_array_foreach (json_object_get(o, "memcgs"), i, e) {
		json_t *id = json_object_get(e, "id");
		const struct rs_memcg *mc =
			json_is_integer(id)
				? rs_model_find(m,
						(__u64)json_integer_value(id))
				: NULL;

		if (mc)
			json_object_set_new(e, "metrics",
					    rs_json_rows(m, mc, interval));
	}
}

json_t *rs_json_lruvec_gens(const struct rs_lruvec_gens *g)
{
	json_t *o = json_object(), *seqs = json_object(), *arr = json_array();

	json_object_set_new(o, "node", json_integer(g->node));
	json_object_set_new(o, "t", json_real(g->t));
	json_object_set_new(seqs, "anon",
			    json_integer((json_int_t)g->min_seq[0]));
	json_object_set_new(seqs, "file",
			    json_integer((json_int_t)g->min_seq[1]));
	json_object_set_new(o, "min_seq", seqs);
	json_object_set_new(o, "max_seq", json_integer((json_int_t)g->max_seq));
	for (unsigned i = 0; i < g->nr; i++) {
		const struct rs_gen_sample *s = &g->gen[i];
		json_t *e = json_object();
		/* from jiffies at the read, as lru_gen's (one instant for
		 * every generation) */
		double age = s->age * 1e3;

		json_object_set_new(e, "seq", json_integer((json_int_t)s->seq));
		json_object_set_new(e, "age_ms",
				    isnan(age)
					    ? json_null()
					    : json_integer((json_int_t)llround(
						      age < 0 ? 0 : age)));
		json_object_set_new(e, "anon",
				    json_integer((json_int_t)s->anon));
		json_object_set_new(e, "file",
				    json_integer((json_int_t)s->file));
		json_array_append_new(arr, e);
	}
	json_object_set_new(o, "gens", arr);
	return o;
}

/* A memcg's last generations on every node it was read on (a memcg gone
 * keeps its last: "ended"); null if none. */
static json_t *memcg_gens(const struct rs_memcg *mc)
{
	json_t *arr = json_array();

	for (unsigned n = 0; n < mc->nr_gens; n++) {
		json_t *e;

		if (isnan(mc->gens[n].t))
			continue;
		e = rs_json_lruvec_gens(&mc->gens[n]);
		if (mc->gens[n].ended)
			json_object_set_new(e, "ended", json_true());
		json_array_append_new(arr, e);
	}
	if (json_array_size(arr))
		return arr;
	json_decref(arr);
	return json_null();
}

/*
 * The timeline's entries of this snapshot: the lruvecs whose generations
 * moved after model snapshot since, and those whose memcg went away
 * ("end"), in arr; json null while MGLRU is off.
 */
static json_t *snapshot_gens(const struct rs_model *m,
			     const struct rs_run_info *info, const char *filter,
			     __u64 since)
{
	json_t *arr;

	if (info && info->mglru_enabled <= 0)
		return json_null();
	arr = json_array();
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);

		if (!rs_path_matches(mc->path, filter))
			continue;
		for (unsigned n = 0; n < mc->nr_gens; n++) {
			const struct rs_lruvec_gens *g = &mc->gens[n];
			json_t *e;

			if (isnan(g->t))
				continue;
			/* its last sample, then its end */
			if (g->changed > since) {
				e = memcg_head(mc);
				json_object_update_new(e,
						       rs_json_lruvec_gens(g));
				json_array_append_new(arr, e);
			}
			if (g->ended && g->ended_at > since) {
				e = memcg_head(mc);
				json_object_set_new(e, "node",
						    json_integer(g->node));
				json_object_set_new(e, "end", json_true());
				json_array_append_new(arr, e);
			}
		}
	}
	return arr;
}

json_t *rs_json_snapshot(const struct rs_model *m,
			 const struct rs_run_info *info, const char *filter,
			 __u64 gens_since)
{
	json_t *o = json_object(), *arr = json_array();

	json_object_set_new(o, "type", json_string("snapshot"));
	json_object_set_new(o, "t", json_real(rs_model_time(m)));
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		__u64 v[RS_NR_FIELDS];
		json_t *e;

		rs_memcg_values(mc, true, v);
		if (!any_nonzero(v) || !rs_path_matches(mc->path, filter))
			continue;
		e = memcg_head(mc);
		set_fields(e, v, m, mc);
		json_array_append_new(arr, e);
	}
	json_object_set_new(o, "memcgs", arr);
	arr = stalls_json(m, filter, true);
	if (json_array_size(arr))
		json_object_set_new(o, "stalls", arr);
	else
		json_decref(arr);
	for (size_t i = 0; i < rs_nr_global_stats; i++)
		if (rs_global_stats[i].in_snapshot)
			json_object_set_new(
				o, rs_global_stats[i].key,
				json_integer((json_int_t)rs_model_stat_interval(
					m, rs_global_stats[i].stat)));
	/* MGLRU can be switched while we run: its state now */
	if (info)
		json_object_set_new(o, "mglru",
				    json_boolean(info->mglru_enabled > 0));
	/* the key only where there is an entry, or null */
	arr = snapshot_gens(m, info, filter, gens_since);
	if (json_is_null(arr) || json_array_size(arr))
		json_object_set_new(o, "lru_gens", arr);
	else
		json_decref(arr);
	return o;
}

/* The headline numbers, for the per-node and per-reclaimer lists (pass_time:
 * each reclaimer's yield, report's kswapd_yield and direct_yield). */
static const enum rs_field brief_fields[] = {RS_F_SCANNED,   RS_F_ISOLATED,
					     RS_F_RECLAIMED, RS_F_PASSES,
					     RS_F_AGINGS,    RS_F_PASS_TIME};

static void add_brief(json_t *o, const __u64 *v, __u64 attached)
{
	for (size_t i = 0; i < sizeof(brief_fields) / sizeof(brief_fields[0]);
	     i++) {
		enum rs_field f = brief_fields[i];

		json_object_set_new(
			o, rs_fields[f].key,
			rs_json_field(f, v[f], rs_field_known(f, attached)));
	}
}

static json_t *breakdowns(const struct rs_model *m, const struct rs_memcg *mc,
			  json_t **by_reclaimer)
{
	size_t nr;
	const struct rs_cell *cells = rs_memcg_cells(m, mc, &nr);
	/* at most one node per cell: every node kept, however many */
	size_t room = nr ? nr : 1;
	__u64(*per_node)[RS_NR_FIELDS] = calloc(room, sizeof(*per_node));
	int *nodes = calloc(room, sizeof(*nodes)), nr_nodes = 0;
	__u64 per_rec[RS_NR_RECLAIMERS][RS_NR_FIELDS];
	bool rec_seen[RS_NR_RECLAIMERS] = {false};
	json_t *arr = json_array();

	memset(per_rec, 0, sizeof(per_rec));
	if (!per_node || !nodes) {
		free(per_node);
		free(nodes);
		*by_reclaimer = json_object();
		return arr;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct rs_cell *c = &cells[i];
		int n;

		for (n = 0; n < nr_nodes; n++)
			if (nodes[n] == c->key.node)
				break;
		if (n == nr_nodes)
			nodes[nr_nodes++] = c->key.node;
		for (int f = 0; f < RS_NR_FIELDS; f++)
			per_node[n][f] += c->total[f];
		if (c->key.reclaimer < RS_NR_RECLAIMERS) {
			rec_seen[c->key.reclaimer] = true;
			for (int f = 0; f < RS_NR_FIELDS; f++)
				per_rec[c->key.reclaimer][f] += c->total[f];
		}
	}
	for (int n = 0; n < nr_nodes; n++) {
		json_t *e = json_object();

		json_object_set_new(e, "node",
				    nodes[n] == RS_NODE_UNKNOWN
					    ? json_null()
					    : json_integer(nodes[n]));
		add_brief(e, per_node[n], rs_model_hooks(m));
		json_array_append_new(arr, e);
	}
	free(per_node);
	free(nodes);
	*by_reclaimer = json_object();
	for (int r = 0; r < RS_NR_RECLAIMERS; r++) {
		json_t *e;

		if (!rec_seen[r])
			continue;
		e = json_object();
		add_brief(e, per_rec[r], rs_model_hooks(m));
		json_object_set_new(*by_reclaimer, rs_reclaimer_name(r), e);
	}
	return arr;
}

/*
 * Histograms of one memcg: per kind, the non-empty buckets as
 * [upper bound in ns, count] pairs; null where the hooks are missing.
 */
json_t *rs_json_hists(const struct rs_model *m, const struct rs_memcg *mc,
		      bool interval)
{
	json_t *o = json_object();

	for (int h = 0; h < RS_NR_HISTS; h++) {
		const struct rs_hist_counts *hc;
		json_t *arr;

		if (!rs_hist_known(h, rs_model_hooks(m))) {
			json_object_set_new(o, rs_hist_infos[h].key,
					    json_null());
			continue;
		}
		arr = json_array();
		hc = rs_memcg_hist(mc, h);
		const struct rs_histogram *hist = !hc	     ? NULL
						  : interval ? &hc->interval
							     : &hc->total;

		for (unsigned int b = hist ? rs_hist_next(hist, 0)
					   : RS_HIST_BUCKETS;
		     b < RS_HIST_BUCKETS; b = rs_hist_next(hist, b + 1))
			json_array_append_new(
				arr,
				json_pack("[II]",
					  (json_int_t)(rs_hist_bucket_hi(b) *
						       (__u64)rs_hist_infos[h]
							       .ns_per_unit),
					  (json_int_t)rs_hist_count(hist, b)));
		json_object_set_new(o, rs_hist_infos[h].key, arr);
	}
	return o;
}

/* The ring drops split by record kind; each kind has an in-kernel count. */
static json_t *drops_by_kind(const struct rs_model *m)
{
	json_t *o = json_object();

	for (unsigned int t = 1; t <= RS_EV_LAST; t++)
		json_object_set_new(o, rs_event_type_name(t),
				    json_integer((json_int_t)rs_model_stat(
					    m, RS_STAT_RING_DROPS_TYPE0 + t)));
	return o;
}

/*
 * MGLRU's tier counters as the kernel held them at the last read (state,
 * not counts over the run): {"anon": [tier 0, ...], "file": [...]}, each
 * tier with the five counters lru_gen_full prints; null where never read.
 */
json_t *rs_json_tiers(const struct rs_tiers *t)
{
	json_t *o;

	if (!t)
		return json_null();
	o = json_object();
	for (int type = 0; type < 2; type++) {
		json_t *arr = json_array();

		for (unsigned tier = 0; tier < t->nr_tiers; tier++) {
			json_t *e = json_object();

			for (int c = 0; c < RS_NR_TIER_COUNTERS; c++)
				json_object_set_new(
					e, rs_tier_counter_name(c),
					json_integer(
						(json_int_t)
							t->v[type][tier][c]));
			json_array_append_new(arr, e);
		}
		json_object_set_new(o, type ? "file" : "anon", arr);
	}
	return o;
}

json_t *rs_json_summary(const struct rs_model *m, double duration,
			const char *filter)
{
	json_t *o = json_object(), *arr = json_array(), *flush;

	json_object_set_new(o, "type", json_string("summary"));
	json_object_set_new(o, "duration", json_real(duration));
	for (size_t i = 0; i < rs_nr_global_stats; i++)
		json_object_set_new(o, rs_global_stats[i].key,
				    json_integer((json_int_t)rs_model_stat(
					    m, rs_global_stats[i].stat)));
	json_object_set_new(o, "drops_by_kind", drops_by_kind(m));
	if (rs_model_hooks(m) & RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC))
		json_object_set_new(o, "passes_without_budget",
				    json_integer((json_int_t)rs_model_stat(
					    m, RS_STAT_PASS_NO_BUDGET)));
	if (rs_model_hooks(m) & RS_HOOK_BIT(WAKEUP_FLUSHER_THREADS)) {
		flush = json_object();
		for (int r = 0;
		     r <= RS_STAT_FLUSHER_REASON_LAST - RS_STAT_FLUSHER_REASON0;
		     r++) {
			__u64 n = rs_model_stat(m, RS_STAT_FLUSHER_REASON0 + r);
			char buf[32];
			const char *name =
				rs_wb_reason_name(r, buf, sizeof(buf));

			if (!n)
				continue;
			json_object_set_new(flush, name,
					    json_integer((json_int_t)n));
		}
		json_object_set_new(o, "flusher_calls", flush);
	}
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		__u64 v[RS_NR_FIELDS];
		json_t *e, *by_rec;

		if (!rs_path_matches(mc->path, filter))
			continue;
		e = memcg_head(mc);
		rs_memcg_values(mc, false, v);
		set_fields(e, v, m, mc);
		json_object_set_new(e, "nodes", breakdowns(m, mc, &by_rec));
		json_object_set_new(e, "by_reclaimer", by_rec);
		json_object_set_new(e, "histograms",
				    rs_json_hists(m, mc, false));
		/* the memcg's size over the run: what reclaim is relative to */
		json_object_set_new(e, "mem_current_avg",
				    isnan(mc->mem_current_avg)
					    ? json_null()
					    : json_real(mc->mem_current_avg));
		json_object_set_new(e, "tiers", rs_json_tiers(mc->tiers));
		json_object_set_new(e, "lru_gens", memcg_gens(mc));
		json_array_append_new(arr, e);
	}
	json_object_set_new(o, "memcgs", arr);
	json_object_set_new(o, "stalls", stalls_json(m, filter, false));
	if (rs_model_stalls_of(m)) {
		json_object_set_new(o, "stalls_folded",
				    json_integer((json_int_t)rs_stalls_folded(
					    rs_model_stalls_of(m))));
		json_object_set_new(o, "stalls_unkept",
				    json_integer((json_int_t)rs_stalls_lost(
					    rs_model_stalls_of(m))));
	}
	return o;
}

int rs_json_write_line(FILE *out, json_t *obj)
{
	int err = json_dumpf(obj, out, JSON_COMPACT | JSON_REAL_PRECISION(9));

	if (!err && fputc('\n', out) == EOF)
		err = -1;
	if (!err && fflush(out))
		err = -1;
	return err ? -1 : 0;
}

void rs_json_stream_begin(struct rs_json_stream *s, FILE *out, size_t flags,
			  json_t *head, const char *array_key)
{
	char *text;
	size_t len;

	memset(s, 0, sizeof(*s));
	s->out = out;
	s->flags = flags;
	s->head = head;
	if (!out) {
		s->array = json_array();
		json_object_set(head, array_key, s->array);
		return;
	}
	/* the head without its closing brace, then the array's key */
	text = json_dumps(head, flags);
	if (!text)
		return;
	/* exactly the head's own brace: a nested object may end just
	 * before it */
	len = strlen(text);
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	if (len && text[len - 1] == '}')
		len--;
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	fwrite(text, 1, len, out);
	fprintf(out, "%s\n \"%s\": [", json_object_size(head) ? "," : "",
		array_key);
	free(text);
}

void rs_json_stream_add(struct rs_json_stream *s, json_t *element)
{
	if (!element)
		return;
	if (!s->out) {
		json_array_append_new(s->array, element);
	} else {
		/* one write per element: json_dumpf writes token by token,
		 * which cost more than building the text */
		char *text = json_dumps(element, s->flags);

		if (text)
			fprintf(s->out, "%s\n%s", s->nr ? "," : "", text);
		free(text);
		json_decref(element);
	}
	s->nr++;
}

json_t *rs_json_stream_end(struct rs_json_stream *s)
{
	json_t *doc = s->head;

	if (!s->out) {
		json_decref(s->array);
		return doc;
	}
	fprintf(s->out, "\n]}\n");
	json_decref(doc);
	return NULL;
}

json_t *rs_json_name(const char *raw)
{
	size_t size = RS_ESCAPED_SIZE(strlen(raw));
	char *buf = malloc(size);
	json_t *j;

	if (!buf)
		return json_null();
	j = json_string(rs_name_shown(raw, buf, size, 0));
	free(buf);
	return j ? j : json_null();
}
