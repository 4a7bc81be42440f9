// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include "privileges.h"

/* Older libcap headers may predate these (Linux 5.8). */
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool has_any(cap_t caps, cap_flag_t flag)
{
	cap_flag_value_t v;

	for (cap_value_t c = 0; c < (cap_value_t)cap_max_bits(); c++)
		if (!cap_get_flag(caps, c, flag, &v) && v == CAP_SET)
			return true;
	return false;
}

/* Exactly the capabilities in keep (of those permitted), all three sets. */
static int set_only(cap_t now, const cap_value_t *keep, int nr_keep, char *kept,
		    size_t size)
{
	cap_t next = cap_init();
	size_t used = 0;
	int err = 0;

	if (!next)
		return -errno;
	kept[0] = 0;
	for (int i = 0; i < nr_keep; i++) {
		cap_flag_value_t v;
		char *name;

		if (cap_get_flag(now, keep[i], CAP_PERMITTED, &v) ||
		    v != CAP_SET)
			continue;
		cap_set_flag(next, CAP_PERMITTED, 1, &keep[i], CAP_SET);
		cap_set_flag(next, CAP_EFFECTIVE, 1, &keep[i], CAP_SET);
		name = cap_to_name(keep[i]);
		used += snprintf(kept + used, used < size ? size - used : 0,
				 "%s%s", used ? "," : "", name ? name : "?");
		cap_free(name);
	}
	if (!used)
		snprintf(kept, size, "none");
	if (cap_set_proc(next))
		err = -errno;
	cap_free(next);
	return err;
}

int rs_drop_capabilities(int (*still_works)(void *ctx), void *ctx, char *kept,
			 size_t size)
{
	static const cap_value_t bpf_caps[] = {CAP_BPF, CAP_PERFMON,
					       CAP_SYS_ADMIN};
	cap_t now = cap_get_proc(), trial = NULL;
	bool needs_bpf_caps, bound_kept = false;
	int err = 0;

	snprintf(kept, size, "none");
	if (!now)
		return -errno;
	if (!has_any(now, CAP_PERMITTED))
		goto out; /* nothing to give up */

	/*
	 * Some kernels check capabilities only when BPF objects are made,
	 * others on every bpf() command while kernel.unprivileged_bpf_disabled
	 * is set: try the run's own operations with no effective capability.
	 */
	trial = cap_dup(now);
	if (!trial || cap_clear_flag(trial, CAP_EFFECTIVE) ||
	    cap_set_proc(trial)) {
		err = -errno;
		goto out;
	}
	needs_bpf_caps = still_works(ctx) != 0;
	/* back to the full set, to be allowed to shrink the bounding set */
	if (cap_set_proc(now)) {
		err = -errno;
		goto out;
	}
	/* nothing is executed, but nothing executed could regain them */
	for (cap_value_t c = 0; c < (cap_value_t)cap_max_bits(); c++) {
		bool keep = false;

		for (size_t i = 0; needs_bpf_caps && i < 3; i++)
			keep |= c == bpf_caps[i];
		/* needs CAP_SETPCAP: a non-root user granted only the BPF
		 * capabilities cannot shrink it */
		if (!keep && CAP_IS_SUPPORTED(c) && cap_drop_bound(c))
			bound_kept = true;
	}
	cap_reset_ambient();
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	err = set_only(now, bpf_caps, needs_bpf_caps ? 3 : 0, kept, size);
	if (!err && bound_kept) {
		size_t used = strlen(kept);

		snprintf(kept + used, size - used,
			 "; bounding set unchanged (no CAP_SETPCAP), "
			 "no-new-privs set");
	}
out:
	cap_free(trial);
	cap_free(now);
	return err;
}
