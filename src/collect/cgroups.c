// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgroups.h"
#include "util.h"

#include "cgroups_int.h"

/* Find the memory controller's mount in /proc/self/mountinfo. */
static int find_root(struct rs_cgroups *cg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], v1[256] = "", v2[256] = "";

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char mnt[256], fstype[64], opts[1024];
		const char *sep = strstr(line, " - ");

		if (!sep || sscanf(line, "%*s %*s %*s %*s %255s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s %*s %1023s", fstype, opts) != 2)
			continue;
		if (!strcmp(fstype, "cgroup2") && !v2[0]) {
			char path[300], ctrl[512];

			snprintf(path, sizeof(path), "%s/cgroup.controllers",
				 mnt);
			if (!rs_read_file(path, ctrl, sizeof(ctrl)) &&
			    (strstr(ctrl, "memory ") ||
			     (strlen(ctrl) >= 6 &&
			      !strcmp(ctrl + strlen(ctrl) - 6, "memory"))))
				snprintf(v2, sizeof(v2), "%s", mnt);
		} else if (!strcmp(fstype, "cgroup") && !v1[0]) {
			/* super options: rw,memory or rw,memory,... */
			char *tok, *save = NULL;

			for (tok = strtok_r(opts, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				if (!strcmp(tok, "memory"))
					snprintf(v1, sizeof(v1), "%s", mnt);
		}
	}
	fclose(f);
	if (v2[0]) {
		snprintf(cg->root, sizeof(cg->root), "%s", v2);
		cg->version = 2;
	} else if (v1[0]) {
		snprintf(cg->root, sizeof(cg->root), "%s", v1);
		cg->version = 1;
	} else {
		return -ENOENT;
	}
	return 0;
}

struct rs_cgroups *rs_cgroups_open(void)
{
	struct rs_cgroups *cg = calloc(1, sizeof(*cg));
	int err;

	if (!cg)
		return NULL;
	err = find_root(cg);
	if (err) {
		free(cg);
		errno = -err;
		return NULL;
	}
	return cg;
}

static void clear_map(struct rs_cgroups *cg)
{
	for (size_t i = 0; i < cg->nr; i++)
		free(cg->map[i].path);
	cg->nr = 0;
}

void rs_cgroups_close(struct rs_cgroups *cg)
{
	if (!cg)
		return;
	clear_map(cg);
	free(cg->map);
	for (size_t i = 0; i < cg->nr_born; i++)
		free(cg->born[i].path);
	free(cg->born);
	free(cg->stamps);
	free(cg->spare);
	free(cg);
}

const char *rs_cgroups_root(const struct rs_cgroups *cg)
{
	return cg->root;
}

int rs_cgroups_version(const struct rs_cgroups *cg)
{
	return cg->version;
}

/* nftw has no context argument */
static struct rs_cgroups *scanning;

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	struct rs_cgroups *cg = scanning;
	const char *rel = path + strlen(cg->root);

	(void)ftw;
	if (type != FTW_D)
		return 0;
	if (!rs_grow((void **)&cg->map, &cg->cap, cg->nr + 1, sizeof(*cg->map)))
		return -1;
	cg->map[cg->nr].id = st->st_ino;
	cg->map[cg->nr].path = strdup(*rel ? rel : "/");
	if (!cg->map[cg->nr].path)
		return -1;
	cg->nr++;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct id_path *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int rs_cg_rescan(struct rs_cgroups *cg)
{
	int err;

	clear_map(cg);
	cg->last_scan_ns = rs_now_ns();
	scanning = cg;
	err = nftw(cg->root, visit, 32, FTW_PHYS | FTW_MOUNT);
	scanning = NULL;
	qsort(cg->map, cg->nr, sizeof(*cg->map), by_id);
	return err ? -EIO : 0;
}

static const struct id_path *lookup(const struct rs_cgroups *cg, __u64 id)
{
	struct id_path key = {.id = id};

	if (!cg->nr)
		return NULL;
	return bsearch(&key, cg->map, cg->nr, sizeof(*cg->map), by_id);
}

static struct born *find_born(const struct rs_cgroups *cg, __u64 id)
{
	for (size_t i = 0; i < cg->nr_born; i++)
		if (cg->born[i].id == id)
			return &cg->born[i];
	return NULL;
}

/* The path of id as last scanned or learned; NULL if unknown. */
static const char *known_path(const struct rs_cgroups *cg, __u64 id)
{
	const struct id_path *p = lookup(cg, id);
	const struct born *b;

	if (p)
		return p->path;
	b = find_born(cg, id);
	return b ? b->path : NULL;
}

int rs_cgroups_path(struct rs_cgroups *cg, __u64 id, char *buf, size_t size)
{
	const char *path = known_path(cg, id);

	/* at most one walk a second for ids that are not (yet) there */
	if (!path && rs_now_ns() - cg->last_scan_ns > 1000000000ULL) {
		rs_cg_rescan(cg);
		path = known_path(cg, id);
	}
	if (!path)
		return -ENOENT;
	snprintf(buf, size, "%s", path);
	return 0;
}

void rs_cgroups_learn(struct rs_cgroups *cg, __u64 id, __u64 parent_id,
		      const char *name, bool removed)
{
	struct born *b = find_born(cg, id);
	char parent[RS_CG_PATH_MAX], *path;

	if (!b) {
		/* the parent as we see it (our namespace, our mount) */
		if (!name[0] || strchr(name, '/') ||
		    rs_cgroups_path(cg, parent_id, parent, sizeof(parent)))
			return; /* outside our view: a scan may still find it */
		if (asprintf(&path, "%s/%s", strcmp(parent, "/") ? parent : "",
			     name) < 0)
			return;
		if (!rs_grow((void **)&cg->born, &cg->cap_born, cg->nr_born + 1,
			     sizeof(*cg->born))) {
			free(path);
			return;
		}
		b = &cg->born[cg->nr_born++];
		*b = (struct born){.id = id, .path = path};
	}
	if (removed && !b->removed_at)
		b->removed_at = cg->refresh + 1;
}

bool rs_cg_dir_of(const struct rs_cgroups *cg, const char *rel, char *buf,
		  size_t size)
{
	int n = snprintf(buf, size, "%s%s", cg->root,
			 strcmp(rel, "/") ? rel : "");

	return n >= 0 && (size_t)n < size;
}

int rs_cgroups_id(const struct rs_cgroups *cg, const char *path, __u64 *id)
{
	char full[RS_CG_PATH_MAX];
	struct stat st;

	if (!rs_cg_dir_of(cg, path, full, sizeof(full)))
		return -ENAMETOOLONG;
	if (stat(full, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	*id = st.st_ino;
	return 0;
}

/*
 * Whether a refresh looks for a memcg's directory.  The kernel names every
 * rmdir as it happens (bpf/cgnames.bpf.c), and those are looked at the next
 * refresh; this is for one it could not tell (its table full, or the hook
 * missing), so every memcg is looked for once in RS_CG_GONE_EVERY refreshes:
 * a stat each of 10,000 memcgs every second cost more than the rest of an
 * idle daemon's refresh.
 */
#define RS_CG_GONE_EVERY 60

static bool gone_due(const struct rs_cgroups *cg, const struct rs_memcg *mc,
		     bool all)
{
	return all || (mc->id + cg->refresh) % RS_CG_GONE_EVERY == 0;
}

void rs_cgroups_update_model(struct rs_cgroups *cg, struct rs_model *m,
			     bool all)
{
	size_t cap = rs_model_nr_memcgs(m) ? rs_model_nr_memcgs(m) : 1;
	__u64 *ids = malloc(cap * sizeof(*ids));
	size_t n = ids ? rs_model_unresolved(m, ids, cap) : 0;
	bool scanned = false;
	size_t kept, nr_removed = 0;
	__u64 *removed;

	cg->refresh++;
	for (size_t i = 0; i < n; i++) {
		const char *path = known_path(cg, ids[i]);

		if (!path && !scanned) {
			rs_cg_rescan(cg);
			scanned = true;
			path = known_path(cg, ids[i]);
		}
		if (path)
			rs_model_set_path(m, ids[i], path);
	}
	free(ids);
	/*
	 * Forget the removed ones one refresh after we learned of it: by then
	 * the model has read whatever they did before their rmdir.
	 */
	kept = 0;
	for (size_t i = 0; i < cg->nr_born; i++) {
		if (cg->born[i].removed_at &&
		    cg->born[i].removed_at < cg->refresh)
			free(cg->born[i].path);
		else
			cg->born[kept++] = cg->born[i];
	}
	cg->nr_born = kept;
	/*
	 * A memcg whose directory is gone, or holds another id now.  One whose
	 * rmdir the kernel told of (cgroup_rmdir) is looked at now, due or not.
	 */
	removed = malloc((cg->nr_born ? cg->nr_born : 1) * sizeof(*removed));
	for (size_t i = 0; removed && i < cg->nr_born; i++)
		if (cg->born[i].removed_at)
			removed[nr_removed++] = cg->born[i].id;
	if (nr_removed)
		qsort(removed, nr_removed, sizeof(*removed), rs_cmp_u64);
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		__u64 id = 0;

		if (!mc->path || mc->gone ||
		    (!gone_due(cg, mc, all) &&
		     !(nr_removed && bsearch(&mc->id, removed, nr_removed,
					     sizeof(*removed), rs_cmp_u64))))
			continue;
		if (rs_cgroups_id(cg, mc->path, &id) || id != mc->id)
			rs_model_mark_gone(m, mc->id);
	}
	free(removed);
}
