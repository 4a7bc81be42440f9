/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup ids to paths.  The id of a memcg is the inode number of its
 * directory in the hierarchy that holds the memory controller: cgroup v2
 * where it has "memory" in cgroup.controllers, else the v1 memory mount.
 */
#ifndef RS_CGROUPS_H
#define RS_CGROUPS_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include "model.h"

/*
 * Room for a memcg's path: a path under the hierarchy (up to PATH_MAX)
 * after its mount point, and a file name after it.  Cgroup paths can be
 * that long; a shorter buffer would cut them and read the wrong file.
 */
#define RS_CG_PATH_MAX (4096 + 512)

struct rs_cgroups;

/* Find the memory hierarchy; NULL (and errno) if there is none. */
struct rs_cgroups *rs_cgroups_open(void);
void rs_cgroups_close(struct rs_cgroups *cg);
const char *rs_cgroups_root(const struct rs_cgroups *cg);
int rs_cgroups_version(const struct rs_cgroups *cg);

/* Look up one id (rescanning the tree, at most once a second, if it is
 * new); 0 or -ENOENT. */
int rs_cgroups_path(struct rs_cgroups *cg, __u64 id, char *buf, size_t size);
/*
 * What the kernel told of a memcg made or removed (rs_collector_names): its
 * path is the parent's as we see it plus name, kept until one refresh after
 * its removal.  Ignored when the parent is outside our view.
 */
void rs_cgroups_learn(struct rs_cgroups *cg, __u64 id, __u64 parent_id,
		      const char *name, bool removed);
/* The id of a path relative to the hierarchy root ("/a/b"); 0 or -errno. */
int rs_cgroups_id(const struct rs_cgroups *cg, const char *path, __u64 *id);

/*
 * Bring the model's paths up to date: resolve new ids, and mark memcgs
 * whose directory is gone (their last path is kept).
 */
/* all: look at every memcg in cgroupfs, not only the due ones (cgroups.c) */
void rs_cgroups_update_model(struct rs_cgroups *cg, struct rs_model *m,
			     bool all);

/*
 * The memcgs' own counters (memory.stat workingset_refault_*, oom kills):
 * baseline every memcg at the start of a run, then sample the model's.
 * These and the gauges are memcg_files.c's.
 */
void rs_cgroups_baseline(struct rs_cgroups *cg, struct rs_model *m);
void rs_cgroups_sample(struct rs_cgroups *cg, struct rs_model *m, bool all);
/* memory.current, memory.max and PSI of the model's live memcgs (v1:
 * usage_in_bytes and limit_in_bytes, no PSI). */
void rs_cgroups_gauges(struct rs_cgroups *cg, struct rs_model *m);

#endif
