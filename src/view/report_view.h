/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `report` output, rendered from the metrics table (analysis.h): text,
 * JSON and a self-contained HTML page with inline SVG (diff is
 * compare_view.h).  Reads recordings only.
 */
#ifndef RS_REPORT_VIEW_H
#define RS_REPORT_VIEW_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include "recording.h"

/*
 * The text report.  all: every row; otherwise rows null or zero in every
 * memcg and in the total are left out, and a line says how many.
 */
void rs_report_text(FILE *out, const char *name, const struct rs_recording *r,
		    bool all);
int rs_report_html(FILE *out, const char *name, const struct rs_recording *r);
/* Everything the text report prints, as one document: the metrics under
 * their report names, per memcg ("(total)" first), null where unknown. */
/*
 * report --json: with out, written there as it is made (the memcgs one at
 * a time, so memory stays that of one memcg's metrics) and NULL returned;
 * without, the document.  flags: json_dumpf's.
 */
json_t *rs_report_json(const char *name, const struct rs_recording *r,
		       FILE *out, size_t flags);

/* Metric i's value v for people: the figure, or n/a (and why) unknown. */
const char *rs_metric_shown(const struct rs_recording *r, int i, double v,
			    char *buf, size_t size);

/* HTML for the pages of report and diff: text escaped, the page's head
 * (title, then name escaped; the shared style) up to <body> */
void rs_html_escape(FILE *out, const char *s);
void rs_html_head(FILE *out, const char *title, const char *name);

/*
 * Who stalled in A against B, each side one run or a group's runs (la, lb:
 * their labels in the text): tasks of one name, memcg and kind summed on
 * each side, divided by its runs (counts, times and tasks: means per run;
 * max_ns the longest of any run) and matched, the most stall time first
 * (the text: the top ten; JSON: all, null when a side has no stalls per
 * task).
 */
void rs_stallers_compare_text(FILE *out, const char *la, const char *lb,
			      const struct rs_recording *const *a, int nra,
			      const struct rs_recording *const *b, int nrb);
json_t *rs_stallers_compare_json(const struct rs_recording *const *a, int nra,
				 const struct rs_recording *const *b, int nrb);

#endif
