// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

int rs_parse_u64(const char *s, __u64 min, __u64 max, __u64 *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno || end == s || *end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int rs_parse_size(const char *s, __u64 min, __u64 max, __u64 *out)
{
	static const char units[] = "KMG";
	char digits[32];
	size_t len = s ? strlen(s) : 0;
	unsigned shift = 0;
	const char *unit;
	__u64 v;
	int err;

	if (!len || len >= sizeof(digits))
		return -EINVAL;
	memcpy(digits, s, len + 1);
	/* "4M", "4MiB" and "4m" alike */
	if (len > 3 && !strcmp(digits + len - 2, "iB"))
		len -= 2, digits[len] = 0;
	unit = strchr(units, toupper((unsigned char)digits[len - 1]));
	if (len > 1 && unit && *unit) {
		shift = 10 * (unsigned)(unit - units + 1);
		digits[--len] = 0;
	}
	err = rs_parse_u64(digits, 0, ~0ULL >> shift, &v);
	if (err)
		return err;
	v <<= shift;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int rs_parse_decimal(const char *s, double min, double max, double *out)
{
	size_t digits = s ? strspn(s, "0123456789") : 0;
	char *end;
	double v;

	/* "12", "12.", "12.5" only: strtod would take "0x1p3", "1e3", "nan" */
	if (!digits || (s[digits] &&
			(s[digits] != '.' ||
			 s[digits + 1 + strspn(s + digits + 1, "0123456789")])))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int rs_parse_seconds(const char *s, double min, double max, double *out)
{
	static const struct {
		const char *suffix;
		double scale;
	} units[] = {{"", 1},	{"s", 1},    {"ms", 1e-3},
		     {"m", 60}, {"min", 60}, {"h", 3600}};
	size_t len = s ? strspn(s, "0123456789.") : 0;
	char number[64];
	double v;
	int err;

	if (!len || len >= sizeof(number))
		return -EINVAL;
	memcpy(number, s, len);
	number[len] = 0;
	err = rs_parse_decimal(number, 0, INFINITY, &v);
	if (err)
		return err;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(s + len, units[i].suffix)) {
			v *= units[i].scale;
			if (v < min || v > max)
				return -ERANGE;
			*out = v;
			return 0;
		}
	}
	return -EINVAL;
}

void rs_rfc3339_now(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	char base[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, size, "%s.%03ldZ", base, ts.tv_nsec / 1000000);
}

__u64 rs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

bool rs_past_deadline(__u64 since, __u64 now, __u64 deadline_ns)
{
	return since && now > since && now - since > deadline_ns;
}

int rs_read_file_at(int dir, const char *path, char *buf, size_t size)
{
	int fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -errno;
	/* a seq_file may hand it over in parts */
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	buf[len] = '\0';
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return 0;
}

int rs_read_file(const char *path, char *buf, size_t size)
{
	return rs_read_file_at(AT_FDCWD, path, buf, size);
}

size_t rs_sorted_find(const void *base, size_t nr, size_t size, const void *key,
		      int (*cmp)(const void *key, const void *element),
		      bool *found)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp(key, (const char *)base + mid * size);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

void *rs_sorted_insert(void **base, size_t *nr, size_t *cap, size_t size,
		       size_t pos)
{
	char *at;

	if (pos > *nr || !rs_grow(base, cap, *nr + 1, size))
		return NULL;
	at = (char *)*base + pos * size;
	memmove(at + size, at, (*nr - pos) * size);
	memset(at, 0, size);
	(*nr)++;
	return at;
}

void rs_sorted_remove(void *base, size_t *nr, size_t size, size_t pos)
{
	char *at = (char *)base + pos * size;

	if (pos >= *nr)
		return;
	memmove(at, at + size, (*nr - pos - 1) * size);
	(*nr)--;
}

bool rs_grow(void **array, size_t *cap, size_t n, size_t size)
{
	size_t bigger = *cap ? *cap * 2 : 64;
	void *moved;

	if (n <= *cap)
		return true;
	if (bigger < n)
		bigger = n;
	moved = realloc(*array, bigger * size);
	if (!moved)
		return false;
	*array = moved;
	*cap = bigger;
	return true;
}

bool rs_key_value(const char *text, const char *key, __u64 *value)
{
	size_t kl = strlen(key);

	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		unsigned long long v;

		if (!strncmp(line, key, kl) && line[kl] == ' ' &&
		    sscanf(line + kl + 1, "%llu", &v) == 1) {
			*value = v;
			return true;
		}
	}
	return false;
}

bool rs_read_gate_due(struct rs_read_gate *g, bool flag, bool all)
{
	bool due = flag || g->read_again || g->read_all || all ||
		   g->snapshots % RS_READ_ALL_EVERY == 0;

	g->snapshots++;
	g->read_all = false;
	g->read_again = flag;
	return due;
}

void rs_sleep_unless(volatile int *flag, double seconds)
{
	__u64 end = rs_now_ns() + (__u64)(seconds * 1e9);

	/* in steps, so that a signal's flag is seen within 50 ms */
	while (!*flag) {
		__u64 now = rs_now_ns();
		__u64 step = 50000000;

		if (now >= end)
			break;
		if (end - now < step)
			step = end - now;
		usleep((useconds_t)(step / 1000));
	}
}

int rs_cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one. */
static int utf8_sequence(const unsigned char *s)
{
	int len;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* A byte to write as \xHH: control characters, DEL, C1 controls. */
static bool escaped_char(const unsigned char *s, int len, int flags)
{
	if (len == 1)
		return s[0] < 0x20 || s[0] == 0x7f ||
		       (s[0] == '\\' && (flags & RS_ESCAPE_BACKSLASH));
	return len == 2 && s[0] == 0xc2 && s[1] < 0xa0; /* U+0080-U+009F */
}

bool rs_name_needs_escape(const char *raw, int flags)
{
	const unsigned char *s = (const unsigned char *)raw;

	while (*s) {
		int len = utf8_sequence(s);

		if (!len || escaped_char(s, len, flags))
			return true;
		s += len;
	}
	return false;
}

const char *rs_escape_name(const char *raw, char *out, size_t size, int flags)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)raw;
	size_t used = 0;

	if (!size)
		return out;
	while (*s) {
		int len = utf8_sequence(s);
		bool escape = !len || escaped_char(s, len, flags);
		int n = escape ? (len ? len : 1) : len;

		if (used + (escape ? 4 * (size_t)n : (size_t)n) >= size)
			break;
		for (int i = 0; i < n; i++) {
			if (escape) {
				out[used++] = '\\';
				out[used++] = 'x';
				out[used++] = hex[s[i] >> 4];
				out[used++] = hex[s[i] & 15];
			} else {
				out[used++] = (char)s[i];
			}
		}
		s += n;
	}
	out[used] = '\0';
	return out;
}

const char *rs_name_shown(const char *raw, char *out, size_t size, int flags)
{
	return rs_name_needs_escape(raw, flags)
		       ? rs_escape_name(raw, out, size, flags)
		       : raw;
}

void rs_path_canonical(const char *in, char *out)
{
	size_t len = 0;

	while (*in) {
		const char *end = strchr(in, '/');
		size_t n = end ? (size_t)(end - in) : strlen(in);

		if (n == 2 && !strncmp(in, "..", 2)) {
			while (len && out[len - 1] != '/')
				len--;
			if (len)
				len--; /* the '/' before it */
		} else if (n && !(n == 1 && in[0] == '.')) {
			out[len++] = '/';
			memcpy(out + len, in, n);
			len += n;
		}
		in += n;
		if (*in == '/')
			in++;
	}
	if (!len)
		out[len++] = '/';
	out[len] = '\0';
}
