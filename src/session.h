/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A live session, shared by record, top and daemon: the collector, the
 * cgroup resolver and the model, refreshed together.  Views read the model.
 */
#ifndef RS_SESSION_H
#define RS_SESSION_H

#include "cgroups.h"
#include "cli.h"
#include "model.h"
#include "run_info.h"

struct rs_session {
	struct rs_collector *collector;
	struct rs_cgroups *cgroups; /* NULL: no memory hierarchy mounted */
	struct rs_model *model;
	struct rs_run_info info;
	double expire_after; /* s a gone memcg is kept; 0: for the whole run */
	bool gauges;	     /* also read memory.current/max and PSI */
	__u64 forgotten;     /* memcgs expired so far */
};

/*
 * Open everything, printing what failed and what to do; 0, or the exit
 * code (1).  The model starts with a snapshot of the memcgs' own counters.
 */
int rs_session_open(struct rs_session *s, const struct rs_collector_opts *o);
/* Seconds since the session started, on the BPF clock. */
double rs_session_time(const struct rs_session *s);
/* One snapshot: kernel counts, paths, the memcgs' own counters, expiry. */
int rs_session_refresh(struct rs_session *s);
void rs_session_close(struct rs_session *s);

#endif
