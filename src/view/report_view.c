// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "json_view.h"
#include "report_view.h"
#include "analysis.h"
#include "fields.h"
#include "model.h"
#include "util.h"

/* Most reclaimed first, unknown last, then by id: one order for a file. */
static int more_reclaimed(const void *x, const void *y)
{
	const struct rs_rec_memcg *a = *(const struct rs_rec_memcg *const *)x,
				  *b = *(const struct rs_rec_memcg *const *)y;
	double va = a->total[RS_F_RECLAIMED], vb = b->total[RS_F_RECLAIMED];

	if (isnan(va) != isnan(vb))
		return isnan(va) ? 1 : -1;
	if (!isnan(va) && va != vb)
		return va > vb ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

/* Listed memcgs, most reclaimed first (unknown last). */
static const struct rs_rec_memcg **by_reclaim(const struct rs_recording *r,
					      size_t *nr)
{
	const struct rs_rec_memcg **list =
		calloc(r->nr_memcgs ? r->nr_memcgs : 1,
		       sizeof(const struct rs_rec_memcg *));
	size_t n = 0;

	if (!list) {
		*nr = 0;
		return NULL;
	}
	for (size_t i = 0; i < r->nr_memcgs; i++)
		if (rs_rec_memcg_listed(r, &r->memcgs[i]))
			list[n++] = &r->memcgs[i];
	/* a recording may hold 100,000 memcgs: O(n log n) */
	qsort(list, n, sizeof(const struct rs_rec_memcg *), more_reclaimed);
	*nr = n;
	return list;
}

/*
 * A recording's path for a terminal or a page: its control characters
 * escaped (a hostile file may carry them; ours never do, rs_escape_name).
 */
static const char *path_of(const struct rs_rec_memcg *m, char *buf, size_t size)
{
	if (m->path)
		return rs_name_shown(m->path, buf, size, 0);
	snprintf(buf, size, "(id %llu)", (unsigned long long)m->id);
	return buf;
}

const char *rs_metric_shown(const struct rs_recording *r, int i, double v,
			    char *buf, size_t size)
{
	enum rs_row_kind kind = rs_rows[i].kind;
	bool from_events =
		kind == RS_ROW_EVENT_MAX || kind == RS_ROW_EVENT_VALUE;

	if (isnan(v) && rs_rows[i].kind == RS_ROW_FIELD &&
	    rs_field_over_budget_of(rs_rows[i].a) >= 0 && !r->has_events &&
	    r->kernel_budget_ns > 0 && !rs_recording_budget_counted(r))
		snprintf(buf, size, "n/a (counted over %.9g ms)",
			 r->kernel_budget_ns / 1e6);
	else if (isnan(v))
		snprintf(buf, size, "%s",
			 !r->has_events && from_events ? "n/a (no --events)"
						       : "n/a");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.3f", v);
	return buf;
}

static void header_lines(FILE *out, const char *name,
			 const struct rs_recording *r)
{
	int n;
	double j = rs_fairness(r, &n);
	char nb[RS_PATH_BUF], kb[RS_PATH_BUF], sb[RS_PATH_BUF];

	/* every string of a recording is shown escaped: a hostile file's
	 * kernel or start could hold terminal escapes */
	fprintf(out, "reclaimscope report: %s\n",
		rs_name_shown(name, nb, sizeof(nb), 0));
	fprintf(out,
		"kernel %s, started %s, %.1f s, MGLRU %s, reclaim series %s, "
		"event records %s, pages of %g KiB%s\n",
		rs_name_shown(r->kernel, kb, sizeof(kb), 0),
		rs_name_shown(r->start, sb, sizeof(sb), 0), r->duration,
		r->mglru ? "on" : "off", r->series ? "yes" : "no",
		r->has_events ? "yes" : "no", r->page_size / 1024,
		r->page_size_said ? ""
				  : " (not in the recording, which is older: "
				    "taken as x86-64's)");
	if (!r->has_summary)
		fprintf(out,
			"warning: no summary (the recording was cut short "
			"after line %zu): totals are the sums of the "
			"snapshots, histograms unknown\n",
			r->lines);
	fprintf(out,
		"drops %llu (event records), lost %llu (events), map full "
		"%llu (counter updates)\n",
		(unsigned long long)r->drops, (unsigned long long)r->missed,
		(unsigned long long)r->agg_full);
	if (r->drops || r->missed || r->agg_full)
		fprintf(out,
			"warning: %llu event records dropped, %llu events "
			"lost, %llu counter updates lost (map full): event "
			"figures are incomplete; totals stay exact unless "
			"events were lost\n",
			(unsigned long long)r->drops,
			(unsigned long long)r->missed,
			(unsigned long long)r->agg_full);
	if (r->hist_full)
		fprintf(out,
			"warning: %llu latency histogram updates lost (map "
			"full): percentiles may be too low\n",
			(unsigned long long)r->hist_full);
	if (r->state_misses)
		fprintf(out,
			"warning: %llu events had no per-task state (the "
			"kernel refused it): what they scanned and reclaimed "
			"is not counted, so totals may be below memory.stat\n",
			(unsigned long long)r->state_misses);
	fprintf(out, "latency budget %.9g ms", r->budget_ns / 1e6);
	if (rs_recording_budget_counted(r))
		fprintf(out, " (counted in the kernel)\n");
	else if (r->kernel_budget_ns > 0)
		fprintf(out, " (the kernel counted over %.9g ms: counts %s)\n",
			r->kernel_budget_ns / 1e6,
			r->has_events ? "from event records" : "n/a");
	else
		fprintf(out, " (counts %s)\n",
			r->has_events ? "from event records"
				      : "n/a: the recording has no "
					"--events and predates budget counts");
	if (isnan(j))
		fprintf(out,
			"fairness (Jain's index of pages reclaimed per page "
			"held, over leaf memcgs): n/a (needs two leaf memcgs "
			"with memory.current)\n");
	else
		fprintf(out,
			"fairness (Jain's index of pages reclaimed per page "
			"held, over %d leaf memcgs): %.3f\n",
			n, j);
}

/* shown[i]: row i is printed (NULL: every row) */
static void memcg_text(FILE *out, const struct rs_recording *r,
		       const struct rs_rec_memcg *m, const bool *shown)
{
	const char *section = NULL;
	char buf[64], pb[RS_PATH_BUF];
	const int *order = rs_report_order();

	fprintf(out, "\n== %s%s ==\n", path_of(m, pb, sizeof(pb)),
		m->gone ? " (gone)" : "");
	for (int j = 0; j < rs_nr_report_rows; j++) {
		int i = order[j];
		double v;

		if (shown && !shown[i])
			continue;
		v = rs_rec_row_value(r, m, i);

		/* a workload's own figures: only where it gave them */
		if (isnan(v) && (rs_rows[i].kind == RS_ROW_OUTCOME))
			continue;
		if (!section || strcmp(section, rs_rows[i].section)) {
			section = rs_rows[i].section;
			fprintf(out, "  %s\n", section);
		}
		fprintf(out, "    %-22s %18s  %s\n", rs_rows[i].key,
			rs_metric_shown(r, i, v, buf, sizeof(buf)),
			rs_row_unit(i));
	}
}

/* The latency buckets a workload measured, as the seed's tables show them. */
static void lat_buckets_text(FILE *out, const struct rs_outcome *e)
{
	__u64 total = 0, seen = 0;

	for (int b = 0; b < RS_HIST_LOG2_BUCKETS; b++)
		total += e->lat_hist[b];
	if (!total)
		return;
	fprintf(out, "    %-21s %10s %8s %8s\n", "latency bucket", "count",
		"pct", "cumul");
	for (int b = 0; b < RS_HIST_LOG2_BUCKETS; b++) {
		char range[48];

		if (!e->lat_hist[b])
			continue;
		seen += e->lat_hist[b];
		/* bucket b holds (2^(b-1), 2^b] ns */
		snprintf(range, sizeof(range), "(%.3g, %.3g] ms",
			 b ? ldexp(1, b - 1) / 1e6 : 0, ldexp(1, b) / 1e6);
		fprintf(out, "    %-21s %10llu %7.2f%% %7.2f%%\n", range,
			(unsigned long long)e->lat_hist[b],
			100.0 * (double)e->lat_hist[b] / (double)total,
			100.0 * (double)seen / (double)total);
	}
}

/* What each workload reported of itself, the whole first, then workers. */
static void outcomes_text(FILE *out, const struct rs_recording *r)
{
	char pb[RS_PATH_BUF];

	if (!r->nr_outcomes)
		return;
	fprintf(out,
		"\nworkload outcome (what the workload measured itself)\n");
	for (size_t i = 0; i < r->nr_outcomes; i++) {
		const struct rs_outcome *e = &r->outcomes[i];

		if (e->worker >= 0 && r->nr_outcomes > 16)
			continue; /* many workers: their mean and Jain's index
				   */
		fprintf(out, "  %s",
			rs_name_shown(e->workload, pb, sizeof(pb), 0));
		if (e->worker >= 0)
			fprintf(out, " worker %ld", e->worker);
		if (e->memcg)
			fprintf(out, " in %s",
				rs_name_shown(e->memcg, pb, sizeof(pb), 0));
		fputc(':', out);
		for (int k = 0; k < RS_NR_OUTCOME_KEYS; k++) {
			if (isnan(e->v[k]))
				continue;
			if (k == RS_OUT_OOM_KILLED)
				fprintf(out, " %s %s", rs_outcome_keys[k],
					e->v[k] ? "yes" : "no");
			else
				fprintf(out, " %s %.6g", rs_outcome_keys[k],
					e->v[k]);
		}
		fputc('\n', out);
		if (e->lat_hist_known)
			lat_buckets_text(out, e);
	}
}

/*
 * Which rows have something to say somewhere: a value neither null nor 0
 * in the total or some memcg.  The rest are folded; returns how many.
 */
static int rows_with_values(const struct rs_recording *r,
			    const struct rs_rec_memcg *total,
			    const struct rs_rec_memcg **list, size_t nr,
			    bool *shown)
{
	int folded = 0;

	for (int i = 0; i < rs_nr_report_rows; i++) {
		double v = rs_rec_row_value(r, total, i);

		/* a workload's own figures are shown wherever it gave them,
		 * 0 OOM kills included: that is its result */
		shown[i] = rs_rows[i].kind == RS_ROW_OUTCOME ||
			   (!isnan(v) && v != 0);
		for (size_t k = 0; k < nr && !shown[i]; k++) {
			v = rs_rec_row_value(r, list[k], i);
			shown[i] = !isnan(v) && v != 0;
		}
		folded += !shown[i];
	}
	return folded;
}

static const struct rs_rec_memcg *memcg_by_id(const struct rs_recording *r,
					      __u64 id)
{
	size_t lo = 0, hi = r->nr_memcgs;

	while (lo < hi) { /* memcgs are sorted by id */
		size_t mid = lo + (hi - lo) / 2;

		if (r->memcgs[mid].id == id)
			return &r->memcgs[mid];
		if (r->memcgs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

#define STALLERS_SHOWN 10

/*
 * A task's stalls over the latency budget: the kernel's count, where it
 * counted against the budget asked for; else NaN.
 */
static double stall_over_budget(const struct rs_recording *r,
				const struct rs_rec_stall *s)
{
	return rs_recording_budget_counted(r) ? s->over_budget : NAN;
}

/* Who stalled: the tasks with the most time in reclaim and throttles. */
static void stallers_text(FILE *out, const struct rs_recording *r)
{
	size_t n =
		r->nr_stalls < STALLERS_SHOWN ? r->nr_stalls : STALLERS_SHOWN;

	if (!r->has_stalls)
		return;
	fprintf(out,
		"\nWho stalled (per task, memcg and kind; %zu of %zu, "
		"most time first):\n",
		n, r->nr_stalls);
	if (!n) {
		fprintf(out, "  no task stalled\n");
		return;
	}
	fprintf(out, "  %-24s %-9s %-9s %10s %12s %10s %11s  %s\n", "task",
		"tgid", "kind", "count", "total ms", "max ms", "over budget",
		"memcg");
	for (size_t i = 0; i < n; i++) {
		const struct rs_rec_stall *s = &r->stalls[i];
		const struct rs_rec_memcg *m = memcg_by_id(r, s->id);
		char cb[RS_ESCAPED_SIZE(64)], pb[RS_PATH_BUF], task[96];

		if (s->tid)
			snprintf(task, sizeof(task), "%s (%u)",
				 rs_name_shown(s->comm, cb, sizeof(cb), 0),
				 s->tid);
		else
			snprintf(task, sizeof(task), "%s",
				 rs_name_shown(s->comm, cb, sizeof(cb), 0));
		double over = stall_over_budget(r, s);
		char ob[24] = "n/a";

		if (!isnan(over))
			snprintf(ob, sizeof(ob), "%.0f", over);
		fprintf(out,
			"  %-24s %-9u %-9s %10.0f %12.3f %10.3f %11s  %s\n",
			task, s->tgid, rs_stall_kind_name(s->kind), s->count,
			s->total_ns / 1e6, s->max_ns / 1e6, ob,
			m ? path_of(m, pb, sizeof(pb)) : "(unknown memcg)");
	}
}

/* A recording's stalls summed per (memcg path, comm, kind): tasks of one
 * name (a pool of workers) are one row of a comparison. */
struct stall_sum {
	const char *path, *comm;
	int kind;
	double count, total_ns, max_ns;
	double tasks; /* like count: per run, a mean over a group's runs */
};

static int by_name_kind(const void *x, const void *y)
{
	const struct stall_sum *a = x, *b = y;
	int c = strcmp(a->path, b->path);

	if (!c)
		c = strcmp(a->comm, b->comm);
	return c ? c : (a->kind > b->kind) - (a->kind < b->kind);
}

/*
 * The stalls of nr runs summed per (memcg path, comm, kind), then divided
 * by nr: per run, the mean (max: the longest of any run).
 */
static size_t stall_sums(const struct rs_recording *const *runs, int nr,
			 struct stall_sum **out)
{
	struct stall_sum *v;
	size_t n = 0, all = 0, k = 0;

	*out = NULL;
	for (int r = 0; r < nr; r++) {
		if (!runs[r]->has_stalls)
			return 0;
		all += runs[r]->nr_stalls;
	}
	if (!all || !(v = calloc(all, sizeof(*v))))
		return 0;
	for (int r = 0; r < nr; r++)
		for (size_t i = 0; i < runs[r]->nr_stalls; i++) {
			const struct rs_rec_stall *s = &runs[r]->stalls[i];
			const struct rs_rec_memcg *m =
				memcg_by_id(runs[r], s->id);

			v[k++] = (struct stall_sum){
				.path = m && m->path ? m->path
						     : "(unknown memcg)",
				.comm = s->comm,
				.kind = s->kind,
				.count = s->count,
				.total_ns = s->total_ns,
				.max_ns = s->max_ns,
				.tasks = s->tid ? 1 : 0};
		}
	qsort(v, all, sizeof(*v), by_name_kind);
	for (size_t i = 0; i < all; i++) {
		if (n && !by_name_kind(&v[n - 1], &v[i])) {
			v[n - 1].count += v[i].count;
			v[n - 1].total_ns += v[i].total_ns;
			v[n - 1].tasks += v[i].tasks;
			if (v[i].max_ns > v[n - 1].max_ns)
				v[n - 1].max_ns = v[i].max_ns;
		} else {
			v[n++] = v[i];
		}
	}
	for (size_t i = 0; i < n; i++) {
		v[i].count /= nr;
		v[i].total_ns /= nr;
		v[i].tasks /= nr;
	}
	*out = v;
	return n;
}

struct stall_pair {
	const struct stall_sum *a, *b; /* NULL: none on that side */
};

static double pair_time(const struct stall_pair *p)
{
	double ta = p->a ? p->a->total_ns : 0, tb = p->b ? p->b->total_ns : 0;

	return ta > tb ? ta : tb;
}

static int by_pair_time(const void *x, const void *y)
{
	double a = pair_time(x), b = pair_time(y);

	return (a < b) - (a > b);
}

/* Both sides' sums matched by (path, comm, kind), the most time first. */
static size_t stall_pairs(const struct stall_sum *a, size_t na,
			  const struct stall_sum *b, size_t nb,
			  struct stall_pair **out)
{
	struct stall_pair *p = calloc(na + nb + 1, sizeof(*p));
	size_t i = 0, j = 0, n = 0;

	*out = p;
	if (!p)
		return 0;
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : by_name_kind(&a[i], &b[j]);

		p[n].a = c <= 0 ? &a[i++] : NULL;
		p[n].b = c >= 0 ? &b[j++] : NULL;
		n++;
	}
	qsort(p, n, sizeof(*p), by_pair_time);
	return n;
}

/* Whether every run has stalls per task. */
static bool all_have_stalls(const struct rs_recording *const *runs, int nr)
{
	for (int r = 0; r < nr; r++)
		if (!runs[r]->has_stalls)
			return false;
	return true;
}

void rs_stallers_compare_text(FILE *out, const char *la, const char *lb,
			      const struct rs_recording *const *a, int nra,
			      const struct rs_recording *const *b, int nrb)
{
	struct stall_sum *sa, *sb;
	struct stall_pair *p;
	size_t na = stall_sums(a, nra, &sa), nb = stall_sums(b, nrb, &sb);
	size_t n = stall_pairs(sa, na, sb, nb, &p);
	bool groups = nra > 1 || nrb > 1;

	if (!all_have_stalls(a, nra) || !all_have_stalls(b, nrb)) {
		fprintf(out,
			"\nWho stalled: not compared (%s has no stalls "
			"per task: an older recording)\n",
			!all_have_stalls(a, nra) ? la : lb);
	} else {
		fprintf(out,
			"\nWho stalled, %s against %s (tasks of one name, "
			"memcg and kind together%s; %zu of %zu, most stall "
			"time first; ms):\n",
			la, lb, groups ? ", the mean of each group's runs" : "",
			n < STALLERS_SHOWN ? n : STALLERS_SHOWN, n);
		char h[4][24];

		snprintf(h[0], sizeof(h[0]), "%.2s count", la);
		snprintf(h[1], sizeof(h[1]), "%.2s total ms", la);
		snprintf(h[2], sizeof(h[2]), "%.2s count", lb);
		snprintf(h[3], sizeof(h[3]), "%.2s total ms", lb);
		fprintf(out, "  %-18s %-9s %7s %12s %7s %12s %9s  %s\n", "task",
			"kind", h[0], h[1], h[2], h[3], "change", "memcg");
		for (size_t i = 0; i < n && i < STALLERS_SHOWN; i++) {
			const struct stall_sum *any = p[i].a ? p[i].a : p[i].b;
			char cb[RS_ESCAPED_SIZE(64)], pb[RS_PATH_BUF],
				change[24];
			double ta = p[i].a ? p[i].a->total_ns : 0,
			       tb = p[i].b ? p[i].b->total_ns : 0;

			if (!any) /* every pair has a side */
				continue;
			if (!p[i].a)
				snprintf(change, sizeof(change), "new");
			else if (!p[i].b)
				snprintf(change, sizeof(change), "gone");
			else
				snprintf(change, sizeof(change), "%+.1f%%",
					 ta > 0 ? (tb - ta) / ta * 100 : 0);
			/* a group's mean count per run keeps a decimal */
			fprintf(out,
				"  %-18s %-9s %7.*f %12.3f %7.*f %12.3f %9s  "
				"%s\n",
				rs_name_shown(any->comm, cb, sizeof(cb), 0),
				rs_stall_kind_name(any->kind), groups ? 1 : 0,
				p[i].a ? p[i].a->count : 0, ta / 1e6,
				groups ? 1 : 0, p[i].b ? p[i].b->count : 0,
				tb / 1e6, change,
				rs_name_shown(any->path, pb, sizeof(pb), 0));
		}
	}
	free(p);
	free(sa);
	free(sb);
}

/* A whole number as an integer, a group's mean (or a sum past what an
 * integer holds) as a real, unknown (NaN) as null. */
static json_t *count_json(double v)
{
	if (isnan(v))
		return json_null();
	return v == floor(v) && fabs(v) < 9e18 ? json_integer((json_int_t)v)
					       : json_real(v);
}

static json_t *sum_json(const struct stall_sum *s)
{
	if (!s)
		return json_null();
	return json_pack("{s:o,s:o,s:o,s:o}", "count", count_json(s->count),
			 "total_ns", count_json(s->total_ns), "max_ns",
			 count_json(s->max_ns), "tasks", count_json(s->tasks));
}

json_t *rs_stallers_compare_json(const struct rs_recording *const *a, int nra,
				 const struct rs_recording *const *b, int nrb)
{
	struct stall_sum *sa, *sb;
	struct stall_pair *p;
	size_t na = stall_sums(a, nra, &sa), nb = stall_sums(b, nrb, &sb);
	size_t n = stall_pairs(sa, na, sb, nb, &p);
	json_t *arr = all_have_stalls(a, nra) && all_have_stalls(b, nrb)
			      ? json_array()
			      : NULL;

	for (size_t i = 0; arr && i < n; i++) {
		const struct stall_sum *any = p[i].a ? p[i].a : p[i].b;

		if (!any) /* every pair has a side */
			continue;
		json_array_append_new(
			arr,
			json_pack("{s:o,s:o,s:s,s:o,s:o}", "comm",
				  rs_json_name(any->comm), "memcg",
				  rs_json_name(any->path), "kind",
				  rs_stall_kind_name(any->kind), "a",
				  sum_json(p[i].a), "b", sum_json(p[i].b)));
	}
	free(p);
	free(sa);
	free(sb);
	return arr ? arr : json_null();
}

void rs_report_text(FILE *out, const char *name, const struct rs_recording *r,
		    bool all)
{
	struct rs_rec_memcg total;
	size_t nr;
	const struct rs_rec_memcg **list = by_reclaim(r, &nr);
	bool *shown = all ? NULL : calloc(rs_nr_report_rows, sizeof(bool));
	int folded = 0;

	header_lines(out, name, r);
	rs_recording_total(r, &total);
	if (shown)
		folded = rows_with_values(r, &total, list, nr, shown);
	if (folded)
		fprintf(out,
			"%d of %d metrics are null or 0 in every memcg and "
			"not shown (report --all shows them)\n",
			folded, rs_nr_report_rows);
	outcomes_text(out, r);
	memcg_text(out, r, &total, shown);
	rs_rec_memcg_release(&total);
	for (size_t i = 0; i < nr; i++)
		memcg_text(out, r, list[i], shown);
	stallers_text(out, r);
	free(shown);
	free(list);
}

/* --- JSON -------------------------------------------------------------- */

/* Every metric of m under its report name; null where unknown. */
static json_t *metrics_json(const struct rs_recording *r,
			    const struct rs_rec_memcg *m)
{
	json_t *o = json_object();

	for (int i = 0; i < rs_nr_report_rows; i++) {
		double v = rs_rec_row_value(r, m, i);

		/* a workload's own figures: only where it gave them */
		if (isnan(v) && (rs_rows[i].kind == RS_ROW_OUTCOME))
			continue;
		json_object_set_new(o, rs_rows[i].key, rs_json_number(v));
	}
	return o;
}

/* Every stall per task, most time first; null where not recorded. */
static json_t *stalls_json(const struct rs_recording *r)
{
	json_t *arr;

	if (!r->has_stalls)
		return json_null();
	arr = json_array();
	for (size_t i = 0; i < r->nr_stalls; i++) {
		const struct rs_rec_stall *s = &r->stalls[i];
		const struct rs_rec_memcg *m = memcg_by_id(r, s->id);
		json_t *o = json_object();

		json_object_set_new(o, "tid", json_integer(s->tid));
		json_object_set_new(o, "tgid", json_integer(s->tgid));
		json_object_set_new(o, "comm", rs_json_name(s->comm));
		json_object_set_new(o, "id", json_integer((json_int_t)s->id));
		json_object_set_new(o, "memcg",
				    m && m->path ? rs_json_name(m->path)
						 : json_null());
		json_object_set_new(o, "kind",
				    json_string(rs_stall_kind_name(s->kind)));
		/* counts as the recording holds them: whole numbers (the
		 * reader took them below 2^63) */
		json_object_set_new(o, "count",
				    json_integer((json_int_t)s->count));
		json_object_set_new(o, "total_ns",
				    json_integer((json_int_t)s->total_ns));
		json_object_set_new(o, "max_ns",
				    json_integer((json_int_t)s->max_ns));
		json_object_set_new(o, "over_budget",
				    count_json(stall_over_budget(r, s)));
		if (s->gone)
			json_object_set_new(o, "gone", json_true());
		json_array_append_new(arr, o);
	}
	return arr;
}

static json_t *outcomes_json(const struct rs_recording *r)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < r->nr_outcomes; i++) {
		const struct rs_outcome *e = &r->outcomes[i];
		json_t *o = json_object();

		json_object_set_new(o, "workload", json_string(e->workload));
		json_object_set_new(o, "worker",
				    e->worker >= 0 ? json_integer(e->worker)
						   : json_null());
		json_object_set_new(o, "memcg",
				    e->memcg ? json_string(e->memcg)
					     : json_null());
		for (int k = 0; k < RS_NR_OUTCOME_KEYS; k++) {
			if (isnan(e->v[k]))
				continue;
			json_object_set_new(o, rs_outcome_keys[k],
					    k == RS_OUT_OOM_KILLED
						    ? json_boolean(e->v[k] != 0)
						    : json_real(e->v[k]));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}

json_t *rs_report_json(const char *name, const struct rs_recording *r,
		       FILE *out, size_t flags)
{
	json_t *o = json_object(), *units = json_object();
	struct rs_json_stream memcgs;
	struct rs_rec_memcg total;
	size_t nr;
	const struct rs_rec_memcg **list = by_reclaim(r, &nr);
	int n;
	double j = rs_fairness(r, &n);

	json_object_set_new(o, "recording", rs_json_name(name));
	json_object_set_new(o, "header",
			    json_pack("{s:i,s:s?,s:s?,s:f,s:b,s:b,s:b,s:b,s:i,"
				      "s:b}",
				      "schema", r->schema, "kernel", r->kernel,
				      "start", r->start, "duration",
				      r->duration, "mglru", r->mglru, "series",
				      r->series, "events", r->has_events,
				      "cut_short", !r->has_summary, "page_size",
				      (int)r->page_size, "page_size_said",
				      r->page_size_said));
	json_object_set_new(o, "drops", json_integer((json_int_t)r->drops));
	json_object_set_new(o, "missed", json_integer((json_int_t)r->missed));
	json_object_set_new(o, "agg_full",
			    json_integer((json_int_t)r->agg_full));
	json_object_set_new(o, "hist_full",
			    json_integer((json_int_t)r->hist_full));
	json_object_set_new(o, "state_misses",
			    json_integer((json_int_t)r->state_misses));
	json_object_set_new(o, "budget_ms", json_real(r->budget_ns / 1e6));
	/* the budget the kernel counted with; null before recordings said */
	json_object_set_new(o, "kernel_budget_ms",
			    r->kernel_budget_ns > 0
				    ? json_real(r->kernel_budget_ns / 1e6)
				    : json_null());
	json_object_set_new(o, "fairness",
			    json_pack("{s:o,s:i}", "index", rs_json_number(j),
				      "memcgs", n));
	for (int i = 0; i < rs_nr_report_rows; i++)
		json_object_set_new(units, rs_rows[i].key,
				    json_string(rs_row_unit(i)));
	json_object_set_new(o, "units", units);
	json_object_set_new(o, "outcomes", outcomes_json(r));
	json_object_set_new(o, "stalls", stalls_json(r));
	rs_json_stream_begin(&memcgs, out, flags, o, "memcgs");
	rs_recording_total(r, &total);
	rs_json_stream_add(&memcgs,
			   json_pack("{s:s,s:o}", "path", "(total)", "metrics",
				     metrics_json(r, &total)));
	rs_rec_memcg_release(&total);
	for (size_t i = 0; list && i < nr; i++) {
		const struct rs_rec_memcg *m = list[i];
		json_t *e = json_object();

		json_object_set_new(e, "path",
				    m->path ? json_string(m->path)
					    : json_null());
		json_object_set_new(e, "id", json_integer((json_int_t)m->id));
		json_object_set_new(e, "gone", json_boolean(m->gone));
		json_object_set_new(e, "metrics", metrics_json(r, m));
		rs_json_stream_add(&memcgs, e);
	}
	free(list);
	return rs_json_stream_end(&memcgs);
}

/* --- HTML -------------------------------------------------------------- */

void rs_html_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

#define W 560
#define H 220
#define ML 70 /* left margin: y tick labels */
#define MB 42 /* bottom margin: x ticks and axis label */
#define MT 28 /* top margin: title */

void rs_html_head(FILE *out, const char *title, const char *name)
{
	char nb[RS_PATH_BUF];

	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
		     "charset=\"utf-8\"><title>");
	rs_html_escape(out, title);
	/* a file's name is bytes: escaped as names are, then for HTML */
	rs_html_escape(out, rs_name_shown(name, nb, sizeof(nb), 0));
	/* one palette for light and one for dark backgrounds */
	fprintf(out,
		"</title><style>\n"
		":root{--fg:#1b1b1b;--bg:#fff;--grid:#888;--c0:#1f77b4;"
		"--c1:#2ca02c;--c2:#9467bd;--c3:#d62728;--c4:#ff7f0e;--c5:#"
		"8c564b;"
		"--bar:#1f77b4}\n"
		"@media (prefers-color-scheme: dark){:root{--fg:#e8e8e8;"
		"--bg:#161616;--grid:#999;--c0:#6cb6ff;--c1:#7ee787;"
		"--c2:#d2a8ff;--c3:#ff7b72;--c4:#ffa657;--c5:#e3b341;"
		"--bar:#6cb6ff}}\n"
		"body{font:14px system-ui,sans-serif;color:var(--fg);"
		"background:var(--bg);margin:2em}\n"
		"svg text{fill:var(--fg)} .t{font-weight:bold;font-size:13px}"
		" .l{font-size:11px}\n"
		".ax{stroke:var(--grid)} polyline{fill:none;stroke-width:2}"
		" .s0{stroke:var(--c0)} .s1{stroke:var(--c1)} "
		".s2{stroke:var(--c2)} .s3{stroke:var(--c3)} "
		".s4{stroke:var(--c4)} .s5{stroke:var(--c5)} "
		".b{fill:var(--bar)}\n"
		"figure{display:inline-block;margin:0 1em 1em 0}\n"
		"table{border-collapse:collapse} td,th{padding:2px 8px;"
		"border-bottom:1px solid var(--grid);text-align:right}"
		" td:first-child,th:first-child{text-align:left}"
		" .sec td{font-weight:bold;text-align:left}\n"
		"pre{white-space:pre-wrap}\n"
		".better{color:var(--c1)} .worse{color:var(--c3)} "
		".dot{fill:var(--c0)} .mean{stroke:var(--fg);stroke-width:2}\n"
		".g0{fill:var(--c1)} .g1{fill:var(--c0)} .g2{fill:var(--c2)}"
		" .g3{fill:var(--c3)} polygon{fill-opacity:0.8}"
		" .ag{stroke:var(--c4);stroke-width:2}"
		" .ev{stroke:var(--c3);stroke-width:2}\n"
		"</style></head><body>\n");
}

static void chart_open(FILE *out, const char *id, const char *title)
{
	fprintf(out,
		"<figure><svg class=\"chart\" id=\"%s\" viewBox=\"0 0 %d %d\" "
		"width=\"%d\" height=\"%d\" role=\"img\"><title>",
		id, W, H, W, H);
	rs_html_escape(out, title);
	fprintf(out, "</title><text x=\"%d\" y=\"18\" class=\"t\">", ML);
	rs_html_escape(out, title);
	fprintf(out, "</text>");
}

static void axes(FILE *out, const char *xlabel, const char *ylabel, double ymax)
{
	fprintf(out,
		"<line class=\"ax\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
		"<line class=\"ax\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
		ML, MT, ML, H - MB, ML, H - MB, W - 10, H - MB);
	fprintf(out,
		"<text x=\"%d\" y=\"%d\" class=\"l\" text-anchor=\"end\">"
		"%.4g</text>"
		"<text x=\"%d\" y=\"%d\" class=\"l\" text-anchor=\"end\">0"
		"</text>",
		ML - 4, MT + 4, ymax, ML - 4, H - MB);
	fprintf(out,
		"<text x=\"%d\" y=\"%d\" class=\"l\" text-anchor=\"middle\">",
		(ML + W - 10) / 2, H - 6);
	rs_html_escape(out, xlabel);
	fprintf(out,
		"</text><text class=\"l\" text-anchor=\"middle\" "
		"transform=\"translate(14 %d) rotate(-90)\">",
		(MT + H - MB) / 2);
	rs_html_escape(out, ylabel);
	fprintf(out, "</text>");
}

static void chart_close(FILE *out)
{
	fprintf(out, "</svg></figure>\n");
}

/* A chart with nothing to draw: why, and its end. */
static void chart_empty(FILE *out, const char *why)
{
	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"l\">", ML + 20,
		(MT + H - MB) / 2);
	rs_html_escape(out, why);
	fprintf(out, "</text>");
	chart_close(out);
}

/* The time axis's end: the recording's duration or its last snapshot. */
static double time_axis_end(const struct rs_recording *r)
{
	double xmax = r->duration > 0 ? r->duration : 1;

	if (r->nr_snaps && r->snap_t[r->nr_snaps - 1] > xmax)
		xmax = r->snap_t[r->nr_snaps - 1];
	return xmax;
}

/* The time axis's ticks: 0 and its end. */
static void time_ticks(FILE *out, double xmax)
{
	fprintf(out,
		"<text x=\"%d\" y=\"%d\" class=\"l\" text-anchor=\"middle\">"
		"0</text><text x=\"%d\" y=\"%d\" class=\"l\" "
		"text-anchor=\"end\">%.0f</text>",
		ML, H - MB + 14, W - 10, H - MB + 14, xmax);
}

/*
 * A time series: rate s of m at every snapshot of the recording (a memcg
 * missing from a snapshot was idle in it: 0).
 */
static void line_chart(FILE *out, const char *id, const char *title,
		       const struct rs_recording *r,
		       const struct rs_rec_memcg *m, int s)
{
	double ymax = 0, xmax = time_axis_end(r);
	size_t p = 0;

	for (size_t i = 0; i < m->nr_points; i++)
		if (m->points[i].rate[s] > ymax)
			ymax = m->points[i].rate[s];
	chart_open(out, id, title);
	axes(out, "time since start (s)", "per second", ymax);
	time_ticks(out, xmax);
	if (m->nr_points == 0 || !(ymax > 0)) {
		chart_empty(out, "no activity recorded");
		return;
	}
	fprintf(out, "<polyline class=\"s%d\" points=\"", s);
	for (size_t i = 0; i < r->nr_snaps; i++) {
		double t = r->snap_t[i], v = 0;

		while (p < m->nr_points && m->points[p].t < t)
			p++;
		if (p < m->nr_points && m->points[p].t == t)
			v = m->points[p].rate[s];
		if (isnan(v))
			continue;
		fprintf(out, "%.1f,%.1f ", ML + (W - 10 - ML) * t / xmax,
			(H - MB) - (H - MB - MT) * v / ymax);
	}
	fprintf(out, "\"/>");
	chart_close(out);
}

/* Until when timeline point i stood: the next point, or the timeline's
 * end (never before the point itself). */
static double gens_point_end(const struct rs_rec_memcg *m, size_t i)
{
	double t = m->gpoints[i].t;

	if (i + 1 < m->nr_gpoints)
		return m->gpoints[i + 1].t;
	return m->gpoints_until > t ? m->gpoints_until : t;
}

/*
 * A memcg's generations over time, one type's pages (file or not): an
 * area per age, stacked the oldest at the bottom, from the timeline's
 * points (recording.h); above, a tick where an aging made a generation,
 * below, one where the lower min_seq moved (an eviction emptied the
 * oldest).
 */
static void gens_chart(FILE *out, const char *id, const char *title,
		       const struct rs_recording *r,
		       const struct rs_rec_memcg *m, bool file)
{
	double ymax = 0, xmax = time_axis_end(r);
	double x0 = ML, xw = W - 10 - ML, y0 = H - MB, yh = H - MB - MT;

	for (size_t i = 0; i < m->nr_gpoints; i++) {
		const float *v = file ? m->gpoints[i].file : m->gpoints[i].anon;
		double sum = 0;

		for (int k = 0; k < RS_GENS_MAX; k++)
			sum += v[k];
		if (sum > ymax)
			ymax = sum;
	}
	chart_open(out, id, title);
	axes(out, "time since start (s)", "pages", ymax);
	time_ticks(out, xmax);
	if (!(ymax > 0)) {
		chart_empty(out, "no pages of this type in the generations");
		return;
	}
	/* the oldest age first: the bottom band is the sum of them all
	 * (rank 3 and up), each band above it one age younger; each sample
	 * stands until the next (one is written only when the generations
	 * moved), the last until its timeline ended */
	for (int band = RS_GENS_MAX - 1; band >= 0; band--) {
		fprintf(out, "<polygon class=\"g%d\" points=\"", band);
		for (size_t i = 0; i < m->nr_gpoints; i++) {
			const float *v =
				file ? m->gpoints[i].file : m->gpoints[i].anon;
			double top = 0, y;

			for (int k = RS_GENS_MAX - 1; k >= band; k--)
				top += v[k];
			y = y0 - yh * top / ymax;
			fprintf(out, "%.1f,%.1f %.1f,%.1f ",
				x0 + xw * m->gpoints[i].t / xmax, y,
				x0 + xw * gens_point_end(m, i) / xmax, y);
		}
		for (size_t i = m->nr_gpoints; i-- > 0;) {
			const float *v =
				file ? m->gpoints[i].file : m->gpoints[i].anon;
			double base = 0, y;

			for (int k = RS_GENS_MAX - 1; k > band; k--)
				base += v[k];
			y = y0 - yh * base / ymax;
			fprintf(out, "%.1f,%.1f %.1f,%.1f ",
				x0 + xw * gens_point_end(m, i) / xmax, y,
				x0 + xw * m->gpoints[i].t / xmax, y);
		}
		fprintf(out, "\"><title>%s</title></polygon>",
			band == 0   ? "the youngest generation"
			: band == 1 ? "one aging older"
			: band == 2 ? "two agings older"
				    : "three or more agings older");
	}
	for (size_t i = 0; i < m->nr_gpoints; i++) {
		double x = x0 + xw * m->gpoints[i].t / xmax;

		if (m->gpoints[i].aged)
			fprintf(out,
				"<line class=\"ag\" x1=\"%.1f\" y1=\"%d\" "
				"x2=\"%.1f\" y2=\"%d\"/>",
				x, MT, x, MT + 6);
		if (m->gpoints[i].evicted)
			fprintf(out,
				"<line class=\"ev\" x1=\"%.1f\" y1=\"%d\" "
				"x2=\"%.1f\" y2=\"%d\"/>",
				x, H - MB + 2, x, H - MB + 8);
	}
	chart_close(out);
}

/* Bars: n values with a label each (only every few labels shown). */
static void bar_chart(FILE *out, const char *id, const char *title,
		      const char *xlabel, const char *ylabel, const double *v,
		      char (*labels)[16], int n)
{
	double ymax = 0, bw;

	for (int i = 0; i < n; i++)
		if (v[i] > ymax)
			ymax = v[i];
	chart_open(out, id, title);
	axes(out, xlabel, ylabel, ymax);
	if (n == 0 || ymax == 0) {
		chart_empty(out, "nothing recorded");
		return;
	}
	bw = (double)(W - 10 - ML) / n;
	for (int i = 0; i < n; i++) {
		double h = (H - MB - MT) * v[i] / ymax;

		fprintf(out,
			"<rect class=\"b\" x=\"%.1f\" y=\"%.1f\" "
			"width=\"%.1f\" "
			"height=\"%.1f\"><title>%s: %.0f</title></rect>",
			ML + i * bw + 1, H - MB - h, bw > 4 ? bw - 2 : bw * 0.8,
			h, labels[i], v[i]);
		if (n <= 12 || i % (n / 8 + 1) == 0)
			fprintf(out,
				"<text x=\"%.1f\" y=\"%d\" class=\"l\" "
				"text-anchor=\"middle\">%s</text>",
				ML + (i + 0.5) * bw, H - MB + 14, labels[i]);
	}
	chart_close(out);
}

/* At most this many bars: more would be thinner than a pixel or two. */
#define HIST_BARS 96

static void hist_chart(FILE *out, int h, const struct rs_rec_memcg *t)
{
	const struct rs_histogram *hist = &t->hist[h];
	double v[HIST_BARS];
	char labels[HIST_BARS][16], id[32], title[200];
	unsigned int lo = rs_hist_next(hist, 0), hi = lo, group = 1;
	int n = 0;

	for (unsigned int b = lo; b < RS_HIST_BUCKETS;
	     b = rs_hist_next(hist, b + 1))
		hi = b;
	/* every bucket from the first with a count to the last, so that
	 * the x axis stays log-linear: one bar each, or one per group of
	 * 4 or 16 (a power of two) where there would be too many bars; a
	 * log2 histogram (before schema 3) has one bucket per power */
	if (hist->log2)
		group = RS_HIST_SUBS;
	while (lo < RS_HIST_BUCKETS && hi / group - lo / group + 1 > HIST_BARS)
		group *= 4;
	for (unsigned int g = lo / group;
	     lo < RS_HIST_BUCKETS && g <= hi / group && n < HIST_BARS; g++) {
		double ms = (double)rs_hist_bucket_hi(g * group + group - 1) *
			    rs_hist_infos[h].ns_per_unit / 1e6;

		v[n] = 0;
		for (unsigned int b = g * group; b < g * group + group; b++)
			v[n] += (double)rs_hist_count(hist, b);
		snprintf(labels[n++], 16, ms < 1 ? "%.3g" : "%.4g", ms);
	}
	snprintf(id, sizeof(id), "hist-%s", rs_hist_infos[h].key);
	snprintf(title, sizeof(title), "%s, ms (all memcgs; %s)",
		 rs_hist_infos[h].key,
		 group == 1		? "16 buckets per power of two"
		 : group < RS_HIST_SUBS ? "4 bars per power of two"
					: "one bar per power of two");
	bar_chart(out, id, title, "upper bound of the bucket (ms)", "count", v,
		  labels, n);
}

static void budget_chart(FILE *out, const struct rs_recording *r,
			 const struct rs_rec_memcg *t)
{
	double v[RS_BUDGET_BINS];
	char labels[RS_BUDGET_BINS][16];

	for (int b = 0; b < RS_BUDGET_BINS; b++) {
		v[b] = (double)t->budget_use[b];
		snprintf(labels[b], 16, b == RS_BUDGET_BINS - 1 ? ">=%d" : "%d",
			 b * 10);
	}
	bar_chart(out, "budget-use",
		  r->has_events ? "MGLRU passes by budget used / assigned"
				: "MGLRU passes by budget used / assigned "
				  "(needs --events)",
		  "budget used / assigned (%, bins of 10)", "passes", v, labels,
		  RS_BUDGET_BINS);
}

static void metrics_table(FILE *out, const struct rs_recording *r,
			  const struct rs_rec_memcg **cols, size_t n)
{
	char buf[64], pb[RS_PATH_BUF];
	const char *section = NULL;

	fprintf(out, "<table><thead><tr><th>metric</th><th>unit</th>");
	for (size_t c = 0; c < n; c++) {
		fprintf(out, "<th>");
		rs_html_escape(out, path_of(cols[c], pb, sizeof(pb)));
		fprintf(out, "</th>");
	}
	fprintf(out, "</tr></thead><tbody>\n");
	for (int i = 0; i < rs_nr_report_rows; i++) {
		bool known = !(rs_rows[i].kind == RS_ROW_OUTCOME);

		/* a workload's own figures: only where it gave them */
		for (size_t c = 0; c < n && !known; c++)
			known = !isnan(rs_rec_row_value(r, cols[c], i));
		if (!known)
			continue;
		if (!section || strcmp(section, rs_rows[i].section)) {
			section = rs_rows[i].section;
			fprintf(out,
				"<tr class=\"sec\"><td colspan=\"%zu\">%s</td>"
				"</tr>\n",
				n + 2, section);
		}
		fprintf(out, "<tr><td>%s</td><td>%s</td>", rs_rows[i].key,
			rs_row_unit(i));
		for (size_t c = 0; c < n; c++)
			fprintf(out, "<td>%s</td>",
				rs_metric_shown(r, i,
						rs_rec_row_value(r, cols[c], i),
						buf, sizeof(buf)));
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</tbody></table>\n");
}

#define HTML_MEMCGS 8

int rs_report_html(FILE *out, const char *name, const struct rs_recording *r)
{
	struct rs_rec_memcg total;
	size_t nr;
	const struct rs_rec_memcg **list = by_reclaim(r, &nr);
	const struct rs_rec_memcg *cols[HTML_MEMCGS + 1];
	size_t shown_memcgs = nr < HTML_MEMCGS ? nr : HTML_MEMCGS;
	char *head = NULL;
	size_t head_len;
	FILE *hf;

	if (!list)
		return -1;
	rs_recording_total(r, &total);
	rs_html_head(out, "reclaimscope report: ", name);
	fprintf(out, "<h1>reclaimscope report</h1>\n<pre>");
	hf = open_memstream(&head, &head_len);
	if (hf) {
		header_lines(hf, name, r);
		fclose(hf);
		rs_html_escape(out, head);
		free(head);
	}
	fprintf(out, "</pre>\n<h2>Over time, per memcg</h2>\n");
	for (size_t i = 0; i < shown_memcgs; i++) {
		char pb[RS_PATH_BUF];

		fprintf(out, "<h3>");
		rs_html_escape(out, path_of(list[i], pb, sizeof(pb)));
		fprintf(out, "</h3>\n");
		for (int s = 0; s < RS_NR_SERIES; s++) {
			char id[48], title[200];

			snprintf(id, sizeof(id), "ts-%zu-%d", i, s);
			snprintf(title, sizeof(title), "%s per second%s",
				 rs_series[s].title,
				 rs_field_known(rs_series[s].field, ~0ULL) &&
						 isnan(list[i]->total
							       [rs_series[s]
									.field])
					 ? " (not available on this kernel)"
					 : "");
			line_chart(out, id, title, r, list[i], s);
		}
		if (list[i]->nr_gpoints) {
			char id[48];

			fprintf(out,
				"<p>MGLRU's generations as the timeline read "
				"them: a band per age, the oldest (red) at the "
				"bottom, the youngest (green) at the top; "
				"orange ticks above mark agings, red ticks "
				"below the oldest generation emptied (min_seq "
				"moved).</p>\n");
			snprintf(id, sizeof(id), "gens-%zu-anon", i);
			gens_chart(out, id, "MGLRU generations, anon pages", r,
				   list[i], false);
			snprintf(id, sizeof(id), "gens-%zu-file", i);
			gens_chart(out, id, "MGLRU generations, file pages", r,
				   list[i], true);
		}
	}
	if (nr > shown_memcgs)
		fprintf(out,
			"<p>%zu more memcgs reclaimed less; see the "
			"text report.</p>\n",
			nr - shown_memcgs);
	fprintf(out, "<h2>Latencies and ages (all memcgs)</h2>\n");
	for (int h = 0; h < RS_NR_HISTS; h++)
		hist_chart(out, h, &total);
	fprintf(out, "<h2>MGLRU scan budget</h2>\n");
	budget_chart(out, r, &total);
	fprintf(out, "<h2>Figures</h2>\n");
	cols[0] = &total;
	for (size_t i = 0; i < shown_memcgs; i++)
		cols[i + 1] = list[i];
	metrics_table(out, r, cols, shown_memcgs + 1);
	fprintf(out, "</body></html>\n");
	rs_rec_memcg_release(&total);
	free(list);
	return ferror(out) ? -1 : 0;
}
