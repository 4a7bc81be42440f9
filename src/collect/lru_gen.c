// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "lru_gen.h"

int rs_lru_gen_parse(FILE *f, const char *path, struct rs_gen *gens, int max)
{
	char line[4200], memcg_path[4096];
	bool ours = false, found = false;
	int node = -1, n = 0;

	while (fgets(line, sizeof(line), f)) {
		unsigned long long seq, age, anon, file;
		unsigned int id;
		int nid;

		if (sscanf(line, "memcg %u %4095s", &id, memcg_path) >= 1) {
			/* the root has no path on some kernels */
			if (sscanf(line, "memcg %u %4095s", &id, memcg_path) <
			    2)
				strcpy(memcg_path, "/");
			ours = !strcmp(memcg_path, path);
			found |= ours;
			node = -1;
		} else if (sscanf(line, " node %d", &nid) == 1) {
			node = nid;
		} else if (ours && node >= 0 &&
			   sscanf(line, " %llu %llu %llu %llu", &seq, &age,
				  &anon, &file) == 4 &&
			   n < max) {
			gens[n++] = (struct rs_gen){node, seq, age, anon, file};
		}
	}
	return found ? n : -ENOENT;
}

int rs_lru_gen_read(const char *path, struct rs_gen *gens, int max)
{
	FILE *f = fopen(RS_LRU_GEN_FILE, "re");
	int n;

	if (!f)
		return -errno;
	n = rs_lru_gen_parse(f, path, gens, max);
	fclose(f);
	return n;
}
