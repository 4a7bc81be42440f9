// SPDX-License-Identifier: GPL-2.0
#include "event_line.h"
#include "recording.h"
#include "util.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "aging.h"
#include "fields.h"
#include "gens.h"
#include "rs_common.h"
#include "shrink.h"
#include "vmscan.h"
#include "oom.h"
#include "kswapd.h"
#include "writeback.h"

/*
 * Paths are escaped by jansson (JSON escapes, UTF-8 checked) once per memcg
 * and kept: a path jansson refuses (not UTF-8) is left out of the line, as
 * the snapshot and summary lines leave it out.
 */
#define PATH_CACHE 256

struct path_entry {
	__u64 id;
	char *raw;    /* the path this entry was made for; NULL: empty */
	char *quoted; /* "..." escaped; NULL: the path cannot be shown */
	size_t quoted_len;
};

struct rs_event_writer {
	char *buf;
	size_t len, cap;
	bool failed; /* an allocation failed while writing this line */
	unsigned hz; /* the model's HZ at this line (0: not learnt yet) */
	struct path_entry paths[PATH_CACHE];
};

struct rs_event_writer *rs_event_writer_new(void)
{
	struct rs_event_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->cap = 1024;
	w->buf = malloc(w->cap);
	if (!w->buf) {
		free(w);
		return NULL;
	}
	return w;
}

void rs_event_writer_free(struct rs_event_writer *w)
{
	if (!w)
		return;
	for (int i = 0; i < PATH_CACHE; i++) {
		free(w->paths[i].raw);
		free(w->paths[i].quoted);
	}
	free(w->buf);
	free(w);
}

/* Room for n more bytes; false (and the line marked failed) if not. */
static bool room(struct rs_event_writer *w, size_t n)
{
	size_t cap = w->cap;
	char *more;

	if (w->len + n <= w->cap)
		return true;
	while (cap < w->len + n)
		cap *= 2;
	more = realloc(w->buf, cap);
	if (!more) {
		w->failed = true;
		return false;
	}
	w->buf = more;
	w->cap = cap;
	return true;
}

static inline void put(struct rs_event_writer *w, const char *s, size_t n)
{
	if (!room(w, n))
		return;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

/*
 * ,"key": -- every key after the line's first, which event_head writes.
 * Keys are literals, so their length is known when compiled.
 */
#define KEY(k) put(w, ",\"" k "\":", sizeof(",\"" k "\":") - 1)

/* "00".."99": two digits per division, which dominates the line's cost */
static const char two_digits[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

static void put_u64(struct rs_event_writer *w, __u64 v)
{
	char digits[20];
	int at = sizeof(digits);

	while (v >= 100) {
		unsigned int pair = (unsigned int)(v % 100) * 2;

		v /= 100;
		digits[--at] = two_digits[pair + 1];
		digits[--at] = two_digits[pair];
	}
	if (v >= 10) {
		digits[--at] = two_digits[v * 2 + 1];
		digits[--at] = two_digits[v * 2];
	} else {
		digits[--at] = (char)('0' + v);
	}
	put(w, digits + at, sizeof(digits) - at);
}

static void put_s64(struct rs_event_writer *w, __s64 v)
{
	if (v < 0) {
		put(w, "-", 1);
		/* -(v + 1) + 1: INT64_MIN has no positive __s64 */
		put_u64(w, (__u64) - (v + 1) + 1);
		return;
	}
	put_u64(w, (__u64)v);
}

static void put_bool(struct rs_event_writer *w, bool v)
{
	if (v)
		put(w, "true", 4);
	else
		put(w, "false", 5);
}

/*
 * A name from our own tables (fields.c): plain ASCII words that need no
 * escaping.
 */
static void put_name(struct rs_event_writer *w, const char *name)
{
	put(w, "\"", 1);
	put(w, name, strlen(name));
	put(w, "\"", 1);
}

/* Seconds since the start, exact to the nanosecond: 2.5, 0.000001, 7.0 */
static void put_seconds(struct rs_event_writer *w, __u64 ns)
{
	char frac[9];
	int n = 9;
	__u64 f = ns % 1000000000ULL;

	put_u64(w, ns / 1000000000ULL);
	for (int i = 8; i >= 0; i--) {
		frac[i] = (char)('0' + f % 10);
		f /= 10;
	}
	while (n > 1 && frac[n - 1] == '0')
		n--;
	put(w, ".", 1);
	put(w, frac, n);
}

static const struct path_entry *path_entry(struct rs_event_writer *w, __u64 id,
					   const char *path)
{
	/* ids are kernfs inode numbers: consecutive, so the low bits spread */
	struct path_entry *e = &w->paths[id % PATH_CACHE];
	size_t size = RS_ESCAPED_SIZE(strlen(path));
	char *shown;
	json_t *s;

	if (e->raw && e->id == id && !strcmp(e->raw, path))
		return e;
	free(e->raw);
	free(e->quoted);
	e->quoted = NULL;
	e->id = id;
	e->raw = strdup(path);
	if (!e->raw) {
		w->failed = true;
		return NULL;
	}
	/* cgroup names are bytes: shown escaped (rs_escape_name), once per
	 * path, as the cache keeps the quoted form */
	shown = malloc(size);
	s = shown ? json_string(rs_name_shown(path, shown, size,
					      RS_ESCAPE_BACKSLASH))
		  : NULL;
	free(shown);
	if (s) {
		e->quoted = json_dumps(s, JSON_ENCODE_ANY);
		e->quoted_len = e->quoted ? strlen(e->quoted) : 0;
		json_decref(s);
		if (!e->quoted) {
			free(e->raw);
			e->raw = NULL;
			w->failed = true;
			return NULL;
		}
	}
	return e;
}

const char *rs_event_path(const struct rs_model *m, __u64 cgroup_id)
{
	const char *path = rs_model_path(m, cgroup_id);

	if (!path && cgroup_id == RS_CGROUP_NONE)
		return "(unattributed)";
	return path;
}

static void event_head(struct rs_event_writer *w, const struct rs_model *m,
		       const struct rs_run_info *info,
		       const struct rs_event_hdr *h)
{
	const char *path = rs_event_path(m, h->cgroup_id);

	w->len = 0;
	w->failed = false;
	put(w, "{\"type\":\"event\",\"kind\":", 23);
	put_name(w, rs_event_type_name(h->type));
	KEY("t");
	put_seconds(w,
		    h->ts_ns >= info->start_ns ? h->ts_ns - info->start_ns : 0);
	KEY("pid");
	put_u64(w, h->pid);
	KEY("id");
	put_u64(w, h->cgroup_id);
	if (path) {
		const struct path_entry *e = path_entry(w, h->cgroup_id, path);

		if (e && e->quoted) {
			KEY("path");
			put(w, e->quoted, e->quoted_len);
		}
	}
	KEY("node");
	if (h->node == RS_NODE_UNKNOWN)
		put(w, "null", 4);
	else
		put_u64(w, h->node);
	KEY(RS_EVK_RECLAIMER);
	put_name(w, rs_reclaimer_name(h->reclaimer));
}

#define U64(k, v) (KEY(k), put_u64(w, v))
#define S64(k, v) (KEY(k), put_s64(w, v))
#define BOOL(k, v) (KEY(k), put_bool(w, v))
#define NAME(k, v) (KEY(k), put_name(w, v))
/* a reclaim_stat count, null where the kernel's struct lacks it */
#define COUNT(k, v)                                                            \
	(KEY(k), (v) == RS_NO_COUNT ? put(w, "null", 4) : put_u64(w, v))

static void shrink_line(struct rs_event_writer *w, const void *rec)
{
	const struct rs_shrink_event *e = rec;

	S64("priority", e->priority);
	if (e->budget_known) {
		S64("swappiness", e->swappiness);
		U64("evictable", e->evictable);
		U64(RS_EVK_BUDGET, e->budget);
	} else {
		KEY(RS_EVK_BUDGET);
		put(w, "null", 4);
	}
	U64(RS_EVK_BUDGET_USED, e->budget_used);
	U64("batches", e->batches);
	U64("last_batch", e->last_batch);
	U64("isolated", e->isolated);
	U64("reclaimed", e->reclaimed);
	U64(RS_EVK_NR_TO_RECLAIM, e->nr_to_reclaim);
	NAME("exit", rs_exit_reason_name(e->exit_reason));
	/* the kernel's own budget and abort, where their hooks saw them */
	if (e->budget_kernel_known)
		U64("budget_kernel", e->budget_kernel);
	if (e->abort_known) {
		BOOL("aborted", e->aborted);
		NAME("exit_deduced", rs_exit_reason_name(e->exit_deduced));
	}
	BOOL("need_rotate", e->need_rotate);
	BOOL("aged", e->aged);
	U64(RS_EVK_DURATION_NS, e->duration_ns);
}

/*
 * "generations": oldest first, as /sys/kernel/debug/lru_gen lists them;
 * aging elsewhere while the record was read can stretch the range, so it is
 * cut to the MAX_NR_GENS that can exist.  With births (NULL: none read),
 * each generation's age_ms as lru_gen and the timeline show it, null while
 * HZ is not known.
 */
static void put_generations(struct rs_event_writer *w, __u64 max_seq,
			    const __u64 min_seq[2],
			    const __s64 nr_pages[RS_MAX_NR_GENS][2],
			    const __u64 *birth, __u64 jiffies)
{
	__u64 lo = min_seq[0] < min_seq[1] ? min_seq[0] : min_seq[1];

	if (max_seq >= RS_MAX_NR_GENS && lo < max_seq - (RS_MAX_NR_GENS - 1))
		lo = max_seq - (RS_MAX_NR_GENS - 1);
	KEY("generations");
	put(w, "[", 1);
	for (__u64 s = lo; s <= max_seq; s++) {
		int gen = s % RS_MAX_NR_GENS;

		put(w, s == lo ? "{\"seq\":" : ",{\"seq\":", s == lo ? 7 : 8);
		put_u64(w, s);
		if (birth) {
			KEY("age_ms");
			/* null while HZ is not known, and for a birth after
			 * the jiffies read after it or not this generation's */
			if (!w->hz || birth[gen] > jiffies ||
			    rs_gens_birth_reused(birth, s, max_seq))
				put(w, "null", 4);
			else
				put_u64(w, (__u64)llround((double)(jiffies -
								   birth[gen]) *
							  1e3 / w->hz));
		}
		S64("anon", nr_pages[gen][0]);
		S64("file", nr_pages[gen][1]);
		put(w, "}", 1);
	}
	put(w, "]", 1);
}

static void aging_line(struct rs_event_writer *w, const void *rec)
{
	const struct rs_aging_event *e = rec;

	U64("seq", e->seq);
	BOOL("success", e->success);
	BOOL("force_scan", e->force_scan);
	NAME("trigger", rs_aging_trigger_name(e->trigger));
	U64(RS_EVK_DURATION_NS, e->duration_ns);
	U64("max_seq", e->max_seq);
	U64("min_seq_anon", e->min_seq[0]);
	U64("min_seq_file", e->min_seq[1]);
	if (e->gens_known) {
		put_generations(w, e->max_seq, e->min_seq, e->nr_pages, NULL,
				0);
	} else {
		KEY("generations"); /* the kernel has another MAX_NR_GENS */
		put(w, "null", 4);
	}
	/* what the page-table walk counted since the lruvec's last aging,
	 * null where the kernel keeps no walk counters */
	for (int i = 0; i < RS_NR_WALK_STATS; i++) {
		/* under the keys of the fields they add up to */
		static const enum rs_field field[RS_NR_WALK_STATS] = {
			[RS_WALK_PTES] = RS_F_WALK_PTES,
			[RS_WALK_YOUNG] = RS_F_WALK_YOUNG,
			[RS_WALK_PMDS] = RS_F_WALK_PMDS,
			[RS_WALK_BLOOM_ADDED] = RS_F_WALK_BLOOM_ADDED};
		const char *key = rs_fields[field[i]].key;

		put(w, ",\"", 2);
		put(w, key, strlen(key));
		put(w, "\":", 2);
		if (e->walk_known)
			put_u64(w, e->walk[i]);
		else
			put(w, "null", 4);
	}
}

static void oom_line(struct rs_event_writer *w, const void *rec)
{
	const struct rs_oom_event *e = rec;

	BOOL("killed", e->killed);
	S64("order", e->order);
	if (e->lru_known) {
		U64("max_seq", e->max_seq);
		U64("min_seq_anon", e->min_seq[0]);
		U64("min_seq_file", e->min_seq[1]);
		put_generations(w, e->max_seq, e->min_seq, e->nr_pages,
				e->births_known ? e->birth : NULL, e->jiffies);
	}
	if (e->last_exit_known) {
		NAME("last_pass_exit", rs_exit_reason_name(e->last_exit));
		U64("last_pass_reclaimed", e->last_pass_reclaimed);
		U64("last_pass_budget", e->last_pass_budget);
		U64("last_pass_isolated", e->last_pass_isolated);
		if (e->stat_known) {
			U64("last_pass_dirty", e->last_pass_dirty);
			U64("last_pass_writeback", e->last_pass_writeback);
		}
	}
	if (e->swap_known) {
		S64("swap_free", e->swap_free);
		S64("swap_total", e->swap_total);
	}
	if (e->node_known) {
		S64("node_dirty", e->node_dirty);
		S64("node_writeback", e->node_writeback);
	}
}

static void kswapd_run_line(struct rs_event_writer *w, const void *rec)
{
	const struct rs_kswapd_run_event *e = rec;

	U64(RS_EVK_DURATION_NS, e->duration_ns);
	S64("order", e->order);
	S64("highest_zoneidx", e->highest_zoneidx);
	S64("order_reached", e->order_after);
	U64("isolated", e->isolated);
	U64(RS_EVK_NR_RECLAIMED, e->reclaimed);
	if (!e->zones_known)
		return; /* no watermarks read: absent, not 0 */
	U64("free_before", e->free_before);
	U64("high_before", e->high_before);
	U64("free_after", e->free_after);
	U64("high_after", e->high_after);
	S64("past_high", (__s64)e->free_after - (__s64)e->high_after);
}

static void writeback_line(struct rs_event_writer *w, const void *rec)
{
	const struct rs_writeback_event *e = rec;

	U64("nr_taken", e->nr_taken);
	COUNT("dirty", e->dirty);
	COUNT("unqueued_dirty", e->unqueued_dirty);
	COUNT("congested", e->congested);
	COUNT("writeback", e->writeback);
	COUNT("immediate", e->immediate);
	COUNT("pageout", e->pageout);
	KEY("flusher_woken");
	if (e->unqueued_dirty == RS_NO_COUNT)
		put(w, "null", 4);
	else
		put_bool(w, e->flusher_woken);
}

static void throttle_line(struct rs_event_writer *w, const void *rec)
{
	const struct rs_throttle_event *e = rec;

	NAME("reason", rs_throttle_reason_name(e->reason));
	S64("timeout_us", e->usec_timeout);
	S64(RS_EVK_DELAYED_US, e->usec_delayed);
}

static void reclaim_line(struct rs_event_writer *w, const void *rec)
{
	const struct rs_reclaim_event *e = rec;

	U64(RS_EVK_DURATION_NS, e->duration_ns);
	U64(RS_EVK_NR_RECLAIMED, e->nr_reclaimed);
	if (e->nr_to_reclaim)
		U64(RS_EVK_NR_TO_RECLAIM, e->nr_to_reclaim);
}

/* Each kind: its record's size and its keys after the common ones. */
static const struct {
	size_t size;
	void (*write)(struct rs_event_writer *w, const void *rec);
} kinds[RS_EV_LAST + 1] = {
	[RS_EV_SHRINK] = {sizeof(struct rs_shrink_event), shrink_line},
	[RS_EV_AGING] = {sizeof(struct rs_aging_event), aging_line},
	[RS_EV_WRITEBACK] = {sizeof(struct rs_writeback_event), writeback_line},
	[RS_EV_THROTTLE] = {sizeof(struct rs_throttle_event), throttle_line},
	[RS_EV_RECLAIM] = {sizeof(struct rs_reclaim_event), reclaim_line},
	[RS_EV_OOM] = {sizeof(struct rs_oom_event), oom_line},
	[RS_EV_KSWAPD_RUN] = {sizeof(struct rs_kswapd_run_event),
			      kswapd_run_line},
};

const char *rs_event_line(struct rs_event_writer *w, const struct rs_model *m,
			  const struct rs_run_info *info, const void *rec,
			  size_t size, size_t *len)
{
	const struct rs_event_hdr *h = rec;

	*len = 0;
	w->hz = m ? rs_model_hz(m) : 0;
	if (size < sizeof(*h) || h->type > RS_EV_LAST ||
	    !kinds[h->type].write || size < kinds[h->type].size)
		return NULL;
	event_head(w, m, info, h);
	kinds[h->type].write(w, rec);
	put(w, "}\n", 2);
	if (w->failed) {
		errno = ENOMEM;
		return NULL;
	}
	*len = w->len;
	return w->buf;
}
