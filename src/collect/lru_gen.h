/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MGLRU generations of one memcg from /sys/kernel/debug/lru_gen (debugfs):
 * per node, each live generation's sequence number, age and sizes.  The file
 * names memcgs by path, so that is the key here.
 */
#ifndef RS_LRU_GEN_H
#define RS_LRU_GEN_H

#include <stdio.h>
#include "gens.h"

#define RS_LRU_GEN_FILE "/sys/kernel/debug/lru_gen"

/*
 * The generations of the memcg at path ("/" for the root) from f; up to
 * max, in file order.  -ENOENT if the memcg is not listed.
 */
int rs_lru_gen_parse(FILE *f, const char *path, struct rs_gen *gens, int max);
/* The same from RS_LRU_GEN_FILE; -errno if it cannot be read (no debugfs,
 * MGLRU not built in, not root). */
int rs_lru_gen_read(const char *path, struct rs_gen *gens, int max);

#endif
