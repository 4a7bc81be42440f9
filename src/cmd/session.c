// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "kernel.h"
#include "privileges.h"
#include "session.h"
#include "util.h"

static int check_access(void *collector)
{
	return rs_collector_check_access(collector);
}

int rs_session_open(struct rs_session *s, const struct rs_collector_opts *o)
{
	int err;

	s->cgroups = rs_cgroups_open();
	if (s->cgroups) {
		snprintf(s->info.cgroup_root, sizeof(s->info.cgroup_root), "%s",
			 rs_cgroups_root(s->cgroups));
		s->info.cgroup_version = rs_cgroups_version(s->cgroups);
	}
	if (rs_cli_open(&s->collector, &s->info, o))
		goto fail;
	s->model = rs_model_new(s->info.attached);
	if (!s->model) {
		fprintf(stderr, "reclaimscope: out of memory\n");
		goto fail;
	}
	if (s->cgroups)
		rs_cgroups_baseline(s->cgroups, s->model);
	rs_rfc3339_now(s->info.start, sizeof(s->info.start));
	/* attached: from here on the run only reads */
	err = rs_drop_capabilities(check_access, s->collector,
				   s->info.caps_kept,
				   sizeof(s->info.caps_kept));
	if (err) {
		fprintf(stderr, "reclaimscope: cannot drop capabilities: %s\n",
			strerror(-err));
		goto fail;
	}
	return 0;
fail:
	rs_session_close(s);
	return 1;
}

double rs_session_time(const struct rs_session *s)
{
	return (rs_now_ns() - s->info.start_ns) / 1e9;
}

/* Gone long enough: out of the kernel maps, then out of the model. */
static void expire(struct rs_session *s)
{
	__u64 ids[256];
	size_t n;

	do {
		n = rs_model_expired(s->model, s->expire_after, ids, 256);
		if (!n)
			break;
		rs_collector_forget(s->collector, ids, n);
		for (size_t i = 0; i < n; i++)
			rs_model_forget(s->model, ids[i]);
		s->forgotten += n;
	} while (n == 256);
}

static void learn_name(void *cgroups, __u64 id, __u64 parent_id,
		       const char *name, bool removed)
{
	rs_cgroups_learn(cgroups, id, parent_id, name, removed);
}

/* memcgs made (or removed) since the last call, named by the kernel */
static void learn_names(struct rs_session *s)
{
	if (s->cgroups && s->collector)
		rs_collector_names(s->collector, learn_name, s->cgroups);
}

int rs_session_path(struct rs_session *s, __u64 id, char *buf, size_t size)
{
	if (!s->cgroups)
		return -ENOENT;
	learn_names(s);
	return rs_cgroups_path(s->cgroups, id, buf, size);
}

int rs_session_refresh(struct rs_session *s)
{
	/* MGLRU can be switched at any time (lru_gen/enabled): follow it,
	 * before the generations are read */
	int mglru = rs_kernel_mglru();
	int err;

	rs_collector_mglru(s->collector, mglru > 0);
	err = rs_collector_snapshot(s->collector, s->model, rs_session_time(s),
				    s->look_at_all);
	if (err)
		return err;
	rs_collector_cost(s->collector, &s->info);
	if (s->cgroups) {
		learn_names(s);
		rs_cgroups_update_model(s->cgroups, s->model, s->look_at_all);
		rs_cgroups_sample(s->cgroups, s->model, s->look_at_all);
		if (s->gauges)
			rs_cgroups_gauges(s->cgroups, s->model);
	}
	if (s->expire_after > 0)
		expire(s);
	s->mglru_switched = (mglru > 0) != (s->info.mglru_enabled > 0);
	s->info.mglru_enabled = mglru;
	/* switched off, the kernel moves every page to the classic LRU and
	 * the generations it leaves are not the LRU's: no timeline then */
	if (mglru <= 0)
		rs_model_clear_gens(s->model);
	return 0;
}

void rs_session_note_mglru(const struct rs_session *s, FILE *f)
{
	if (!s->mglru_switched)
		return;
	if (s->info.mglru_enabled > 0)
		fprintf(f,
			"reclaimscope: MGLRU switched on at %.1f s: the MGLRU "
			"hooks take over from the classic-LRU ones\n",
			rs_session_time(s));
	else
		fprintf(f,
			"reclaimscope: MGLRU switched off at %.1f s: the MGLRU "
			"hooks fall quiet, the classic-LRU ones take over; "
			"generation timelines are null from now\n",
			rs_session_time(s));
}

void rs_session_close(struct rs_session *s)
{
	rs_collector_close(s->collector);
	rs_model_free(s->model);
	rs_cgroups_close(s->cgroups);
	s->collector = NULL;
	s->model = NULL;
	s->cgroups = NULL;
}
