/* SPDX-License-Identifier: GPL-2.0 */
/* What every command shares: common options, opening the collector. */
#ifndef RS_CLI_H
#define RS_CLI_H

#include <argp.h>
#include <stdbool.h>
#include "collector.h"
#include "run_info.h"

struct rs_common_opts {
	bool verbose;
	bool bpf_stats;
	const char *btf_path; /* --btf: the kernel's types from this file */
	int copies;	      /* --copies; 0: RS_COPIES */
	bool refaults;	      /* --refaults: the per-folio refault hook */
	__u64 budget_ns;      /* --budget-ms (live commands); 0: default */
};

/*
 * argp children for every command: -v.  Child 0's input is a struct
 * rs_common_opts, set in ARGP_KEY_INIT.
 */
extern const struct argp_child rs_common_children[];

/*
 * The children of the live commands (record, daemon, top): the common
 * options and --budget-ms, which reaches the BPF programs.  Each child's
 * input is the command's struct rs_common_opts.
 */
extern const struct argp_child rs_live_children[];

/*
 * A latency budget given in ms (--budget-ms), into whole ns as the BPF
 * programs compare with (8.3 is 8300000, not 8.3 * 1e6): 1 ns to an hour;
 * else an argp error that says what to give.
 */
error_t rs_cli_parse_budget(struct argp_state *state, const char *arg,
			    __u64 *ns);

/*
 * The default branch of a command's argp parser: hands the common options'
 * struct to the child and refuses stray arguments.
 */
error_t rs_cli_parse_default(int key, char *arg, struct argp_state *state,
			     struct rs_common_opts *common);

/* The collector options the common options decide. */
void rs_cli_collector_opts(const struct rs_common_opts *common,
			   struct rs_collector_opts *copts);

/* -i SECONDS, as every live command takes it (0.1 to 3600 s). */
error_t rs_cli_parse_interval(struct argp_state *state, const char *arg,
			      double *out);

/* Open the collector, or print what failed and what to do (exit code 1). */
int rs_cli_open(struct rs_collector **c, struct rs_run_info *info,
		const struct rs_collector_opts *opts);

/* Install SIGINT/SIGTERM/SIGHUP handlers that set *flag. */
void rs_cli_on_signals(volatile int *flag);

int rs_cmd_probe(int argc, char **argv);
int rs_cmd_record(int argc, char **argv);
int rs_cmd_daemon(int argc, char **argv);
int rs_cmd_top(int argc, char **argv);
int rs_cmd_report(int argc, char **argv);
int rs_cmd_diff(int argc, char **argv);

#endif
