// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"
#include "fields.h"
#include "util.h"

/* The memcg's own counters (RS_HOOK_CGROUPFS fields), in this order. */
static const enum rs_field cg_fields[] = {RS_F_REFAULTS_ANON,
					  RS_F_REFAULTS_FILE, RS_F_OOM_KILLS};
#define NR_CG (sizeof(cg_fields) / sizeof(cg_fields[0]))
_Static_assert(NR_CG == RS_MEMCG_OWN_FIELDS, "struct rs_memcg's own counters");

struct path_entry {
	__u64 id;
	char *path;
	bool gone;
	double gone_since; /* model time it was first seen gone */
	struct rs_hists *hists;
	struct rs_tiers *tiers;	     /* NULL: never read */
	struct rs_lruvec_gens *gens; /* by node, nr_gens; NULL: never read */
	unsigned nr_gens;
	/* what its timelines showed: [0] the run, [1] the interval (gens.h);
	 * NULL: no sample yet */
	struct rs_gens_acc *gens_acc;
	/* the last sample (RS_GAUGE_MEM: memory.current); if has_gauges */
	double gauges[RS_NR_GAUGES];
	bool has_gauges;
	double current_sum; /* memory.current samples, for their mean */
	__u64 current_samples;
	double last_aging;  /* NaN: none seen */
	double last_active; /* model time of its last interval with a count */
	bool cg_sampled;
	__u64 cg_base[NR_CG], cg_last[NR_CG], cg_prev[NR_CG];
	/* per own counter: its file could not be read at the last try
	 * (cg_unreadable), or at the start (cg_no_base: unknown for good) */
	unsigned cg_unreadable, cg_no_base;
};

struct rs_model {
	__u64 hooks;
	double t, prev_t; /* the last snapshot's time, and the one before */
	struct rs_cell *cells; /* sorted by key */
	size_t nr_cells, cap_cells;
	struct rs_memcg *memcgs;
	size_t nr_memcgs, cap_memcgs;
	/* sums of the memcgs with more than one cell: total, interval */
	__u64 (*sums)[2][RS_NR_FIELDS];
	size_t cap_sums;
	struct path_entry *paths; /* sorted by id */
	size_t nr_paths, cap_paths;
	__u64 stats[RS_NR_STATS], stats_prev[RS_NR_STATS];
	__u64 stats_high[RS_NR_STATS]; /* the highest each stat was read */
	/*
	 * A refresh where nothing moved (the collector skips maps no program
	 * changed) must not cost a walk of every memcg: if the last snapshot
	 * left every interval at zero, a snapshot without an add keeps the
	 * last one's memcgs as they are.
	 */
	bool intervals_clear; /* every cell's and histogram's interval is 0 */
	bool hists_dirty;     /* some histogram's interval is not */
	bool untouched;	      /* begun with them clear, nothing added yet */
	struct rs_stalls *stalls; /* per task; NULL: no memory for them */
	__u64 snapshots;	  /* rs_model_begin calls */
	unsigned hz;		  /* the kernel's HZ; 0: not learnt yet */
};

static int key_cmp(const struct rs_agg_key *a, const struct rs_agg_key *b)
{
	if (a->cgroup_id != b->cgroup_id)
		return a->cgroup_id < b->cgroup_id ? -1 : 1;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	if (a->reclaimer != b->reclaimer)
		return a->reclaimer < b->reclaimer ? -1 : 1;
	return 0;
}

struct rs_model *rs_model_new(__u64 attached_hooks)
{
	struct rs_model *m = calloc(1, sizeof(*m));

	if (m) {
		m->hooks = attached_hooks;
		m->stalls = rs_stalls_new();
	}
	return m;
}

struct rs_stalls *rs_model_stalls(struct rs_model *m)
{
	return m->stalls;
}

const struct rs_stalls *rs_model_stalls_of(const struct rs_model *m)
{
	return m->stalls;
}

static void free_hists(struct rs_hists *hists)
{
	for (int h = 0; hists && h < RS_NR_HISTS; h++) {
		if (!hists->kind[h])
			continue;
		rs_hist_free(&hists->kind[h]->total);
		rs_hist_free(&hists->kind[h]->interval);
		free(hists->kind[h]);
	}
	free(hists);
}

void rs_model_free(struct rs_model *m)
{
	if (!m)
		return;
	rs_stalls_free(m->stalls);
	for (size_t i = 0; i < m->nr_paths; i++) {
		free(m->paths[i].path);
		free_hists(m->paths[i].hists);
		free(m->paths[i].tiers);
		free(m->paths[i].gens);
		free(m->paths[i].gens_acc);
	}
	free(m->paths);
	free(m->cells);
	free(m->memcgs);
	free(m->sums);
	free(m);
}

__u64 rs_model_hooks(const struct rs_model *m)
{
	return m->hooks;
}

void rs_model_set_hz(struct rs_model *m, unsigned hz)
{
	m->hz = hz;
}

unsigned rs_model_hz(const struct rs_model *m)
{
	return m->hz;
}

void rs_model_begin(struct rs_model *m)
{
	m->snapshots++;
	/*
	 * With every interval already 0 there is nothing to clear; and if
	 * nothing is added either, rs_model_end keeps the memcgs as they are.
	 */
	m->untouched = m->intervals_clear;
	if (m->untouched)
		return;
	m->nr_memcgs = 0; /* they point into the cells, which adds move */
	for (size_t i = 0; i < m->nr_cells; i++)
		m->cells[i].seen = false;
	for (size_t i = 0; m->hists_dirty && i < m->nr_paths; i++) {
		struct rs_hists *hs = m->paths[i].hists;

		for (int h = 0; hs && h < RS_NR_HISTS; h++)
			if (hs->kind[h])
				rs_hist_zero(&hs->kind[h]->interval);
	}
	m->hists_dirty = false;
}

static int cell_cmp(const void *key, const void *cell)
{
	return key_cmp(key, &((const struct rs_cell *)cell)->key);
}

static int path_cmp(const void *key, const void *entry)
{
	__u64 id = *(const __u64 *)key,
	      other = ((const struct path_entry *)entry)->id;

	return (id > other) - (id < other);
}

static int memcg_cmp(const void *key, const void *mc)
{
	__u64 id = *(const __u64 *)key,
	      other = ((const struct rs_memcg *)mc)->id;

	return (id > other) - (id < other);
}

int rs_model_add(struct rs_model *m, const struct rs_agg_key *key,
		 const __u64 cumulative[RS_NR_FIELDS])
{
	struct rs_cell *cell;
	bool found;
	size_t i;

	m->untouched = false;
	i = rs_sorted_find(m->cells, m->nr_cells, sizeof(*m->cells), key,
			   cell_cmp, &found);
	if (!found) {
		cell = rs_sorted_insert((void **)&m->cells, &m->nr_cells,
					&m->cap_cells, sizeof(*m->cells), i);
		if (!cell)
			return -1;
		cell->key = *key;
		memset(cell->key.pad, 0, sizeof(cell->key.pad));
	}
	cell = &m->cells[i];
	for (int f = 0; f < RS_NR_FIELDS; f++) {
		/* counters only grow; a smaller value means a reused key */
		__u64 prev = cell->total[f];

		cell->interval[f] = cumulative[f] >= prev ? cumulative[f] - prev
							  : cumulative[f];
		cell->total[f] = cumulative[f];
	}
	cell->seen = true;
	return 0;
}

static struct path_entry *find_path(const struct rs_model *m, __u64 id,
				    size_t *pos)
{
	bool found;
	size_t i = rs_sorted_find(m->paths, m->nr_paths, sizeof(*m->paths), &id,
				  path_cmp, &found);

	if (pos)
		*pos = i;
	return found ? &m->paths[i] : NULL;
}

/*
 * The entry of id, for ids asked in increasing order (the memcgs'): one walk
 * of the sorted table instead of a search each, which with 10,000 memcgs
 * was much of an idle refresh.  *cursor starts at 0.
 */
static struct path_entry *next_path(const struct rs_model *m, size_t *cursor,
				    __u64 id)
{
	while (*cursor < m->nr_paths && m->paths[*cursor].id < id)
		(*cursor)++;
	return *cursor < m->nr_paths && m->paths[*cursor].id == id
		       ? &m->paths[*cursor]
		       : NULL;
}

static void cg_restore(struct rs_model *m);
static struct path_entry *entry_of(struct rs_model *m, __u64 id);
static int cg_index(enum rs_field f);

__u64 rs_memcg_value(const struct rs_memcg *mc, enum rs_field f, bool interval)
{
	int own = cg_index(f);

	if (own >= 0)
		return interval ? mc->own_interval[own] : mc->own_total[own];
	return interval ? mc->sum_interval[f] : mc->sum_total[f];
}

void rs_memcg_values(const struct rs_memcg *mc, bool interval,
		     __u64 out[RS_NR_FIELDS])
{
	memcpy(out, interval ? mc->sum_interval : mc->sum_total,
	       RS_NR_FIELDS * sizeof(*out));
	for (size_t i = 0; i < NR_CG; i++)
		out[cg_fields[i]] =
			interval ? mc->own_interval[i] : mc->own_total[i];
}

/* A histogram the hooks know of that has no count yet. */
static const struct rs_histogram no_counts;
/* A memcg's interval whose timelines did not move. */
static const struct rs_gens_acc no_gens = {.alive_min = NAN};

void rs_model_values(const struct rs_model *m, const struct rs_memcg *mc,
		     bool interval, int node, double span, struct rs_values *v)
{
	__u64 raw[RS_NR_FIELDS] = {0}, by[RS_NR_RECLAIMERS] = {0};
	__u64 pass_ns_by[RS_NR_RECLAIMERS] = {0};
	size_t nr;
	const struct rs_cell *cells = rs_memcg_cells(m, mc, &nr);

	rs_values_init(v, span);
	v->node_share = node >= 0;
	if (!v->node_share)
		rs_memcg_values(mc, interval, raw);
	/* one walk of its cells: one node's share, and the reclaimers' split */
	for (size_t c = 0; c < nr; c++) {
		const __u64 *x = interval ? cells[c].interval : cells[c].total;

		if (v->node_share && cells[c].key.node != node)
			continue;
		for (int f = 0; v->node_share && f < RS_NR_FIELDS; f++)
			raw[f] += x[f];
		if (cells[c].key.reclaimer < RS_NR_RECLAIMERS) {
			by[cells[c].key.reclaimer] += x[RS_F_RECLAIMED];
			pass_ns_by[cells[c].key.reclaimer] += x[RS_F_PASS_TIME];
		}
	}
	for (int f = 0; f < RS_NR_FIELDS; f++)
		if (rs_memcg_field_known(m, mc, f))
			v->field[f] = raw[f] * rs_field_scale(f);
	for (int r = 0;
	     r < RS_NR_RECLAIMERS && !isnan(v->field[RS_F_RECLAIMED]); r++)
		v->reclaimed_by[r] = by[r];
	for (int r = 0;
	     r < RS_NR_RECLAIMERS && !isnan(v->field[RS_F_PASS_TIME]); r++)
		v->pass_ms_by[r] = pass_ns_by[r] / 1e6;
	for (int h = 0; h < RS_NR_HISTS; h++) {
		const struct rs_hist_counts *hc = rs_memcg_hist(mc, h);

		if (rs_hist_known(h, m->hooks))
			v->hist[h] = !hc	? &no_counts
				     : interval ? &hc->interval
						: &hc->total;
	}
	v->gauge[RS_GAUGE_MEM] =
		interval ? mc->mem_current : mc->mem_current_avg;
	v->gauge[RS_GAUGE_MEM_MAX] = mc->mem_max;
	v->gauge[RS_GAUGE_PSI] = mc->psi_some_avg10;
	v->tiers = mc->tiers;
	if (mc->gens_acc) {
		v->has_gens = true;
		v->gens = !interval			       ? mc->gens_acc[0]
			  : mc->gens_acc[1].at == m->snapshots ? mc->gens_acc[1]
							       : no_gens;
		/* each node's last sample holds on until now */
		for (unsigned n = 0; n < mc->nr_gens; n++)
			if (!mc->gens[n].ended)
				rs_gens_acc_hold(
					&v->gens, &mc->gens[n],
					interval ? m->prev_t : -INFINITY, m->t);
	}
	v->path = mc->path;
}

/*
 * rs_model_end, phase 1: cells not seen this round have an empty interval;
 * how many memcgs the cells make (cells are sorted by memcg), and how many
 * of them have more than one cell (a sum of their own).  Whether every
 * interval is zero: *clear.
 */
static void count_memcgs(struct rs_model *m, size_t *nr, size_t *nr_sums,
			 bool *clear)
{
	*nr = *nr_sums = 0;
	for (size_t i = 0; i < m->nr_cells; i++) {
		if (!m->cells[i].seen)
			memset(m->cells[i].interval, 0,
			       sizeof(m->cells[i].interval));
		for (int f = 0; f < RS_NR_FIELDS && *clear; f++)
			*clear = !m->cells[i].interval[f];
		if (i == 0 ||
		    m->cells[i].key.cgroup_id != m->cells[i - 1].key.cgroup_id)
			(*nr)++;
		else if (i == 1 || m->cells[i - 1].key.cgroup_id !=
					   m->cells[i - 2].key.cgroup_id)
			(*nr_sums)++; /* a memcg's second cell */
	}
}

/* A memcg laid out anew from its path entry: name, histograms, gauges. */
static void memcg_from_entry(struct rs_memcg *mc, const struct path_entry *p)
{
	mc->mem_current = mc->mem_max = NAN;
	mc->psi_some_avg10 = NAN;
	mc->mem_current_avg = NAN;
	if (!p)
		return;
	mc->path = p->path;
	mc->gone = p->gone;
	mc->hists = p->hists;
	mc->tiers = p->tiers;
	mc->gens = p->gens;
	mc->nr_gens = p->nr_gens;
	mc->gens_acc = p->gens_acc;
	if (p->has_gauges) {
		mc->mem_current = p->gauges[RS_GAUGE_MEM];
		mc->mem_max = p->gauges[RS_GAUGE_MEM_MAX];
		mc->psi_some_avg10 = p->gauges[RS_GAUGE_PSI];
	}
	if (p->current_samples)
		mc->mem_current_avg =
			p->current_sum / (double)p->current_samples;
}

/*
 * Phase 2: the memcgs, one per run of cells of one id, each pointing at
 * its one cell's counters or, with several cells, at a sum of them; nr and
 * nr_sums from phase 1.  False if memory for them could not be had.
 */
static bool lay_out_memcgs(struct rs_model *m, size_t nr, size_t nr_sums)
{
	size_t sum = 0, cursor = 0;

	if (!rs_grow((void **)&m->memcgs, &m->cap_memcgs, nr,
		     sizeof(*m->memcgs)) ||
	    !rs_grow((void **)&m->sums, &m->cap_sums, nr_sums,
		     sizeof(*m->sums)))
		return false;
	if (nr)
		memset(m->memcgs, 0, nr * sizeof(*m->memcgs));
	if (nr_sums)
		memset(m->sums, 0, nr_sums * sizeof(*m->sums));
	for (size_t i = 0; i < m->nr_cells; i++) {
		const struct rs_cell *cell = &m->cells[i];
		struct rs_memcg *mc;

		if (i == 0 ||
		    cell->key.cgroup_id != m->cells[i - 1].key.cgroup_id) {
			mc = &m->memcgs[m->nr_memcgs++];
			mc->id = cell->key.cgroup_id;
			mc->first_cell = i;
			memcg_from_entry(mc, next_path(m, &cursor, mc->id));
		}
		mc = &m->memcgs[m->nr_memcgs - 1];
		if (++mc->nr_cells == 1) {
			mc->sum_total = cell->total;
			mc->sum_interval = cell->interval;
			continue;
		}
		if (mc->nr_cells == 2) { /* from now on, a sum of its own */
			memcpy(m->sums[sum][0], mc->sum_total,
			       sizeof(m->sums[sum][0]));
			memcpy(m->sums[sum][1], mc->sum_interval,
			       sizeof(m->sums[sum][1]));
			mc->sum_total = m->sums[sum][0];
			mc->sum_interval = m->sums[sum][1];
			sum++;
		}
		for (int f = 0; f < RS_NR_FIELDS; f++) {
			m->sums[sum - 1][0][f] += cell->total[f];
			m->sums[sum - 1][1][f] += cell->interval[f];
		}
	}
	return true;
}

/*
 * Phase 3: when each memcg was last active and last aged, kept in its path
 * entry (made for a memcg active for the first time) across rounds.
 */
static void mark_activity(struct rs_model *m, double t)
{
	size_t cursor = 0;

	for (size_t n = 0; n < m->nr_memcgs; n++) {
		struct rs_memcg *mc = &m->memcgs[n];
		struct path_entry *p = next_path(m, &cursor, mc->id);
		bool active = false;

		for (int f = 0; f < RS_NR_FIELDS && !active; f++)
			active = rs_memcg_value(mc, f, true) != 0;
		if (active && !p) /* agings included; goes in at the cursor */
			p = entry_of(m, mc->id);
		mc->last_active = active ? t : p ? p->last_active : NAN;
		mc->last_aging = mc->sum_interval[RS_F_AGINGS] ? t
				 : p			       ? p->last_aging
							       : NAN;
		if (p) {
			p->last_active = mc->last_active;
			p->last_aging = mc->last_aging;
		}
	}
}

void rs_model_end(struct rs_model *m, double t)
{
	size_t nr, nr_sums;
	bool clear = !m->hists_dirty;

	m->prev_t = m->t;
	m->t = t;
	if (m->untouched) { /* nothing added: nothing moved */
		m->untouched = false;
		return;
	}
	m->nr_memcgs = 0;
	count_memcgs(m, &nr, &nr_sums, &clear);
	m->intervals_clear = false; /* until the memcgs are laid out */
	if (!lay_out_memcgs(m, nr, nr_sums))
		return;
	cg_restore(m);
	mark_activity(m, t);
	m->intervals_clear = clear;
}

/* Re-laid memcgs get their own counters' last values back. */
static void cg_restore(struct rs_model *m)
{
	size_t cursor = 0;

	for (size_t n = 0; n < m->nr_memcgs; n++) {
		struct rs_memcg *mc = &m->memcgs[n];
		struct path_entry *p = next_path(m, &cursor, mc->id);

		mc->own_unknown = p ? p->cg_unreadable | p->cg_no_base : 0;
		if (!p || !p->cg_sampled)
			continue;
		for (size_t i = 0; i < NR_CG; i++)
			mc->own_total[i] = p->cg_last[i] - p->cg_base[i];
	}
}

void rs_model_set_stats(struct rs_model *m, const __u64 stats[RS_NR_STATS])
{
	/*
	 * Every stat is a count since the start, shown as read (the summary's
	 * is exact).  One derived from two reads can seem to go back (lost
	 * events: a program's misses less its later copies' runs, read at
	 * other moments): the intervals are taken from the highest value seen,
	 * so none is negative; a loss a copy made up for later is corrected in
	 * the total, not taken back from an earlier interval.
	 */
	memcpy(m->stats_prev, m->stats_high, sizeof(m->stats_high));
	for (int s = 0; s < RS_NR_STATS; s++)
		if (stats[s] > m->stats_high[s])
			m->stats_high[s] = stats[s];
	memcpy(m->stats, stats, sizeof(m->stats));
}

__u64 rs_model_stat(const struct rs_model *m, enum rs_stat s)
{
	return m->stats[s];
}

__u64 rs_model_stat_interval(const struct rs_model *m, enum rs_stat s)
{
	return m->stats_high[s] - m->stats_prev[s];
}

double rs_model_time(const struct rs_model *m)
{
	return m->t;
}

double rs_model_interval(const struct rs_model *m)
{
	return m->t - m->prev_t;
}

const struct rs_cell *rs_memcg_cells(const struct rs_model *m,
				     const struct rs_memcg *mc, size_t *nr)
{
	*nr = mc->first_cell + mc->nr_cells <= m->nr_cells ? mc->nr_cells : 0;
	return *nr ? &m->cells[mc->first_cell] : NULL;
}

size_t rs_model_nr_memcgs(const struct rs_model *m)
{
	return m->nr_memcgs;
}

const struct rs_memcg *rs_model_memcg(const struct rs_model *m, size_t i)
{
	return i < m->nr_memcgs ? &m->memcgs[i] : NULL;
}

const struct rs_memcg *rs_model_find(const struct rs_model *m, __u64 id)
{
	bool found;
	size_t i = rs_sorted_find(m->memcgs, m->nr_memcgs, sizeof(*m->memcgs),
				  &id, memcg_cmp, &found);

	return found ? &m->memcgs[i] : NULL;
}

const struct rs_cell *rs_model_cells(const struct rs_model *m, size_t *nr)
{
	*nr = m->nr_cells;
	return m->cells;
}

/* The memcg of id in the last snapshot, writable. */
static struct rs_memcg *memcg_of(struct rs_model *m, __u64 id)
{
	return (struct rs_memcg *)rs_model_find(m, id);
}

/* The entry of id, created (without a path) if there is none. */
static struct path_entry *entry_of(struct rs_model *m, __u64 id)
{
	size_t pos = 0;
	struct path_entry *p = find_path(m, id, &pos);

	if (p)
		return p;
	p = rs_sorted_insert((void **)&m->paths, &m->nr_paths, &m->cap_paths,
			     sizeof(*m->paths), pos);
	if (!p)
		return NULL;
	p->id = id;
	p->last_aging = NAN;
	p->last_active = NAN;
	return p;
}

int rs_model_hist_add(struct rs_model *m, __u64 id, enum rs_hist h,
		      unsigned int octave, const __u64 cumulative[RS_HIST_SUBS])
{
	struct rs_hist_counts *hc;
	struct path_entry *p;
	__u64 *total, *interval = NULL;
	bool any = false;

	if ((unsigned)h >= RS_NR_HISTS || octave >= RS_HIST_OCTAVES)
		return 0; /* from a newer BPF side: not ours to show */
	m->untouched = false;
	for (unsigned int b = 0; b < RS_HIST_SUBS; b++)
		any |= cumulative[b] != 0;
	if (!any)
		return 0; /* nothing yet: no histogram, no block */
	p = entry_of(m, id);
	if (!p)
		return -1;
	hc = p->hists ? p->hists->kind[h] : NULL;
	if (!hc) {
		if (!p->hists && !(p->hists = calloc(1, sizeof(*p->hists))))
			return -1;
		hc = p->hists->kind[h] = calloc(1, sizeof(*hc));
		if (!hc)
			return -1;
	}
	total = rs_hist_block_get(&hc->total, octave);
	if (!total)
		return -1;
	/* both blocks before any count moves: without memory, the next
	 * snapshot finds the same deltas again */
	for (unsigned int b = 0; b < RS_HIST_SUBS && !interval; b++)
		if (cumulative[b] != total[b] &&
		    !(interval = rs_hist_block_get(&hc->interval, octave)))
			return -1;
	for (unsigned int b = 0; interval && b < RS_HIST_SUBS; b++) {
		/* counts only grow; a smaller one is a new owner of the key */
		__u64 delta = cumulative[b] >= total[b]
				      ? cumulative[b] - total[b]
				      : cumulative[b];

		total[b] = cumulative[b];
		interval[b] = delta;
		m->hists_dirty |= delta != 0;
	}
	return 0;
}

size_t rs_model_expired(const struct rs_model *m, double age, __u64 *ids,
			size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nr_paths && n < max; i++)
		if (m->paths[i].gone && m->t - m->paths[i].gone_since >= age)
			ids[n++] = m->paths[i].id;
	return n;
}

void rs_model_forget(struct rs_model *m, __u64 id)
{
	size_t pos = 0, keep = 0;
	struct path_entry *p = find_path(m, id, &pos);

	if (p) {
		free(p->path);
		free_hists(p->hists);
		free(p->tiers);
		free(p->gens);
		free(p->gens_acc);
		rs_sorted_remove(m->paths, &m->nr_paths, sizeof(*m->paths),
				 (size_t)(p - m->paths));
	}
	for (size_t i = 0; i < m->nr_cells; i++)
		if (m->cells[i].key.cgroup_id != id)
			m->cells[keep++] = m->cells[i];
	m->nr_cells = keep;
	if (m->stalls)
		rs_stalls_forget(m->stalls, id);
	/* the memcgs array points into both: lay it out again */
	rs_model_end(m, m->t);
}

static int cg_index(enum rs_field f)
{
	for (size_t i = 0; i < NR_CG; i++)
		if (cg_fields[i] == f)
			return (int)i;
	return -1;
}

/* The entry and counter index of (id, f); NULL if f is not the memcg's. */
static struct path_entry *cg_counter(struct rs_model *m, __u64 id,
				     enum rs_field f, int *i)
{
	*i = cg_index(f);
	return *i < 0 ? NULL : entry_of(m, id);
}

void rs_model_cg_baseline(struct rs_model *m, __u64 id, enum rs_field f,
			  __u64 value)
{
	int i;
	struct path_entry *p = cg_counter(m, id, f, &i);

	if (!p)
		return;
	p->cg_base[i] = p->cg_last[i] = p->cg_prev[i] = value;
	p->cg_sampled = true;
	p->cg_unreadable &= ~(1u << i);
}

void rs_model_cg_sample(struct rs_model *m, __u64 id, enum rs_field f,
			__u64 value)
{
	int i;
	struct path_entry *p = cg_counter(m, id, f, &i);

	if (!p)
		return;
	/* no baseline: created during the run, so it started from 0 */
	p->cg_sampled = true;
	p->cg_unreadable &= ~(1u << i);
	if (value >= p->cg_last[i])
		p->cg_last[i] = value;
}

void rs_model_cg_unreadable(struct rs_model *m, __u64 id, enum rs_field f,
			    bool baseline)
{
	int i;
	struct path_entry *p = cg_counter(m, id, f, &i);

	if (!p)
		return;
	p->cg_unreadable |= 1u << i;
	if (baseline)
		p->cg_no_base |= 1u << i;
}

bool rs_memcg_field_known(const struct rs_model *m, const struct rs_memcg *mc,
			  enum rs_field f)
{
	int i = cg_index(f);

	return rs_field_known(f, m->hooks) &&
	       (i < 0 || !(mc->own_unknown & (1u << i)));
}

void rs_model_cg_apply(struct rs_model *m)
{
	size_t cursor = 0;

	for (size_t n = 0; n < m->nr_memcgs; n++) {
		struct rs_memcg *mc = &m->memcgs[n];
		struct path_entry *p = next_path(m, &cursor, mc->id);

		if (p)
			mc->own_unknown = p->cg_unreadable | p->cg_no_base;
		if (!p || !p->cg_sampled)
			continue;
		for (size_t i = 0; i < NR_CG; i++) {
			mc->own_total[i] = p->cg_last[i] - p->cg_base[i];
			mc->own_interval[i] = p->cg_last[i] - p->cg_prev[i];
			p->cg_prev[i] = p->cg_last[i];
		}
	}
}

int rs_model_set_tiers(struct rs_model *m, __u64 id, const struct rs_tiers *t)
{
	struct rs_memcg *mc = memcg_of(m, id);
	struct path_entry *p;

	/*
	 * Only memcgs the model tracks (reclaim counted in them): the
	 * iterator walks every memcg, and an entry for each one that never
	 * reclaimed would grow, never expiring, as memcgs come and go.
	 */
	if (!mc)
		return 0;
	p = entry_of(m, id);
	if (!p)
		return -1;
	if (!p->tiers) {
		p->tiers = malloc(sizeof(*p->tiers));
		if (!p->tiers)
			return -1;
	}
	*p->tiers = *t;
	if (mc)
		mc->tiers = p->tiers;
	return 0;
}

/*
 * Whether a and b hold the same generations (seq and the kernel's stamp of
 * it: a torn read or a slot reused moves the stamp) with the same pages,
 * and ages alike known or not (HZ learnt is a change to write).
 */
static bool same_gens(const struct rs_lruvec_gens *a,
		      const struct rs_lruvec_gens *b)
{
	if (a->max_seq != b->max_seq || a->min_seq[0] != b->min_seq[0] ||
	    a->min_seq[1] != b->min_seq[1] || a->nr != b->nr)
		return false;
	for (unsigned i = 0; i < a->nr; i++)
		if (a->gen[i].seq != b->gen[i].seq ||
		    a->gen[i].stamp != b->gen[i].stamp ||
		    a->gen[i].anon != b->gen[i].anon ||
		    a->gen[i].file != b->gen[i].file ||
		    isnan(a->gen[i].age) != isnan(b->gen[i].age))
			return false;
	return true;
}

/* p's interval figures, begun anew in a new snapshot. */
static void interval_gens_acc(const struct rs_model *m, struct path_entry *p)
{
	if (p->gens_acc[1].at != m->snapshots) {
		p->gens_acc[1] = RS_GENS_ACC_EMPTY;
		p->gens_acc[1].at = m->snapshots;
	}
}

/*
 * A timeline that stops now (the memcg gone, MGLRU off): its last sample
 * held until now goes into the figures, as a recording's reader counts it
 * until the snapshot that ends it.
 */
static void gens_stop(const struct rs_model *m, struct path_entry *p,
		      const struct rs_lruvec_gens *last)
{
	if (!p->gens_acc || isnan(last->t) || last->ended)
		return;
	interval_gens_acc(m, p);
	rs_gens_acc_hold(&p->gens_acc[0], last, -INFINITY, m->t);
	rs_gens_acc_hold(&p->gens_acc[1], last, m->prev_t, m->t);
}

int rs_model_set_gens(struct rs_model *m, __u64 id,
		      const struct rs_lruvec_gens *g)
{
	struct rs_memcg *mc = memcg_of(m, id);
	struct rs_lruvec_gens *old, next = *g;
	struct path_entry *p;

	/* as the tiers: only memcgs the model tracks, so that no entry
	 * grows for memcgs that never reclaim; and a gone memcg's timeline
	 * has ended, though the kernel may list it while it dies */
	if (!mc || g->node < 0 || g->nr > RS_GENS_MAX)
		return 0;
	p = entry_of(m, id);
	if (!p)
		return -1;
	if (p->gone)
		return 0;
	if ((unsigned)g->node >= p->nr_gens) {
		unsigned nr = (unsigned)g->node + 1;
		struct rs_lruvec_gens *gens =
			realloc(p->gens, nr * sizeof(*gens));

		if (!gens)
			return -1;
		for (unsigned n = p->nr_gens; n < nr; n++)
			gens[n] = (struct rs_lruvec_gens){
				.node = (int)n, .nr = 0, .t = NAN};
		p->gens = gens;
		p->nr_gens = nr;
	}
	old = &p->gens[g->node];
	/*
	 * A sample like the last is not one: the last is kept, its ages as
	 * of its own read (its age now is the same), as a recording keeps it
	 */
	if (!isnan(old->t) && same_gens(old, &next))
		return 0;
	if (!p->gens_acc) {
		p->gens_acc = malloc(2 * sizeof(*p->gens_acc));
		if (!p->gens_acc)
			return -1;
		p->gens_acc[0] = p->gens_acc[1] = RS_GENS_ACC_EMPTY;
		mc->gens_acc = p->gens_acc;
	}
	interval_gens_acc(m, p);
	/* the run's, and the interval's share of the time the last held */
	rs_gens_acc_add(&p->gens_acc[0], isnan(old->t) ? NULL : old, &next,
			old->born_seen, -INFINITY);
	rs_gens_acc_add(&p->gens_acc[1], isnan(old->t) ? NULL : old, &next,
			old->born_seen, m->prev_t);
	next.born_seen = rs_gens_born(&next, old->born_seen);
	next.changed = m->snapshots;
	next.ended = false;
	next.ended_at = 0;
	*old = next;
	mc->gens = p->gens;
	mc->nr_gens = p->nr_gens;
	return 0;
}

void rs_model_clear_gens(struct rs_model *m)
{
	/* each lruvec's slot stays, with no sample (t NaN), for what it
	 * counted: births are not counted again when MGLRU comes back */
	for (size_t i = 0; i < m->nr_paths; i++) {
		struct path_entry *p = &m->paths[i];

		for (unsigned n = 0; n < p->nr_gens; n++) {
			struct rs_lruvec_gens *g = &p->gens[n];

			gens_stop(m, p, g);
			*g = (struct rs_lruvec_gens){.node = g->node,
						     .t = NAN,
						     .born_seen = g->born_seen};
		}
	}
}

__u64 rs_model_snapshots(const struct rs_model *m)
{
	return m->snapshots;
}

void rs_model_set_gauges(struct rs_model *m, __u64 id, double current,
			 double max, double psi_some_avg10)
{
	struct path_entry *p = entry_of(m, id);
	struct rs_memcg *mc = memcg_of(m, id);

	if (p) {
		p->gauges[RS_GAUGE_MEM] = current;
		p->gauges[RS_GAUGE_MEM_MAX] = max;
		p->gauges[RS_GAUGE_PSI] = psi_some_avg10;
		p->has_gauges = true;
		if (!isnan(current)) {
			p->current_sum += current;
			p->current_samples++;
		}
	}
	if (mc) {
		mc->mem_current = current;
		mc->mem_max = max;
		mc->psi_some_avg10 = psi_some_avg10;
		if (p && p->current_samples)
			mc->mem_current_avg =
				p->current_sum / (double)p->current_samples;
	}
}

int rs_model_set_path(struct rs_model *m, __u64 id, const char *path)
{
	struct path_entry *p = entry_of(m, id);
	struct rs_memcg *mc = memcg_of(m, id);
	char *copy = strdup(path);

	if (!copy || !p) {
		free(copy);
		return -1;
	}
	free(p->path);
	p->path = copy;
	p->gone = false;
	/* the snapshot's memcgs point into the path table */
	if (mc) {
		mc->path = copy;
		mc->gone = false;
	}
	return 0;
}

void rs_model_mark_gone(struct rs_model *m, __u64 id)
{
	struct path_entry *p = find_path(m, id, NULL);
	struct rs_memcg *mc = memcg_of(m, id);

	if (p && !p->gone) {
		p->gone = true;
		p->gone_since = m->t;
		/* the timeline's last entry: it ends in this snapshot */
		for (unsigned n = 0; n < p->nr_gens; n++)
			if (!isnan(p->gens[n].t)) {
				gens_stop(m, p, &p->gens[n]);
				p->gens[n].ended = true;
				p->gens[n].ended_at = m->snapshots;
			}
	}
	if (mc)
		mc->gone = true;
}

const char *rs_model_path(const struct rs_model *m, __u64 id)
{
	const struct path_entry *p = find_path(m, id, NULL);

	return p ? p->path : NULL;
}

size_t rs_model_unresolved(const struct rs_model *m, __u64 *ids, size_t max)
{
	size_t n = 0, cursor = 0;

	for (size_t i = 0; i < m->nr_memcgs && n < max; i++) {
		const struct rs_memcg *mc = &m->memcgs[i];
		const struct path_entry *p = next_path(m, &cursor, mc->id);

		if (mc->id != RS_CGROUP_NONE && (!p || !p->path))
			ids[n++] = mc->id;
	}
	return n;
}

const char *rs_memcg_display_path(const struct rs_memcg *mc, char *buf,
				  size_t size)
{
	if (mc->id == RS_CGROUP_NONE)
		return "(unattributed)";
	if (mc->path)
		return rs_name_shown(mc->path, buf, size, RS_ESCAPE_BACKSLASH);
	snprintf(buf, size, "(unknown:%llu)", (unsigned long long)mc->id);
	return buf;
}
