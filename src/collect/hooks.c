// SPDX-License-Identifier: GPL-2.0
#include "hooks.h"

#define F(p, h, s, t, pat)                                                     \
	{                                                                      \
		p, RS_HOOK_##h, RS_SLOT_##s, t, false, pat                     \
	}
#define T(p, h, s, t, pat)                                                     \
	{                                                                      \
		p, RS_HOOK_##h, RS_SLOT_##s, t, true, pat                      \
	}
#define ULONG "long unsigned int"

/*
 * Function patterns are parameter names, matched by name because positions
 * moved between kernels (see the compat notes in bpf/compat.bpf.h);
 * tracepoint patterns are parameter types from btf_trace_<name>.
 */
const struct rs_prog_spec rs_prog_specs[] = {
	F("rs_pass_enter", TRY_TO_SHRINK_LRUVEC, PASS_ENTER,
	  "try_to_shrink_lruvec", "lruvec,sc"),
	F("rs_pass_exit", TRY_TO_SHRINK_LRUVEC, PASS_EXIT,
	  "try_to_shrink_lruvec", "lruvec,sc"),
	F("rs_evict_exit_v2", EVICT_FOLIOS, EVICT_EXIT, "evict_folios",
	  "nr_to_scan,lruvec,sc,swappiness"),
	F("rs_evict_exit_v1", EVICT_FOLIOS, EVICT_EXIT, "evict_folios",
	  "lruvec,sc,swappiness"),
	F("rs_isolate_exit", ISOLATE_FOLIOS, ISOLATE_EXIT, "isolate_folios",
	  "nr_to_scan,lruvec,sc,swappiness,list,isolated,isolate_type,"
	  "isolate_scanned"),
	F("rs_evictable_exit", LRUVEC_EVICTABLE_SIZE, EVICTABLE_EXIT,
	  "lruvec_evictable_size", "lruvec,swappiness"),
	F("rs_protection_exit", APPLY_PROTECTION, PROTECTION_EXIT,
	  "apply_proportional_protection", "memcg,sc,scan"),
	F("rs_abort_exit", SHOULD_ABORT_SCAN, ABORT_EXIT, "should_abort_scan",
	  "lruvec,sc"),
	F("rs_one_enter", SHRINK_ONE, ONE_ENTER, "shrink_one", "lruvec,sc"),
	F("rs_one_exit", SHRINK_ONE, ONE_EXIT, "shrink_one", "lruvec,sc"),
	F("rs_rotate", ROTATE_MEMCG, ROTATE, "lru_gen_rotate_memcg",
	  "lruvec,op"),
	F("rs_oom_exit", MEMCG_OOM, OOM_EXIT, "mem_cgroup_out_of_memory",
	  "memcg,gfp_mask,order"),
	F("rs_aging_enter", TRY_TO_INC_MAX_SEQ, AGING_ENTER,
	  "try_to_inc_max_seq", "lruvec,seq,*,force_scan"),
	F("rs_aging_exit", TRY_TO_INC_MAX_SEQ, AGING_EXIT, "try_to_inc_max_seq",
	  "lruvec,seq,*,force_scan"),
	F("rs_min_seq_enter", TRY_TO_INC_MIN_SEQ, MIN_SEQ_ENTER,
	  "try_to_inc_min_seq", "lruvec,*"),
	F("rs_min_seq_exit", TRY_TO_INC_MIN_SEQ, MIN_SEQ_EXIT,
	  "try_to_inc_min_seq", "lruvec,*"),
	F("rs_writeback", HANDLE_RECLAIM_WRITEBACK, WRITEBACK,
	  "handle_reclaim_writeback", "nr_taken,pgdat,sc,stat"),
	F("rs_flusher", WAKEUP_FLUSHER_THREADS, FLUSHER,
	  "wakeup_flusher_threads", "reason"),
	F("rs_classic_enter", SHRINK_LRUVEC, CLASSIC_ENTER, "shrink_lruvec",
	  "lruvec,sc"),
	F("rs_classic_exit", SHRINK_LRUVEC, CLASSIC_EXIT, "shrink_lruvec",
	  "lruvec,sc"),
	/* the hook is the shadow's test: without it the others count nothing */
	F("rs_recent_exit", REFAULTS, RECENT_EXIT, "lru_gen_test_recent",
	  "shadow,lruvec,token,workingset,..."),
	F("rs_refault_enter", REFAULTS, REFAULT_ENTER, "workingset_refault",
	  "folio,shadow"),
	F("rs_refault_exit", REFAULTS, REFAULT_EXIT, "workingset_refault",
	  "folio,shadow"),
	F("rs_balance_enter", BALANCE_PGDAT, BALANCE_ENTER, "balance_pgdat",
	  "pgdat,order,highest_zoneidx"),
	F("rs_balance_exit", BALANCE_PGDAT, BALANCE_EXIT, "balance_pgdat",
	  "pgdat,order,highest_zoneidx"),

	T("rs_direct_begin_v2", DIRECT_RECLAIM, DIRECT_BEGIN,
	  "mm_vmscan_direct_reclaim_begin", "gfp_t,int,struct mem_cgroup *"),
	T("rs_direct_begin_v1", DIRECT_RECLAIM, DIRECT_BEGIN,
	  "mm_vmscan_direct_reclaim_begin", "int,gfp_t"),
	T("rs_direct_end", DIRECT_RECLAIM, DIRECT_END,
	  "mm_vmscan_direct_reclaim_end", ULONG ",..."),
	T("rs_memcg_begin_v2", MEMCG_RECLAIM, MEMCG_BEGIN,
	  "mm_vmscan_memcg_reclaim_begin", "gfp_t,int,struct mem_cgroup *"),
	T("rs_memcg_begin_v1", MEMCG_RECLAIM, MEMCG_BEGIN,
	  "mm_vmscan_memcg_reclaim_begin", "int,gfp_t"),
	T("rs_memcg_end", MEMCG_RECLAIM, MEMCG_END,
	  "mm_vmscan_memcg_reclaim_end", ULONG ",..."),
	T("rs_node_begin", NODE_RECLAIM, NODE_BEGIN,
	  "mm_vmscan_node_reclaim_begin", "int,int,gfp_t"),
	T("rs_node_end", NODE_RECLAIM, NODE_END, "mm_vmscan_node_reclaim_end",
	  ULONG ",..."),
	T("rs_lru_isolate", LRU_ISOLATE, ISOLATE, "mm_vmscan_lru_isolate",
	  "int,int," ULONG "," ULONG "," ULONG "," ULONG ",int"),
	T("rs_lru_shrink_inactive", LRU_SHRINK_INACTIVE, SHRINK_INACTIVE,
	  "mm_vmscan_lru_shrink_inactive",
	  "int," ULONG "," ULONG ",struct reclaim_stat *,int,int"),
	T("rs_lru_shrink_active", LRU_SHRINK_ACTIVE, SHRINK_ACTIVE,
	  "mm_vmscan_lru_shrink_active",
	  "int," ULONG "," ULONG "," ULONG ",..."),
	T("rs_throttled", THROTTLED, THROTTLED, "mm_vmscan_throttled",
	  "int,int,int,int"),
	T("rs_kswapd_wake", KSWAPD, KSWAPD_WAKE, "mm_vmscan_kswapd_wake",
	  "int,int,int"),
	T("rs_kswapd_sleep", KSWAPD, KSWAPD_SLEEP, "mm_vmscan_kswapd_sleep",
	  "int"),
	T("rs_slab_end_v2", SHRINK_SLAB, SLAB_END, "mm_shrink_slab_end",
	  "struct shrinker *,int,int,long int,long int,long int,"
	  "struct mem_cgroup *"),
	T("rs_slab_end_v1", SHRINK_SLAB, SLAB_END, "mm_shrink_slab_end",
	  "struct shrinker *,int,int,..."),
	T("rs_cgroup_mkdir", CGROUP_NAMES, CGROUP_MKDIR, "cgroup_mkdir",
	  "struct cgroup *,..."),
	T("rs_cgroup_rmdir", CGROUP_NAMES, CGROUP_RMDIR, "cgroup_rmdir",
	  "struct cgroup *,..."),
};

const int rs_nr_prog_specs = sizeof(rs_prog_specs) / sizeof(rs_prog_specs[0]);

#define U(h, pat, why)                                                         \
	{                                                                      \
		RS_HOOK_##h, pat, why                                          \
	}
#define RS_OLD_ISOLATE                                                         \
	"this kernel's isolate_folios() tells only the type it scanned last, " \
	"not what it isolated (v7.2: \"mm/mglru: scan and count the exact "    \
	"number of folios\")"
const struct rs_unread_proto rs_unread_protos[] = {
	U(ISOLATE_FOLIOS, "nr_to_scan,lruvec,sc,swappiness,type_scanned,list",
	  RS_OLD_ISOLATE), /* 6.18 */
	U(ISOLATE_FOLIOS, "lruvec,sc,swappiness,type_scanned,list",
	  RS_OLD_ISOLATE), /* 6.12 */
};
const int rs_nr_unread_protos =
	sizeof(rs_unread_protos) / sizeof(rs_unread_protos[0]);
_Static_assert(sizeof(rs_prog_specs) / sizeof(rs_prog_specs[0]) <=
		       RS_MAX_PROG_SPECS,
	       "the collector's per-spec arrays hold every program spec");
