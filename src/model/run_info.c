// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "run_info.h"
#include "fields.h"

const char *rs_hook_state_word(enum rs_hook_state state)
{
	switch (state) {
	case RS_HOOK_ATTACHED:
		return "attached";
	case RS_HOOK_MISSING:
		return "missing";
	default:
		return "failed";
	}
}

const char *rs_hook_state_text(const struct rs_hook_status *h, char *buf,
			       size_t size)
{
	/* the schema fixes "missing" alone; its reason is in `probe` */
	if (h->state != RS_HOOK_FAILED && h->state != RS_HOOK_UNTRIED)
		return rs_hook_state_word(h->state);
	snprintf(buf, size, "failed: %s", h->why[0] ? h->why : "?");
	return buf;
}

bool rs_hook_cost_known(const struct rs_run_info *info, enum rs_hook h)
{
	return info->cost_known && rs_hooks[h].bpf &&
	       info->hooks[h].state == RS_HOOK_ATTACHED;
}

const char *rs_mode(const struct rs_run_info *info)
{
	static const __u64 series_hooks = RS_HOOK_BIT(TRY_TO_SHRINK_LRUVEC) |
					  RS_HOOK_BIT(EVICT_FOLIOS) |
					  RS_HOOK_BIT(LRUVEC_EVICTABLE_SIZE) |
					  RS_HOOK_BIT(TRY_TO_INC_MAX_SEQ) |
					  RS_HOOK_BIT(HANDLE_RECLAIM_WRITEBACK);
	__u64 fentry_hooks = 0;

	for (int h = 0; h < RS_NR_HOOKS; h++)
		if (rs_hooks[h].fentry)
			fentry_hooks |= 1ULL << h;
	if ((info->attached & series_hooks) == series_hooks)
		return "full";
	if (!(info->attached & fentry_hooks))
		return "tracepoint-only";
	return "partial";
}
