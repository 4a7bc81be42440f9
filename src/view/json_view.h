/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recording format (NDJSON, docs/recording-format.md), rendered from the
 * model and the run info.  Schema 1.
 */
#ifndef RS_JSON_VIEW_H
#define RS_JSON_VIEW_H

#include <jansson.h>
#include <stdio.h>
#include "model.h"
#include "recording.h"
#include "run_info.h"

json_t *rs_json_header(const struct rs_run_info *info);
/* The kernel's keys of the header (kernel, mglru, series, ...) into o. */
void rs_json_kernel(json_t *o, const struct rs_run_info *info);
json_t *rs_json_hooks(const struct rs_run_info *info);
/*
 * Per-interval counts of the memcgs active in the last interval.  info:
 * for whether MGLRU is on now (omitted if NULL).  gens_since: the timeline
 * entries (lru_gens) of the lruvecs that moved or ended after model
 * snapshot gens_since (rs_model_snapshots: the one the caller's last
 * written snapshot was taken at, so that refreshes between two written
 * snapshots lose none).
 */
json_t *rs_json_snapshot(const struct rs_model *m,
			 const struct rs_run_info *info, const char *filter,
			 __u64 gens_since);
/* Totals since start, with per-node and per-reclaimer breakdowns. */
json_t *rs_json_summary(const struct rs_model *m, double duration,
			const char *filter);
/* A number, or null for NaN and infinities. */
json_t *rs_json_number(double v);
/*
 * The catalogue's rows that need no event records (what top can show), of
 * a memcg over the last interval or since the start, each under its
 * report name: null where the kernel cannot tell or there was nothing to
 * measure.  rs_json_add_rows adds them as "metrics" to each memcg of a
 * snapshot or summary object the model made, with the seconds they cover
 * as "span" (the JSON API; recordings leave them out, report computes
 * them).
 */
json_t *rs_json_rows(const struct rs_model *m, const struct rs_memcg *mc,
		     bool interval);
void rs_json_add_rows(json_t *o, const struct rs_model *m, bool interval);
/* A field's JSON value: null when unknown, a real for a ratio's sum. */
json_t *rs_json_field(enum rs_field f, __u64 v, bool known);
json_t *rs_json_tiers(const struct rs_tiers *t);
/*
 * One lruvec's generations as last read (a timeline sample): node, t (the
 * read's model time), min_seq {anon, file}, max_seq, and gens, oldest
 * first, each with seq, age_ms at t (null while HZ is not known), anon and
 * file pages.
 */
json_t *rs_json_lruvec_gens(const struct rs_lruvec_gens *g);
/* A memcg's latency histograms, totals or the last interval's. */
json_t *rs_json_hists(const struct rs_model *m, const struct rs_memcg *mc,
		      bool interval);
/* Does the memcg's path fall under filter ("/a" matches "/a" and "/a/b")? */
bool rs_path_matches(const char *path, const char *filter);

/*
 * A name from outside (a file or folder given, a recording's string) as a
 * JSON string: escaped as names are everywhere (rs_name_shown), since
 * jansson refuses bytes that are not UTF-8 and the value would be lost.
 */
json_t *rs_json_name(const char *raw);

/* One compact line, flushed; -1 on a write error. */
int rs_json_write_line(FILE *out, json_t *obj);

/*
 * A document whose one large array (a report's or a diff's memcgs) is
 * written an element at a time: a tree of 10^5 memcgs' metrics would take
 * gigabytes where the elements take kilobytes each.  With out NULL the
 * same calls build the tree instead (for callers that want a json_t).
 *   rs_json_stream_begin: the head's keys, then the array's key;
 *   rs_json_stream_add: one element (its reference taken);
 *   rs_json_stream_end: the document, NULL when written.
 * A write that fails leaves the stream's error set (ferror), which the
 * command's check of what it printed reports.
 */
struct rs_json_stream {
	FILE *out;
	size_t flags;  /* json_dumpf's */
	json_t *head;  /* the keys before the array */
	json_t *array; /* out NULL: the elements */
	size_t nr;     /* elements added */
};
void rs_json_stream_begin(struct rs_json_stream *s, FILE *out, size_t flags,
			  json_t *head, const char *array_key);
void rs_json_stream_add(struct rs_json_stream *s, json_t *element);
json_t *rs_json_stream_end(struct rs_json_stream *s);

#endif
