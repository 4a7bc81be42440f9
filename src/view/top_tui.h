/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top's terminal UI (ncurses): what it shows and the keys that change it,
 * over the model.  The caller starts and ends the terminal, refreshes the
 * model, and calls rs_tui_draw and rs_tui_key.
 */
#ifndef RS_TOP_TUI_H
#define RS_TOP_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include "gens.h"
#include "model.h"
#include "run_info.h"
#include "top_view.h"

enum rs_tui_pane { RS_TUI_TABLE, RS_TUI_DETAILS, RS_TUI_HELP, RS_TUI_TASKS };

/* the filter, and the prompt that edits it (copied whole on Enter) */
#define RS_TUI_FILTER_SIZE 128

struct rs_tui {
	const struct rs_model *model;
	const struct rs_run_info *info;
	struct rs_top_opts view;
	double interval;
	bool paused, color;
	enum rs_tui_pane pane;
	size_t selected;   /* row index */
	int first_col;	   /* horizontal scroll */
	__u64 selected_id; /* kept across refreshes */
	char filter[RS_TUI_FILTER_SIZE];
	bool prompting; /* the / prompt is open: keys edit typed */
	char typed[RS_TUI_FILTER_SIZE]; /* what the prompt holds so far */
	size_t typed_len;
};

/* The screen, from the model as it is now. */
void rs_tui_draw(struct rs_tui *u);
/* A key from getch(); false to quit. */
bool rs_tui_key(struct rs_tui *u, int ch);

#endif
