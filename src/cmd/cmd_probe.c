// SPDX-License-Identifier: GPL-2.0
/* reclaimscope probe: what the running kernel offers, by trying it. */
#include <argp.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cgroups.h"
#include "cli.h"
#include "fields.h"
#include "json_view.h"
#include "kernel.h"
#include "util.h"

struct probe_opts {
	struct rs_common_opts common;
	bool json;
	double cost_seconds; /* 0: detach at once */
};

static const struct argp_option options[] = {
	{"json", 'j', NULL, 0, "Print JSON instead of text", 0},
	{"cost", 'c', "SECONDS", 0,
	 "Stay attached SECONDS (0.1 to 3600) with the kernel timing our "
	 "programs (as --bpf-stats), then say what each hook cost: its "
	 "events and the nanoseconds per event, every copy of its programs "
	 "included",
	 0},
	{0},
};

static const char doc[] =
	"Report the kernel release, the MGLRU state, whether the kernel has "
	"the "
	"MGLRU reclaim-loop series, and for every hook whether it attached, is "
	"missing from this kernel, or failed (and why).  The programs are "
	"really loaded and attached, then detached: what `probe` says is what "
	"`record` gets.\n"
	"\v"
	"EXAMPLES:\n"
	"  reclaimscope probe\n"
	"  reclaimscope probe --json | jq .hooks\n"
	"  reclaimscope probe --cost 10   # while a workload reclaims\n"
	"\n"
	"Exit status: 0 when at least one hook attached, 1 otherwise.";

static error_t parse(int key, char *arg, struct argp_state *state)
{
	struct probe_opts *o = state->input;

	(void)arg;
	switch (key) {
	case 'j':
		o->json = true;
		return 0;
	case 'c':
		if (rs_parse_seconds(arg, 0.1, 3600, &o->cost_seconds)) {
			argp_error(state,
				   "invalid --cost '%s': give seconds from 0.1 "
				   "to 3600, e.g. 10, 500ms, 1m",
				   arg);
			return EINVAL;
		}
		return 0;
	default:
		return rs_cli_parse_default(key, arg, state, &o->common);
	}
}

static json_t *unknown_fields(__u64 attached)
{
	json_t *arr = json_array();

	for (int f = 0; f < RS_NR_FIELDS; f++)
		if (!rs_field_known(f, attached))
			json_array_append_new(arr,
					      json_string(rs_fields[f].key));
	return arr;
}

/* The first hook or kernel member a field needs that is not there. */
static int missing_need(enum rs_field f, __u64 attached)
{
	__u64 lack = rs_fields[f].needs & ~attached;

	return lack ? __builtin_ctzll(lack) : -1;
}

/* "HOOK STATE: WHY": why a field is null here */
static void field_why(const struct rs_run_info *info, enum rs_field f,
		      char *buf, size_t size)
{
	int h = missing_need(f, info->attached);
	const struct rs_hook_status *hs;

	if (h < 0) {
		snprintf(buf, size, "known");
		return;
	}
	hs = &info->hooks[h];
	snprintf(buf, size, "%s %s%s%s", rs_hooks[h].name,
		 rs_hook_state_word(hs->state), hs->why[0] ? ": " : "",
		 hs->why);
}

/* {"field": "why", ...} for every field null here */
static json_t *unknown_why(const struct rs_run_info *info)
{
	json_t *o = json_object();
	char why[256];

	for (int f = 0; f < RS_NR_FIELDS; f++) {
		if (rs_field_known(f, info->attached))
			continue;
		field_why(info, f, why, sizeof(why));
		json_object_set_new(o, rs_fields[f].key, json_string(why));
	}
	return o;
}

/*
 * The null fields grouped by the hook or kernel member they lack, each
 * group with that one's state and reason.
 */
static void print_unknown(const struct rs_run_info *info)
{
	bool shown[RS_NR_FIELDS] = {0};
	char why[256];

	printf("\nunavailable here (shown as null, never as 0):\n");
	for (int f = 0; f < RS_NR_FIELDS; f++) {
		int h = missing_need(f, info->attached), col = 0;

		if (h < 0 || shown[f])
			continue;
		field_why(info, f, why, sizeof(why));
		for (int g = f; g < RS_NR_FIELDS; g++) {
			const char *key = rs_fields[g].key;

			if (shown[g] || missing_need(g, info->attached) != h)
				continue;
			shown[g] = true;
			if (col && col + 2 + (int)strlen(key) > 78) {
				printf(",\n");
				col = 0;
			}
			col += printf("%s%s", col ? ", " : "  ", key);
		}
		printf("\n    (%s)\n", why);
	}
}

/* "a b" -> ["a", "b"]: what to look for in `bpftool prog show` */
static json_t *programs_json(const char *names)
{
	json_t *arr = json_array();
	char copy[sizeof(((struct rs_hook_status *)0)->programs)];

	snprintf(copy, sizeof(copy), "%s", names);
	for (char *save, *n = strtok_r(copy, " ", &save); n;
	     n = strtok_r(NULL, " ", &save))
		json_array_append_new(arr, json_string(n));
	return arr;
}

/* "off", "on" or "unknown" */
static const char *tp_preemption_word(const struct rs_run_info *info)
{
	return info->tp_preempt_off == 1   ? "off"
	       : info->tp_preempt_off == 0 ? "on"
					   : "unknown";
}

static void print_json(const struct rs_run_info *info, bool attached_any)
{
	json_t *o = json_object(), *hooks = json_object();

	rs_json_kernel(o, info);
	json_object_set_new(o, "btf", json_boolean(info->btf));
	json_object_set_new(o, "fentry", json_boolean(info->fentry_ok));
	if (!info->fentry_ok && info->fentry_why[0])
		json_object_set_new(o, "fentry_why",
				    json_string(info->fentry_why));
	json_object_set_new(o, "tracepoint_preemption",
			    json_string(tp_preemption_word(info)));
	json_object_set_new(o, "tracepoint_preemption_why",
			    json_string(info->tp_preempt_why));
	json_object_set_new(o, "tracepoint_copies",
			    json_integer(rs_tp_copies(info)));
	json_object_set_new(o, "cgroup_root", json_string(info->cgroup_root));
	json_object_set_new(o, "mode",
			    json_string(attached_any ? rs_mode(info) : "none"));
	for (int h = 0; h < RS_NR_HOOKS; h++) {
		json_t *e = json_object();
		const struct rs_hook_status *hs = &info->hooks[h];

		json_object_set_new(e, "state",
				    json_string(rs_hook_state_word(hs->state)));
		if (hs->state != RS_HOOK_ATTACHED)
			json_object_set_new(e, "why", json_string(hs->why));
		else if (hs->programs[0])
			json_object_set_new(e, "programs",
					    programs_json(hs->programs));
		if (rs_hook_cost_known(info, h)) {
			json_object_set_new(e, "runs", json_integer(hs->runs));
			json_object_set_new(e, "run_ns",
					    json_integer(hs->run_ns));
		}
		json_object_set_new(hooks, rs_hooks[h].name, e);
	}
	json_object_set_new(o, "hooks", hooks);
	json_object_set_new(o, "unavailable_fields",
			    unknown_fields(info->attached));
	json_object_set_new(o, "unavailable_why", unknown_why(info));
	rs_json_write_line(stdout, o);
	json_decref(o);
}

static void print_text(const struct rs_run_info *info, bool attached_any)
{
	printf("kernel          %s\n", info->kernel);
	printf("BTF             %s\n", info->btf ? "yes" : "no");
	if (info->mglru_enabled < 0)
		printf("MGLRU           not built in (no "
		       "/sys/kernel/mm/lru_gen)\n");
	else
		printf("MGLRU           %s (lru_gen/enabled 0x%04x)\n",
		       info->mglru_enabled ? "enabled" : "disabled",
		       info->mglru_enabled);
	printf("reclaim series  %s\n",
	       info->series ? "present (handle_reclaim_writeback, "
			      "lruvec_evictable_size)"
			    : "absent (pre-series kernel: no scan budget, "
			      "no shared writeback hook)");
	printf("fentry/fexit    %s\n",
	       info->fentry_ok	     ? "usable"
	       : info->fentry_why[0] ? info->fentry_why
				     : "not tried (no function to trace)");
	if (info->bpf_denied)
		printf("tracepoints     %s\n", info->tp_preempt_why);
	else
		printf("tracepoints     preemption %s: %d cop%s of each "
		       "program (%s)\n",
		       tp_preemption_word(info), rs_tp_copies(info),
		       rs_tp_copies(info) == 1 ? "y" : "ies",
		       info->tp_preempt_why);
	printf("memory cgroup   %s\n",
	       info->cgroup_version ? (info->cgroup_version == 2 ? "v2" : "v1")
				    : "none found (ids are shown, not paths)");
	if (info->cgroup_version)
		printf("cgroup root     %s\n", info->cgroup_root);
	printf("NUMA nodes      %d\n", info->nr_nodes);
	printf("mode            %s\n\n", attached_any ? rs_mode(info) : "none");

	if (info->cost_known)
		printf("%-32s %-9s %12s %9s\n", "HOOK", "STATE", "EVENTS",
		       "NS/EVENT");
	else
		printf("%-32s %s\n", "HOOK", "STATE");
	for (int h = 0; h < RS_NR_HOOKS; h++) {
		const struct rs_hook_status *hs = &info->hooks[h];

		if (rs_hooks[h].kernel_field)
			continue;
		if (rs_hook_cost_known(info, h)) {
			printf("%-32s %-9s %12llu ", rs_hooks[h].name,
			       rs_hook_state_word(hs->state),
			       (unsigned long long)hs->runs);
			if (hs->runs)
				printf("%9.1f\n",
				       (double)hs->run_ns / hs->runs);
			else
				printf("%9s\n", "-");
			continue;
		}
		printf("%-32s %s%s%s\n", rs_hooks[h].name,
		       rs_hook_state_word(hs->state),
		       hs->state != RS_HOOK_ATTACHED && hs->why[0] ? ": " : "",
		       hs->state != RS_HOOK_ATTACHED ? hs->why : "");
	}
	printf("\n%-32s %s\n", "KERNEL FIELD", "STATE");
	for (int h = 0; h < RS_NR_HOOKS; h++) {
		const struct rs_hook_status *hs = &info->hooks[h];

		if (!rs_hooks[h].kernel_field)
			continue;
		if (hs->state == RS_HOOK_ATTACHED)
			printf("%-32s present\n", rs_hooks[h].name);
		else
			printf("%-32s %s: %s\n", rs_hooks[h].name,
			       rs_hook_state_word(hs->state), hs->why);
	}
	if (info->attached != (1ULL << RS_NR_HOOKS) - 1)
		print_unknown(info);
	if (!strcmp(rs_mode(info), "tracepoint-only"))
		printf("\ntracepoint-only mode: scans are attributed to the "
		       "memcg reclaim target (limit or\nmemory.reclaim); "
		       "kswapd "
		       "and global direct reclaim stay unattributed, because\n"
		       "only the lruvec pass hooks tell which memcg's LRU is "
		       "scanned.\n");
}

int rs_cmd_probe(int argc, char **argv)
{
	static const struct argp argp = {
		options, parse, NULL, doc, rs_common_children, NULL, NULL};
	struct probe_opts o = {0};
	struct rs_collector_opts copts = {0};
	struct rs_run_info info = {0};
	struct rs_collector *c = NULL;
	struct rs_cgroups *cg;
	int rc;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o))
		return 2;
	rs_cli_collector_opts(&o.common, &copts);
	cg = rs_cgroups_open();
	if (cg) {
		snprintf(info.cgroup_root, sizeof(info.cgroup_root), "%s",
			 rs_cgroups_root(cg));
		info.cgroup_version = rs_cgroups_version(cg);
		rs_cgroups_close(cg);
	}
	if (o.cost_seconds > 0 && !rs_kernel_bpf_stats())
		copts.bpf_stats = true;
	rc = rs_cli_open(&c, &info, &copts);
	if (!rc && o.cost_seconds > 0) {
		volatile int stop = 0;
		__u64 until = rs_now_ns() + (__u64)(o.cost_seconds * 1e9);

		if (!o.json)
			fprintf(stderr,
				"reclaimscope: timing the hooks for %.1f s "
				"(Ctrl-C ends early)...\n",
				o.cost_seconds);
		rs_cli_on_signals(&stop);
		while (!stop && rs_now_ns() < until)
			usleep(50000);
		rs_collector_cost(c, &info);
	}
	/* even when nothing attached, say what was found */
	if (info.kernel[0]) {
		if (o.json)
			print_json(&info, !rc);
		else
			print_text(&info, !rc);
	}
	rs_collector_close(c);
	return rc;
}
