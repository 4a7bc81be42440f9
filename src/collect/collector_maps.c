// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the probes' maps into the model: the counters' cells (with the
 * spill map), the histograms, the task stalls and the global counters per
 * snapshot; the cgroup names; forgetting removed memcgs.  Choosing,
 * loading and attaching the programs is collector.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "collector.h"
#include "collector_int.h"
#include "rs_common.h"
#include "cgnames.h"
#include "map_read.h"
#include "tier_iter.h"
#include "util.h"

/* A cell of the spill map (bpf/common.bpf.h: rs_agg_spill), its CPUs summed. */
struct spilled_cell {
	struct rs_agg_key key; /* first: bsearch compares keys */
	__u64 sum[RS_NR_FIELDS];
	bool added; /* to its rs_agg cell */
};

struct snapshot_ctx {
	struct rs_model *model;
	int ncpus;
	struct spilled_cell *spilled; /* sorted by key */
	size_t nr_spilled, cap_spilled;
};

static void sum_cpus(const struct snapshot_ctx *sc, const void *value,
		     __u64 sum[RS_NR_FIELDS])
{
	const struct rs_agg_value *percpu = value;

	memset(sum, 0, RS_NR_FIELDS * sizeof(*sum));
	for (int cpu = 0; cpu < sc->ncpus; cpu++)
		for (int f = 0; f < RS_NR_FIELDS; f++)
			sum[f] += percpu[cpu].v[f];
}

static int cmp_agg_key(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct rs_agg_key));
}

static int take_spilled(void *ctx, const void *key, const void *value)
{
	struct snapshot_ctx *sc = ctx;
	struct spilled_cell *cell;

	if (!rs_grow((void **)&sc->spilled, &sc->cap_spilled,
		     sc->nr_spilled + 1, sizeof(*sc->spilled)))
		return -ENOMEM;
	cell = &sc->spilled[sc->nr_spilled++];
	memcpy(&cell->key, key, sizeof(cell->key));
	sum_cpus(sc, value, cell->sum);
	cell->added = false;
	return 0;
}

static int add_cell(void *ctx, const void *key, const void *value)
{
	const struct snapshot_ctx *sc = ctx;
	struct spilled_cell *spilled = NULL;
	__u64 sum[RS_NR_FIELDS];

	sum_cpus(sc, value, sum);
	if (sc->nr_spilled)
		spilled = bsearch(key, sc->spilled, sc->nr_spilled,
				  sizeof(*sc->spilled), cmp_agg_key);
	if (spilled) {
		for (int f = 0; f < RS_NR_FIELDS; f++)
			sum[f] += spilled->sum[f];
		spilled->added = true;
	}
	return rs_model_add(sc->model, key, sum) ? -ENOMEM : 0;
}

/*
 * Every counter cell: rs_agg's, each with what its key spilled (read first,
 * so that a cell spilled while rs_agg is read is counted in the next
 * snapshot, never twice), and the spilled cells of keys rs_agg lacks.
 */
static int read_cells(struct rs_collector *c, struct snapshot_ctx *sc)
{
	size_t value_size = c->ncpus * sizeof(struct rs_agg_value);
	int err;

	sc->nr_spilled = 0;
	err = rs_map_each(bpf_map__fd(c->skel->maps.rs_agg_spill),
			  sizeof(struct rs_agg_key), value_size, take_spilled,
			  sc);
	if (err)
		return err;
	if (sc->nr_spilled) /* none, mostly: then no array at all */
		qsort(sc->spilled, sc->nr_spilled, sizeof(*sc->spilled),
		      cmp_agg_key);
	err = rs_map_each(bpf_map__fd(c->skel->maps.rs_agg),
			  sizeof(struct rs_agg_key), value_size, add_cell, sc);
	for (size_t i = 0; !err && i < sc->nr_spilled; i++)
		if (!sc->spilled[i].added &&
		    rs_model_add(sc->model, &sc->spilled[i].key,
				 sc->spilled[i].sum))
			err = -ENOMEM;
	return err;
}

static int add_hist(void *ctx, const void *key, const void *value)
{
	const struct snapshot_ctx *sc = ctx;
	const struct rs_hist_key *hkey = key;
	const struct rs_hist_value *hv = value;

	return rs_model_hist_add(sc->model, hkey->cgroup_id, hkey->hist,
				 hkey->octave, hv->count)
		       ? -ENOMEM
		       : 0;
}

/*
 * Whether the counter maps may have changed since the last snapshot read
 * them (bpf/common.bpf.h: rs_changed), clearing the flag.  A program that
 * finds the flag set does not store it, and its own adds may still sit in
 * its CPU's store buffer when it looks (a load may pass earlier stores,
 * even on x86), so the snapshot that clears the flag can read the maps a
 * moment before those adds land.  Hence the snapshot after one that found
 * the flag set reads them too: by then they have landed.  Every
 * RS_READ_ALL_EVERY-th snapshot reads them anyway.
 */
static bool maps_changed(struct rs_collector *c, bool all)
{
	bool flag = true; /* no .bss: no flag, always read */

	if (c->skel->bss)
		flag = __atomic_exchange_n(&c->skel->bss->rs_changed, 0,
					   __ATOMIC_SEQ_CST);
	return rs_read_gate_due(&c->gate, flag, all);
}

/* Is the task with this id still there?  /proc lists thread-group
 * leaders, but every task's own folder opens. */
static bool task_alive(__u32 tid)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/%u", tid);
	return access(path, F_OK) == 0 || errno != ENOENT;
}

struct stalls_ctx {
	struct rs_stalls *stalls;
	const struct rs_model *model;
	int fd;
};

/* Is the memcg gone from cgroupfs (its id is never used again)? */
static bool memcg_gone(const struct rs_model *m, __u64 id)
{
	const struct rs_memcg *mc = rs_model_find(m, id);

	return mc && mc->gone;
}

static int add_stall(void *ctx, const void *key, const void *value)
{
	struct stalls_ctx *sc = ctx;
	const struct rs_task_key *k = key;
	struct rs_task_stall last;

	/*
	 * An entry that did not move may be of a task that is gone, or of a
	 * memcg that is (a long-lived reclaimer, kswapd, throttled in many
	 * memcgs over a run): it is taken out of the map with its counts as
	 * they are at that moment, not as the batch read them a while ago
	 * (a last stall between the two would be lost), so the kernel's map
	 * stays bounded by what is alive.  One that stalls again makes a new
	 * entry, counted from 0.
	 */
	if (rs_stalls_add(sc->stalls, k, value, false) != 1 ||
	    (task_alive(k->tid) && !memcg_gone(sc->model, k->cgroup_id)))
		return 0;
	if (!bpf_map_lookup_and_delete_elem(sc->fd, k, &last) ||
	    (!bpf_map_lookup_elem(sc->fd, k, &last) &&
	     !bpf_map_delete_elem(sc->fd, k)))
		rs_stalls_add(sc->stalls, k, &last, true);
	return 0; /* a lost entry is counted there: go on */
}

/* Every task's stall counts (vmscan.h), into the model's. */
static int read_stalls(struct rs_collector *c, struct rs_model *m)
{
	struct stalls_ctx sc = {rs_model_stalls(m), m,
				bpf_map__fd(c->skel->maps.rs_task_stalls)};
	int err;

	if (!sc.stalls)
		return 0;
	rs_stalls_begin(sc.stalls);
	err = rs_map_each(sc.fd, sizeof(struct rs_task_key),
			  sizeof(struct rs_task_stall), add_stall, &sc);
	rs_stalls_end(sc.stalls);
	return err;
}

/*
 * Take out the spare task states (rs_task_spare, bpf/common.bpf.h) of tasks
 * that are gone, so that the map holds the tasks alive at once.  The idle
 * tasks' (thread 0, one per CPU) stay.
 */
static void prune_spare_states(struct rs_collector *c)
{
	int fd = bpf_map__fd(c->skel->maps.rs_task_spare);
	size_t nr;
	struct rs_spare_key *keys =
		rs_map_keys(fd, sizeof(*keys), NULL, 0, &nr);

	for (size_t i = 0; i < nr; i++)
		if (keys[i].tid && !task_alive(keys[i].tid))
			bpf_map_delete_elem(fd, &keys[i]);
	free(keys);
}

int rs_collector_snapshot(struct rs_collector *c, struct rs_model *m, double t,
			  bool all)
{
	struct snapshot_ctx sc = {.model = m, .ncpus = c->ncpus};
	__u64 stats[RS_NR_STATS], *misses;
	int fd, err = 0;
	bool due;

	prune_spare_states(c);
	/* a failed read keeps what was read; the rest comes next time */
	if (read_stalls(c, m) && rs_collector_verbose)
		fprintf(stderr,
			"reclaimscope: reading the task stalls failed\n");
	/* a snapshot without adds keeps every total and zeroes the intervals */
	rs_model_begin(m);
	due = maps_changed(c, all);
	if (due) {
		err = read_cells(c, &sc);
		free(sc.spilled);
		if (!err)
			err = rs_map_each(bpf_map__fd(c->skel->maps.rs_hist),
					  sizeof(struct rs_hist_key),
					  sizeof(struct rs_hist_value),
					  add_hist, &sc);
	}
	if (err) {
		/* what was read is cumulative, so keep it: the memcgs must be
		 * laid out again after the cells moved; the rest of the maps
		 * is read next time */
		c->gate.read_all = true;
		rs_model_end(m, t);
		return err;
	}
	/*
	 * The programs' skipped runs first, then the later copies' runs that
	 * made up for them: a skip is always made up after it happens, so read
	 * in this order a skip and its make-up are both counted or neither is
	 * (read the other way, one between the reads counted as lost).
	 */
	misses = rs_prog_misses_read(c);
	fd = bpf_map__fd(c->skel->maps.rs_stats);
	for (__u32 s = 0; s < RS_NR_STATS; s++) {
		stats[s] = 0;
		if (bpf_map_lookup_elem(fd, &s, c->percpu_stat))
			continue;
		for (int cpu = 0; cpu < c->ncpus; cpu++)
			stats[s] += c->percpu_stat[cpu];
	}
	memcpy(c->second_runs, &stats[RS_STAT_SECOND_RUNS0],
	       sizeof(c->second_runs));
	stats[RS_STAT_PROG_MISSES] = rs_prog_misses(c, misses);
	rs_model_set_stats(m, stats);
	rs_model_end(m, t);
	/*
	 * State, not counts: read as it stands, every snapshot.  A failed
	 * read (memory) leaves the last values, which lose nothing: the next
	 * read gives the state again.
	 */
	if (rs_tier_iter_read(c->tiers, m, due) && rs_collector_verbose)
		fprintf(stderr, "reclaimscope: reading the tiers failed\n");
	rs_collector_share_hz(c);
	return 0;
}

void rs_collector_share_hz(struct rs_collector *c)
{
	unsigned hz = rs_tier_iter_hz(c->tiers);

	if (hz && c->skel->bss && !c->skel->bss->rs_ns_per_jiffy)
		c->skel->bss->rs_ns_per_jiffy = 1000000000ULL / hz;
}

void rs_collector_mglru(struct rs_collector *c, bool on)
{
	rs_tier_iter_mglru(c->tiers, on);
}

void rs_collector_names(struct rs_collector *c, rs_name_fn fn, void *ctx)
{
	int fd = bpf_map__fd(c->skel->maps.rs_names);
	size_t nr;
	__u64 *ids = rs_map_keys(fd, sizeof(__u64), NULL, 0, &nr);
	struct rs_cgroup_name v;

	if (!ids)
		return;
	/* ids grow with creation (kernfs): parents come first */
	qsort(ids, nr, sizeof(*ids), rs_cmp_u64);
	for (size_t i = 0; i < nr; i++) {
		/* take, so that an rmdir after the read is not lost */
		if (bpf_map_lookup_and_delete_elem(fd, &ids[i], &v) &&
		    (bpf_map_lookup_elem(fd, &ids[i], &v) ||
		     bpf_map_delete_elem(fd, &ids[i])))
			continue;
		v.name[sizeof(v.name) - 1] = '\0';
		fn(ctx, ids[i], v.parent_id, v.name, v.removed);
	}
	free(ids);
}

/* Delete the keys of some memcgs from a map whose keys start with the
 * cgroup id. */
static void forget_keys(int fd, const __u64 *sorted_ids, size_t nr_ids,
			size_t key_size)
{
	size_t nr;
	char *doomed = rs_map_keys(fd, key_size, sorted_ids, nr_ids, &nr);

	for (size_t i = 0; i < nr; i++)
		bpf_map_delete_elem(fd, doomed + i * key_size);
	free(doomed);
}

void rs_collector_forget(struct rs_collector *c, __u64 *ids, size_t nr)
{
	qsort(ids, nr, sizeof(*ids), rs_cmp_u64);
	forget_keys(bpf_map__fd(c->skel->maps.rs_agg), ids, nr,
		    sizeof(struct rs_agg_key));
	forget_keys(bpf_map__fd(c->skel->maps.rs_agg_spill), ids, nr,
		    sizeof(struct rs_agg_key));
	forget_keys(bpf_map__fd(c->skel->maps.rs_hist), ids, nr,
		    sizeof(struct rs_hist_key));
	forget_keys(bpf_map__fd(c->skel->maps.rs_task_stalls), ids, nr,
		    sizeof(struct rs_task_key));
}
