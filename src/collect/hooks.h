/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which BPF program serves which hook, and which variant fits the running
 * kernel.  Programs in the same slot are alternatives for one attach point;
 * the first whose pattern matches the kernel's BTF is loaded, with its
 * copies "<prog>_2" ... "<prog>_5" (see RS_PROGS in bpf/common.bpf.h).
 */
#ifndef RS_HOOKS_H
#define RS_HOOKS_H

#include <linux/types.h>
#include <stdbool.h>
#include "rs_common.h"

/* An attach point: RS_SLOTS' row. */
struct rs_slot_info {
	enum rs_hook hook;
	const char
		*section;   /* "fentry/<target>", "fexit/..." or "tp_btf/..." */
	const char *target; /* kernel function or tracepoint */
	bool tracepoint;    /* tp_btf (else fentry/fexit) */
};

extern const struct rs_slot_info rs_slots[RS_NR_SLOTS];

/*
 * X(prog, slot, pattern): the BPF programs (RS_PROGS in bpf/), each with
 * the slot it is attached to (programs of one slot are alternatives, tried
 * in this order) and the pattern the kernel's BTF must match for it.
 * Function patterns are parameter names, matched by name because positions
 * moved between kernels (see the compat notes in bpf/compat.bpf.h);
 * tracepoint patterns are parameter types from btf_trace_<name>.
 */
#define RS_ULONG "long unsigned int"
#define RS_PROG_SPECS(X)                                                       \
	X(rs_pass_enter, PASS_ENTER, "lruvec,sc")                              \
	X(rs_pass_exit, PASS_EXIT, "lruvec,sc")                                \
	X(rs_evict_exit_v2, EVICT_EXIT, "nr_to_scan,lruvec,sc,swappiness")     \
	X(rs_evict_exit_v1, EVICT_EXIT, "lruvec,sc,swappiness")                \
	X(rs_isolate_exit, ISOLATE_EXIT,                                       \
	  "nr_to_scan,lruvec,sc,swappiness,list,isolated,isolate_type,"        \
	  "isolate_scanned")                                                   \
	X(rs_evictable_exit, EVICTABLE_EXIT, "lruvec,swappiness")              \
	X(rs_protection_exit, PROTECTION_EXIT, "memcg,sc,scan")                \
	X(rs_abort_exit, ABORT_EXIT, "lruvec,sc")                              \
	X(rs_one_enter, ONE_ENTER, "lruvec,sc")                                \
	X(rs_one_exit, ONE_EXIT, "lruvec,sc")                                  \
	X(rs_rotate, ROTATE, "lruvec,op")                                      \
	X(rs_oom_exit, OOM_EXIT, "memcg,gfp_mask,order")                       \
	X(rs_aging_enter, AGING_ENTER, "lruvec,seq,*,force_scan")              \
	X(rs_aging_exit, AGING_EXIT, "lruvec,seq,*,force_scan")                \
	X(rs_min_seq_enter, MIN_SEQ_ENTER, "lruvec,*")                         \
	X(rs_min_seq_exit, MIN_SEQ_EXIT, "lruvec,*")                           \
	X(rs_writeback, WRITEBACK, "nr_taken,pgdat,sc,stat")                   \
	X(rs_flusher, FLUSHER, "reason")                                       \
	X(rs_classic_enter, CLASSIC_ENTER, "lruvec,sc")                        \
	X(rs_classic_exit, CLASSIC_EXIT, "lruvec,sc")                          \
	/* the hook is the shadow's test: without it the others count nothing  \
	 */                                                                    \
	X(rs_recent_exit, RECENT_EXIT, "shadow,lruvec,token,workingset,...")   \
	X(rs_refault_enter, REFAULT_ENTER, "folio,shadow")                     \
	X(rs_refault_exit, REFAULT_EXIT, "folio,shadow")                       \
	X(rs_balance_enter, BALANCE_ENTER, "pgdat,order,highest_zoneidx")      \
	X(rs_balance_exit, BALANCE_EXIT, "pgdat,order,highest_zoneidx")        \
	X(rs_direct_begin_v2, DIRECT_BEGIN, "gfp_t,int,struct mem_cgroup *")   \
	X(rs_direct_begin_v1, DIRECT_BEGIN, "int,gfp_t")                       \
	X(rs_direct_end, DIRECT_END, RS_ULONG ",...")                          \
	X(rs_memcg_begin_v2, MEMCG_BEGIN, "gfp_t,int,struct mem_cgroup *")     \
	X(rs_memcg_begin_v1, MEMCG_BEGIN, "int,gfp_t")                         \
	X(rs_memcg_end, MEMCG_END, RS_ULONG ",...")                            \
	X(rs_node_begin, NODE_BEGIN, "int,int,gfp_t")                          \
	X(rs_node_end, NODE_END, RS_ULONG ",...")                              \
	X(rs_lru_isolate, ISOLATE,                                             \
	  "int,int," RS_ULONG "," RS_ULONG "," RS_ULONG "," RS_ULONG ",int")   \
	X(rs_lru_shrink_inactive, SHRINK_INACTIVE,                             \
	  "int," RS_ULONG "," RS_ULONG ",struct reclaim_stat *,int,int")       \
	X(rs_lru_shrink_active, SHRINK_ACTIVE,                                 \
	  "int," RS_ULONG "," RS_ULONG "," RS_ULONG ",...")                    \
	X(rs_throttled, THROTTLED, "int,int,int,int")                          \
	X(rs_kswapd_wake, KSWAPD_WAKE, "int,int,int")                          \
	X(rs_kswapd_sleep, KSWAPD_SLEEP, "int")                                \
	X(rs_slab_end_v2, SLAB_END,                                            \
	  "struct shrinker *,int,int,long int,long int,long int,"              \
	  "struct mem_cgroup *")                                               \
	X(rs_slab_end_v1, SLAB_END, "struct shrinker *,int,int,...")           \
	X(rs_cgroup_mkdir, CGROUP_MKDIR, "struct cgroup *,...")                \
	X(rs_cgroup_rmdir, CGROUP_RMDIR, "struct cgroup *,...")

struct rs_prog_spec {
	const char *prog; /* program name in the skeleton */
	enum rs_slot slot;
	const struct rs_slot_info *at; /* rs_slots[slot] */
	const char *pattern; /* parameter names (functions) or types (tp) */
};

/* per-spec arrays of the collector are sized by this (a static assert in
 * hooks.c keeps the table within it) */
#define RS_MAX_PROG_SPECS 64

extern const struct rs_prog_spec rs_prog_specs[];
extern const int rs_nr_prog_specs;

/*
 * Prototypes of a hook's function that some kernels have and that no
 * program reads, because they do not carry what the hook's fields need:
 * there the hook is missing, with why, where a prototype nobody knows
 * fails it.
 */
struct rs_unread_proto {
	enum rs_hook hook;
	const char *pattern; /* as rs_prog_spec's */
	const char *why;
};

extern const struct rs_unread_proto rs_unread_protos[];
extern const int rs_nr_unread_protos;

#endif
