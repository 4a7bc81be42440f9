// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "top_view.h"
#include "fields.h"

enum col_kind {
	RATE,	  /* field per second */
	PERCENT,  /* field a / field b, in % */
	MS_RATE,  /* a time field, as ms per second */
	SUM_RATE, /* field a + field b per second */
	P99_MS,	  /* 99th percentile of a histogram this interval, ms */
	MEM_MIB,  /* memory.current */
	MAX_MIB,  /* memory.max */
	PSI,	  /* memory.pressure some avg10 */
};

static const struct {
	enum col_kind kind;
	enum rs_field a, b;
	enum rs_hist hist;
} col_def[] = {
	{.kind = RATE, .a = RS_F_SCANNED},
	{.kind = RATE, .a = RS_F_ISOLATED},
	{.kind = RATE, .a = RS_F_RECLAIMED},
	{.kind = PERCENT, .a = RS_F_RECLAIMED, .b = RS_F_ISOLATED},
	{.kind = PERCENT, .a = RS_F_ISOLATED_FILE, .b = RS_F_ISOLATED},
	{.kind = PERCENT, .a = RS_F_BUDGET_USED, .b = RS_F_BUDGET},
	{.kind = RATE, .a = RS_F_SHRINKS},
	{.kind = RATE, .a = RS_F_AGINGS},
	{.kind = RATE, .a = RS_F_FLUSHER_WAKEUPS},
	{.kind = RATE, .a = RS_F_THROTTLES},
	{.kind = MS_RATE, .a = RS_F_THROTTLE_US},
	{.kind = P99_MS, .hist = RS_HIST_DIRECT},
	{.kind = SUM_RATE, .a = RS_F_REFAULTS_ANON, .b = RS_F_REFAULTS_FILE},
	{.kind = PSI},
	{.kind = MEM_MIB},
	{.kind = MAX_MIB},
};

const struct rs_top_col rs_top_cols[] = {
	{NULL, 10, "pages scanned per second"},
	{NULL, 10, "pages taken off the LRU per second (MGLRU pgscan)"},
	{NULL, 11, "pages reclaimed per second (pgsteal)"},
	{"eff%", 5, "reclaimed / isolated this interval"},
	{"file%", 5, "file share of the isolated pages"},
	{"budget%", 7, "MGLRU scan budget used / assigned"},
	{NULL, 10, "MGLRU lruvec passes per second"},
	{NULL, 8, "successful agings per second"},
	{NULL, 17, "flusher wakeups by reclaim per second"},
	{NULL, 12, "reclaim throttles per second"},
	{"thrms/s", 8, "ms spent throttled per second"},
	{"drp99ms", 8,
	 "direct reclaim latency, 99th percentile (ms, bucket "
	 "bound)"},
	{"refault/s", 9, "pages refaulted per second (memory.stat)"},
	{"psi10", 6, "memory.pressure some avg10 (%)"},
	{"memMiB", 7, "memory.current"},
	{"maxMiB", 7, "memory.max"},
};
const int rs_top_nr_cols = sizeof(rs_top_cols) / sizeof(rs_top_cols[0]);
_Static_assert(sizeof(rs_top_cols) / sizeof(rs_top_cols[0]) ==
		       sizeof(col_def) / sizeof(col_def[0]),
	       "one definition per column");

const char *rs_top_col_title(int col, char *buf, size_t size)
{
	if (rs_top_cols[col].title)
		return rs_top_cols[col].title;
	snprintf(buf, size, "%s/s", rs_fields[col_def[col].a].key);
	return buf;
}

static struct rs_top_value val(double v)
{
	return (struct rs_top_value){RS_TOP_OK, v};
}

static const struct rs_top_value NA = {RS_TOP_NA, 0};
static const struct rs_top_value NONE = {RS_TOP_NONE, 0};

struct rs_top_value rs_top_value(const struct rs_model *m,
				 const struct rs_top_row *row, int col,
				 double interval)
{
	__u64 hooks = rs_model_hooks(m);
	const __u64 *v = row->interval;
	enum rs_field a = col_def[col].a, b = col_def[col].b;
	const struct rs_memcg *mc = row->mc;

	if (interval <= 0)
		interval = 1;
	switch (col_def[col].kind) {
	case RATE:
		if (!rs_field_known(a, hooks))
			return NA;
		return val(v[a] / interval);
	case SUM_RATE:
		if (!rs_field_known(a, hooks) || !rs_field_known(b, hooks) ||
		    (mc && (!rs_memcg_field_known(m, mc, a) ||
			    !rs_memcg_field_known(m, mc, b))))
			return NA;
		/* per memcg only: cgroupfs has no per-node split */
		if (row->node >= 0)
			return NONE;
		return val((v[a] + v[b]) / interval);
	case PERCENT:
		if (!rs_field_known(a, hooks) || !rs_field_known(b, hooks))
			return NA;
		return v[b] ? val(100.0 * v[a] / v[b]) : NONE;
	case MS_RATE:
		if (!rs_field_known(a, hooks))
			return NA;
		return val(v[a] / 1000.0 / interval);
	case P99_MS: {
		const struct rs_hist_counts *hc;
		double q;

		if (!rs_hist_known(col_def[col].hist, hooks))
			return NA;
		hc = rs_memcg_hist(mc, col_def[col].hist);
		if (!hc || row->node >= 0)
			return NONE;
		q = rs_hist_quantile(hc->interval, 0.99);
		return q < 0 ? NONE : val(q / 1e6);
	}
	case MEM_MIB:
		if (row->node >= 0)
			return NONE;
		return isnan(mc->mem_current) ? NA
					      : val(mc->mem_current / 1048576);
	case MAX_MIB:
		if (row->node >= 0)
			return NONE;
		return isnan(mc->mem_max) ? NA : val(mc->mem_max / 1048576);
	case PSI:
		if (row->node >= 0)
			return NONE;
		return isnan(mc->psi_some_avg10) ? NA : val(mc->psi_some_avg10);
	}
	return NA;
}

void rs_top_format(struct rs_top_value v, int col, char *buf, size_t size)
{
	int w = rs_top_cols[col].width;

	if (v.state == RS_TOP_NA)
		snprintf(buf, size, "%*s", w, "n/a");
	else if (v.state == RS_TOP_NONE)
		snprintf(buf, size, "%*s", w, "-");
	else if (isinf(v.v))
		snprintf(buf, size, "%*s", w, "max");
	else if (v.v != 0 && fabs(v.v) < 10)
		snprintf(buf, size, "%*.2f", w, v.v);
	else
		snprintf(buf, size, "%*.0f", w, v.v);
}

static bool idle(const __u64 *v)
{
	for (int f = 0; f < RS_NR_FIELDS; f++)
		if (v[f])
			return false;
	return true;
}

/* qsort has no context argument: the sort's state, one sort at a time */
static const struct rs_model *sort_model;
static int sort_col;
static double sort_interval;

static double sort_key(const struct rs_top_row *r)
{
	struct rs_top_value v =
		rs_top_value(sort_model, r, sort_col, sort_interval);

	return v.state == RS_TOP_OK ? v.v : -INFINITY;
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
	const struct rs_cell *cells = rs_model_cells(m, &nr_cells);
	struct rs_top_row *rows;

	if (o->per_node)
		cap = nr_cells;
	rows = calloc(cap ? cap : 1, sizeof(*rows));
	if (!rows) {
		*nr = 0;
		return NULL;
	}
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		char buf[RS_PATH_BUF];
		const char *path = rs_memcg_display_path(mc, buf, sizeof(buf));

		if (o->filter && *o->filter && !strstr(path, o->filter))
			continue;
		if (!o->per_node) {
			rows[n].mc = mc;
			rows[n].node = -1;
			rs_memcg_values(mc, true, rows[n].interval);
			if (o->all || !idle(rows[n].interval))
				n++;
			continue;
		}
		/* cells of a memcg are sorted by node, then reclaimer */
		for (size_t c = mc->first_cell;
		     c < mc->first_cell + mc->nr_cells && c < nr_cells; c++) {
			struct rs_top_row *r = n ? &rows[n - 1] : NULL;

			if (!r || r->mc != mc || r->node != cells[c].key.node) {
				r = &rows[n++];
				r->mc = mc;
				r->node = cells[c].key.node;
			}
			for (int f = 0; f < RS_NR_FIELDS; f++)
				r->interval[f] += cells[c].interval[f];
		}
		if (!o->all)
			while (n && rows[n - 1].mc == mc &&
			       idle(rows[n - 1].interval))
				n--; /* only trailing idle nodes: good enough */
	}
	sort_model = m;
	sort_col = o->sort_col;
	sort_interval = interval;
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

void rs_top_frame(FILE *out, const struct rs_model *m,
		  const struct rs_run_info *info, const struct rs_top_opts *o,
		  double interval)
{
	size_t nr;
	struct rs_top_row *rows = rs_top_rows(m, o, interval, &nr);
	char buf[RS_PATH_BUF];

	rs_top_header(out, m, info, interval);
	fprintf(out, "%-32s", o->per_node ? "MEMCG (node)" : "MEMCG");
	for (int c = 0; c < rs_top_nr_cols; c++)
		fprintf(out, " %*s", rs_top_cols[c].width,
			rs_top_col_title(c, buf, sizeof(buf)));
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
		for (int c = 0; c < rs_top_nr_cols; c++) {
			rs_top_format(rs_top_value(m, &rows[i], c, interval), c,
				      cell, sizeof(cell));
			fprintf(out, " %s", cell);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
	fflush(out);
	free(rows);
}
