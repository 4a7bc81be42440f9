/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `event` lines of a recording (docs/recording-format.md), written
 * straight into a buffer.  They are the one part of the format written per
 * ring-buffer record rather than per interval, so building a jansson object
 * for each (allocations, a tree, fwrite per token) would make the formatter
 * the consumer's limit; the keys and their order are those the format
 * documents, and the unit tests read every kind back with jansson.
 */
#ifndef RS_EVENT_LINE_H
#define RS_EVENT_LINE_H

#include <stddef.h>
#include "model.h"
#include "run_info.h"

struct rs_event_writer;

struct rs_event_writer *rs_event_writer_new(void);
void rs_event_writer_free(struct rs_event_writer *w);

/*
 * The path an event of cgroup id is shown under: the model's, the
 * unattributed bucket's, or NULL when not known.
 */
const char *rs_event_path(const struct rs_model *m, __u64 cgroup_id);

/*
 * One record as a line ending in '\n' (no NUL), valid until the next call;
 * *len is its length.  NULL if it is not a record we know (or is truncated),
 * or on a failed allocation (errno ENOMEM).
 */
const char *rs_event_line(struct rs_event_writer *w, const struct rs_model *m,
			  const struct rs_run_info *info, const void *rec,
			  size_t size, size_t *len);

#endif
