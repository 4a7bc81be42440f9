// SPDX-License-Identifier: GPL-2.0
/*
 * Reading BPF hash maps whole, with as few system calls as the kernel
 * allows: the collector's maps and the tier iterator's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "map_read.h"
#include "util.h"

/*
 * The keys of a map (key_size bytes each), in one walk: all of them, or
 * those whose leading cgroup id is in sorted_ids.  Acting on them comes
 * after, since deleting during get_next_key would restart the walk.  NULL
 * with *nr 0 if there are none (or no memory).
 */
void *rs_map_keys(int fd, size_t key_size, const __u64 *sorted_ids,
		  size_t nr_ids, size_t *nr)
{
	/* key is read only after the first call, but analyzers cannot tell */
	char key[64] = {0}, next[64];
	char *keys = NULL;
	size_t cap = 0;
	bool first = true;

	*nr = 0;
	while (!bpf_map_get_next_key(fd, first ? NULL : key, next)) {
		memcpy(key, next, key_size);
		first = false;
		if (sorted_ids && !bsearch(key, sorted_ids, nr_ids,
					   sizeof(__u64), rs_cmp_u64))
			continue;
		if (!rs_grow((void **)&keys, &cap, *nr + 1, key_size))
			break;
		memcpy(keys + (*nr)++ * key_size, key, key_size);
	}
	return keys;
}

/*
 * Every entry of a hash map (value_size: as the syscall returns it, all CPUs
 * for a per-CPU map), with as few syscalls as the kernel allows:
 * BPF_MAP_LOOKUP_BATCH (v5.6) takes a few hundred entries a call, where
 * get_next_key plus lookup take two calls an entry -- with 10,000 memcgs,
 * most of an idle daemon's time.  Kernels without it get the walk.  0, or
 * fn's error.
 */
int rs_map_each(int fd, size_t key_size, size_t value_size, rs_map_entry_fn fn,
		void *ctx)
{
	/* about 1 MiB of values a call, at least 16 entries */
	__u32 cap = value_size * 16 > (1 << 20) ? 16 : (1 << 20) / value_size;
	char *keys = NULL, *values = NULL;
	__u64 token = 0; /* the hash maps' batch token is a bucket index */
	bool first = true, batched = true;
	size_t nr;
	int err = 0;

	for (;;) {
		__u32 count = cap;

		if (!keys) {
			keys = malloc((size_t)cap * key_size);
			values = malloc((size_t)cap * value_size);
			if (!keys || !values) {
				err = -ENOMEM;
				break;
			}
		}
		err = bpf_map_lookup_batch(fd, first ? NULL : &token, &token,
					   keys, values, &count, NULL);
		if (err && errno == ENOSPC && count == 0) {
			/* a bucket holds more than cap: room for it */
			free(keys);
			free(values);
			keys = values = NULL;
			cap *= 4;
			continue;
		}
		if (err && errno != ENOENT) {
			batched = !first; /* not supported: walk instead */
			err = first ? 0 : -errno;
			break;
		}
		first = false;
		for (__u32 i = 0; i < count; i++) {
			int rc = fn(ctx, keys + (size_t)i * key_size,
				    values + (size_t)i * value_size);

			if (rc) {
				free(keys);
				free(values);
				return rc;
			}
		}
		if (err) { /* ENOENT: that was the last */
			err = 0;
			break;
		}
	}
	free(keys);
	free(values);
	if (batched || err)
		return err;
	/* the walk: every key, then each value (deleted meanwhile: skipped) */
	keys = rs_map_keys(fd, key_size, NULL, 0, &nr);
	values = malloc(value_size);
	for (size_t i = 0; values && i < nr && !err; i++)
		if (!bpf_map_lookup_elem(fd, keys + i * key_size, values))
			err = fn(ctx, keys + i * key_size, values);
	if (!values)
		err = -ENOMEM;
	free(keys);
	free(values);
	return err;
}
