// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "fields.h"
#include "util.h"

enum { RS_OPT_BPF_STATS = 0x1000, RS_OPT_BTF, RS_OPT_COPIES, RS_OPT_REFAULTS };

static const struct argp_option common_options[] = {
	{"verbose", 'v', NULL, 0, "Show libbpf's debug output", -1},
	{"bpf-stats", RS_OPT_BPF_STATS, NULL, 0,
	 "Have the kernel time every run of our programs while we run, so that "
	 "probe, /metrics and snapshots show what each hook costs (needs "
	 "CAP_SYS_ADMIN; adds a clock read or two to each run)",
	 -1},
	{"btf", RS_OPT_BTF, "FILE", 0,
	 "Take the kernel's types from FILE (raw BTF or an ELF file with a "
	 ".BTF section) instead of /sys/kernel/btf/vmlinux, for the programs' "
	 "field offsets and for what probe reports: a kernel whose BTF is "
	 "elsewhere, or a test of what a kernel lacking a field would show",
	 -1},
	{"copies", RS_OPT_COPIES, "N", 0,
	 "Attach N copies of each program (1 to 5, default 5; tracepoint "
	 "programs that run with preemption off need one).  The kernel skips "
	 "a program whose earlier run on the same CPU was preempted; a later "
	 "copy runs instead, so fewer copies cost less and may lose events "
	 "under heavy contention (counted as missed): see BENCHMARKS.md",
	 -1},
	{"refaults", RS_OPT_REFAULTS, NULL, 0,
	 "Also see each refault MGLRU tests (workingset_refault and "
	 "lru_gen_test_recent): refaults by the kernel's verdict, activations, "
	 "restores and how many generations ago each folio left.  Off by "
	 "default: it runs three programs, with their copies, for every "
	 "refaulted folio (probe --cost shows what they take)",
	 -1},
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
	case RS_OPT_BPF_STATS:
		o->bpf_stats = true;
		return 0;
	case RS_OPT_BTF:
		o->btf_path = arg;
		return 0;
	case RS_OPT_REFAULTS:
		o->refaults = true;
		return 0;
	case RS_OPT_COPIES: {
		__u64 n;

		if (rs_parse_u64(arg, 1, RS_COPIES, &n)) {
			argp_error(state,
				   "invalid --copies '%s': give a count from "
				   "1 to %d",
				   arg, RS_COPIES);
			return EINVAL;
		}
		o->copies = (int)n;
		return 0;
	}
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

enum { RS_OPT_BUDGET = 0x1100 };

static const struct argp_option budget_options[] = {
	{"budget-ms", RS_OPT_BUDGET, "MS", 0,
	 "The latency budget, ms (default 8.3, a 120 Hz frame; 16.7 for "
	 "60 Hz): the BPF programs count the direct and memcg reclaims, MGLRU "
	 "passes and throttles longer than MS per memcg and per task, exactly "
	 "and without --events (the *_over_budget counters)",
	 -1},
	{0},
};

error_t rs_cli_parse_budget(struct argp_state *state, const char *arg,
			    __u64 *ns)
{
	double v;

	if (rs_parse_decimal(arg, 0, RS_MAX_BUDGET_NS / 1e6, &v) ||
	    !(v * 1e6 >= 1)) {
		argp_error(state,
			   "invalid latency budget '%s': give milliseconds "
			   "from 0.000001 to %.0f (an hour), e.g. 8.3 (a "
			   "120 Hz frame) or 16.7",
			   arg, RS_MAX_BUDGET_NS / 1e6);
		return EINVAL;
	}
	*ns = (__u64)llround(v * 1e6);
	return 0;
}

static error_t parse_budget(int key, char *arg, struct argp_state *state)
{
	struct rs_common_opts *o = state->input;

	if (key != RS_OPT_BUDGET)
		return ARGP_ERR_UNKNOWN;
	return rs_cli_parse_budget(state, arg, &o->budget_ns);
}

static const struct argp budget_argp = {
	budget_options, parse_budget, NULL, NULL, NULL, NULL, NULL,
};

const struct argp_child rs_live_children[] = {
	{&common_argp, 0, "Common options:", 0},
	{&budget_argp, 0, "Latency budget:", 0},
	{0},
};

error_t rs_cli_parse_default(int key, char *arg, struct argp_state *state,
			     struct rs_common_opts *common)
{
	switch (key) {
	case ARGP_KEY_INIT:
		/* rs_common_children or rs_live_children: each child parses
		 * into the command's common options */
		for (int c = 0; state->root_argp->children[c].argp; c++)
			state->child_inputs[c] = common;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "unexpected argument '%s'", arg);
		return EINVAL;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

void rs_cli_collector_opts(const struct rs_common_opts *common,
			   struct rs_collector_opts *copts)
{
	copts->verbose = common->verbose;
	copts->bpf_stats = common->bpf_stats;
	copts->btf_path = common->btf_path;
	copts->copies = common->copies;
	copts->refaults = common->refaults;
	copts->budget_ns = common->budget_ns; /* 0: the collector's default */
}

error_t rs_cli_parse_interval(struct argp_state *state, const char *arg,
			      double *out)
{
	if (rs_parse_seconds(arg, 0.1, 3600, out)) {
		argp_error(state,
			   "invalid interval '%s': give seconds from 0.1 to "
			   "3600, e.g. 1, 0.5, 500ms, 1m",
			   arg);
		return EINVAL;
	}
	return 0;
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
	/*
	 * A write blocked on a full pipe goes on after the handler (the flag
	 * is seen once it returns) instead of failing with EINTR and losing
	 * the summary; poll() still returns early, as it must to notice.
	 * record's output looks at the flag while blocked by itself
	 * (output.c), so that a reader who never reads cannot hold it.
	 */
	sa.sa_flags = SA_RESTART;
	signal_flag = flag;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed terminal or ssh session: stop cleanly, summary written */
	sigaction(SIGHUP, &sa, NULL);
}
