// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "fields.h"
#include "util.h"

/*
 * A figure from event records: only when the recording has every one (with
 * some dropped, a maximum or a count over budget would be a guess).
 */
static double from_events(const struct rs_recording *r, double v)
{
	return r->has_events && !r->drops && !r->missed ? v : NAN;
}

/* Pages summed over a memcg's oom records, as a mean in MiB over those
 * that carry the LRU's generations, in the recorded kernel's pages. */
static double oom_mean_mib(const struct rs_recording *r,
			   const struct rs_rec_memcg *m, double pages)
{
	return m->oom_lru_records
		       ? pages / m->oom_lru_records * r->page_size / 1048576
		       : NAN;
}

/*
 * A count over the latency budget: the kernel's where it counted against
 * the budget asked for, else the event records' (if the recording has every
 * one), else unknown.
 */
static void over_budget(const struct rs_recording *r, struct rs_values *v,
			enum rs_field f, __u64 from_records)
{
	if (rs_recording_budget_counted(r) && !isnan(v->field[f]))
		return;
	v->field[f] = from_events(r, (double)from_records);
}

void rs_rec_values(const struct rs_recording *r, const struct rs_rec_memcg *m,
		   struct rs_values *v)
{
	double throttles = m->total[RS_F_THROTTLES];

	rs_values_init(v, r->duration);
	memcpy(v->field, m->total, sizeof(v->field));
	for (int h = 0; h < RS_NR_HISTS; h++)
		v->hist[h] = m->hist_known[h] ? &m->hist[h] : NULL;
	v->gauge[RS_GAUGE_MEM] = m->mem_current_avg;
	v->tiers = m->has_tiers ? &m->tiers : NULL;
	v->gens = m->gens;
	v->has_gens = m->has_gens;
	v->event_max_ms[RS_HIST_PASS] =
		from_events(r, m->passes ? m->pass_max_ns / 1e6 : NAN);
	v->event_max_ms[RS_HIST_DIRECT] =
		from_events(r, m->direct ? m->direct_max_ns / 1e6 : NAN);
	v->event_max_ms[RS_HIST_MEMCG] =
		from_events(r, m->memcg ? m->memcg_max_ns / 1e6 : NAN);
	v->event_max_ms[RS_HIST_THROTTLE] =
		from_events(r, throttles > 0 ? m->throttle_max_us / 1e3 : NAN);
	over_budget(r, v, RS_F_PASSES_OVER_BUDGET, m->passes_over);
	over_budget(r, v, RS_F_DIRECT_OVER_BUDGET, m->direct_over);
	over_budget(r, v, RS_F_MEMCG_OVER_BUDGET, m->memcg_over);
	over_budget(r, v, RS_F_THROTTLES_OVER_BUDGET, m->throttle_over);
	memcpy(v->reclaimed_by, m->reclaimed_by, sizeof(v->reclaimed_by));
	for (int r = 0; r < RS_NR_RECLAIMERS; r++)
		v->pass_ms_by[r] = m->pass_ns_by[r] / 1e6;
	v->event_value[RS_EVV_OOM_FILE_MIB] =
		from_events(r, oom_mean_mib(r, m, m->oom_file_pages));
	v->event_value[RS_EVV_OOM_ANON_MIB] =
		from_events(r, oom_mean_mib(r, m, m->oom_anon_pages));
	v->event_value[RS_EVV_OOM_OLDEST_AGE_MS] = from_events(
		r, m->oom_aged_records ? m->oom_oldest_ms / m->oom_aged_records
				       : NAN);
	v->event_value[RS_EVV_OOM_YOUNGEST_AGE_MS] =
		from_events(r, m->oom_aged_records ? m->oom_youngest_ms /
							     m->oom_aged_records
						   : NAN);
	v->outcomes = r->outcomes;
	v->nr_outcomes = r->nr_outcomes;
	v->path = m->path;
	v->is_total = m->is_total;
}

double rs_rec_row_value(const struct rs_recording *r,
			const struct rs_rec_memcg *m, int i)
{
	struct rs_values v;

	rs_rec_values(r, m, &v);
	return rs_row_number(&v, i);
}

bool rs_rec_memcg_listed(const struct rs_recording *r,
			 const struct rs_rec_memcg *m)
{
	return !r->has_summary || m->in_summary;
}

/* a + b where NaN (unknown) wins: a total of partly unknown is unknown */
static double add(double a, double b)
{
	return a + b;
}

/*
 * The listed memcgs by path, sorted: which of them lie above or below a
 * path, in O(depth log n) rather than a scan of every memcg.
 */
struct path_entry {
	const char *path; /* first: the entries sort and search as strings */
	const struct rs_rec_memcg *m;
};

struct path_index {
	struct path_entry *e;
	size_t nr;
};

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* false when out of memory */
static bool index_paths(const struct rs_recording *r, struct path_index *ix)
{
	ix->nr = 0;
	ix->e = calloc(r->nr_memcgs ? r->nr_memcgs : 1, sizeof(*ix->e));
	if (!ix->e)
		return false;
	for (size_t i = 0; i < r->nr_memcgs; i++)
		if (r->memcgs[i].path && r->memcgs[i].path[0] == '/' &&
		    rs_rec_memcg_listed(r, &r->memcgs[i]))
			ix->e[ix->nr++] = (struct path_entry){r->memcgs[i].path,
							      &r->memcgs[i]};
	qsort(ix->e, ix->nr, sizeof(*ix->e), by_string);
	return true;
}

/* The listed memcg of path; NULL if none. */
static const struct rs_rec_memcg *indexed(const struct path_index *ix,
					  const char *path)
{
	bool found;
	size_t pos = rs_sorted_find(ix->e, ix->nr, sizeof(*ix->e), &path,
				    by_string, &found);

	return found ? ix->e[pos].m : NULL;
}

/* a listed memcg that knows field f (any field for f < 0) */
static bool knows(const struct rs_rec_memcg *a, int f)
{
	return a && (f < 0 || !isnan(a->total[f]));
}

/*
 * A listed memcg lies above path (and, for f >= 0, knows field f: cgroup
 * v2's root has no memory.events, so its OOM kills do not stand for its
 * descendants').
 */
static bool has_ancestor(const struct path_index *ix, const char *path, int f)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len >= sizeof(buf) || !strcmp(path, "/"))
		return false;
	memcpy(buf, path, len + 1);
	for (char *slash = strrchr(buf, '/'); slash;
	     slash = strrchr(buf, '/')) {
		if (slash == buf) /* the root */
			return knows(indexed(ix, "/"), f);
		*slash = '\0';
		if (knows(indexed(ix, buf), f))
			return true;
	}
	return false;
}

/* A listed memcg lies below path: the first path after "path/" in order. */
static bool has_descendant(const struct path_index *ix, const char *path)
{
	char buf[4096];
	bool found;
	size_t pos, len = strlen(path);
	const char *key = buf;

	if (!strcmp(path, "/"))
		len = 0;
	if (len + 2 > sizeof(buf))
		return false;
	memcpy(buf, path, len);
	buf[len] = '/';
	buf[len + 1] = '\0';
	pos = rs_sorted_find(ix->e, ix->nr, sizeof(*ix->e), &key, by_string,
			     &found);
	return pos < ix->nr && !strncmp(ix->e[pos].path, buf, len + 1);
}

void rs_recording_total(const struct rs_recording *r, struct rs_rec_memcg *t)
{
	double mem = 0;
	bool mem_known = false;
	struct path_index ix;
	/* cgroup v2's own counters include the descendants' */
	bool nested = r->cgroup_version != 1 && index_paths(r, &ix);

	memset(t, 0, sizeof(*t));
	t->path = strdup("(total)");
	t->is_total = true;
	t->mem_current_avg = NAN;
	t->gens = RS_GENS_ACC_EMPTY;
	for (int h = 0; h < RS_NR_HISTS; h++)
		t->hist_known[h] = r->nr_memcgs > 0;
	for (size_t i = 0; i < r->nr_memcgs; i++) {
		const struct rs_rec_memcg *m = &r->memcgs[i];

		if (!rs_rec_memcg_listed(r, m))
			continue;
		/*
		 * A memcg's own counters (cgroupfs) include its descendants':
		 * left out where a listed ancestor that knows them counts it
		 * already, and where it does not know them itself (cgroup v2's
		 * root has no memory.events) but listed descendants do.
		 */
		for (int f = 0; f < RS_NR_FIELDS; f++) {
			bool own_file =
				rs_fields[f].needs & RS_HOOK_BIT(CGROUPFS);

			if (own_file && nested && m->path &&
			    (has_ancestor(&ix, m->path, f) ||
			     (isnan(m->total[f]) &&
			      has_descendant(&ix, m->path))))
				continue;
			t->total[f] = add(t->total[f], m->total[f]);
		}
		for (int h = 0; h < RS_NR_HISTS; h++) {
			t->hist_known[h] &= m->hist_known[h];
			/* a sum past what a __u64 holds is unknown, not
			 * wrapped (and without memory, not known either) */
			if (t->hist_known[h] &&
			    rs_hist_merge(&t->hist[h], &m->hist[h]))
				t->hist_known[h] = false;
		}
		/* every memcg's own lruvecs: no descendant in them */
		if (m->has_gens) {
			rs_gens_acc_merge(&t->gens, &m->gens);
			t->has_gens = true;
		}
		t->passes += m->passes;
		t->passes_over += m->passes_over;
		t->direct += m->direct;
		t->direct_over += m->direct_over;
		t->memcg += m->memcg;
		t->memcg_over += m->memcg_over;
		t->throttle_over += m->throttle_over;
		t->pass_max_ns = fmax(t->pass_max_ns, m->pass_max_ns);
		t->direct_max_ns = fmax(t->direct_max_ns, m->direct_max_ns);
		t->memcg_max_ns = fmax(t->memcg_max_ns, m->memcg_max_ns);
		t->throttle_max_us =
			fmax(t->throttle_max_us, m->throttle_max_us);
		for (int b = 0; b < RS_BUDGET_BINS; b++)
			t->budget_use[b] += m->budget_use[b];
		for (int r = 0; r < RS_NR_RECLAIMERS; r++)
			t->reclaimed_by[r] =
				add(t->reclaimed_by[r], m->reclaimed_by[r]);
		for (int r = 0; r < RS_NR_RECLAIMERS; r++)
			t->pass_ns_by[r] =
				add(t->pass_ns_by[r], m->pass_ns_by[r]);
		t->oom_records += m->oom_records;
		t->oom_lru_records += m->oom_lru_records;
		t->oom_file_pages += m->oom_file_pages;
		t->oom_anon_pages += m->oom_anon_pages;
		t->oom_aged_records += m->oom_aged_records;
		t->oom_oldest_ms += m->oom_oldest_ms;
		t->oom_youngest_ms += m->oom_youngest_ms;
		/* memory.current is hierarchical: only the root's would do */
		if (m->path && !strcmp(m->path, "/") &&
		    !isnan(m->mem_current_avg)) {
			mem = m->mem_current_avg;
			mem_known = true;
		}
	}
	if (mem_known)
		t->mem_current_avg = mem;
	if (nested)
		free(ix.e);
}

int rs_rec_memcg_fold_log2(struct rs_rec_memcg *m)
{
	for (int h = 0; h < RS_NR_HISTS; h++)
		if (rs_hist_fold_log2(&m->hist[h]))
			return -1;
	return 0;
}

int rs_recording_fold_log2(struct rs_recording *r)
{
	for (size_t i = 0; i < r->nr_memcgs; i++)
		if (rs_rec_memcg_fold_log2(&r->memcgs[i]))
			return -1;
	return 0;
}

double rs_fairness(const struct rs_recording *r, int *n)
{
	double *x = calloc(r->nr_memcgs ? r->nr_memcgs : 1, sizeof(*x));
	double j;
	struct path_index ix;

	*n = 0;
	if (!x || !index_paths(r, &ix)) {
		free(x);
		return NAN;
	}
	for (size_t i = 0; i < r->nr_memcgs; i++) {
		const struct rs_rec_memcg *m = &r->memcgs[i];
		double pages = m->mem_current_avg / r->page_size;

		if (!rs_rec_memcg_listed(r, m) || !m->path ||
		    m->path[0] != '/' || !(pages >= 1) ||
		    isnan(m->total[RS_F_RECLAIMED]) ||
		    has_descendant(&ix, m->path)) /* leaves only */
			continue;
		x[(*n)++] = m->total[RS_F_RECLAIMED] / pages;
	}
	j = *n >= 2 ? rs_jain(x, *n) : NAN;
	free(x);
	free(ix.e);
	return j;
}
