// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "fields.h"
#include "model.h"

/* How each metric is computed, in the order of rs_metrics. */
enum how {
	FIELD,	     /* a summary field */
	FIELD_MS,    /* a ns field in ms (or us, for throttle_us, in ms) */
	RATIO_PCT,   /* field a / field b in % */
	SUM2,	     /* field a + field b */
	RATE,	     /* field a per second of the recording */
	QUANTILE,    /* of histogram h, q */
	EV_MAX_PASS, /* from events: the longest pass, ms */
	EV_MAX_DIRECT,
	EV_MAX_MEMCG,
	EV_MAX_THROTTLE,
	EV_OVER_PASS, /* from events: passes over the latency budget */
	EV_OVER_DIRECT,
	EV_OVER_MEMCG,
	EV_OVER_RECLAIM, /* mean nr_reclaimed / nr_to_reclaim */
	MEM_MIB,
	OUT_SUM,	 /* outcome key a, summed over the workloads */
	OUT_ONE,	 /* outcome key a of the one workload that has it */
	OUT_TRUE,	 /* processes with outcome key a true (non-zero) */
	OUT_FAILED,	 /* processes that exited non-zero, not OOM-killed */
	OUT_WORKER_MEAN, /* mean of the workers' outcome key a */
	OUT_WORKER_JAIN, /* Jain's index of the workers' outcome key a */
};

static const struct {
	enum how how;
	enum rs_field a, b;
	enum rs_hist h;
	double q;
	enum rs_outcome_key out;
} how[] = {
#define F(f)                                                                   \
	{                                                                      \
		.how = FIELD, .a = RS_F_##f                                    \
	}
#define Q(hist, quant)                                                         \
	{                                                                      \
		.how = QUANTILE, .h = RS_HIST_##hist, .q = (quant)             \
	}
	F(SCANNED),
	F(ISOLATED),
	F(RECLAIMED),
	{.how = RATIO_PCT, .a = RS_F_RECLAIMED, .b = RS_F_ISOLATED},
	{.how = RATIO_PCT, .a = RS_F_RECLAIMED_FILE, .b = RS_F_RECLAIMED},
	{.how = RATIO_PCT, .a = RS_F_ISOLATED_FILE, .b = RS_F_ISOLATED},
	F(SHRINKS),
	F(BUDGET),
	F(BUDGET_USED),
	{.how = RATIO_PCT, .a = RS_F_BUDGET_USED, .b = RS_F_BUDGET},
	F(EXIT_BUDGET),
	F(EXIT_NO_PROGRESS),
	F(EXIT_TARGET),
	F(EXIT_BELOW_MIN),
	F(EXIT_AFTER_AGING),
	F(EXIT_OTHER),
	Q(PASS, 0.5),
	Q(PASS, 0.99),
	{.how = EV_MAX_PASS},
	{.how = EV_OVER_PASS},
	F(AGINGS),
	{.how = RATE, .a = RS_F_AGINGS},
	Q(AGING, 0.5),
	Q(AGING, 0.9),
	Q(AGING, 0.99),
	F(FLUSHER_WAKEUPS),
	F(THROTTLES),
	F(THROTTLES_WRITEBACK),
	F(THROTTLES_ISOLATED),
	F(THROTTLES_NOPROGRESS),
	F(THROTTLES_CONGESTED),
	{.how = FIELD_MS, .a = RS_F_THROTTLE_US},
	Q(THROTTLE, 0.5),
	Q(THROTTLE, 0.9),
	Q(THROTTLE, 0.99),
	{.how = EV_MAX_THROTTLE},
	F(DIRECT_RECLAIMS),
	Q(DIRECT, 0.5),
	Q(DIRECT, 0.9),
	Q(DIRECT, 0.99),
	{.how = EV_MAX_DIRECT},
	{.how = EV_OVER_DIRECT},
	F(MEMCG_RECLAIMS),
	Q(MEMCG, 0.5),
	Q(MEMCG, 0.9),
	Q(MEMCG, 0.99),
	{.how = EV_MAX_MEMCG},
	{.how = EV_OVER_MEMCG},
	{.how = EV_OVER_RECLAIM},
	{.how = SUM2, .a = RS_F_REFAULTS_ANON, .b = RS_F_REFAULTS_FILE},
	F(OOM_KILLS),
	{.how = MEM_MIB},
#define O(kind, key)                                                           \
	{                                                                      \
		.how = (kind), .out = RS_OUT_##key                             \
	}
	O(OUT_SUM, OPS_PER_S),
	O(OUT_SUM, MB_PER_S),
	O(OUT_ONE, LAT_MEAN_MS),
	O(OUT_ONE, LAT_P50_MS),
	O(OUT_ONE, LAT_P95_MS),
	O(OUT_ONE, LAT_P99_MS),
	O(OUT_SUM, ITERATIONS),
	O(OUT_SUM, OPS),
	O(OUT_WORKER_MEAN, PROGRESS),
	O(OUT_WORKER_JAIN, PROGRESS),
	O(OUT_TRUE, OOM_KILLED),
	O(OUT_FAILED, EXIT_STATUS),
#undef O
#undef F
#undef Q
};

const struct rs_metric rs_metrics[] = {
	{"scanned", "pages", RS_NEUTRAL, "reclaim", false},
	{"isolated", "pages", RS_NEUTRAL, "reclaim", false},
	{"reclaimed", "pages", RS_NEUTRAL, "reclaim", false},
	{"efficiency", "% reclaimed/isolated", RS_HIGHER, "reclaim", false},
	{"file_share_reclaimed", "%", RS_NEUTRAL, "reclaim", false},
	{"file_share_isolated", "%", RS_NEUTRAL, "reclaim", false},
	{"passes", "MGLRU passes", RS_NEUTRAL, "MGLRU passes", false},
	{"budget", "pages assigned", RS_NEUTRAL, "MGLRU passes", false},
	{"budget_used", "pages", RS_NEUTRAL, "MGLRU passes", false},
	{"budget_use", "% used/assigned", RS_NEUTRAL, "MGLRU passes", false},
	{"exit_budget", "passes", RS_NEUTRAL, "MGLRU passes", false},
	{"exit_no_progress", "passes", RS_NEUTRAL, "MGLRU passes", false},
	{"exit_target", "passes", RS_NEUTRAL, "MGLRU passes", false},
	{"exit_below_min", "passes", RS_NEUTRAL, "MGLRU passes", false},
	{"exit_after_aging", "passes", RS_NEUTRAL, "MGLRU passes", false},
	{"exit_other", "passes", RS_NEUTRAL, "MGLRU passes", false},
	{"pass_p50", "ms", RS_LOWER, "MGLRU passes", false},
	{"pass_p99", "ms", RS_LOWER, "MGLRU passes", false},
	{"pass_max", "ms", RS_LOWER, "MGLRU passes", false},
	{"passes_over_budget", "passes", RS_LOWER, "MGLRU passes", false},
	{"agings", "count", RS_NEUTRAL, "aging", false},
	{"aging_rate", "per s", RS_NEUTRAL, "aging", false},
	{"aging_p50", "ms", RS_LOWER, "aging", false},
	{"aging_p90", "ms", RS_LOWER, "aging", false},
	{"aging_p99", "ms", RS_LOWER, "aging", false},
	{"flusher_wakeups", "count", RS_NEUTRAL, "writeback", false},
	{"throttles", "count", RS_LOWER, "writeback", false},
	{"throttles_writeback", "count", RS_LOWER, "writeback", false},
	{"throttles_isolated", "count", RS_LOWER, "writeback", false},
	{"throttles_noprogress", "count", RS_LOWER, "writeback", false},
	{"throttles_congested", "count", RS_LOWER, "writeback", false},
	{"throttled", "ms", RS_LOWER, "writeback", false},
	{"throttle_p50", "ms", RS_LOWER, "writeback", false},
	{"throttle_p90", "ms", RS_LOWER, "writeback", false},
	{"throttle_p99", "ms", RS_LOWER, "writeback", false},
	{"throttle_max", "ms", RS_LOWER, "writeback", false},
	{"direct_reclaims", "count", RS_LOWER, "latency", false},
	{"direct_p50", "ms", RS_LOWER, "latency", false},
	{"direct_p90", "ms", RS_LOWER, "latency", false},
	{"direct_p99", "ms", RS_LOWER, "latency", false},
	{"direct_max", "ms", RS_LOWER, "latency", false},
	{"direct_over_budget", "reclaims", RS_LOWER, "latency", false},
	{"memcg_reclaims", "count", RS_NEUTRAL, "latency", false},
	{"memcg_p50", "ms", RS_LOWER, "latency", false},
	{"memcg_p90", "ms", RS_LOWER, "latency", false},
	{"memcg_p99", "ms", RS_LOWER, "latency", false},
	{"memcg_max", "ms", RS_LOWER, "latency", false},
	{"memcg_over_budget", "reclaims", RS_LOWER, "latency", false},
	{"over_reclaim", "x nr_to_reclaim", RS_LOWER, "latency", false},
	{"refaults", "pages", RS_LOWER, "outcome", false},
	{"oom_kills", "count", RS_LOWER, "outcome", false},
	{"mem_avg", "MiB", RS_NEUTRAL, "outcome", false},
	{"ops_per_s", "ops/s", RS_HIGHER, "workload", true},
	{"mb_per_s", "MB/s", RS_HIGHER, "workload", true},
	{"lat_mean", "ms", RS_LOWER, "workload", true},
	{"lat_p50", "ms", RS_LOWER, "workload", true},
	{"lat_p95", "ms", RS_LOWER, "workload", true},
	{"lat_p99", "ms", RS_LOWER, "workload", true},
	{"iterations", "completed", RS_HIGHER, "workload", true},
	{"ops", "operations", RS_HIGHER, "workload", true},
	{"worker_progress", "mean per worker", RS_HIGHER, "workload", true},
	{"worker_fairness", "Jain's index of progress", RS_HIGHER, "workload",
	 true},
	{"oom_killed", "processes", RS_LOWER, "workload", true},
	{"failed", "processes (exit != 0, not OOM)", RS_LOWER, "workload",
	 true},
};
const int rs_nr_metrics = sizeof(rs_metrics) / sizeof(rs_metrics[0]);
_Static_assert(sizeof(rs_metrics) / sizeof(rs_metrics[0]) ==
		       sizeof(how) / sizeof(how[0]),
	       "one computation per metric");

double rs_hist_quantile_ms(const __u64 buckets[RS_HIST_BUCKETS], double q)
{
	double ns = rs_hist_quantile(buckets, q);

	return ns < 0 ? NAN : ns / 1e6;
}

/*
 * An events-derived value: only when the recording has every event record
 * (with some dropped, a maximum or a count over budget would be a guess).
 */
static double from_events(const struct rs_recording *r, double v)
{
	return r->has_events && !r->drops && !r->missed ? v : NAN;
}

/* The largest value an event recorded, in ms; NaN when not known. */
static double event_max_ms(const struct rs_recording *r,
			   const struct rs_rec_memcg *m, enum rs_hist h)
{
	if (!r->has_events || r->drops || r->missed)
		return NAN;
	switch (h) {
	case RS_HIST_PASS:
		return m->passes ? m->pass_max_ns / 1e6 : NAN;
	case RS_HIST_DIRECT:
		return m->direct ? m->direct_max_ns / 1e6 : NAN;
	case RS_HIST_MEMCG:
		return m->memcg ? m->memcg_max_ns / 1e6 : NAN;
	case RS_HIST_THROTTLE:
		return m->total[RS_F_THROTTLES] > 0 ? m->throttle_max_us / 1e3
						    : NAN;
	default:
		return NAN;
	}
}

/* An outcome in the scope of m: all for the total, else those run in m. */
static bool outcome_in(const struct rs_outcome *e, const struct rs_rec_memcg *m)
{
	return m->is_total ||
	       (e->memcg && m->path && !strcmp(e->memcg, m->path));
}

static double outcome_value(const struct rs_recording *r,
			    const struct rs_rec_memcg *m, enum how kind,
			    enum rs_outcome_key key)
{
	double sum = 0, one = NAN, *x;
	int n = 0, ones = 0;

	x = calloc(r->nr_outcomes ? r->nr_outcomes : 1, sizeof(*x));
	if (!x)
		return NAN;
	for (size_t i = 0; i < r->nr_outcomes; i++) {
		const struct rs_outcome *e = &r->outcomes[i];
		double v = e->v[key];
		bool worker = e->worker >= 0;

		if (!outcome_in(e, m) || isnan(v))
			continue;
		switch (kind) {
		case OUT_SUM:
		case OUT_ONE:
			if (worker)
				continue;
			sum += v;
			one = v;
			ones++;
			break;
		case OUT_TRUE:
		case OUT_FAILED:
			/* processes: the workers, or the workload if it has
			 * none */
			if (e->has_workers)
				continue;
			sum += kind == OUT_TRUE
				       ? v != 0
				       : v != 0 &&
						 !(e->v[RS_OUT_OOM_KILLED] > 0);
			break;
		default:
			if (!worker)
				continue;
			break;
		}
		x[n++] = v;
	}
	switch (kind) {
	case OUT_SUM:
		sum = ones ? sum : NAN;
		break;
	case OUT_ONE:
		sum = ones == 1 ? one : NAN;
		break;
	case OUT_TRUE:
	case OUT_FAILED:
		sum = n ? sum : NAN;
		break;
	case OUT_WORKER_MEAN:
		for (int i = 0; i < n; i++)
			sum += x[i];
		sum = n ? sum / n : NAN;
		break;
	default:
		sum = n >= 2 ? rs_jain(x, n) : NAN;
		break;
	}
	free(x);
	return sum;
}

double rs_metric_value(const struct rs_recording *r,
		       const struct rs_rec_memcg *m, int i)
{
	const double *t = m->total;
	enum rs_field a = how[i].a, b = how[i].b;

	switch (how[i].how) {
	case FIELD:
		return t[a];
	case FIELD_MS:
		return rs_fields[a].unit_id == RS_UNIT_us ? t[a] / 1e3
							  : t[a] / 1e6;
	case RATIO_PCT:
		return t[b] > 0 ? 100.0 * t[a] / t[b] : NAN;
	case SUM2:
		return t[a] + t[b];
	case RATE:
		return r->duration > 0 ? t[a] / r->duration : NAN;
	case QUANTILE: {
		double q, max = event_max_ms(r, m, how[i].h);

		if (!m->hist_known[how[i].h])
			return NAN;
		q = rs_hist_quantile_ms(m->hist[how[i].h], how[i].q);
		/* a bucket's bound may lie above every value in it */
		return max < q ? max : q;
	}
	case EV_MAX_PASS:
		return from_events(r, m->passes ? m->pass_max_ns / 1e6 : NAN);
	case EV_MAX_DIRECT:
		return from_events(r, m->direct ? m->direct_max_ns / 1e6 : NAN);
	case EV_MAX_MEMCG:
		return from_events(r, m->memcg ? m->memcg_max_ns / 1e6 : NAN);
	case EV_MAX_THROTTLE:
		return from_events(r, isnan(t[RS_F_THROTTLES]) ||
						      !t[RS_F_THROTTLES]
					      ? NAN
					      : m->throttle_max_us / 1e3);
	case EV_OVER_PASS:
		return from_events(r, (double)m->passes_over);
	case EV_OVER_DIRECT:
		return from_events(r, (double)m->direct_over);
	case EV_OVER_MEMCG:
		return from_events(r, (double)m->memcg_over);
	case EV_OVER_RECLAIM:
		return from_events(
			r, m->over_reclaim_n ? m->over_reclaim_sum /
						       (double)m->over_reclaim_n
					     : NAN);
	case MEM_MIB:
		return m->mem_current_avg / 1048576;
	case OUT_SUM:
	case OUT_ONE:
	case OUT_TRUE:
	case OUT_FAILED:
	case OUT_WORKER_MEAN:
	case OUT_WORKER_JAIN:
		return outcome_value(r, m, how[i].how, how[i].out);
	}
	return NAN;
}

bool rs_rec_memcg_listed(const struct rs_recording *r,
			 const struct rs_rec_memcg *m)
{
	return !r->has_summary || m->in_summary;
}

/* a + b where NaN (unknown) wins: a total of partly unknown is unknown */
static double add(double a, double b)
{
	return a + b;
}

void rs_recording_total(const struct rs_recording *r, struct rs_rec_memcg *t)
{
	double mem = 0;
	bool mem_known = false;

	memset(t, 0, sizeof(*t));
	t->path = strdup("(total)");
	t->is_total = true;
	t->mem_current_avg = NAN;
	for (int h = 0; h < RS_NR_HISTS; h++)
		t->hist_known[h] = r->nr_memcgs > 0;
	for (size_t i = 0; i < r->nr_memcgs; i++) {
		const struct rs_rec_memcg *m = &r->memcgs[i];

		if (!rs_rec_memcg_listed(r, m))
			continue;
		for (int f = 0; f < RS_NR_FIELDS; f++)
			t->total[f] = add(t->total[f], m->total[f]);
		for (int h = 0; h < RS_NR_HISTS; h++) {
			t->hist_known[h] &= m->hist_known[h];
			for (int b = 0; b < RS_HIST_BUCKETS; b++)
				t->hist[h][b] += m->hist[h][b];
		}
		t->passes += m->passes;
		t->passes_over += m->passes_over;
		t->direct += m->direct;
		t->direct_over += m->direct_over;
		t->memcg += m->memcg;
		t->memcg_over += m->memcg_over;
		t->pass_max_ns = fmax(t->pass_max_ns, m->pass_max_ns);
		t->direct_max_ns = fmax(t->direct_max_ns, m->direct_max_ns);
		t->memcg_max_ns = fmax(t->memcg_max_ns, m->memcg_max_ns);
		t->throttle_max_us =
			fmax(t->throttle_max_us, m->throttle_max_us);
		t->over_reclaim_n += m->over_reclaim_n;
		t->over_reclaim_sum += m->over_reclaim_sum;
		for (int b = 0; b < RS_BUDGET_BINS; b++)
			t->budget_use[b] += m->budget_use[b];
		/* memory.current is hierarchical: only the root's would do */
		if (m->path && !strcmp(m->path, "/") &&
		    !isnan(m->mem_current_avg)) {
			mem = m->mem_current_avg;
			mem_known = true;
		}
	}
	if (mem_known)
		t->mem_current_avg = mem;
}

void rs_rec_memcg_release(struct rs_rec_memcg *m)
{
	free(m->path);
	free(m->points);
	m->path = NULL;
	m->points = NULL;
}

double rs_jain(const double *x, int n)
{
	double sum = 0, sq = 0;

	for (int i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	if (n < 1 || sq == 0)
		return NAN;
	return sum * sum / (n * sq);
}

/* A leaf: no other listed memcg lies beneath it. */
static bool leaf(const struct rs_recording *r, const struct rs_rec_memcg *m)
{
	size_t len = strlen(m->path);

	for (size_t i = 0; i < r->nr_memcgs; i++) {
		const char *p = r->memcgs[i].path;

		if (p && rs_rec_memcg_listed(r, &r->memcgs[i]) &&
		    strlen(p) > len && !strncmp(p, m->path, len) &&
		    (p[len] == '/' || !strcmp(m->path, "/")))
			return false;
	}
	return true;
}

double rs_fairness(const struct rs_recording *r, int *n)
{
	double *x = calloc(r->nr_memcgs ? r->nr_memcgs : 1, sizeof(*x));
	double j;

	*n = 0;
	if (!x)
		return NAN;
	for (size_t i = 0; i < r->nr_memcgs; i++) {
		const struct rs_rec_memcg *m = &r->memcgs[i];
		double pages = m->mem_current_avg / 4096;

		if (!rs_rec_memcg_listed(r, m) || !m->path ||
		    m->path[0] != '/' || !(pages >= 1) ||
		    isnan(m->total[RS_F_RECLAIMED]) || !leaf(r, m))
			continue;
		x[(*n)++] = m->total[RS_F_RECLAIMED] / pages;
	}
	j = *n >= 2 ? rs_jain(x, *n) : NAN;
	free(x);
	return j;
}
