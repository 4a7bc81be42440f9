/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tier counters' loader (bpf/tiers.bpf.c): a cgroup iterator over the
 * memory controller's hierarchy, read into the model at each snapshot.
 */
#ifndef RS_TIER_ITER_H
#define RS_TIER_ITER_H

#include "model.h"
#include "run_info.h"

struct rs_tier_iter;

/*
 * Load and attach the iterator under info->cgroup_root; sets the TIERS
 * hook's state and, where it cannot be had, why.  NULL then.  lrugen: the
 * kernel's types have MGLRU's struct lru_gen_folio (without it, no tiers).
 */
struct rs_tier_iter *rs_tier_iter_open(struct rs_run_info *info,
				       const char *btf_path, bool lrugen);
/*
 * Read every memcg's counters and generations into the model when they
 * may have moved: due (a program ran, or the read must be whole), or
 * refaults or LRU sizes in /proc/vmstat moved since the last read.  0, or
 * -errno.
 */
int rs_tier_iter_read(struct rs_tier_iter *t, struct rs_model *m, bool due);
/*
 * Whether MGLRU is on: while it is off, the generations the kernel leaves
 * are not the LRU's, and reads do not hand them to the model.
 */
void rs_tier_iter_mglru(struct rs_tier_iter *t, bool on);
/* The kernel's HZ as learnt from the records' clocks; 0: not yet. */
unsigned rs_tier_iter_hz(const struct rs_tier_iter *t);
void rs_tier_iter_close(struct rs_tier_iter *t);

#endif
