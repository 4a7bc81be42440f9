// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the memcgs made and removed while we run (include/cgnames.h).
 * The path the tracepoints pass is the hierarchy's own, not the one our
 * cgroup namespace and mount show, so the record holds the parent's id and
 * the last component; userspace joins them to the parent's path as it sees
 * it.
 */
#include "common.bpf.h"
#include "cgnames.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RS_CGNAMES_ENTRIES);
	__type(key, __u64);
	__type(value, struct rs_cgroup_name);
} rs_names SEC(".maps");

/*
 * Only cgroups that have a memory css are memcgs: in cgroup v2, those whose
 * parent enables "memory"; in v1, those of the memory hierarchy (mkdir fires
 * for every hierarchy).
 */
static __always_inline bool has_memcg(struct cgroup *cgrp)
{
	struct cgroup_subsys_state *css = NULL;
	int memory;

	if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
		return false;
	memory = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (memory < 0 || memory >= 64)
		return false;
	bpf_probe_read_kernel(
		&css, sizeof(css),
		(void *)cgrp + bpf_core_field_offset(struct cgroup, subsys) +
			memory * sizeof(css));
	return css != NULL;
}

static __always_inline void note_cgroup(struct cgroup *cgrp, bool removed)
{
	struct rs_cgroup_name *known, fresh = {};
	__u64 id;

	if (!has_memcg(cgrp))
		return;
	id = BPF_CORE_READ(cgrp, kn, id);
	known = bpf_map_lookup_elem(&rs_names, &id);
	if (known) { /* made since the last drain, removed now */
		known->removed |= removed;
		return;
	}
	fresh.parent_id = BPF_CORE_READ(cgrp, self.parent, cgroup, kn, id);
	fresh.removed = removed;
	bpf_probe_read_kernel_str(fresh.name, sizeof(fresh.name),
				  BPF_CORE_READ(cgrp, kn, name));
	if (bpf_map_update_elem(&rs_names, &id, &fresh, BPF_ANY))
		rs_stat_add(RS_STAT_NAMES_FULL, 1);
}

RS_PROGS("tp_btf/cgroup_mkdir", rs_cgroup_mkdir, RS_SLOT_CGROUP_MKDIR,
	 note_cgroup(cgrp, false), struct cgroup *cgrp, const char *path)
RS_PROGS("tp_btf/cgroup_rmdir", rs_cgroup_rmdir, RS_SLOT_CGROUP_RMDIR,
	 note_cgroup(cgrp, true), struct cgroup *cgrp, const char *path)
