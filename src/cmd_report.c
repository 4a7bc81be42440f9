// SPDX-License-Identifier: GPL-2.0
/* reclaimscope report and diff: recordings into summaries and comparisons. */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "recording.h"
#include "report_view.h"
#include "util.h"

/* 120 Hz: one frame */
#define DEFAULT_BUDGET_MS 8.3

struct report_opts {
	const char *files[2];
	int nr_files, want_files;
	const char *html;
	double budget_ms;
	bool json;
};

enum { OPT_HTML = 0x100, OPT_BUDGET, OPT_JSON };

static error_t parse_budget(struct argp_state *state, const char *arg,
			    double *out)
{
	double v;

	if (rs_parse_decimal(arg, 0, 3600000, &v) || !(v > 0)) {
		argp_error(state,
			   "invalid latency budget '%s': give milliseconds "
			   "above 0, e.g. 8.3 (a 120 Hz frame) or 16.7",
			   arg);
		return EINVAL;
	}
	*out = v;
	return 0;
}

static error_t parse(int key, char *arg, struct argp_state *state)
{
	struct report_opts *o = state->input;
	int want = o->want_files;

	switch (key) {
	case OPT_HTML:
		o->html = arg;
		return 0;
	case OPT_BUDGET:
		return parse_budget(state, arg, &o->budget_ms);
	case OPT_JSON:
		o->json = true;
		return 0;
	case ARGP_KEY_ARG:
		if (o->nr_files == 2) {
			argp_error(state, "unexpected argument '%s'", arg);
			return EINVAL;
		}
		o->files[o->nr_files++] = arg;
		return 0;
	case ARGP_KEY_END:
		if (o->nr_files != want) {
			argp_error(state, "give %s",
				   want == 2 ? "two recordings, A and B"
					     : "one recording");
			return EINVAL;
		}
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* Read one recording, or say which line is wrong and how. */
static int load(const char *path, double budget_ms, struct rs_recording *r)
{
	char err[512];
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	struct stat st;
	int rc;

	if (!f) {
		fprintf(stderr, "reclaimscope: cannot read %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	/* a device such as /dev/zero never ends: files, pipes and sockets */
	if (!fstat(fileno(f), &st) && !S_ISREG(st.st_mode) &&
	    !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
		fprintf(stderr,
			"reclaimscope: %s is not a file or a pipe; give a "
			"recording (or - for standard input)\n",
			path);
		if (f != stdin)
			fclose(f);
		return 1;
	}
	rc = rs_recording_read(f, path, budget_ms * 1e6, r, err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (rc) {
		fprintf(stderr, "reclaimscope: %s\n", err);
		return 1;
	}
	return 0;
}

/*
 * The page goes to OUT.tmp.PID beside OUT and is renamed over it once
 * whole: a full disk or a failed write leaves no truncated page and keeps
 * whatever OUT was.
 */
static int write_html(const char *out, const char *name,
		      const struct rs_recording *r)
{
	char *tmp = NULL;
	FILE *f = NULL;
	int err = 0;

	if (asprintf(&tmp, "%s.tmp.%d", out, (int)getpid()) < 0) {
		tmp = NULL;
		err = ENOMEM;
	} else if (!(f = fopen(tmp, "wxe"))) {
		err = errno;
	} else {
		if (rs_report_html(f, name, r) || ferror(f))
			err = errno ? errno : EIO;
		if (fclose(f) && !err)
			err = errno ? errno : EIO;
		if (!err && rename(tmp, out))
			err = errno;
		if (err)
			unlink(tmp);
	}
	if (err)
		fprintf(stderr, "reclaimscope: cannot write %s: %s\n", out,
			strerror(err));
	free(tmp);
	return err ? 1 : 0;
}

int rs_cmd_report(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{"html", OPT_HTML, "OUT", 0,
		 "Also write a self-contained HTML report (inline SVG charts) "
		 "to OUT",
		 0},
		{"budget-ms", OPT_BUDGET, "MS", 0,
		 "Latency budget passes and reclaims are counted against "
		 "(default 8.3, a 120 Hz frame)",
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
		"memory held.  Percentiles come from log2 histograms: each is "
		"the upper bound of its bucket.  Maxima and budget counts need "
		"a recording made with --events.\n"
		"\v"
		"EXAMPLES:\n"
		"  reclaimscope report run.ndjson\n"
		"  reclaimscope report run.ndjson --html run.html\n"
		"  reclaimscope report --budget-ms 16.7 run.ndjson\n";
	static const struct argp argp = {options, parse, "FILE", doc,
					 NULL,	  NULL,	 NULL};
	struct report_opts o = {.budget_ms = DEFAULT_BUDGET_MS,
				.want_files = 1};
	struct rs_recording r;
	int rc = 0;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o))
		return 2;
	if (load(o.files[0], o.budget_ms, &r))
		return 1;
	rs_report_text(stdout, o.files[0], &r);
	if (o.html) {
		rc = write_html(o.html, o.files[0], &r);
		if (!rc)
			fprintf(stderr, "reclaimscope: wrote %s\n", o.html);
	}
	rs_recording_free(&r);
	return rc;
}

int rs_cmd_diff(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{"json", OPT_JSON, NULL, 0, "JSON instead of text", 0},
		{"budget-ms", OPT_BUDGET, "MS", 0,
		 "Latency budget (default 8.3 ms)", 0},
		{0},
	};
	static const char doc[] =
		"Compare two recordings, e.g. before and after a patch, or "
		"MGLRU against the classic LRU: per memcg (matched by path) "
		"and in total, every metric of `report` with A, B, the change "
		"in %, and whether it is better or worse (lower is better for "
		"refaults, latencies, throttles and OOM kills; higher for "
		"efficiency and fairness), plus the fairness index of each.\n"
		"\v"
		"EXAMPLES:\n"
		"  reclaimscope diff before.ndjson after.ndjson\n"
		"  reclaimscope diff --json mglru.ndjson classic.ndjson | jq "
		".\n";
	static const struct argp argp = {options, parse, "A B", doc,
					 NULL,	  NULL,	 NULL};
	struct report_opts o = {.budget_ms = DEFAULT_BUDGET_MS,
				.want_files = 2};
	struct rs_recording a, b;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o))
		return 2;
	if (load(o.files[0], o.budget_ms, &a))
		return 1;
	if (load(o.files[1], o.budget_ms, &b)) {
		rs_recording_free(&a);
		return 1;
	}
	if (o.json) {
		json_t *j = rs_diff_json(o.files[0], &a, o.files[1], &b);

		json_dumpf(j, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(j);
	} else {
		rs_diff_text(stdout, o.files[0], &a, o.files[1], &b);
	}
	rs_recording_free(&a);
	rs_recording_free(&b);
	return 0;
}
