/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `report` output, rendered from the metrics table (analysis.h): text,
 * JSON and a self-contained HTML page with inline SVG (diff is
 * compare_view.h).  Reads recordings only.
 */
#ifndef RS_REPORT_VIEW_H
#define RS_REPORT_VIEW_H

#include <jansson.h>
#include <stdio.h>
#include "recording.h"

void rs_report_text(FILE *out, const char *name, const struct rs_recording *r);
int rs_report_html(FILE *out, const char *name, const struct rs_recording *r);
/* Everything the text report prints, as one document: the metrics under
 * their report names, per memcg ("(total)" first), null where unknown. */
json_t *rs_report_json(const char *name, const struct rs_recording *r);

/* A figure in JSON: a number, or null where unknown (NaN) or infinite. */
json_t *rs_json_number(double v);

/* Metric i's value v for people: the figure, or n/a (and why) unknown. */
const char *rs_metric_shown(const struct rs_recording *r, int i, double v,
			    char *buf, size_t size);

/* HTML for the pages of report and diff: text escaped, the page's head
 * (title, then name escaped; the shared style) up to <body> */
void rs_html_escape(FILE *out, const char *s);
void rs_html_head(FILE *out, const char *title, const char *name);

#endif
