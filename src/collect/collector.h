/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector: picks, loads and attaches the BPF programs the running
 * kernel supports, streams records and reads the in-kernel aggregates into
 * the model.  The only layer that talks to BPF.
 */
#ifndef RS_COLLECTOR_H
#define RS_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include "model.h"
#include "run_info.h"

struct rs_collector;

struct rs_collector_opts {
	bool stream_events; /* ring-buffer records, not just aggregates */
	__u32 ring_bytes;   /* power of two; 0 for the default (4 MiB) */
	__u32 agg_cells;    /* rs_agg's room; 0 for the default (16384) */
	bool verbose;	    /* libbpf's debug output */
	/* turn the kernel's BPF run-time statistics on while open */
	bool bpf_stats;
	/* the kernel's types from this file, not the running kernel's */
	const char *btf_path;
	int copies;    /* of each program (RS_PROGS), 1..RS_COPIES; 0: all */
	bool refaults; /* attach the refault hook (per folio: opt-in) */
	/* the latency budget the *_over_budget counts use; 0: the default */
	__u64 budget_ns;
};

/* Called for each ring-buffer record. */
typedef int (*rs_record_fn)(void *ctx, const void *rec, size_t size);

/*
 * Probe the kernel, load and attach.  Fills info (kernel, hooks).  On error
 * returns -errno and writes a message that says what failed and what to do.
 */
int rs_collector_open(struct rs_collector **out, struct rs_run_info *info,
		      const struct rs_collector_opts *opts, char *err,
		      size_t errsz);
/* Wait up to timeout_ms for records and hand them to fn; -errno on error. */
int rs_collector_poll(struct rs_collector *c, int timeout_ms, rs_record_fn fn,
		      void *ctx);
/*
 * Read the aggregates and global counters into the model (one snapshot).
 * The aggregates are read only when a program may have changed them since
 * the last read, or when `all` (a snapshot that must be exact) is set.
 */
int rs_collector_snapshot(struct rs_collector *c, struct rs_model *m, double t,
			  bool all);
/* MGLRU is on or off now (read before the snapshot): its generations are
 * read only while it is on. */
void rs_collector_mglru(struct rs_collector *c, bool on);
/*
 * Do what a snapshot does to the kernel objects once: 0, or -errno (e.g.
 * -EPERM where the bpf() syscall itself needs a capability).
 */
int rs_collector_check_access(struct rs_collector *c);
/*
 * Each hook's runs and run time so far (info->hooks[].runs, run_ns), when
 * the kernel keeps BPF run-time statistics (info->cost_known).
 */
void rs_collector_cost(struct rs_collector *c, struct rs_run_info *info);
/* Programs whose runs the kernel skipped, as "prog N, ...": how many. */
int rs_collector_misses(struct rs_collector *c, char *buf, size_t size);
/*
 * The memcgs made or removed since the last call (bpf/cgnames.bpf.c), in
 * order of id (a parent before its children), one call of fn each; the
 * kernel's map is emptied.
 */
typedef void (*rs_name_fn)(void *ctx, __u64 id, __u64 parent_id,
			   const char *name, bool removed);
void rs_collector_names(struct rs_collector *c, rs_name_fn fn, void *ctx);
/* Drop memcgs' counters from the kernel maps (gone and expired); sorts ids. */
void rs_collector_forget(struct rs_collector *c, __u64 *ids, size_t nr);
/*
 * Detach every program, keeping maps and ring: after it, one last poll and
 * snapshot see the same events, so a summary agrees with its stream.
 */
void rs_collector_stop(struct rs_collector *c);
void rs_collector_close(struct rs_collector *c);

#endif
