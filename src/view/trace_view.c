// SPDX-License-Identifier: GPL-2.0
/*
 * Chrome trace-event JSON from a recording's events (trace_view.h).
 *
 * Times: an event record's "t" is when it ended (seconds since the run's
 * start, to the nanosecond); a slice begins its duration earlier.  Reclaim
 * runs, MGLRU passes, agings and kswapd runs carry their duration in ns,
 * read from the same clock at both ends, so on one task they nest exactly.
 * A throttle's delay is the kernel's usec_delayed, counted in jiffies: its
 * beginning is only known to a jiffy, and may seem to reach into the slice
 * before it or out of the reclaim around it.  A throttle sleeps, so nothing
 * runs inside it on its task: its beginning is moved to the end of what
 * ran before it and into what holds it (args "begin_moved_us" says by how
 * much), so that every track nests as Perfetto requires.
 *
 * A task's slices are held until the reclaim (or kswapd run) that holds
 * them arrives: it comes after them, since the kernel ends them first.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace_view.h"
#include "fields.h"
#include "json_view.h"
#include "util.h"

/* process ids of the trace: tasks, and the memcgs' counters */
#define TRACE_PID_TASKS 1
#define TRACE_PID_MEMCGS 2
/* slices held per task before the oldest are written out anyway */
#define TRACE_HELD_MAX 4096
#define TRACE_NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct slice {
	__s64 begin_ns, end_ns;
	__s64 moved_ns; /* a throttle's beginning moved by this much */
	bool exact;	/* both ends from the clock (not a throttle) */
	bool instant;	/* a point (writeback, OOM): begin_ns == end_ns */
	char *name;	/* JSON string, quoted */
	char *args;	/* JSON object */
};

struct task {
	__u32 tid;
	bool used;
	char first_kind[64]; /* what it did, for its name: its first reclaim */
	bool named_by_reclaim;
	__s64 last_end_ns; /* the end of the last slice written */
	struct slice *held;
	size_t nr_held, cap_held;
};

struct rs_trace {
	FILE *f;
	bool failed;
	int err;	/* the errno of what failed */
	size_t written; /* trace events written (not metadata) */
	size_t nr_tasks;
	struct task *tasks; /* open addressing by tid, at most half full */
	size_t cap_tasks;   /* a power of two */
};

struct rs_trace *rs_trace_new(FILE *f)
{
	struct rs_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->f = f;
	t->cap_tasks = 256;
	t->tasks = calloc(t->cap_tasks, sizeof(*t->tasks));
	if (!t->tasks) {
		free(t);
		return NULL;
	}
	fputs("{\"traceEvents\":[\n", f);
	return t;
}

static size_t task_slot(const struct rs_trace *t, __u32 tid)
{
	return (size_t)(((__u64)tid * 0x9e3779b97f4a7c15ULL) >> 20) &
	       (t->cap_tasks - 1);
}

static struct task *task_of(struct rs_trace *t, __u32 tid)
{
	size_t i;

	if (2 * (t->nr_tasks + 1) > t->cap_tasks) {
		struct task *old = t->tasks;
		size_t old_cap = t->cap_tasks;

		t->tasks = calloc(old_cap * 2, sizeof(*t->tasks));
		if (!t->tasks) {
			t->tasks = old;
			return NULL;
		}
		t->cap_tasks = old_cap * 2;
		for (size_t j = 0; j < old_cap; j++) {
			if (!old[j].used)
				continue;
			for (i = task_slot(t, old[j].tid); t->tasks[i].used;
			     i = (i + 1) & (t->cap_tasks - 1))
				;
			t->tasks[i] = old[j];
		}
		free(old);
	}
	for (i = task_slot(t, tid); t->tasks[i].used;
	     i = (i + 1) & (t->cap_tasks - 1))
		if (t->tasks[i].tid == tid)
			return &t->tasks[i];
	t->tasks[i].used = true;
	t->tasks[i].tid = tid;
	t->tasks[i].last_end_ns = INT64_MIN;
	t->nr_tasks++;
	return &t->tasks[i];
}

/* ns as µs with three decimals: exact, whatever the run's length */
static void put_us(FILE *f, __s64 ns)
{
	if (ns < 0) {
		fputc('-', f);
		ns = -ns;
	}
	fprintf(f, "%lld.%03lld", (long long)(ns / 1000),
		(long long)(ns % 1000));
}

static void write_slice(struct rs_trace *t, struct task *k, struct slice *s)
{
	FILE *f = t->f;
	/* begun before the recording did: drawn from its start, which
	 * keeps every slice nested (the same cut on all of them) */
	__s64 begin = s->begin_ns < 0 ? 0 : s->begin_ns,
	      end = s->end_ns < 0 ? 0 : s->end_ns;

	fprintf(f, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%" PRIu32 ",\"ts\":",
		s->instant ? "i\",\"s\":\"t" : "X", TRACE_PID_TASKS, k->tid);
	put_us(f, begin);
	if (!s->instant) {
		fputs(",\"dur\":", f);
		put_us(f, end - begin);
	}
	fprintf(f, ",\"name\":%s,\"args\":", s->name);
	if (s->moved_ns) {
		/* the args object, with the move added before its end */
		size_t len = strlen(s->args);

		fwrite(s->args, 1, len - 1, f);
		fputs(len > 2 ? ",\"begin_moved_us\":" : "\"begin_moved_us\":",
		      f);
		put_us(f, s->moved_ns);
		fputc('}', f);
	} else {
		fputs(s->args, f);
	}
	fputs("},\n", f);
	if (s->end_ns > k->last_end_ns)
		k->last_end_ns = s->end_ns;
	t->written++;
	free(s->name);
	free(s->args);
}

/* by beginning, the longer first: a slice before those it holds */
static int by_begin(const void *a, const void *b)
{
	const struct slice *x = a, *y = b;
	__s64 dx = x->end_ns - x->begin_ns, dy = y->end_ns - y->begin_ns;

	if (x->begin_ns != y->begin_ns)
		return x->begin_ns < y->begin_ns ? -1 : 1;
	return dx > dy ? -1 : dx < dy;
}

/*
 * Write the first n of the task's held slices (they came in order of
 * their ends), by their beginnings: on a track, time only goes forward.
 */
static void flush_held(struct rs_trace *t, struct task *k, size_t n)
{
	qsort(k->held, n, sizeof(*k->held), by_begin);
	for (size_t i = 0; i < n; i++)
		write_slice(t, k, &k->held[i]);
	memmove(k->held, k->held + n, (k->nr_held - n) * sizeof(*k->held));
	k->nr_held -= n;
}

/*
 * A task holds TRACE_HELD_MAX slices and the reclaim that holds them has
 * not ended (a kswapd run over hundreds of memcgs): the oldest half of
 * its exactly timed slices go out now, which nest whatever comes later.
 * Throttles stay, to be moved into their reclaim when it comes, unless
 * nothing else is held.  Those written early come before their reclaim in
 * the file (Perfetto orders by time; the nesting holds).
 */
static void flush_early(struct rs_trace *t, struct task *k)
{
	size_t n = 0, kept = 0, want = TRACE_HELD_MAX / 2;
	struct slice *early = malloc(want * sizeof(*early));

	if (!early) { /* no room to sort them out: the oldest half */
		flush_held(t, k, want);
		return;
	}
	for (size_t i = 0; i < k->nr_held; i++) {
		if (n < want && k->held[i].exact)
			early[n++] = k->held[i];
		else
			k->held[kept++] = k->held[i];
	}
	if (!n) { /* only throttles: they go too */
		free(early);
		flush_held(t, k, want);
		return;
	}
	qsort(early, n, sizeof(*early), by_begin);
	for (size_t i = 0; i < n; i++)
		write_slice(t, k, &early[i]);
	k->nr_held = kept;
	free(early);
}

static void move_begin(struct slice *s, __s64 to)
{
	if (to > s->begin_ns && to <= s->end_ns) {
		s->moved_ns += to - s->begin_ns;
		s->begin_ns = to;
	}
}

static int add_slice(struct rs_trace *t, struct task *k, struct slice *s,
		     bool holds_others)
{
	if (s->instant) {
		/* a point: it came after what it follows */
	} else if (!s->exact) {
		/* nothing ran inside a sleep: it began after whatever ended
		 * (or happened) before it on this task */
		__s64 after = k->last_end_ns;

		for (size_t i = 0; i < k->nr_held; i++)
			if (k->held[i].end_ns <= s->end_ns &&
			    k->held[i].end_ns > after)
				after = k->held[i].end_ns;
		move_begin(s, after);
	} else {
		/* a throttle it holds began within it */
		for (size_t i = 0; i < k->nr_held; i++)
			if (!k->held[i].exact &&
			    k->held[i].begin_ns < s->begin_ns &&
			    k->held[i].end_ns > s->begin_ns)
				move_begin(&k->held[i], s->begin_ns);
	}
	if (k->nr_held == TRACE_HELD_MAX)
		flush_early(t, k);
	if (!rs_grow((void **)&k->held, &k->cap_held, k->nr_held + 1,
		     sizeof(*k->held)))
		return -1;
	k->held[k->nr_held++] = *s;
	if (holds_others)
		flush_held(t, k, k->nr_held);
	return 0;
}

static __s64 int_key(json_t *o, const char *key, bool *ok)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		return (__s64)json_integer_value(v);
	if (json_is_real(v) && fabs(json_real_value(v)) < 9e18)
		return (__s64)llround(json_real_value(v));
	*ok = false;
	return 0;
}

/* The record's own keys as the slice's args, the memcg named. */
static char *args_of(json_t *o, const char *path)
{
	static const char *const header_keys[] = {"type", "kind", "t",
						  "pid",  "id",	  "path"};
	json_t *args = json_deep_copy(o), *name;
	char *s;

	if (!args)
		return NULL;
	for (size_t i = 0; i < TRACE_NELEM(header_keys); i++)
		json_object_del(args, header_keys[i]);
	name = path ? rs_json_name(path) : json_null();
	json_object_set_new(args, "memcg", name);
	s = json_dumps(args, JSON_COMPACT | JSON_REAL_PRECISION(12));
	json_decref(args);
	return s;
}

/* A title as a JSON string: names from a recording are escaped (and one
 * cut short within a character stays valid) */
static char *quoted(const char *text)
{
	json_t *s = rs_json_name(text);
	char *q = s ? json_dumps(s, JSON_ENCODE_ANY) : NULL;

	json_decref(s);
	return q;
}

static int trace_event(void *ctx, __u64 memcg_id, const char *path, json_t *o)
{
	struct rs_trace *t = ctx;
	const char *kind = json_string_value(json_object_get(o, "kind"));
	const char *reclaimer =
		json_string_value(json_object_get(o, "reclaimer")) ?: "other";
	bool ok = true, exact = true, holds = false, instant = false;
	__s64 tid = int_key(o, "pid", &ok), end_ns, dur_ns = 0;
	double tsec = json_real_value(json_object_get(o, "t"));
	struct slice s = {0};
	struct task *k;
	char title[64];

	(void)memcg_id;
	if (json_is_integer(json_object_get(o, "t")))
		tsec = (double)json_integer_value(json_object_get(o, "t"));
	/* the reader took t as a finite time since the start, at most
	 * RS_MAX_T_S: its ns fit */
	if (!kind || !ok || tid < 0 || tid > UINT32_MAX || !isfinite(tsec) ||
	    tsec < 0 || tsec > RS_MAX_T_S)
		return 0; /* not one to draw: the report counts it */
	end_ns = llround(tsec * 1e9);
	if (!strcmp(kind, "reclaim")) {
		dur_ns = int_key(o, RS_EVK_DURATION_NS, &ok);
		snprintf(title, sizeof(title), "%s reclaim", reclaimer);
		holds = true;
	} else if (!strcmp(kind, "kswapd_run")) {
		dur_ns = int_key(o, RS_EVK_DURATION_NS, &ok);
		snprintf(title, sizeof(title), "kswapd run");
		holds = true;
	} else if (!strcmp(kind, "shrink")) {
		dur_ns = int_key(o, RS_EVK_DURATION_NS, &ok);
		snprintf(title, sizeof(title), "MGLRU pass");
	} else if (!strcmp(kind, "aging")) {
		dur_ns = int_key(o, RS_EVK_DURATION_NS, &ok);
		snprintf(title, sizeof(title), "aging");
	} else if (!strcmp(kind, "throttle")) {
		const char *reason =
			json_string_value(json_object_get(o, "reason"));

		dur_ns = int_key(o, RS_EVK_DELAYED_US, &ok);
		/* microseconds past INT64_MAX ns: not a real delay */
		ok = ok && dur_ns >= 0 && dur_ns <= INT64_MAX / 1000;
		if (ok)
			dur_ns *= 1000;
		exact = false;
		snprintf(title, sizeof(title), "throttle (%.40s)",
			 reason ?: "?");
	} else if (!strcmp(kind, "writeback") || !strcmp(kind, "oom")) {
		instant = true;
		snprintf(title, sizeof(title), "%s",
			 !strcmp(kind, "oom") ? "OOM" : "writeback");
	} else {
		return 0; /* a kind from a newer writer */
	}
	if (!ok || dur_ns < 0)
		return 0;
	k = task_of(t, (__u32)tid);
	s.name = quoted(title);
	s.args = args_of(o, path);
	if (!k || !s.name || !s.args)
		goto nomem;
	if (!k->named_by_reclaim) {
		/* its first reclaim names it; until one comes, the reclaimer
		 * its records name */
		snprintf(k->first_kind, sizeof(k->first_kind), "%s",
			 !strcmp(kind, "kswapd_run") ? "kswapd"
			 : holds		     ? title
						     : reclaimer);
		k->named_by_reclaim = holds;
	}
	s.end_ns = end_ns;
	s.begin_ns = end_ns - dur_ns;
	s.exact = exact;
	s.instant = instant;
	if (add_slice(t, k, &s, holds))
		goto nomem;
	if (ferror(t->f)) {
		t->err = errno ? errno : EIO;
		t->failed = true;
		return -1;
	}
	return 0;
nomem:
	free(s.name);
	free(s.args);
	t->err = ENOMEM;
	t->failed = true;
	return -1;
}

struct rs_event_sink rs_trace_sink(struct rs_trace *t)
{
	return (struct rs_event_sink){
		.event = trace_event,
		.ctx = t,
		.what = "reading stopped here: the trace could not be "
			"written",
	};
}

static void put_name_json(FILE *f, const char *raw)
{
	char *q = quoted(raw);

	fputs(q ? q : "\"?\"", f);
	free(q);
}

static void counters(struct rs_trace *t, const struct rs_recording *r)
{
	static const struct {
		enum rs_rec_series series;
		const char *key;
	} shown[] = {
		{RS_SERIES_RECLAIMED, "reclaimed/s"},
		{RS_SERIES_SCANNED, "scanned/s"},
		{RS_SERIES_REFAULTS_FILE, "file refaults/s"},
	};

	for (size_t i = 0; i < r->nr_memcgs; i++) {
		const struct rs_rec_memcg *m = &r->memcgs[i];
		char pb[64];

		if (!m->nr_points)
			continue;
		if (!m->path)
			snprintf(pb, sizeof(pb), "memcg %llu",
				 (unsigned long long)m->id);
		for (size_t p = 0; p < m->nr_points; p++) {
			bool any = false;

			if (!isfinite(m->points[p].t) || m->points[p].t < 0 ||
			    m->points[p].t > RS_MAX_T_S)
				continue;
			fprintf(t->f, "{\"ph\":\"C\",\"pid\":%d,\"ts\":",
				TRACE_PID_MEMCGS);
			put_us(t->f, llround(m->points[p].t * 1e9));
			fputs(",\"name\":", t->f);
			put_name_json(t->f, m->path ? m->path : pb);
			fputs(",\"args\":{", t->f);
			for (size_t j = 0; j < TRACE_NELEM(shown); j++) {
				double v = m->points[p].rate[shown[j].series];

				if (!isfinite(v))
					continue; /* unknown: no point */
				fprintf(t->f, "%s\"%s\":%.6g", any ? "," : "",
					shown[j].key, v);
				any = true;
			}
			fputs("}},\n", t->f);
			t->written++;
		}
	}
}

static int by_tid(const void *a, const void *b)
{
	const struct rs_rec_stall *x = *(const struct rs_rec_stall *const *)a,
				  *y = *(const struct rs_rec_stall *const *)b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* A task's name from the recording's stalls per task (NULL: not there). */
static const char *comm_of(const struct rs_rec_stall **by, size_t n, __u32 tid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (by[mid]->tid == tid)
			return by[mid]->comm;
		if (by[mid]->tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int rs_trace_finish(struct rs_trace *t, const char *name,
		    const struct rs_recording *r)
{
	FILE *f = t->f;
	const struct rs_rec_stall **by =
		r->has_stalls ? calloc(r->nr_stalls + 1,
				       sizeof(const struct rs_rec_stall *))
			      : NULL;

	for (size_t i = 0; by && i < r->nr_stalls; i++)
		by[i] = &r->stalls[i];
	if (by)
		qsort(by, r->nr_stalls, sizeof(const struct rs_rec_stall *),
		      by_tid);

	for (size_t i = 0; i < t->cap_tasks; i++) {
		struct task *k = &t->tasks[i];

		if (!k->used)
			continue;
		flush_held(t, k, k->nr_held);
		fprintf(f,
			"{\"ph\":\"M\",\"pid\":%d,\"tid\":%" PRIu32
			",\"name\":\"thread_name\",\"args\":{\"name\":",
			TRACE_PID_TASKS, k->tid);
		{
			char label[128];
			const char *comm =
				by ? comm_of(by, r->nr_stalls, k->tid) : NULL;

			/* its name where the recording has it, else what
			 * it was first seen doing */
			if (comm)
				snprintf(label, sizeof(label),
					 "%s %" PRIu32 " (%s)", comm, k->tid,
					 k->first_kind);
			else
				snprintf(label, sizeof(label),
					 "task %" PRIu32 " (%s)", k->tid,
					 k->first_kind);
			put_name_json(f, label);
		}
		fputs("}},\n", f);
	}
	free(by);
	counters(t, r);
	fprintf(f,
		"{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\","
		"\"args\":{\"name\":\"reclaim, per task (thread id)\"}},\n"
		"{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\","
		"\"args\":{\"name\":\"memcgs, per interval\"}}\n"
		"],\"displayTimeUnit\":\"ms\",\"otherData\":{\"source\":",
		TRACE_PID_TASKS, TRACE_PID_MEMCGS);
	put_name_json(f, name);
	fputs(",\"kernel\":", f);
	put_name_json(f, r->kernel ? r->kernel : "unknown");
	fputs(",\"writer\":\"reclaimscope report --trace\"}}\n", f);
	if (fflush(f) || ferror(f) || t->failed) {
		if (!t->err)
			t->err = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int rs_trace_error(const struct rs_trace *t)
{
	return t->failed ? t->err : 0;
}

void rs_trace_free(struct rs_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cap_tasks; i++) {
		struct task *k = &t->tasks[i];

		for (size_t j = 0; j < k->nr_held; j++) {
			free(k->held[j].name);
			free(k->held[j].args);
		}
		free(k->held);
	}
	free(t->tasks);
	free(t);
}

size_t rs_trace_events(const struct rs_trace *t)
{
	return t->written;
}

size_t rs_trace_tasks(const struct rs_trace *t)
{
	return t->nr_tasks;
}
