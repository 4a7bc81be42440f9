// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the recording reader and everything report and diff
 * compute from what it accepts.  Recordings are untrusted input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "analysis.h"
#include "recording.h"
#include "compare_view.h"
#include "report_view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rs_recording r;
	char err[256];
	FILE *in, *out;

	if (!size)
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	if (!rs_recording_read(in, "fuzz", 8.3e6, &r, err, sizeof(err))) {
		/* the recording as a group of one run, compared with itself */
		struct rs_rec_memcg total;
		char *file = "fuzz";
		struct rs_group g[2];
		struct rs_compare_opts all = {0};

		rs_recording_total(&r, &total);
		g[0] = (struct rs_group){.name = "a",
					 .files = &file,
					 .runs = &r,
					 .totals = &total,
					 .nr = 1};
		if (rs_group_index(&g[0]))
			abort();
		g[1] = g[0];
		out = fopen("/dev/null", "w");
		if (out) {
			rs_report_text(out, "fuzz", &r, false);
			rs_report_html(out, "fuzz", &r);
			rs_diff_text(out, "a", &r, "b", &r);
			rs_groups_text(out, g, 2, RS_CMP_MARKDOWN, &all);
			rs_groups_html(out, g, 2, &all);
			/* the streamed JSON, as report and diff write it */
			rs_report_json("fuzz", &r, out, JSON_INDENT(1));
			rs_diff_json("a", &r, "b", &r, out, JSON_INDENT(1));
			rs_groups_json(g, 2, &all, out, JSON_INDENT(1));
			fclose(out);
		}
		json_decref(rs_diff_json("a", &r, "b", &r, NULL, 0));
		json_decref(rs_report_json("fuzz", &r, NULL, 0));
		json_decref(rs_groups_json(g, 2, &all, NULL, 0));
		free(g[0].by_path[0]);
		free(g[0].by_path);
		free(g[0].nr_by_path);
		free(g[0].idle);
		rs_rec_memcg_release(&total);
		rs_recording_free(&r);
	}
	fclose(in);
	return 0;
}
