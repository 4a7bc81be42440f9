/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `top` shows, apart from the terminal: the columns (rates of fields of
 * the field table, ratios, latency percentiles, cgroupfs gauges), the rows
 * (memcgs, or memcg x node), sorting and filtering, and plain-text frames
 * for --batch.  Reads the model only.
 */
#ifndef RS_TOP_VIEW_H
#define RS_TOP_VIEW_H

#include <stdio.h>
#include "model.h"
#include "run_info.h"

enum rs_top_value_state {
	RS_TOP_OK,
	RS_TOP_NONE, /* nothing to show this interval (e.g. 0/0) */
	RS_TOP_NA,   /* the kernel cannot tell: hooks missing, no file */
};

struct rs_top_value {
	enum rs_top_value_state state;
	double v;
};

struct rs_top_col {
	const char *title; /* NULL: the field's key and "/s" */
	int width;
	const char *help;
};

extern const struct rs_top_col rs_top_cols[];
extern const int rs_top_nr_cols;
/* A column's title ("scanned/s" for the rate of field scanned). */
const char *rs_top_col_title(int col, char *buf, size_t size);

struct rs_top_row {
	const struct rs_memcg *mc;
	int node; /* -1: all nodes */
	__u64 interval[RS_NR_FIELDS];
	int depth; /* in tree mode */
};

struct rs_top_opts {
	int sort_col;	    /* column index */
	bool tree;	    /* by path, indented, instead of by sort_col */
	bool per_node;	    /* one row per (memcg, node) */
	const char *filter; /* substring of the path; NULL or "" for all */
	bool all;	    /* also memcgs idle in this interval */
};

/* The rows to show; caller frees. */
struct rs_top_row *rs_top_rows(const struct rs_model *m,
			       const struct rs_top_opts *o, double interval,
			       size_t *nr);
struct rs_top_value rs_top_value(const struct rs_model *m,
				 const struct rs_top_row *row, int col,
				 double interval);
/* The value as the column prints it, right-aligned in width. */
void rs_top_format(struct rs_top_value v, int col, char *buf, size_t size);

/* Header lines: kernel, MGLRU, hooks, drops, per node kswapd and reclaim. */
void rs_top_header(FILE *out, const struct rs_model *m,
		   const struct rs_run_info *info, double interval);
/* A --batch frame: header, column titles, one line per row. */
void rs_top_frame(FILE *out, const struct rs_model *m,
		  const struct rs_run_info *info, const struct rs_top_opts *o,
		  double interval);

#endif
