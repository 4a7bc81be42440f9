/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What report and diff share: their options (one parser), reading a
 * recording with its errors said, and writing an output page whole.
 */
#ifndef RS_RECORDINGS_H
#define RS_RECORDINGS_H

#include <argp.h>
#include <stdio.h>
#include "compare_view.h"
#include "recording.h"

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
	OPT_HEADLINE,
	OPT_ALL,
	OPT_TRACE
};

/* The options of report and diff, into a struct report_opts. */
error_t rs_recordings_parse(int key, char *arg, struct argp_state *state);
/* The recording at path (or - for standard input) into r, its events also
 * handed to sink (NULL: none).  0, or 1 said on stderr. */
int rs_load_events(const char *path, __u64 budget_ns, struct rs_recording *r,
		   const struct rs_event_sink *sink);
int rs_load(const char *path, __u64 budget_ns, struct rs_recording *r);
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
int rs_page_open(struct page_out *p, const char *out);
/*
 * Close what rs_page_open opened and rename it over OUT, or remove it when
 * err (an errno) or a write failed; err said on stderr.  0, or 1.
 */
int rs_page_close(struct page_out *p, int err, const char *detail);
/*
 * page(f, ctx) written to OUT.tmp.PID beside out and renamed over out once
 * whole; 0, or 1 said on stderr (and out kept as it was).
 */
int rs_write_page(const char *out, int (*page)(FILE *f, const void *ctx),
		  const void *ctx);

/* diff's JSON: 15 significant digits print 0.05 as 0.05, not
 * 0.050000000000000003, and keep every count below 2^49 exact */
#define DIFF_JSON_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(15))

#endif
