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
#include "util.h"
#include "tiers.skel.h"

struct rs_tier_iter {
	struct tiers_bpf *skel;
	struct bpf_link *link;
	int root_fd;
	char *buf; /* what one read of the iterator gave */
	size_t cap;
	__u64 refaults; /* /proc/vmstat's, at the last read */
	bool refaults_known;
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
	info->hooks[RS_HOOK_TIERS].state = RS_HOOK_ATTACHED;
	snprintf(info->hooks[RS_HOOK_TIERS].programs,
		 sizeof(info->hooks[0].programs), "rs_tiers");
	info->attached |= RS_HOOK_BIT(TIERS);
	return t;
fail:
	rs_tier_iter_close(t);
	return NULL;
}

/* One read of the iterator, whole, into t->buf: its length, or -errno. */
static ssize_t read_all(struct rs_tier_iter *t)
{
	int fd = bpf_iter_create(bpf_link__fd(t->link));
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	for (;;) {
		if (t->cap - len < 4096) {
			size_t cap = t->cap ? t->cap * 2 : 65536;
			char *buf = realloc(t->buf, cap);

			if (!buf) {
				close(fd);
				return -ENOMEM;
			}
			t->buf = buf;
			t->cap = cap;
		}
		n = read(fd, t->buf + len, t->cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	return (ssize_t)len;
}

/*
 * Whether the tiers may have moved since the last read: reclaim moves
 * them (a program ran: due), and so does a refault, which runs no program
 * of ours but counts in /proc/vmstat.  An idle machine with thousands of
 * memcgs is then not walked every refresh.
 */
static bool tiers_moved(struct rs_tier_iter *t, bool due)
{
	char text[16384];
	__u64 anon = 0, file = 0;
	bool known;

	known = !rs_read_file("/proc/vmstat", text, sizeof(text)) &&
		rs_key_value(text, "workingset_refault_anon", &anon) &&
		rs_key_value(text, "workingset_refault_file", &file);
	if (!known || !t->refaults_known || anon + file != t->refaults)
		due = true;
	t->refaults = anon + file;
	t->refaults_known = known;
	return due;
}

int rs_tier_iter_read(struct rs_tier_iter *t, struct rs_model *m, bool due)
{
	const struct rs_tier_record *rec;
	struct rs_tiers sum;
	__u64 id = 0;
	ssize_t len;
	size_t nr;

	if (!t || !tiers_moved(t, due))
		return 0;
	len = read_all(t);
	if (len < 0)
		return (int)len;
	nr = (size_t)len / sizeof(*rec);
	rec = (const struct rs_tier_record *)t->buf;
	/* a memcg's nodes come one after another: sum them */
	for (size_t i = 0; i < nr; i++) {
		if (i == 0 || rec[i].cgid != id) {
			if (i && rs_model_set_tiers(m, id, &sum))
				return -ENOMEM;
			memset(&sum, 0, sizeof(sum));
			id = rec[i].cgid;
		}
		if (rec[i].nr_tiers > sum.nr_tiers)
			sum.nr_tiers = rec[i].nr_tiers;
		for (int type = 0; type < 2; type++)
			for (int tier = 0; tier < RS_MAX_NR_TIERS; tier++)
				for (int c = 0; c < RS_NR_TIER_COUNTERS; c++)
					sum.v[type][tier][c] +=
						rec[i].v[type][tier][c];
	}
	if (nr && rs_model_set_tiers(m, id, &sum))
		return -ENOMEM;
	return 0;
}

void rs_tier_iter_close(struct rs_tier_iter *t)
{
	if (!t)
		return;
	bpf_link__destroy(t->link);
	tiers_bpf__destroy(t->skel);
	if (t->root_fd >= 0)
		close(t->root_fd);
	free(t->buf);
	free(t);
}
