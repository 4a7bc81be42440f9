// SPDX-License-Identifier: GPL-2.0
/* Strict number parsing: what the command line accepts and refuses. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

static void parse_u64(void **state)
{
	static const char *const bad[] = {
		"",   "-1",   "+1",  " 1",  "1 ",
		"1x", "0x10", "1.0", "1e3", "18446744073709551616"};
	__u64 v = 7;

	(void)state;
	assert_int_equal(rs_parse_u64("42", 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(rs_parse_u64("18446744073709551615", 0, ~0ULL, &v), 0);
	assert_true(v == ~0ULL);
	assert_int_equal(rs_parse_u64("101", 0, 100, &v), -ERANGE);
	assert_int_equal(rs_parse_u64("0", 1, 100, &v), -ERANGE);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 7;
		assert_int_not_equal(rs_parse_u64(bad[i], 0, ~0ULL, &v), 0);
		assert_int_equal(v, 7); /* untouched on error */
	}
	assert_int_equal(rs_parse_u64(NULL, 0, 1, &v), -EINVAL);
}

static void parse_seconds(void **state)
{
	static const char *const bad[] = {"",	   "-1",  "1x",	 "nan",
					  "inf",   "1 s", "s",	 ".5",
					  "1e999", "0x1", "1e3", "1.5.5"};
	double v = 0;

	(void)state;
	assert_int_equal(rs_parse_seconds("1.5", 0, 10, &v), 0);
	assert_true(v == 1.5);
	assert_int_equal(rs_parse_seconds("500ms", 0, 10, &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(rs_parse_seconds("2m", 0, 1000, &v), 0);
	assert_true(v == 120);
	assert_int_equal(rs_parse_seconds("1h", 0, 4000, &v), 0);
	assert_true(v == 3600);
	assert_int_equal(rs_parse_seconds("1h", 0, 3599, &v), -ERANGE);
	assert_int_equal(rs_parse_seconds("0.05", 0.1, 10, &v), -ERANGE);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_not_equal(rs_parse_seconds(bad[i], 0, 1e9, &v), 0);
}

static void parse_decimal(void **state)
{
	static const char *const bad[] = {"",	   ".5",   "-1",  "+1",
					  "1e3",   "0x10", "nan", "inf",
					  "1.5.5", "1 ",   "1,5", "1e999"};
	double v = 0;

	(void)state;
	assert_int_equal(rs_parse_decimal("8.3", 0, 100, &v), 0);
	assert_true(v == 8.3);
	assert_int_equal(rs_parse_decimal("12.", 0, 100, &v), 0);
	assert_true(v == 12);
	assert_int_equal(rs_parse_decimal("100.5", 0, 100, &v), -ERANGE);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_not_equal(rs_parse_decimal(bad[i], 0, 1e300, &v), 0);
}

static void parse_size(void **state)
{
	static const char *const bad[] = {
		"",    "K",	 "-4K",	 "4 K", "4KK",	       "4T",
		"4k ", "0x1000", "4.5M", "4Ki", "17179869184G"};
	__u64 v = 0;

	(void)state;
	assert_int_equal(rs_parse_size("4096", 0, ~0ULL, &v), 0);
	assert_true(v == 4096);
	assert_int_equal(rs_parse_size("64K", 0, ~0ULL, &v), 0);
	assert_true(v == 64 << 10);
	assert_int_equal(rs_parse_size("64k", 0, ~0ULL, &v), 0);
	assert_true(v == 64 << 10);
	assert_int_equal(rs_parse_size("4MiB", 0, ~0ULL, &v), 0);
	assert_true(v == 4 << 20);
	assert_int_equal(rs_parse_size("1G", 0, ~0ULL, &v), 0);
	assert_true(v == 1ULL << 30);
	assert_int_equal(rs_parse_size("2G", 0, 1ULL << 30, &v), -ERANGE);
	assert_int_equal(rs_parse_size("1K", 4096, ~0ULL, &v), -ERANGE);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_not_equal(rs_parse_size(bad[i], 0, ~0ULL, &v), 0);
}

/*
 * The snapshot that clears the programs' change flag may read the maps
 * before the last program's adds land (src/collect/collector_maps.c): the next
 * one must read them too, and only then may snapshots skip the maps.
 */
/* undo rs_escape_name: \xHH to the byte */
static void unescape(const char *in, char *out)
{
	while (*in) {
		unsigned int byte;

		if (in[0] == '\\' && in[1] == 'x' &&
		    sscanf(in + 2, "%2x", &byte) == 1) {
			*out++ = (char)byte;
			in += 4;
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
}

static void escape_name(void **state)
{
	static const char *const names[] = {
		"/plain/name-1.slice",
		"/bad\xff",
		"/\x1b[31mred\x1b[0m",
		"/back\\slash\\x41",
		"/c1\xc2\x9b[2J",
		"/caf\xc3\xa9",
		"/overlong\xc0\xaf",
		"/surrogate\xed\xa0\x80",
		"/cut\xe2\x82",
		"/emoji\xf0\x9f\x98\x80",
		"/del\x7f",
	};
	char out[256], back[256];

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		rs_escape_name(names[i], out, sizeof(out), RS_ESCAPE_BACKSLASH);
		/* printable UTF-8 only: no byte below 0x20, no DEL, no C1 */
		for (const unsigned char *c = (const void *)out; *c; c++)
			assert_true(*c >= 0x20 && *c != 0x7f &&
				    !(c[0] == 0xc2 && c[1] < 0xa0));
		unescape(out, back);
		assert_string_equal(back, names[i]);
		assert_int_equal(
			rs_name_needs_escape(names[i], RS_ESCAPE_BACKSLASH),
			strcmp(out, names[i]) != 0);
	}
	assert_string_equal(rs_escape_name("/bad\xff", out, sizeof(out),
					   RS_ESCAPE_BACKSLASH),
			    "/bad\\xff");
	assert_string_equal(rs_escape_name("/caf\xc3\xa9", out, sizeof(out), 0),
			    "/caf\xc3\xa9");
	/* without the flag (a recording's name for a terminal) \ stays */
	assert_string_equal(rs_escape_name("/a\\x1b\x1b", out, sizeof(out), 0),
			    "/a\\x1b\\x1b");
	/* cut short at a whole escape, never in the middle of one */
	assert_string_equal(rs_escape_name("/\xff\xff", out, 9, 0), "/\\xff");
}

static void path_canonical(void **state)
{
	static const char *const cases[][2] = {
		{"/a/b", "/a/b"},
		{"//a//b/", "/a/b"},
		{"/./a/./b/.", "/a/b"},
		{"/a/../a/b", "/a/b"},
		{"/a/b/..", "/a"},
		{"/..", "/"},
		{"/../../a", "/a"},
		{"", "/"},
		{"/", "/"},
		{"a/b", "/a/b"},
		{"/a/..b/.c", "/a/..b/.c"},
		{"/x/y/../../z", "/z"},
	};
	char out[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rs_path_canonical(cases[i][0], out);
		assert_string_equal(out, cases[i][1]);
	}
}

static void read_gate(void **state)
{
	struct rs_read_gate g = {0};

	(void)state;
	assert_true(rs_read_gate_due(&g, false, false)); /* the first reads */
	assert_false(rs_read_gate_due(&g, false, false));
	assert_true(rs_read_gate_due(&g, true, false));	 /* a program ran */
	assert_true(rs_read_gate_due(&g, false, false)); /* once more */
	assert_false(rs_read_gate_due(&g, false, false));
	assert_true(rs_read_gate_due(&g, true, false));
	assert_true(rs_read_gate_due(&g, true, false)); /* still running */
	assert_true(rs_read_gate_due(&g, false, false));
	assert_false(rs_read_gate_due(&g, false, false));
	assert_true(rs_read_gate_due(&g, false, true)); /* record's last */
	assert_false(rs_read_gate_due(&g, false, false));
	g.read_all = true; /* a failed read */
	assert_true(rs_read_gate_due(&g, false, false));
	assert_false(rs_read_gate_due(&g, false, false));
	/* every RS_READ_ALL_EVERY-th reads whatever the flag says */
	while (g.snapshots % RS_READ_ALL_EVERY)
		assert_false(rs_read_gate_due(&g, false, false));
	assert_true(rs_read_gate_due(&g, false, false));
	assert_false(rs_read_gate_due(&g, false, false));
}

static int int_cmp(const void *key, const void *element)
{
	int a = *(const int *)key, b = *(const int *)element;

	return (a > b) - (a < b);
}

/* The sorted-array helper the model and the resolver keep theirs with:
 * inserts in any order stay sorted, found where they are, removable. */
static void sorted_arrays(void **state)
{
	int *v = NULL, *slot;
	size_t nr = 0, cap = 0, pos;
	bool found;

	(void)state;
	assert_int_equal(
		rs_sorted_find(v, nr, sizeof(*v), &(int){3}, int_cmp, &found),
		0);
	assert_false(found);
	for (int i = 0; i < 1000; i++) {
		int key = (i * 7919) % 1000; /* every number once, shuffled */

		pos = rs_sorted_find(v, nr, sizeof(*v), &key, int_cmp, &found);
		assert_false(found);
		slot = rs_sorted_insert((void **)&v, &nr, &cap, sizeof(*v),
					pos);
		assert_non_null(slot);
		assert_int_equal(*slot, 0); /* zeroed */
		*slot = key;
	}
	assert_int_equal(nr, 1000);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(v[i], i);
	pos = rs_sorted_find(v, nr, sizeof(*v), &(int){500}, int_cmp, &found);
	assert_true(found);
	assert_int_equal(pos, 500);
	rs_sorted_remove(v, &nr, sizeof(*v), pos);
	assert_int_equal(nr, 999);
	assert_int_equal(v[500], 501);
	pos = rs_sorted_find(v, nr, sizeof(*v), &(int){500}, int_cmp, &found);
	assert_false(found);
	assert_int_equal(pos, 500);
	/* out of range: nothing happens */
	assert_null(
		rs_sorted_insert((void **)&v, &nr, &cap, sizeof(*v), nr + 1));
	rs_sorted_remove(v, &nr, sizeof(*v), nr);
	assert_int_equal(nr, 999);
	free(v);
}

/* The HTTP guard's test of a client's wait (src/cmd/http_guard.c). */
static void past_deadline(void **state)
{
	const __u64 second = 1000000000ULL, deadline = 10 * second;

	(void)state;
	assert_false(rs_past_deadline(0, 100 * second, deadline));
	assert_false(rs_past_deadline(95 * second, 100 * second, deadline));
	assert_false(rs_past_deadline(90 * second, 100 * second, deadline));
	assert_true(rs_past_deadline(89 * second, 100 * second, deadline));
	/* stored after the sweeper read its clock: just served, not late
	 * (the unsigned difference wrapped, and wrk saw a connection cut) */
	assert_false(
		rs_past_deadline(100 * second + 1, 100 * second, deadline));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_u64),
		cmocka_unit_test(sorted_arrays),
		cmocka_unit_test(parse_seconds),
		cmocka_unit_test(parse_decimal),
		cmocka_unit_test(parse_size),
		cmocka_unit_test(read_gate),
		cmocka_unit_test(escape_name),
		cmocka_unit_test(path_canonical),
		cmocka_unit_test(past_deadline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
