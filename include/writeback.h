/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writeback probe (bpf/writeback.bpf.c): one record per
 * handle_reclaim_writeback() call (shared by MGLRU and the classic LRU since
 * "mm/vmscan: unify writeback reclaim statistic and throttling"), and
 * wakeup_flusher_threads() calls counted by wb_reason.  Needs rs_common.h.
 */
#ifndef RS_WRITEBACK_H
#define RS_WRITEBACK_H

/* a reclaim_stat count this kernel does not have: written as null */
#define RS_NO_COUNT 0xffffffffU

struct rs_writeback_event {
	struct rs_event_hdr hdr;
	__u64 nr_taken;
	__u32 dirty;
	__u32 unqueued_dirty;
	__u32 congested;
	__u32 writeback;
	__u32 immediate;
	__u32 pageout;
	__u8 flusher_woken; /* nr_unqueued_dirty == nr_taken */
	__u8 pad[7];
};

#endif /* RS_WRITEBACK_H */
