// SPDX-License-Identifier: GPL-2.0
/*
 * docs/metrics.md from the catalogue (`make docs`): every metric of report,
 * diff and top, every counter of recordings, the JSON API and /metrics,
 * and every latency histogram, each under the name each output gives it.
 * Written from the tables the outputs render, so the list cannot drift
 * from them; `make lint` fails while the committed file is stale.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "catalogue.h"
#include "fields.h"
#include "prom_view.h"
#include "top_view.h"

/* A cell's text with the characters a Markdown table cannot hold escaped. */
static void cell(const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", stdout);
		else if (*s == '\n')
			fputc(' ', stdout);
		else
			fputc(*s, stdout);
	}
}

static void rows(void)
{
	puts("## The report's metrics\n");
	puts("What `report`, `report --json`, `diff` and the JSON API's "
	     "`metrics` call each metric, and the column `top --show` and "
	     "`--sort` take for those that need no event records (top's "
	     "default columns numbered in their order), and its place in the "
	     "headline table (`diff --headline`, the lab's report). `report "
	     "--metrics` and `top --columns` list the same.\n");
	puts("| name | unit | better | section | top column | headline | "
	     "meaning |");
	puts("|---|---|---|---|---|---|---|");
	for (int i = 0; i < rs_nr_rows; i++) {
		char title[RS_ROW_TITLE_SIZE];
		int place = rs_rows[i].top_place;

		printf("| `%s` | ", rs_rows[i].key);
		cell(rs_row_unit(i));
		printf(" | %s | %s | ", rs_row_better_name(i),
		       i < rs_nr_report_rows ? rs_rows[i].section
					     : "(top only)");
		if (rs_row_live(i))
			printf("`%s`", rs_row_title(i, title, sizeof(title)));
		else
			fputs("-", stdout);
		if (place)
			printf(" (default %d)", place);
		fputs(" | ", stdout);
		if (rs_rows[i].headline_place)
			printf("%d", rs_rows[i].headline_place);
		fputs(" | ", stdout);
		cell(rs_row_help(i));
		puts(" |");
	}
}

static void fields(void)
{
	puts("\n## Counters\n");
	puts("Each counter under its key in recordings and the JSON API "
	     "(docs/recording-format.md) and its metric on the daemon's "
	     "`/metrics` (in base units: a time kept in ns or us is served "
	     "in seconds).\n");
	puts("| key | unit | /metrics | meaning |");
	puts("|---|---|---|---|");
	for (int f = 0; f < RS_NR_FIELDS; f++) {
		char sel[192];

		printf("| `%s` | %s | `%s` | ", rs_fields[f].key,
		       rs_fields[f].unit,
		       rs_prom_field_selector(f, sel, sizeof(sel)));
		cell(rs_fields[f].help);
		puts(" |");
	}
}

static void histograms(void)
{
	puts("\n## Latency histograms\n");
	puts("Per memcg, in 16 buckets per power of two in recordings and the "
	     "JSON API (`histograms`), summed to the powers of two from 2^10 "
	     "to 2^37 ns as `le` bounds on `/metrics`.  A value of 2^37 ns "
	     "(137 s) or more is counted in the last bucket: a quantile that "
	     "falls there is unknown (null), never 137 s.  Its `_sum` holds "
	     "every value whole.\n");
	puts("| key | /metrics | its sum | meaning |");
	puts("|---|---|---|---|");
	for (int h = 0; h < RS_NR_HISTS; h++) {
		printf("| `%s` | `reclaimscope_%s_seconds` | `%s` | ",
		       rs_hist_infos[h].key, rs_hist_infos[h].metric,
		       rs_fields[rs_hist_infos[h].sum].key);
		cell(rs_hist_infos[h].help);
		puts(" |");
	}
}

/* The alias list: what the reader still takes from older recordings. */
static void old_names(void)
{
	puts("\n## Names before schema 4\n");
	puts("Recordings of schema 1 to 3, the JSON API and `/metrics` "
	     "before them called these counters by other names; the reader "
	     "takes the old key from such a recording "
	     "(`rs_field_old_key`), and `top --show` the old name. A "
	     "dashboard or alert on an old metric must take the new one.\n");
	puts("| schema 1–3 | now | unit | /metrics before | /metrics now |");
	puts("|---|---|---|---|---|");
	for (int f = 0; f < RS_NR_FIELDS; f++) {
		const char *old = rs_field_old_key(f);
		bool time = rs_fields[f].unit_id == RS_UNIT_ns ||
			    rs_fields[f].unit_id == RS_UNIT_us;
		char now[128];

		if (!old)
			continue;
		/* before, a time's metric was its key less "_ns" or "_us" */
		printf("| `%s` | `%s` | %s | `reclaimscope_%.*s%s` | `%s` |\n",
		       old, rs_fields[f].key, rs_fields[f].unit,
		       (int)(strlen(old) - (time ? 3 : 0)), old,
		       time ? "_seconds_total" : "_total",
		       rs_prom_field_name(f, now, sizeof(now)));
	}
}

/*
 * The lists other documents restate, for scripts/docs-splice: top's
 * default columns, and the workload section's metrics.
 */
static int list(const char *name)
{
	if (!strcmp(name, "top-columns")) {
		char buf[1024];

		if (rs_top_default_titles(buf, sizeof(buf)))
			return 1;
		puts(buf);
		return 0;
	}
	if (!strcmp(name, "workload-metrics")) {
		int n = 0;

		for (int i = 0; i < rs_nr_report_rows; i++)
			if (!strcmp(rs_rows[i].section, "workload"))
				printf("%s`%s`", n++ ? ", " : "",
				       rs_rows[i].key);
		puts("");
		return 0;
	}
	fprintf(stderr, "rs-docs: no list '%s'\n", name);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--list"))
		return list(argv[2]) || fflush(stdout) ? 1 : 0;
	if (argc != 1) {
		fprintf(stderr, "usage: rs-docs [--list NAME]\n");
		return 2;
	}
	puts("# Metrics, counters and histograms\n");
	puts("<!-- generated from the catalogue by `make docs` "
	     "(scripts/rs-docs.c): do not edit; `make lint` fails while it "
	     "is stale -->\n");
	rows();
	fields();
	histograms();
	old_names();
	puts("\n## Recording rules\n");
	puts("The rules file's `reclaimscope.catalogue` group, one rule per "
	     "metric above that `/metrics` can restate (`make rules`, "
	     "`reclaimscope daemon --print-rules`):\n");
	puts("```yaml");
	if (rs_prom_rules(stdout))
		return 1;
	puts("```");
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
