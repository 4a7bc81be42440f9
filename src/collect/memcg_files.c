// SPDX-License-Identifier: GPL-2.0
/*
 * The memcgs' own files: the counters they keep (refaults, OOM kills),
 * read at the start and then only when they can have moved, and the
 * gauges (memory.current, memory.max, PSI).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cgroups_int.h"
#include "util.h"

/*
 * What a memcg counts itself, by file.  The kernel counts each of these in
 * /proc/vmstat as well, under the same names: that is what lets a refresh
 * skip a file that cannot have changed (RS_CG_LAG_S).
 */

static const struct {
	const char *file[2]; /* cgroup v1, v2 */
	struct {
		const char *key;
		enum rs_field field;
	} keys[2];
} cg_files[RS_CG_NR_FILES] = {
	[RS_CG_STAT] = {{"memory.stat", "memory.stat"},
			{{"workingset_refault_anon", RS_F_REFAULTS_ANON},
			 {"workingset_refault_file", RS_F_REFAULTS_FILE}}},
	/* the kernel counts both where it kills (__oom_kill_process) */
	[RS_CG_OOM] = {{"memory.oom_control", "memory.events"},
		       {{"oom_kill", RS_F_OOM_KILLS}}},
};

/*
 * Whether a refresh reads a memcg's counters in cgroupfs, unless the kernel
 * says none can have changed (RS_CG_LAG_S).  A memcg with counts in the
 * last minute is read every refresh; an idle one every RS_CG_IDLE_EVERY-th
 * (ids spread them over the refreshes), so that thousands of idle tenants
 * do not cost a core: with 10,000 memcgs, reading every memory.stat every
 * second did.  A refresh that must be exact (record's last) reads all.
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

/*
 * The counters of one memcg's files (a mask of enum rs_cg_file) into the
 * model, as baseline or sample.  Each file is read once: the kernel formats
 * all of memory.stat for every read, which is most of what a refresh costs
 * with thousands of memcgs.  The directory is looked up once for its files.
 */
static void read_counters(const struct rs_cgroups *cg, const char *rel,
			  struct rs_model *m, __u64 id, bool baseline,
			  unsigned files)
{
	char path[RS_CG_PATH_MAX], text[8192];
	int dir;

	if (!rs_cg_dir_of(cg, rel, path, sizeof(path)))
		return;
	dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return;
	for (int w = 0; w < RS_CG_NR_FILES; w++) {
		int err;

		if (!(files & (1u << w)))
			continue;
		err = rs_read_file_at(dir, cg_files[w].file[cg->version == 2],
				      text, sizeof(text));
		/* there but not ours to read, or a file the kernel does not
		 * make for this memcg (memory.events on cgroup v2's root):
		 * unknown, never a made-up 0 */
		for (int k = 0; k < 2 && cg_files[w].keys[k].key &&
				(err == -EACCES || err == -EPERM ||
				 (err == -ENOENT && !strcmp(rel, "/")));
		     k++)
			rs_model_cg_unreadable(m, id, cg_files[w].keys[k].field,
					       baseline);
		if (err)
			continue;
		for (int k = 0; k < 2 && cg_files[w].keys[k].key; k++) {
			__u64 v;

			if (!rs_key_value(text, cg_files[w].keys[k].key, &v))
				continue;
			if (baseline)
				rs_model_cg_baseline(
					m, id, cg_files[w].keys[k].field, v);
			else
				rs_model_cg_sample(
					m, id, cg_files[w].keys[k].field, v);
		}
	}
	close(dir);
}

void rs_cgroups_baseline(struct rs_cgroups *cg, struct rs_model *m)
{
	rs_cg_rescan(cg);
	for (size_t i = 0; i < cg->nr; i++) {
		rs_model_set_path(m, cg->map[i].id, cg->map[i].path);
		read_counters(cg, cg->map[i].path, m, cg->map[i].id, true,
			      RS_CG_ALL_FILES);
	}
}

/*
 * Reading memcg files whose values cannot have changed is most of what an
 * idle daemon with thousands of memcgs costs.  Every refault and OOM kill
 * a memcg counts, the kernel also counts in /proc/vmstat (cg_files'
 * keys), so while that sum stays put no memcg's file can have moved.
 * The two are not in step: memory.stat shows a memcg's updates once its
 * statistics are flushed (at least every 2 s), /proc/vmstat once each
 * CPU's share is folded in (about every second).  So a file's stamp is the
 * sum from at least RS_CG_LAG_S before its read; a count that memory.stat
 * showed late still moves the sum past the stamp.
 */
#define RS_CG_LAG_S 10.0

/* The kernel-wide sums, per file; false where /proc/vmstat cannot tell. */
static bool vm_counts(__u64 count[RS_CG_NR_FILES])
{
	char text[16384];
	bool ok = true;

	if (rs_read_file("/proc/vmstat", text, sizeof(text)))
		return false;
	for (int w = 0; w < RS_CG_NR_FILES; w++) {
		count[w] = 0;
		for (int k = 0; k < 2 && cg_files[w].keys[k].key; k++) {
			__u64 v = 0;

			ok &= rs_key_value(text, cg_files[w].keys[k].key, &v);
			count[w] += v;
		}
	}
	return ok;
}

/* The newest mark from RS_CG_LAG_S or more before t. */
static const struct vm_mark *mark_before(const struct rs_cgroups *cg, double t)
{
	const struct vm_mark *best = NULL;

	for (size_t i = 0; i < cg->nr_marks; i++)
		if (cg->marks[i].t <= t - RS_CG_LAG_S &&
		    (!best || cg->marks[i].t > best->t))
			best = &cg->marks[i];
	return best;
}

static void add_mark(struct rs_cgroups *cg, double t,
		     const __u64 count[RS_CG_NR_FILES])
{
	size_t last = (cg->next_mark + RS_CG_MARKS - 1) % RS_CG_MARKS;
	struct vm_mark *mark = &cg->marks[cg->next_mark];

	/* one a second is enough: a ring of them spans a minute */
	if (cg->nr_marks && t - cg->marks[last].t < 1.0)
		return;
	mark->t = t;
	memcpy(mark->count, count, sizeof(mark->count));
	cg->next_mark = (cg->next_mark + 1) % RS_CG_MARKS;
	if (cg->nr_marks < RS_CG_MARKS)
		cg->nr_marks++;
}

/*
 * A kernel-wide count moves with any memcg's refault, and on a busy machine
 * some memcg always refaults.  A parent's memory.stat counts its whole
 * subtree (v1: the total_ lines), so while a parent's count stays put none
 * of its children's can have moved; with thousands of tenants under a few
 * parents, one read of each parent stands for all of them.  No lag here:
 * reading the parent first flushes its subtree's statistics, and a child's
 * count never shows before its parent's does.  The parents' counts of one
 * refresh, read when a child first needs them; sorted by path.
 */
struct parent_count {
	char *path;
	__u64 count;
	bool known;
};

/* a path (key: a const char **) against a parent_count, by strcmp */
static int parent_cmp(const void *key, const void *entry)
{
	return strcmp(*(const char *const *)key,
		      ((const struct parent_count *)entry)->path);
}

struct parents {
	struct parent_count *v;
	size_t nr, cap;
};

/* The subtree refaults of the parent of the memcg at path; false if unknown. */
static bool parent_count(const struct rs_cgroups *cg, struct parents *ps,
			 const char *path, __u64 *count)
{
	const char *slash = strrchr(path, '/');
	char parent[RS_CG_PATH_MAX], dir[RS_CG_PATH_MAX], file[RS_CG_PATH_MAX],
		text[8192];
	struct parent_count fresh = {0}, *slot;
	const char *key = parent;
	bool found;
	size_t pos;

	if (!slash || !strcmp(path, "/"))
		return false; /* the root has no parent */
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - path), path);
	pos = rs_sorted_find(ps->v, ps->nr, sizeof(*ps->v), &key, parent_cmp,
			     &found);
	if (found && ps->v) {
		*count = ps->v[pos].count;
		return ps->v[pos].known;
	}
	fresh.known =
		rs_cg_dir_of(cg, parent[0] ? parent : "/", dir, sizeof(dir)) &&
		snprintf(file, sizeof(file), "%s/memory.stat", dir) <
			(int)sizeof(file) &&
		!rs_read_file(file, text, sizeof(text));
	/* memory.stat's own keys; v1 has the subtree's as total_<key> */
	for (int k = 0; k < 2 && fresh.known; k++) {
		char key[64];
		__u64 v = 0;

		snprintf(key, sizeof(key), "%s%s",
			 cg->version == 2 ? "" : "total_",
			 cg_files[RS_CG_STAT].keys[k].key);
		fresh.known = rs_key_value(text, key, &v);
		fresh.count += v;
	}
	if (!(fresh.path = strdup(parent)))
		return false;
	slot = rs_sorted_insert((void **)&ps->v, &ps->nr, &ps->cap,
				sizeof(*ps->v), pos);
	if (!slot) {
		free(fresh.path);
		return false;
	}
	*slot = fresh;
	*count = fresh.count;
	return fresh.known;
}

static void free_parents(struct parents *ps)
{
	for (size_t i = 0; i < ps->nr; i++)
		free(ps->v[i].path);
	free(ps->v);
}

/*
 * The files of a due memcg that may have changed since its stamp (none
 * valid: never read, or read too soon after the start to stamp).
 */
static unsigned files_to_read(const struct stamp *st, bool all, bool known,
			      const __u64 now[RS_CG_NR_FILES])
{
	unsigned files = 0;

	for (int w = 0; w < RS_CG_NR_FILES; w++)
		if (all || !known || !(st->valid & (1u << w)) ||
		    st->count[w] != now[w])
			files |= 1u << w;
	return files;
}

void rs_cgroups_sample(struct rs_cgroups *cg, struct rs_model *m, bool all)
{
	double t = rs_model_time(m);
	__u64 now[RS_CG_NR_FILES] = {0};
	bool known = vm_counts(now);
	const struct vm_mark *before;
	size_t nr = 0, old = 0, cap;
	struct stamp *stamps = NULL;
	struct parents parents = {0};

	/* this refresh's stamps go to the last one's array, kept spare */
	if (rs_grow((void **)&cg->spare, &cg->cap_spare, rs_model_nr_memcgs(m),
		    sizeof(*stamps)))
		stamps = cg->spare;
	if (known)
		add_mark(cg, t, now);
	before = known ? mark_before(cg, t) : NULL;
	/* the memcgs and the stamps are both in id order: one merge */
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		struct stamp st = {.id = mc->id};
		unsigned files = 0;
		bool have_parent = false;
		__u64 parent = 0;

		while (old < cg->nr_stamps && cg->stamps[old].id < mc->id)
			old++;
		if (old < cg->nr_stamps && cg->stamps[old].id == mc->id)
			st = cg->stamps[old];
		if (mc->path && !mc->gone && due(cg, m, mc, all))
			files = files_to_read(&st, all, known, now);
		if ((files & (1u << RS_CG_STAT)) && !all) {
			have_parent =
				parent_count(cg, &parents, mc->path, &parent);
			if (have_parent && (st.valid & RS_CG_PARENT_VALID) &&
			    st.parent == parent)
				files &= ~(1u << RS_CG_STAT);
		}
		if (files)
			read_counters(cg, mc->path, m, mc->id, false, files);
		for (int w = 0; w < RS_CG_NR_FILES; w++) {
			if (!(files & (1u << w)))
				continue; /* not read: as of its stamp */
			st.valid &= ~(1u << w);
			if (before) {
				st.count[w] = before->count[w];
				st.valid |= 1u << w;
			}
		}
		if (files & (1u << RS_CG_STAT)) {
			st.valid &= ~RS_CG_PARENT_VALID;
			if (have_parent) {
				st.parent = parent;
				st.valid |= RS_CG_PARENT_VALID;
			}
		}
		if (st.valid && stamps)
			stamps[nr++] = st;
	}
	free_parents(&parents);
	if (!stamps) { /* no room: every due memcg is read next time */
		cg->nr_stamps = 0;
	} else { /* the last refresh's array is the next one's spare */
		cap = cg->cap_spare;
		cg->spare = cg->stamps;
		cg->cap_spare = cg->cap_stamps;
		cg->stamps = stamps;
		cg->cap_stamps = cap;
		cg->nr_stamps = nr;
	}
	rs_model_cg_apply(m);
}

/* A number from a cgroupfs file: "max" is +inf, anything else unknown. */
static double read_number(const char *root, const char *rel, const char *file)
{
	char path[RS_CG_PATH_MAX], buf[64], *end;
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
	char path[RS_CG_PATH_MAX], buf[256];
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
