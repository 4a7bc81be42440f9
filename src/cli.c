// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "fields.h"

static const struct argp_option common_options[] = {
	{"verbose", 'v', NULL, 0, "Show libbpf's debug output", -1},
	{0},
};

static error_t parse_common(int key, char *arg, struct argp_state *state)
{
	struct rs_common_opts *o = state->input;

	(void)arg;
	switch (key) {
	case 'v':
		o->verbose = true;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp common_argp = {
	common_options, parse_common, NULL, NULL, NULL, NULL, NULL,
};

const struct argp_child rs_common_children[] = {
	{&common_argp, 0, "Common options:", 0},
	{0},
};

error_t rs_cli_parse_default(int key, char *arg, struct argp_state *state,
			     struct rs_common_opts *common)
{
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = common;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

int rs_cli_open(struct rs_collector **c, struct rs_run_info *info,
		const struct rs_collector_opts *opts)
{
	char err[512];

	if (rs_collector_open(c, info, opts, err, sizeof(err))) {
		fprintf(stderr, "reclaimscope: %s\n", err);
		return 1;
	}
	return 0;
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

static volatile int *signal_flag;

static void on_signal(int sig)
{
	(void)sig;
	if (signal_flag)
		*signal_flag = 1;
}

void rs_cli_on_signals(volatile int *flag)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	signal_flag = flag;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
