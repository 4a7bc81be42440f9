/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `report` and `diff` output, rendered from the metrics table
 * (analysis.h): text, a self-contained HTML page with inline SVG, and
 * diff's JSON.  Reads recordings only.
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

void rs_diff_text(FILE *out, const char *name_a, const struct rs_recording *a,
		  const char *name_b, const struct rs_recording *b);
json_t *rs_diff_json(const char *name_a, const struct rs_recording *a,
		     const char *name_b, const struct rs_recording *b);

/* HTML for the pages of report and diff: text escaped, the page's head
 * (title, then name escaped; the shared style) up to <body> */
void rs_html_escape(FILE *out, const char *s);
void rs_html_head(FILE *out, const char *title, const char *name);

#endif
