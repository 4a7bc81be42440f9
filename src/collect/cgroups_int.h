/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside struct rs_cgroups, for its two halves: cgroups.c resolves ids to
 * paths, memcg_files.c reads the memcgs' own files (counters and gauges).
 * Private to src/collect/.
 */
#ifndef RS_CGROUPS_INT_H
#define RS_CGROUPS_INT_H

#include "cgroups.h"

struct id_path {
	__u64 id;
	char *path;
};

/* A memcg made while we run, named by the kernel (rs_cgroups_learn). */
struct born {
	__u64 id;
	char *path;
	unsigned int removed_at; /* refresh that learned of its rmdir; 0: no */
};

/* The memcg files whose counters we read (memcg_files.c: cg_files). */
enum rs_cg_file { RS_CG_STAT, RS_CG_OOM, RS_CG_NR_FILES };

#define RS_CG_ALL_FILES ((1u << RS_CG_NR_FILES) - 1)
#define RS_CG_PARENT_VALID (1u << RS_CG_NR_FILES) /* stamp.parent */

/* Kernel-wide counts (one per enum rs_cg_file) at a model time. */
struct vm_mark {
	double t;
	__u64 count[RS_CG_NR_FILES];
};

/*
 * The kernel-wide counts from some while before a memcg's files were read;
 * a bit of `valid` per file.
 */
struct stamp {
	__u64 id;
	__u64 count[RS_CG_NR_FILES];
	__u64 parent; /* its parent's subtree refaults, read just before */
	unsigned valid;
};

#define RS_CG_MARKS 64

struct rs_cgroups {
	char root[256];
	int version;
	__u64 last_scan_ns;
	struct id_path *map; /* from the last scan, sorted by id */
	size_t nr, cap;
	struct born *born; /* unsorted: few, and short-lived */
	size_t nr_born, cap_born;
	unsigned int refresh; /* rs_cgroups_update_model calls */
	/* the kernel-wide counts of recent refreshes (ring): see RS_CG_LAG_S */
	struct vm_mark marks[RS_CG_MARKS];
	size_t nr_marks, next_mark;
	struct stamp *stamps; /* sorted by id */
	size_t nr_stamps, cap_stamps;
	struct stamp *spare; /* the next refresh's, kept to save an alloc */
	size_t cap_spare;
};

/* Walk the hierarchy again: every memcg's id and path.  0 or -EIO. */
int rs_cg_rescan(struct rs_cgroups *cg);
/*
 * The directory of a memcg, by its path relative to the root; false (and
 * nothing read from it) when it does not fit in RS_CG_PATH_MAX.
 */
bool rs_cg_dir_of(const struct rs_cgroups *cg, const char *rel, char *buf,
		  size_t size);

#endif
