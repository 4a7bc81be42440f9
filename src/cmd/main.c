// SPDX-License-Identifier: GPL-2.0
/* reclaimscope: eBPF observability for Linux memory reclaim. */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

const char *argp_program_version = "reclaimscope 0.1";
const char *argp_program_bug_address = "the project's issue tracker";

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"probe", rs_cmd_probe,
	 "what the running kernel offers and which hooks attach"},
	{"record", rs_cmd_record,
	 "record per-memcg reclaim activity as NDJSON"},
	{"top", rs_cmd_top, "live view of reclaim per memcg"},
	{"daemon", rs_cmd_daemon,
	 "serve Prometheus metrics and a JSON API over HTTP"},
	{"report", rs_cmd_report,
	 "summarize a recording (text, or HTML with charts)"},
	{"diff", rs_cmd_diff,
	 "compare recordings, or groups of runs with confidence intervals"},
};

static const char doc[] =
	"Observe Linux memory reclaim per memory cgroup: scan budgets, aging, "
	"dirty/writeback handling and throttling of MGLRU and the classic LRU, "
	"from eBPF programs on the vmscan tracepoints and reclaim functions."
	"\v"
	"Run `reclaimscope COMMAND --help` for a command's options.\n"
	"\n"
	"EXAMPLES:\n"
	"  reclaimscope probe                 # can it run here, and how "
	"fully?\n"
	"  reclaimscope record -d 30 -o r.ndjson\n"
	"  reclaimscope record --events --cgroup /workload -i 5\n"
	"\n"
	"To judge one kernel (or patch) against another over repeated runs "
	"of the MGLRU series' workloads in qemu guests, the source tree's "
	"scripts/lab (README: \"Judge a kernel\").\n"
	"\n"
	"Needs root (or CAP_BPF and CAP_PERFMON) and a kernel with BTF.";

static char args_doc[] = "COMMAND [ARGS...]";

/* The commands' list after the options, from the table above. */
static char *help_filter(int key, const char *text, void *input)
{
	char *list = NULL;
	size_t len = 0;
	FILE *f;

	(void)input;
	if (key != ARGP_KEY_HELP_POST_DOC || !text)
		return (char *)text;
	f = open_memstream(&list, &len);
	if (!f)
		return (char *)text;
	fprintf(f, "COMMANDS:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(f, "\n%s", text);
	if (fclose(f)) {
		free(list);
		return (char *)text;
	}
	return list; /* argp frees it */
}

/*
 * What a command printed must have reached its file: a full disk or a
 * closed pipe is an error (exit 1), never a silent success.
 */
static int close_stdout(int rc)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		fprintf(stderr,
			"reclaimscope: writing standard output failed: %s\n",
			strerror(errno ? errno : EIO));
		return rc ? rc : 1;
	}
	return rc;
}

static error_t parse_top(int key, char *arg, struct argp_state *state)
{
	int *cmd_index = state->input;

	(void)arg;
	switch (key) {
	case ARGP_KEY_ARG:
		/* the first word is the command; the rest is its own */
		*cmd_index = state->next - 1;
		state->next = state->argc;
		return 0;
	case ARGP_KEY_NO_ARGS:
		argp_usage(state);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

int main(int argc, char **argv)
{
	static const struct argp argp = {NULL, parse_top,   args_doc, doc,
					 NULL, help_filter, NULL};
	int cmd_index = -1;

	/* usage errors exit 2 like unknown commands (argp's default is 64) */
	argp_err_exit_status = 2;
	argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &cmd_index);
	if (cmd_index < 0)
		return 2;
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char name[64];

		if (strcmp(argv[cmd_index], commands[i].name))
			continue;
		/* argp names the program by argv[0] in usage and errors */
		snprintf(name, sizeof(name), "reclaimscope %s",
			 commands[i].name);
		argv[cmd_index] = name;
		return close_stdout(
			commands[i].run(argc - cmd_index, argv + cmd_index));
	}
	fprintf(stderr,
		"reclaimscope: unknown command '%s'\n"
		"Try `reclaimscope --help` for the list of commands.\n",
		argv[cmd_index]);
	return 2;
}
