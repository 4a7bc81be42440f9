/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RS_GENS_H
#define RS_GENS_H

#include <linux/types.h>
#include <stdbool.h>
#include "tiers.h"

/*
 * The generations of one lruvec (a memcg on a node) as the tier iterator
 * last read them (bpf/tiers.bpf.c): a sample of the timeline.  The
 * generations alive are those lru_gen lists, from the lower min_seq to
 * max_seq, oldest first.
 */
#define RS_GENS_MAX RS_TIER_NR_GENS /* the kernel's MAX_NR_GENS */

struct rs_gen_sample {
	__u64 seq, anon, file; /* pages */
	__u64 stamp;	       /* lrugen.timestamps[] as read: jiffies */
	/* its age at the read (t), s: jiffies then less its stamp, as
	 * lru_gen counts it (so every generation's is read at one instant);
	 * its age now is this plus the time since t; NaN without HZ */
	double age;
};

struct rs_lruvec_gens {
	int node;
	__u64 min_seq[2], max_seq; /* anon, file */
	unsigned nr;
	struct rs_gen_sample gen[RS_GENS_MAX];
	double t;	/* model time of the read */
	__u64 changed;	/* rs_model_snapshots() when seqs or pages changed last
			 */
	bool ended;	/* the memcg is gone: the timeline stops here */
	__u64 ended_at; /* rs_model_snapshots() when it ended */
};

/*
 * The kernel's HZ from two readings of jiffies and CLOCK_MONOTONIC (ns):
 * one of the tick rates it can be built with, or 0 where the readings are
 * too close or fit none.
 */
unsigned rs_hz_learn(__u64 jiffies0, __u64 ns0, __u64 jiffies1, __u64 ns1);

/*
 * A record's generations (include/tiers.h, gens_known set) as a sample
 * taken at model time t (the record's own clock, mono_ns, in model time): the
 * generations alive, oldest first, each with its age (jiffies less its
 * timestamp, over hz); NaN where hz is 0.
 */
void rs_gens_from_record(const struct rs_tier_record *rec, unsigned hz,
			 double t, struct rs_lruvec_gens *g);

#endif
