/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reclaim stalls per task (include/vmscan.h: rs_task_stalls): per (task,
 * memcg, kind) the count, total and longest, since the start and in the
 * last interval, from the kernel's cumulative counts.  Pure C.
 *
 * Bounded: the kernel's entry of a task that is gone is removed by the
 * collector once read (rs_stalls_add's `removed`); past RS_STALLS_KEEP
 * entries, those of tasks gone are folded into one entry per (memcg, kind)
 * with tid 0, "(exited tasks)", so that the sums stay exact while memory
 * stays bounded by the tasks alive.
 */
#ifndef RS_STALLS_H
#define RS_STALLS_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include "rs_common.h"
#include "vmscan.h"

#define RS_STALLS_KEEP 4096
#define RS_STALLS_TOP 10 /* a snapshot's tasks: the interval's top stallers */
#define RS_STALLS_EXITED_COMM "(exited tasks)"

struct rs_stall {
	__u64 cgroup_id;
	__u32 tid; /* 0: tasks gone, folded */
	__u32 tgid;
	__u32 kind; /* enum rs_stall_kind */
	char comm[RS_COMM_LEN + 1];
	__u64 count, total_ns, max_ns; /* since the start */
	__u64 over_budget; /* stalls longer than the latency budget, since */
	__u64 i_count, i_total_ns, i_over_budget; /* the last interval's */
	/* the kernel's entry at the last read (0 once it was removed) */
	__u64 seen_count, seen_total_ns, seen_over_budget;
	bool gone;   /* its task is gone: its kernel entry was removed */
	__u64 tasks; /* tid 0: the tasks folded into it (each once per memcg) */
};

struct rs_stalls;

struct rs_stalls *rs_stalls_new(void);
void rs_stalls_free(struct rs_stalls *s);
/* A snapshot: begin (intervals zeroed), add each kernel entry, end. */
void rs_stalls_begin(struct rs_stalls *s);
/*
 * An entry as the kernel holds it; removed: the collector deleted it after
 * this read (its task is gone).  1 when it did not move since the last
 * read (its task may be gone: worth a look), 0 when it did, -ENOMEM (then
 * lost, and counted).
 */
int rs_stalls_add(struct rs_stalls *s, const struct rs_task_key *k,
		  const struct rs_task_stall *v, bool removed);
void rs_stalls_end(struct rs_stalls *s);
/* A memcg forgotten (the daemon's --expire): its tasks' entries too. */
void rs_stalls_forget(struct rs_stalls *s, __u64 cgid);

size_t rs_stalls_nr(const struct rs_stalls *s);
const struct rs_stall *rs_stalls_get(const struct rs_stalls *s, size_t i);
/* Entries folded into "(exited tasks)" so far. */
__u64 rs_stalls_folded(const struct rs_stalls *s);
/* Stalls that could not be kept here (out of memory). */
__u64 rs_stalls_lost(const struct rs_stalls *s);

/*
 * Per memcg, the tasks that stalled there since the start, each once
 * whatever its kinds (folded ones too): cgids[] ascending and tasks[] for
 * each; the number of memcgs, or 0 when out of memory.  Both arrays are
 * allocated; the caller frees them.
 */
size_t rs_stalls_memcg_tasks(const struct rs_stalls *s, __u64 **cgids,
			     __u64 **tasks);

/*
 * The stalls with a count (in the last interval if interval), the most
 * time first (then by task), into *out (allocated; the caller frees it):
 * how many; 0 with *out NULL when out of memory or none.
 */
size_t rs_stalls_ranked(const struct rs_stalls *s, bool interval,
			const struct rs_stall ***out);

/* "direct", "memcg", "proactive", "throttle"; NULL for another value. */
const char *rs_stall_kind_name(unsigned int kind);
/* The kind of a name, or -1. */
int rs_stall_kind_of(const char *name);

#endif
