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

struct id_path {
	__u64 id;
	char *path;
};

/* A memcg made while we run, named by the kernel (rs_cgroups_learn). */
struct born {
	__u64 id;
	char *path;
	unsigned int removed_at; /* refresh that learned of its rmdir; 0: no */
};

struct rs_cgroups {
	char root[256];
	int version;
	__u64 last_scan_ns;
	struct id_path *map; /* from the last scan, sorted by id */
	size_t nr, cap;
	struct born *born; /* unsorted: few, and short-lived */
	size_t nr_born, cap_born;
	unsigned int refresh; /* rs_cgroups_update_model calls */
};

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
	if (cg->nr == cg->cap) {
		size_t cap = cg->cap ? cg->cap * 2 : 256;
		struct id_path *map = realloc(cg->map, cap * sizeof(*map));

		if (!map)
			return -1;
		cg->map = map;
		cg->cap = cap;
	}
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

static int rescan(struct rs_cgroups *cg)
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
		rescan(cg);
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
	char parent[512], *path;

	if (!b) {
		/* the parent as we see it (our namespace, our mount) */
		if (!name[0] || strchr(name, '/') ||
		    rs_cgroups_path(cg, parent_id, parent, sizeof(parent)))
			return; /* outside our view: a scan may still find it */
		if (asprintf(&path, "%s/%s", strcmp(parent, "/") ? parent : "",
			     name) < 0)
			return;
		if (cg->nr_born == cg->cap_born) {
			size_t cap = cg->cap_born ? cg->cap_born * 2 : 64;
			struct born *more =
				realloc(cg->born, cap * sizeof(*more));

			if (!more) {
				free(path);
				return;
			}
			cg->born = more;
			cg->cap_born = cap;
		}
		b = &cg->born[cg->nr_born++];
		*b = (struct born){.id = id, .path = path};
	}
	if (removed && !b->removed_at)
		b->removed_at = cg->refresh + 1;
}

/* The directory of a memcg, by its path relative to the root. */
static void dir_of(const struct rs_cgroups *cg, const char *rel, char *buf,
		   size_t size)
{
	snprintf(buf, size, "%s%s", cg->root, strcmp(rel, "/") ? rel : "");
}

int rs_cgroups_id(const struct rs_cgroups *cg, const char *path, __u64 *id)
{
	char full[512];
	struct stat st;

	dir_of(cg, path, full, sizeof(full));
	if (stat(full, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	*id = st.st_ino;
	return 0;
}

/*
 * Whether a refresh looks at a memcg in cgroupfs (its counters, whether its
 * directory is still there).  A memcg with counts in the last minute is
 * looked at every refresh; an idle one every RS_CG_IDLE_EVERY-th (ids
 * spread them over the refreshes), so that thousands of idle tenants do not
 * cost a core: with 10,000 memcgs, reading every memory.stat every second
 * did.  A refresh that must be exact (record's last) looks at all.
 */
#define RS_CG_ACTIVE_WINDOW 60.0 /* s */
#define RS_CG_IDLE_EVERY 10

static bool due(const struct rs_cgroups *cg, const struct rs_model *m,
		const struct rs_memcg *mc, bool all)
{
	if (all)
		return true;
	if (!isnan(mc->last_active) &&
	    rs_model_time(m) - mc->last_active < RS_CG_ACTIVE_WINDOW)
		return true;
	return (mc->id + cg->refresh) % RS_CG_IDLE_EVERY == 0;
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
			rescan(cg);
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
		    (!due(cg, m, mc, all) &&
		     !(nr_removed && bsearch(&mc->id, removed, nr_removed,
					     sizeof(*removed), rs_cmp_u64))))
			continue;
		if (rs_cgroups_id(cg, mc->path, &id) || id != mc->id)
			rs_model_mark_gone(m, mc->id);
	}
	free(removed);
}

/*
 * The counters of one memcg into the model, as baseline or sample.  Each
 * file is read once: the kernel formats all of memory.stat for every read,
 * which is most of what a refresh costs with thousands of memcgs.  The
 * directory is looked up once for its files, and only the files of this
 * hierarchy's version are opened (a failed open walks the path too).
 */
static void read_counters(const struct rs_cgroups *cg, const char *rel,
			  struct rs_model *m, __u64 id, bool baseline)
{
	static const struct {
		const char *file;
		int version; /* 0: both */
		struct {
			const char *key;
			enum rs_field field;
		} keys[2];
	} wanted[] = {
		{"memory.stat",
		 0,
		 {{"workingset_refault_anon", RS_F_REFAULTS_ANON},
		  {"workingset_refault_file", RS_F_REFAULTS_FILE}}},
		{"memory.events", 2, {{"oom_kill", RS_F_OOM_KILLS}}},
		{"memory.oom_control", 1, {{"oom_kill", RS_F_OOM_KILLS}}},
	};
	char path[600], line[256];
	int dir;

	dir_of(cg, rel, path, sizeof(path));
	dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return;
	for (size_t w = 0; w < sizeof(wanted) / sizeof(wanted[0]); w++) {
		int fd;
		FILE *f;

		if (wanted[w].version && wanted[w].version != cg->version)
			continue;
		fd = openat(dir, wanted[w].file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		f = fdopen(fd, "r");
		if (!f) {
			close(fd);
			continue;
		}
		while (fgets(line, sizeof(line), f)) {
			for (int k = 0; k < 2 && wanted[w].keys[k].key; k++) {
				const char *key = wanted[w].keys[k].key;
				size_t kl = strlen(key);
				unsigned long long v;

				if (strncmp(line, key, kl) || line[kl] != ' ' ||
				    sscanf(line + kl + 1, "%llu", &v) != 1)
					continue;
				if (baseline)
					rs_model_cg_baseline(
						m, id, wanted[w].keys[k].field,
						v);
				else
					rs_model_cg_sample(
						m, id, wanted[w].keys[k].field,
						v);
			}
		}
		fclose(f);
	}
	close(dir);
}

void rs_cgroups_baseline(struct rs_cgroups *cg, struct rs_model *m)
{
	rescan(cg);
	for (size_t i = 0; i < cg->nr; i++) {
		rs_model_set_path(m, cg->map[i].id, cg->map[i].path);
		read_counters(cg, cg->map[i].path, m, cg->map[i].id, true);
	}
}

void rs_cgroups_sample(struct rs_cgroups *cg, struct rs_model *m, bool all)
{
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);

		if (mc->path && !mc->gone && due(cg, m, mc, all))
			read_counters(cg, mc->path, m, mc->id, false);
	}
	rs_model_cg_apply(m);
}

/* A number from a cgroupfs file: "max" is +inf, anything else unknown. */
static double read_number(const char *root, const char *rel, const char *file)
{
	char path[600], buf[64], *end;
	double v;

	snprintf(path, sizeof(path), "%s%s/%s", root,
		 strcmp(rel, "/") ? rel : "", file);
	if (rs_read_file(path, buf, sizeof(buf)))
		return NAN;
	if (!strcmp(buf, "max"))
		return INFINITY;
	v = strtod(buf, &end);
	return end != buf && *end == '\0' ? v : NAN;
}

/* memory.pressure "some avg10=1.23 ...": the avg10, or NaN */
static double read_psi(const char *root, const char *rel)
{
	char path[600], buf[256];
	double v;

	snprintf(path, sizeof(path), "%s%s/memory.pressure", root,
		 strcmp(rel, "/") ? rel : "");
	if (rs_read_file(path, buf, sizeof(buf)) ||
	    sscanf(buf, "some avg10=%lf", &v) != 1)
		return NAN;
	return v;
}

void rs_cgroups_gauges(struct rs_cgroups *cg, struct rs_model *m)
{
	bool v2 = cg->version == 2;

	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		double max;

		if (!mc->path || mc->gone)
			continue;
		max = read_number(cg->root, mc->path,
				  v2 ? "memory.max" : "memory.limit_in_bytes");
		/* v1 says "no limit" with a huge page-rounded number */
		if (!v2 && max >= 9.2e18)
			max = INFINITY;
		rs_model_set_gauges(m, mc->id,
				    read_number(cg->root, mc->path,
						v2 ? "memory.current"
						   : "memory.usage_in_bytes"),
				    max,
				    v2 ? read_psi(cg->root, mc->path) : NAN);
	}
}
