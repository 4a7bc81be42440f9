// SPDX-License-Identifier: GPL-2.0
/*
 * rs-bench: the measuring parts of `make bench` that need BPF or the model
 * (tests/bench/bench.sh runs them and the workloads around them).  Every
 * result is one JSON object on stdout.
 *
 *   rs-bench attach control|peer SECONDS
 *       attach the empty control programs, or the peer (what a bpftrace
 *       one-liner counting the vmscan tracepoints per cgroup does); after
 *       SECONDS (or SIGINT) print each program's runs and run time (counted
 *       only while kernel.bpf_stats_enabled is on: rs-bench does not turn
 *       it on, so that a mode timed against `record`, which runs without
 *       it, does not pay two clock reads per program run that record does
 *       not) and its skipped runs
 *   rs-bench points
 *       the points (fentry, fexit, tp_btf and target) record's programs
 *       are attached to now, with their program ids: run it while record
 *       runs
 *   rs-bench attach fair SECONDS POINTS.json [COPIES]
 *       the fair peer: one bare per-cgroup counter on each distinct point
 *       of a points file, the floor for any tool on those points (COPIES
 *       loads of it on each, as record has copies); then as
 *       attach control|peer, with each program's skipped runs
 *   rs-bench attach nopreempt SECONDS POINTS.json [all|functions|tracepoints]
 *       the same counter as programs the kernel runs with preemption off:
 *       a perf-event tracepoint program per tracepoint, one
 *       kprobe-session program on every function (issue 33); or only
 *       the functions' or the tracepoints' so, the rest as fair has them
 *   RS_BENCH_EMPTY=1 (environment): attach fair and nopreempt load their
 *       programs with nothing in them: what dispatch alone costs
 *   rs-bench drain RECORDS count|json
 *       consumer throughput: a BPF_PROG_TEST_RUN producer fills the ring
 *       through rs_reserve/rs_submit while one thread drains it, handing
 *       each record to a counter, or formatting it as `record -e` does
 *   rs-bench sustain RATE SECONDS count|json
 *       RATE records a second for SECONDS, consumed the way the collector
 *       does (a bounded poll, then whatever is waiting): loss, the
 *       consumer's CPU share and its wakeups a second
 *   rs-bench model MEMCGS
 *       the model's memory with MEMCGS memcgs tracked (RSS growth)
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <jansson.h>
#include "rs_common.h"
#include "vmscan.h"
#include "bench.h"
#include "event_line.h"
#include "json_view.h"
#include "model.h"
#include "util.h"
#include "bench.skel.h"

#define RING_BYTES (16u << 20)
#define BATCH 4096 /* records per BPF_PROG_TEST_RUN */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "rs-bench: %s: %s\n", what, strerror(err));
	exit(1);
}

static long number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v <= 0) {
		fprintf(stderr, "rs-bench: not a positive number: %s\n", s);
		exit(2);
	}
	return v;
}

static double seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long rss_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static int quiet_print(enum libbpf_print_level level, const char *fmt,
		       va_list ap)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static bool is_function_hook(const struct bpf_program *p)
{
	enum bpf_attach_type t = bpf_program__expected_attach_type(p);

	return t == BPF_TRACE_FENTRY || t == BPF_TRACE_FEXIT;
}

/*
 * Open the object with only the programs a command uses; the function-hook
 * controls are left out, with a word, where fentry/fexit cannot load (no
 * BTF for the function, or the kernel refuses trampolines).
 */
static struct bench_bpf *open_bench(const char *prefix, bool stream)
{
	for (int with_functions = 1; with_functions >= 0; with_functions--) {
		struct bench_bpf *skel = bench_bpf__open();
		struct bpf_program *p;
		bool any_function = false;
		int err;

		if (!skel)
			die("open bench.bpf.o", errno);
		bpf_object__for_each_program(p, skel->obj)
		{
			bool want = !strncmp(bpf_program__name(p), prefix,
					     strlen(prefix));

			if (want && is_function_hook(p)) {
				want = with_functions;
				any_function = true;
			}
			bpf_program__set_autoload(p, want);
		}
		skel->rodata->rs_stream_events = stream;
		bpf_map__set_max_entries(skel->maps.rs_events, RING_BYTES);
		/* as the collector sets it (src/collect/collector.c) */
		skel->rodata->rs_wakeup_bytes = RING_BYTES / 4;
		/* a failure with the controls is told below, in one line */
		libbpf_set_print(with_functions && any_function ? NULL
								: quiet_print);
		err = bench_bpf__load(skel);
		libbpf_set_print(quiet_print);
		if (!err)
			return skel;
		bench_bpf__destroy(skel);
		if (!with_functions || !any_function)
			die("load bench.bpf.o (try -v with bpftool prog load)",
			    -err);
		fprintf(stderr,
			"rs-bench: fentry/fexit controls left out (%s)\n",
			strerror(-err));
	}
	return NULL;
}

/* --- attach ----------------------------------------------------------------
 */

/* Attached: tell the driver (which starts the workload now), then wait
 * SECONDS or for SIGINT/SIGTERM. */
static void attached_wait(double secs)
{
	fprintf(stderr, "rs-bench: attached\n");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (double end = seconds(CLOCK_MONOTONIC) + secs;
	     !stop && seconds(CLOCK_MONOTONIC) < end;)
		usleep(20000);
}

/* A program's runs and run time as the kernel counted them, named name;
 * NULL if the kernel would not say. */
static json_t *prog_stats(const struct bpf_program *p, const char *name)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, len);
	if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
		return NULL;
	return json_pack("{s:s, s:I, s:I, s:I, s:I}", "prog", name, "id",
			 (json_int_t)info.id, "runs", (json_int_t)info.run_cnt,
			 "run_ns", (json_int_t)info.run_time_ns, "skipped",
			 (json_int_t)info.recursion_misses);
}

static int cmd_attach(const char *which, double secs)
{
	const char *prefix = !strcmp(which, "control") ? "rs_empty_"
			     : !strcmp(which, "peer")  ? "rs_peer_"
						       : NULL;
	struct bench_bpf *skel;
	struct bpf_program *p;
	json_t *out, *progs;

	if (!prefix) {
		fprintf(stderr, "rs-bench: attach control|peer SECONDS\n");
		return 2;
	}
	skel = open_bench(prefix, false);
	bpf_object__for_each_program(p, skel->obj)
	{
		if (!bpf_program__autoload(p))
			continue;
		/* a tracepoint this kernel lacks is left out, not fatal */
		if (!bpf_program__attach(p))
			fprintf(stderr, "rs-bench: %s not attached: %s\n",
				bpf_program__name(p), strerror(errno));
	}
	attached_wait(secs);
	out = json_object();
	progs = json_array();
	bpf_object__for_each_program(p, skel->obj)
	{
		json_t *stats;

		if (bpf_program__autoload(p) &&
		    (stats = prog_stats(p, bpf_program__name(p))))
			json_array_append_new(progs, stats);
	}
	json_object_set_new(out, "programs", progs);
	rs_json_write_line(stdout, out);
	json_decref(out);
	bench_bpf__destroy(skel);
	return 0;
}

/* --- the fair peer ---------------------------------------------------------
 *
 * `rs-bench points` lists the points our programs are attached to right now
 * (run while `record` runs), `rs-bench attach fair SECONDS POINTS` puts one
 * bare counter on each of them: the floor any tool on those points pays.
 */

static bool ours(const char *prog)
{
	/* record's programs, not this tool's own */
	return !strncmp(prog, "rs_", 3) && strncmp(prog, "rs_fair_", 8) &&
	       strncmp(prog, "rs_peer_", 8) && strncmp(prog, "rs_empty_", 9);
}

/* The function a tracing link is on, from the BTF object it names. */
static bool tracing_target(__u32 btf_obj_id, __u32 btf_id, char *name,
			   size_t size)
{
	struct btf *btf = btf__load_from_kernel_by_id(btf_obj_id);
	const struct btf_type *t;
	bool found = false;

	if (!btf)
		return false; /* a module's split BTF: none of our hooks */
	t = btf__type_by_id(btf, btf_id);
	if (t) {
		snprintf(name, size, "%s",
			 btf__name_by_offset(btf, t->name_off));
		found = true;
	}
	btf__free(btf);
	return found;
}

static int cmd_points(void)
{
	json_t *points = json_array(), *out;
	__u32 id = 0;

	while (!bpf_link_get_next_id(id, &id)) {
		struct bpf_link_info link;
		struct bpf_prog_info prog;
		__u32 len = sizeof(link), prog_len = sizeof(prog);
		char target[128] = "";
		const char *kind = NULL;
		int fd = bpf_link_get_fd_by_id(id), prog_fd;

		if (fd < 0)
			continue; /* gone since listed */
		memset(&link, 0, len);
		link.raw_tracepoint.tp_name = (__u64)(unsigned long)target;
		link.raw_tracepoint.tp_name_len = sizeof(target);
		if (bpf_obj_get_info_by_fd(fd, &link, &len)) {
			close(fd);
			continue;
		}
		close(fd);
		if (link.type == BPF_LINK_TYPE_RAW_TRACEPOINT) {
			kind = "tp";
		} else if (link.type == BPF_LINK_TYPE_TRACING &&
			   (link.tracing.attach_type == BPF_TRACE_FENTRY ||
			    link.tracing.attach_type == BPF_TRACE_FEXIT)) {
			kind = link.tracing.attach_type == BPF_TRACE_FENTRY
				       ? "fentry"
				       : "fexit";
			if (!tracing_target(link.tracing.target_obj_id,
					    link.tracing.target_btf_id, target,
					    sizeof(target)))
				continue;
		} else {
			continue; /* iterators and the like: no event to count
				   */
		}
		prog_fd = bpf_prog_get_fd_by_id(link.prog_id);
		if (prog_fd < 0)
			continue;
		memset(&prog, 0, prog_len);
		if (bpf_obj_get_info_by_fd(prog_fd, &prog, &prog_len) ||
		    !ours(prog.name)) {
			close(prog_fd);
			continue;
		}
		close(prog_fd);
		json_array_append_new(
			points,
			json_pack("{s:s, s:s, s:I, s:s}", "kind", kind,
				  "target", target, "prog_id",
				  (json_int_t)link.prog_id, "prog", prog.name));
	}
	if (!json_array_size(points)) {
		fprintf(stderr, "rs-bench: no program of record's is attached "
				"(run this while record runs)\n");
		json_decref(points);
		return 1;
	}
	out = json_pack("{s:o}", "points", points);
	rs_json_write_line(stdout, out);
	json_decref(out);
	return 0;
}

struct fair_point {
	char kind[16]; /* fentry, fexit, tp; loaded as: ksession, ptp */
	char target[128];
	struct bench_bpf *skel;
	struct bpf_program *prog;
};

/* the kernel's number (uapi, 6.10); Debian 12's headers predate it */
#define RS_BENCH_TRACE_KPROBE_SESSION 56

/* The distinct (kind, target) pairs of a points file, in its order. */
static size_t read_points(const char *path, struct fair_point **out)
{
	json_error_t error;
	json_t *doc = json_load_file(path, 0, &error), *p;
	struct fair_point *points = NULL;
	size_t n = 0, i, j;

	if (!doc || !json_is_array(json_object_get(doc, "points"))) {
		fprintf(stderr, "rs-bench: %s: not a points file (%s)\n", path,
			doc ? "no \"points\" array" : error.text);
		exit(2);
	}
	json_array_foreach (json_object_get(doc, "points"), i, p) {
		const char *kind =
			json_string_value(json_object_get(p, "kind"));
		const char *target =
			json_string_value(json_object_get(p, "target"));

		if (!kind || !target || strlen(kind) >= sizeof(points->kind) ||
		    strlen(target) >= sizeof(points->target)) {
			fprintf(stderr, "rs-bench: %s: point %zu malformed\n",
				path, i);
			exit(2);
		}
		for (j = 0; j < n; j++)
			if (!strcmp(points[j].kind, kind) &&
			    !strcmp(points[j].target, target))
				break;
		if (j < n)
			continue; /* several of ours on one point: one counter
				   */
		points = realloc(points, (n + 1) * sizeof(*points));
		if (!points)
			die("realloc", ENOMEM);
		memset(&points[n], 0, sizeof(*points));
		strcpy(points[n].kind, kind);
		strcpy(points[n].target, target);
		n++;
	}
	json_decref(doc);
	*out = points;
	return n;
}

/* The system a tracepoint is in (vmscan, cgroup, ...), from tracefs. */
static const char *tracepoint_system(const char *name)
{
	static const char *const roots[] = {"/sys/kernel/tracing/events",
					    "/sys/kernel/debug/tracing/events"};
	static char system[256];

	for (size_t r = 0; r < sizeof(roots) / sizeof(*roots); r++) {
		DIR *d = opendir(roots[r]);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			char path[512];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", roots[r],
				 e->d_name, name);
			if (!access(path, F_OK)) {
				snprintf(system, sizeof(system), "%s",
					 e->d_name);
				closedir(d);
				return system;
			}
		}
		if (d)
			closedir(d);
	}
	fprintf(stderr, "rs-bench: no tracepoint %s in tracefs\n", name);
	exit(1);
}

/* RS_BENCH_EMPTY=1: the fair programs load with nothing in them */
static bool fair_empty;

/* One load of the template for a point, sharing the first load's maps. */
static void load_fair(struct fair_point *pt, __u32 number,
		      const struct bench_bpf *first)
{
	char want[32];
	struct bpf_program *p;
	struct bpf_map *m;
	int err;

	snprintf(want, sizeof(want), "rs_fair_%s", pt->kind);
	pt->skel = bench_bpf__open();
	if (!pt->skel)
		die("open bench.bpf.o", errno);
	bpf_object__for_each_program(p, pt->skel->obj)
	{
		bool is_template = !strcmp(bpf_program__name(p), want);

		bpf_program__set_autoload(p, is_template);
		if (is_template)
			pt->prog = p;
	}
	if (!pt->prog) {
		fprintf(stderr, "rs-bench: unknown kind of point: %s\n",
			pt->kind);
		exit(2);
	}
	if (!strcmp(pt->kind, "ksession"))
		bpf_program__set_expected_attach_type(
			pt->prog,
			(enum bpf_attach_type)RS_BENCH_TRACE_KPROBE_SESSION);
	else if (strcmp(pt->kind, "ptp") &&
		 (err = bpf_program__set_attach_target(pt->prog, 0,
						       pt->target)))
		die(pt->target, -err);
	pt->skel->rodata->rs_fair_point = RS_BENCH_FAIR_FIRST + number;
	pt->skel->rodata->rs_fair_empty = fair_empty;
	bpf_map__set_max_entries(pt->skel->maps.rs_events, 4096);
	bpf_object__for_each_map(m, pt->skel->obj)
	{
		struct bpf_map *shared;

		if (!first || bpf_map__is_internal(m))
			continue; /* .rodata is each load's own */
		shared = bpf_object__find_map_by_name(first->obj,
						      bpf_map__name(m));
		err = bpf_map__reuse_fd(m, bpf_map__fd(shared));
		if (err)
			die("reuse the first load's maps", -err);
	}
	err = bench_bpf__load(pt->skel);
	if (err) {
		fprintf(stderr, "rs-bench: load %s on %s: %s\n", want,
			pt->target, strerror(-err));
		exit(1);
	}
	if (!strcmp(pt->kind, "ksession"))
		return; /* on every function at once: attach_ksession */
	if (!(strcmp(pt->kind, "ptp")
		      ? bpf_program__attach(pt->prog)
		      : bpf_program__attach_tracepoint(
				pt->prog, tracepoint_system(pt->target),
				pt->target))) {
		fprintf(stderr, "rs-bench: attach %s on %s: %s\n", want,
			pt->target, strerror(errno));
		exit(1);
	}
}

/*
 * One kprobe-session link for every function of the points: the program
 * runs at each one's entry and exit.  Through the syscall: Debian 12's
 * libbpf (1.1) knows no session links.
 */
static void attach_ksession(struct fair_point *pt, struct fair_point *points,
			    size_t n)
{
	const char **syms = calloc(n, sizeof(*syms));
	union bpf_attr attr;
	size_t cnt = 0, i, j;
	int fd;

	if (!syms)
		die("calloc", ENOMEM);
	for (i = 0; i < n; i++) {
		if (strcmp(points[i].kind, "fentry") &&
		    strcmp(points[i].kind, "fexit"))
			continue;
		for (j = 0; j < cnt && strcmp(syms[j], points[i].target); j++)
			;
		if (j == cnt)
			syms[cnt++] = points[i].target;
	}
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = bpf_program__fd(pt->prog);
	attr.link_create.attach_type = RS_BENCH_TRACE_KPROBE_SESSION;
	attr.link_create.kprobe_multi.cnt = cnt;
	attr.link_create.kprobe_multi.syms = (__u64)(unsigned long)syms;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	if (fd < 0)
		die("kprobe-session link on the points' functions", errno);
	snprintf(pt->target, sizeof(pt->target), "%zu_functions", cnt);
	free(syms); /* the link stays open until rs-bench exits */
}

/*
 * Without part: COPIES loads of the counter on every point, as fentry,
 * fexit or tp_btf (one is the floor; five, as many as record's copies).
 * With part (all, functions or tracepoints): those points as programs the
 * kernel runs with preemption off, once each -- a perf-event program per
 * tracepoint, one kprobe-session program for every function -- and the
 * others as the floor has them.
 */
static int cmd_attach_fair(double secs, const char *path, long copies,
			   const char *part)
{
	struct fair_point *all, *points;
	size_t all_n = read_points(path, &all), n = 0, loads;
	bool functions = part && strcmp(part, "tracepoints"),
	     tracepoints = part && strcmp(part, "functions"),
	     any_function = false;
	json_t *out, *progs;

	/* what is loaded: the points, then one kprobe-session slot, copies */
	points = calloc((all_n + 1) * copies, sizeof(*points));
	if (!points)
		die("calloc", ENOMEM);
	for (size_t i = 0; i < all_n; i++) {
		bool tp = !strcmp(all[i].kind, "tp");

		if (!tp && functions) {
			any_function = true;
			continue;
		}
		points[n] = all[i];
		if (tp && tracepoints)
			strcpy(points[n].kind, "ptp");
		n++;
	}
	if (any_function)
		strcpy(points[n++].kind, "ksession");
	for (long c = 1; c < copies; c++)
		memcpy(&points[c * n], points, n * sizeof(*points));
	for (loads = 0; loads < n * copies; loads++)
		load_fair(&points[loads], loads % n,
			  loads ? points[0].skel : NULL);
	if (any_function)
		attach_ksession(&points[n - 1], all, all_n);
	free(all);
	n = loads;
	attached_wait(secs);
	out = json_object();
	progs = json_array();
	for (size_t i = 0; i < n; i++) {
		char name[160];
		json_t *stats;

		snprintf(name, sizeof(name), "rs_fair_%s_%s", points[i].kind,
			 points[i].target);
		stats = prog_stats(points[i].prog, name);
		if (!stats)
			continue;
		json_object_set_new(stats, "kind", json_string(points[i].kind));
		json_object_set_new(stats, "target",
				    json_string(points[i].target));
		json_array_append_new(progs, stats);
	}
	json_object_set_new(out, "programs", progs);
	rs_json_write_line(stdout, out);
	json_decref(out);
	/* later loads first: the first holds the maps they share */
	for (size_t i = n; i-- > 0;)
		bench_bpf__destroy(points[i].skel);
	free(points);
	return 0;
}

/* --- the ring: producer and consumer ------------------------------------- */

struct ring_bench {
	struct bench_bpf *skel;
	struct ring_buffer *ring;
	bool json;
	struct rs_model *model; /* for the json sink */
	struct rs_event_writer *events_out;
	struct rs_run_info info;
	FILE *devnull;
	_Atomic __u64 emitted;
	_Atomic __u64 consumed;
	__u64 target; /* drain: records to consume */
	double rate;  /* records a second */
	double duration;
	_Atomic int producer_done;
	__u64 wakeups;
	__u64 types[RS_EV_LAST + 1];
};

static int on_record(void *ctx, void *data, size_t size)
{
	struct ring_bench *b = ctx;
	const struct rs_event_hdr *h = data;

	if (b->json) {
		size_t len;
		const char *line = rs_event_line(b->events_out, b->model,
						 &b->info, data, size, &len);

		if (line)
			/* as record writes them (src/cmd/cmd_record.c) */
			fwrite_unlocked(line, 1, len, b->devnull);
	} else if (size >= sizeof(*h) && h->type <= RS_EV_LAST) {
		b->types[h->type]++;
	}
	atomic_fetch_add_explicit(&b->consumed, 1, memory_order_relaxed);
	return 0;
}

static __u64 ring_drops(struct ring_bench *b)
{
	int ncpus = libbpf_num_possible_cpus();
	__u64 *v = calloc(ncpus, sizeof(*v)), sum = 0;
	__u32 key = RS_STAT_RING_DROPS;

	if (v &&
	    !bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.rs_stats), &key, v))
		for (int i = 0; i < ncpus; i++)
			sum += v[i];
	free(v);
	return sum;
}

static int emit(struct ring_bench *b, __u32 records)
{
	struct rs_bench_emit_args args = {.records = records};
	/* a syscall program's context is copied back into ctx_in */
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &args,
		    .ctx_size_in = sizeof(args));
	int err;

	err = bpf_prog_test_run_opts(
		bpf_program__fd(b->skel->progs.rs_bench_emit), &opts);
	if (err)
		die("BPF_PROG_TEST_RUN rs_bench_emit", errno);
	atomic_fetch_add(&b->emitted, args.emitted);
	return (int)args.emitted;
}

/* Paced: every millisecond, what is due by then. */
static void *producer(void *arg)
{
	struct ring_bench *b = arg;
	double start = seconds(CLOCK_MONOTONIC), owed = 0;

	while (!stop && seconds(CLOCK_MONOTONIC) - start < b->duration) {
		double due = (seconds(CLOCK_MONOTONIC) - start) * b->rate;

		while (owed < due) {
			__u32 n = due - owed > BATCH ? BATCH
						     : (__u32)(due - owed) + 1;

			emit(b, n);
			owed += n;
		}
		usleep(1000);
	}
	atomic_store(&b->producer_done, 1);
	return NULL;
}

static void ring_setup(struct ring_bench *b, const char *sink)
{
	if (strcmp(sink, "count") && strcmp(sink, "json")) {
		fprintf(stderr, "rs-bench: the sink is count or json\n");
		exit(2);
	}
	b->json = !strcmp(sink, "json");
	b->skel = open_bench("rs_bench_emit", true);
	b->ring = ring_buffer__new(bpf_map__fd(b->skel->maps.rs_events),
				   on_record, b, NULL);
	if (!b->ring)
		die("ring_buffer__new", errno);
	b->model = rs_model_new(~0ULL);
	b->events_out = rs_event_writer_new();
	b->devnull = fopen("/dev/null", "w");
	snprintf(b->info.kernel, sizeof(b->info.kernel), "bench");
	if (!b->model || !b->events_out || !b->devnull)
		die("setup", ENOMEM);
	/* the producer's memcgs (bench.bpf.c), named as record names them */
	for (int i = 0; i < 64; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/bench.slice/tenant-%d", i);
		rs_model_set_path(b->model, 1000 + i, path);
	}
}

static void ring_teardown(struct ring_bench *b)
{
	ring_buffer__free(b->ring);
	bench_bpf__destroy(b->skel);
	rs_model_free(b->model);
	rs_event_writer_free(b->events_out);
	fclose(b->devnull);
}

/*
 * Fill half the ring, then drain it, timing only the draining: the
 * consumer's cost per record, without the producer's or any idle spinning.
 */
static int cmd_drain(long records, const char *sink)
{
	struct ring_bench b = {.target = (__u64)records};
	__u32 fill = RING_BYTES / 2 / 64; /* records of up to 64 bytes */
	double wall = 0, cpu = 0;
	__u64 dropped;

	ring_setup(&b, sink);
	while (atomic_load(&b.consumed) < b.target) {
		double w, c;

		for (__u32 n = 0; n < fill; n += BATCH)
			emit(&b, BATCH);
		w = seconds(CLOCK_MONOTONIC);
		c = seconds(CLOCK_THREAD_CPUTIME_ID);
		ring_buffer__consume(b.ring);
		cpu += seconds(CLOCK_THREAD_CPUTIME_ID) - c;
		wall += seconds(CLOCK_MONOTONIC) - w;
	}
	dropped = ring_drops(&b);
	printf("{\"sink\": \"%s\", \"records\": %llu, \"dropped\": %llu, "
	       "\"consumer_cpu_s\": %.4f, \"wall_s\": %.4f, "
	       "\"records_per_cpu_s\": %.0f}\n",
	       sink, (unsigned long long)atomic_load(&b.consumed),
	       (unsigned long long)dropped, cpu, wall,
	       atomic_load(&b.consumed) / cpu);
	ring_teardown(&b);
	return 0;
}

static int cmd_sustain(long rate, long secs, const char *sink)
{
	struct ring_bench b = {.rate = (double)rate, .duration = (double)secs};
	double wall, cpu;
	pthread_t thread;
	__u64 dropped;

	ring_setup(&b, sink);
	signal(SIGINT, on_signal);
	wall = seconds(CLOCK_MONOTONIC);
	cpu = seconds(CLOCK_THREAD_CPUTIME_ID);
	pthread_create(&thread, NULL, producer, &b);
	/* as rs_collector_poll: woken for a batch, else every 100 ms */
	while (!atomic_load(&b.producer_done)) {
		int n = ring_buffer__poll(b.ring, 100);

		if (n > 0)
			b.wakeups++;
		ring_buffer__consume(b.ring);
	}
	ring_buffer__consume(b.ring);
	cpu = seconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
	wall = seconds(CLOCK_MONOTONIC) - wall;
	pthread_join(thread, NULL);
	dropped = ring_drops(&b);
	printf("{\"sink\": \"%s\", \"rate\": %ld, \"ring_bytes\": %u, "
	       "\"emitted\": %llu, \"consumed\": %llu, \"dropped\": %llu, "
	       "\"wall_s\": %.3f, \"consumer_core_share\": %.5f, "
	       "\"wakeups_per_s\": %.1f}\n",
	       sink, rate, RING_BYTES,
	       (unsigned long long)atomic_load(&b.emitted),
	       (unsigned long long)atomic_load(&b.consumed),
	       (unsigned long long)dropped, wall, cpu / wall, b.wakeups / wall);
	ring_teardown(&b);
	return 0;
}

/* --- the model's footprint --------------------------------------------------
 */

static int cmd_model(long memcgs)
{
	struct rs_model *m = rs_model_new(~0ULL);
	long before = rss_kib(), after;
	__u64 values[RS_NR_FIELDS];
	char path[64];

	if (!m)
		die("rs_model_new", ENOMEM);
	/* two snapshots, every memcg with a count in every field and a path */
	for (int snap = 1; snap <= 2; snap++) {
		rs_model_begin(m);
		for (long i = 0; i < memcgs; i++) {
			struct rs_agg_key key = {.cgroup_id = 1000 + i,
						 .reclaimer =
							 RS_RECLAIMER_MEMCG};

			for (int f = 0; f < RS_NR_FIELDS; f++)
				values[f] = (__u64)snap * (f + 1);
			rs_model_add(m, &key, values);
		}
		rs_model_end(m, snap);
		for (long i = 0; snap == 1 && i < memcgs; i++) {
			snprintf(path, sizeof(path), "/tenants/t%ld", i);
			rs_model_set_path(m, 1000 + i, path);
		}
	}
	after = rss_kib();
	printf("{\"memcgs\": %zu, \"rss_before_kib\": %ld, \"rss_after_kib\": "
	       "%ld, \"kib_per_memcg\": %.2f}\n",
	       rs_model_nr_memcgs(m), before, after,
	       (double)(after - before) / memcgs);
	rs_model_free(m);
	return 0;
}

/* --- the recording's size per interval with N memcgs' timelines ----------
 */

/* One memcg's generations on node 0, as the tier iterator makes them. */
static void bench_gens(struct rs_lruvec_gens *g, __u64 max_seq, double t)
{
	*g = (struct rs_lruvec_gens){.node = 0, .t = t};
	g->min_seq[0] = g->min_seq[1] = max_seq - (RS_GENS_MAX - 1);
	g->max_seq = max_seq;
	for (unsigned i = 0; i < RS_GENS_MAX; i++) {
		struct rs_gen_sample *s = &g->gen[g->nr++];

		s->seq = g->min_seq[0] + i;
		s->stamp = 4294000000ULL + s->seq * 250;
		s->anon = 12345 + i;
		s->file = 23456 + i;
		s->age = (double)(RS_GENS_MAX - i) * 1.234;
	}
}

/* Bytes of a snapshot line and of its lru_gens, as record writes them. */
static void snapshot_bytes(const struct rs_model *m, __u64 since, size_t *line,
			   size_t *gens)
{
	json_t *o = rs_json_snapshot(m, NULL, NULL, since);
	json_t *arr = json_object_get(o, "lru_gens");
	char *s = json_dumps(o, JSON_COMPACT);
	char *a = arr ? json_dumps(arr, JSON_COMPACT) : NULL;

	if (!s)
		die("json_dumps", ENOMEM);
	*line = strlen(s) + 1;
	/* "lru_gens": and the array, or nothing where there was no entry */
	*gens = a ? strlen(a) + strlen(",\"lru_gens\":") : 0;
	free(s);
	free(a);
	json_decref(o);
}

/*
 * Three intervals of a recording of N memcgs, each with a little reclaim
 * in the first: the first timeline sample of each, an interval where no
 * generation moved, one where every memcg aged once.
 */
static int cmd_timeline(long memcgs)
{
	struct rs_model *m = rs_model_new(~0ULL);
	const char *what[] = {"first", "unchanged", "all_aged"};
	__u64 values[RS_NR_FIELDS] = {0}, since = 0;
	struct rs_lruvec_gens g;
	char path[64];

	if (!m)
		die("rs_model_new", ENOMEM);
	printf("{\"memcgs\": %ld", memcgs);
	for (int snap = 1; snap <= 3; snap++) {
		size_t line, gens;

		rs_model_begin(m);
		for (long i = 0; snap == 1 && i < memcgs; i++) {
			struct rs_agg_key key = {.cgroup_id = 1000 + i,
						 .reclaimer =
							 RS_RECLAIMER_MEMCG};

			values[RS_F_ISOLATED] = 32;
			values[RS_F_RECLAIMED] = 32;
			rs_model_add(m, &key, values);
		}
		rs_model_end(m, snap);
		for (long i = 0; i < memcgs; i++) {
			if (snap == 1) {
				snprintf(path, sizeof(path), "/tenants/t%ld",
					 i);
				rs_model_set_path(m, 1000 + i, path);
			}
			bench_gens(&g, snap == 3 ? 8 : 7, snap);
			if (rs_model_set_gens(m, 1000 + i, &g))
				die("rs_model_set_gens", ENOMEM);
		}
		snapshot_bytes(m, since, &line, &gens);
		since = rs_model_snapshots(m);
		printf(", \"%s_line_bytes\": %zu, \"%s_timeline_bytes\": %zu",
		       what[snap - 1], line, what[snap - 1], gens);
	}
	printf("}\n");
	rs_model_free(m);
	return 0;
}

int main(int argc, char **argv)
{
	struct rlimit files;
	const char *empty = getenv("RS_BENCH_EMPTY");

	libbpf_set_print(quiet_print);
	fair_empty = empty && !strcmp(empty, "1");
	/* attach fair ... 5 holds a few hundred objects' descriptors */
	if (!getrlimit(RLIMIT_NOFILE, &files)) {
		files.rlim_cur = files.rlim_max;
		setrlimit(RLIMIT_NOFILE, &files);
	}
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "attach") &&
	    !strcmp(argv[2], "fair"))
		return cmd_attach_fair((double)number(argv[3]), argv[4],
				       argc == 6 ? number(argv[5]) : 1, NULL);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "attach") &&
	    !strcmp(argv[2], "nopreempt")) {
		const char *part = argc == 6 ? argv[5] : "all";

		if (strcmp(part, "all") && strcmp(part, "functions") &&
		    strcmp(part, "tracepoints")) {
			fprintf(stderr, "rs-bench: attach nopreempt: the part "
					"is all, functions or tracepoints\n");
			return 2;
		}
		return cmd_attach_fair((double)number(argv[3]), argv[4], 1,
				       part);
	}
	if (argc == 2 && !strcmp(argv[1], "points"))
		return cmd_points();
	if (argc == 4 && !strcmp(argv[1], "attach"))
		return cmd_attach(argv[2], (double)number(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "drain"))
		return cmd_drain(number(argv[2]), argv[3]);
	if (argc == 5 && !strcmp(argv[1], "sustain"))
		return cmd_sustain(number(argv[2]), number(argv[3]), argv[4]);
	if (argc == 3 && !strcmp(argv[1], "model"))
		return cmd_model(number(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "timeline"))
		return cmd_timeline(number(argv[2]));
	fprintf(stderr,
		"usage: rs-bench attach control|peer SECONDS\n"
		"       rs-bench attach fair SECONDS POINTS.json [COPIES]\n"
		"       rs-bench attach nopreempt SECONDS POINTS.json "
		"[all|functions|tracepoints]\n"
		"       rs-bench points\n"
		"       rs-bench drain RECORDS count|json\n"
		"       rs-bench sustain RATE SECONDS count|json\n"
		"       rs-bench model MEMCGS\n"
		"       rs-bench timeline MEMCGS\n");
	return 2;
}
