/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record's output, a file or standard output, written so that a reader who
 * never comes or stops reading cannot hold the run forever.  Opening a FIFO
 * waits for its reader, and a write to a full pipe (or terminal, or socket)
 * waits for room, as before, for as long as the run goes on: a slow reader
 * slows the recording, and the kernel's counts keep the totals exact.  Once
 * the run is to stop (the stop flag, the deadline, rs_output_finishing),
 * such a wait ends: an open at once, a write after the reader took nothing
 * for RS_OUTPUT_STOP_GRACE_S.
 */
#ifndef RS_OUTPUT_H
#define RS_OUTPUT_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How long a reader who takes nothing is waited for once stopping. */
#define RS_OUTPUT_STOP_GRACE_S 2

struct rs_output {
	FILE *file; /* what to write to, once open */
	/* set by the caller before rs_output_open */
	volatile int *stop; /* the run is to stop once it is set */
	__u64 deadline_ns;  /* rs_now_ns() when it is to stop; 0: none */
	/* what happened */
	bool gave_up;	  /* a write waited out the grace: the rest is lost */
	size_t unwritten; /* bytes of the write that gave up not written */
	/* the output's own */
	int fd;
	bool own_fd;	    /* opened here (not standard output): closed here */
	bool may_block;	    /* not a regular file: a write waits for room */
	bool finishing;	    /* the run is over: the end is being written */
	__u64 stop_seen_ns; /* when a wait first saw the run stopping */
	__u64 progress_ns;  /* when the last write began or moved bytes */
};

/* rs_output_open's return when the run stopped before a reader came. */
#define RS_OUTPUT_NO_READER 1

/*
 * Open path for writing (created, truncated), or standard output when path
 * is NULL: 0, RS_OUTPUT_NO_READER (path is a FIFO no reader opened before
 * the run was to stop), or -errno.
 */
int rs_output_open(struct rs_output *out, const char *path);
/* The run is over: from here on a stalled reader is waited for the grace. */
void rs_output_finishing(struct rs_output *out);
/* Flush, then close: 0 or an errno (ETIMEDOUT: gave up on the reader). */
int rs_output_close(struct rs_output *out);

#endif
