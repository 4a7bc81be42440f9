// SPDX-License-Identifier: GPL-2.0
/*
 * top's terminal UI: drawing the panes with ncurses (the table, one memcg's
 * details, who stalled, help) and the keys that change what is shown.  It
 * reads the model only; src/cmd/cmd_top.c owns the terminal's life and
 * the loop that refreshes the collector.
 */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fields.h"
#include "top_tui.h"

#define PATH_WIDTH 28

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

static int draw_header(struct rs_tui *u, int y)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return y;
	rs_top_header(f, u->model, u->info, u->interval);
	fclose(f);
	y = put_block(y, buf);
	free(buf);
	return y;
}

static void draw_table(struct rs_tui *u, int y)
{
	size_t nr;
	struct rs_top_row *rows =
		rs_top_rows(u->model, &u->view, u->interval, &nr);
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
/* A quantile in ms, or past what the last bucket begins at. */
static const char *quantile_text(const struct rs_histogram *h, double q,
				 double ns_per_unit, char *buf, size_t size)
{
	double v = rs_hist_quantile(h, q);

	if (isinf(v))
		snprintf(buf, size, "> %.1f s",
			 (double)rs_hist_bucket_hi(RS_HIST_BUCKETS - 2) *
				 ns_per_unit / 1e9);
	else
		snprintf(buf, size, "%.3f ms", v * ns_per_unit / 1e6);
	return buf;
}

static int draw_hist(int y, const char *title, const struct rs_histogram *h,
		     double ns_per_unit)
{
	__u64 b[RS_HIST_LOG2_BUCKETS], most = 0;
	double count = rs_hist_total(h);
	char p50[32], p99[32];

	rs_hist_log2(h, b);
	for (int i = 0; i < RS_HIST_LOG2_BUCKETS; i++)
		if (b[i] > most)
			most = b[i];
	if (count)
		mvprintw(y++, 0, "%s (%.0f since start, p50 %s, p99 %s)", title,
			 count,
			 quantile_text(h, 0.5, ns_per_unit, p50, sizeof(p50)),
			 quantile_text(h, 0.99, ns_per_unit, p99, sizeof(p99)));
	else
		mvprintw(y++, 0, "%s (0 since start)", title);
	for (int i = 0; i < RS_HIST_LOG2_BUCKETS && y < LINES - 1; i++) {
		int bar;

		if (!b[i])
			continue;
		bar = (int)(30.0 * (double)b[i] / (double)most) + 1;
		/* the last power also holds every value past it */
		mvprintw(y++, 2, "%s %10.3f ms %10llu %.*s",
			 i == RS_HIST_LOG2_BUCKETS - 1 ? "> " : "<=",
			 (double)(1ULL << (i == RS_HIST_LOG2_BUCKETS - 1 ? i - 1
									 : i)) *
				 ns_per_unit / 1e6,
			 (unsigned long long)b[i], bar,
			 "##############################");
	}
	return y;
}

/*
 * The memcg's generations as the tier iterator last read them (the
 * model's; gens.h), each one's age now; or why there are none.
 */
static int draw_gens(const struct rs_tui *u, const struct rs_memcg *mc, int y)
{
	const struct rs_hook_status *it = &u->info->hooks[RS_HOOK_TIERS];
	double now = rs_model_time(u->model), read = NAN;

	for (unsigned n = 0; n < mc->nr_gens; n++)
		if (!isnan(mc->gens[n].t) && !(mc->gens[n].t <= read))
			read = mc->gens[n].t;
	if (it->state != RS_HOOK_ATTACHED) {
		mvprintw(y++, 0, "MGLRU generations: n/a (%s)",
			 it->why[0] ? it->why
				    : "the cgroup iterator is missing");
		return y;
	}
	if (u->info->mglru_enabled <= 0) {
		mvprintw(y++, 0, "MGLRU generations: n/a (MGLRU is off)");
		return y;
	}
	if (isnan(read)) {
		mvprintw(y++, 0,
			 "MGLRU generations: not read yet (they are read "
			 "when reclaim or the LRU sizes move)");
		return y;
	}
	mvprintw(y++, 0,
		 "MGLRU generations (node seq age_ms anon file pages; "
		 "unchanged for %.0f s):",
		 fmax(now - read, 0));
	for (unsigned n = 0; n < mc->nr_gens; n++) {
		const struct rs_lruvec_gens *g = &mc->gens[n];

		for (unsigned i = 0; i < g->nr && !isnan(g->t) && y < LINES - 1;
		     i++) {
			/* its age at the read and the time since, not
			 * below 0 (read after the model's time was taken);
			 * "?" while HZ is not known */
			double age = (g->gen[i].age + now - g->t) * 1e3;

			char shown[32] = "?";

			if (!isnan(age))
				snprintf(shown, sizeof(shown), "%.0f",
					 age < 0 ? 0 : age);
			mvprintw(y++, 2, "node %d  %6llu %10s %10llu %10llu",
				 g->node, (unsigned long long)g->gen[i].seq,
				 shown, (unsigned long long)g->gen[i].anon,
				 (unsigned long long)g->gen[i].file);
		}
	}
	return y;
}

static void draw_details(struct rs_tui *u, int y)
{
	const struct rs_memcg *mc = rs_model_find(u->model, u->selected_id);
	__u64 hooks = rs_model_hooks(u->model);
	char buf[RS_PATH_BUF];

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
			 rs_model_time(u->model) - mc->last_aging);
	y = draw_gens(u, mc, y);
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
		y = draw_hist(y, rs_hist_infos[h].help, hc ? &hc->total : &none,
			      rs_hist_infos[h].ns_per_unit);
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
static void draw_tasks(struct rs_tui *u, int y)
{
	struct task_lines tl = {y};

	rs_top_tasks(u->model, &u->view, u->interval,
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
static void draw_prompt(const struct rs_tui *u)
{
	int label = (int)strlen(FILTER_PROMPT);
	int room = COLS - 1 - label > 0 ? COLS - 1 - label : 0;
	int shown = (int)u->typed_len < room ? (int)u->typed_len : room;

	mvprintw(LINES - 1, 0, "%-*s", COLS - 1, FILTER_PROMPT);
	mvaddnstr(LINES - 1, label, u->typed + u->typed_len - shown, shown);
	move(LINES - 1, label + shown);
}

void rs_tui_draw(struct rs_tui *u)
{
	int y;

	erase();
	y = draw_header(u, 0);
	if (u->pane == RS_TUI_TABLE)
		draw_table(u, y);
	else if (u->pane == RS_TUI_DETAILS)
		draw_details(u, y);
	else if (u->pane == RS_TUI_TASKS)
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
static void on_prompt_key(struct rs_tui *u, int ch)
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
static bool on_key(struct rs_tui *u, int ch)
{
	switch (ch) {
	case 'q':
	case 'Q':
		return false;
	case 27: /* Esc */
		u->pane = RS_TUI_TABLE;
		break;
	case 'h':
	case '?':
		u->pane = u->pane == RS_TUI_HELP ? RS_TUI_TABLE : RS_TUI_HELP;
		break;
	case '\n':
	case KEY_ENTER:
	case 'd':
		u->pane = u->pane == RS_TUI_DETAILS ? RS_TUI_TABLE
						    : RS_TUI_DETAILS;
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
		u->pane = u->pane == RS_TUI_TASKS ? RS_TUI_TABLE : RS_TUI_TASKS;
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
static void fix_selection(struct rs_tui *u)
{
	size_t nr;
	struct rs_top_row *rows;

	if (u->selected_id)
		return;
	rows = rs_top_rows(u->model, &u->view, u->interval, &nr);
	if (rows && nr) {
		if (u->selected >= nr)
			u->selected = nr - 1;
		u->selected_id = rows[u->selected].mc->id;
	}
	free(rows);
}

bool rs_tui_key(struct rs_tui *u, int ch)
{
	bool go_on = true;

	/* (KEY_RESIZE: only redrawn, at the new size) */
	if (ch != KEY_RESIZE && u->prompting)
		on_prompt_key(u, ch);
	else if (ch != KEY_RESIZE)
		go_on = on_key(u, ch);
	fix_selection(u);
	return go_on;
}
