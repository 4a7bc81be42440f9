/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One catalogue row more, written as the README's "Adding a metric" says:
 * nothing else.  `make unit` builds the catalogue with it
 * (-DRS_EXTRA_ROWS) into test_catalogue_newrow, whose every-row checks then
 * find it in top, report, report --json and --html, diff, the JSON API's
 * rows and the generated Prometheus rules; its own test checks the value
 * and the two lists it takes a place in.
 */
{.key = "isolated_per_pass",
 .unit = "pages per pass",
 .better = RS_NEUTRAL,
 .section = SEC_PASSES,
 .help = "pages isolated per MGLRU pass",
 .kind = RS_ROW_MEAN,
 .a = RS_F_ISOLATED,
 .b = RS_F_PASSES,
 .title = "iso/pass",
 .top_place = 17,
 .headline_place = 34},
