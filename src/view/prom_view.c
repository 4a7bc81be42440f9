// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include "prom_view.h"
#include "fields.h"

#define PREFIX "reclaimscope_"

/*
 * Fields that are one value of a label rather than metrics of their own:
 * exit_budget is reclaimscope_pass_exits_total{exit="budget"}.  Derived
 * from the keys, so the table cannot drift from the field table.
 */
static const struct family {
	const char *key_prefix, *metric, *label, *help;
} families[] = {
	{"exit_", PREFIX "pass_exits_total", "exit",
	 "MGLRU lruvec passes by the reason they ended"},
	{"throttles_", PREFIX "throttles_by_reason_total", "reason",
	 "reclaim throttles by reason (mm_vmscan_throttled)"},
	{"memcg_lru_to_", PREFIX "memcg_lru_moves_total", "to",
	 "memcg LRU moves of the memcg's lruvec by where to "
	 "(lru_gen_rotate_memcg)"},
};

static const struct family *family_of(enum rs_field f)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strncmp(rs_fields[f].key, families[i].key_prefix,
			     strlen(families[i].key_prefix)))
			return &families[i];
	return NULL;
}

const char *rs_prom_label_value(enum rs_field f)
{
	const struct family *fam = family_of(f);

	return fam ? rs_fields[f].key + strlen(fam->key_prefix) : NULL;
}

const char *rs_prom_field_name(enum rs_field f, char *buf, size_t size)
{
	const struct rs_field_info *fi = &rs_fields[f];

	switch (fi->unit_id) {
	case RS_UNIT_ns:
	case RS_UNIT_us: /* served in seconds, the base unit */
		snprintf(buf, size, PREFIX "%s_seconds_total", fi->key);
		break;
	case RS_UNIT_pages:
		snprintf(buf, size, PREFIX "%s_pages_total", fi->key);
		break;
	default:
		snprintf(buf, size, PREFIX "%s_total", fi->key);
	}
	return buf;
}

/* Label values: backslash, double quote and newline escaped. */
static void put_label(FILE *out, const char *name, const char *value,
		      bool first)
{
	fprintf(out, "%s%s=\"", first ? "" : ",", name);
	for (const char *p = value; *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', out);
		if (*p == '\n') {
			fputs("\\n", out);
			continue;
		}
		fputc(*p, out);
	}
	fputc('"', out);
}

/* A value in the metric's base unit: seconds for ns and us. */
static void put_value(FILE *out, enum rs_unit unit, __u64 v)
{
	if (unit == RS_UNIT_ns)
		fprintf(out, " %llu.%09llu\n",
			(unsigned long long)(v / 1000000000),
			(unsigned long long)(v % 1000000000));
	else if (unit == RS_UNIT_us)
		fprintf(out, " %llu.%06llu\n",
			(unsigned long long)(v / 1000000),
			(unsigned long long)(v % 1000000));
	else if (unit == RS_UNIT_ratio)
		fprintf(out, " %.9f\n", (double)v / RS_RATIO_ONE);
	else
		fprintf(out, " %llu\n", (unsigned long long)v);
}

static void head(FILE *out, const char *name, const char *type,
		 const char *help, const char *unit)
{
	fprintf(out, "# HELP %s %s%s%s\n", name, help, unit ? ", in " : "",
		unit ? unit : "");
	fprintf(out, "# TYPE %s %s\n", name, type);
}

static const char *unit_word(enum rs_unit unit)
{
	return unit == RS_UNIT_ns || unit == RS_UNIT_us ? "seconds" : NULL;
}

static void put_memcg(FILE *out, const struct rs_memcg *mc, bool first)
{
	char buf[RS_PATH_BUF];

	put_label(out, "memcg", rs_memcg_display_path(mc, buf, sizeof(buf)),
		  first);
}

/* Kernel-kept fields: one series per (memcg, node, reclaimer) cell. */
static void cell_series(FILE *out, const struct rs_model *m, enum rs_field f,
			const char *name, const struct family *fam)
{
	/* zero-valued series are left out, but a counter first served above
	 * 0 hides its first rise from rate(): a cell with reclaims has its
	 * count over the latency budget from 0 */
	int whole = rs_field_over_budget_of(f);

	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		size_t nr;
		const struct rs_cell *cells = rs_memcg_cells(m, mc, &nr);

		for (size_t c = 0; c < nr; c++) {
			const struct rs_cell *cell = &cells[c];
			char node[16];

			if (!cell->total[f] &&
			    (whole < 0 || !cell->total[whole]))
				continue;
			if (cell->key.node == RS_NODE_UNKNOWN)
				snprintf(node, sizeof(node), "unknown");
			else
				snprintf(node, sizeof(node), "%u",
					 cell->key.node);
			fprintf(out, "%s{", name);
			put_memcg(out, mc, true);
			put_label(out, "node", node, false);
			put_label(out, "reclaimer",
				  rs_reclaimer_name(cell->key.reclaimer),
				  false);
			if (fam)
				put_label(out, fam->label,
					  rs_prom_label_value(f), false);
			fputc('}', out);
			put_value(out, rs_fields[f].unit_id, cell->total[f]);
		}
	}
}

/* The memcg's own counters (memory.stat, memory.events): per memcg only. */
static void memcg_series(FILE *out, const struct rs_model *m, enum rs_field f,
			 const char *name)
{
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		__u64 v = rs_memcg_value(mc, f, false);

		/* 0 and unknown (its file unreadable) are both absent */
		if (!v || !rs_memcg_field_known(m, mc, f))
			continue;
		fprintf(out, "%s{", name);
		put_memcg(out, mc, true);
		fputc('}', out);
		put_value(out, rs_fields[f].unit_id, v);
	}
}

static void fields(FILE *out, const struct rs_model *m)
{
	__u64 attached = rs_model_hooks(m);
	bool family_done[sizeof(families) / sizeof(families[0])] = {false};

	for (int f = 0; f < RS_NR_FIELDS; f++) {
		const struct family *fam = family_of(f);
		char name[128];

		/* unknown here: absent, never a made-up 0 */
		if (!rs_field_known(f, attached))
			continue;
		if (fam) {
			size_t k = (size_t)(fam - families);

			if (!family_done[k])
				head(out, fam->metric, "counter", fam->help,
				     NULL);
			family_done[k] = true;
			cell_series(out, m, f, fam->metric, fam);
			continue;
		}
		rs_prom_field_name(f, name, sizeof(name));
		head(out, name, "counter", rs_fields[f].help,
		     unit_word(rs_fields[f].unit_id));
		if (rs_fields[f].needs & RS_HOOK_BIT(CGROUPFS))
			memcg_series(out, m, f, name);
		else
			cell_series(out, m, f, name, NULL);
	}
}

/* Buckets below 1 us are folded into the first (counts are cumulative). */
#define FIRST_BUCKET 10

static void histograms(FILE *out, const struct rs_model *m)
{
	for (int h = 0; h < RS_NR_HISTS; h++) {
		char name[128];

		if (!rs_hist_known(h, rs_model_hooks(m)))
			continue;
		snprintf(name, sizeof(name), PREFIX "%s_seconds",
			 rs_hist_infos[h].metric);
		head(out, name, "histogram", rs_hist_infos[h].help, "seconds");
		for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
			const struct rs_memcg *mc = rs_model_memcg(m, i);
			const struct rs_hist_counts *hc = rs_memcg_hist(mc, h);
			__u64 log2[RS_HIST_LOG2_BUCKETS], cum = 0;

			if (!hc || rs_hist_empty(&hc->total))
				continue;
			/*
			 * The powers of two only: 28 series per memcg and
			 * kind, where the kernel's 16 buckets per power of
			 * two would be 448 (a scrape's size grows with
			 * memcgs); the quantiles that need the finer
			 * buckets come from record, report and the JSON API.
			 */
			rs_hist_log2(&hc->total, log2);
			for (int b = 0; b < RS_HIST_LOG2_BUCKETS; b++) {
				__u64 ns = (1ULL << b) *
					   (__u64)rs_hist_infos[h].ns_per_unit;
				char le[40];

				/* a sum past 2^64 stays at the most a
				 * counter holds: never smaller than before */
				if (__builtin_add_overflow(cum, log2[b], &cum))
					cum = ~0ULL;
				/* the last power also holds every value past
				 * it (the programs count them there): those
				 * are under +Inf only */
				if (b < FIRST_BUCKET ||
				    b == RS_HIST_LOG2_BUCKETS - 1)
					continue;
				/* 2^b units exactly: a bound no value
				 * exceeds */
				snprintf(le, sizeof(le), "%llu.%09llu",
					 (unsigned long long)(ns / 1000000000),
					 (unsigned long long)(ns % 1000000000));
				fprintf(out, "%s_bucket{", name);
				put_memcg(out, mc, true);
				put_label(out, "le", le, false);
				fprintf(out, "} %llu\n",
					(unsigned long long)cum);
			}
			fprintf(out, "%s_bucket{", name);
			put_memcg(out, mc, true);
			put_label(out, "le", "+Inf", false);
			fprintf(out, "} %llu\n", (unsigned long long)cum);
			fprintf(out, "%s_sum{", name);
			put_memcg(out, mc, true);
			fputc('}', out);
			put_value(out, rs_fields[rs_hist_infos[h].sum].unit_id,
				  rs_memcg_value(mc, rs_hist_infos[h].sum,
						 false));
			fprintf(out, "%s_count{", name);
			put_memcg(out, mc, true);
			fprintf(out, "} %llu\n", (unsigned long long)cum);
		}
	}
}

static void stat_counter(FILE *out, const struct rs_model *m, enum rs_stat s,
			 const char *name, const char *help)
{
	head(out, name, "counter", help, NULL);
	fprintf(out, "%s %llu\n", name,
		(unsigned long long)rs_model_stat(m, s));
}

/* What our programs cost, when the kernel times them (--bpf-stats). */
static void hook_cost(FILE *out, const struct rs_run_info *info)
{
	if (!info->cost_known)
		return;
	for (int seconds = 0; seconds <= 1; seconds++) {
		const char *name = seconds ? PREFIX "hook_run_seconds_total"
					   : PREFIX "hook_runs_total";

		head(out, name, "counter",
		     seconds ? "time our programs at the hook ran, every copy "
			       "included (the kernel's BPF run-time statistics)"
			     : "events our programs handled at the hook",
		     seconds ? "seconds" : NULL);
		for (int h = 0; h < RS_NR_HOOKS; h++) {
			if (!rs_hook_cost_known(info, h))
				continue;
			fprintf(out, "%s{", name);
			put_label(out, "hook", rs_hooks[h].name, true);
			if (seconds)
				fprintf(out, "} %.9f\n",
					info->hooks[h].run_ns / 1e9);
			else
				fprintf(out, "} %llu\n",
					(unsigned long long)info->hooks[h]
						.runs);
		}
	}
}

static void tool_health(FILE *out, const struct rs_model *m,
			const struct rs_run_info *info)
{
	size_t gone = 0;

	head(out, PREFIX "info", "gauge",
	     "the kernel and the mode reclaimscope runs in (value 1)", NULL);
	fprintf(out, PREFIX "info{");
	put_label(out, "kernel", info->kernel, true);
	put_label(out, "mode", rs_mode(info), false);
	put_label(out, "mglru", info->mglru_enabled > 0 ? "on" : "off", false);
	fprintf(out, "} 1\n");
	head(out, PREFIX "hook_attached", "gauge",
	     "1 if the hook is attached, 0 if it is missing or failed", NULL);
	for (int h = 0; h < RS_NR_HOOKS; h++) {
		fprintf(out, PREFIX "hook_attached{");
		put_label(out, "hook", rs_hooks[h].name, true);
		put_label(out, "state",
			  rs_hook_state_word(info->hooks[h].state), false);
		fprintf(out, "} %d\n",
			info->hooks[h].state == RS_HOOK_ATTACHED);
	}
	head(out, PREFIX "latency_budget_seconds", "gauge",
	     "the latency budget (--budget-ms) the *_over_budget_total "
	     "counters count reclaims, MGLRU passes and throttles against",
	     "seconds");
	fprintf(out, PREFIX "latency_budget_seconds %.9g\n",
		info->budget_ns / 1e9);
	hook_cost(out, info);
	for (size_t i = 0; i < rs_nr_global_stats; i++) {
		char name[96];

		snprintf(name, sizeof(name), PREFIX "%s",
			 rs_global_stats[i].prom);
		stat_counter(out, m, rs_global_stats[i].stat, name,
			     rs_global_stats[i].help);
	}
	if (rs_model_hooks(m) & RS_HOOK_BIT(WAKEUP_FLUSHER_THREADS)) {
		head(out, PREFIX "flusher_calls_total", "counter",
		     "wakeup_flusher_threads calls by reason, all callers",
		     NULL);
		for (int r = 0;
		     r <= RS_STAT_FLUSHER_REASON_LAST - RS_STAT_FLUSHER_REASON0;
		     r++) {
			__u64 n = rs_model_stat(m, RS_STAT_FLUSHER_REASON0 + r);
			char buf[24];

			if (!n)
				continue;
			fprintf(out, PREFIX "flusher_calls_total{");
			put_label(out, "reason",
				  rs_wb_reason_name(r, buf, sizeof(buf)), true);
			fprintf(out, "} %llu\n", (unsigned long long)n);
		}
	}
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++)
		gone += rs_model_memcg(m, i)->gone;
	head(out, PREFIX "memcgs", "gauge",
	     "memcgs tracked (with counters in the kernel maps)", NULL);
	fprintf(out, PREFIX "memcgs %zu\n", rs_model_nr_memcgs(m));
	head(out, PREFIX "memcgs_gone", "gauge",
	     "tracked memcgs already removed from cgroupfs, kept until they "
	     "expire",
	     NULL);
	fprintf(out, PREFIX "memcgs_gone %zu\n", gone);
}

/*
 * MGLRU's tiers, state as the kernel holds it (gauges): the counters the
 * PID controller reads, per memcg (summed over nodes), type and tier; a
 * zero is left out, as the cells' zeros are, so idle memcgs cost nothing.
 */
static void tiers(FILE *out, const struct rs_model *m)
{
	const char *name = PREFIX "mglru_tier_pages";

	if (!(rs_model_hooks(m) & RS_HOOK_BIT(TIERS)))
		return;
	head(out, name, "gauge",
	     "MGLRU's tier counters that its PID controller reads "
	     "(read_ctrl_pos), as the kernel holds them now: refaulted, "
	     "evicted and protected in the oldest generation's window, "
	     "avg_refaulted and avg_total their moving averages; per memcg, "
	     "summed over nodes",
	     "pages");
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		const struct rs_tiers *t = mc->tiers;

		for (int type = 0; t && type < 2; type++)
			for (unsigned tier = 0; tier < t->nr_tiers; tier++)
				for (int c = 0; c < RS_NR_TIER_COUNTERS; c++) {
					char tier_s[12];

					if (!t->v[type][tier][c])
						continue;
					snprintf(tier_s, sizeof(tier_s), "%u",
						 tier);
					fprintf(out, "%s{", name);
					put_memcg(out, mc, true);
					put_label(out, "type",
						  type ? "file" : "anon",
						  false);
					put_label(out, "tier", tier_s, false);
					put_label(out, "counter",
						  rs_tier_counter_name(c),
						  false);
					fprintf(out, "} %llu\n",
						(unsigned long long)
							t->v[type][tier][c]);
				}
	}
}

/*
 * Who stalled, without a label per task (a scrape's size must not grow with
 * the tasks): per memcg, how many tasks stalled there since the start.
 */
static void stalled_tasks(FILE *out, const struct rs_model *m)
{
	const char *name = PREFIX "memcg_stalled_tasks";
	const struct rs_stalls *st = rs_model_stalls_of(m);
	__u64 *cgids, *tasks;
	size_t n = st ? rs_stalls_memcg_tasks(st, &cgids, &tasks) : 0;

	if (!n)
		return;
	head(out, name, "gauge",
	     "tasks that stalled in direct reclaim, memcg reclaim or a "
	     "throttle counted in this memcg since the start, each once "
	     "(report lists them)",
	     NULL);
	for (size_t i = 0; i < rs_model_nr_memcgs(m); i++) {
		const struct rs_memcg *mc = rs_model_memcg(m, i);
		const __u64 *at =
			bsearch(&mc->id, cgids, n, sizeof(*cgids), rs_cmp_u64);

		if (!at || !tasks[at - cgids])
			continue;
		fprintf(out, "%s{", name);
		put_memcg(out, mc, true);
		fprintf(out, "} %llu\n", (unsigned long long)tasks[at - cgids]);
	}
	free(cgids);
	free(tasks);
}

int rs_prom_write(FILE *out, const struct rs_model *m,
		  const struct rs_run_info *info)
{
	tool_health(out, m, info);
	fields(out, m);
	histograms(out, m);
	tiers(out, m);
	stalled_tasks(out, m);
	return ferror(out) ? -1 : 0;
}

const char *rs_prom_field_selector(enum rs_field f, char *buf, size_t size)
{
	const struct family *fam = family_of(f);
	char name[128];

	if (fam)
		snprintf(buf, size, "%s{%s=\"%s\"}", fam->metric, fam->label,
			 rs_prom_label_value(f));
	else
		snprintf(buf, size, "%s",
			 rs_prom_field_name(f, name, sizeof(name)));
	return buf;
}

/* sum by (instance, memcg) (rate(SELECTOR[5m])), the selector narrowed
 * by a label matcher (reclaimer="kswapd") where one is given */
static void rate_where(FILE *out, enum rs_field f, const char *matcher)
{
	char sel[256];
	size_t len;

	rs_prom_field_selector(f, sel, sizeof(sel));
	len = strlen(sel);
	if (matcher && len && sel[len - 1] == '}')
		snprintf(sel + len - 1, sizeof(sel) - len + 1, ",%s}", matcher);
	else if (matcher)
		snprintf(sel + len, sizeof(sel) - len, "{%s}", matcher);
	fprintf(out, "sum by (instance, memcg) (rate(%s[5m]))", sel);
}

static void rate_of(FILE *out, enum rs_field f)
{
	rate_where(out, f, NULL);
}

/*
 * rate_of(a), or 0 where b has a series and a none: /metrics leaves out a
 * series that has stayed 0 (a memcg that isolated pages and reclaimed
 * none has no reclaimed series), and the share must then be 0, not absent.
 * Both narrowed by matcher, if any.
 */
static void rate_or_zero_where(FILE *out, enum rs_field a, enum rs_field b,
			       const char *matcher)
{
	fputc('(', out);
	rate_where(out, a, matcher);
	fprintf(out, "\n           or 0 * ");
	rate_where(out, b, matcher);
	fputc(')', out);
}

static void rate_or_zero(FILE *out, enum rs_field a, enum rs_field b)
{
	rate_or_zero_where(out, a, b, NULL);
}

/* a's rate over b's (both narrowed by matcher, if any): none where b did
 * not move, 0 where only a has no series */
static void ratio_where(FILE *out, enum rs_field a, enum rs_field b,
			const char *matcher)
{
	rate_or_zero_where(out, a, b, matcher);
	fprintf(out, "\n          / (");
	rate_where(out, b, matcher);
	fprintf(out, " > 0)");
}

/*
 * A quantile row as PromQL computes it from /metrics' histogram, in
 * seconds: the same quantile, but interpolated in power-of-two buckets
 * (report's are 16 times finer), named after the histogram so that it
 * reads as one: memcg:reclaimscope_pass_duration_seconds:p99_5m (a
 * quantile's digits past the percent after an underscore: p99_9_5m).
 * Only for memcgs with events in the window: histogram_quantile of no
 * events is NaN, a value a graph or an alert should not see.
 */
static void quantile_rule(FILE *out, int i)
{
	const struct rs_row *row = &rs_rows[i];
	const char *hist = rs_hist_infos[row->h].metric;
	char pct[32], *dot;

	snprintf(pct, sizeof(pct), "%g", row->q * 100);
	if ((dot = strchr(pct, '.')))
		*dot = '_';
	fprintf(out,
		"      # %s: report's %s, here in seconds, from /metrics'\n"
		"      # power-of-two buckets (coarser than report's)\n"
		"      - record: memcg:" PREFIX "%s_seconds:p%s_5m\n"
		"        expr: >-\n"
		"          histogram_quantile(%g, sum by (instance, memcg, "
		"le)\n"
		"          (rate(" PREFIX "%s_seconds_bucket[5m]))\n"
		"          and on (instance, memcg)\n"
		"          (sum by (instance, memcg)\n"
		"          (rate(" PREFIX "%s_seconds_count[5m])) > "
		"0))\n",
		rs_row_help(i), row->key, hist, pct, row->q, hist, hist);
}

/*
 * A reclaimer's yield: pages it reclaimed per second of its passes (in
 * base units, so 1000 times report's pages per ms); none where its passes
 * took no time.
 */
static void yield_rule(FILE *out, int i)
{
	const struct rs_row *row = &rs_rows[i];
	char matcher[64];

	snprintf(matcher, sizeof(matcher), "reclaimer=\"%s\"",
		 rs_reclaimer_name(row->reclaimer));
	fprintf(out,
		"      # %s (report's %s, x 1000: pages per second of "
		"passes)\n"
		"      - record: memcg:" PREFIX "%s:mean5m\n"
		"        expr: >-\n          ",
		rs_row_help(i), row->key, row->key);
	ratio_where(out, RS_F_RECLAIMED, RS_F_PASS_TIME, matcher);
	fputc('\n', out);
}

/* A counter's rate, named after its /metrics series. */
static void counter_rate_rule(FILE *out, int i)
{
	const struct rs_row *row = &rs_rows[i];
	char name[128];
	size_t len;

	rs_prom_field_name(row->a, name, sizeof(name));
	len = strlen(name);
	if (len > strlen("_total") &&
	    !strcmp(name + len - strlen("_total"), "_total"))
		name[len - strlen("_total")] = '\0';
	fprintf(out,
		"      # %s per second (report's %s)\n"
		"      - record: memcg:%s:rate5m\n"
		"        expr: ",
		rs_row_help(i), row->key, name);
	rate_of(out, row->a);
	fputc('\n', out);
}

int rs_prom_rules(FILE *out)
{
	fprintf(out, "  - name: reclaimscope.catalogue\n    rules:\n");
	for (int i = 0; i < rs_nr_report_rows; i++) {
		const struct rs_row *row = &rs_rows[i];
		const char *suffix;
		bool seconds;

		switch (row->kind) {
		case RS_ROW_FIELD:
			if (row->rate_rule)
				counter_rate_rule(out, i);
			continue;
		case RS_ROW_PERCENT: /* as a share in 0..1, the base unit */
			suffix = "ratio5m";
			break;
		case RS_ROW_MEAN:
			suffix = "mean5m";
			break;
		case RS_ROW_RATE:
		case RS_ROW_SUM:
			suffix = "rate5m";
			break;
		case RS_ROW_QUANTILE:
			quantile_rule(out, i);
			continue;
		case RS_ROW_YIELD:
			yield_rule(out, i);
			continue;
		default: /* a counter already, or not of counters */
			continue;
		}
		/* a mean of times is in seconds here, in ms in report:
		 * the name says so */
		seconds = row->kind == RS_ROW_MEAN &&
			  unit_word(rs_fields[row->a].unit_id);
		fprintf(out,
			"      # %s (report's %s%s)\n"
			"      - record: memcg:" PREFIX "%s%s:%s\n"
			"        expr: >-\n          ",
			rs_row_help(i), row->key,
			row->kind == RS_ROW_PERCENT ? ", / 100"
			: seconds		    ? ", / 1000: seconds"
						    : "",
			row->key, seconds ? "_seconds" : "", suffix);
		switch (row->kind) {
		case RS_ROW_RATE:
			rate_of(out, row->a);
			break;
		case RS_ROW_SUM: /* either may have no series */
			rate_or_zero(out, row->a, row->b);
			fprintf(out, "\n          + ");
			rate_or_zero(out, row->b, row->a);
			break;
		default: /* a share or a mean */
			ratio_where(out, row->a, row->b, NULL);
		}
		fputc('\n', out);
	}
	return fflush(out) || ferror(out) ? -1 : 0;
}
