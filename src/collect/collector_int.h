/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What collector.c (choosing, loading, attaching the programs) and
 * collector_maps.c (reading their maps) share; not for other files.
 */
#ifndef RS_COLLECTOR_INT_H
#define RS_COLLECTOR_INT_H

#include <stdbool.h>
#include <linux/types.h>
#include "collector.h"
#include "hooks.h"
#include "rs_common.h"
#include "util.h"
#include "reclaimscope.skel.h"

struct rs_collector {
	struct reclaimscope_bpf *skel;
	/* per rs_prog_specs index: the program and its copies "<prog>_<n>" */
	struct bpf_link *links[RS_MAX_PROG_SPECS][RS_COPIES];
	/* outlives the links: rs_collector_stop() */
	bool spec_attached[RS_MAX_PROG_SPECS];
	__u64 second_runs[RS_NR_SLOTS]; /* from the last snapshot */
	struct ring_buffer *ring;
	rs_record_fn fn;
	void *fn_ctx;
	int ncpus;
	__u64 *percpu_stat;
	int stats_fd; /* bpf_enable_stats(): statistics on while it is open */
	struct rs_read_gate gate;   /* when a snapshot reads the maps */
	struct rs_tier_iter *tiers; /* NULL where the kernel cannot say */
};

/* -v: libbpf's output, and the collector's own notes on failed reads */
extern bool rs_collector_verbose;

/*
 * Events lost: every spec's skipped runs read now (rs_prog_misses_read),
 * then, after the global counters, those no later copy made up for
 * (rs_prog_misses, which frees what the first returned).
 */
__u64 *rs_prog_misses_read(struct rs_collector *c);
__u64 rs_prog_misses(struct rs_collector *c, __u64 *misses);
/*
 * The kernel's HZ to the programs once the tier iterator knows it (their
 * eviction ages are jiffies): a no-op before, and after the first time.
 */
void rs_collector_share_hz(struct rs_collector *c);

#endif
