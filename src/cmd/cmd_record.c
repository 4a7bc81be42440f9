// SPDX-License-Identifier: GPL-2.0
/* reclaimscope record: per-memcg reclaim activity as NDJSON. */
#include <argp.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "session.h"
#include "event_line.h"
#include "json_view.h"
#include "output.h"
#include "util.h"

struct record_opts {
	struct rs_common_opts common;
	const char *output;
	double interval;
	double duration; /* 0: until a signal */
	bool events;
	const char *cgroup;
	__u64 ring_bytes; /* 0: the collector's default */
	__u64 agg_cells;  /* 0: the collector's default */
	bool quiet;
	const char *outcome; /* the workload's outcome records, read at stop */
};

enum { OPT_RING_SIZE = 0x100, OPT_OUTCOME, OPT_CELLS };

static const struct argp_option options[] = {
	{"output", 'o', "FILE", 0, "Write to FILE instead of stdout", 0},
	{"interval", 'i', "SECONDS", 0,
	 "Snapshot every SECONDS (default 1; 0.1 to 3600; s, ms, m, h allowed)",
	 0},
	{"duration", 'd', "DURATION", 0,
	 "Stop after DURATION (same units; default: until SIGINT, SIGTERM or "
	 "SIGHUP)",
	 0},
	{"events", 'e', NULL, 0,
	 "Also write one record per pass, aging, writeback check, throttle "
	 "and direct/memcg reclaim",
	 0},
	{"cgroup", 'c', "PATH", 0,
	 "Only memcgs at or below PATH (relative to the memory cgroup mount, "
	 "or a full path under it)",
	 0},
	{"ring-size", OPT_RING_SIZE, "SIZE", 0,
	 "Ring buffer size for --events: a power of two from 4K to 1G, in "
	 "bytes or with K, M or G (default 4M). A larger ring rides out "
	 "longer consumer stalls; one that stays in the CPU's cache (1M) "
	 "makes each record cheaper for the reclaiming task",
	 0},
	{"cells", OPT_CELLS, "N", 0,
	 "Room in the kernel for N counter cells, one per memcg, node and "
	 "kind of reclaimer that reclaimed (default 16384, from 16 to "
	 "1048576; each costs about 1 KiB times the CPUs in use). Past it a "
	 "small reserve takes more; what does not fit is counted as "
	 "agg_full and the recording says its totals fall short",
	 0},
	{"outcome", OPT_OUTCOME, "FILE", 0,
	 "When stopping, copy the workload's own results from FILE into the "
	 "recording, before the summary: NDJSON `outcome` records "
	 "(throughput, latency, iterations, exit status, OOM kill; see "
	 "docs/recording-format.md). A line that is not one is left out "
	 "and named on stderr",
	 0},
	{"quiet", 'q', NULL, 0, "No status line on stderr", 0},
	{0},
};

static const char doc[] =
	"Record reclaim activity per memory cgroup as NDJSON: a header "
	"(kernel, "
	"hooks), a snapshot of per-interval counts every interval, with "
	"--events one record per event, and a summary with the totals of the "
	"run.  The format is described in docs/recording-format.md.  Counts "
	"are kept in the kernel, so totals stay exact even if event records "
	"are dropped; drops are counted and reported.\n"
	"\v"
	"EXAMPLES:\n"
	"  reclaimscope record -d 30 -o run.ndjson\n"
	"  reclaimscope record --events -d 2m --cgroup /tenants/a -o a.ndjson\n"
	"  reclaimscope record -i 0.5 | jq 'select(.type==\"summary\")'\n"
	"\n"
	"Values the running kernel cannot give are null, never 0: see "
	"`reclaimscope probe`.";

static error_t parse(int key, char *arg, struct argp_state *state)
{
	struct record_opts *o = state->input;
	int err;

	switch (key) {
	case 'o':
		o->output = arg;
		return 0;
	case 'i':
		return rs_cli_parse_interval(state, arg, &o->interval);
	case 'd':
		err = rs_parse_seconds(arg, 0.001, 365 * 86400.0, &o->duration);
		if (err)
			argp_error(state,
				   "invalid duration '%s': give e.g. 30, 30s, "
				   "5m or 2h",
				   arg);
		return err ? EINVAL : 0;
	case 'e':
		o->events = true;
		return 0;
	case 'c':
		o->cgroup = arg;
		return 0;
	case OPT_RING_SIZE:
		err = rs_parse_size(arg, 4096, 1ULL << 30, &o->ring_bytes);
		if (err || (o->ring_bytes & (o->ring_bytes - 1)))
			argp_error(state,
				   "invalid ring size '%s': give a power of "
				   "two from 4K to 1G, e.g. 64K, 4M, 16M",
				   arg);
		return err ? EINVAL : 0;
	case 'q':
		o->quiet = true;
		return 0;
	case OPT_OUTCOME:
		o->outcome = arg;
		return 0;
	case OPT_CELLS:
		if (rs_parse_u64(arg, 16, 1 << 20, &o->agg_cells))
			argp_error(state,
				   "invalid cell count '%s': give a whole "
				   "number from 16 to 1048576, e.g. 65536",
				   arg);
		return 0;
	default:
		return rs_cli_parse_default(key, arg, state, &o->common);
	}
}

/*
 * The workload's outcome records from path into out, each line checked
 * as the reader will take it (rs_outcome_check: a JSON object of type
 * "outcome" naming its workload, every key of the right type and range)
 * and written compact; the others are named on stderr and left out, so
 * that one bad line never makes the recording unreadable.  A write error
 * is returned; a missing file is said and is not one (a workload killed
 * before it wrote leaves none: its exit status line says why).
 */
static int copy_outcomes(FILE *out, const char *path)
{
	FILE *in = fopen(path, "re");
	struct rs_outcome_check *check;
	char *line = NULL, why[512];
	size_t cap = 0, nr = 0, left_out = 0;
	ssize_t len;
	int err = 0;

	if (!in) {
		fprintf(stderr,
			"reclaimscope: no workload outcome in the recording: "
			"cannot read %s: %s\n",
			path, strerror(errno));
		return 0;
	}
	check = rs_outcome_check_new(path);
	if (!check) {
		fclose(in);
		return ENOMEM;
	}
	while (!err && (len = getline(&line, &cap, in)) >= 0) {
		json_error_t jerr;
		json_t *o;

		nr++;
		if (len == 0 || (len == 1 && line[0] == '\n'))
			continue;
		/* the reader refuses a longer line, and the whole file with
		 * it; written compact, a line is never longer than read */
		o = len > RS_MAX_LINE
			    ? NULL
			    : json_loadb(line, (size_t)len,
					 JSON_REJECT_DUPLICATES, &jerr);
		if (!o)
			snprintf(why, sizeof(why), "%s:%zu: %s", path, nr,
				 len > RS_MAX_LINE ? "a line over 16 MiB"
						   : jerr.text);
		if (!o || rs_outcome_check(check, o, nr, why, sizeof(why))) {
			char shown[RS_ESCAPED_SIZE(sizeof(why))];

			/* quotes the file's bytes: escaped for the terminal */
			left_out++;
			fprintf(stderr,
				"reclaimscope: %s; left out of the "
				"recording\n",
				rs_name_shown(why, shown, sizeof(shown), 0));
		} else if (rs_json_write_line(out, o)) {
			err = errno ? errno : EIO;
		}
		json_decref(o);
	}
	if (left_out)
		fprintf(stderr,
			"reclaimscope: %zu line%s of %s left out of the "
			"recording\n",
			left_out, left_out == 1 ? "" : "s", path);
	free(line);
	fclose(in);
	rs_outcome_check_free(check);
	return err;
}

struct recorder {
	struct rs_output output; /* where the recording goes: output.file */
	struct rs_model *model;
	struct rs_session *session;
	struct rs_run_info *info;
	struct rs_event_writer *events_out;
	const char *filter;
	__u64 events;
	bool unflushed; /* event lines written since the last fflush */
	int write_error;
	__u64 gens_written; /* the model's snapshot count at the last written */
};

static void write_line(struct recorder *r, json_t *obj);

/* A snapshot, with the timeline's entries since the last one written. */
static void write_snapshot(struct recorder *r)
{
	write_line(r, rs_json_snapshot(r->model, r->info, r->filter,
				       r->gens_written));
	r->gens_written = rs_model_snapshots(r->model);
}

static int on_record(void *ctx, const void *rec, size_t size)
{
	struct recorder *r = ctx;
	const struct rs_event_hdr *h = rec;
	const char *line;
	char path[RS_CG_PATH_MAX];
	size_t len;

	/* a memcg first seen in an event: name it now, not at the snapshot */
	if (size >= sizeof(*h) && h->cgroup_id != RS_CGROUP_NONE &&
	    !rs_model_path(r->model, h->cgroup_id) &&
	    !rs_session_path(r->session, h->cgroup_id, path, sizeof(path)))
		rs_model_set_path(r->model, h->cgroup_id, path);
	/* a filtered run keeps only the events of matching memcgs */
	if (r->filter && size >= sizeof(*h) &&
	    !rs_path_matches(rs_event_path(r->model, h->cgroup_id), r->filter))
		return 0;
	line = rs_event_line(r->events_out, r->model, r->info, rec, size, &len);
	if (!line) {
		if (errno != ENOMEM)
			return 0; /* not a record we know */
		r->write_error = ENOMEM;
		return -ENOMEM;
	}
	/*
	 * flushed after each batch (flush_events), not per line; only this
	 * thread writes r->output.file, so no stdio lock per line (~12% of a
	 * line)
	 */
	if (fwrite_unlocked(line, 1, len, r->output.file) != len) {
		r->write_error = errno ? errno : EIO;
		return -r->write_error;
	}
	r->events++;
	r->unflushed = true;
	return 0;
}

/* What the last batch of records wrote, out where a reader sees it. */
static void flush_events(struct recorder *r)
{
	if (!r->unflushed || r->write_error)
		return;
	r->unflushed = false;
	if (fflush(r->output.file))
		r->write_error = errno ? errno : EIO;
}

/* "/sys/fs/cgroup/a/b", "/a/b" and "a/b" all name /a/b under the root */
/*
 * --cgroup as the memcgs' paths are spelled (relative to the hierarchy's
 * root, canonical: "//x", "/./x" and "/y/../x" are "/x"), or -errno when
 * no such memcg exists.  out needs strlen(in) + 2 bytes.
 */
static int normalize_filter(const struct rs_cgroups *cg, const char *in,
			    char *out)
{
	const char *root = rs_cgroups_root(cg);
	size_t rl = strlen(root);
	__u64 id;

	if (!strncmp(in, root, rl) && (in[rl] == '/' || in[rl] == '\0'))
		in += rl;
	rs_path_canonical(in, out);
	return rs_cgroups_id(cg, out, &id);
}

static void status_line(const struct recorder *r, double t, bool final)
{
	fprintf(stderr,
		"\rrecording: %.0f s, %zu memcgs, %llu records, %llu "
		"dropped%s",
		t, rs_model_nr_memcgs(r->model), (unsigned long long)r->events,
		(unsigned long long)rs_model_stat(r->model, RS_STAT_RING_DROPS),
		final ? "\n" : "   ");
}

/* A JSON line out, unless writing already failed; frees obj. */
static void write_line(struct recorder *r, json_t *obj)
{
	if (!r->write_error && rs_json_write_line(r->output.file, obj))
		r->write_error = errno ? errno : EIO;
	json_decref(obj);
}

/*
 * --cgroup checked and spelled as the memcgs' paths are, before the probes
 * load: 0, or the exit status.  *filter: NULL for every memcg; free it.
 */
static int resolve_filter(const struct record_opts *o, char **filter)
{
	struct rs_cgroups *cg;
	int err;

	*filter = NULL;
	if (!o->cgroup)
		return 0;
	cg = rs_cgroups_open();
	if (!cg) {
		fprintf(stderr, "reclaimscope: --cgroup: no memory cgroup "
				"hierarchy is mounted\n");
		return 2;
	}
	*filter = malloc(strlen(o->cgroup) + 2);
	err = *filter ? normalize_filter(cg, o->cgroup, *filter) : -ENOMEM;
	if (err) {
		fprintf(stderr,
			"reclaimscope: --cgroup %s: no such memory cgroup "
			"under %s (%s)\n",
			o->cgroup, rs_cgroups_root(cg), strerror(-err));
		free(*filter);
		*filter = NULL;
	} else if (!o->quiet && strcmp(*filter, o->cgroup)) {
		fprintf(stderr, "reclaimscope: --cgroup %s: recording %s\n",
			o->cgroup, *filter);
	}
	rs_cgroups_close(cg);
	return err ? 2 : 0;
}

/*
 * The output opened (and truncated) only once the probes are in, so that a
 * start that fails leaves the previous recording as it was; the header
 * written.  A FIFO is waited for until its reader comes or the run is to
 * stop (src/cmd/output.h).  0 or -1.
 */
static int start_output(const struct record_opts *o, struct recorder *r,
			volatile int *stop)
{
	int err;

	r->output.stop = stop;
	if (o->duration)
		r->output.deadline_ns =
			r->info->start_ns + (__u64)(o->duration * 1e9);
	err = rs_output_open(&r->output, o->output);
	if (err == RS_OUTPUT_NO_READER) {
		fprintf(stderr,
			"reclaimscope: no reader opened %s before the stop; "
			"nothing was recorded\n",
			o->output);
		return -1;
	}
	if (err) {
		fprintf(stderr, "reclaimscope: cannot write %s: %s\n",
			o->output ? o->output : "stdout", strerror(-err));
		return -1;
	}
	r->events_out = rs_event_writer_new();
	if (!r->events_out) {
		fprintf(stderr, "reclaimscope: out of memory\n");
		return -1;
	}
	write_line(r, rs_json_header(r->info));
	if (!o->quiet && strcmp(rs_mode(r->info), "full"))
		fprintf(stderr,
			"reclaimscope: %s mode: some values are unavailable "
			"(null); `reclaimscope probe` says why\n",
			rs_mode(r->info));
	return 0;
}

/*
 * Until a signal, the duration or a write error: event records as they
 * come, a snapshot every interval.
 */
static void record_until_stopped(const struct record_opts *o,
				 struct recorder *r, volatile int *stop,
				 bool status)
{
	__u64 start = r->info->start_ns;
	__u64 interval_ns = (__u64)(o->interval * 1e9);
	__u64 next_tick = start + interval_ns;

	while (!*stop && !r->write_error) {
		__u64 now = rs_now_ns();
		double t = (now - start) / 1e9;
		int wait_ms;

		if (o->duration && t >= o->duration)
			break;
		if (now >= next_tick) {
			rs_session_refresh(r->session);
			rs_session_note_mglru(r->session, stderr);
			write_snapshot(r);
			if (status)
				status_line(r, t, false);
			while (next_tick <= now)
				next_tick += interval_ns;
			continue;
		}
		wait_ms = (int)((next_tick - now) / 1000000) + 1;
		if (o->duration && (o->duration - t) * 1000 < wait_ms)
			wait_ms = (int)((o->duration - t) * 1000) + 1;
		if (wait_ms > 100)
			wait_ms = 100;
		int polled = rs_collector_poll(r->session->collector, wait_ms,
					       on_record, r);

		if (polled < 0 && !r->write_error) {
			/* the end of the recording, said, not silent */
			fprintf(stderr,
				"reclaimscope: reading the event ring failed "
				"(%s): the recording ends here\n",
				strerror(-polled));
			break;
		}
		flush_events(r);
	}
}

/*
 * The end: producers stopped first (a record made between the last poll
 * and the last snapshot would be in the totals but not in the stream; a
 * program already running when its link went may still finish, and a
 * record of it after the snapshot means one more snapshot), then the last,
 * partial interval (snapshots sum to the summary), the workload's
 * outcomes and the summary, exact for idle memcgs too.
 */
static void finish(const struct record_opts *o, struct recorder *r, bool status)
{
	struct rs_collector *c = r->session->collector;
	double t;

	/* a reader who takes nothing now is waited for a little, not forever */
	rs_output_finishing(&r->output);
	rs_collector_stop(c);
	r->session->look_at_all = true;
	do {
		while (rs_collector_poll(c, 0, on_record, r) > 0)
			;
		t = (rs_now_ns() - r->info->start_ns) / 1e9;
		rs_session_refresh(r->session);
	} while (rs_collector_poll(c, 0, on_record, r) > 0);
	write_snapshot(r);
	if (o->outcome && !r->write_error)
		r->write_error = copy_outcomes(r->output.file, o->outcome);
	write_line(r, rs_json_summary(r->model, t, r->filter));
	if (status)
		status_line(r, t, true);
}

/* Why the recording could not be written whole, on stderr. */
static void say_write_failed(const struct record_opts *o,
			     const struct recorder *r, int err)
{
	const char *name = o->output ? o->output : "stdout";

	if (r->output.gave_up)
		fprintf(stderr,
			"reclaimscope: the reader of %s took nothing for %d s "
			"after the stop; the recording ends early, without its "
			"summary: its last %zu bytes were not written, nor "
			"anything after them\n",
			name, RS_OUTPUT_STOP_GRACE_S, r->output.unwritten);
	else
		fprintf(stderr, "reclaimscope: writing %s failed: %s\n", name,
			strerror(err));
}

/* What the recording lacks, said on stderr. */
static void report_losses(const struct record_opts *o, struct recorder *r)
{
	__u64 missed = rs_model_stat(r->model, RS_STAT_PROG_MISSES),
	      drops = rs_model_stat(r->model, RS_STAT_RING_DROPS);

	if (missed) {
		char which[1024];

		rs_collector_misses(r->session->collector, which,
				    sizeof(which));
		fprintf(stderr,
			"reclaimscope: %llu events were lost: the kernel "
			"skipped every copy of a program busy on its CPU "
			"(%s); counts that depend on them may be off\n",
			(unsigned long long)missed, which);
	}
	if (!o->quiet && drops)
		fprintf(stderr,
			"reclaimscope: %llu event records were dropped (ring "
			"buffer full); totals are exact. Try a larger "
			"--ring-size.\n",
			(unsigned long long)drops);
}

int rs_cmd_record(int argc, char **argv)
{
	static const struct argp argp = {options,	   parse, NULL, doc,
					 rs_live_children, NULL,  NULL};
	struct record_opts o = {.interval = 1.0};
	struct rs_collector_opts copts = {0};
	struct rs_session s = {0};
	struct recorder r = {0};
	char *filter = NULL;
	volatile int stop = 0;
	bool status;
	int rc, err;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o))
		return 2;
	/*
	 * First of all: a background job of a shell starts with SIGINT
	 * ignored, and whoever started us may signal before the probes are
	 * in.  A signal during start-up still ends in a whole recording
	 * (header, a snapshot, the summary).
	 */
	rs_cli_on_signals(&stop);
	rc = resolve_filter(&o, &filter);
	if (rc)
		return rc;
	r.filter = filter;
	rs_cli_collector_opts(&o.common, &copts);
	copts.stream_events = o.events;
	copts.ring_bytes = (__u32)o.ring_bytes;
	copts.agg_cells = (__u32)o.agg_cells;
	s.gauges = true; /* memory.current: the summary's mem_current_avg */
	rc = 1;
	if (rs_session_open(&s, &copts))
		goto out;
	r.info = &s.info;
	s.info.cgroup_filter = filter; /* the header says it */
	r.session = &s;
	r.model = s.model;
	if (start_output(&o, &r, &stop))
		goto out;
	status = !o.quiet && isatty(STDERR_FILENO) && o.output != NULL;
	record_until_stopped(&o, &r, &stop, status);
	finish(&o, &r, status);
	if (r.write_error) {
		say_write_failed(&o, &r, r.write_error);
		goto out;
	}
	report_losses(&o, &r);
	rc = 0;
out:
	rs_event_writer_free(r.events_out);
	rs_session_close(&s);
	free(filter);
	/* the last buffered lines reach the disk here, or fail to */
	err = rs_output_close(&r.output);
	if (err && !rc) {
		say_write_failed(&o, &r, err);
		rc = 1;
	}
	return rc;
}
