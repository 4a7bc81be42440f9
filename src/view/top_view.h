/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `top` shows, apart from the terminal: the columns (rows of the
 * catalogue over each memcg's last interval: counts per second, ratios,
 * latency percentiles, cgroupfs gauges), the rows (memcgs, or memcg x
 * node), sorting and filtering, and plain-text frames for --batch.  Reads
 * the model only.
 */
#ifndef RS_TOP_VIEW_H
#define RS_TOP_VIEW_H

#include <stdio.h>
#include "model.h"
#include "run_info.h"

#define RS_TOP_MAX_COLS 64

struct rs_top_row {
	const struct rs_memcg *mc;
	int node;	    /* -1: all nodes */
	struct rs_values v; /* the last interval */
	int depth;	    /* in tree mode */
};

struct rs_top_opts {
	int cols[RS_TOP_MAX_COLS]; /* catalogue rows shown, in order */
	int nr_cols;
	int sort_col;	    /* index into cols */
	bool tree;	    /* by path, indented, instead of by sort_col */
	bool per_node;	    /* one row per (memcg, node) */
	const char *filter; /* substring of the path; NULL or "" for all */
	bool all;	    /* also memcgs idle in this interval */
};

/* The default columns into o. */
void rs_top_default(struct rs_top_opts *o);
/* The default columns' titles for people: "scanned/s, ... and maxMiB";
 * -1 if they do not fit in size. */
int rs_top_default_titles(char *buf, size_t size);
/*
 * Columns from a list of catalogue keys or column titles ("eff%,pass_p99"):
 * 0, or -1 with err naming what is wrong.
 */
int rs_top_set_cols(struct rs_top_opts *o, const char *list, char *err,
		    size_t errsz);
/* The catalogue row a key or title names and top can show live; -1. */
int rs_top_row_by_name(const char *name);

/* The rows to show; caller frees. */
struct rs_top_row *rs_top_rows(const struct rs_model *m,
			       const struct rs_top_opts *o, double interval,
			       size_t *nr);
/* Column c (of o->cols) of a row: per second where the row says so. */
struct rs_value rs_top_value(const struct rs_top_opts *o,
			     const struct rs_top_row *row, int c);
/* The value as column c prints it, right-aligned in its width. */
void rs_top_format(const struct rs_top_opts *o, struct rs_value v, int c,
		   char *buf, size_t size);
/* Column c's title (buf of RS_ROW_TITLE_SIZE), width and help. */
const char *rs_top_col_title(const struct rs_top_opts *o, int c, char *buf,
			     size_t size);
int rs_top_col_width(const struct rs_top_opts *o, int c);
const char *rs_top_col_help(const struct rs_top_opts *o, int c);

/* Header lines: kernel, MGLRU, hooks, drops, per node kswapd and reclaim. */
void rs_top_header(FILE *out, const struct rs_model *m,
		   const struct rs_run_info *info, double interval);
/* A --batch frame: header, column titles, one line per row. */
/*
 * Who stalled in the last interval (interval seconds long), the most time
 * first, under o's filter: line() gets the heading, then a line per (task,
 * memcg, kind), at most max of them, or one saying none did.
 */
void rs_top_tasks(const struct rs_model *m, const struct rs_top_opts *o,
		  double interval, size_t max,
		  void (*line)(void *ctx, const char *text), void *ctx);
/* --batch --tasks: the tasks table of a frame (the top 20), to out. */
void rs_top_tasks_frame(FILE *out, const struct rs_model *m,
			const struct rs_top_opts *o, double interval);
void rs_top_frame(FILE *out, const struct rs_model *m,
		  const struct rs_run_info *info, const struct rs_top_opts *o,
		  double interval);

#endif
