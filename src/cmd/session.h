/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A live session, shared by record, top and daemon: the collector, the
 * cgroup resolver and the model, refreshed together.  Views read the model.
 */
#ifndef RS_SESSION_H
#define RS_SESSION_H

#include <stdio.h>
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
	/*
	 * The next refreshes look at every memcg in cgroupfs (record's last:
	 * exact); otherwise idle memcgs are looked at now and then.
	 */
	bool look_at_all;
	__u64 forgotten; /* memcgs expired so far */
	/* the last refresh saw MGLRU switched on or off (info.mglru_enabled) */
	bool mglru_switched;
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
/* If the last refresh saw MGLRU switched, say so and what it means. */
void rs_session_note_mglru(const struct rs_session *s, FILE *f);
/*
 * The path of a memcg id: what the kernel told of memcgs made since the last
 * call first, then cgroupfs.  0 or -ENOENT.
 */
int rs_session_path(struct rs_session *s, __u64 id, char *buf, size_t size);
void rs_session_close(struct rs_session *s);

#endif
