// SPDX-License-Identifier: GPL-2.0
/*
 * MGLRU's state per lruvec (include/tiers.h): a cgroup iterator that
 * writes, for every memcg below the root it was attached to and every
 * node, the tier counters read_ctrl_pos() adds up and the generations
 * lru_gen lists.  They are state, not events (the refault side moves the
 * tiers without any reclaim), so they are read as they stand whenever
 * userspace reads the iterator: nothing runs on the reclaim path for them.
 * An object of its own: a kernel without cgroup iterators (before v6.1) or
 * without MGLRU loses this view only.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "rs_common.h"
#include "tiers.h"
#include "compat.bpf.h"

_Static_assert(RS_TIER_NR_GENS == RS_MAX_NR_GENS,
	       "one count of generations for records and events");

/* Set by userspace before load: the nodes a memcg has lruvecs on. */
const volatile __u32 rs_nr_nodes = 1;

/* The most nodes read per memcg (bounds the loop for the verifier). */
#define RS_TIER_MAX_NODES 64

/* Set by userspace before each read: stamped on the records it writes. */
__u64 rs_tier_walk;
/* Records the map could not take (full): lruvecs not read. */
__u64 rs_tier_lost;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RS_TIER_MAX_LRUVECS);
	/* room for as many lruvecs as there are, not the bound */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct rs_tier_key);
	__type(value, struct rs_tier_record);
} rs_tier_records SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rs_tier_record);
} rs_tier_scratch SEC(".maps");

static __always_inline __u64 read_long(const void *lrugen, __u32 offset,
				       __u32 index)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), lrugen + offset + index * 8);
	return v;
}

/* One lruvec's counters into rec; false where it has no lrugen. */
static __always_inline bool read_tiers(const void *lrugen,
				       const struct rs_tier_layout *l,
				       struct rs_tier_record *rec)
{
	__u32 tiers = l->avg_size / 8 / 2;
	__u32 per_type_protected = 0, per_type = tiers, slots;
	__u64 min_seq[2];

	if (!tiers)
		return false;
	slots = l->evicted_size / 8 / 2 / tiers;
	if (!slots)
		return false;
	per_type_protected = l->protected_size / 8 / 2 / slots;
	if (bpf_probe_read_kernel(
		    min_seq, sizeof(min_seq),
		    lrugen + bpf_core_field_offset(struct lru_gen_folio,
						   min_seq)))
		return false;
	rec->nr_tiers = tiers < RS_MAX_NR_TIERS ? tiers : RS_MAX_NR_TIERS;
	for (__u32 type = 0; type < 2; type++) {
		__u32 slot = min_seq[type] % slots;

		for (__u32 tier = 0; tier < RS_MAX_NR_TIERS; tier++) {
			__u64 *v = rec->v[type][tier];
			__u32 base = (slot * 2 + type) * per_type;

			if (tier >= tiers)
				break;
			v[RS_TIER_AVG_REFAULTED] = read_long(
				lrugen, l->avg_refaulted, type * tiers + tier);
			v[RS_TIER_AVG_TOTAL] = read_long(lrugen, l->avg_total,
							 type * tiers + tier);
			v[RS_TIER_REFAULTED] =
				read_long(lrugen, l->refaulted, base + tier);
			v[RS_TIER_EVICTED] =
				read_long(lrugen, l->evicted, base + tier);
			/* with one fewer, the array starts at tier 1 */
			if (per_type_protected == per_type)
				v[RS_TIER_PROTECTED] = read_long(
					lrugen, l->protected,
					(slot * 2 + type) * per_type_protected +
						tier);
			else if (tier > 0 && per_type_protected + 1 == per_type)
				v[RS_TIER_PROTECTED] = read_long(
					lrugen, l->protected,
					(slot * 2 + type) * per_type_protected +
						tier - 1);
			else
				v[RS_TIER_PROTECTED] = 0;
		}
	}
	return true;
}

/*
 * One lruvec's generations into rec, as lru_gen_seq_show() reads them;
 * false where the kernel's MAX_NR_GENS is not the records' (seqs would
 * land in the wrong slots) or lrugen lacks a field.
 */
static __always_inline bool read_gens(struct lruvec *lruvec,
				      struct rs_tier_record *rec)
{
	if (!bpf_core_field_exists(lruvec->lrugen.max_seq) ||
	    !bpf_core_field_exists(lruvec->lrugen.min_seq) ||
	    !bpf_core_field_exists(lruvec->lrugen.timestamps) ||
	    !rs_lrugen_gens_fit(lruvec))
		return false;
	/* min before max: see include/tiers.h */
	rec->min_seq[0] = BPF_CORE_READ(lruvec, lrugen.min_seq[0]);
	rec->min_seq[1] = BPF_CORE_READ(lruvec, lrugen.min_seq[1]);
	rec->max_seq = BPF_CORE_READ(lruvec, lrugen.max_seq);
	for (int gen = 0; gen < RS_TIER_NR_GENS; gen++) {
		rec->birth[gen] = BPF_CORE_READ(lruvec, lrugen.timestamps[gen]);
		for (int type = 0; type < 2; type++)
			rec->pages[gen][type] =
				(__u64)rs_lrugen_pages(lruvec, gen, type);
	}
	/* the births' age is jiffies minus birth, as lru_gen computes it */
	rec->jiffies = bpf_jiffies64();
	rec->mono_ns = bpf_ktime_get_ns();
	return true;
}

SEC("iter/cgroup")
int rs_tiers(struct bpf_iter__cgroup *ctx)
{
	int id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	struct cgroup *cgrp = ctx->cgroup;
	struct cgroup_subsys_state *css;
	struct rs_tier_layout layout;
	struct rs_tier_record *rec;
	const void *memcg;
	__u32 zero = 0;
	bool tiers;

	if (!cgrp || id < 0 || id >= CGROUP_SUBSYS_COUNT)
		return 0;
	css = cgrp->subsys[id];
	/* on cgroup v2, a cgroup without the memory controller has none */
	if (!css)
		return 0;
	tiers = rs_tier_layout(&layout);
	rec = bpf_map_lookup_elem(&rs_tier_scratch, &zero);
	if (!rec)
		return 0;
	memcg = (const void *)css -
		bpf_core_field_offset(struct mem_cgroup, css);
	for (__u32 nid = 0; nid < RS_TIER_MAX_NODES; nid++) {
		const void *pn = NULL;
		struct lruvec *lruvec;
		bool tiers_read;

		if (nid >= rs_nr_nodes)
			break;
		/* mem_cgroup.nodeinfo[]: a flexible array of pointers */
		bpf_probe_read_kernel(
			&pn, sizeof(pn),
			memcg +
				bpf_core_field_offset(struct mem_cgroup,
						      nodeinfo) +
				nid * sizeof(pn));
		if (!pn)
			continue;
		lruvec = (struct lruvec *)(pn +
					   bpf_core_field_offset(
						   struct mem_cgroup_per_node,
						   lruvec));
		__builtin_memset(rec, 0, sizeof(*rec));
		rec->cgid = cgrp->kn->id;
		rec->node = nid;
		tiers_read = tiers &&
			     read_tiers((const void *)lruvec +
						bpf_core_field_offset(
							struct lruvec, lrugen),
					&layout, rec);
		rec->gens_known = read_gens(lruvec, rec);
		if (tiers_read || rec->gens_known) {
			struct rs_tier_key key = {.cgid = rec->cgid,
						  .node = nid};

			rec->walk = rs_tier_walk;
			if (bpf_map_update_elem(&rs_tier_records, &key, rec,
						BPF_ANY))
				__sync_fetch_and_add(&rs_tier_lost, 1);
		}
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
