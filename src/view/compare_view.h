/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `diff`: two recordings side by side, or groups of recordings (repeated runs
 * of one kernel and LRU): per memcg and metric each group's mean with its 95%
 * confidence interval, each later group's change against the first, and a
 * verdict only where a test that fits the values finds the difference
 * significant (the exact permutation test for counts and yes/no outcomes,
 * Welch's t-test for the rest; stats.h), else what change the runs could
 * have seen.  Text,
 * markdown (the seed's tables), JSON and an HTML page with every run
 * drawn.  Reads recordings only.
 */
#ifndef RS_COMPARE_VIEW_H
#define RS_COMPARE_VIEW_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include "recording.h"

#define RS_MAX_GROUPS 3
/* a difference is called better or worse below this two-sided p */
#define RS_SIGNIFICANCE 0.05

struct rs_group {
	char *name;		     /* the label: a folder or file as given */
	char **files;		     /* its recordings */
	struct rs_recording *runs;   /* runs[i] read from files[i] */
	struct rs_rec_memcg *totals; /* rs_recording_total of each run */
	int nr;
	/* rs_group_index: per run, its listed memcgs sorted by path */
	const struct rs_rec_memcg ***by_path;
	size_t *nr_by_path;
	/*
	 * per run, a memcg without activity: a summary leaves idle memcgs
	 * out, so a path a run does not list had no reclaim there (its
	 * counters 0 where the run could count them), unless the run
	 * recorded only another subtree (--cgroup)
	 */
	struct rs_rec_memcg *idle;
};

/* After the runs and totals are read: the path index and idle memcgs. */
int rs_group_index(struct rs_group *g);
void rs_group_free(struct rs_group *g);

enum rs_compare_format { RS_CMP_TEXT, RS_CMP_MARKDOWN };

/* What a comparison shows. */
struct rs_compare_opts {
	bool total_only;    /* the whole recordings, not each memcg */
	const int *metrics; /* indexes into rs_rows, in the order shown; */
	int nr_metrics;	    /* NULL: all, in the table's order */
	bool metrics_named; /* --metric: a row asked for shows its 0s */
};

void rs_groups_text(FILE *out, const struct rs_group *g, int ng,
		    enum rs_compare_format fmt,
		    const struct rs_compare_opts *o);
/* The JSON forms: written to out as made (NULL returned: memory stays
 * that of one memcg), or without out, the document; flags: json_dumpf's */
json_t *rs_groups_json(const struct rs_group *g, int ng,
		       const struct rs_compare_opts *o, FILE *out,
		       size_t flags);
int rs_groups_html(FILE *out, const struct rs_group *g, int ng,
		   const struct rs_compare_opts *o);

/* Two recordings side by side, memcgs matched by path (report's metrics,
 * the change and which way it went). */
void rs_diff_text(FILE *out, const char *name_a, const struct rs_recording *a,
		  const char *name_b, const struct rs_recording *b);
json_t *rs_diff_json(const char *name_a, const struct rs_recording *a,
		     const char *name_b, const struct rs_recording *b,
		     FILE *out, size_t flags);

#endif
