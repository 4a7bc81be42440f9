// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the recording reader and everything report and diff
 * compute from what it accepts.  Recordings are untrusted input.
 */
#include <stdint.h>
#include <stdio.h>
#include "analysis.h"
#include "recording.h"
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
		out = fopen("/dev/null", "w");
		if (out) {
			rs_report_text(out, "fuzz", &r);
			rs_report_html(out, "fuzz", &r);
			rs_diff_text(out, "a", &r, "b", &r);
			fclose(out);
		}
		json_decref(rs_diff_json("a", &r, "b", &r));
		rs_recording_free(&r);
	}
	fclose(in);
	return 0;
}
