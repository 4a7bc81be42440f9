// SPDX-License-Identifier: GPL-2.0
/* reclaimscope report and diff: recordings into summaries and comparisons. */
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
#include "recording.h"
#include "report_view.h"
#include "trace_view.h"
#include "util.h"

struct report_opts {
	const char *files[RS_MAX_GROUPS];
	int nr_files, want_files, max_files;
	const char *html;
	const char *trace; /* report --trace OUT */
	__u64 budget_ns;   /* 0: each recording's own (RS_DEFAULT_BUDGET_NS) */
	bool json, markdown, groups;
	bool all; /* report: every row, also those null or 0 everywhere */
	struct rs_compare_opts compare;
	int *metrics; /* --metric, in the order given */
};

enum {
	OPT_HTML = 0x100,
	OPT_BUDGET,
	OPT_JSON,
	OPT_MARKDOWN,
	OPT_GROUPS,
	OPT_TOTAL,
	OPT_METRIC,
	OPT_METRICS,
	OPT_ALL,
	OPT_TRACE
};

/*
 * Whether an output (--html, --trace) may write out (0): a new file, or one
 * that starts as ours does (head: a page or a trace written before), and
 * never one of the inputs (EEXIST); else why the path cannot be used
 * (ENOTDIR, EACCES, ...).  A recording given where the output's name
 * belongs (`diff --html a.ndjson b.ndjson c.ndjson`) would otherwise be
 * replaced.
 */
static int out_ok(const char *out, const char *head,
		  const struct report_opts *o)
{
	size_t len = strlen(head);
	char seen[32];
	struct stat st, in;
	FILE *f;
	bool ok;

	if (stat(out, &st))
		return errno == ENOENT ? 0 : errno;
	for (int i = 0; i < o->nr_files; i++)
		if (!stat(o->files[i], &in) && in.st_dev == st.st_dev &&
		    in.st_ino == st.st_ino)
			return EEXIST;
	if (!S_ISREG(st.st_mode))
		return EEXIST;
	if (!st.st_size)
		return 0;
	f = fopen(out, "re");
	if (!f)
		return 0; /* the write says why it cannot */
	ok = len <= sizeof(seen) && fread(seen, 1, len, f) == len &&
	     !memcmp(seen, head, len);
	fclose(f);
	return ok ? 0 : EEXIST;
}

/* out_ok said on stderr for option opt ("--html"): 0 or EINVAL */
static int check_out(struct argp_state *state, const char *opt, const char *out,
		     const char *head, const char *what)
{
	int why = out_ok(out, head, state->input);
	char pb[RS_PATH_BUF];

	if (why == EEXIST)
		argp_error(state,
			   "%s %s: the file exists and is not %s of ours (a "
			   "recording? the output name forgotten?); not "
			   "overwritten: remove it or name another",
			   opt, rs_name_shown(out, pb, sizeof(pb), 0), what);
	else if (why)
		argp_error(state, "%s %s: %s", opt,
			   rs_name_shown(out, pb, sizeof(pb), 0),
			   strerror(why));
	return why ? EINVAL : 0;
}

static error_t parse(int key, char *arg, struct argp_state *state)
{
	struct report_opts *o = state->input;
	int want = o->want_files;

	switch (key) {
	case OPT_HTML:
		o->html = arg;
		return 0;
	case OPT_TRACE:
		o->trace = arg;
		return 0;
	case OPT_BUDGET:
		return rs_cli_parse_budget(state, arg, &o->budget_ns);
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_MARKDOWN:
		o->markdown = true;
		return 0;
	case OPT_METRICS:
		/* name, unit, better direction, section, meaning: for
		 * --metric and scripts */
		for (int i = 0; i < rs_nr_report_rows; i++)
			printf("%s\t%s\t%s\t%s\t%s\n", rs_rows[i].key,
			       rs_row_unit(i),
			       rs_rows[i].better == RS_LOWER	? "lower"
			       : rs_rows[i].better == RS_HIGHER ? "higher"
								: "-",
			       rs_rows[i].section, rs_row_help(i));
		exit(fflush(stdout) || ferror(stdout) ? 1 : 0);
	case OPT_GROUPS:
		o->groups = true;
		return 0;
	case OPT_ALL:
		o->all = true;
		return 0;
	case OPT_TOTAL:
		o->compare.total_only = true;
		return 0;
	case OPT_METRIC: {
		int i = 0;

		while (i < rs_nr_report_rows && strcmp(rs_rows[i].key, arg))
			i++;
		if (i == rs_nr_report_rows) {
			argp_error(
				state,
				"no metric '%s': `reclaimscope report` lists "
				"them, one per line",
				arg);
			return EINVAL;
		}
		for (int j = 0; j < o->compare.nr_metrics; j++)
			if (o->metrics[j] == i)
				return 0;
		if (!o->metrics &&
		    !(o->metrics = calloc(rs_nr_report_rows, sizeof(int))))
			return ENOMEM;
		o->metrics[o->compare.nr_metrics++] = i;
		o->compare.metrics = o->metrics;
		return 0;
	}
	case ARGP_KEY_ARG:
		if (o->nr_files == o->max_files) {
			argp_error(state, "unexpected argument '%s'", arg);
			return EINVAL;
		}
		o->files[o->nr_files++] = arg;
		return 0;
	case ARGP_KEY_END:
		if (o->nr_files < want) {
			argp_error(state, "give %s",
				   want == 2 ? "two recordings (or folders of "
					       "them), A and B"
					     : "one recording");
			return EINVAL;
		}
		if (o->json + o->markdown + !!o->html > 1) {
			argp_error(state, "give one of --json, --markdown and "
					  "--html");
			return EINVAL;
		}
		if (o->trace && o->html && !strcmp(o->trace, o->html)) {
			argp_error(state, "--trace and --html name the same "
					  "file: give each its own");
			return EINVAL;
		}
		if (o->html && check_out(state, "--html", o->html,
					 "<!DOCTYPE html>", "a page"))
			return EINVAL;
		if (o->trace && check_out(state, "--trace", o->trace,
					  "{\"traceEvents\":[", "a trace"))
			return EINVAL;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* Read one recording, or say which line is wrong and how. */
/* The recording at path (or - for standard input) into r, its events also
 * handed to sink (NULL: none).  0, or 1 said on stderr. */
static int load_events(const char *path, __u64 budget_ns,
		       struct rs_recording *r, const struct rs_event_sink *sink)
{
	char err[512], shown[RS_ESCAPED_SIZE(512)], pb[RS_PATH_BUF];
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	struct stat st;
	int rc;

	if (!f) {
		fprintf(stderr, "reclaimscope: cannot read %s: %s\n",
			rs_name_shown(path, pb, sizeof(pb), 0),
			strerror(errno));
		return 1;
	}
	/* a device such as /dev/zero never ends: files, pipes and sockets */
	if (!fstat(fileno(f), &st) && !S_ISREG(st.st_mode) &&
	    !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
		fprintf(stderr,
			"reclaimscope: %s is not a file or a pipe; give a "
			"recording (or - for standard input)\n",
			rs_name_shown(path, pb, sizeof(pb), 0));
		if (f != stdin)
			fclose(f);
		return 1;
	}
	rc = rs_recording_read_events(f, path, (double)budget_ns, r, sink, err,
				      sizeof(err));
	if (f != stdin)
		fclose(f);
	if (rc) {
		/* the message quotes the file's name and may quote its
		 * content (a record's type, jansson's "near ..."): bytes a
		 * hostile file chose, escaped for the terminal */
		fprintf(stderr, "reclaimscope: %s\n",
			rs_name_shown(err, shown, sizeof(shown), 0));
		return 1;
	}
	return 0;
}

static int load(const char *path, __u64 budget_ns, struct rs_recording *r)
{
	return load_events(path, budget_ns, r, NULL);
}

/*
 * An output file (--html, --trace) is written to OUT.tmp.PID beside OUT
 * and renamed over it once whole: a full disk or a failed write leaves no
 * truncated file and keeps whatever OUT was.
 */
struct page_out {
	const char *out;
	char *tmp;
	FILE *f;
};

/* 0, or an errno (nothing to close then) */
static int page_open(struct page_out *p, const char *out)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	if (asprintf(&p->tmp, "%s.tmp.%d", out, (int)getpid()) < 0) {
		p->tmp = NULL;
		return ENOMEM;
	}
	p->f = fopen(p->tmp, "wxe");
	return p->f ? 0 : errno;
}

/*
 * Close what page_open opened and rename it over OUT, or remove it when
 * err (an errno) or a write failed; err said on stderr.  0, or 1.
 */
static int page_close(struct page_out *p, int err, const char *detail)
{
	char pb[RS_PATH_BUF];

	if (p->f) {
		if (!err && ferror(p->f))
			err = errno ? errno : EIO;
		if (fclose(p->f) && !err)
			err = errno ? errno : EIO;
		if (!err && rename(p->tmp, p->out))
			err = errno;
		if (err && p->tmp)
			unlink(p->tmp);
	}
	/* after what stdout holds: the notice must not land in the middle
	 * of a report when both go to one terminal or file */
	fflush(stdout);
	if (err)
		fprintf(stderr, "reclaimscope: cannot write %s: %s\n",
			rs_name_shown(p->out, pb, sizeof(pb), 0),
			strerror(err));
	else
		fprintf(stderr, "reclaimscope: wrote %s%s\n",
			rs_name_shown(p->out, pb, sizeof(pb), 0),
			detail ? detail : "");
	free(p->tmp);
	return err ? 1 : 0;
}

/* The page page(f, ctx) writes, to out as page_open says.  0, or 1. */
static int write_page(const char *out, int (*page)(FILE *f, const void *ctx),
		      const void *ctx)
{
	struct page_out p;
	int err = page_open(&p, out);

	if (!err && page(p.f, ctx))
		err = errno ? errno : EIO;
	return page_close(&p, err, NULL);
}

/* diff's JSON: 15 significant digits print 0.05 as 0.05, not
 * 0.050000000000000003, and keep every count below 2^49 exact */
#define DIFF_JSON_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(15))

struct report_page {
	const char *name;
	const struct rs_recording *r;
};

static int report_page(FILE *f, const void *ctx)
{
	const struct report_page *p = ctx;

	return rs_report_html(f, p->name, p->r);
}

/*
 * report --trace: the recording read once, its events written to the
 * trace as they come.  0 with r read and the trace written, else 1 (said).
 */
static int load_traced(const struct report_opts *o, struct rs_recording *r)
{
	struct page_out p;
	struct rs_trace *t = NULL;
	struct rs_event_sink sink;
	char detail[96];
	int err = page_open(&p, o->trace), loaded = 1;

	if (!err && !(t = rs_trace_new(p.f)))
		err = ENOMEM;
	if (!err) {
		sink = rs_trace_sink(t);
		loaded = load_events(o->files[0], o->budget_ns, r, &sink);
		if (!loaded)
			rs_trace_finish(t, o->files[0], r);
		/* a write that failed (said below), else the recording's
		 * fault (load said why) */
		err = rs_trace_error(t);
		if (!err && loaded)
			err = ECANCELED;
	}
	snprintf(detail, sizeof(detail), " (%zu trace events, %zu tasks)",
		 t ? rs_trace_events(t) : 0, t ? rs_trace_tasks(t) : 0);
	if (!loaded && !r->has_events) {
		char pb[RS_PATH_BUF];

		fprintf(stderr,
			"reclaimscope: %s has no event records (record with "
			"--events): the trace holds only the memcgs' "
			"counters\n",
			rs_name_shown(o->files[0], pb, sizeof(pb), 0));
	}
	rs_trace_free(t);
	if (err == ECANCELED) { /* nothing more to say than load's error */
		if (p.f)
			fclose(p.f);
		if (p.tmp)
			unlink(p.tmp);
		free(p.tmp);
		return 1;
	}
	if (page_close(&p, err, detail)) {
		if (!loaded)
			rs_recording_free(r);
		return 1;
	}
	return 0;
}

int rs_cmd_report(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{"html", OPT_HTML, "OUT", 0,
		 "Also write a self-contained HTML report (inline SVG charts) "
		 "to OUT",
		 0},
		{"budget-ms", OPT_BUDGET, "MS", 0,
		 "Latency budget passes, reclaims and throttles are counted "
		 "against (default: the one the recording was made with, "
		 "else 8.3, a 120 Hz frame).  At the recording's own budget "
		 "the counts are the kernel's; at another they come from "
		 "event records (record --events)",
		 0},
		{"json", OPT_JSON, NULL, 0,
		 "One JSON document instead of text: every metric of every "
		 "memcg under its report name (null where unknown), the "
		 "outcome records, drops and fairness",
		 0},
		{"metrics", OPT_METRICS, NULL, 0,
		 "List the metrics (name, unit, which way is better, section, "
		 "meaning), tab-separated, "
		 "one per line, and exit",
		 0},
		{"all", OPT_ALL, NULL, 0,
		 "Text: every metric, also those null or 0 in every memcg "
		 "(left out by default, and counted)",
		 0},
		{"trace", OPT_TRACE, "OUT", 0,
		 "Also write the recording's events to OUT as a Chrome "
		 "trace (JSON; open it at ui.perfetto.dev, \"Open trace "
		 "file\", or in chrome://tracing): per task a track named "
		 "\"comm tid (first reclaim)\" with its reclaims and the "
		 "MGLRU passes, agings and throttles nested inside, and per "
		 "memcg counters of reclaimed/s, scanned/s and file "
		 "refaults/s (the tracks need a recording made with --events)",
		 0},
		{0},
	};
	static const char doc[] =
		"Summarize a recording: per memcg and in total, what reclaim "
		"scanned, took and freed, MGLRU budget use and why passes "
		"ended, agings, flusher wakeups, throttles by reason, latency "
		"percentiles of passes, direct and memcg reclaim, how many "
		"broke the latency budget, over-reclaim, refaults and OOM "
		"kills, and Jain's fairness index of reclaim relative to "
		"memory held.  Percentiles come from the kernel's histograms "
		"of "
		"16 buckets per power of two, interpolated inside the bucket "
		"(recordings before schema 3: log2 buckets, the bucket's "
		"upper bound).  Maxima need a recording made "
		"with --events; counts over the latency budget are the "
		"kernel's, at the budget the recording was made with "
		"(record --budget-ms).  The report ends with who "
		"stalled: the ten (task, memcg, kind) entries with the most "
		"stall time, counted per task in the kernel (no --events "
		"needed); task (N) is the thread id, times in ms; kind is "
		"direct (global direct reclaim), memcg (a limit or "
		"memory.high), proactive (memory.reclaim) or throttle.\n"
		"\v"
		"EXAMPLES:\n"
		"  reclaimscope report run.ndjson\n"
		"  reclaimscope report run.ndjson --html run.html\n"
		"  reclaimscope report --budget-ms 16.7 run.ndjson\n"
		"  reclaimscope report run.ndjson --trace run.trace.json\n"
		"  reclaimscope report --json run.ndjson | jq "
		"'.memcgs[0].metrics.reclaimed'\n";
	static const struct argp argp = {options, parse, "FILE", doc,
					 NULL,	  NULL,	 NULL};
	struct report_opts o = {.want_files = 1, .max_files = 1};
	struct rs_recording r;
	int rc = 0;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o))
		return 2;
	if (o.trace ? load_traced(&o, &r) : load(o.files[0], o.budget_ns, &r))
		return 1;
	if (o.json)
		rs_report_json(o.files[0], &r, stdout,
			       JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	else
		rs_report_text(stdout, o.files[0], &r, o.all);
	if (o.html) {
		struct report_page page = {o.files[0], &r};

		rc = write_page(o.html, report_page, &page);
	}
	rs_recording_free(&r);
	return rc;
}

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
		if (load(g->files[i], budget_ns, &g->runs[i])) {
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

		rc = write_page(o->html, groups_page, &page);
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
		 "more; the names are report's)",
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
		"  reclaimscope diff --html cmp.html before/ after/\n";
	static const struct argp argp = {options, parse, "A B [C]", doc,
					 NULL,	  NULL,	 NULL};
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
		fprintf(stderr, "reclaimscope: --markdown, --html, --total and "
				"--metric "
				"compare groups of runs: add --groups (or give "
				"folders)\n");
		return 2;
	}
	if (load(o.files[0], o.budget_ns, &a))
		return 1;
	if (load(o.files[1], o.budget_ns, &b) ||
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
