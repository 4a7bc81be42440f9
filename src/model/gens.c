// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include "gens.h"

/*
 * The tick rates the kernel can be built with on the architectures we run
 * on (kernel/Kconfig.hz, which x86 and arm64 use).  HZ is not in BTF or
 * sysfs, and /boot's config is often absent (Debian's 7.2 package has
 * none): it is learnt from how fast jiffies move.
 */
static const unsigned hz_choices[] = {100, 250, 300, 1000};

unsigned rs_hz_learn(__u64 jiffies0, __u64 ns0, __u64 jiffies1, __u64 ns1)
{
	double dt, rate;

	if (ns1 <= ns0 || jiffies1 < jiffies0)
		return 0;
	dt = (double)(ns1 - ns0) / 1e9;
	/*
	 * At least a second: jiffies lag the monotonic clock by the ticks a
	 * busy host delays (some 50 ms seen under TCG), which over 0.1 s
	 * could pass 250 for 300; over a second it is 5 %, and the choices
	 * are 20 % apart at least.
	 */
	if (dt < 1.0)
		return 0;
	rate = (double)(jiffies1 - jiffies0) / dt;
	for (unsigned i = 0; i < sizeof(hz_choices) / sizeof(hz_choices[0]);
	     i++)
		if (fabs(rate - hz_choices[i]) <= 0.06 * hz_choices[i] + 1 / dt)
			return hz_choices[i];
	return 0;
}

unsigned rs_hz_from_boot(__u64 jiffies, __u64 mono_ns)
{
	double since = (double)mono_ns / 1e9 - 300, rate;

	/* near 300 s every choice gives about the same jiffies */
	if (fabs(since) < 60)
		return 0;
	rate = ((double)jiffies - 4294967296.0) / since;
	for (unsigned i = 0; i < sizeof(hz_choices) / sizeof(hz_choices[0]);
	     i++)
		if (fabs(rate - hz_choices[i]) <= 0.06 * hz_choices[i])
			return hz_choices[i];
	return 0;
}

bool rs_gens_record_torn(const struct rs_tier_record *rec)
{
	__u64 lo = rs_gens_lower_min(rec->min_seq);

	if (lo > rec->max_seq || rec->max_seq - lo >= RS_GENS_MAX)
		return lo <= rec->max_seq;
	for (__u64 seq = lo; seq < rec->max_seq; seq++)
		if (rs_gens_birth_reused(rec->birth, seq, rec->max_seq))
			return true;
	return false;
}

bool rs_gens_sample_torn(const struct rs_lruvec_gens *g)
{
	for (unsigned i = 0; i + 1 < g->nr; i++)
		if (g->gen[i].age < g->gen[i + 1].age)
			return true; /* false where either is NaN */
	return false;
}

void rs_gens_from_record(const struct rs_tier_record *rec, unsigned hz,
			 double t, struct rs_lruvec_gens *g)
{
	__u64 lo = rs_gens_lower_min(rec->min_seq);

	*g = (struct rs_lruvec_gens){.node = rec->node, .t = t};
	g->min_seq[0] = rec->min_seq[0];
	g->min_seq[1] = rec->min_seq[1];
	g->max_seq = rec->max_seq;
	/* at most RS_GENS_MAX alive; a torn read never lists more */
	if (lo > rec->max_seq)
		lo = rec->max_seq;
	if (rec->max_seq - lo >= RS_GENS_MAX)
		lo = rec->max_seq - (RS_GENS_MAX - 1);
	for (__u64 seq = lo; seq <= rec->max_seq; seq++) {
		unsigned slot = (unsigned)(seq % RS_GENS_MAX);
		struct rs_gen_sample *s = &g->gen[g->nr++];
		__u64 birth = rec->birth[slot];

		s->seq = seq;
		s->stamp = birth;
		s->anon = rec->pages[slot][0];
		s->file = rec->pages[slot][1];
		s->age = NAN;
		if (hz)
			s->age = rec->jiffies > birth
					 ? (double)(rec->jiffies - birth) / hz
					 : 0;
	}
}

/* Whether the pair g, g + 1 of cur gives a birth to count: two births by
 * agings (seq 4's gap from seq 3 is the lruvec's age at its first aging) */
static bool counted_birth(const struct rs_gen_sample *g, __u64 born_seen)
{
	const struct rs_gen_sample *next = g + 1;

	return next->seq == g->seq + 1 && next->seq > born_seen &&
	       g->seq > RS_GENS_INIT_MAX_SEQ && !isnan(g->age) &&
	       !isnan(next->age);
}

/* A sample with nr generations alive was seen. */
static void seen_alive(struct rs_gens_acc *a, unsigned nr)
{
	if (isnan(a->alive_min) || nr < a->alive_min)
		a->alive_min = nr;
}

void rs_gens_acc_add(struct rs_gens_acc *a, const struct rs_lruvec_gens *prev,
		     const struct rs_lruvec_gens *cur, __u64 born_seen,
		     double from)
{
	if (!cur->nr)
		return;
	seen_alive(a, cur->nr);
	if (prev && prev->nr)
		rs_gens_acc_hold(a, prev, from, cur->t);
	for (unsigned i = 0; i + 1 < cur->nr; i++)
		if (counted_birth(&cur->gen[i], born_seen)) {
			a->births++;
			a->birth_gaps_s +=
				cur->gen[i].age - cur->gen[i + 1].age;
		}
	/* the generations that were the youngest at prev, or were born and
	 * closed since: aging is done with them */
	for (unsigned i = 0; prev && prev->nr && i < cur->nr; i++)
		if (cur->gen[i].seq >= prev->max_seq &&
		    cur->gen[i].seq < cur->max_seq) {
			a->closed++;
			a->closed_pages += cur->gen[i].anon + cur->gen[i].file;
		}
}

__u64 rs_gens_born(const struct rs_lruvec_gens *cur, __u64 born_seen)
{
	for (unsigned i = 0; i + 1 < cur->nr; i++)
		if (counted_birth(&cur->gen[i], born_seen))
			born_seen = cur->gen[i + 1].seq;
	return born_seen;
}

void rs_gens_acc_hold(struct rs_gens_acc *a, const struct rs_lruvec_gens *last,
		      double from, double t)
{
	if (from < last->t)
		from = last->t;
	if (!last->nr || isnan(last->t) || !(t > from))
		return;
	a->held_s += t - from;
	a->alive_held += last->nr * (t - from);
	/* a span that saw no sample of its own still saw this one */
	seen_alive(a, last->nr);
}

void rs_gens_acc_merge(struct rs_gens_acc *a, const struct rs_gens_acc *b)
{
	a->held_s += b->held_s;
	a->alive_held += b->alive_held;
	if (!isnan(b->alive_min) &&
	    (isnan(a->alive_min) || b->alive_min < a->alive_min))
		a->alive_min = b->alive_min;
	a->births += b->births;
	a->birth_gaps_s += b->birth_gaps_s;
	a->closed += b->closed;
	a->closed_pages += b->closed_pages;
}

double rs_gens_figure(const struct rs_gens_acc *a, enum rs_gens_figure f)
{
	switch (f) {
	case RS_GENS_ALIVE_MEAN:
		return a->held_s > 0 ? a->alive_held / a->held_s : NAN;
	case RS_GENS_ALIVE_MIN:
		return a->alive_min;
	case RS_GENS_AGING_INTERVAL:
		return a->births > 0 ? 1e3 * a->birth_gaps_s / a->births : NAN;
	case RS_GENS_PAGES_AT_AGING:
		return a->closed > 0 ? a->closed_pages / a->closed : NAN;
	case RS_NR_GENS_FIGURES:
		break;
	}
	return NAN;
}
