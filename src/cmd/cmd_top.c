// SPDX-License-Identifier: GPL-2.0
/*
 * reclaimscope top: a live, full-screen view of reclaim per memcg (ncurses),
 * or plain-text frames with --batch.  What it shows is in top_view.c; this
 * file is the terminal.
 */
#include <argp.h>
#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "session.h"
#include "top_tui.h"
#include "top_view.h"
#include "util.h"
/* after ours: term.h defines lines and columns as macros */
#include <term.h>

struct top_opts {
	struct rs_common_opts common;
	double interval;
	bool batch;
	__u64 frames; /* 0: until stopped */
	const char *sort;
	const char *show; /* columns, comma-separated; NULL: the default */
	const char *filter;
	bool tree, per_node, all, no_color;
	bool tasks;		 /* who stalled, instead of the memcgs */
	struct rs_top_opts view; /* the columns, from show and sort */
};

enum { OPT_NO_COLOR = 0x100, OPT_ALL, OPT_COLUMNS, OPT_TASKS };

static const struct argp_option options[] = {
	{"interval", 'i', "SECONDS", 0,
	 "Refresh every SECONDS (default 1; 0.1 to 3600)", 0},
	{"batch", 'b', NULL, 0, "Plain-text frames on stdout, no terminal UI",
	 0},
	{"frames", 'n', "N", 0,
	 "Stop after N frames (default: until q or a "
	 "signal)",
	 0},
	{"sort", 's', "COLUMN", 0,
	 "Sort by COLUMN, a column title such as reclaimed/s or eff%, or a "
	 "metric's name (default reclaimed/s); shown if it is not",
	 0},
	{"show", 'c', "COLUMNS", 0,
	 "Show COLUMNS, comma-separated titles or metric names, in that "
	 "order: any metric of `reclaimscope report --metrics` that needs no "
	 "event records",
	 0},
	{"filter", 'f', "TEXT", 0, "Only memcgs whose path contains TEXT", 0},
	{"tree", 't', NULL, 0, "Show the hierarchy, sorted by path", 0},
	{"per-node", 'N', NULL, 0, "One row per memcg and NUMA node", 0},
	{"all", OPT_ALL, NULL, 0, "Also memcgs idle in the last interval", 0},
	{"tasks", OPT_TASKS, NULL, 0,
	 "Who stalled: per (task, memcg, kind) entry, the last interval's "
	 "stalls/s and stall ms/s and the longest stall since the start "
	 "(max ms), the most stall time first; kind is direct, memcg, "
	 "proactive or throttle.  The UI starts on that view (key T), "
	 "--batch prints it after each frame's memcgs (the top 20)",
	 0},
	{"no-color", OPT_NO_COLOR, NULL, 0,
	 "No colours (also when NO_COLOR is set)", 0},
	{"columns", OPT_COLUMNS, NULL, 0,
	 "Print every column top can show: its title (what --sort and --show "
	 "take), metric name and meaning, one per line, tab-separated, and "
	 "exit (needs no privileges)",
	 0},
	{0},
};

static const char doc[] =
	"Show reclaim per memory cgroup, live: scan, isolate and reclaim "
	"rates, efficiency, MGLRU budget use, passes, agings, flusher "
	"wakeups, throttles, direct reclaim latency, refaults, pressure and "
	"memory use.  Values the kernel cannot give are shown as n/a, never "
	"as 0; '-' means nothing happened to measure.\n"
	"\n"
	"Keys: < > sort column, / filter, t tree, N per node, T who stalled, "
	"p pause, arrows select, Enter details, left/right scroll columns, "
	"h help, q quit.\n"
	"\v"
	"EXAMPLES:\n"
	"  reclaimscope top\n"
	"  reclaimscope top --sort thrms/s --filter tenants\n"
	"  reclaimscope top -c reclaimed/s,eff%,over_reclaim,pass_p99 "
	"--sort pass_p99\n"
	"  reclaimscope top -b -n 5 -i 2 > frames.txt\n"
	"  reclaimscope top -b --tasks -n 3\n";

/* --show and --sort, once both are read: the columns and the sort's. */
static error_t resolve_columns(struct top_opts *o, struct argp_state *state)
{
	struct rs_top_opts *view = &o->view;
	char err[256];
	int sort;

	rs_top_default(view);
	if (o->show && rs_top_set_cols(view, o->show, err, sizeof(err))) {
		argp_error(state, "--show: %s", err);
		return EINVAL;
	}
	if (strchr(o->sort, ',')) {
		argp_error(state, "--sort takes one column, not '%s'", o->sort);
		return EINVAL;
	}
	/* the error an unknown or recording-only name gets from --show */
	if (rs_top_set_cols(&(struct rs_top_opts){0}, o->sort, err,
			    sizeof(err))) {
		argp_error(state, "--sort: %s", err);
		return EINVAL;
	}
	sort = rs_top_row_by_name(o->sort);
	for (view->sort_col = 0; view->sort_col < view->nr_cols &&
				 view->cols[view->sort_col] != sort;
	     view->sort_col++)
		;
	if (view->sort_col == view->nr_cols) {
		if (view->nr_cols == RS_TOP_MAX_COLS) {
			argp_error(state, "--sort: more than %d columns",
				   RS_TOP_MAX_COLS);
			return EINVAL;
		}
		view->cols[view->nr_cols++] = sort;
	}
	return 0;
}

static error_t parse(int key, char *arg, struct argp_state *state)
{
	struct top_opts *o = state->input;

	switch (key) {
	case 'i':
		return rs_cli_parse_interval(state, arg, &o->interval);
	case 'b':
		o->batch = true;
		return 0;
	case 'n':
		if (rs_parse_u64(arg, 1, 1000000000, &o->frames)) {
			argp_error(state,
				   "invalid frame count '%s': give 1 or "
				   "more",
				   arg);
			return EINVAL;
		}
		return 0;
	case 's':
		o->sort = arg;
		return 0;
	case 'c':
		o->show = arg;
		return 0;
	case 'f':
		o->filter = arg;
		return 0;
	case 't':
		o->tree = true;
		return 0;
	case 'N':
		o->per_node = true;
		return 0;
	case OPT_ALL:
		o->all = true;
		return 0;
	case OPT_TASKS:
		o->tasks = true;
		return 0;
	case OPT_NO_COLOR:
		o->no_color = true;
		return 0;
	case OPT_COLUMNS:
		for (int i = 0; i < rs_nr_rows; i++) {
			char buf[RS_ROW_TITLE_SIZE];

			if (rs_row_live(i))
				printf("%s\t%s\t%s\n",
				       rs_row_title(i, buf, sizeof(buf)),
				       rs_rows[i].key, rs_row_help(i));
		}
		exit(fflush(stdout) || ferror(stdout) ? 1 : 0);
	case ARGP_KEY_END:
		return resolve_columns(o, state);
	default:
		return rs_cli_parse_default(key, arg, state, &o->common);
	}
}

/* --- the terminal -----------------------------------------------------------
 */

/*
 * The live view moves the cursor: a terminal without cursor addressing
 * (TERM=dumb, an unknown TERM) would show a blank screen.  Say so instead.
 */
static bool terminal_can_draw(void)
{
	const char *term = getenv("TERM");
	char *cup;
	int err = 0;

	if (!term || !*term || setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		fprintf(stderr,
			"reclaimscope: top: TERM=%s is not a terminal type "
			"this system knows; set TERM (e.g. xterm-256color) or "
			"use --batch for plain-text frames\n",
			term ? term : "");
		return false;
	}
	cup = tigetstr("cup");
	del_curterm(cur_term);
	if (!cup || cup == (char *)-1) {
		fprintf(stderr,
			"reclaimscope: top: terminal type '%s' cannot place "
			"the cursor, so the live view cannot be drawn; use "
			"--batch for plain-text frames, or set TERM (e.g. "
			"xterm-256color)\n",
			term);
		return false;
	}
	return true;
}

static int run_ui(struct rs_session *s, const struct top_opts *o,
		  struct rs_top_opts *view, volatile int *stop)
{
	struct rs_tui u = {.model = s->model,
			   .info = &s->info,
			   .view = *view,
			   .interval = o->interval,
			   .pane = o->tasks ? RS_TUI_TASKS : RS_TUI_TABLE};
	__u64 next = rs_now_ns();
	__u64 frames = 0;

	if (!initscr()) {
		fprintf(stderr, "reclaimscope: cannot start the terminal UI; "
				"try --batch\n");
		return 1;
	}
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	u.color = !o->no_color && !getenv("NO_COLOR") && has_colors();
	if (u.color) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_YELLOW, -1); /* n/a */
		init_pair(2, COLOR_CYAN, -1);	/* gone */
	}
	while (!*stop) {
		int ch;

		if (rs_now_ns() >= next) {
			if (!u.paused) {
				rs_session_refresh(s);
				frames++;
			}
			next = rs_now_ns() + (__u64)(u.interval * 1e9);
			rs_tui_draw(&u);
			if (o->frames && frames >= o->frames)
				break;
		}
		timeout(100);
		ch = getch();
		if (ch == ERR)
			continue;
		if (!rs_tui_key(&u, ch))
			break;
		rs_tui_draw(&u);
	}
	endwin();
	return 0;
}

/* --show's help names the default columns, from the catalogue. */
static char *help_filter(int key, const char *text, void *input)
{
	char cols[1024], *out;

	(void)input;
	if (key != 'c' || !text || rs_top_default_titles(cols, sizeof(cols)) ||
	    asprintf(&out, "%s (default: %s)", text, cols) < 0)
		return (char *)text;
	return out; /* argp frees it */
}

int rs_cmd_top(int argc, char **argv)
{
	static const struct argp argp = {
		options, parse, NULL, doc, rs_live_children, help_filter, NULL};
	struct top_opts o = {.interval = 1.0, .sort = "reclaimed/s"};
	struct rs_collector_opts copts = {0};
	struct rs_session s = {0};
	struct rs_top_opts view;
	volatile int stop = 0;
	int rc = 0;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o))
		return 2;
	if (!o.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "reclaimscope: top needs a terminal; use "
				"--batch for plain-text frames\n");
		return 2;
	}
	if (!o.batch && !terminal_can_draw())
		return 2;
	view = o.view;
	view.tree = o.tree;
	view.per_node = o.per_node;
	view.filter = o.filter;
	view.all = o.all;
	rs_cli_collector_opts(&o.common, &copts);
	s.gauges = true;
	/* top is for looking now: a removed memcg leaves after a minute */
	s.expire_after = 60;
	if (rs_session_open(&s, &copts))
		return 1;
	rs_cli_on_signals(&stop);
	if (o.batch) {
		/* the first frame covers one interval, like every other */
		rs_session_refresh(&s);
		for (__u64 n = 0; !stop && (!o.frames || n < o.frames); n++) {
			rs_sleep_unless(&stop, o.interval);
			if (stop)
				break;
			rs_session_refresh(&s);
			rs_top_frame(stdout, s.model, &s.info, &view,
				     o.interval);
			if (o.tasks)
				rs_top_tasks_frame(stdout, s.model, &view,
						   o.interval);
		}
	} else {
		rs_session_refresh(&s);
		rc = run_ui(&s, &o, &view, &stop);
	}
	rs_session_close(&s);
	return rc;
}
