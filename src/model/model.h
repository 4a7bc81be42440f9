/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model: per-memcg reclaim counters built from cumulative per-(memcg,
 * node, reclaimer) counts, with per-interval deltas and totals since start.
 * Pure C: it never calls BPF; the collector feeds it and views read it.
 */
#ifndef RS_MODEL_H
#define RS_MODEL_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include "rs_common.h"
#include "catalogue.h"
#include "hist.h"
#include "gens.h"
#include "stalls.h"
#include "util.h" /* RS_ESCAPED_SIZE */

/* One (memcg, node, reclaimer) row, as the kernel aggregates it. */
struct rs_cell {
	struct rs_agg_key key;
	__u64 total[RS_NR_FIELDS];    /* since the run started */
	__u64 interval[RS_NR_FIELDS]; /* during the last interval */
	bool seen;		      /* present in the last snapshot */
};

/* One latency histogram of a memcg: since the start, and the last interval. */
struct rs_hist_counts {
	struct rs_histogram total, interval;
};

/*
 * A memcg's histograms, each allocated when it first gets a count: most
 * memcgs see one or two kinds, and all five (3 KiB) for each of 10,000
 * memcgs was most of a daemon's memory.
 */
struct rs_hists {
	struct rs_hist_counts *kind[RS_NR_HISTS]; /* NULL: no count yet */
};

/* The memcg's own counters: refaults (anon, file) and OOM kills. */
#define RS_MEMCG_OWN_FIELDS 3

struct rs_memcg {
	__u64 id;
	const struct rs_hists *hists; /* NULL: nothing recorded yet */
	/* gauges from cgroupfs, NaN where unknown (see rs_model_set_gauges) */
	double mem_current, mem_max; /* bytes; max is +inf for no limit */
	double psi_some_avg10;	     /* memory.pressure "some avg10", % */
	double mem_current_avg;	     /* bytes, mean of every sample; NaN */
	double last_aging;  /* model time of the last interval with an aging;
			     * NaN: none seen */
	double last_active; /* model time of the last interval with any count;
			     * NaN: none seen */
	char *path; /* NULL until resolved; kept after the memcg is gone */
	bool gone;  /* no longer in cgroupfs */
	const struct rs_tiers *tiers; /* NULL: never read */
	/* its generations per node as last read (gens.h), nr_gens of them
	 * by node; none where never read or while MGLRU is off */
	const struct rs_lruvec_gens *gens;
	unsigned nr_gens;
	/* what they showed: [0] the run, [1] the interval (use
	 * rs_model_values); NULL: never read */
	const struct rs_gens_acc *gens_acc;
	/*
	 * The counters: read them with rs_memcg_value(s).  The sums over the
	 * cells are the cell's own arrays for a memcg with one cell (one node,
	 * one reclaimer: most of them), so that 10,000 memcgs do not keep
	 * 8 MiB of copies; the memcg's own counters (RS_HOOK_CGROUPFS fields,
	 * which no cell has) are kept here.
	 */
	const __u64 *sum_total, *sum_interval;
	__u64 own_total[RS_MEMCG_OWN_FIELDS], own_interval[RS_MEMCG_OWN_FIELDS];
	unsigned own_unknown; /* own counters whose file could not be read */
	/* its cells in the model's array: read them with rs_memcg_cells */
	size_t first_cell, nr_cells;
};

/* Field f of a memcg: since the start, or during the last interval. */
__u64 rs_memcg_value(const struct rs_memcg *mc, enum rs_field f, bool interval);
/* Every field of a memcg, as rs_memcg_value() gives them. */
void rs_memcg_values(const struct rs_memcg *mc, bool interval,
		     __u64 out[RS_NR_FIELDS]);

struct rs_model;

/*
 * A memcg as the catalogue's values (catalogue.h): its last interval or the
 * run so far, all nodes (node -1) or one node's share; span: the seconds
 * they cover.  v points into the model until the next snapshot.
 */
void rs_model_values(const struct rs_model *m, const struct rs_memcg *mc,
		     bool interval, int node, double span, struct rs_values *v);

/* A memcg's histogram of kind h; NULL while it has no count. */
static inline const struct rs_hist_counts *
rs_memcg_hist(const struct rs_memcg *mc, enum rs_hist h)
{
	return mc->hists ? mc->hists->kind[h] : NULL;
}

struct rs_model *rs_model_new(__u64 attached_hooks);
/*
 * The stalls per task (stalls.h), fed by the collector each snapshot
 * (rs_stalls_begin, _add, _end), read by the views; NULL when there was
 * no memory for them.
 */
struct rs_stalls *rs_model_stalls(struct rs_model *m);
const struct rs_stalls *rs_model_stalls_of(const struct rs_model *m);
void rs_model_free(struct rs_model *m);
__u64 rs_model_hooks(const struct rs_model *m);
/*
 * The kernel's HZ, as the collector learnt it from jiffies (gens.h:
 * rs_hz_learn), for the ages of generations event records carry; 0 until
 * then.
 */
void rs_model_set_hz(struct rs_model *m, unsigned hz);
unsigned rs_model_hz(const struct rs_model *m);

/*
 * A snapshot: begin, add every cumulative cell the kernel holds, end.  Cells
 * missing from a snapshot keep their totals (the kernel never forgets one
 * during a run) and get a zero interval.
 */
void rs_model_begin(struct rs_model *m);
int rs_model_add(struct rs_model *m, const struct rs_agg_key *key,
		 const __u64 cumulative[RS_NR_FIELDS]);
void rs_model_end(struct rs_model *m, double t);
/* During a snapshot: one octave of a histogram, its cumulative counts
 * (the kernel's entry for the memcg, kind and octave). */
int rs_model_hist_add(struct rs_model *m, __u64 id, enum rs_hist h,
		      unsigned int octave,
		      const __u64 cumulative[RS_HIST_SUBS]);

/*
 * Memcgs gone from cgroupfs for at least `age` seconds (model time): their
 * ids, to be forgotten by the collector and then by rs_model_forget(), so a
 * long-running daemon's memory stays bounded.
 */
size_t rs_model_expired(const struct rs_model *m, double age, __u64 *ids,
			size_t max);
void rs_model_forget(struct rs_model *m, __u64 id);

/* Global counters (enum rs_stat), cumulative. */
void rs_model_set_stats(struct rs_model *m, const __u64 stats[RS_NR_STATS]);
__u64 rs_model_stat(const struct rs_model *m, enum rs_stat s);
__u64 rs_model_stat_interval(const struct rs_model *m, enum rs_stat s);
double rs_model_time(const struct rs_model *m);
/* The last interval's length in seconds (the first: since the start). */
double rs_model_interval(const struct rs_model *m);

/* Memcgs, ordered by id; valid from rs_model_end() until the next
 * rs_model_begin() (a snapshot moves the cells they read). */
size_t rs_model_nr_memcgs(const struct rs_model *m);
const struct rs_memcg *rs_model_memcg(const struct rs_model *m, size_t i);
const struct rs_memcg *rs_model_find(const struct rs_model *m, __u64 id);
const struct rs_cell *rs_model_cells(const struct rs_model *m, size_t *nr);
/* The cells of one memcg (node, then reclaimer order); *nr of them. */
const struct rs_cell *rs_memcg_cells(const struct rs_model *m,
				     const struct rs_memcg *mc, size_t *nr);

/* Paths, from the cgroup resolver: set, or mark gone (path is kept);
 * both take effect at once. */
int rs_model_set_path(struct rs_model *m, __u64 id, const char *path);
void rs_model_mark_gone(struct rs_model *m, __u64 id);
/*
 * Counters the memcg keeps itself (memory.stat, memory.events), fields of
 * RS_HOOK_CGROUPFS: cumulative values as read.  A baseline is the value at
 * the start of the run; a memcg sampled without one was created during the
 * run and counts from 0.  rs_model_cg_apply() turns the samples into the
 * memcgs' totals and intervals.
 */
void rs_model_cg_baseline(struct rs_model *m, __u64 id, enum rs_field f,
			  __u64 value);
void rs_model_cg_sample(struct rs_model *m, __u64 id, enum rs_field f,
			__u64 value);
void rs_model_cg_apply(struct rs_model *m);
/*
 * The file of own counter f could not be read (EACCES, EPERM): the counter
 * is unknown (null, absent) until a read succeeds, and for the whole run
 * when it was the baseline read (what came before the run is not known).
 */
void rs_model_cg_unreadable(struct rs_model *m, __u64 id, enum rs_field f,
			    bool baseline);
/* Field f of mc can be known: its hooks are attached and, for an own
 * counter, its file could be read. */
bool rs_memcg_field_known(const struct rs_model *m, const struct rs_memcg *mc,
			  enum rs_field f);

/* A tracked memcg's tier counters as just read (kept once it is gone);
 * others are not kept. */
int rs_model_set_tiers(struct rs_model *m, __u64 id, const struct rs_tiers *t);

/*
 * A tracked memcg's generations on a node as just read (g->node, at model
 * time g->t; g->changed is set here).  A sample that differs from the
 * last (seqs, stamps or pages moved, or ages became known) replaces it and
 * goes into what the timelines showed (gens_acc); one that does not is
 * dropped, the last kept as it was read.  Not kept for untracked or gone
 * memcgs.  0, or -1 without memory.
 */
int rs_model_set_gens(struct rs_model *m, __u64 id,
		      const struct rs_lruvec_gens *g);
/* MGLRU is off: no memcg has generations from now (until set again). */
void rs_model_clear_gens(struct rs_model *m);
/* Snapshots begun so far (rs_model_begin): what gens' changed counts in. */
__u64 rs_model_snapshots(const struct rs_model *m);

/* Gauges read from cgroupfs this interval (NaN: unknown). */
void rs_model_set_gauges(struct rs_model *m, __u64 id, double current,
			 double max, double psi_some_avg10);

/* The known path of an id, memcg in the snapshot or not; NULL if none. */
const char *rs_model_path(const struct rs_model *m, __u64 id);
/* Ids that were never resolved: the resolver's to-do list. */
size_t rs_model_unresolved(const struct rs_model *m, __u64 *ids, size_t max);

/*
 * The path to show: the resolved one, escaped where its bytes are not
 * valid UTF-8 or hold control characters (rs_escape_name, in buf), or
 * "(unattributed)" for id 0, or "(unknown:<id>)" when it never could be
 * resolved.  buf of RS_PATH_BUF bytes holds any path's escaped form.
 */
#define RS_PATH_BUF RS_ESCAPED_SIZE(4096) /* PATH_MAX */
const char *rs_memcg_display_path(const struct rs_memcg *mc, char *buf,
				  size_t size);

#endif
