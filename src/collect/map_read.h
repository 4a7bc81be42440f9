/* SPDX-License-Identifier: GPL-2.0 */
/* Reading BPF hash maps whole (map_read.c). */
#ifndef RS_MAP_READ_H
#define RS_MAP_READ_H

#include <stddef.h>
#include <linux/types.h>

/*
 * The keys of a map (key_size bytes each), in one walk: all of them, or
 * those whose leading cgroup id is in sorted_ids.  Acting on them comes
 * after, since deleting during get_next_key would restart the walk.  NULL
 * with *nr 0 if there are none (or no memory).
 */
void *rs_map_keys(int fd, size_t key_size, const __u64 *sorted_ids,
		  size_t nr_ids, size_t *nr);

typedef int (*rs_map_entry_fn)(void *ctx, const void *key, const void *value);

/*
 * Every entry of a hash map (value_size: as the syscall returns it, all
 * CPUs for a per-CPU map), a call of fn each: BPF_MAP_LOOKUP_BATCH (v5.6)
 * where the kernel has it, else get_next_key and lookup.  0, or fn's
 * error.
 */
int rs_map_each(int fd, size_t key_size, size_t value_size, rs_map_entry_fn fn,
		void *ctx);

#endif
