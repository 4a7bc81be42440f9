// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "tier_iter.h"
#include "map_read.h"
#include "util.h"
#include "tiers.skel.h"

#define RS_TIER_MOVED_KEYS 6

struct rs_tier_iter {
	struct tiers_bpf *skel;
	struct bpf_link *link;
	int root_fd;
	struct rs_tier_record *recs; /* the last walk's, sorted */
	size_t cap;
	__u64 walk;	 /* walks begun: stamped on their records */
	__u64 lost_said; /* rs_tier_lost when last said */
	bool error_said;
	bool mglru_off;			 /* rs_tier_iter_mglru */
	__u64 moved[RS_TIER_MOVED_KEYS]; /* /proc/vmstat's, at the last read */
	bool moved_known;
	/* the first record's clocks, against which HZ is learnt (0: not yet
	 * known), for the generations' births */
	__u64 jiffies0, mono0;
	unsigned hz;
	__u64 torn; /* reads of generations torn by an aging, not taken */
	/* the run's start (CLOCK_MONOTONIC, ns), set once the collector is
	 * up: a record's clock in model time, so that a birth is placed by
	 * the moment its lruvec was read, not by when the snapshot began */
	const __u64 *start_ns;
};

__attribute__((format(printf, 2, 3))) static void
missing(struct rs_run_info *info, const char *fmt, ...)
{
	struct rs_hook_status *h = &info->hooks[RS_HOOK_TIERS];
	va_list ap;

	h->state = RS_HOOK_MISSING;
	va_start(ap, fmt);
	vsnprintf(h->why, sizeof(h->why), fmt, ap); /* a long path is cut */
	va_end(ap);
}

static int walk(struct rs_tier_iter *t);
static ssize_t take_records(struct rs_tier_iter *t);
static void learn_hz(struct rs_tier_iter *t, const struct rs_tier_record *rec);

struct rs_tier_iter *rs_tier_iter_open(struct rs_run_info *info,
				       const char *btf_path, bool lrugen)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts,
		    .btf_custom_path = btf_path);
	union bpf_iter_link_info link_info;
	LIBBPF_OPTS(bpf_iter_attach_opts, iter_opts, .link_info = &link_info,
		    .link_info_len = sizeof(link_info));
	struct rs_tier_iter *t;
	int err;

	if (info->cgroup_version != 2) {
		missing(info, "%s",
			info->cgroup_version
				? "the memory controller is on cgroup v1; the "
				  "cgroup iterator walks v2 only"
				: "no memory cgroup hierarchy is mounted");
		return NULL;
	}
	if (!lrugen) {
		missing(info, "this kernel has no MGLRU (no struct "
			      "lru_gen_folio)");
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		missing(info, "out of memory");
		return NULL;
	}
	t->start_ns = &info->start_ns;
	t->root_fd =
		open(info->cgroup_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->root_fd < 0) {
		missing(info, "cannot open %s: %s", info->cgroup_root,
			strerror(errno));
		goto fail;
	}
	t->skel = tiers_bpf__open_opts(&open_opts);
	if (!t->skel) {
		missing(info, "open of the tier iterator: %s", strerror(errno));
		goto fail;
	}
	t->skel->rodata->rs_nr_nodes = (__u32)info->nr_nodes;
	err = tiers_bpf__load(t->skel);
	if (err) {
		missing(info, "load of rs_tiers: %s (-v shows the log)",
			strerror(-err));
		goto fail;
	}
	memset(&link_info, 0, sizeof(link_info));
	link_info.cgroup.cgroup_fd = (__u32)t->root_fd;
	link_info.cgroup.order = BPF_CGROUP_ITER_DESCENDANTS_PRE;
	t->link = bpf_program__attach_iter(t->skel->progs.rs_tiers, &iter_opts);
	if (!t->link) {
		missing(info,
			"attach of rs_tiers (a cgroup iterator, v6.1): %s",
			strerror(errno));
		goto fail;
	}
	/* the first clocks for HZ: the generations' ages need it */
	if (!walk(t) && take_records(t) > 0)
		learn_hz(t, &t->recs[0]);
	info->hooks[RS_HOOK_TIERS].state = RS_HOOK_ATTACHED;
	snprintf(info->hooks[RS_HOOK_TIERS].programs,
		 sizeof(info->hooks[0].programs), "rs_tiers");
	info->attached |= RS_HOOK_BIT(TIERS);
	return t;
fail:
	rs_tier_iter_close(t);
	return NULL;
}

/*
 * One walk of the iterator: it puts its records in rs_tier_records and
 * writes nothing to read.  0, or -errno.
 */
static int walk(struct rs_tier_iter *t)
{
	int fd = bpf_iter_create(bpf_link__fd(t->link));
	char sink[64];
	ssize_t n;

	if (fd < 0)
		return -errno;
	t->skel->bss->rs_tier_walk = ++t->walk;
	do
		n = read(fd, sink, sizeof(sink));
	while (n > 0 || (n < 0 && errno == EINTR));
	n = n < 0 ? -errno : 0;
	close(fd);
	return (int)n;
}

/* What take_records() collects from the map. */
struct taken {
	struct rs_tier_iter *t;
	size_t nr, nr_stale, cap_stale;
	struct rs_tier_key *stale;
};

static int take_one(void *ctx, const void *key, const void *value)
{
	struct taken *tk = ctx;
	struct rs_tier_iter *t = tk->t;
	const struct rs_tier_record *rec = value;

	if (rec->walk != t->walk) {
		/* a memcg the walk no longer met: gone */
		if (!rs_grow((void **)&tk->stale, &tk->cap_stale,
			     tk->nr_stale + 1, sizeof(*tk->stale)))
			return -ENOMEM;
		tk->stale[tk->nr_stale++] = *(const struct rs_tier_key *)key;
		return 0;
	}
	if (!rs_grow((void **)&t->recs, &t->cap, tk->nr + 1, sizeof(*rec)))
		return -ENOMEM;
	t->recs[tk->nr++] = *rec;
	return 0;
}

static int cmp_record(const void *a, const void *b)
{
	const struct rs_tier_record *x = a, *y = b;

	if (x->cgid != y->cgid)
		return x->cgid < y->cgid ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/*
 * The records of the last walk into t->recs, a memcg's nodes one after
 * another; those of memcgs gone are taken out of the map.  How many, or
 * -errno.
 */
static ssize_t take_records(struct rs_tier_iter *t)
{
	int fd = bpf_map__fd(t->skel->maps.rs_tier_records);
	struct taken tk = {.t = t};
	__u64 lost = t->skel->bss->rs_tier_lost;
	int err = rs_map_each(fd, sizeof(struct rs_tier_key),
			      sizeof(struct rs_tier_record), take_one, &tk);

	for (size_t i = 0; i < tk.nr_stale; i++)
		bpf_map_delete_elem(fd, &tk.stale[i]);
	free(tk.stale);
	if (err)
		return err;
	if (lost > t->lost_said) {
		/* said, not only counted: these memcgs show no tiers and no
		 * generations */
		fprintf(stderr,
			"reclaimscope: %llu lruvecs' tiers and generations "
			"were "
			"not read: the iterator's map of %u is full\n",
			(unsigned long long)(lost - t->lost_said),
			(unsigned)RS_TIER_MAX_LRUVECS);
		t->lost_said = lost;
	}
	qsort(t->recs, tk.nr, sizeof(*t->recs), cmp_record);
	return (ssize_t)tk.nr;
}

/*
 * What in /proc/vmstat moves when the tiers or the generations may have
 * moved without a program of ours running: refaults move the tiers, and
 * pages added to or freed from an LRU (faults, exits) or moved into the
 * youngest generations (which the kernel counts as active) move the
 * generations' sizes.  Reclaim, which moves the rest, runs our programs.
 */
static const char *const moved_keys[RS_TIER_MOVED_KEYS] = {
	"workingset_refault_anon", "workingset_refault_file",
	"nr_inactive_anon",	   "nr_active_anon",
	"nr_inactive_file",	   "nr_active_file",
};

/*
 * Whether the tiers or generations may have moved since the last read:
 * due (a program ran), or a count above moved.  An idle machine with
 * thousands of memcgs is then not walked every refresh.
 */
static bool tiers_moved(struct rs_tier_iter *t, bool due)
{
	char text[16384];
	__u64 now[RS_TIER_MOVED_KEYS];
	bool known = !rs_read_file("/proc/vmstat", text, sizeof(text));

	for (int i = 0; i < RS_TIER_MOVED_KEYS && known; i++)
		known = rs_key_value(text, moved_keys[i], &now[i]);
	if (!known || !t->moved_known || memcmp(now, t->moved, sizeof(now)))
		due = true;
	if (known)
		memcpy(t->moved, now, sizeof(now));
	t->moved_known = known;
	return due;
}

/* HZ, once two records' clocks are far enough apart. */
static void learn_hz(struct rs_tier_iter *t, const struct rs_tier_record *rec)
{
	if (t->hz || !rec->gens_known)
		return;
	if (!t->mono0) {
		t->jiffies0 = rec->jiffies;
		t->mono0 = rec->mono_ns;
		t->hz = rs_hz_from_boot(rec->jiffies, rec->mono_ns);
		return;
	}
	t->hz = rs_hz_learn(t->jiffies0, t->mono0, rec->jiffies, rec->mono_ns);
}

/* One memcg's tiers, summed over its nodes, into the model (where any
 * node's were read). */
static int put_tiers(struct rs_model *m, __u64 id, const struct rs_tiers *sum)
{
	return sum->nr_tiers && rs_model_set_tiers(m, id, sum) ? -ENOMEM : 0;
}

int rs_tier_iter_read(struct rs_tier_iter *t, struct rs_model *m, bool due)
{
	const struct rs_tier_record *rec;
	struct rs_lruvec_gens gens;
	struct rs_tiers sum;
	__u64 id = 0;
	ssize_t len;
	size_t nr;
	int err;

	if (!t || !tiers_moved(t, due))
		return 0;
	err = walk(t);
	len = err ? err : take_records(t);
	if (len < 0) {
		/* said once, not only with -v: the memcgs' tiers and
		 * generations stay as last read */
		if (!t->error_said)
			fprintf(stderr,
				"reclaimscope: reading the tiers and "
				"generations failed: %s\n",
				strerror((int)-len));
		t->error_said = true;
		return (int)len;
	}
	nr = (size_t)len;
	rec = t->recs;
	/* a memcg's nodes come one after another: sum their tiers */
	for (size_t i = 0; i < nr; i++) {
		if (i == 0 || rec[i].cgid != id) {
			if (i && put_tiers(m, id, &sum))
				return -ENOMEM;
			memset(&sum, 0, sizeof(sum));
			id = rec[i].cgid;
		}
		if (rec[i].nr_tiers > sum.nr_tiers)
			sum.nr_tiers = rec[i].nr_tiers;
		for (int type = 0; type < 2 && rec[i].nr_tiers; type++)
			for (int tier = 0; tier < RS_MAX_NR_TIERS; tier++)
				for (int c = 0; c < RS_NR_TIER_COUNTERS; c++)
					sum.v[type][tier][c] +=
						rec[i].v[type][tier][c];
		learn_hz(t, &rec[i]);
		if (!rec[i].gens_known || t->mglru_off)
			continue;
		/* torn by an aging: the last sample stands until the next
		 * read, which is not lost (the generations are state) */
		if (rs_gens_record_torn(&rec[i])) {
			t->torn++;
			continue;
		}
		rs_gens_from_record(
			&rec[i], t->hz,
			((double)rec[i].mono_ns - (double)*t->start_ns) / 1e9,
			&gens);
		if (rs_model_set_gens(m, id, &gens))
			return -ENOMEM;
	}
	if (nr && put_tiers(m, id, &sum))
		return -ENOMEM;
	if (t->hz && !rs_model_hz(m))
		rs_model_set_hz(m, t->hz);
	return 0;
}

unsigned rs_tier_iter_hz(const struct rs_tier_iter *t)
{
	return t ? t->hz : 0;
}

void rs_tier_iter_mglru(struct rs_tier_iter *t, bool on)
{
	if (t)
		t->mglru_off = !on;
}

void rs_tier_iter_close(struct rs_tier_iter *t)
{
	if (!t)
		return;
	bpf_link__destroy(t->link);
	tiers_bpf__destroy(t->skel);
	if (t->root_fd >= 0)
		close(t->root_fd);
	free(t->recs);
	free(t);
}
