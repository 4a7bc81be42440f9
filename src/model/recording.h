/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a recording (docs/recording-format.md) back, for `report` and
 * `diff`.  Recordings come from other machines and versions: every line is
 * parsed with jansson and checked; what cannot be understood is refused
 * with the line number and the problem, keys we do not know are ignored.
 * Pure C: no BPF.
 */
#ifndef RS_RECORDING_H
#define RS_RECORDING_H

#include <linux/types.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include "rs_common.h"
#include "tiers.h"
#include "gens.h"
#include "hist.h"

/*
 * The recording format's version (docs/recording-format.md): what `record`
 * writes and the newest this reader reads.  2 added the outcome record, 3
 * log-linear histograms, 4 one name per counter (older names: the alias
 * list, rs_field_old_key).
 */
#define RS_SCHEMA 5

/*
 * Keys of `event` records that report and diff read back; event_line.c
 * writes them under the same names (kinds: rs_event_type_name()).
 */
#define RS_EVK_DURATION_NS "duration_ns"
#define RS_EVK_BUDGET "budget"
#define RS_EVK_BUDGET_USED "budget_used"
#define RS_EVK_RECLAIMER "reclaimer"
#define RS_EVK_NR_RECLAIMED "nr_reclaimed"
#define RS_EVK_NR_TO_RECLAIM "nr_to_reclaim"
#define RS_EVK_DELAYED_US "delayed_us"

/* The latest time (seconds since the start) a record may carry: about 31
 * years, so that every time is a whole number of ns in an int64. */
#define RS_MAX_T_S 1e9

/*
 * Rates charted over time, per memcg, from the snapshots: X(id, field,
 * title), the field whose interval counts give the rate.
 */
#define RS_REC_SERIES(X)                                                       \
	X(SCANNED, SCANNED, "pages scanned")                                   \
	X(RECLAIMED, RECLAIMED, "pages reclaimed")                             \
	X(AGINGS, AGINGS, "agings")                                            \
	X(FLUSHER, FLUSHER_WAKEUPS, "flusher wakeups")                         \
	X(THROTTLES, THROTTLES, "throttles")                                   \
	X(REFAULTS_FILE, REFAULTS_FILE, "file refaults")

#define RS_SERIES_ENUM(id, field, title) RS_SERIES_##id,
enum rs_rec_series { RS_REC_SERIES(RS_SERIES_ENUM) RS_NR_SERIES };
#undef RS_SERIES_ENUM

struct rs_series_info {
	enum rs_field field;
	const char *title;
};
extern const struct rs_series_info rs_series[RS_NR_SERIES];

struct rs_rec_point {
	double t;		   /* end of the interval, s since start */
	double rate[RS_NR_SERIES]; /* per second; NaN where unknown */
};

/* budget_used / budget of passes, in 10 % bins; the last is >= 200 % */
#define RS_BUDGET_BINS 21

/*
 * MGLRU's tier counters of a memcg (include/tiers.h), summed over its
 * nodes, as the kernel held them at the last read: state the PID
 * controller works from, not counts since the start.
 */
struct rs_tiers {
	unsigned
		nr_tiers; /* the kernel's MAX_NR_TIERS, up to RS_MAX_NR_TIERS */
	__u64 v[2][RS_MAX_NR_TIERS][RS_NR_TIER_COUNTERS]; /* [anon, file] */
};

/*
 * What the PID controller compares for a type and tier (mm/vmscan.c,
 * read_ctrl_pos): (avg_refaulted + refaulted) / (avg_total + evicted +
 * protected), as a percentage; NaN with nothing to divide by.
 */
double rs_tiers_refault_pct(const struct rs_tiers *t, int type, int tier);

/*
 * A memcg's generations at one timeline entry, summed over its nodes by
 * age: rank 0 the youngest (max_seq), 1 the one before, ... (report
 * --html draws them).  At most RS_GENS_POINTS a memcg: past that, every
 * other one goes (the first kept), its marks kept by the one before.
 */
struct rs_gens_point {
	double t;
	float anon[RS_GENS_MAX], file[RS_GENS_MAX]; /* pages by rank */
	unsigned char nr;      /* ranks alive on some node: 0 while off */
	unsigned char aged;    /* max_seq moved on some node since the last */
	unsigned char evicted; /* the lower min_seq moved ... */
};
#define RS_GENS_POINTS 256

struct rs_rec_memcg {
	__u64 id;
	char *path;
	bool gone, in_summary;
	bool is_total; /* rs_recording_total's: the whole recording */
	double total[RS_NR_FIELDS];	       /* summary; NaN where null */
	struct rs_histogram hist[RS_NR_HISTS]; /* log2 before schema 3 */
	bool hist_known[RS_NR_HISTS];
	double mem_current_avg; /* bytes; NaN */
	struct rs_tiers tiers;	/* at the end of the run, if has_tiers */
	bool has_tiers;
	/* what its generation timelines showed (snapshots' lru_gens, schema
	 * 5), if has_gens; while reading, last_gens: each lruvec's (node's)
	 * last sample, nr 0 for none open */
	struct rs_gens_acc gens;
	bool has_gens;
	struct rs_lruvec_gens *last_gens;
	unsigned nr_last_gens;
	struct rs_gens_point *gpoints; /* in time order */
	size_t nr_gpoints;
	/* the last point held until then (its timeline ended, or the
	 * recording did): a sample stands until the next one */
	double gpoints_until;
	struct rs_rec_point *points;
	size_t nr_points, cap_points;
	/* from event records (has_events) */
	__u64 passes, passes_over;
	__u64 direct, direct_over, memcg, memcg_over; /* reclaim records */
	__u64 throttle_over; /* throttle records over the budget */
	double pass_max_ns, direct_max_ns, memcg_max_ns, throttle_max_us;
	__u64 budget_use[RS_BUDGET_BINS];
	/* pages reclaimed by each reclaimer (enum rs_reclaimer); NaN */
	double reclaimed_by[RS_NR_RECLAIMERS];
	double pass_ns_by[RS_NR_RECLAIMERS]; /* MGLRU pass time; NaN */
	/* oom records: how many, and their LRU's pages summed (all gens) */
	__u64 oom_records;
	__u64 oom_lru_records; /* of them, with the LRU's generations */
	double oom_file_pages, oom_anon_pages;
	/* of them, with the generations' ages (HZ known when written): the
	 * oldest's and the youngest's ages summed, ms */
	__u64 oom_aged_records;
	double oom_oldest_ms, oom_youngest_ms;
};

/*
 * A workload's own result (`outcome` records, schema 2): one per workload
 * (worker -1) and one per worker of it, each key NaN where absent.  Lines
 * of the same workload and worker merge, a later key replacing an earlier.
 */
enum rs_outcome_key {
	RS_OUT_EXIT_STATUS,
	RS_OUT_OOM_KILLED, /* 1 or 0 */
	RS_OUT_DURATION_S,
	RS_OUT_OPS,
	RS_OUT_OPS_PER_S,
	RS_OUT_MB_PER_S,
	RS_OUT_LAT_MEAN_MS,
	RS_OUT_LAT_P50_MS,
	RS_OUT_LAT_P95_MS,
	RS_OUT_LAT_P99_MS,
	RS_OUT_ITERATIONS,
	RS_OUT_PROGRESS,
	RS_OUT_PGPGIN_KIB,  /* KiB read from block devices over the run */
	RS_OUT_PGPGOUT_KIB, /* KiB written to them */
	RS_NR_OUTCOME_KEYS
};
/* the record's key of each (rs_outcome_keys[RS_OUT_OPS] is "ops") */
extern const char *const rs_outcome_keys[RS_NR_OUTCOME_KEYS];

#define RS_MAX_OUTCOMES 4096

struct rs_outcome {
	char *workload;
	long worker; /* -1: the workload as a whole */
	char *memcg; /* the memcg it ran in; NULL if not said */
	double v[RS_NR_OUTCOME_KEYS];
	/* log2 ns buckets: bucket b holds (2^(b-1), 2^b] */
	__u64 lat_hist[RS_HIST_LOG2_BUCKETS];
	bool lat_hist_known;
	bool has_workers; /* the whole, when its workload has worker entries */
};

/* A task's stalls in one memcg, of one kind (the summary's "stalls"). */
struct rs_rec_stall {
	__u32 tid, tgid; /* tid 0: tasks gone, folded ("(exited tasks)") */
	char *comm;	 /* as the recording wrote it (escaped) */
	__u64 id;	 /* the memcg */
	int kind;	 /* enum rs_stall_kind */
	double count, total_ns, max_ns;
	/* stalls over the budget the recording counted with (its
	 * kernel_budget_ns); NaN where it did not count them */
	double over_budget;
	bool gone;
};

/* A recording that does not give its page size: made on x86-64, the
 * only architecture reclaimscope ran on before it wrote one. */
#define RS_PAGE_SIZE_UNSAID 4096

struct rs_recording {
	int schema;
	char *kernel, *start;
	/* record --cgroup: only memcgs at or under this path; NULL: all */
	char *cgroup_filter;
	bool mglru, series;
	/*
	 * 2: a memcg's own counters (memory.stat, memory.events) include its
	 * descendants'; 1: they are its own; 0: not said (read as 2).
	 */
	int cgroup_version;
	/*
	 * The recorded kernel's page size in bytes, which turns its page
	 * counts into bytes; page_size_said: the header gave it (recordings
	 * before 2026-12-07 do not: they are taken as x86's 4 KiB, and the
	 * report says so).
	 */
	double page_size;
	bool page_size_said;
	double duration;
	__u64 drops, missed, agg_full;
	__u64 hist_full; /* latency histogram updates lost: the map full */
	/* events with no per-task state (not counted; 6.18's task storage
	 * can refuse one: see rs_state in bpf/common.bpf.h) */
	__u64 state_misses;
	bool has_events, has_summary;
	/*
	 * The latency budget asked for (what the reader was given, else the
	 * one the recording counted with, else RS_DEFAULT_BUDGET_NS), and the
	 * one the kernel counted the *_over_budget fields and the stalls'
	 * over_budget with (the header's; 0 in recordings before it).  The
	 * kernel's counts stand where the two are equal; elsewhere the counts
	 * come from event records, if the recording has every one.
	 */
	double budget_ns;
	double kernel_budget_ns;
	double *snap_t; /* every snapshot's time: a memcg absent was idle */
	size_t nr_snaps, cap_snaps;
	struct rs_rec_memcg *memcgs; /* sorted by id */
	size_t nr_memcgs, cap_memcgs;
	size_t lines;
	struct rs_outcome *outcomes; /* in the order first seen */
	size_t nr_outcomes, cap_outcomes;
	/* stalls per task, from the summary, most time first; has_stalls:
	 * the recording lists them (older ones do not) */
	struct rs_rec_stall *stalls;
	size_t nr_stalls;
	bool has_stalls;
	/*
	 * Slots the reader's id index looked at, all lookups together: about
	 * one per lookup whatever order the ids come in (a unit test bounds
	 * it, so that reading stays O(n log n) with the final sort).
	 */
	size_t index_probes;
};

/*
 * Read a recording from f (name for messages).  budget_ns is the latency
 * budget passes and reclaims are counted against; 0: the one the recording
 * was made with (RS_DEFAULT_BUDGET_NS before recordings said it).  0, or -1
 * with err set ("run.ndjson:12: ...").
 */
int rs_recording_read(FILE *f, const char *name, double budget_ns,
		      struct rs_recording *r, char *err, size_t errsz);

/*
 * Whether the kernel counted the *_over_budget fields and the stalls'
 * over_budget at the budget asked for (budget_ns == kernel_budget_ns).
 */
bool rs_recording_budget_counted(const struct rs_recording *r);

/*
 * Who is handed each `event` record as it is read, after the reader took
 * it: its memcg's id and path (NULL until the recording named it) and the
 * record itself.  A nonzero return stops the reading (-1, err says "what
 * the sink said": a write that failed).
 */
struct rs_event_sink {
	int (*event)(void *ctx, __u64 memcg_id, const char *path, json_t *o);
	void *ctx;
	const char *what; /* names the sink's failure in err */
};
int rs_recording_read_events(FILE *f, const char *name, double budget_ns,
			     struct rs_recording *r,
			     const struct rs_event_sink *sink, char *err,
			     size_t errsz);
void rs_recording_free(struct rs_recording *r);
/* What a memcg's record holds apart from itself (path, points, histograms). */
void rs_rec_memcg_release(struct rs_rec_memcg *m);

/* The longest line the reader takes (a longer one is refused unread). */
#define RS_MAX_LINE (16 << 20)

/*
 * Outcome records checked on the way in (record --outcome) exactly as the
 * reader will take them: one line at a time, in the context of the lines
 * taken before (merging, the limit on outcomes), so that a line copied
 * into a recording never makes the recording unreadable.  name names the
 * source in messages.
 */
struct rs_outcome_check;
struct rs_outcome_check *rs_outcome_check_new(const char *name);
/* 0 when the reader takes o, else -1 with err ("name:line: why"). */
int rs_outcome_check(struct rs_outcome_check *c, json_t *o, size_t line,
		     char *err, size_t errsz);
void rs_outcome_check_free(struct rs_outcome_check *c);

const struct rs_rec_memcg *rs_recording_find(const struct rs_recording *r,
					     const char *path);

#endif
