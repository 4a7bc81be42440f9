// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "top_view.h"
#include "fields.h"

void rs_top_default(struct rs_top_opts *o)
{
	o->nr_cols = rs_row_list(RS_LIST_TOP, o->cols, RS_TOP_MAX_COLS);
}

int rs_top_row_by_name(const char *name)
{
	char buf[RS_ROW_TITLE_SIZE];

	size_t len = strlen(name);
	int f;

	for (int i = 0; i < rs_nr_rows; i++)
		if (rs_row_live(i) &&
		    (!strcmp(rs_rows[i].key, name) ||
		     !strcmp(rs_row_title(i, buf, sizeof(buf)), name)))
			return i;
	/* a counter's name before schema 4, and "shrinks/s", the title it
	 * had: its row under the new name */
	if (len > 2 && !strcmp(name + len - 2, "/s"))
		len -= 2;
	snprintf(buf, sizeof(buf), "%.*s", (int)len, name);
	f = rs_field_by_old_key(buf);
	return f < 0 ? -1 : rs_top_row_by_name(rs_fields[f].key);
}

int rs_top_default_titles(char *buf, size_t size)
{
	struct rs_top_opts o;
	size_t len = 0;

	rs_top_default(&o);
	buf[0] = '\0';
	for (int c = 0; c < o.nr_cols; c++) {
		char title[RS_ROW_TITLE_SIZE];
		int n = snprintf(buf + len, size - len, "%s%s",
				 c == 0		      ? ""
				 : c == o.nr_cols - 1 ? " and "
						      : ", ",
				 rs_row_title(o.cols[c], title, sizeof(title)));

		if (n < 0 || (size_t)n >= size - len)
			return -1;
		len += (size_t)n;
	}
	return 0;
}

int rs_top_set_cols(struct rs_top_opts *o, const char *list, char *err,
		    size_t errsz)
{
	char *copy = strdup(list), *save = NULL, *name;
	int nr = 0, rc = 0;

	if (!copy) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	for (name = strtok_r(copy, ",", &save); name && !rc;
	     name = strtok_r(NULL, ",", &save)) {
		int i = rs_top_row_by_name(name);

		if (i < 0 && rs_row_by_key(name) >= 0)
			rc = snprintf(err, errsz,
				      "'%s' is known only from a recording "
				      "(event records or the workload's "
				      "outcome): see `reclaimscope report`",
				      name);
		else if (i < 0)
			rc = snprintf(err, errsz,
				      "no column '%s': `reclaimscope top "
				      "--columns` lists them",
				      name);
		else if (nr == RS_TOP_MAX_COLS)
			rc = snprintf(err, errsz, "more than %d columns",
				      RS_TOP_MAX_COLS);
		else
			o->cols[nr++] = i;
	}
	free(copy);
	if (!rc && !nr)
		rc = snprintf(err, errsz, "no columns in '%s'", list);
	if (rc)
		return -1;
	o->nr_cols = nr;
	if (o->sort_col >= nr)
		o->sort_col = 0;
	return 0;
}

const char *rs_top_col_title(const struct rs_top_opts *o, int c, char *buf,
			     size_t size)
{
	return rs_row_title(o->cols[c], buf, size);
}

int rs_top_col_width(const struct rs_top_opts *o, int c)
{
	return rs_row_width(o->cols[c]);
}

const char *rs_top_col_help(const struct rs_top_opts *o, int c)
{
	return rs_row_help(o->cols[c]);
}

struct rs_value rs_top_value(const struct rs_top_opts *o,
			     const struct rs_top_row *row, int c)
{
	int i = o->cols[c];
	struct rs_value v = rs_row_eval(&row->v, i);

	if (v.state == RS_VALUE_OK && rs_rows[i].per_second)
		v.v /= row->v.span > 0 ? row->v.span : 1;
	return v;
}

void rs_top_format(const struct rs_top_opts *o, struct rs_value v, int c,
		   char *buf, size_t size)
{
	int w = rs_top_col_width(o, c);

	if (v.state == RS_VALUE_NA)
		snprintf(buf, size, "%*s", w, "n/a");
	else if (v.state == RS_VALUE_NONE)
		snprintf(buf, size, "%*s", w, "-");
	else if (isinf(v.v))
		snprintf(buf, size, "%*s", w, "max");
	else if (v.v != 0 && fabs(v.v) < 10)
		snprintf(buf, size, "%*.2f", w, v.v);
	else
		snprintf(buf, size, "%*.0f", w, v.v);
}

/* Nothing counted this interval (unknown counts as nothing). */
static bool idle(const struct rs_values *v)
{
	for (int f = 0; f < RS_NR_FIELDS; f++)
		if (v->field[f] > 0)
			return false;
	return true;
}

/* qsort has no context argument: the sort's state, one sort at a time */
static const struct rs_top_opts *sort_opts;

static double sort_key(const struct rs_top_row *r)
{
	struct rs_value v = rs_top_value(sort_opts, r, sort_opts->sort_col);

	return v.state == RS_VALUE_OK ? v.v : -INFINITY;
}

static int by_value(const void *pa, const void *pb)
{
	double a = sort_key(pa), b = sort_key(pb);

	if (a != b)
		return a > b ? -1 : 1;
	return ((const struct rs_top_row *)pa)->mc->id <
			       ((const struct rs_top_row *)pb)->mc->id
		       ? -1
		       : 1;
}

static const char *row_path(const struct rs_top_row *r)
{
	return r->mc->path ? r->mc->path : "";
}

static int by_path(const void *pa, const void *pb)
{
	const struct rs_top_row *a = pa, *b = pb;
	int c = strcmp(row_path(a), row_path(b));

	if (c)
		return c;
	if (a->mc->id != b->mc->id)
		return a->mc->id < b->mc->id ? -1 : 1;
	return a->node - b->node;
}

struct rs_top_row *rs_top_rows(const struct rs_model *m,
			       const struct rs_top_opts *o, double interval,
			       size_t *nr)
{
	size_t nr_cells, n = 0, cap = rs_model_nr_memcgs(m);
	struct rs_top_row *rows;

	if (o->per_node)
		rs_model_cells(m, &cap); /* a row per cell at most */
	rows = calloc(cap ? cap : 1, sizeof(*rows));
	if (!rows) {
		*nr = 0;
		return NULL;
	}
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		char buf[RS_PATH_BUF];
		const char *path = rs_memcg_display_path(mc, buf, sizeof(buf));
		const struct rs_cell *cells;

		if (o->filter && *o->filter && !strstr(path, o->filter))
			continue;
		if (!o->per_node) {
			rows[n].mc = mc;
			rows[n].node = -1;
			rs_model_values(m, mc, true, -1, interval, &rows[n].v);
			if (o->all || !idle(&rows[n].v))
				n++;
			continue;
		}
		/* cells of a memcg are sorted by node, then reclaimer */
		cells = rs_memcg_cells(m, mc, &nr_cells);
		for (size_t c = 0; c < nr_cells; c++) {
			struct rs_top_row *r = &rows[n];

			if (c && cells[c].key.node == cells[c - 1].key.node)
				continue;
			r->mc = mc;
			r->node = cells[c].key.node;
			rs_model_values(m, mc, true, r->node, interval, &r->v);
			if (o->all || !idle(&r->v))
				n++;
		}
	}
	sort_opts = o;
	qsort(rows, n, sizeof(*rows), o->tree ? by_path : by_value);
	if (o->tree)
		for (size_t i = 0; i < n; i++) {
			const char *p = row_path(&rows[i]);

			rows[i].depth = 0;
			for (const char *c = p + 1; *c; c++)
				rows[i].depth += *c == '/';
		}
	*nr = n;
	return rows;
}

void rs_top_header(FILE *out, const struct rs_model *m,
		   const struct rs_run_info *info, double interval)
{
	size_t nr_cells;
	const struct rs_cell *cells = rs_model_cells(m, &nr_cells);
	int attached = 0, total = 0,
	    nodes = info->nr_nodes > 0 ? info->nr_nodes : 1;
	__u64 direct = 0;

	for (int h = 0; h < RS_NR_HOOKS; h++) {
		if (rs_hooks[h].kernel_field) /* not a hook: a member */
			continue;
		total++;
		attached += info->hooks[h].state == RS_HOOK_ATTACHED;
	}
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++)
		direct += rs_memcg_value(rs_model_memcg(m, i),
					 RS_F_DIRECT_RECLAIMS, true);
	fprintf(out, "reclaimscope  kernel %s  MGLRU %s  mode %s\n",
		info->kernel,
		info->mglru_enabled < 0	  ? "absent"
		: info->mglru_enabled > 0 ? "on"
					  : "off",
		rs_mode(info));
	fprintf(out,
		"t=%.0fs  hooks %d/%d  drops %llu (total %llu)  missed %llu  "
		"map full %llu  ",
		rs_model_time(m), attached, total,
		(unsigned long long)rs_model_stat_interval(m,
							   RS_STAT_RING_DROPS),
		(unsigned long long)rs_model_stat(m, RS_STAT_RING_DROPS),
		(unsigned long long)rs_model_stat(m, RS_STAT_PROG_MISSES),
		(unsigned long long)rs_model_stat(m, RS_STAT_AGG_FULL));
	if (rs_field_known(RS_F_DIRECT_RECLAIMS, rs_model_hooks(m)))
		fprintf(out, "direct stalls/s %.1f\n",
			direct / (interval > 0 ? interval : 1));
	else
		fprintf(out, "direct stalls/s n/a\n");
	for (int node = 0; node < nodes && node < 8; node++) {
		__u64 wakes = 0, sleeps = 0, reclaimed = 0;

		for (size_t i = 0; i < nr_cells; i++) {
			if (cells[i].key.node != node)
				continue;
			wakes += cells[i].total[RS_F_KSWAPD_WAKES];
			sleeps += cells[i].total[RS_F_KSWAPD_SLEEPS];
			reclaimed += cells[i].interval[RS_F_RECLAIMED];
		}
		fprintf(out, "node %d: kswapd %s  reclaimed/s %.0f\n", node,
			!rs_field_known(RS_F_KSWAPD_WAKES, rs_model_hooks(m))
				? "n/a"
			: wakes > sleeps ? "running"
					 : "asleep",
			reclaimed / (interval > 0 ? interval : 1));
	}
}

void rs_top_tasks(const struct rs_model *m, const struct rs_top_opts *o,
		  double interval, size_t max,
		  void (*line)(void *ctx, const char *text), void *ctx)
{
	const struct rs_stalls *st = rs_model_stalls_of(m);
	const struct rs_stall **v = NULL;
	size_t nr = st ? rs_stalls_ranked(st, true, &v) : 0, shown = 0;
	double span = interval > 0 ? interval : 1;
	char text[512];

	snprintf(text, sizeof(text), "%-26s %8s %-9s %9s %11s %9s  %s",
		 "TASK (tid)", "TGID", "KIND", "stalls/s", "stall ms/s",
		 "max ms", "MEMCG");
	line(ctx, text);
	for (size_t i = 0; i < nr && shown < max; i++) {
		const struct rs_stall *e = v[i];
		const char *path = rs_model_path(m, e->cgroup_id);
		char task[64], cb[RS_ESCAPED_SIZE(RS_COMM_LEN + 1)],
			pb[RS_PATH_BUF];

		if (o->filter && *o->filter &&
		    (!path || !strstr(path, o->filter)))
			continue;
		snprintf(task, sizeof(task), "%s (%u)",
			 rs_name_shown(e->comm, cb, sizeof(cb), 0), e->tid);
		snprintf(text, sizeof(text),
			 "%-26s %8u %-9s %9.1f %11.1f %9.1f  %s", task, e->tgid,
			 rs_stall_kind_name(e->kind), e->i_count / span,
			 e->i_total_ns / 1e6 / span, e->max_ns / 1e6,
			 path ? rs_name_shown(path, pb, sizeof(pb), 0)
			      : "(unknown)");
		line(ctx, text);
		shown++;
	}
	if (!shown)
		line(ctx, "(no task stalled in the last interval)");
	free(v);
}

static void print_line(void *ctx, const char *text)
{
	fprintf(ctx, "%s\n", text);
}

void rs_top_tasks_frame(FILE *out, const struct rs_model *m,
			const struct rs_top_opts *o, double interval)
{
	rs_top_tasks(m, o, interval, 20, print_line, out);
	fputc('\n', out);
	fflush(out);
}

void rs_top_frame(FILE *out, const struct rs_model *m,
		  const struct rs_run_info *info, const struct rs_top_opts *o,
		  double interval)
{
	size_t nr;
	struct rs_top_row *rows = rs_top_rows(m, o, interval, &nr);
	char buf[RS_PATH_BUF];

	rs_top_header(out, m, info, interval);
	fprintf(out, "%-32s", o->per_node ? "MEMCG (node)" : "MEMCG");
	for (int c = 0; c < o->nr_cols; c++)
		fprintf(out, " %*s", rs_top_col_width(o, c),
			rs_top_col_title(o, c, buf, sizeof(buf)));
	fputc('\n', out);
	for (size_t i = 0; i < nr; i++) {
		char name[300], cell[64];
		const char *path =
			rs_memcg_display_path(rows[i].mc, buf, sizeof(buf));

		if (rows[i].node >= 0 && rows[i].node != RS_NODE_UNKNOWN)
			snprintf(name, sizeof(name), "%s (%d)", path,
				 rows[i].node);
		else
			snprintf(name, sizeof(name), "%*s%s", 2 * rows[i].depth,
				 "", path);
		fprintf(out, "%-32s", name);
		for (int c = 0; c < o->nr_cols; c++) {
			rs_top_format(o, rs_top_value(o, &rows[i], c), c, cell,
				      sizeof(cell));
			fprintf(out, " %s", cell);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
	fflush(out);
	free(rows);
}
