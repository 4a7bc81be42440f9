/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prometheus text exposition (version 0.0.4) of the model, rendered from the
 * field table: a JSON key `k` is the metric reclaimscope_k with its unit made
 * a base unit (ns and us become seconds) and counters ending in _total.
 */
#ifndef RS_PROM_VIEW_H
#define RS_PROM_VIEW_H

#include <stdio.h>
#include "model.h"
#include "run_info.h"

/* Write every metric to out; -1 on a write error. */
int rs_prom_write(FILE *out, const struct rs_model *m,
		  const struct rs_run_info *info);

/* The metric name of a field (e.g. "reclaimscope_pass_time_seconds_total"). */
/* A field that is one label value of a family's metric (exit_budget is
 * reclaimscope_pass_exits_total{exit="budget"}): that value; else NULL. */
const char *rs_prom_label_value(enum rs_field f);
const char *rs_prom_field_name(enum rs_field f, char *buf, size_t size);
/* A field's counter as PromQL selects it: its metric, and for a member of
 * a family (exit_budget) the family's metric and label matcher
 * (reclaimscope_pass_exits_total{exit="budget"}). */
const char *rs_prom_field_selector(enum rs_field f, char *buf, size_t size);

/*
 * The recording rules that restate the report's derived metrics (shares,
 * means, rates and sums of counters) over /metrics, one per catalogue row,
 * as the group the rules file keeps (`make rules`); -1 on a write error.
 */
int rs_prom_rules(FILE *out);

#endif
