// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "compare_view.h"
#include "json_view.h"
#include "model.h"
#include "report_view.h"
#include "stats.h"
#include "util.h"

void rs_group_free(struct rs_group *g)
{
	for (int i = 0; i < g->nr; i++) {
		free(g->files[i]);
		rs_recording_free(&g->runs[i]);
		if (g->totals)
			rs_rec_memcg_release(&g->totals[i]);
	}
	if (g->by_path)
		for (int i = 0; i < g->nr; i++)
			free(g->by_path[i]);
	free(g->by_path);
	free(g->nr_by_path);
	free(g->idle);
	free(g->files);
	free(g->runs);
	free(g->totals);
	free(g->name);
	memset(g, 0, sizeof(*g));
}

/* by path, then in the run's order (by id): the first of a path first */
static int by_path_then_order(const void *a, const void *b)
{
	const struct rs_rec_memcg *x = *(const struct rs_rec_memcg *const *)a,
				  *y = *(const struct rs_rec_memcg *const *)b;
	int c = strcmp(x->path, y->path);

	return c ? c : (x > y) - (x < y);
}

int rs_group_index(struct rs_group *g)
{
	g->by_path = calloc(g->nr ? g->nr : 1, sizeof(*g->by_path));
	g->nr_by_path = calloc(g->nr ? g->nr : 1, sizeof(*g->nr_by_path));
	g->idle = calloc(g->nr ? g->nr : 1, sizeof(*g->idle));
	if (!g->by_path || !g->nr_by_path || !g->idle)
		return -1;
	for (int i = 0; i < g->nr; i++) {
		const struct rs_recording *r = &g->runs[i];
		struct rs_rec_memcg *idle = &g->idle[i];
		size_t n = 0;

		g->by_path[i] = calloc(r->nr_memcgs + 1,
				       sizeof(const struct rs_rec_memcg *));
		if (!g->by_path[i])
			return -1;
		for (size_t k = 0; k < r->nr_memcgs; k++)
			if (r->memcgs[k].path &&
			    rs_rec_memcg_listed(r, &r->memcgs[k]))
				g->by_path[i][n++] = &r->memcgs[k];
		qsort(g->by_path[i], n, sizeof(const struct rs_rec_memcg *),
		      by_path_then_order);
		g->nr_by_path[i] = n;
		/* what the run knew of any memcg, with nothing counted */
		idle->mem_current_avg = NAN;
		for (int f = 0; f < RS_NR_FIELDS; f++)
			idle->total[f] = isnan(g->totals[i].total[f]) ? NAN : 0;
		for (int h = 0; h < RS_NR_HISTS; h++)
			idle->hist_known[h] = g->totals[i].hist_known[h];
		for (int k = 0; k < RS_NR_RECLAIMERS; k++) {
			idle->reclaimed_by[k] =
				isnan(g->totals[i].reclaimed_by[k]) ? NAN : 0;
			idle->pass_ns_by[k] =
				isnan(g->totals[i].pass_ns_by[k]) ? NAN : 0;
		}
	}
	return 0;
}

/*
 * The memcg of run i a path stands for: the total, its first listed, or
 * (*idle set) one without activity.  NULL: the run cannot tell (it
 * recorded another subtree only).
 */
static const struct rs_rec_memcg *memcg_in(const struct rs_group *g, int i,
					   const char *path, bool *idle)
{
	const struct rs_rec_memcg *const *v = g->by_path[i];
	size_t lo = 0, hi = g->nr_by_path[i];
	const char *filter = g->runs[i].cgroup_filter;

	*idle = false;
	if (!path)
		return &g->totals[i];
	while (lo < hi) { /* the first entry not below path */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid]->path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < g->nr_by_path[i] && !strcmp(v[lo]->path, path))
		return v[lo];
	/* absent means idle only in a whole summary of the path's subtree:
	 * not in a run cut short (no summary), one whose counter map was
	 * full (updates lost), or one that recorded another subtree */
	if (!g->runs[i].has_summary || g->runs[i].agg_full ||
	    (filter && !rs_path_matches(path, filter)))
		return NULL;
	*idle = true;
	return &g->idle[i];
}

/* Metric i of path (NULL: the total) over the runs of g; values into x. */
static void sample(const struct rs_group *g, const char *path, int i, double *x,
		   struct rs_sample *s)
{
	for (int k = 0; k < g->nr; k++) {
		bool idle;
		const struct rs_rec_memcg *m = memcg_in(g, k, path, &idle);
		struct rs_values v;

		if (!m) {
			x[k] = NAN;
			continue;
		}
		rs_rec_values(&g->runs[k], m, &v);
		/* the run's idle memcg stands for this path: the outcomes of
		 * a workload that ran there are the path's */
		if (idle)
			v.path = path;
		x[k] = rs_row_number(&v, i);
	}
	rs_sample_of(x, g->nr, s);
}

/* One row: a metric for one memcg across the groups. */
struct row {
	struct rs_sample s[RS_MAX_GROUPS];
	double *x[RS_MAX_GROUPS]; /* each run's value; NaN where unknown */
	double change[RS_MAX_GROUPS];
	struct rs_comparison cmp[RS_MAX_GROUPS]; /* against the first */
	const char *verdict[RS_MAX_GROUPS];
};

static const char *verdict_of(int i, const struct rs_sample *a,
			      const struct rs_sample *b,
			      const struct rs_comparison *c)
{
	if (c->test == RS_TEST_NONE)
		return "";
	if (!(c->p_min < RS_SIGNIFICANCE))
		return "too few runs";
	if (c->p >= RS_SIGNIFICANCE)
		return "no significant change";
	if (rs_rows[i].better == RS_NEUTRAL)
		return b->mean > a->mean ? "higher" : "lower";
	return (b->mean < a->mean) == (rs_rows[i].better == RS_LOWER) ? "better"
								      : "worse";
}

/* Room for one value per run of every group, for row_of. */
static double *row_space(const struct rs_group *g, int ng)
{
	size_t runs = 1;

	for (int k = 0; k < ng; k++)
		runs += g[k].nr;
	return calloc(runs, sizeof(double));
}

/* What a row holds: nothing known, only zeros, or something to show. */
enum row_holds { ROW_NOTHING, ROW_ZEROS, ROW_VALUES };

/* Metric i of path across the groups, run values into space (row_space):
 * what they hold. */
static enum row_holds row_of(const struct rs_group *g, int ng, const char *path,
			     int i, double *space, struct row *row)
{
	enum row_holds holds = ROW_NOTHING;

	for (int k = 0; k < ng; k++) {
		row->x[k] = space;
		space += g[k].nr;
		sample(&g[k], path, i, row->x[k], &row->s[k]);
		for (int r = 0; r < g[k].nr; r++)
			if (!isnan(row->x[k][r]))
				holds = row->x[k][r] != 0     ? ROW_VALUES
					: holds == ROW_VALUES ? ROW_VALUES
							      : ROW_ZEROS;
	}
	for (int k = 1; k < ng; k++) {
		double a = row->s[0].mean, b = row->s[k].mean;

		row->change[k] = row->s[0].n && row->s[k].n && a != 0
					 ? 100.0 * (b - a) / fabs(a)
					 : NAN;
		rs_compare(row->x[0], g[0].nr, row->x[k], g[k].nr,
			   rs_row_counts(i), RS_SIGNIFICANCE, &row->cmp[k]);
		row->verdict[k] =
			verdict_of(i, &row->s[0], &row->s[k], &row->cmp[k]);
	}
	return holds;
}

/*
 * Whether a table shows row i: not when nothing is known of it, nor, where
 * the metrics were not named (--metric; --headline's list is the
 * catalogue's, not named), when it is 0 in every run (but a workload's own
 * figure): a count of those is printed instead (*folded).
 */
static bool shown(const struct rs_compare_opts *o, int i, enum row_holds holds,
		  int *folded)
{
	/* a workload's 0 (OOM kills, failures) is its result: kept */
	if (holds == ROW_VALUES ||
	    (holds == ROW_ZEROS &&
	     (o->metrics_named || rs_rows[i].kind == RS_ROW_OUTCOME)))
		return true;
	*folded += !o->metrics_named;
	return false;
}

/* The count of folded rows, after a table; before and after: its frame
 * for text ("  ", "\n"), markdown ("\n", "\n") or HTML ("<p>", "</p>\n"). */
static void folded_note(FILE *out, int folded, const char *before,
			const char *after)
{
	if (folded)
		fprintf(out,
			"%s%d metric%s null or 0 in every run not shown "
			"(--metric NAME shows one)%s",
			before, folded, folded == 1 ? "" : "s", after);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The paths compared, sorted: "(total)" (NULL) first, then every memcg
 * any run lists, each once; O(n log n) in all the runs' memcgs. */
static char **paths_of(const struct rs_group *g, int ng, bool total_only,
		       size_t *n)
{
	size_t cap = 1, all;
	char **v;

	for (int k = 0; k < ng && !total_only; k++)
		for (int i = 0; i < g[k].nr; i++)
			cap += g[k].nr_by_path[i];
	v = calloc(cap, sizeof(*v));
	*n = 0;
	if (!v)
		return NULL;
	v[(*n)++] = NULL;
	for (int k = 0; k < ng && !total_only; k++)
		for (int i = 0; i < g[k].nr; i++)
			for (size_t m = 0; m < g[k].nr_by_path[i]; m++)
				v[(*n)++] = g[k].by_path[i][m]->path;
	if (*n < 2)
		return v;
	qsort(v + 1, *n - 1, sizeof(*v), by_name);
	all = *n;
	*n = 2;
	for (size_t j = 2; j < all; j++)
		if (strcmp(v[j], v[*n - 1]))
			v[(*n)++] = v[j];
	return v;
}

/* v for people: whole numbers from 1000 up, else four digits */
static const char *figure(double v, char *buf, size_t size)
{
	snprintf(buf, size, fabs(v) >= 1000 ? "%.0f" : "%.4g", v);
	return buf;
}

/* The j-th metric shown: its index into rs_rows. */
static int metric_at(const struct rs_compare_opts *o, int j)
{
	return o->metrics ? o->metrics[j] : rs_report_order()[j];
}

static int metrics_shown(const struct rs_compare_opts *o)
{
	return o->metrics ? o->nr_metrics : rs_nr_report_rows;
}

/*
 * "1234 ± 56" (mean ± 95% half-width), "1234" for one run, "n/a"; and
 * " (n=2)" when fewer of the group's runs than all had a value, so that a
 * mean is never read as the group's when it is of some runs only.
 */
static const char *mean_ci(const struct rs_sample *s, int runs, char *buf,
			   size_t size)
{
	char m[32], ci[32], of[24] = "";

	if (s->n && s->n < runs)
		snprintf(of, sizeof(of), " (n=%d)", s->n);
	if (!s->n)
		snprintf(buf, size, "n/a");
	else if (isnan(s->ci95))
		snprintf(buf, size, "%s%s", figure(s->mean, m, sizeof(m)), of);
	else if (isnan(s->cv))
		snprintf(buf, size, "%s ± %s%s", figure(s->mean, m, sizeof(m)),
			 figure(s->ci95, ci, sizeof(ci)), of);
	else
		snprintf(buf, size,
			 s->cv >= 0.1 ? "%s ± %s, cv %.0f%%%s"
				      : "%s ± %s, cv %.2g%%%s",
			 figure(s->mean, m, sizeof(m)),
			 figure(s->ci95, ci, sizeof(ci)), 100 * s->cv, of);
	return buf;
}

/*
 * What the runs could have seen, where they saw no significant change:
 * the minimum detectable effect (the change the test calls significant
 * in 4 repeats of 5 with these sizes and spreads), in % of A's mean
 * ("any change" without spread).
 */
static const char *could_see(const struct row *row, int k, char *buf,
			     size_t size)
{
	double d = row->cmp[k].mde, a = row->s[0].mean;
	char fig[32];

	if (d == 0)
		snprintf(buf, size, "any change would show");
	else if (a != 0 && fabs(100 * d / a) < 1e6)
		snprintf(buf, size,
			 fabs(100 * d / a) >= 100 ? "could see ±%.0f%%"
						  : "could see ±%.2g%%",
			 100 * d / fabs(a));
	else
		snprintf(buf, size, "could see ±%s",
			 figure(d, fig, sizeof(fig)));
	return buf;
}

static const char *change_str(const struct row *row, int k, char *buf,
			      size_t size)
{
	const struct rs_comparison *c = &row->cmp[k];
	const char *exact = c->test != RS_TEST_PERMUTATION ? ""
			    : c->resampled		   ? "resampled "
							   : "exact ";
	char ch[32], note[64];

	if (isnan(row->change[k]))
		snprintf(ch, sizeof(ch), "%s",
			 row->s[0].n && row->s[k].n && row->s[0].mean == 0 &&
					 row->s[k].mean != 0
				 ? "from 0"
				 : "-");
	else
		snprintf(ch, sizeof(ch), "%+.1f%%", row->change[k]);
	if (c->test == RS_TEST_NONE)
		snprintf(buf, size, "%s", ch);
	else if (!(c->p_min < RS_SIGNIFICANCE))
		snprintf(buf, size, "%s %s (%sp=%.2g; %d+%d runs: p >= %.2g)",
			 ch, row->verdict[k], exact, c->p, row->s[0].n,
			 row->s[k].n, c->p_min);
	else if (c->p >= RS_SIGNIFICANCE)
		snprintf(buf, size, "%s %s (%sp=%.2g; %s)", ch, row->verdict[k],
			 exact, c->p, could_see(row, k, note, sizeof(note)));
	else
		snprintf(buf, size, "%s %s (%sp=%.2g)", ch, row->verdict[k],
			 exact, c->p);
	return buf;
}

/*
 * What makes some runs of a group count differently: a run cut short (no
 * summary) or whose counter map was full cannot say a memcg it does not
 * list was idle; a run that recorded one subtree (--cgroup) totals that
 * subtree only.
 */
static void group_notes(FILE *out, const struct rs_group *g)
{
	int partial = 0, filtered = 0;

	for (int i = 0; i < g->nr; i++) {
		partial += !g->runs[i].has_summary || g->runs[i].agg_full;
		filtered += g->runs[i].cgroup_filter != NULL;
	}
	if (partial)
		fprintf(out,
			"; %d run%s cut short or with counter updates lost: "
			"a memcg %s does not list is unknown there, not idle",
			partial, partial == 1 ? "" : "s",
			partial == 1 ? "it" : "they");
	if (filtered)
		fprintf(out,
			"; %d run%s recorded one subtree only (--cgroup): %s "
			"(total) is of that subtree",
			filtered, filtered == 1 ? "" : "s",
			filtered == 1 ? "its" : "their");
}

/*
 * A group's page size in bytes, or 0 where its runs' differ (an arm64
 * kernel of 16 KiB pages beside one of 4): its counts of pages then count
 * pages of more than one size.
 */
static double group_page_size(const struct rs_group *g)
{
	for (int i = 1; i < g->nr; i++)
		if (g->runs[i].page_size != g->runs[0].page_size)
			return 0;
	return g->nr ? g->runs[0].page_size : RS_PAGE_SIZE_UNSAID;
}

/* "4 KiB" */
static const char *page_kib(double bytes, char *buf, size_t size)
{
	snprintf(buf, size, "%.0f KiB", bytes / 1024);
	return buf;
}

/*
 * Where the sides compared have pages of different sizes: each count of
 * pages (scanned, reclaimed, the LRU's sizes) counts its own side's, and
 * a change between them is not a change in memory.  sizes[k]: side k's
 * page size, 0 for one whose runs' differ.  Nothing where all are one.
 */
static void page_size_note(FILE *out, const char *item, const double *sizes,
			   int n)
{
	char kb[32];
	bool differ = false;

	if (n < 1)
		return;
	for (int k = 0; k < n; k++)
		differ |= sizes[k] != sizes[0];
	if (!differ && sizes[0])
		return;
	fprintf(out, "%snote: pages of different sizes (", item);
	for (int k = 0; k < n; k++)
		fprintf(out, "%s%c %s", k ? ", " : "", 'A' + k,
			sizes[k] ? page_kib(sizes[k], kb, sizeof(kb))
				 : "mixed");
	fprintf(out, "): counts of pages (scanned, reclaimed, the LRU's "
		     "sizes) are each in its own recordings' pages, so a "
		     "change between them is not a change in memory; "
		     "compare bytes (pages times the page size)\n");
}

/* the kernels of a group's runs, and their LRU: "7.2.13 MGLRU" */
static void group_kernels(FILE *out, const struct rs_group *g)
{
	int mglru = 0;
	double page = group_page_size(g);
	char kb[RS_PATH_BUF];

	for (int i = 0; i < g->nr; i++) {
		bool same = false;

		for (int j = 0; j < i && !same; j++)
			same = !strcmp(g->runs[j].kernel, g->runs[i].kernel);
		if (!same)
			fprintf(out, "%s%s", i ? ", " : "",
				rs_name_shown(g->runs[i].kernel, kb, sizeof(kb),
					      0));
		mglru += g->runs[i].mglru;
	}
	fprintf(out, "; MGLRU %s",
		mglru == g->nr ? "on"
		: mglru	       ? "on in some runs"
			       : "off");
	if (page != RS_PAGE_SIZE_UNSAID)
		fprintf(out, "; pages of %s",
			page ? page_kib(page, kb, sizeof(kb))
			     : "more than one size across its runs");
	group_notes(out, g);
}

/*
 * A line per group (item before each), then what a cell holds and how a
 * change is judged, one text for every format: lead before it, tail
 * after.
 */
static void groups_head(FILE *out, const struct rs_group *g, int ng,
			const char *item, const char *lead, const char *tail)
{
	char pb[RS_PATH_BUF];
	double sizes[RS_MAX_GROUPS] = {0};

	for (int k = 0; k < ng; k++) {
		fprintf(out, "%s%c: %s, %d run%s (", item, 'A' + k,
			rs_name_shown(g[k].name, pb, sizeof(pb), 0), g[k].nr,
			g[k].nr == 1 ? "" : "s");
		group_kernels(out, &g[k]);
		fprintf(out, ")\n");
		sizes[k] = group_page_size(&g[k]);
	}
	page_size_note(out, item, sizes, ng);
	fprintf(out,
		"%s ± half-width of its 95%% confidence interval (Student's "
		"t), cv the runs' coefficient of variation (sd / mean), "
		"(n=K) where only K runs had a value; change against A "
		"with the exact permutation test for counts and yes/no "
		"outcomes (\"exact p\"), Welch's two-sided t-test for the "
		"rest, called better or worse only at p < %.2g; otherwise "
		"the change the runs could have seen (Welch: the minimum "
		"detectable effect at power %.0f%%; permutation: the shift "
		"of B's runs it would call significant), or \"too few runs\" "
		"where no outcome of the runs could reach it%s\n",
		lead, RS_SIGNIFICANCE, 100 * RS_MDE_POWER, tail);
}

/* Each group's runs as the pointers the stallers' comparison takes. */
static const struct rs_recording **run_list(const struct rs_group *g)
{
	const struct rs_recording **v =
		calloc(g->nr ? g->nr : 1, sizeof(const struct rs_recording *));

	for (int i = 0; v && i < g->nr; i++)
		v[i] = &g->runs[i];
	return v;
}

/* Who stalled in each group against A, as the means of their runs. */
static void groups_stallers_text(FILE *out, const struct rs_group *g, int ng,
				 bool md)
{
	const struct rs_recording **a = run_list(&g[0]);

	for (int k = 1; a && k < ng; k++) {
		const struct rs_recording **b = run_list(&g[k]);
		char lb[2] = {(char)('A' + k), 0};

		if (!b)
			break;
		if (md)
			fprintf(out, "\n```");
		rs_stallers_compare_text(out, "A", lb, a, g[0].nr, b, g[k].nr);
		if (md)
			fprintf(out, "```\n");
		free(b);
	}
	free(a);
}

/* {"B": [...], "C": [...]}: rs_stallers_compare_json of each against A. */
static json_t *groups_stallers_json(const struct rs_group *g, int ng)
{
	const struct rs_recording **a = run_list(&g[0]);
	json_t *o = json_object();

	for (int k = 1; a && k < ng; k++) {
		const struct rs_recording **b = run_list(&g[k]);
		char lb[2] = {(char)('A' + k), 0};

		if (!b)
			break;
		json_object_set_new(
			o, lb,
			rs_stallers_compare_json(a, g[0].nr, b, g[k].nr));
		free(b);
	}
	free(a);
	return o;
}

void rs_groups_text(FILE *out, const struct rs_group *g, int ng,
		    enum rs_compare_format fmt, const struct rs_compare_opts *o)
{
	bool md = fmt == RS_CMP_MARKDOWN;
	size_t np;
	char **paths = paths_of(g, ng, o->total_only, &np);
	double *space = row_space(g, ng);
	char pb[RS_PATH_BUF], cb[RS_MAX_GROUPS][80], chb[160];

	groups_head(out, g, ng, md ? "- " : "",
		    md ? "\nEach cell: mean" : "each value: mean", "");
	if (!paths || !space) {
		free(paths);
		free(space);
		return;
	}
	for (size_t p = 0; p < np; p++) {
		const char *section = NULL;
		const char *label =
			paths[p] ? rs_name_shown(paths[p], pb, sizeof(pb), 0)
				 : "(total)";

		if (md) {
			fprintf(out, "\n#### %s\n\n| metric | unit |", label);
			for (int k = 0; k < ng; k++)
				fprintf(out, " %c |%s", 'A' + k,
					k ? " change |" : "");
			fprintf(out, "\n|---|---|");
			for (int k = 0; k < ng; k++)
				fprintf(out, "---:|%s", k ? "---|" : "");
			fputc('\n', out);
		} else {
			fprintf(out, "\n== %s ==\n%-20s", label, "metric");
			for (int k = 0; k < ng; k++)
				fprintf(out, " %22c%s", 'A' + k,
					k ? "  change" : "");
			fputc('\n', out);
		}
		int folded = 0;

		for (int j = 0; j < metrics_shown(o); j++) {
			struct row row = {0};
			int i = metric_at(o, j);

			if (!shown(o, i,
				   row_of(g, ng, paths[p], i, space, &row),
				   &folded))
				continue;
			if (!md &&
			    (!section || strcmp(section, rs_rows[i].section))) {
				section = rs_rows[i].section;
				fprintf(out, "  %s\n", section);
			}
			if (md)
				fprintf(out, "| %s | %s |", rs_rows[i].key,
					rs_row_unit(i));
			else
				fprintf(out, "%-20s", rs_rows[i].key);
			for (int k = 0; k < ng; k++) {
				mean_ci(&row.s[k], g[k].nr, cb[k],
					sizeof(cb[k]));
				if (md)
					fprintf(out, " %s |", cb[k]);
				else
					fprintf(out, " %22s", cb[k]);
				if (!k)
					continue;
				change_str(&row, k, chb, sizeof(chb));
				fprintf(out, md ? " %s |" : "  %s", chb);
			}
			fputc('\n', out);
		}
		folded_note(out, folded, md ? "\n" : "  ", "\n");
	}
	free(paths);
	free(space);
	/* a table of every task: not what --total or --metric ask for */
	if (!o->total_only && !o->metrics)
		groups_stallers_text(out, g, ng, md);
}

static const char *test_name(const struct rs_comparison *c)
{
	switch (c->test) {
	case RS_TEST_WELCH:
		return "welch_t_two_sided";
	case RS_TEST_PERMUTATION:
		return c->resampled ? "permutation_resampled"
				    : "permutation_exact";
	default:
		return NULL;
	}
}

/* group k against A: the change, the test, p, and what it could see */
static json_t *comparison_json(const struct row *row, int k)
{
	const struct rs_comparison *c = &row->cmp[k];
	const char *test = test_name(c);

	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:s}", "change_pct",
			 rs_json_number(row->change[k]), "test",
			 test ? json_string(test) : json_null(), "p",
			 rs_json_number(c->p), "p_min",
			 rs_json_number(c->p_min), "detectable",
			 rs_json_number(c->detectable), "mde",
			 rs_json_number(c->mde), "verdict", row->verdict[k]);
}

json_t *rs_groups_json(const struct rs_group *g, int ng,
		       const struct rs_compare_opts *opts, FILE *out,
		       size_t flags)
{
	json_t *o = json_object(), *groups = json_array();
	struct rs_json_stream memcgs;
	size_t np;
	char **paths = paths_of(g, ng, opts->total_only, &np);
	double *space = row_space(g, ng);

	for (int k = 0; k < ng; k++) {
		json_t *files = json_array(), *kernels = json_array();
		double page = group_page_size(&g[k]);

		for (int i = 0; i < g[k].nr; i++) {
			json_array_append_new(files,
					      rs_json_name(g[k].files[i]));
			json_array_append_new(kernels,
					      json_string(g[k].runs[i].kernel));
		}
		/* page_size: null where the runs' differ */
		json_array_append_new(
			groups, json_pack("{s:o,s:i,s:o,s:o,s:o}", "name",
					  rs_json_name(g[k].name), "n", g[k].nr,
					  "recordings", files, "kernels",
					  kernels, "page_size",
					  page ? json_integer((json_int_t)page)
					       : json_null()));
	}
	json_object_set_new(o, "groups", groups);
	/* per row: "permutation_exact" (counts and yes/no outcomes, or
	 * values without spread) or "welch_t_two_sided" */
	json_object_set_new(o, "alpha", json_real(RS_SIGNIFICANCE));
	json_object_set_new(o, "interval", json_string("mean_95_student_t"));
	/* who stalled, each group against A: means per run */
	if (!opts->total_only && !opts->metrics)
		json_object_set_new(o, "stalls", groups_stallers_json(g, ng));
	rs_json_stream_begin(&memcgs, out, flags, o, "memcgs");
	for (size_t p = 0; paths && space && p < np; p++) {
		json_t *ms = json_object();

		for (int j = 0; j < metrics_shown(opts); j++) {
			struct row row = {0};
			json_t *per = json_array();
			int i = metric_at(opts, j);

			if (!row_of(g, ng, paths[p], i, space, &row)) {
				json_decref(per);
				continue;
			}
			for (int k = 0; k < ng; k++) {
				json_t *vals = json_array(), *e;

				for (int r = 0; r < g[k].nr; r++)
					json_array_append_new(
						vals,
						rs_json_number(row.x[k][r]));
				e = json_pack("{s:i,s:o,s:o,s:o,s:o,s:o}", "n",
					      row.s[k].n, "mean",
					      rs_json_number(row.s[k].mean),
					      "ci95",
					      rs_json_number(row.s[k].ci95),
					      "sd", rs_json_number(row.s[k].sd),
					      "cv", rs_json_number(row.s[k].cv),
					      "values", vals);
				if (k)
					json_object_update_new(
						e, comparison_json(&row, k));
				json_array_append_new(per, e);
			}
			json_object_set_new(ms, rs_rows[i].key,
					    json_pack("{s:s,s:o}", "unit",
						      rs_row_unit(i), "groups",
						      per));
		}
		rs_json_stream_add(&memcgs,
				   json_pack("{s:s,s:o}", "path",
					     paths[p] ? paths[p] : "(total)",
					     "metrics", ms));
	}
	free(paths);
	free(space);
	return rs_json_stream_end(&memcgs);
}

/* Each run's value as a dot on one axis per group, the mean as a bar. */
static void spread_svg(FILE *out, const struct row *row, int ng,
		       const struct rs_group *g)
{
	const double w = 220, h = 16.0 * ng + 4;
	double lo = INFINITY, hi = -INFINITY;

	for (int k = 0; k < ng; k++) {
		lo = fmin(lo, row->s[k].min);
		hi = fmax(hi, row->s[k].max);
	}
	if (!isfinite(lo) || !isfinite(hi))
		return;
	if (hi == lo) {
		hi += fabs(hi) > 0 ? fabs(hi) * 0.1 : 1;
		lo -= fabs(lo) > 0 ? fabs(lo) * 0.1 : 1;
	}
	fprintf(out, "<svg width=\"%.0f\" height=\"%.0f\" role=\"img\">", w, h);
	for (int k = 0; k < ng; k++) {
		double y = 10 + 16.0 * k;

		fprintf(out,
			"<text class=\"l\" x=\"0\" y=\"%.0f\">%c</text>"
			"<line class=\"ax\" x1=\"14\" x2=\"%.0f\" y1=\"%.0f\" "
			"y2=\"%.0f\"/>",
			y + 4, 'A' + k, w - 4, y, y);
		for (int r = 0; r < g[k].nr; r++)
			if (!isnan(row->x[k][r]))
				fprintf(out,
					"<circle class=\"dot\" cx=\"%.1f\" "
					"cy=\"%.0f\" r=\"3\"><title>run %d: "
					"%.6g</title></circle>",
					14 + (w - 20) * (row->x[k][r] - lo) /
							(hi - lo),
					y, r + 1, row->x[k][r]);
		if (row->s[k].n) {
			double x = 14 +
				   (w - 20) * (row->s[k].mean - lo) / (hi - lo);

			fprintf(out,
				"<line class=\"mean\" x1=\"%.1f\" x2=\"%.1f\" "
				"y1=\"%.0f\" y2=\"%.0f\"/>",
				x, x, y - 6, y + 6);
		}
	}
	fprintf(out, "</svg>");
}

int rs_groups_html(FILE *out, const struct rs_group *g, int ng,
		   const struct rs_compare_opts *o)
{
	size_t np;
	char **paths = paths_of(g, ng, o->total_only, &np);
	double *space = row_space(g, ng);
	char *head = NULL, pb[RS_PATH_BUF], cb[80], chb[160];
	int folded;
	size_t head_len;
	FILE *hf;

	if (!paths || !space) {
		free(paths);
		free(space);
		return -1;
	}
	rs_html_head(out, "reclaimscope diff: ", g[0].name);
	fprintf(out, "<h1>reclaimscope diff over groups of runs</h1>\n<pre>");
	hf = open_memstream(&head, &head_len);
	if (hf) {
		groups_head(hf, g, ng, "", "mean",
			    "; each dot is one run, the bar the mean");
		fclose(hf);
		rs_html_escape(out, head);
		free(head);
	}
	fprintf(out, "</pre>\n");
	for (size_t p = 0; p < np; p++) {
		fprintf(out, "<h2>");
		rs_html_escape(out, paths[p] ? rs_name_shown(paths[p], pb,
							     sizeof(pb), 0)
					     : "(total)");
		fprintf(out, "</h2>\n<table><thead><tr><th>metric</th>"
			     "<th>unit</th>");
		for (int k = 0; k < ng; k++)
			fprintf(out, "<th>%c</th>%s", 'A' + k,
				k ? "<th>change</th>" : "");
		fprintf(out, "<th>runs</th></tr></thead><tbody>\n");
		folded = 0;
		for (int j = 0; j < metrics_shown(o); j++) {
			struct row row = {0};
			int i = metric_at(o, j);

			if (!shown(o, i,
				   row_of(g, ng, paths[p], i, space, &row),
				   &folded))
				continue;
			fprintf(out, "<tr><td>%s</td><td>%s</td>",
				rs_rows[i].key, rs_row_unit(i));
			for (int k = 0; k < ng; k++) {
				fprintf(out, "<td>");
				rs_html_escape(out, mean_ci(&row.s[k], g[k].nr,
							    cb, sizeof(cb)));
				fprintf(out, "</td>");
				if (k)
					fprintf(out, "<td class=\"%s\">%s</td>",
						row.verdict[k],
						change_str(&row, k, chb,
							   sizeof(chb)));
			}
			fprintf(out, "<td>");
			spread_svg(out, &row, ng, g);
			fprintf(out, "</td></tr>\n");
		}
		fprintf(out, "</tbody></table>\n");
		folded_note(out, folded, "<p>", "</p>\n");
	}
	fprintf(out, "</body></html>\n");
	free(paths);
	free(space);
	return ferror(out) ? -1 : 0;
}

/* --- two recordings ------------------------------------------------------ */

/* "better", "worse", "same" or "" (no direction, or unknown) */
static const char *verdict(int i, double a, double b)
{
	if (isnan(a) || isnan(b) || rs_rows[i].better == RS_NEUTRAL)
		return "";
	if (a == b)
		return "same";
	if ((b < a) == (rs_rows[i].better == RS_LOWER))
		return "better";
	return "worse";
}

static double change_pct(double a, double b)
{
	if (isnan(a) || isnan(b) || a == 0)
		return NAN;
	return 100.0 * (b - a) / a;
}

/* Pairs of memcgs to compare: the totals, then every path in both. */
struct pair {
	char *path; /* the label: "path", or "path (2 of 3)" when reused */
	const struct rs_rec_memcg *a, *b;
};

/* A listed memcg with a path, for matching by path. */
struct named {
	const char *path;
	const struct rs_rec_memcg *m;
};

static int by_path(const void *x, const void *y)
{
	const struct named *p = x, *q = y;
	int c = strcmp(p->path, q->path);

	return c ? c : (p->m->id > q->m->id) - (p->m->id < q->m->id);
}

static struct named *named_of(const struct rs_recording *r, size_t *n)
{
	struct named *v = calloc(r->nr_memcgs + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < r->nr_memcgs; i++)
		if (r->memcgs[i].path && rs_rec_memcg_listed(r, &r->memcgs[i]))
			v[(*n)++] = (struct named){r->memcgs[i].path,
						   &r->memcgs[i]};
	if (v)
		qsort(v, *n, sizeof(*v), by_path);
	return v;
}

/*
 * What diff compares: the totals, then memcgs matched by path.  A path
 * that several memcgs had in turn (made, removed, made again) pairs its
 * k-th memcg in A, by id, with its k-th in B; whatever is left on either
 * side, and every path only one side has, is listed apart (only_a/only_b)
 * rather than dropped.
 */
struct comparison {
	struct rs_rec_memcg ta, tb; /* the two recordings' totals */
	struct pair *pairs;
	size_t nr;
	const char **only_a, **only_b;
	size_t nr_only_a, nr_only_b;
};

static void comparison_free(struct comparison *c)
{
	rs_rec_memcg_release(&c->ta);
	rs_rec_memcg_release(&c->tb);
	for (size_t k = 1; k < c->nr; k++)
		free(c->pairs[k].path);
	free(c->pairs);
	free(c->only_a);
	free(c->only_b);
}

static void compare(const struct rs_recording *a, const struct rs_recording *b,
		    struct comparison *c)
{
	size_t na, nb, i = 0, j = 0;
	struct named *va = named_of(a, &na), *vb = named_of(b, &nb);

	memset(c, 0, sizeof(*c));
	rs_recording_total(a, &c->ta);
	rs_recording_total(b, &c->tb);
	c->pairs = calloc(na + 1, sizeof(*c->pairs));
	c->only_a = calloc(na + 1, sizeof(*c->only_a));
	c->only_b = calloc(nb + 1, sizeof(*c->only_b));
	if (!va || !vb || !c->pairs || !c->only_a || !c->only_b) {
		/* out of memory: the totals alone are not compared either */
		struct rs_rec_memcg ta = c->ta, tb = c->tb;

		free(va);
		free(vb);
		free(c->pairs);
		free(c->only_a);
		free(c->only_b);
		memset(c, 0, sizeof(*c));
		c->ta = ta;
		c->tb = tb;
		return;
	}
	c->pairs[c->nr++] = (struct pair){"(total)", &c->ta, &c->tb};
	while (i < na || j < nb) {
		int d = i >= na	  ? 1
			: j >= nb ? -1
				  : strcmp(va[i].path, vb[j].path);
		size_t ra = 0, rb = 0;

		if (d < 0) {
			c->only_a[c->nr_only_a++] = va[i++].path;
			continue;
		}
		if (d > 0) {
			c->only_b[c->nr_only_b++] = vb[j++].path;
			continue;
		}
		while (i + ra < na && !strcmp(va[i + ra].path, va[i].path))
			ra++;
		while (j + rb < nb && !strcmp(vb[j + rb].path, vb[j].path))
			rb++;
		for (size_t k = 0; k < ra || k < rb; k++) {
			char *label = NULL;

			if (k >= ra) {
				c->only_b[c->nr_only_b++] = vb[j + k].path;
				continue;
			}
			if (k >= rb) {
				c->only_a[c->nr_only_a++] = va[i + k].path;
				continue;
			}
			if (ra == 1 && rb == 1)
				label = strdup(va[i].path);
			else if (asprintf(&label, "%s (%zu of %zu)", va[i].path,
					  k + 1, ra > rb ? ra : rb) < 0)
				label = NULL;
			if (!label)
				continue;
			c->pairs[c->nr++] =
				(struct pair){label, va[i + k].m, vb[j + k].m};
		}
		i += ra;
		j += rb;
	}
	free(va);
	free(vb);
}

/* "A was cut short ..." for a recording without its summary */
static void cut_short_note(FILE *out, const char *side,
			   const struct rs_recording *r)
{
	if (!r->has_summary)
		fprintf(out,
			"note: %s was cut short (no summary line): its totals "
			"are the sums of its snapshots, up to %.1f s\n",
			side, r->duration);
}

static void only_list(FILE *out, const char *side, const char **paths, size_t n)
{
	char pb[RS_PATH_BUF];

	if (!n)
		return;
	fprintf(out, "\nonly in %s (%zu memcg%s, not compared):\n", side, n,
		n == 1 ? "" : "s");
	for (size_t k = 0; k < n; k++)
		fprintf(out, "  %s\n",
			rs_name_shown(paths[k], pb, sizeof(pb), 0));
}

static const char *fairness_str(double j, int n, char *buf, size_t size)
{
	if (isnan(j))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "%.3f (%d memcgs)", j, n);
	return buf;
}

/* Where a recording's counts over the latency budget come from. */
static const char *over_budget_source(const struct rs_recording *r)
{
	if (rs_recording_budget_counted(r))
		return "the kernel";
	return r->has_events ? "event records" : "n/a";
}

void rs_diff_text(FILE *out, const char *name_a, const struct rs_recording *a,
		  const char *name_b, const struct rs_recording *b)
{
	struct comparison c;
	struct pair *p;
	size_t nr;
	int na, nb;
	double fa = rs_fairness(a, &na), fb = rs_fairness(b, &nb);
	char sfa[48], sfb[48], pb[RS_PATH_BUF];

	compare(a, b, &c);
	p = c.pairs;
	nr = c.nr;
	/* names and kernels escaped: a hostile recording's could hold
	 * terminal escapes */
	fprintf(out, "A: %s", rs_name_shown(name_a, pb, sizeof(pb), 0));
	fprintf(out, " (kernel %s, %.1f s%s)\n",
		rs_name_shown(a->kernel, pb, sizeof(pb), 0), a->duration,
		a->mglru ? ", MGLRU" : "");
	fprintf(out, "B: %s", rs_name_shown(name_b, pb, sizeof(pb), 0));
	fprintf(out, " (kernel %s, %.1f s%s)\n",
		rs_name_shown(b->kernel, pb, sizeof(pb), 0), b->duration,
		b->mglru ? ", MGLRU" : "");
	cut_short_note(out, "A", a);
	cut_short_note(out, "B", b);
	page_size_note(out, "", (double[]){a->page_size, b->page_size}, 2);
	/* diff refuses two budgets, so one line says it */
	fprintf(out,
		"latency budget %.9g ms (counts over it: A from %s, B from "
		"%s)\n",
		a->budget_ns / 1e6, over_budget_source(a),
		over_budget_source(b));
	fprintf(out,
		"fairness (Jain's index of pages reclaimed per page held): "
		"A %s, B %s  %s\n",
		fairness_str(fa, na, sfa, sizeof(sfa)),
		fairness_str(fb, nb, sfb, sizeof(sfb)),
		isnan(fa) || isnan(fb) ? ""
		: fb > fa	       ? "better"
		: fb < fa	       ? "worse"
				       : "same");
	for (size_t k = 0; k < nr; k++) {
		fprintf(out, "\n== %s ==\n%-22s %16s %16s %9s  %s\n",
			rs_name_shown(p[k].path, pb, sizeof(pb), 0), "metric",
			"A", "B", "change", "");
		for (int i = 0; i < rs_nr_report_rows; i++) {
			double va = rs_rec_row_value(a, p[k].a, i),
			       vb = rs_rec_row_value(b, p[k].b, i),
			       c = change_pct(va, vb);
			char sa[64], sb[64], sc[32];

			if (isnan(va) && isnan(vb))
				continue;
			if (isnan(c))
				snprintf(sc, sizeof(sc), "%s",
					 va == 0 && vb > 0 ? "new" : "-");
			else
				snprintf(sc, sizeof(sc), "%+.1f%%", c);
			fprintf(out, "%-22s %16s %16s %9s  %s\n",
				rs_rows[i].key,
				rs_metric_shown(a, i, va, sa, sizeof(sa)),
				rs_metric_shown(b, i, vb, sb, sizeof(sb)), sc,
				verdict(i, va, vb));
		}
	}
	only_list(out, "A", c.only_a, c.nr_only_a);
	only_list(out, "B", c.only_b, c.nr_only_b);
	rs_stallers_compare_text(out, "A", "B", &a, 1, &b, 1);
	comparison_free(&c);
}

json_t *rs_diff_json(const char *name_a, const struct rs_recording *a,
		     const char *name_b, const struct rs_recording *b,
		     FILE *out, size_t flags)
{
	struct comparison c;
	struct pair *p;
	size_t nr;
	int na, nb;
	json_t *o = json_object(), *only_a = json_array(),
	       *only_b = json_array();
	struct rs_json_stream arr;
	double fa = rs_fairness(a, &na), fb = rs_fairness(b, &nb);

	compare(a, b, &c);
	p = c.pairs;
	nr = c.nr;
	for (size_t k = 0; k < c.nr_only_a; k++)
		json_array_append_new(only_a, json_string(c.only_a[k]));
	for (size_t k = 0; k < c.nr_only_b; k++)
		json_array_append_new(only_b, json_string(c.only_b[k]));
	/* the latency budget both sides' counts over it are at */
	json_object_set_new(o, "budget_ms", json_real(a->budget_ns / 1e6));
	/* memcgs one side has and the other does not: listed, not compared */
	json_object_set_new(o, "only_in_a", only_a);
	json_object_set_new(o, "only_in_b", only_b);
	/* a recording without its summary: totals summed from snapshots */
	json_object_set_new(o, "cut_short",
			    json_pack("{s:b,s:b}", "a", !a->has_summary, "b",
				      !b->has_summary));
	json_object_set_new(o, "a", rs_json_name(name_a));
	json_object_set_new(o, "b", rs_json_name(name_b));
	/* each side's pages, in bytes: counts of pages are in them */
	json_object_set_new(o, "page_size",
			    json_pack("{s:I,s:I}", "a",
				      (json_int_t)a->page_size, "b",
				      (json_int_t)b->page_size));
	json_object_set_new(o, "stalls",
			    rs_stallers_compare_json(&a, 1, &b, 1));
	json_object_set_new(o, "fairness",
			    json_pack("{s:o,s:o}", "a", rs_json_number(fa), "b",
				      rs_json_number(fb)));
	rs_json_stream_begin(&arr, out, flags, o, "memcgs");
	for (size_t k = 0; k < nr; k++) {
		json_t *e = json_object(), *ms = json_object();

		for (int i = 0; i < rs_nr_report_rows; i++) {
			double va = rs_rec_row_value(a, p[k].a, i),
			       vb = rs_rec_row_value(b, p[k].b, i);

			json_object_set_new(
				ms, rs_rows[i].key,
				json_pack("{s:o,s:o,s:o,s:s,s:s}", "a",
					  rs_json_number(va), "b",
					  rs_json_number(vb), "change_pct",
					  rs_json_number(change_pct(va, vb)),
					  "verdict", verdict(i, va, vb), "unit",
					  rs_row_unit(i)));
		}
		json_object_set_new(e, "path", json_string(p[k].path));
		json_object_set_new(e, "metrics", ms);
		rs_json_stream_add(&arr, e);
	}
	comparison_free(&c);
	return rs_json_stream_end(&arr);
}
