// SPDX-License-Identifier: GPL-2.0
#include <assert.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "recording.h"
#include "fields.h"
#include "stalls.h"
#include "util.h"

#define RS_SERIES_ROW(id, f, t)                                                \
	[RS_SERIES_##id] = {.field = RS_F_##f, .title = (t)},
const struct rs_series_info rs_series[RS_NR_SERIES] = {
	RS_REC_SERIES(RS_SERIES_ROW)};
#undef RS_SERIES_ROW

/* Bounds on what a recording may hold: beyond them it is not ours. */
#define MAX_MEMCGS 100000
#define MAX_POINTS 10000000
#define MAX_COUNT 9.2e18 /* a __u64 counter that fits an int64 */
#define MAX_NODES 1024	 /* MAX_NUMNODES at most (NODES_SHIFT 10) */

struct reader {
	struct rs_recording *r;
	const char *name;
	size_t line;
	char *err;
	size_t errsz;
	double last_t;
	double *snap_sum; /* per memcg index x field, for a cut-short file */
	size_t cap_sums;  /* memcgs snap_sum has room for */
	/*
	 * memcgs are kept in the order they come and found by id through an
	 * open-addressing table (slot: index + 1, 0 empty), then sorted once
	 * at the end: a file listing ids in any order reads in O(n log n).
	 */
	size_t *slots, nr_slots; /* a power of two, at most half full */
	/* the snapshots' per-interval global counts, for a cut-short file */
	double snap_stats[RS_NR_STATS];
	bool header_seen; /* the first record was the header */
	/* MGLRU on (1) or off (0) as the header and then each snapshot say,
	 * -1 unsaid: an OOM record's generations while it is off are stale
	 * (recorders before 2026-12-07 read lrugen whatever its state) */
	int mglru_now;
	/* the timelines' lruvecs, and of them those with a sample open */
	size_t lruvecs, open_gens;
	const struct rs_event_sink *sink; /* NULL: none */
};

/* The record's "mglru", where it has one, as MGLRU's state from now. */
static void mglru_said(struct reader *rd, json_t *o)
{
	json_t *on = json_object_get(o, "mglru");

	if (json_is_boolean(on))
		rd->mglru_now = json_is_true(on);
}

static size_t slot_of(const struct reader *rd, __u64 id)
{
	/* Fibonacci hashing: ids are inode numbers, often consecutive */
	size_t i = (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 20) &
		   (rd->nr_slots - 1);

	rd->r->index_probes++;
	while (rd->slots[i] && rd->r->memcgs[rd->slots[i] - 1].id != id) {
		i = (i + 1) & (rd->nr_slots - 1);
		rd->r->index_probes++;
	}
	return i;
}

/* Room for one more memcg in the table; false when out of memory. */
static bool index_grow(struct reader *rd)
{
	size_t n = rd->nr_slots ? rd->nr_slots * 2 : 64;
	size_t *old = rd->slots, old_n = rd->nr_slots;

	if (2 * (rd->r->nr_memcgs + 1) <= rd->nr_slots)
		return true;
	rd->slots = calloc(n, sizeof(*rd->slots));
	if (!rd->slots) {
		rd->slots = old;
		return false;
	}
	rd->nr_slots = n;
	for (size_t i = 0; i < old_n; i++)
		if (old[i])
			rd->slots[slot_of(rd, rd->r->memcgs[old[i] - 1].id)] =
				old[i];
	free(old);
	return true;
}

static int fail(struct reader *rd, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(rd->err, rd->errsz, "%s:%zu: ", rd->name, rd->line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < rd->errsz)
		vsnprintf(rd->err + n, rd->errsz - n, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * A number from lo to MAX_COUNT.  Absent or null is unknown (NaN); anything
 * else (out of range, a string, 1e300) is refused.
 */
static int number_from(struct reader *rd, json_t *o, const char *key, double lo,
		       double *out)
{
	json_t *v = json_object_get(o, key);
	double d;

	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return fail(rd, "\"%s\" is not a number", key);
	d = json_number_value(v);
	if (!isfinite(d) || d < lo || d > MAX_COUNT)
		return fail(rd, "\"%s\" is out of range (%g)", key, d);
	*out = d;
	return 0;
}

/* A count or duration: a number from 0 to MAX_COUNT. */
static int number(struct reader *rd, json_t *o, const char *key, double *out)
{
	return number_from(rd, o, key, 0, out);
}

/*
 * A snapshot's count of a global stat: recordings of earlier versions could
 * carry a negative interval of lost events (a race, now fixed), and their
 * summary is right: accepted, summed, and used only without a summary.
 */
static int interval_count(struct reader *rd, json_t *o, const char *key,
			  double *out)
{
	return number_from(rd, o, key, -MAX_COUNT, out);
}

/*
 * A counter of field f in o: under its key, or in a recording before
 * schema 4 under the key it had then (rs_field_old_key).
 */
static int field_number(struct reader *rd, json_t *o, enum rs_field f,
			double *out)
{
	const char *old = rs_field_old_key(f);

	if (number(rd, o, rs_fields[f].key, out))
		return -1;
	if (isnan(*out) && old && rd->r->schema < 4)
		return number(rd, o, old, out);
	return 0;
}

/* The memcg of id, created if new; NULL with the error set. */
static struct rs_rec_memcg *memcg_of(struct reader *rd, __u64 id)
{
	struct rs_recording *r = rd->r;
	size_t n = r->nr_memcgs, slot; /* n: the new one's index */
	struct rs_rec_memcg *m;

	if (rd->nr_slots) {
		slot = slot_of(rd, id);
		if (rd->slots[slot])
			return &r->memcgs[rd->slots[slot] - 1];
	}
	if (r->nr_memcgs >= MAX_MEMCGS) {
		fail(rd, "more than %d memcgs", MAX_MEMCGS);
		return NULL;
	}
	/* the two arrays grow together: both exist once one memcg does */
	if (!index_grow(rd) ||
	    !rs_grow((void **)&r->memcgs, &r->cap_memcgs, r->nr_memcgs + 1,
		     sizeof(*r->memcgs)) ||
	    !rs_grow((void **)&rd->snap_sum, &rd->cap_sums, r->nr_memcgs + 1,
		     sizeof(double) * RS_NR_FIELDS)) {
		fail(rd, "out of memory");
		return NULL;
	}
	assert(r->memcgs && rd->snap_sum);
	r->nr_memcgs++;
	m = &r->memcgs[n];
	memset(m, 0, sizeof(*m));
	m->id = id;
	rd->slots[slot_of(rd, id)] = n + 1;
	m->mem_current_avg = NAN;
	m->gens = RS_GENS_ACC_EMPTY;
	for (int r = 0; r < RS_NR_RECLAIMERS; r++)
		m->reclaimed_by[r] = m->pass_ns_by[r] = NAN;
	for (int f = 0; f < RS_NR_FIELDS; f++) {
		m->total[f] = NAN;
		rd->snap_sum[n * RS_NR_FIELDS + f] = 0;
	}
	return m;
}

/* "id" and "path" of a memcg object (snapshot, summary or event). */
static struct rs_rec_memcg *memcg_from(struct reader *rd, json_t *o)
{
	json_t *id = json_object_get(o, "id"),
	       *path = json_object_get(o, "path");
	struct rs_rec_memcg *m;

	if (!json_is_integer(id) || json_integer_value(id) < 0) {
		fail(rd, "a memcg without a valid \"id\"");
		return NULL;
	}
	if (path && !json_is_string(path)) {
		fail(rd, "\"path\" is not a string");
		return NULL;
	}
	m = memcg_of(rd, (__u64)json_integer_value(id));
	if (m && path && !m->path) {
		m->path = strdup(json_string_value(path));
		if (!m->path) {
			fail(rd, "out of memory");
			return NULL;
		}
	}
	if (m && json_is_true(json_object_get(o, "gone")))
		m->gone = true;
	return m;
}

static int header(struct reader *rd, json_t *o)
{
	json_t *schema = json_object_get(o, "schema");
	const char *kernel = json_string_value(json_object_get(o, "kernel"));
	const char *start = json_string_value(json_object_get(o, "start"));
	const char *filter =
		json_string_value(json_object_get(o, "cgroup_filter"));
	json_t *budget, *page = json_object_get(o, "page_size");

	if (!json_is_integer(schema))
		return fail(rd, "the header has no integer \"schema\"");
	rd->r->schema = (int)json_integer_value(schema);
	if (json_integer_value(schema) > RS_SCHEMA ||
	    json_integer_value(schema) < 1)
		return fail(rd,
			    "schema %lld: this reclaimscope reads schema %d "
			    "(a newer reclaimscope wrote it?)",
			    (long long)json_integer_value(schema), RS_SCHEMA);
	rd->r->kernel = strdup(kernel ? kernel : "unknown");
	rd->r->start = strdup(start ? start : "unknown");
	rd->r->mglru = json_is_true(json_object_get(o, "mglru"));
	mglru_said(rd, o);
	rd->r->series = json_is_true(json_object_get(o, "series"));
	rd->r->cgroup_version = (int)json_integer_value(
		json_object_get(o, "cgroup_version")); /* 0: not said */
	if (page) {
		json_int_t bytes =
			json_is_integer(page) ? json_integer_value(page) : 0;

		/* a page is a power of two: 4 KiB (x86), 16 or 64 KiB
		 * (arm64, ppc64); taken between 1 KiB and 1 MiB */
		if (bytes < 1024 || bytes > 1048576 || (bytes & (bytes - 1)))
			return fail(rd,
				    "the header's \"page_size\" is not a page "
				    "size in bytes (a power of two from 1024 "
				    "to 1048576)");
		rd->r->page_size = (double)bytes;
		rd->r->page_size_said = true;
	}
	budget = json_object_get(o, "budget_ns");
	if (budget &&
	    (!json_is_integer(budget) || json_integer_value(budget) <= 0 ||
	     (__u64)json_integer_value(budget) > RS_MAX_BUDGET_NS))
		return fail(rd,
			    "the header's \"budget_ns\" is not a latency "
			    "budget in ns (1 to %llu)",
			    (unsigned long long)RS_MAX_BUDGET_NS);
	rd->r->kernel_budget_ns =
		budget ? (double)json_integer_value(budget) : 0;
	if (!(rd->r->budget_ns > 0)) /* not asked: the recording's own */
		rd->r->budget_ns = rd->r->kernel_budget_ns > 0
					   ? rd->r->kernel_budget_ns
					   : (double)RS_DEFAULT_BUDGET_NS;
	if (!rd->r->kernel || !rd->r->start)
		return fail(rd, "out of memory");
	if (filter && !(rd->r->cgroup_filter = strdup(filter)))
		return fail(rd, "out of memory");
	rd->header_seen = true;
	return 0;
}

/* Where a recording keeps a global count the report uses; NULL: not kept. */
static __u64 *stat_of(struct rs_recording *r, enum rs_stat stat)
{
	switch (stat) {
	case RS_STAT_RING_DROPS:
		return &r->drops;
	case RS_STAT_PROG_MISSES:
		return &r->missed;
	case RS_STAT_AGG_FULL:
		return &r->agg_full;
	case RS_STAT_HIST_FULL:
		return &r->hist_full;
	case RS_STAT_STATE_MISSES:
		return &r->state_misses;
	default:
		return NULL;
	}
}

/* A whole number in [0, MAX_COUNT] under key: absent or null is refused. */
static int seq_number(struct reader *rd, json_t *o, const char *key, __u64 *out)
{
	double d;

	if (number(rd, o, key, &d))
		return -1;
	if (isnan(d) || d != floor(d))
		return fail(rd, "\"%s\" is not a whole number", key);
	*out = (__u64)d;
	return 0;
}

/* One lruvec's entry of a snapshot's "lru_gens" (rs_json_lruvec_gens). */
static int lruvec_gens(struct reader *rd, json_t *o, struct rs_lruvec_gens *g)
{
	json_t *min = json_object_get(o, "min_seq"),
	       *gens = json_object_get(o, "gens"), *e;
	size_t i;

	*g = (struct rs_lruvec_gens){.node = g->node};
	if (number(rd, o, "t", &g->t))
		return -1;
	if (isnan(g->t) || !json_is_object(min) || !json_is_array(gens))
		return fail(rd, "an \"lru_gens\" entry needs \"t\", "
				"\"min_seq\", \"max_seq\" and \"gens\"");
	if (json_array_size(gens) > RS_GENS_MAX)
		return fail(rd,
			    "an \"lru_gens\" entry with more than %d "
			    "generations",
			    RS_GENS_MAX);
	if (seq_number(rd, min, "anon", &g->min_seq[0]) ||
	    seq_number(rd, min, "file", &g->min_seq[1]) ||
	    seq_number(rd, o, "max_seq", &g->max_seq))
		return -1;
	json_array_foreach (gens, i, e) {
		struct rs_gen_sample *s = &g->gen[g->nr++];
		double age_ms;

		if (!json_is_object(e))
			return fail(rd, "a generation is not an object");
		if (seq_number(rd, e, "seq", &s->seq) ||
		    seq_number(rd, e, "anon", &s->anon) ||
		    seq_number(rd, e, "file", &s->file) ||
		    number(rd, e, "age_ms", &age_ms))
			return -1;
		s->age = age_ms / 1e3;
		if (i && s->seq != s[-1].seq + 1)
			return fail(rd, "generations not in order of seq");
	}
	if (!g->nr)
		return fail(rd, "an \"lru_gens\" entry without generations");
	if (g->gen[g->nr - 1].seq != g->max_seq)
		return fail(rd, "the youngest generation is not max_seq");
	return 0;
}

/* m's lruvec on node: its last sample (nr 0: none open) and what it
 * counted; NULL if it has none yet */
static struct rs_lruvec_gens *last_gens_of(struct rs_rec_memcg *m, int node)
{
	for (unsigned n = 0; n < m->nr_last_gens; n++)
		if (m->last_gens[n].node == node)
			return &m->last_gens[n];
	return NULL;
}

/*
 * A point of m's timeline picture at t: its open lruvecs summed by age;
 * aged and evicted say what moved on the lruvec that changed.
 */
static int gens_point(struct reader *rd, struct rs_rec_memcg *m, double t,
		      bool aged, bool evicted)
{
	struct rs_gens_point *pt;

	if (!m->gpoints) {
		m->gpoints = calloc(RS_GENS_POINTS, sizeof(*m->gpoints));
		if (!m->gpoints)
			return fail(rd, "out of memory");
	}
	if (m->nr_gpoints == RS_GENS_POINTS) {
		/* every other one goes, the first kept (the picture starts
		 * where the timeline did): its marks pass to the one before */
		for (size_t i = 0; i < RS_GENS_POINTS / 2; i++) {
			struct rs_gens_point a = m->gpoints[2 * i];
			const struct rs_gens_point *b = &m->gpoints[2 * i + 1];

			a.aged |= b->aged;
			a.evicted |= b->evicted;
			m->gpoints[i] = a;
		}
		m->nr_gpoints = RS_GENS_POINTS / 2;
	}
	pt = &m->gpoints[m->nr_gpoints++];
	*pt = (struct rs_gens_point){.t = t, .aged = aged, .evicted = evicted};
	for (unsigned n = 0; n < m->nr_last_gens; n++) {
		const struct rs_lruvec_gens *g = &m->last_gens[n];

		for (unsigned i = 0; i < g->nr; i++) {
			unsigned rank = (unsigned)(g->max_seq - g->gen[i].seq);

			if (rank >= RS_GENS_MAX)
				continue;
			pt->anon[rank] += (float)g->gen[i].anon;
			pt->file[rank] += (float)g->gen[i].file;
			if (rank + 1 > pt->nr)
				pt->nr = (unsigned char)(rank + 1);
		}
	}
	return 0;
}

/* last's timeline ends at t: its last sample held until then. */
static void gens_end(struct reader *rd, struct rs_rec_memcg *m,
		     struct rs_lruvec_gens *last, double t)
{
	if (!last->nr)
		return;
	rs_gens_acc_hold(&m->gens, last, -INFINITY, t);
	if (t > m->gpoints_until)
		m->gpoints_until = t;
	/* no sample open, what it counted kept (born_seen) */
	last->nr = 0;
	rd->open_gens--;
}

/*
 * A snapshot's "lru_gens" (schema 5): each entry a sample of a memcg's
 * node, after its last; "end" ends that node's timeline; null (MGLRU off)
 * ends every one, so that the next sample is a first.
 */
static int snapshot_gens(struct reader *rd, json_t *o)
{
	json_t *arr = json_object_get(o, "lru_gens"), *e;
	size_t i;

	if (json_is_null(arr)) {
		for (size_t n = 0; rd->open_gens && n < rd->r->nr_memcgs; n++) {
			struct rs_rec_memcg *m = &rd->r->memcgs[n];
			bool open = false;

			for (unsigned k = 0; k < m->nr_last_gens; k++) {
				open |= m->last_gens[k].nr > 0;
				gens_end(rd, m, &m->last_gens[k], rd->last_t);
			}
			/* the picture shows MGLRU off as nothing alive */
			if (open && gens_point(rd, m, rd->last_t, false, false))
				return -1;
		}
		return 0;
	}
	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return fail(rd, "\"lru_gens\" is not an array");
	json_array_foreach (arr, i, e) {
		struct rs_rec_memcg *m = memcg_from(rd, e);
		struct rs_lruvec_gens g = {0}, *last;
		double node;
		bool aged, evicted;

		if (!m || number(rd, e, "node", &node))
			return -1;
		if (isnan(node) || node != floor(node) || node >= MAX_NODES)
			return fail(rd, "an \"lru_gens\" entry without a "
					"valid \"node\"");
		g.node = (int)node;
		last = last_gens_of(m, g.node);
		if (json_is_true(json_object_get(e, "end"))) {
			if (last && last->nr) {
				gens_end(rd, m, last, rd->last_t);
				if (gens_point(rd, m, rd->last_t, false, false))
					return -1;
			}
			continue;
		}
		if (lruvec_gens(rd, e, &g))
			return -1;
		/* torn by an aging (recordings made before the iterator
		 * kept such reads out): the last sample stands */
		if (rs_gens_sample_torn(&g))
			continue;
		if (!last) {
			/* lruvecs, not nodes: a memcg on node 1023 alone
			 * costs one */
			if (rd->lruvecs >= RS_TIER_MAX_LRUVECS)
				return fail(rd,
					    "more than %d lruvecs in "
					    "\"lru_gens\"",
					    RS_TIER_MAX_LRUVECS);
			last = realloc(m->last_gens,
				       (m->nr_last_gens + 1) * sizeof(*last));
			if (!last)
				return fail(rd, "out of memory");
			m->last_gens = last;
			last = &m->last_gens[m->nr_last_gens++];
			*last = (struct rs_lruvec_gens){.node = g.node};
			rd->lruvecs++;
		}
		if (last->nr && g.t < last->t)
			return fail(rd,
				    "an \"lru_gens\" entry goes back in "
				    "time (%g after %g)",
				    g.t, last->t);
		rs_gens_acc_add(&m->gens, last->nr ? last : NULL, &g,
				last->born_seen, -INFINITY);
		g.born_seen = rs_gens_born(&g, last->born_seen);
		m->has_gens = true;
		rd->open_gens += !last->nr;
		aged = last->nr && g.max_seq > last->max_seq;
		evicted = last->nr && rs_gens_lower_min(g.min_seq) >
					      rs_gens_lower_min(last->min_seq);
		*last = g;
		if (gens_point(rd, m, g.t, aged, evicted))
			return -1;
	}
	return 0;
}

static int snapshot(struct reader *rd, json_t *o)
{
	json_t *memcgs = json_object_get(o, "memcgs"), *e;
	double t, dt;
	size_t i;

	if (number(rd, o, "t", &t))
		return -1;
	if (isnan(t))
		return fail(rd, "a snapshot without \"t\"");
	mglru_said(rd, o);
	if (t > RS_MAX_T_S)
		return fail(rd,
			    "a snapshot at %g s: not a time since the start",
			    t);
	if (t < rd->last_t)
		return fail(rd, "time goes backwards (%g after %g)", t,
			    rd->last_t);
	dt = t - rd->last_t;
	rd->last_t = t;
	if (rd->r->nr_snaps >= MAX_POINTS)
		return fail(rd, "more than %d snapshots", MAX_POINTS);
	if (!rs_grow((void **)&rd->r->snap_t, &rd->r->cap_snaps,
		     rd->r->nr_snaps + 1, sizeof(*rd->r->snap_t)))
		return fail(rd, "out of memory");
	rd->r->snap_t[rd->r->nr_snaps++] = t;
	/* per interval: summed, they stand for a missing summary's */
	for (size_t k = 0; k < rs_nr_global_stats; k++) {
		double v;

		if (!rs_global_stats[k].in_snapshot)
			continue;
		if (interval_count(rd, o, rs_global_stats[k].key, &v))
			return -1;
		if (!isnan(v))
			rd->snap_stats[rs_global_stats[k].stat] += v;
	}
	if (!json_is_array(memcgs))
		return fail(rd, "a snapshot without a \"memcgs\" array");
	json_array_foreach (memcgs, i, e) {
		struct rs_rec_memcg *m = memcg_from(rd, e);
		double v[RS_NR_FIELDS];
		size_t idx;

		if (!m)
			return -1;
		for (int f = 0; f < RS_NR_FIELDS; f++)
			if (field_number(rd, e, f, &v[f]))
				return -1;
		idx = (size_t)(m - rd->r->memcgs);
		for (int f = 0; f < RS_NR_FIELDS; f++)
			rd->snap_sum[idx * RS_NR_FIELDS + f] += v[f];
		if (dt <= 0)
			continue;
		if (m->nr_points >= MAX_POINTS)
			return fail(rd, "more than %d snapshots", MAX_POINTS);
		if (!rs_grow((void **)&m->points, &m->cap_points,
			     m->nr_points + 1, sizeof(*m->points)))
			return fail(rd, "out of memory");
		m->points[m->nr_points].t = t;
		for (int s = 0; s < RS_NR_SERIES; s++)
			m->points[m->nr_points].rate[s] =
				v[rs_series[s].field] / dt;
		m->nr_points++;
	}
	return snapshot_gens(rd, o);
}

static int event(struct reader *rd, json_t *o)
{
	const char *kind = json_string_value(json_object_get(o, "kind"));
	struct rs_rec_memcg *m;
	double t, duration, budget, used, reclaimed, to_reclaim, delayed;

	if (!kind)
		return fail(rd, "an event without a \"kind\"");
	if (number(rd, o, "t", &t))
		return -1;
	if (isnan(t) || t > RS_MAX_T_S)
		return fail(rd,
			    "an event without a time since the start (\"t\")");
	rd->r->has_events = true;
	m = memcg_from(rd, o);
	if (!m)
		return -1;
	if (!strcmp(kind, rs_event_type_name(RS_EV_SHRINK))) {
		if (number(rd, o, RS_EVK_DURATION_NS, &duration) ||
		    number(rd, o, RS_EVK_BUDGET, &budget) ||
		    number(rd, o, RS_EVK_BUDGET_USED, &used))
			return -1;
		m->passes++;
		if (duration > rd->r->budget_ns)
			m->passes_over++;
		if (duration > m->pass_max_ns)
			m->pass_max_ns = duration;
		if (budget > 0 && !isnan(used)) {
			double bin = floor(used / budget * 10);

			m->budget_use[bin < RS_BUDGET_BINS - 1
					      ? (int)bin
					      : RS_BUDGET_BINS - 1]++;
		}
	} else if (!strcmp(kind, rs_event_type_name(RS_EV_RECLAIM))) {
		if (number(rd, o, RS_EVK_DURATION_NS, &duration) ||
		    number(rd, o, RS_EVK_NR_RECLAIMED, &reclaimed) ||
		    number(rd, o, RS_EVK_NR_TO_RECLAIM, &to_reclaim))
			return -1;
		/* direct stalls apart from memcg limit and proactive */
		if (!strcmp(json_string_value(
				    json_object_get(o, RS_EVK_RECLAIMER))
				    ?: "",
			    "direct")) {
			m->direct++;
			m->direct_over += duration > rd->r->budget_ns;
			if (duration > m->direct_max_ns)
				m->direct_max_ns = duration;
		} else {
			m->memcg++;
			m->memcg_over += duration > rd->r->budget_ns;
			if (duration > m->memcg_max_ns)
				m->memcg_max_ns = duration;
		}
		/* nr_reclaimed and nr_to_reclaim are checked, not summed:
		 * over_reclaim comes from the goal_* counters */
	} else if (!strcmp(kind, rs_event_type_name(RS_EV_OOM))) {
		json_t *gens = json_object_get(o, "generations"), *g;
		size_t i;

		/* lrugen while MGLRU is off: stale, read (and held to the
		 * format) but not counted */
		bool stale = !rd->mglru_now;

		m->oom_records++;
		/* no generations (no MGLRU, another MAX_NR_GENS): not a 0 */
		m->oom_lru_records += json_is_array(gens) && !stale;
		double oldest = NAN, youngest = NAN;
		bool aged = true;
		json_array_foreach (gens, i, g) {
			double anon, file, age;

			/* recordings before zones were taken at >= 0 (as
			 * debugfs lru_gen does) could sum a moment's negative
			 * zone count below 0: read, and counted as 0 */
			if (number_from(rd, g, "anon", -MAX_COUNT, &anon) ||
			    number_from(rd, g, "file", -MAX_COUNT, &file) ||
			    number(rd, g, "age_ms", &age))
				return -1;
			if (stale)
				continue;
			m->oom_anon_pages += isnan(anon) || anon < 0 ? 0 : anon;
			m->oom_file_pages += isnan(file) || file < 0 ? 0 : file;
			/* oldest first: the first age and the last, only
			 * where every generation has one (schema 6, HZ known)
			 */
			aged = aged && !isnan(age);
			if (i == 0)
				oldest = age;
			youngest = age;
		}
		if (!stale && aged && !isnan(oldest)) {
			m->oom_aged_records++;
			m->oom_oldest_ms += oldest;
			m->oom_youngest_ms += youngest;
		}
	} else if (!strcmp(kind, rs_event_type_name(RS_EV_THROTTLE))) {
		if (number(rd, o, RS_EVK_DELAYED_US, &delayed))
			return -1;
		if (delayed > m->throttle_max_us)
			m->throttle_max_us = delayed;
		m->throttle_over += delayed * 1000 > rd->r->budget_ns;
	}
	/* other kinds: counted in the totals already */
	if (rd->sink && rd->sink->event(rd->sink->ctx, m->id, m->path, o))
		return fail(rd, "%s", rd->sink->what);
	return 0;
}

/*
 * "histograms": {"pass": [[le_ns, count], ...] or null, ...}: each pair a
 * bucket's upper bound and its count.  The bounds are the log-linear
 * buckets' (rs_common.h) from schema 3 on, powers of two before, and
 * always powers of two where log2 says so (a workload's own latencies);
 * what names the histogram in errors.
 */
static int hist_pairs(struct reader *rd, json_t *arr, const char *what,
		      bool log2, __u64 ns_per_unit, struct rs_histogram *out)
{
	json_t *pair;
	size_t i;

	if (!json_is_array(arr))
		return fail(rd, "histogram \"%s\" is not an array", what);
	out->log2 = log2;
	json_array_foreach (arr, i, pair) {
		json_t *le = json_array_get(pair, 0),
		       *n = json_array_get(pair, 1);
		json_int_t bound;
		__u32 b;
		int err;

		if (!json_is_integer(le) || !json_is_integer(n) ||
		    json_array_size(pair) != 2 || json_integer_value(n) < 0)
			return fail(rd,
				    "histogram \"%s\": an entry is not "
				    "[bound_ns, count]",
				    what);
		bound = json_integer_value(le);
		/* bounds are ns; the buckets count in the histogram's unit */
		if (bound > 0 && bound % (json_int_t)ns_per_unit)
			return fail(rd,
				    "histogram \"%s\": bound %lld ns is not a "
				    "whole count of its unit (%llu ns)",
				    what, (long long)bound,
				    (unsigned long long)ns_per_unit);
		bound /= (json_int_t)ns_per_unit;
		b = rs_hist_bucket(bound > 0 ? (__u64)bound : 0);
		if (log2 && (bound <= 0 || (bound & (bound - 1)) ||
			     (__u64)bound > RS_HIST_MAX_NS))
			return fail(rd,
				    "histogram \"%s\": bound %lld is not a "
				    "power of two up to 2^%d ns",
				    what, (long long)bound,
				    RS_HIST_LOG2_BUCKETS - 1);
		if (bound <= 0 || rs_hist_bucket_hi(b) != (__u64)bound)
			return fail(rd,
				    "histogram \"%s\": bound %lld is not a "
				    "bucket's upper bound (up to 2^%d ns, %u "
				    "buckets per power of two)",
				    what, (long long)bound,
				    RS_HIST_LOG2_BUCKETS - 1, RS_HIST_SUBS);
		/* a bucket never holds more than a counter can */
		err = (double)json_integer_value(n) > MAX_COUNT
			      ? 1
			      : rs_hist_add(out, b,
					    (__u64)json_integer_value(n));
		if (err < 0)
			return fail(rd, "out of memory");
		if (err || (double)rs_hist_count(out, b) > MAX_COUNT)
			return fail(rd, "histogram \"%s\": count over %g", what,
				    MAX_COUNT);
	}
	/* nor all its buckets together: one counter's events, split by
	 * latency (summed in a __u64 they would wrap, and a quantile of
	 * the wrapped count would be printed as if right) */
	if (rs_hist_total(out) > MAX_COUNT)
		return fail(rd,
			    "histogram \"%s\": counts add up to over "
			    "%g",
			    what, MAX_COUNT);
	return 0;
}

static int histograms(struct reader *rd, json_t *o, struct rs_rec_memcg *m)
{
	json_t *hs = json_object_get(o, "histograms");

	if (!hs || json_is_null(hs))
		return 0;
	if (!json_is_object(hs))
		return fail(rd, "\"histograms\" is not an object");
	for (int h = 0; h < RS_NR_HISTS; h++) {
		json_t *arr = json_object_get(hs, rs_hist_infos[h].key);

		if (!arr || json_is_null(arr))
			continue;
		m->hist_known[h] = true;
		if (hist_pairs(rd, arr, rs_hist_infos[h].key, rd->r->schema < 3,
			       (__u64)rs_hist_infos[h].ns_per_unit,
			       &m->hist[h]))
			return -1;
	}
	return 0;
}

const char *const rs_outcome_keys[RS_NR_OUTCOME_KEYS] = {
	[RS_OUT_EXIT_STATUS] = "exit_status",
	[RS_OUT_OOM_KILLED] = "oom_killed",
	[RS_OUT_DURATION_S] = "duration_s",
	[RS_OUT_OPS] = "ops",
	[RS_OUT_OPS_PER_S] = "ops_per_s",
	[RS_OUT_MB_PER_S] = "mb_per_s",
	[RS_OUT_LAT_MEAN_MS] = "lat_mean_ms",
	[RS_OUT_LAT_P50_MS] = "lat_p50_ms",
	[RS_OUT_LAT_P95_MS] = "lat_p95_ms",
	[RS_OUT_LAT_P99_MS] = "lat_p99_ms",
	[RS_OUT_ITERATIONS] = "iterations",
	[RS_OUT_PROGRESS] = "progress",
	[RS_OUT_PGPGIN_KIB] = "pgpgin_kib",
	[RS_OUT_PGPGOUT_KIB] = "pgpgout_kib",
};

/* The entry of (workload, worker), made if new; NULL with the error set. */
static struct rs_outcome *outcome_of(struct reader *rd, const char *workload,
				     long worker, const char *memcg)
{
	struct rs_recording *r = rd->r;
	struct rs_outcome *e;
	size_t whole = SIZE_MAX; /* the workload's own entry, if any */
	bool workers = false;	 /* the workload has per-worker entries */

	for (size_t i = 0; i < r->nr_outcomes; i++) {
		e = &r->outcomes[i];
		if (strcmp(e->workload, workload))
			continue;
		if (e->worker == worker)
			return e;
		if (e->worker < 0)
			whole = i;
		else
			workers = true;
	}
	if (r->nr_outcomes >= RS_MAX_OUTCOMES) {
		fail(rd, "over %d workload outcomes", RS_MAX_OUTCOMES);
		return NULL;
	}
	if (!rs_grow((void **)&r->outcomes, &r->cap_outcomes,
		     r->nr_outcomes + 1, sizeof(*r->outcomes))) {
		fail(rd, "out of memory");
		return NULL;
	}
	e = &r->outcomes[r->nr_outcomes];
	memset(e, 0, sizeof(*e));
	e->worker = worker;
	e->workload = strdup(workload);
	e->memcg = memcg ? strdup(memcg) : NULL;
	for (int k = 0; k < RS_NR_OUTCOME_KEYS; k++)
		e->v[k] = NAN;
	if (!e->workload || (memcg && !e->memcg)) {
		free(e->workload);
		free(e->memcg);
		fail(rd, "out of memory");
		return NULL;
	}
	if (worker < 0)
		e->has_workers = workers;
	else if (whole != SIZE_MAX)
		r->outcomes[whole].has_workers = true;
	r->nr_outcomes++;
	return e;
}

/* An `outcome` record: what the workload itself measured (schema 2). */
static int outcome(struct reader *rd, json_t *o)
{
	const char *workload =
		json_string_value(json_object_get(o, "workload"));
	json_t *worker = json_object_get(o, "worker"),
	       *memcg = json_object_get(o, "memcg"),
	       *oom = json_object_get(o, "oom_killed"),
	       *hist = json_object_get(o, "lat_hist");
	struct rs_outcome *e;
	long w = -1;

	if (!workload || !*workload)
		return fail(rd, "an outcome without a \"workload\" name");
	if (worker && !json_is_null(worker)) {
		if (!json_is_integer(worker) ||
		    json_integer_value(worker) < 0 ||
		    json_integer_value(worker) > 1000000)
			return fail(rd, "outcome \"worker\" is not a number "
					"from 0 to 1000000");
		w = (long)json_integer_value(worker);
	}
	if (memcg && !json_is_null(memcg) && !json_is_string(memcg))
		return fail(rd, "outcome \"memcg\" is not a string");
	e = outcome_of(rd, workload, w, json_string_value(memcg));
	if (!e)
		return -1;
	for (int k = 0; k < RS_NR_OUTCOME_KEYS; k++) {
		double v;

		if (k == RS_OUT_OOM_KILLED)
			continue;
		if (number(rd, o, rs_outcome_keys[k], &v))
			return -1;
		if (!isnan(v))
			e->v[k] = v;
	}
	if (oom && !json_is_null(oom)) {
		if (!json_is_boolean(oom))
			return fail(rd, "outcome \"oom_killed\" is not true "
					"or false");
		e->v[RS_OUT_OOM_KILLED] = json_is_true(oom);
	}
	if (hist && !json_is_null(hist)) {
		struct rs_histogram lat = {0};
		int err = hist_pairs(rd, hist, "lat_hist", true, 1, &lat);

		rs_hist_log2(&lat, e->lat_hist);
		rs_hist_free(&lat);
		if (err)
			return -1;
		e->lat_hist_known = true;
	}
	return 0;
}

struct rs_outcome_check {
	struct rs_recording r;
	struct reader rd;
};

struct rs_outcome_check *rs_outcome_check_new(const char *name)
{
	struct rs_outcome_check *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->rd.r = &c->r;
	c->rd.name = name;
	c->rd.mglru_now = -1;
	return c;
}

int rs_outcome_check(struct rs_outcome_check *c, json_t *o, size_t line,
		     char *err, size_t errsz)
{
	const char *type = json_string_value(json_object_get(o, "type"));

	c->rd.line = line;
	c->rd.err = err;
	c->rd.errsz = errsz;
	if (!json_is_object(o) || !type || strcmp(type, "outcome"))
		return fail(&c->rd, "not an outcome record (needs type "
				    "\"outcome\")");
	/* what the reader does with it, into a recording of the outcomes
	 * taken so far: the same checks, merging and limits */
	return outcome(&c->rd, o);
}

void rs_outcome_check_free(struct rs_outcome_check *c)
{
	if (!c)
		return;
	rs_recording_free(&c->r);
	free(c);
}

/*
 * "by_reclaimer": {"kswapd": {"reclaimed": N, ...}, ...}: a reclaimer
 * absent reclaimed nothing (where the total is known).
 */
static int by_reclaimer(struct reader *rd, json_t *o, struct rs_rec_memcg *m)
{
	json_t *by = json_object_get(o, "by_reclaimer");

	if (!by || json_is_null(by))
		return 0;
	if (!json_is_object(by))
		return fail(rd, "\"by_reclaimer\" is not an object");
	for (int r = 0; r < RS_NR_RECLAIMERS; r++) {
		json_t *one = json_object_get(by, rs_reclaimer_name(r));

		m->reclaimed_by[r] = isnan(m->total[RS_F_RECLAIMED]) ? NAN : 0;
		m->pass_ns_by[r] = isnan(m->total[RS_F_PASS_TIME]) ? NAN : 0;
		if (one &&
		    (field_number(rd, one, RS_F_RECLAIMED,
				  &m->reclaimed_by[r]) ||
		     field_number(rd, one, RS_F_PASS_TIME, &m->pass_ns_by[r])))
			return -1;
	}
	return 0;
}

double rs_tiers_refault_pct(const struct rs_tiers *t, int type, int tier)
{
	const __u64 *v;
	double refaulted, total;

	if (!t || type < 0 || type > 1 || tier < 0 ||
	    (unsigned)tier >= t->nr_tiers)
		return NAN;
	v = t->v[type][tier];
	refaulted =
		(double)v[RS_TIER_AVG_REFAULTED] + (double)v[RS_TIER_REFAULTED];
	total = (double)v[RS_TIER_AVG_TOTAL] + (double)v[RS_TIER_EVICTED] +
		(double)v[RS_TIER_PROTECTED];
	return total > 0 ? 100.0 * refaulted / total : NAN;
}

/* "tiers": {"anon": [tier, ...], "file": [...]} (rs_json_tiers); null or
 * absent: none read. */
static int tiers(struct reader *rd, json_t *o, struct rs_rec_memcg *m)
{
	json_t *t = json_object_get(o, "tiers");

	m->has_tiers = false;
	if (!t || json_is_null(t))
		return 0;
	if (!json_is_object(t))
		return fail(rd, "\"tiers\" is not an object");
	memset(&m->tiers, 0, sizeof(m->tiers));
	for (int type = 0; type < 2; type++) {
		json_t *arr = json_object_get(t, type ? "file" : "anon"), *e;
		size_t tier;

		if (!json_is_array(arr) ||
		    json_array_size(arr) > RS_MAX_NR_TIERS)
			return fail(rd,
				    "\"tiers\" needs \"anon\" and \"file\" "
				    "arrays of at most %d tiers",
				    RS_MAX_NR_TIERS);
		json_array_foreach (arr, tier, e) {
			for (int c = 0; c < RS_NR_TIER_COUNTERS; c++) {
				double v;

				if (number(rd, e, rs_tier_counter_name(c), &v))
					return -1;
				m->tiers.v[type][tier][c] =
					isnan(v) ? 0 : (__u64)v;
			}
		}
		if (json_array_size(arr) > m->tiers.nr_tiers)
			m->tiers.nr_tiers = (unsigned)json_array_size(arr);
	}
	m->has_tiers = true;
	return 0;
}

static int stalls(struct reader *rd, json_t *arr);

static int summary(struct reader *rd, json_t *o)
{
	json_t *memcgs = json_object_get(o, "memcgs"), *e;
	struct rs_recording *r = rd->r;
	double v;
	size_t i;

	if (number(rd, o, "duration", &r->duration))
		return -1;
	for (size_t i = 0; i < rs_nr_global_stats; i++) {
		__u64 *to = stat_of(r, rs_global_stats[i].stat);

		if (!to)
			continue;
		if (number(rd, o, rs_global_stats[i].key, &v))
			return -1;
		*to = isnan(v) ? 0 : (__u64)v;
	}
	if (!json_is_array(memcgs))
		return fail(rd, "the summary has no \"memcgs\" array");
	json_array_foreach (memcgs, i, e) {
		struct rs_rec_memcg *m = memcg_from(rd, e);

		if (!m)
			return -1;
		/* a second entry would add its histograms to the first's and
		 * replace its counters: neither is the memcg's */
		if (m->in_summary)
			return fail(rd,
				    "memcg %llu is listed twice in the summary",
				    (unsigned long long)m->id);
		m->in_summary = true;
		for (int f = 0; f < RS_NR_FIELDS; f++)
			if (field_number(rd, e, f, &m->total[f]))
				return -1;
		if (number(rd, e, "mem_current_avg", &m->mem_current_avg) ||
		    histograms(rd, e, m) || by_reclaimer(rd, e, m) ||
		    tiers(rd, e, m))
			return -1;
	}
	if (stalls(rd, json_object_get(o, "stalls")))
		return -1;
	r->has_summary = true;
	return 0;
}

static int by_stall_time(const void *a, const void *b)
{
	const struct rs_rec_stall *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The summary's "stalls" (absent in recordings before them). */
static int stalls(struct reader *rd, json_t *arr)
{
	struct rs_recording *r = rd->r;
	json_t *e;
	size_t i;

	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return fail(rd, "\"stalls\" is not an array");
	r->stalls = calloc(json_array_size(arr) ? json_array_size(arr) : 1,
			   sizeof(*r->stalls));
	if (!r->stalls)
		return fail(rd, "out of memory");
	json_array_foreach (arr, i, e) {
		struct rs_rec_stall *s = &r->stalls[r->nr_stalls];
		json_t *tid = json_object_get(e, "tid"),
		       *tgid = json_object_get(e, "tgid"),
		       *id = json_object_get(e, "id");
		const char *comm =
			json_string_value(json_object_get(e, "comm"));
		int kind = rs_stall_kind_of(
			json_string_value(json_object_get(e, "kind")));

		if (!json_is_integer(tid) || json_integer_value(tid) < 0 ||
		    json_integer_value(tid) > UINT32_MAX ||
		    !json_is_integer(tgid) || json_integer_value(tgid) < 0 ||
		    json_integer_value(tgid) > UINT32_MAX ||
		    !json_is_integer(id) || json_integer_value(id) < 0 ||
		    !comm || kind < 0)
			return fail(rd,
				    "a stall without a valid tid, tgid, id, "
				    "comm or kind");
		if (number(rd, e, "count", &s->count) ||
		    number(rd, e, "total_ns", &s->total_ns) ||
		    number(rd, e, "max_ns", &s->max_ns))
			return -1;
		if (isnan(s->count) || isnan(s->total_ns) || isnan(s->max_ns) ||
		    s->max_ns > s->total_ns)
			return fail(rd, "a stall without its count, total_ns "
					"and max_ns (at most its total)");
		if (number(rd, e, "over_budget", &s->over_budget))
			return -1;
		if (s->over_budget > s->count)
			return fail(rd, "a stall with more over the budget "
					"than its count");
		if (s->count != floor(s->count) ||
		    (!isnan(s->over_budget) &&
		     s->over_budget != floor(s->over_budget)))
			return fail(rd, "a stall whose count or over_budget "
					"is not a whole number");
		s->comm = strdup(comm);
		if (!s->comm)
			return fail(rd, "out of memory");
		s->tid = (__u32)json_integer_value(tid);
		s->tgid = (__u32)json_integer_value(tgid);
		s->id = (__u64)json_integer_value(id);
		s->kind = kind;
		s->gone = json_is_true(json_object_get(e, "gone"));
		r->nr_stalls++;
	}
	qsort(r->stalls, r->nr_stalls, sizeof(*r->stalls), by_stall_time);
	r->has_stalls = true;
	return 0;
}

static int one_line(struct reader *rd, const char *text, size_t len)
{
	json_error_t jerr;
	json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	const char *type;
	int rc = 0;

	if (!o)
		return fail(rd, "not JSON: %s (column %d)", jerr.text,
			    jerr.column);
	type = json_string_value(json_object_get(o, "type"));
	if (!json_is_object(o) || !type)
		rc = fail(rd, "not a record: no \"type\"");
	else if (!rd->header_seen && strcmp(type, "header"))
		rc = fail(rd,
			  "the first record is a \"%s\", not the header "
			  "(not a reclaimscope recording?)",
			  type);
	else if (!strcmp(type, "header"))
		rc = !rd->header_seen ? header(rd, o)
				      : fail(rd, "a second header");
	else if (rd->r->has_summary)
		rc = fail(rd, "a \"%s\" after the summary", type);
	else if (!strcmp(type, "snapshot"))
		rc = snapshot(rd, o);
	else if (!strcmp(type, "event"))
		rc = event(rd, o);
	else if (!strcmp(type, "summary"))
		rc = summary(rd, o);
	else if (!strcmp(type, "outcome"))
		rc = outcome(rd, o);
	/* other types: from a newer writer, ignored as the format says */
	json_decref(o);
	return rc;
}

static int by_id(const void *a, const void *b)
{
	const struct rs_rec_memcg *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * One line of at most max bytes into *buf (grown as needed): its length,
 * -1 at the end of the file, -2 when it is longer than max (the rest of
 * it is not read: a huge line costs max bytes of memory, not its size).
 */
static ssize_t read_line(FILE *f, char **buf, size_t *cap, size_t max)
{
	size_t len = 0;
	int c;

	/* byte by byte (getc_unlocked is a macro on a buffer): NUL bytes in
	 * junk count like any other, so the bound always holds */
	while ((c = getc_unlocked(f)) != EOF) {
		if (len + 2 > *cap) {
			size_t n = *cap ? *cap * 2 : 4096;
			char *p;

			if (len > max)
				return -2;
			p = realloc(*buf, n);
			if (!p)
				return -3;
			*buf = p;
			*cap = n;
		}
		(*buf)[len++] = (char)c;
		if (c == '\n')
			break;
		if (len > max)
			return -2;
	}
	if (!len)
		return -1;
	(*buf)[len] = '\0';
	return (ssize_t)len;
}

/*
 * Each memcg's counts over the latency budget within the counts they are
 * part of (a hostile file could claim more passes over the budget than
 * passes).
 */
static int over_budget_within(struct reader *rd)
{
	for (size_t i = 0; i < rd->r->nr_memcgs; i++)
		for (int f = 0; f < RS_NR_FIELDS; f++) {
			const struct rs_rec_memcg *m = &rd->r->memcgs[i];
			int whole = rs_field_over_budget_of(f);
			double over = m->total[f],
			       all = whole < 0 ? NAN : m->total[whole];

			if (whole >= 0 && !isnan(over) &&
			    (isnan(all) || over > all))
				return fail(rd,
					    "memcg id %llu: %s %.0f over %s "
					    "%.0f",
					    (unsigned long long)m->id,
					    rs_fields[f].key, over,
					    rs_fields[whole].key, all);
		}
	return 0;
}

/* No summary (cut short): the totals are the sums of the snapshots. */
static void totals_from_snapshots(struct reader *rd)
{
	struct rs_recording *r = rd->r;

	r->duration = rd->last_t;
	for (size_t k = 0; k < rs_nr_global_stats; k++) {
		__u64 *to = stat_of(r, rs_global_stats[k].stat);

		if (to)
			*to = (__u64)fmax(
				0, rd->snap_stats[rs_global_stats[k].stat]);
	}
	for (size_t i = 0; i < r->nr_memcgs; i++)
		for (int f = 0; f < RS_NR_FIELDS; f++)
			r->memcgs[i].total[f] =
				rd->snap_sum[i * RS_NR_FIELDS + f];
}

/*
 * cgroup v2's root has no memory.events (the kernel makes it for every
 * memcg but the root), so its OOM kills are unknown; recordings made
 * before the collector said so hold a 0 there, which would stand for the
 * whole machine in a total: taken as unknown.
 */
static void root_without_events(struct rs_recording *r)
{
	if (r->cgroup_version == 1)
		return;
	for (size_t i = 0; i < r->nr_memcgs; i++)
		if (r->memcgs[i].path && !strcmp(r->memcgs[i].path, "/"))
			r->memcgs[i].total[RS_F_OOM_KILLS] = NAN;
}

bool rs_recording_budget_counted(const struct rs_recording *r)
{
	return r->kernel_budget_ns > 0 && r->kernel_budget_ns == r->budget_ns;
}

int rs_recording_read(FILE *f, const char *name, double budget_ns,
		      struct rs_recording *r, char *err, size_t errsz)
{
	return rs_recording_read_events(f, name, budget_ns, r, NULL, err,
					errsz);
}

int rs_recording_read_events(FILE *f, const char *name, double budget_ns,
			     struct rs_recording *r,
			     const struct rs_event_sink *sink, char *err,
			     size_t errsz)
{
	struct reader rd = {.r = r,
			    .name = name,
			    .err = err,
			    .errsz = errsz,
			    .sink = sink,
			    .mglru_now = -1};
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->budget_ns = budget_ns;
	r->page_size = RS_PAGE_SIZE_UNSAID;
	for (;;) {
		bool complete;

		len = read_line(f, &buf, &cap, RS_MAX_LINE);
		if (len == -1)
			break;
		rd.line++;
		if (len == -2) {
			rc = fail(&rd, "a line of over %d bytes", RS_MAX_LINE);
			break;
		}
		if (len < 0) {
			rc = fail(&rd, "out of memory");
			break;
		}
		complete = buf[len - 1] == '\n';
		if (len == 0 || (len == 1 && complete))
			continue;
		if (one_line(&rd, buf, (size_t)len)) {
			/* a last line without its newline: cut short while
			 * being written; what came before stands */
			if (!complete && rd.line > 1 && getc(f) == EOF)
				break;
			rc = -1;
			break;
		}
	}
	free(buf);
	r->lines = rd.line;
	if (!rc && rd.line == 0)
		rc = fail(&rd, "empty: not a recording");
	if (!rc && !rd.header_seen)
		rc = fail(&rd, "no header: not a recording");
	if (!rc && !r->has_summary)
		totals_from_snapshots(&rd);
	if (!rc)
		root_without_events(r);
	/* the timelines' open ends hold until the last snapshot */
	for (size_t i = 0; !rc && i < r->nr_memcgs; i++) {
		for (unsigned k = 0; k < r->memcgs[i].nr_last_gens; k++)
			gens_end(&rd, &r->memcgs[i], &r->memcgs[i].last_gens[k],
				 rd.last_t);
		free(r->memcgs[i].last_gens);
		r->memcgs[i].last_gens = NULL;
		r->memcgs[i].nr_last_gens = 0;
	}
	if (!rc)
		rc = over_budget_within(&rd);
	if (!rc && r->nr_memcgs)
		qsort(r->memcgs, r->nr_memcgs, sizeof(*r->memcgs), by_id);
	free(rd.slots);
	free(rd.snap_sum);
	if (rc) {
		rs_recording_free(r);
		return -1;
	}
	return 0;
}

void rs_rec_memcg_release(struct rs_rec_memcg *m)
{
	free(m->path);
	free(m->points);
	free(m->last_gens);
	free(m->gpoints);
	m->path = NULL;
	m->points = NULL;
	m->last_gens = NULL;
	m->nr_last_gens = 0;
	m->gpoints = NULL;
	m->nr_gpoints = 0;
	for (int h = 0; h < RS_NR_HISTS; h++)
		rs_hist_free(&m->hist[h]);
}

void rs_recording_free(struct rs_recording *r)
{
	for (size_t i = 0; i < r->nr_stalls; i++)
		free(r->stalls[i].comm);
	free(r->stalls);
	for (size_t i = 0; i < r->nr_memcgs; i++)
		rs_rec_memcg_release(&r->memcgs[i]);
	free(r->memcgs);
	for (size_t i = 0; i < r->nr_outcomes; i++) {
		free(r->outcomes[i].workload);
		free(r->outcomes[i].memcg);
	}
	free(r->outcomes);
	free(r->snap_t);
	free(r->cgroup_filter);
	free(r->kernel);
	free(r->start);
	memset(r, 0, sizeof(*r));
}

const struct rs_rec_memcg *rs_recording_find(const struct rs_recording *r,
					     const char *path)
{
	for (size_t i = 0; i < r->nr_memcgs; i++)
		if (r->memcgs[i].path && !strcmp(r->memcgs[i].path, path))
			return &r->memcgs[i];
	return NULL;
}
