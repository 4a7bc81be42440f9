/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording's events as a Chrome trace-event JSON file, the format
 * Perfetto's UI (ui.perfetto.dev, "Open trace file") and chrome://tracing
 * read: per task a thread track, one slice per reclaim (direct, memcg,
 * proactive, node) and kswapd run with the MGLRU passes, agings and
 * throttles inside it nested as the kernel ran them, writeback and OOM
 * records as instants, and per memcg counter tracks of the snapshots'
 * rates.  Streamed: the events are written as the recording is read (an
 * rs_event_sink), only a task's slices not yet closed by their reclaim are
 * held.
 */
#ifndef RS_TRACE_VIEW_H
#define RS_TRACE_VIEW_H

#include <jansson.h>
#include <linux/types.h>
#include <stdio.h>
#include "recording.h"

struct rs_trace;

/* A trace written to f: NULL when out of memory. */
struct rs_trace *rs_trace_new(FILE *f);
/* The sink to hand rs_recording_read_events (its ctx is t). */
struct rs_event_sink rs_trace_sink(struct rs_trace *t);
/*
 * After the recording is read: the slices still held, the thread names,
 * the counter tracks and the end of the file.  0, or -1 when a write
 * failed (rs_trace_error says why).
 */
int rs_trace_finish(struct rs_trace *t, const char *name,
		    const struct rs_recording *r);
void rs_trace_free(struct rs_trace *t);
/* The errno of the write (or allocation) that failed; 0 if none did. */
int rs_trace_error(const struct rs_trace *t);

/* How many slices and instants went out (for the caller's notice). */
size_t rs_trace_events(const struct rs_trace *t);
size_t rs_trace_tasks(const struct rs_trace *t);

#endif
