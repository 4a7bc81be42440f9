// SPDX-License-Identifier: GPL-2.0
/* reclaimscope diff: recordings, or groups of runs, compared. */
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis.h"
#include "cli.h"
#include "compare_view.h"
#include "recordings.h"
#include "util.h"

/* Recordings (*.ndjson) at or below dir, appended to *v. */
static int find_recordings(const char *dir, char ***v, int *n, int depth)
{
	struct dirent **ents;
	int nr = scandir(dir, &ents, NULL, alphasort), rc = 0;

	if (nr < 0) {
		char pb[RS_PATH_BUF];

		fprintf(stderr, "reclaimscope: cannot read folder %s: %s\n",
			rs_name_shown(dir, pb, sizeof(pb), 0), strerror(errno));
		return -1;
	}
	for (int i = 0; i < nr; i++) {
		const char *name = ents[i]->d_name;
		size_t len = strlen(name);
		char *path = NULL;
		struct stat st;

		if (rc || name[0] == '.' ||
		    asprintf(&path, "%s/%s", dir, name) < 0 ||
		    stat(path, &st)) {
			free(path);
			free(ents[i]);
			continue;
		}
		if (S_ISDIR(st.st_mode) && depth < 8) {
			rc = find_recordings(path, v, n, depth + 1);
			free(path);
		} else if (S_ISREG(st.st_mode) && len > 7 &&
			   !strcmp(name + len - 7, ".ndjson")) {
			char **grown = realloc(*v, (*n + 1) * sizeof(**v));

			if (!grown) {
				free(path);
				rc = -1;
			} else {
				*v = grown;
				(*v)[(*n)++] = path;
			}
		} else {
			free(path);
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}

/*
 * Whether two recordings count over one latency budget; else say so: a
 * comparison of counts over 8.3 ms with counts over 16.7 ms would read as
 * a change.
 */
static bool same_budget(const char *name_a, const struct rs_recording *a,
			const char *name_b, const struct rs_recording *b)
{
	char pa[RS_PATH_BUF], pb[RS_PATH_BUF];

	if (a->budget_ns == b->budget_ns)
		return true;
	fprintf(stderr,
		"reclaimscope: %s counts over a latency budget of %.9g ms%s "
		"and %s over %.9g ms%s: give --budget-ms to compare both at "
		"one budget (counts from event records, where the "
		"recordings have every one)\n",
		rs_name_shown(name_a, pa, sizeof(pa), 0), a->budget_ns / 1e6,
		a->kernel_budget_ns > 0 ? ""
					: " (the default: made before "
					  "recordings kept a budget)",
		rs_name_shown(name_b, pb, sizeof(pb), 0), b->budget_ns / 1e6,
		b->kernel_budget_ns > 0 ? ""
					: " (the default: made before "
					  "recordings kept a budget)");
	return false;
}

/* A group: a folder's recordings (runs of one setup), or one file. */
static int load_group(const char *arg, __u64 budget_ns, struct rs_group *g)
{
	struct stat st;

	memset(g, 0, sizeof(*g));
	g->name = strdup(arg);
	if (!g->name)
		return 1;
	if (!stat(arg, &st) && S_ISDIR(st.st_mode)) {
		if (find_recordings(arg, &g->files, &g->nr, 0))
			goto fail;
		if (!g->nr) {
			char pb[RS_PATH_BUF];

			fprintf(stderr,
				"reclaimscope: %s holds no recording "
				"(*.ndjson, "
				"searched in its subfolders too)\n",
				rs_name_shown(arg, pb, sizeof(pb), 0));
			goto fail;
		}
	} else {
		g->files = calloc(1, sizeof(*g->files));
		if (!g->files || !(g->files[0] = strdup(arg)))
			goto fail;
		g->nr = 1;
	}
	g->runs = calloc(g->nr, sizeof(*g->runs));
	g->totals = calloc(g->nr, sizeof(*g->totals));
	if (!g->runs || !g->totals)
		goto fail;
	for (int i = 0; i < g->nr; i++) {
		if (rs_load(g->files[i], budget_ns, &g->runs[i])) {
			/* the ones read so far are freed, the rest are empty */
			g->nr = i;
			goto fail;
		}
		rs_recording_total(&g->runs[i], &g->totals[i]);
	}
	if (rs_group_index(g)) {
		fprintf(stderr, "reclaimscope: out of memory\n");
		goto fail;
	}
	return 0;
fail:
	rs_group_free(g);
	return 1;
}

/*
 * Percentiles are compared only when measured alike: where a recording
 * from before schema 3 (log2 histograms, a percentile the bucket's power of
 * two) meets a later one, every recording's histograms (and each run's
 * total) are folded into powers of two, and the user is told.
 */
static void buckets_note(const char *old)
{
	char pb[RS_PATH_BUF];

	fprintf(stderr,
		"reclaimscope: %s was recorded before schema 3 (log2 "
		"histograms): every side's percentiles come from "
		"power-of-two buckets\n",
		rs_name_shown(old, pb, sizeof(pb), 0));
}

/* 0, or 1 (said why) */
static int pair_same_buckets(const char *a_file, struct rs_recording *a,
			     const char *b_file, struct rs_recording *b)
{
	if (rs_recording_log2(a) == rs_recording_log2(b))
		return 0;
	buckets_note(rs_recording_log2(a) ? a_file : b_file);
	if (rs_recording_fold_log2(a) || rs_recording_fold_log2(b)) {
		fprintf(stderr, "reclaimscope: out of memory\n");
		return 1;
	}
	return 0;
}

/* The same over groups of runs; 0, or 1 (said why). */
static int groups_same_buckets(struct rs_group *g, int ng)
{
	const char *old = NULL;
	bool any_new = false;

	for (int k = 0; k < ng; k++)
		for (int i = 0; i < g[k].nr; i++)
			if (rs_recording_log2(&g[k].runs[i]))
				old = old ? old : g[k].files[i];
			else
				any_new = true;
	if (!old || !any_new)
		return 0;
	buckets_note(old);
	for (int k = 0; k < ng; k++)
		for (int i = 0; i < g[k].nr; i++)
			if (rs_recording_fold_log2(&g[k].runs[i]) ||
			    rs_rec_memcg_fold_log2(&g[k].totals[i])) {
				fprintf(stderr,
					"reclaimscope: out of memory\n");
				return 1;
			}
	return 0;
}

struct groups_page {
	const struct rs_group *g;
	int ng;
	const struct rs_compare_opts *opts;
};

static int groups_page(FILE *f, const void *ctx)
{
	const struct groups_page *p = ctx;

	return rs_groups_html(f, p->g, p->ng, p->opts);
}

/* diff over groups of runs: means, intervals and tests */
static int diff_groups(const struct report_opts *o)
{
	struct rs_group *g = calloc(RS_MAX_GROUPS, sizeof(*g));
	int ng = 0, rc = 0;

	if (!g)
		return 1;
	for (; ng < o->nr_files && ng < RS_MAX_GROUPS; ng++)
		if (load_group(o->files[ng], o->budget_ns, g + ng)) {
			rc = 1;
			goto out;
		}
	for (int k = 0; k < ng; k++)
		for (int i = 0; i < g[k].nr; i++)
			if (!same_budget(g[0].files[0], &g[0].runs[0],
					 g[k].files[i], &g[k].runs[i])) {
				rc = 1;
				goto out;
			}
	if (groups_same_buckets(g, ng)) {
		rc = 1;
		goto out;
	}
	if (o->json) {
		rs_groups_json(g, ng, &o->compare, stdout, DIFF_JSON_FLAGS);
	} else if (o->html) {
		struct groups_page page = {g, ng, &o->compare};

		rc = rs_write_page(o->html, groups_page, &page);
	} else {
		rs_groups_text(stdout, g, ng,
			       o->markdown ? RS_CMP_MARKDOWN : RS_CMP_TEXT,
			       &o->compare);
	}
out:
	for (int k = 0; k < RS_MAX_GROUPS; k++)
		rs_group_free(g + k);
	free(g);
	return rc;
}

static bool is_folder(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int rs_cmd_diff(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{"json", OPT_JSON, NULL, 0, "JSON instead of text", 0},
		{"budget-ms", OPT_BUDGET, "MS", 0,
		 "Latency budget (default: the one the recordings were made "
		 "with; recordings made with different ones need it)",
		 0},
		{"groups", OPT_GROUPS, NULL, 0,
		 "Compare as groups of runs even when A and B are single "
		 "recordings (implied by a folder or a third argument)",
		 0},
		{"markdown", OPT_MARKDOWN, NULL, 0,
		 "Groups: a markdown table per memcg, as in a patch's cover "
		 "letter",
		 0},
		{"html", OPT_HTML, "OUT", 0,
		 "Groups: write a self-contained HTML page to OUT, each run "
		 "drawn as a dot beside the means",
		 0},
		{"total", OPT_TOTAL, NULL, 0,
		 "Groups: only the whole recordings and the workload's "
		 "outcome, not each memcg",
		 0},
		{"metric", OPT_METRIC, "NAME", 0,
		 "Groups: only this metric, in the order given (repeat for "
		 "more; the names are report's), shown even where 0 in "
		 "every run",
		 0},
		{"headline", OPT_HEADLINE, NULL, 0,
		 "Groups: only the headline metrics, the workload's outcome "
		 "first, then what reclaim did behind it (docs/metrics.md "
		 "numbers them; scripts/lab's report is this table); those "
		 "null or 0 in every run folded into a count",
		 0},
		{0},
	};
	static const char doc[] =
		"Compare recordings, e.g. before and after a patch, or MGLRU "
		"against the classic LRU.\n"
		"\n"
		"Two recordings: per memcg (matched by path) and in total, "
		"every metric of `report` with A, B, the change in %, and "
		"whether it is better or worse (lower is better for refaults, "
		"latencies, throttles and OOM kills; higher for efficiency, "
		"fairness and the workload's throughput), plus the fairness "
		"index of each.\n"
		"\n"
		"Groups of runs: give two or three folders (each holding the "
		"recordings of repeated runs of one setup, searched "
		"recursively for *.ndjson, as `scripts/lab` writes them), or "
		"three files, or --groups.  Per memcg and metric: each group's "
		"mean ± the half-width of its 95% confidence interval "
		"(Student's t), \"(n=K)\" where only K runs had a value, the "
		"change of B (and C) against A, and a verdict only where a "
		"test that fits the values gives p < 0.05: the exact "
		"permutation test for counts and yes/no outcomes (\"exact "
		"p\"), Welch's two-sided t-test for the rest (the "
		"permutation test where a side has one run or neither has any "
		"spread).  Otherwise \"no significant change\" with the "
		"change the runs could have seen, or \"too few runs\" where "
		"no outcome of so few runs could reach p < 0.05 (3 against 3: "
		"p >= 0.1).  A memcg path stands for the first memcg of that "
		"path in each run; a run that does not list it had no reclaim "
		"there and counts as 0 (unless it recorded another subtree "
		"only).\n"
		"\v"
		"EXAMPLES:\n"
		"  reclaimscope diff before.ndjson after.ndjson\n"
		"  reclaimscope diff --json mglru.ndjson classic.ndjson | jq "
		".\n"
		"  reclaimscope diff runs/6.18-mglru runs/7.2-mglru "
		"runs/7.2-classic\n"
		"  reclaimscope diff --markdown --total before/ after/\n"
		"  reclaimscope diff --markdown --total --headline before/ "
		"after/\n"
		"  reclaimscope diff --html cmp.html before/ after/\n";
	static const struct argp argp = {
		options, rs_recordings_parse, "A B [C]", doc, NULL, NULL, NULL};
	struct report_opts o = {.want_files = 2, .max_files = RS_MAX_GROUPS};
	struct rs_recording a = {0}, b = {0};

	if (argp_parse(&argp, argc, argv, 0, NULL, &o)) {
		free(o.metrics);
		return 2;
	}
	if (o.groups || o.nr_files > 2 || is_folder(o.files[0]) ||
	    is_folder(o.files[1])) {
		int rc = diff_groups(&o);

		free(o.metrics);
		return rc;
	}
	free(o.metrics);
	if (o.markdown || o.html || o.compare.total_only || o.compare.metrics) {
		fprintf(stderr, "reclaimscope: --markdown, --html, --total, "
				"--metric and --headline "
				"compare groups of runs: add --groups (or give "
				"folders)\n");
		return 2;
	}
	if (rs_load(o.files[0], o.budget_ns, &a))
		return 1;
	if (rs_load(o.files[1], o.budget_ns, &b) ||
	    !same_budget(o.files[0], &a, o.files[1], &b) ||
	    pair_same_buckets(o.files[0], &a, o.files[1], &b)) {
		rs_recording_free(&a);
		rs_recording_free(&b); /* zeroed or read */
		return 1;
	}
	if (o.json) {
		rs_diff_json(o.files[0], &a, o.files[1], &b, stdout,
			     DIFF_JSON_FLAGS);
	} else {
		rs_diff_text(stdout, o.files[0], &a, o.files[1], &b);
	}
	rs_recording_free(&a);
	rs_recording_free(&b);
	return 0;
}
