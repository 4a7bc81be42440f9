// SPDX-License-Identifier: GPL-2.0
/* reclaimscope report: a recording into a summary, a page and a trace. */
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
#include "recordings.h"
#include "report_view.h"
#include "trace_view.h"
#include "util.h"

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
	int err = rs_page_open(&p, o->trace), loaded = 1;

	if (!err && !(t = rs_trace_new(p.f)))
		err = ENOMEM;
	if (!err) {
		sink = rs_trace_sink(t);
		loaded = rs_load_events(o->files[0], o->budget_ns, r, &sink);
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
	if (rs_page_close(&p, err, detail)) {
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
	static const struct argp argp = {
		options, rs_recordings_parse, "FILE", doc, NULL, NULL, NULL};
	struct report_opts o = {.want_files = 1, .max_files = 1};
	struct rs_recording r;
	int rc = 0;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o))
		return 2;
	if (o.trace ? load_traced(&o, &r)
		    : rs_load(o.files[0], o.budget_ns, &r))
		return 1;
	if (o.json)
		rs_report_json(o.files[0], &r, stdout,
			       JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	else
		rs_report_text(stdout, o.files[0], &r, o.all);
	if (o.html) {
		struct report_page page = {o.files[0], &r};

		rc = rs_write_page(o.html, report_page, &page);
	}
	rs_recording_free(&r);
	return rc;
}
