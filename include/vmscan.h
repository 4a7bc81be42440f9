/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint layer (bpf/vmscan.bpf.c), which works on any kernel with BTF:
 * vmscan tracepoints aggregated per memcg, plus throttle and reclaim
 * records.  Needs rs_common.h first.
 */
#ifndef RS_VMSCAN_H
#define RS_VMSCAN_H

/* enum vmscan_throttle_state */
#define RS_NR_THROTTLE_REASONS 4

struct rs_throttle_event {
	struct rs_event_hdr hdr;
	__s32 reason; /* VMSCAN_THROTTLE_* as passed to the tracepoint */
	__s32 usec_timeout;
	__s32 usec_delayed;
	__u32 pad;
};

/* A direct, memcg or node reclaim invocation, from begin to end. */
struct rs_reclaim_event {
	struct rs_event_hdr hdr;
	__u64 duration_ns;
	__u64 nr_reclaimed;
	__u64 nr_to_reclaim; /* 0 when not seen */
	__u32 gfp_flags;
	__s32 order;
};

#endif /* RS_VMSCAN_H */
