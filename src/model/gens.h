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
/*
 * The highest seq an lruvec is made with: lru_gen_init_lruvec() sets
 * max_seq to MIN_NR_GENS + 1 and stamps seqs 0 to 3 with one jiffy, so
 * their births are the lruvec's, not agings (a memcg that never aged
 * showed an aging interval of 0 ms).
 */
#define RS_GENS_INIT_MAX_SEQ 3

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
	/* the youngest generation whose birth the figures counted (gens
	 * acc): kept past MGLRU off and on, so that a birth counts once */
	__u64 born_seen;
};

/* The lower of an lruvec's two min_seq (anon, file): its oldest
 * generation alive, as lru_gen lists them. */
static inline __u64 rs_gens_lower_min(const __u64 min_seq[2])
{
	return min_seq[0] < min_seq[1] ? min_seq[0] : min_seq[1];
}

/*
 * The kernel's HZ from two readings of jiffies and CLOCK_MONOTONIC (ns):
 * one of the tick rates it can be built with, or 0 where the readings are
 * too close or fit none.
 */
unsigned rs_hz_learn(__u64 jiffies0, __u64 ns0, __u64 jiffies1, __u64 ns1);
/*
 * HZ from one reading, where it can be told: jiffies start at
 * INITIAL_JIFFIES, 2^32 - 300 HZ (include/linux/jiffies.h, so that they
 * wrap five minutes after boot), and CLOCK_MONOTONIC near 0, so jiffies -
 * 2^32 is HZ times (uptime - 300 s).  0 within a minute of those 300 s,
 * where the choices give about the same, or where nothing fits.
 */
unsigned rs_hz_from_boot(__u64 jiffies, __u64 mono_ns);

/*
 * Whether seq's birth, in births indexed by seq % RS_GENS_MAX, is after the
 * next generation's: its slot was reused by an aging between the read of
 * the seqs and that of the births, so it is not seq's (never for max_seq).
 */
static inline bool rs_gens_birth_reused(const __u64 *birth, __u64 seq,
					__u64 max_seq)
{
	return seq < max_seq &&
	       birth[seq % RS_GENS_MAX] > birth[(seq + 1) % RS_GENS_MAX];
}

/*
 * Whether a record's generations were torn: read without the lruvec's lock
 * (as lru_gen reads them), an aging between the seqs' read and the births'
 * can put a younger generation's birth in an older one's slot, which then
 * shows born after the next, or list more generations than can be alive.
 * Such a read is not a sample.
 */
bool rs_gens_record_torn(const struct rs_tier_record *rec);
/* The same seen in a sample's ages: a generation younger than the next. */
bool rs_gens_sample_torn(const struct rs_lruvec_gens *g);
/*
 * A record's generations (include/tiers.h, gens_known set) as a sample
 * taken at model time t (the record's own clock, mono_ns, in model time): the
 * generations alive, oldest first, each with its age (jiffies less its
 * timestamp, over hz); NaN where hz is 0.
 */
void rs_gens_from_record(const struct rs_tier_record *rec, unsigned hz,
			 double t, struct rs_lruvec_gens *g);

/*
 * What a memcg's generation timelines show over a span, from their samples
 * in order, one lruvec's after another's (rs_gens_acc_add): the
 * generations alive, as a mean weighted by how long each sample held and
 * as the least seen; the time between an aging and the next (the gap
 * between two consecutive generations' births, each birth counted once);
 * and the pages a generation held at the first read after a younger one
 * was born (the size aging left it at).  Only samples that changed count
 * (a sample holds until the next, or the end: rs_gens_acc_hold):
 * the ones a recording keeps, so that top and report compute the same
 * figures from the same samples.
 */
struct rs_gens_acc {
	double held_s, alive_held; /* seconds samples held; alive x seconds */
	double alive_min;	   /* NaN: no sample */
	double births, birth_gaps_s;
	double closed, closed_pages;
	__u64 at; /* the model's: the snapshot an interval's sums are of */
};

enum rs_gens_figure {
	RS_GENS_ALIVE_MEAN,	/* generations */
	RS_GENS_ALIVE_MIN,	/* generations */
	RS_GENS_AGING_INTERVAL, /* ms between two births */
	RS_GENS_PAGES_AT_AGING, /* pages */
	RS_NR_GENS_FIGURES
};

#define RS_GENS_ACC_EMPTY ((struct rs_gens_acc){.alive_min = NAN})

/*
 * Sample cur of one lruvec into a, after prev, that lruvec's sample before
 * it (NULL: its first, or its first since MGLRU came back on).  A birth
 * counts where the generation is younger than born_seen (the lruvec's
 * youngest counted so far) and both ages are known; rs_gens_born gives
 * the lruvec's born_seen after cur.  prev's time held counts from from
 * on (an interval's start; -INFINITY: all of it), as rs_gens_acc_hold's.
 */
void rs_gens_acc_add(struct rs_gens_acc *a, const struct rs_lruvec_gens *prev,
		     const struct rs_lruvec_gens *cur, __u64 born_seen,
		     double from);
__u64 rs_gens_born(const struct rs_lruvec_gens *cur, __u64 born_seen);
/*
 * The time last, a lruvec's latest sample, has held from from (or its
 * own time, if later) to t: a timeline's open end, at its end (the memcg
 * gone, MGLRU off, the end of a recording) or as of now.
 */
void rs_gens_acc_hold(struct rs_gens_acc *a, const struct rs_lruvec_gens *last,
		      double from, double t);
/* b's samples into a: the memcgs of a total. */
void rs_gens_acc_merge(struct rs_gens_acc *a, const struct rs_gens_acc *b);
/* A figure; NaN where the samples give none. */
double rs_gens_figure(const struct rs_gens_acc *a, enum rs_gens_figure f);

#endif
