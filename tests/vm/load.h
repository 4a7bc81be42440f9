/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the VM's workload tools (workload.c, labload.c) share: dying with
 * the reason, strict numbers from the command line, a monotonic clock.
 * Each defines LOAD_NAME, its name in messages, before including this.
 */
#ifndef RS_LOAD_H
#define RS_LOAD_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAGE 4096UL

static void die(const char *what)
{
	fprintf(stderr, LOAD_NAME ": %s: %s\n", what, strerror(errno));
	exit(1);
}

static long number(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end || v < 0) {
		fprintf(stderr, LOAD_NAME ": not a number: %s\n", s);
		exit(2);
	}
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
