// SPDX-License-Identifier: GPL-2.0
/*
 * reclaimscope top: a live, full-screen view of reclaim per memcg (ncurses),
 * or plain-text frames with --batch.  What it shows is in top_view.c; this
 * file is the terminal.
 */
#include <argp.h>
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fields.h"
#include "lru_gen.h"
#include "session.h"
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

#define PATH_WIDTH 28

enum pane { TABLE, DETAILS, HELP, TASKS };

/* the filter, and the prompt that edits it (copied whole on Enter) */
#define FILTER_SIZE 128

struct ui {
	struct rs_session *s;
	struct rs_top_opts view;
	double interval;
	bool paused, color;
	enum pane pane;
	size_t selected;   /* row index */
	int first_col;	   /* horizontal scroll */
	__u64 selected_id; /* kept across refreshes */
	char filter[FILTER_SIZE];
	bool prompting;		 /* the / prompt is open: keys edit typed */
	char typed[FILTER_SIZE]; /* what the prompt holds so far */
	size_t typed_len;
};

#define FILTER_PROMPT "filter (path contains): "

/* Print a memstream-made text block line by line from row y; next row. */
static int put_block(int y, const char *text)
{
	const char *p = text;

	while (*p && y < LINES - 1) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		mvaddnstr(y++, 0, p, len < COLS ? len : COLS);
		p = nl ? nl + 1 : p + len;
	}
	return y;
}

static int draw_header(struct ui *u, int y)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return y;
	rs_top_header(f, u->s->model, &u->s->info, u->interval);
	fclose(f);
	y = put_block(y, buf);
	free(buf);
	return y;
}

static void draw_table(struct ui *u, int y)
{
	size_t nr;
	struct rs_top_row *rows =
		rs_top_rows(u->s->model, &u->view, u->interval, &nr);
	char buf[RS_PATH_BUF], cell[64];
	int x, top;

	if (!rows)
		return;
	/* keep the selection on the same memcg when the order changes */
	for (size_t i = 0; i < nr; i++)
		if (rows[i].mc->id == u->selected_id) {
			u->selected = i;
			break;
		}
	if (u->selected >= nr)
		u->selected = nr ? nr - 1 : 0;
	if (nr)
		u->selected_id = rows[u->selected].mc->id;
	attron(A_BOLD);
	mvprintw(y, 0, "%-*s", PATH_WIDTH,
		 u->view.per_node ? "MEMCG (node)" : "MEMCG");
	x = PATH_WIDTH;
	for (int c = u->first_col; c < u->view.nr_cols; c++) {
		int w = rs_top_col_width(&u->view, c) + 1;

		if (x + w > COLS)
			break;
		if (c == u->view.sort_col && !u->view.tree)
			attron(A_REVERSE);
		mvprintw(y, x, " %*s", w - 1,
			 rs_top_col_title(&u->view, c, buf, sizeof(buf)));
		attroff(A_REVERSE);
		x += w;
	}
	attroff(A_BOLD);
	y++;
	/* scroll so that the selection is visible */
	top = 0;
	if ((int)u->selected >= LINES - 2 - y)
		top = (int)u->selected - (LINES - 2 - y) + 1;
	for (size_t i = (size_t)top; i < nr && y < LINES - 1; i++, y++) {
		const struct rs_top_row *r = &rows[i];
		const char *path =
			rs_memcg_display_path(r->mc, buf, sizeof(buf));
		char name[300];

		if (r->node >= 0)
			snprintf(name, sizeof(name), "%s (%d)", path, r->node);
		else
			snprintf(name, sizeof(name), "%*s%s", 2 * r->depth, "",
				 path);
		if (i == u->selected)
			attron(A_REVERSE);
		if (r->mc->gone && u->color)
			attron(COLOR_PAIR(2));
		/* the tail of a long path says more than its head */
		if ((int)strlen(name) > PATH_WIDTH - 1)
			mvprintw(y, 0, "~%-*s", PATH_WIDTH - 1,
				 name + strlen(name) - (PATH_WIDTH - 2));
		else
			mvprintw(y, 0, "%-*s", PATH_WIDTH, name);
		x = PATH_WIDTH;
		for (int c = u->first_col; c < u->view.nr_cols; c++) {
			struct rs_value v = rs_top_value(&u->view, r, c);
			int w = rs_top_col_width(&u->view, c) + 1;

			if (x + w > COLS)
				break;
			rs_top_format(&u->view, v, c, cell, sizeof(cell));
			if (v.state == RS_VALUE_NA && u->color)
				attron(COLOR_PAIR(1));
			mvprintw(y, x, " %s", cell);
			if (u->color)
				attroff(COLOR_PAIR(1));
			x += w;
		}
		attroff(A_REVERSE);
		if (u->color)
			attroff(COLOR_PAIR(2));
	}
	if (!nr)
		mvprintw(y, 0, "(no memcg reclaimed in the last interval%s)",
			 u->view.filter && *u->view.filter ? " under the filter"
							   : "");
	free(rows);
}

/*
 * One histogram: its quantiles from the fine buckets, then one line of
 * "<= bound  count  bar" per power of two (16 lines a power would not fit
 * the pane).
 */
static int draw_hist(int y, const char *title, const struct rs_histogram *h)
{
	__u64 b[RS_HIST_LOG2_BUCKETS], most = 0;
	double count = rs_hist_total(h);

	rs_hist_log2(h, b);
	for (int i = 0; i < RS_HIST_LOG2_BUCKETS; i++)
		if (b[i] > most)
			most = b[i];
	if (count)
		mvprintw(y++, 0,
			 "%s (%.0f since start, p50 %.3f ms, p99 %.3f ms)",
			 title, count, rs_hist_quantile(h, 0.5) / 1e6,
			 rs_hist_quantile(h, 0.99) / 1e6);
	else
		mvprintw(y++, 0, "%s (0 since start)", title);
	for (int i = 0; i < RS_HIST_LOG2_BUCKETS && y < LINES - 1; i++) {
		int bar;

		if (!b[i])
			continue;
		bar = (int)(30.0 * (double)b[i] / (double)most) + 1;
		mvprintw(y++, 2, "<= %10.3f ms %10llu %.*s",
			 (double)(1ULL << i) / 1e6, (unsigned long long)b[i],
			 bar, "##############################");
	}
	return y;
}

static void draw_details(struct ui *u, int y)
{
	const struct rs_memcg *mc = rs_model_find(u->s->model, u->selected_id);
	__u64 hooks = rs_model_hooks(u->s->model);
	struct rs_gen gens[32];
	char buf[RS_PATH_BUF];
	int n;

	if (!mc) {
		mvprintw(y, 0, "the selected memcg is no longer tracked");
		return;
	}
	attron(A_BOLD);
	mvprintw(y++, 0, "%s  (id %llu%s)",
		 rs_memcg_display_path(mc, buf, sizeof(buf)),
		 (unsigned long long)mc->id, mc->gone ? ", gone" : "");
	attroff(A_BOLD);
	if (isnan(mc->last_aging))
		mvprintw(y++, 0, "last aging: none seen");
	else
		mvprintw(y++, 0, "last aging: %.0f s ago",
			 rs_model_time(u->s->model) - mc->last_aging);
	n = mc->path ? rs_lru_gen_read(mc->path, gens, 32) : -ENOENT;
	if (n < 0)
		mvprintw(y++, 0, "MGLRU generations: n/a (%s: %s)",
			 RS_LRU_GEN_FILE, strerror(-n));
	else {
		mvprintw(y++, 0,
			 "MGLRU generations (node seq age_ms anon "
			 "file pages):");
		for (int i = 0; i < n && y < LINES - 1; i++)
			mvprintw(y++, 2, "node %d  %6llu %10llu %10llu %10llu",
				 gens[i].node, (unsigned long long)gens[i].seq,
				 (unsigned long long)gens[i].age_ms,
				 (unsigned long long)gens[i].anon_pages,
				 (unsigned long long)gens[i].file_pages);
	}
	for (int h = 0; h < RS_NR_HISTS && y < LINES - 2; h++) {
		static const struct rs_histogram none;
		const struct rs_hist_counts *hc;

		if (!rs_hist_known(h, hooks)) {
			mvprintw(y++, 0, "%s latency: n/a (hook missing)",
				 rs_hist_infos[h].key);
			continue;
		}
		if (!mc->hists)
			continue;
		/* a kind with no count yet draws as empty */
		hc = rs_memcg_hist(mc, h);
		y = draw_hist(y, rs_hist_infos[h].help,
			      hc ? &hc->total : &none);
	}
}

struct task_lines {
	int y;
};

static void task_line(void *ctx, const char *text)
{
	struct task_lines *tl = ctx;

	if (tl->y < LINES - 1)
		mvprintw(tl->y++, 0, "%.*s", COLS > 0 ? COLS - 1 : 0, text);
}

/* Who stalled in the last interval (key T). */
static void draw_tasks(struct ui *u, int y)
{
	struct task_lines tl = {y};

	rs_top_tasks(u->s->model, &u->view, u->interval,
		     LINES > y + 2 ? (size_t)(LINES - y - 2) : 0, task_line,
		     &tl);
}

static void draw_help(const struct rs_top_opts *view, int y)
{
	static const char *const keys[] = {
		"< >      sort by the previous / next column",
		"/        filter by path (empty clears; Esc cancels)",
		"t        tree (by path) or flat (by the sort column)",
		"N        one row per NUMA node",
		"a        also memcgs idle in the last interval",
		"T        who stalled, per task, memcg and kind (again: back)",
		"p SPACE  pause / resume",
		"up down  select a memcg; Enter details, Esc back",
		"left right  scroll the columns",
		"h ?      this help",
		"q        quit",
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		mvprintw(y++, 0, "%s", keys[i]);
	y++;
	for (int c = 0; c < view->nr_cols && y < LINES - 1; c++)
		mvprintw(y++, 0, "%-18s %s",
			 rs_top_col_title(view, c, buf, sizeof(buf)),
			 rs_top_col_help(view, c));
}

/*
 * The filter prompt on the bottom line, the cursor after what was typed;
 * the tail of a text wider than the line.
 */
static void draw_prompt(const struct ui *u)
{
	int label = (int)strlen(FILTER_PROMPT);
	int room = COLS - 1 - label > 0 ? COLS - 1 - label : 0;
	int shown = (int)u->typed_len < room ? (int)u->typed_len : room;

	mvprintw(LINES - 1, 0, "%-*s", COLS - 1, FILTER_PROMPT);
	mvaddnstr(LINES - 1, label, u->typed + u->typed_len - shown, shown);
	move(LINES - 1, label + shown);
}

static void draw(struct ui *u)
{
	int y;

	erase();
	y = draw_header(u, 0);
	if (u->pane == TABLE)
		draw_table(u, y);
	else if (u->pane == DETAILS)
		draw_details(u, y);
	else if (u->pane == TASKS)
		draw_tasks(u, y);
	else
		draw_help(&u->view, y);
	attron(A_REVERSE);
	if (u->paused) {
		mvprintw(LINES - 1, 0, "%-*s", COLS - 1,
			 "PAUSED  p resume  q quit");
	} else {
		char title[64], bar[256];

		snprintf(bar, sizeof(bar),
			 "sort %s%s%s  h help  < > sort  / filter  t tree  T "
			 "tasks  "
			 "Enter details  q quit",
			 u->view.tree
				 ? "tree"
				 : rs_top_col_title(&u->view, u->view.sort_col,
						    title, sizeof(title)),
			 u->filter[0] ? "  filter " : "", u->filter);
		mvprintw(LINES - 1, 0, "%-*.*s", COLS - 1, COLS - 1, bar);
	}
	attroff(A_REVERSE);
	if (u->prompting)
		draw_prompt(u);
	curs_set(u->prompting ? 1 : 0);
	refresh();
}

/*
 * A key while the filter prompt is open.  The prompt is edited here, one
 * key at a time from the main loop, not read by getnstr: that blocks until
 * Enter, through SIGINT and SIGTERM (the stop flag is seen only by the
 * loop), and takes Esc as a character.
 */
static void on_prompt_key(struct ui *u, int ch)
{
	switch (ch) {
	case 27: /* Esc: the filter stays as it was */
		u->prompting = false;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER: /* an empty filter shows every memcg again */
		memcpy(u->filter, u->typed, u->typed_len + 1);
		u->view.filter = u->filter;
		u->selected = 0;
		u->prompting = false;
		break;
	case KEY_BACKSPACE:
	case 127: /* DEL, what most terminals send for Backspace */
	case 8:	  /* ^H */
		/* a whole UTF-8 character: its continuation bytes, its lead */
		while (u->typed_len &&
		       (u->typed[u->typed_len - 1] & 0xc0) == 0x80)
			u->typed_len--;
		if (u->typed_len)
			u->typed_len--;
		u->typed[u->typed_len] = '\0';
		break;
	default:
		/* bytes of text (a path's UTF-8 too), no control characters */
		if (ch >= ' ' && ch <= 0xff && ch != 127 &&
		    u->typed_len < sizeof(u->typed) - 1) {
			u->typed[u->typed_len++] = (char)ch;
			u->typed[u->typed_len] = '\0';
		}
		break;
	}
}

/* A key; false to quit. */
static bool on_key(struct ui *u, int ch)
{
	switch (ch) {
	case 'q':
	case 'Q':
		return false;
	case 27: /* Esc */
		u->pane = TABLE;
		break;
	case 'h':
	case '?':
		u->pane = u->pane == HELP ? TABLE : HELP;
		break;
	case '\n':
	case KEY_ENTER:
	case 'd':
		u->pane = u->pane == DETAILS ? TABLE : DETAILS;
		break;
	case '>':
		u->view.sort_col = (u->view.sort_col + 1) % u->view.nr_cols;
		u->view.tree = false;
		break;
	case '<':
		u->view.sort_col = (u->view.sort_col + u->view.nr_cols - 1) %
				   u->view.nr_cols;
		u->view.tree = false;
		break;
	case '/':
		u->prompting = true;
		u->typed_len = 0;
		u->typed[0] = '\0';
		break;
	case 't':
		u->view.tree = !u->view.tree;
		break;
	case 'N':
		u->view.per_node = !u->view.per_node;
		break;
	case 'T':
		u->pane = u->pane == TASKS ? TABLE : TASKS;
		break;
	case 'a':
		u->view.all = !u->view.all;
		break;
	case 'p':
	case ' ':
		u->paused = !u->paused;
		break;
	case KEY_UP:
		if (u->selected)
			u->selected--;
		u->selected_id = 0;
		break;
	case KEY_DOWN:
		u->selected++;
		u->selected_id = 0;
		break;
	case KEY_LEFT:
		if (u->first_col)
			u->first_col--;
		break;
	case KEY_RIGHT:
		if (u->first_col < u->view.nr_cols - 1)
			u->first_col++;
		break;
	default:
		break;
	}
	return true;
}

/* The selection by index after an arrow key: resolve it to an id. */
static void fix_selection(struct ui *u)
{
	size_t nr;
	struct rs_top_row *rows;

	if (u->selected_id)
		return;
	rows = rs_top_rows(u->s->model, &u->view, u->interval, &nr);
	if (rows && nr) {
		if (u->selected >= nr)
			u->selected = nr - 1;
		u->selected_id = rows[u->selected].mc->id;
	}
	free(rows);
}

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
	struct ui u = {.s = s,
		       .view = *view,
		       .interval = o->interval,
		       .pane = o->tasks ? TASKS : TABLE};
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
			draw(&u);
			if (o->frames && frames >= o->frames)
				break;
		}
		timeout(100);
		ch = getch();
		if (ch == ERR)
			continue;
		/* (KEY_RESIZE: only redrawn, at the new size) */
		if (ch != KEY_RESIZE && u.prompting)
			on_prompt_key(&u, ch);
		else if (ch != KEY_RESIZE && !on_key(&u, ch))
			break;
		fix_selection(&u);
		draw(&u);
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
