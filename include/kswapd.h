/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kswapd probe (bpf/kswapd.bpf.c): one record per balance_pgdat() run, what
 * kswapd reclaimed to balance a node and where the node's free pages stood
 * against the high watermarks it reclaims to.  Needs rs_common.h first.
 */
#ifndef RS_KSWAPD_H
#define RS_KSWAPD_H

/*
 * Zones read per node: MAX_NR_ZONES is 5 on every kernel we know (DMA,
 * DMA32, Normal, Movable, Device); a node with more is read up to this.
 */
#define RS_MAX_ZONES 6

/* RS_EV_KSWAPD_RUN; the header's node is the node balanced */
struct rs_kswapd_run_event {
	struct rs_event_hdr hdr;
	__u64 duration_ns;
	__u64 isolated;	 /* inactive pages isolated in the run */
	__u64 reclaimed; /* pages reclaimed in the run */
	/*
	 * Free pages and high watermarks (with their boosts) summed over the
	 * zones up to highest_zoneidx, the zones kswapd balances, at the
	 * run's start and end; the watermarks as they stood at the end.
	 */
	__u64 free_before;
	__u64 free_after;
	__u64 high_before;
	__u64 high_after;
	__s32 order;
	__s32 highest_zoneidx;
	__s32 order_after; /* balance_pgdat()'s return: the order it reached */
	__u8 zones_known;  /* the zone fields were found */
	__u8 pad[3];
};

#endif /* RS_KSWAPD_H */
