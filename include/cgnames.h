/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup naming probe (bpf/cgnames.bpf.c): the memcgs made and removed while
 * we run, from the cgroup_mkdir and cgroup_rmdir tracepoints, so that a memcg
 * that lives for less than one scan of cgroupfs still gets its path.  Kept
 * in a hash map (rs_names, cgroup id -> struct rs_cgroup_name) that the
 * collector drains at each refresh, not on the ring: these must not be lost
 * to a full ring buffer.  Needs rs_common.h first.
 */
#ifndef RS_CGNAMES_H
#define RS_CGNAMES_H

#define RS_CGROUP_NAME_LEN 256 /* a cgroup's own name (NAME_MAX + 1) */
#define RS_CGNAMES_ENTRIES 16384

struct rs_cgroup_name {
	__u64 parent_id; /* cgroup id of the parent directory */
	__u8 removed;	 /* cgroup_rmdir seen */
	__u8 pad[7];
	char name[RS_CGROUP_NAME_LEN]; /* the last component of the path */
};

#endif
