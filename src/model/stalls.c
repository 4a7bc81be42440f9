// SPDX-License-Identifier: GPL-2.0
/* Reclaim stalls per task (stalls.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stalls.h"
#include "util.h"

struct rs_stalls {
	struct rs_stall *v;
	size_t nr, cap;
	/* open addressing by key: slot holds index + 1, 0 empty */
	size_t *slots, nr_slots; /* a power of two, at most half full */
	__u64 folded, lost;
};

static const char *const kind_names[RS_NR_STALL_KINDS] = {
	[RS_STALL_DIRECT] = "direct",
	[RS_STALL_MEMCG] = "memcg",
	[RS_STALL_PROACTIVE] = "proactive",
	[RS_STALL_THROTTLE] = "throttle",
};

const char *rs_stall_kind_name(unsigned int kind)
{
	return kind < RS_NR_STALL_KINDS ? kind_names[kind] : NULL;
}

int rs_stall_kind_of(const char *name)
{
	for (int k = 0; k < RS_NR_STALL_KINDS; k++)
		if (name && !strcmp(name, kind_names[k]))
			return k;
	return -1;
}

struct rs_stalls *rs_stalls_new(void)
{
	return calloc(1, sizeof(struct rs_stalls));
}

void rs_stalls_free(struct rs_stalls *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->slots);
	free(s);
}

static size_t slot_of(const struct rs_stalls *s, __u64 cgid, __u32 tid,
		      __u32 kind)
{
	__u64 h = cgid * 0x9e3779b97f4a7c15ULL ^
		  ((__u64)tid << 3 | kind) * 0xc2b2ae3d27d4eb4fULL;

	return (size_t)(h >> 17) & (s->nr_slots - 1);
}

static bool same(const struct rs_stall *e, __u64 cgid, __u32 tid, __u32 kind)
{
	return e->cgroup_id == cgid && e->tid == tid && e->kind == kind;
}

/* Rebuild the index over s->v (after growing, or after a fold). */
static int reindex(struct rs_stalls *s, size_t want)
{
	size_t n = 64;

	while (n < 2 * want)
		n *= 2;
	if (n != s->nr_slots) {
		size_t *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		free(s->slots);
		s->slots = slots;
		s->nr_slots = n;
	} else {
		memset(s->slots, 0, n * sizeof(*s->slots));
	}
	for (size_t i = 0; i < s->nr; i++) {
		const struct rs_stall *e = &s->v[i];
		size_t j = slot_of(s, e->cgroup_id, e->tid, e->kind);

		while (s->slots[j])
			j = (j + 1) & (s->nr_slots - 1);
		s->slots[j] = i + 1;
	}
	return 0;
}

/* The entry of a key, made if new; NULL when out of memory. */
static struct rs_stall *entry(struct rs_stalls *s, __u64 cgid, __u32 tid,
			      __u32 kind)
{
	struct rs_stall *e;
	size_t j;

	if (2 * (s->nr + 1) > s->nr_slots && reindex(s, s->nr + 1))
		return NULL;
	for (j = slot_of(s, cgid, tid, kind); s->slots[j];
	     j = (j + 1) & (s->nr_slots - 1))
		if (same(&s->v[s->slots[j] - 1], cgid, tid, kind))
			return &s->v[s->slots[j] - 1];
	if (!rs_grow((void **)&s->v, &s->cap, s->nr + 1, sizeof(*s->v)))
		return NULL;
	e = &s->v[s->nr];
	memset(e, 0, sizeof(*e));
	e->cgroup_id = cgid;
	e->tid = tid;
	e->kind = kind;
	s->slots[j] = ++s->nr;
	return e;
}

void rs_stalls_begin(struct rs_stalls *s)
{
	for (size_t i = 0; i < s->nr; i++)
		s->v[i].i_count = s->v[i].i_total_ns = s->v[i].i_over_budget =
			0;
}

int rs_stalls_add(struct rs_stalls *s, const struct rs_task_key *k,
		  const struct rs_task_stall *v, bool removed)
{
	struct rs_stall *e;
	__u64 dc, dt, dover;

	if (k->kind >= RS_NR_STALL_KINDS || !k->tid)
		return 0; /* not one of ours: tid 0 is the folded entry */
	e = entry(s, k->cgroup_id, k->tid, k->kind);
	if (!e) {
		s->lost++;
		return -ENOMEM;
	}
	/* the kernel's counts only grow, unless its entry was removed and
	 * made again (the task was not gone after all): then from 0 */
	if (v->count >= e->seen_count && v->total_ns >= e->seen_total_ns &&
	    v->over_budget >= e->seen_over_budget) {
		dc = v->count - e->seen_count;
		dt = v->total_ns - e->seen_total_ns;
		dover = v->over_budget - e->seen_over_budget;
	} else {
		dc = v->count;
		dt = v->total_ns;
		dover = v->over_budget;
	}
	e->count += dc;
	e->total_ns += dt;
	e->over_budget += dover;
	e->i_count += dc;
	e->i_total_ns += dt;
	e->i_over_budget += dover;
	if (v->max_ns > e->max_ns)
		e->max_ns = v->max_ns;
	e->tgid = v->tgid;
	memcpy(e->comm, v->comm, RS_COMM_LEN);
	e->comm[RS_COMM_LEN] = '\0';
	e->seen_count = removed ? 0 : v->count;
	e->seen_total_ns = removed ? 0 : v->total_ns;
	e->seen_over_budget = removed ? 0 : v->over_budget;
	e->gone = removed;
	return dc == 0;
}

static int by_memcg_task(const void *a, const void *b)
{
	const struct rs_stall *x = a, *y = b;

	if (x->cgroup_id != y->cgroup_id)
		return x->cgroup_id < y->cgroup_id ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->kind > y->kind) - (x->kind < y->kind);
}

/* Past the bound, the entries of tasks gone into "(exited tasks)". */
void rs_stalls_end(struct rs_stalls *s)
{
	struct rs_stall *gone;
	size_t kept = 0, nr_gone = 0;

	if (s->nr <= RS_STALLS_KEEP)
		return;
	gone = malloc(s->nr * sizeof(*gone));
	if (!gone)
		return; /* kept as they are, folded next time */
	for (size_t i = 0; i < s->nr; i++) {
		if (s->v[i].gone && s->v[i].tid)
			gone[nr_gone++] = s->v[i];
		else
			s->v[kept++] = s->v[i];
	}
	s->nr = kept;
	if (reindex(s, kept)) {
		/* no memory for the index: put them back, fold next time */
		memcpy(s->v + kept, gone, nr_gone * sizeof(*gone));
		s->nr += nr_gone;
		free(gone);
		reindex(s, s->nr);
		return;
	}
	/* a task's entries together: it is counted once per memcg */
	qsort(gone, nr_gone, sizeof(*gone), by_memcg_task);
	for (size_t i = 0; i < nr_gone; i++) {
		const struct rs_stall *e = &gone[i];
		struct rs_stall *into = entry(s, e->cgroup_id, 0, e->kind);
		bool first = !i || gone[i - 1].cgroup_id != e->cgroup_id ||
			     gone[i - 1].tid != e->tid;

		if (!into) { /* the sums would be lost: count them */
			s->lost += e->count;
			continue;
		}
		if (!into->comm[0]) {
			strcpy(into->comm, RS_STALLS_EXITED_COMM);
			into->gone = true;
		}
		into->tasks += first;
		into->count += e->count;
		into->total_ns += e->total_ns;
		into->over_budget += e->over_budget;
		into->i_count += e->i_count;
		into->i_total_ns += e->i_total_ns;
		into->i_over_budget += e->i_over_budget;
		if (e->max_ns > into->max_ns)
			into->max_ns = e->max_ns;
		s->folded++;
	}
	free(gone);
}

void rs_stalls_forget(struct rs_stalls *s, __u64 cgid)
{
	size_t kept = 0;

	for (size_t i = 0; i < s->nr; i++)
		if (s->v[i].cgroup_id != cgid)
			s->v[kept++] = s->v[i];
	if (kept == s->nr)
		return;
	s->nr = kept;
	if (reindex(s, kept)) { /* no memory for the index: none at all */
		free(s->slots);
		s->slots = NULL;
		s->nr_slots = 0;
	}
}

size_t rs_stalls_memcg_tasks(const struct rs_stalls *s, __u64 **cgids,
			     __u64 **tasks)
{
	struct rs_stall *v;
	size_t n = 0;

	*cgids = *tasks = NULL;
	if (!s->nr)
		return 0;
	v = malloc(s->nr * sizeof(*v));
	*cgids = malloc(s->nr * sizeof(**cgids));
	*tasks = malloc(s->nr * sizeof(**tasks));
	if (!v || !*cgids || !*tasks) {
		free(v);
		free(*cgids);
		free(*tasks);
		*cgids = *tasks = NULL;
		return 0;
	}
	memcpy(v, s->v, s->nr * sizeof(*v));
	qsort(v, s->nr, sizeof(*v), by_memcg_task);
	for (size_t i = 0; i < s->nr; i++) {
		bool new_memcg = !n || (*cgids)[n - 1] != v[i].cgroup_id;
		bool new_task = !i || new_memcg || v[i - 1].tid != v[i].tid;

		if (new_memcg) {
			(*cgids)[n] = v[i].cgroup_id;
			(*tasks)[n++] = 0;
		}
		/* a folded entry holds its tasks; a task counts once */
		(*tasks)[n - 1] += v[i].tid ? new_task : v[i].tasks;
	}
	free(v);
	return n;
}

/* by time stalled (the interval's if *interval), the longest first; then
 * by task, memcg and kind, for a stable order */
static int by_stalled(const void *a, const void *b, void *interval)
{
	const struct rs_stall *x = *(const struct rs_stall *const *)a,
			      *y = *(const struct rs_stall *const *)b;
	bool in = *(const bool *)interval;
	__u64 tx = in ? x->i_total_ns : x->total_ns,
	      ty = in ? y->i_total_ns : y->total_ns;

	if (tx != ty)
		return tx > ty ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->cgroup_id != y->cgroup_id)
		return x->cgroup_id < y->cgroup_id ? -1 : 1;
	return (x->kind > y->kind) - (x->kind < y->kind);
}

size_t rs_stalls_ranked(const struct rs_stalls *s, bool interval,
			const struct rs_stall ***out)
{
	size_t n = 0;

	*out = NULL;
	if (!s->nr)
		return 0;
	*out = calloc(s->nr, sizeof(const struct rs_stall *));
	if (!*out)
		return 0;
	for (size_t i = 0; i < s->nr; i++)
		if (interval ? s->v[i].i_count : s->v[i].count)
			(*out)[n++] = &s->v[i];
	qsort_r(*out, n, sizeof(const struct rs_stall *), by_stalled,
		&interval);
	return n;
}

size_t rs_stalls_nr(const struct rs_stalls *s)
{
	return s->nr;
}

const struct rs_stall *rs_stalls_get(const struct rs_stalls *s, size_t i)
{
	return i < s->nr ? &s->v[i] : NULL;
}

__u64 rs_stalls_folded(const struct rs_stalls *s)
{
	return s->folded;
}

__u64 rs_stalls_lost(const struct rs_stalls *s)
{
	return s->lost;
}
