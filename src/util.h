/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RS_UTIL_H
#define RS_UTIL_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

/* Strict parsing: the whole string, in range, or -EINVAL/-ERANGE. */
int rs_parse_u64(const char *s, __u64 min, __u64 max, __u64 *out);
/* Bytes with an optional binary unit: "4096", "64K", "4M", "1G". */
int rs_parse_size(const char *s, __u64 min, __u64 max, __u64 *out);
/* A plain decimal ("12", "12.5"): no sign, exponent, hex, nan or inf. */
int rs_parse_decimal(const char *s, double min, double max, double *out);
/* Seconds with an optional fraction and unit: "1.5", "500ms", "2m", "1h". */
int rs_parse_seconds(const char *s, double min, double max, double *out);

/* RFC 3339 UTC time of now, e.g. 2026-12-03T07:40:00.123Z */
void rs_rfc3339_now(char *buf, size_t size);
/* CLOCK_MONOTONIC in ns (the clock of bpf_ktime_get_ns) */
__u64 rs_now_ns(void);
/*
 * Whether a wait that began at since (rs_now_ns; 0: none) is more than
 * deadline_ns old at now.  A since after now (stored by another thread
 * after now was read) is not: an unsigned now - since would wrap to a huge
 * age and cut a client that had just been served.
 */
bool rs_past_deadline(__u64 since, __u64 now, __u64 deadline_ns);

/* Sleep for seconds, or less if *flag becomes set. */
void rs_sleep_unless(volatile int *flag, double seconds);

/* Read a small file into buf, strip the trailing newline; -errno. */
int rs_read_file(const char *path, char *buf, size_t size);
/* The value after "key " on a line of text (memory.stat, /proc/vmstat);
 * false if no line has it. */
bool rs_key_value(const char *text, const char *key, __u64 *value);
/* The same, for path relative to the directory fd dir (openat). */
int rs_read_file_at(int dir, const char *path, char *buf, size_t size);
/*
 * Room for n elements of size in *array, whose capacity is *cap: at least
 * doubled when it grows, so that adding one at a time stays cheap; the
 * contents are kept.  False (array unchanged) without memory.
 */
bool rs_grow(void **array, size_t *cap, size_t n, size_t size);

/*
 * Sorted arrays of fixed-size elements, the one implementation the model
 * and the cgroup resolver keep theirs with.  cmp(key, element) orders a
 * key against an element as strcmp does.
 *
 * rs_sorted_find: the index of the element equal to key (*found true), or
 * where it would go (*found false).  rs_sorted_insert: room at pos (from
 * rs_sorted_find), the rest moved up, zeroed; NULL when out of memory.
 * rs_sorted_remove: the element at pos taken out, the rest moved down.
 */
size_t rs_sorted_find(const void *base, size_t nr, size_t size, const void *key,
		      int (*cmp)(const void *key, const void *element),
		      bool *found);
void *rs_sorted_insert(void **base, size_t *nr, size_t *cap, size_t size,
		       size_t pos);
void rs_sorted_remove(void *base, size_t *nr, size_t size, size_t pos);
/*
 * When a snapshot reads the BPF counter maps (src/collect/collector_maps.c:
 * why). flag: what the exchange of the programs' change flag returned; all: a
 * snapshot that must read them (record's last); a failed read sets read_all.
 */
struct rs_read_gate {
	unsigned snapshots;
	bool read_all;	 /* the next snapshot reads, whatever the flag says */
	bool read_again; /* the last snapshot found the flag set */
};

#define RS_READ_ALL_EVERY 60 /* snapshots; the first reads too */

bool rs_read_gate_due(struct rs_read_gate *g, bool flag, bool all);
/* qsort/bsearch order of __u64s (cgroup ids) */
int rs_cmp_u64(const void *a, const void *b);

/*
 * Cgroup names are bytes; every output shows them as valid UTF-8 without
 * control characters, reversibly: a byte that is not part of a valid UTF-8
 * sequence, a C0 or C1 control character, DEL, and (with
 * RS_ESCAPE_BACKSLASH, so that the form can be undone) the backslash
 * itself are written as \xHH, two hex digits per byte.  Reverse: replace
 * each \xHH by the byte.  Names taken from a recording are already in
 * that form: they are escaped again for a terminal without the flag, which
 * only neutralises control characters a hostile file may carry.
 */
#define RS_ESCAPE_BACKSLASH 1
/* the longest escaped form of a name of n bytes, with its NUL */
#define RS_ESCAPED_SIZE(n) (4 * (n) + 1)
/* Escape raw into out (size bytes, cut short if smaller); returns out. */
const char *rs_escape_name(const char *raw, char *out, size_t size, int flags);
/*
 * A cgroup path in its one spelling: "/" first, no empty, "." or ".."
 * component (".." takes the one before it away; above "/" it stays at
 * "/"), no trailing "/".  Cgroupfs has no symlinks, so this is what the
 * kernel would resolve.  out needs strlen(in) + 2 bytes.
 */
void rs_path_canonical(const char *in, char *out);
/* Whether raw needs it (a clean name can be shown as it is). */
bool rs_name_needs_escape(const char *raw, int flags);
/* The name to show: raw itself when clean, else its escaped form in out. */
const char *rs_name_shown(const char *raw, char *out, size_t size, int flags);

#endif
