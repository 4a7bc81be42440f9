// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collector.h"
#include "rs_common.h"
#include "cgnames.h"
#include "fields.h"
#include "hooks.h"
#include "kernel.h"
#include "tier_iter.h"
#include "util.h"
#include "reclaimscope.skel.h"

struct rs_collector {
	struct reclaimscope_bpf *skel;
	/* per rs_prog_specs index: the program and its copies "<prog>_<n>" */
	struct bpf_link *links[RS_MAX_PROG_SPECS][RS_COPIES];
	/* outlives the links: rs_collector_stop() */
	bool spec_attached[RS_MAX_PROG_SPECS];
	__u64 second_runs[RS_NR_SLOTS]; /* from the last snapshot */
	struct ring_buffer *ring;
	rs_record_fn fn;
	void *fn_ctx;
	int ncpus;
	__u64 *percpu_stat;
	int stats_fd; /* bpf_enable_stats(): statistics on while it is open */
	struct rs_read_gate gate;   /* when a snapshot reads the maps */
	struct rs_tier_iter *tiers; /* NULL where the kernel cannot say */
};

/* --- libbpf output: everything with -v, nothing without ----------------- */

static bool verbose;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	if (verbose)
		vfprintf(stderr, fmt, ap);
	return 0;
}

/* --- choosing programs ---------------------------------------------------- */

struct choice {
	bool enabled[RS_MAX_PROG_SPECS]; /* per rs_prog_specs index */
	bool hook_failed[RS_NR_HOOKS];
};

/* Every program of hook h stays unloaded. */
static void hook_programs_off(struct choice *ch, enum rs_hook h)
{
	for (int i = 0; i < rs_nr_prog_specs; i++)
		if (rs_prog_specs[i].at->hook == h)
			ch->enabled[i] = false;
}

static void hook_fail(struct rs_run_info *info, struct choice *ch,
		      enum rs_hook h, const char *fmt, ...)
{
	va_list ap;

	if (ch->hook_failed[h] || info->hooks[h].state == RS_HOOK_MISSING)
		return;
	ch->hook_failed[h] = true;
	info->hooks[h].state = RS_HOOK_FAILED;
	va_start(ap, fmt);
	vsnprintf(info->hooks[h].why, sizeof(info->hooks[h].why), fmt, ap);
	va_end(ap);
	hook_programs_off(ch, h);
}

/* Hook h is not there (or not asked for): missing, why, nothing loaded. */
__attribute__((format(printf, 4, 5))) static void
hook_off(struct rs_run_info *info, struct choice *ch, enum rs_hook h,
	 const char *fmt, ...)
{
	va_list ap;

	info->hooks[h].state = RS_HOOK_MISSING;
	va_start(ap, fmt);
	vsnprintf(info->hooks[h].why, sizeof(info->hooks[h].why), fmt, ap);
	va_end(ap);
	hook_programs_off(ch, h);
}

/* A known prototype that no program reads: the hook is missing, says why. */
static bool unread_proto(struct rs_run_info *info, enum rs_hook hook,
			 const char *sig)
{
	for (int u = 0; u < rs_nr_unread_protos; u++) {
		const struct rs_unread_proto *p = &rs_unread_protos[u];

		if (p->hook != hook || !rs_signature_matches(sig, p->pattern))
			continue;
		info->hooks[hook].state = RS_HOOK_MISSING;
		snprintf(info->hooks[hook].why, sizeof(info->hooks[hook].why),
			 "%s", p->why);
		return true;
	}
	return false;
}

/* Pick one variant per slot from the kernel's BTF; mark what is missing. */
static void choose(const struct btf *btf, struct rs_run_info *info,
		   struct choice *ch)
{
	char sig[512];

	for (int i = 0; i < rs_nr_prog_specs; i++) {
		const struct rs_prog_spec *s = &rs_prog_specs[i];
		bool slot_done = false;
		int err;

		for (int j = 0; j < i; j++)
			if (rs_prog_specs[j].slot == s->slot && ch->enabled[j])
				slot_done = true;
		if (slot_done || ch->hook_failed[s->at->hook] ||
		    info->hooks[s->at->hook].state == RS_HOOK_MISSING)
			continue;
		err = s->at->tracepoint ? rs_btf_tp_params(btf, s->at->target,
							   sig, sizeof(sig))
					: rs_btf_func_params(btf, s->at->target,
							     sig, sizeof(sig));
		if (err == -ENOENT) {
			hook_off(info, ch, s->at->hook,
				 "%s is not in this kernel%s", s->at->target,
				 s->at->tracepoint
					 ? ""
					 : "'s BTF (absent or inlined)");
			continue;
		}
		if (s->at->hook == RS_HOOK_REFAULTS && !info->refaults) {
			/* per folio: only when asked for (and there) */
			hook_off(info, ch, s->at->hook,
				 "off: it runs per refaulted folio; --refaults "
				 "turns it on");
			continue;
		}
		if (!err && rs_signature_matches(sig, s->pattern))
			ch->enabled[i] = true;
	}
	/* a slot with no matching variant fails its hook */
	for (int i = 0; i < rs_nr_prog_specs; i++) {
		const struct rs_prog_spec *s = &rs_prog_specs[i];
		bool slot_ok = false;

		if (ch->hook_failed[s->at->hook] ||
		    info->hooks[s->at->hook].state == RS_HOOK_MISSING)
			continue;
		for (int j = 0; j < rs_nr_prog_specs; j++)
			if (rs_prog_specs[j].slot == s->slot && ch->enabled[j])
				slot_ok = true;
		if (!slot_ok) {
			if (s->at->tracepoint)
				rs_btf_tp_params(btf, s->at->target, sig,
						 sizeof(sig));
			else
				rs_btf_func_params(btf, s->at->target, sig,
						   sizeof(sig));
			if (unread_proto(info, s->at->hook, sig))
				continue;
			hook_fail(info, ch, s->at->hook,
				  "unsupported prototype of %s (%s)",
				  s->at->target, sig);
		}
	}
}

/* --- open, load, attach -----------------------------------------------------
 */

static struct bpf_program *prog_by_name(struct reclaimscope_bpf *skel,
					const char *name)
{
	return bpf_object__find_program_by_name(skel->obj, name);
}

/*
 * How many copies of a spec's program run: all RS_COPIES for fentry/fexit
 * (trampolines always run preemptible), one for a tracepoint where the
 * kernel runs them with preemption off (no other task can find it busy);
 * fewer where --copies says so.
 */
static int copies_of(const struct rs_run_info *info, int i)
{
	return rs_prog_specs[i].at->tracepoint ? rs_tp_copies(info)
					       : rs_fn_copies(info);
}

/*
 * Every program the skeleton holds is a listed spec's (RS_PROG_SPECS) or one
 * of its copies, and every listed spec has all its copies there: a program
 * added to bpf/ without its row, or a row without its program, does not
 * build.
 */
#define SPEC_HAS_COPIES(p, s, pat)                                             \
	_Static_assert(                                                        \
		sizeof(((struct reclaimscope_bpf *)0)->progs.p) &&             \
			sizeof(((struct reclaimscope_bpf *)0)->progs.p##_5),   \
		#p " and its copies are in the skeleton");
RS_PROG_SPECS(SPEC_HAS_COPIES)
#undef SPEC_HAS_COPIES
#define SPEC_COUNT(p, s, pat) +1
_Static_assert(sizeof(((struct reclaimscope_bpf *)0)->progs) ==
		       (0 RS_PROG_SPECS(SPEC_COUNT)) * RS_COPIES *
			       sizeof(struct bpf_program *),
	       "the skeleton's programs are RS_PROG_SPECS' and their copies");
#undef SPEC_COUNT

/* Copy k (0-based) of a spec's program: "name", "name_2", ... */
static struct bpf_program *copy_of(struct reclaimscope_bpf *skel,
				   const char *name, int k)
{
	char copy[128];

	if (!k)
		return prog_by_name(skel, name);
	snprintf(copy, sizeof(copy), "%s_%d", name, k + 1);
	return prog_by_name(skel, copy);
}

/*
 * Each program gets a verifier log buffer of its own: libbpf loads the
 * programs in turn and stops at the first the kernel refuses, asking again
 * with the log on, so the one buffer with text in it names the culprit
 * (and its last line says why).  The buffers are one allocation whose
 * pages the kernel touches only for that program.  A log longer than its
 * buffer is cut (kernels since 6.4 keep its end, where the reason is);
 * -v prints it, as libbpf prints only the logs it allocates itself.
 */
#define PROG_LOG_SIZE (64u << 10)

struct prog_logs {
	char *buf; /* rs_nr_prog_specs * RS_COPIES logs of size bytes */
	size_t size;
};

static char *prog_log(const struct prog_logs *logs, int spec, int copy)
{
	return logs->buf + ((size_t)spec * RS_COPIES + copy) * logs->size;
}

/* The program (spec * RS_COPIES + copy) whose log has text; -1: none. */
static int logged_prog(const struct prog_logs *logs, const struct choice *ch,
		       const struct rs_run_info *info)
{
	for (int i = 0; i < rs_nr_prog_specs; i++)
		for (int k = 0; ch->enabled[i] && k < copies_of(info, i); k++)
			if (prog_log(logs, i, k)[0])
				return i * RS_COPIES + k;
	return -1;
}

/*
 * The reason in a verifier log: its last line, or the one before when the
 * last is the verifier's "processed N insns" statistics.  Cuts log.
 */
static const char *log_reason(char *log, size_t size)
{
	size_t len = strnlen(log, size - 1);
	char *line = NULL;

	log[len] = '\0';
	for (int n = 0; n < 2; n++) {
		while (len && (log[len - 1] == '\n' || log[len - 1] == ' '))
			log[--len] = '\0';
		line = log + len;
		while (line > log && line[-1] != '\n')
			line--;
		if (strncmp(line, "processed ", 10) || line == log)
			break;
		len = (size_t)(line - log);
	}
	return line;
}

/* The spill map's cells for so many CPUs (RS_SPILL_CELLS_MAX says why). */
static __u32 spill_cells(int ncpus)
{
	size_t per_cell = sizeof(struct rs_agg_value) * (ncpus > 0 ? ncpus : 1);
	size_t cells = RS_SPILL_BYTES / per_cell;

	return cells < RS_SPILL_CELLS_MIN   ? RS_SPILL_CELLS_MIN
	       : cells > RS_SPILL_CELLS_MAX ? RS_SPILL_CELLS_MAX
					    : (__u32)cells;
}

static int open_skel(struct reclaimscope_bpf **out, const struct choice *ch,
		     const struct rs_run_info *info,
		     const struct rs_collector_opts *opts,
		     const struct prog_logs *logs)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts,
		    .btf_custom_path = opts->btf_path);
	struct reclaimscope_bpf *skel = reclaimscope_bpf__open_opts(&open_opts);
	int err;

	if (!skel)
		return -errno;
	skel->rodata->rs_stream_events = opts->stream_events;
	skel->rodata->rs_tp_preempt_off = info->tp_preempt_off == 1;
	skel->rodata->rs_fixed_node = info->nr_nodes == 1 ? 0 : RS_NODE_UNKNOWN;
	skel->rodata->rs_budget_ns = info->budget_ns;
	if (opts->ring_bytes) {
		err = bpf_map__set_max_entries(skel->maps.rs_events,
					       opts->ring_bytes);
		if (err)
			goto fail;
	}
	skel->rodata->rs_wakeup_bytes =
		bpf_map__max_entries(skel->maps.rs_events) / 4;
	if (opts->agg_cells) {
		err = bpf_map__set_max_entries(skel->maps.rs_agg,
					       opts->agg_cells);
		if (err)
			goto fail;
	}
	err = bpf_map__set_max_entries(skel->maps.rs_agg_spill,
				       spill_cells(libbpf_num_possible_cpus()));
	if (err)
		goto fail;
	for (int i = 0; i < rs_nr_prog_specs; i++) {
		for (int k = 0; k < RS_COPIES; k++) {
			struct bpf_program *p =
				copy_of(skel, rs_prog_specs[i].prog, k);

			if (!p) {
				err = -ENOENT;
				goto fail;
			}
			bpf_program__set_autoload(
				p, ch->enabled[i] && k < copies_of(info, i));
			prog_log(logs, i, k)[0] = '\0';
			err = bpf_program__set_log_buf(p, prog_log(logs, i, k),
						       logs->size);
			if (err)
				goto fail;
		}
	}
	*out = skel;
	return 0;
fail:
	reclaimscope_bpf__destroy(skel);
	return err;
}

/*
 * Load the chosen programs; a program the kernel refuses fails its hook,
 * and the rest are loaded again without it.  0, or -errno with errbuf set.
 */
static int load(struct rs_collector *c, struct rs_run_info *info,
		struct choice *ch, const struct rs_collector_opts *opts,
		char *errbuf, size_t errsz)
{
	struct prog_logs logs = {.size = PROG_LOG_SIZE};
	int err = -ENOENT;

	logs.buf = calloc((size_t)rs_nr_prog_specs * RS_COPIES, logs.size);
	if (!logs.buf) {
		snprintf(errbuf, errsz, "out of memory");
		return -ENOMEM;
	}
	snprintf(errbuf, errsz, "cannot load any BPF program");
	for (int attempt = 0; attempt < rs_nr_prog_specs; attempt++) {
		int prog, spec;

		err = open_skel(&c->skel, ch, info, opts, &logs);
		if (err) {
			snprintf(errbuf, errsz,
				 "cannot open the BPF object: %s\n"
				 "hint: rebuild reclaimscope (make clean all)",
				 strerror(-err));
			break;
		}
		err = reclaimscope_bpf__load(c->skel);
		if (!err)
			break;
		reclaimscope_bpf__destroy(c->skel);
		c->skel = NULL;
		prog = logged_prog(&logs, ch, info);
		if (prog < 0) {
			/* not one program: maps, permissions, BTF */
			snprintf(errbuf, errsz,
				 "cannot load the BPF programs: %s\n"
				 "hint: %s",
				 strerror(-err),
				 err == -EPERM || err == -EACCES
					 ? "run as root, or with CAP_BPF and "
					   "CAP_PERFMON"
					 : "run with -v to see libbpf's log");
			break;
		}
		spec = prog / RS_COPIES;
		if (verbose) /* libbpf prints only the logs it allocates */
			fprintf(stderr,
				"reclaimscope: %s: the kernel's log --\n%s\n"
				"-- end of %s's log\n",
				rs_prog_specs[spec].prog,
				prog_log(&logs, spec, prog % RS_COPIES),
				rs_prog_specs[spec].prog);
		/* ENOSPC: the log outgrew its buffer; its end still says why */
		hook_fail(info, ch, rs_prog_specs[spec].at->hook,
			  "load of %s: %s: %s%s", rs_prog_specs[spec].prog,
			  err == -ENOSPC ? "refused" : strerror(-err),
			  log_reason(prog_log(&logs, spec, prog % RS_COPIES),
				     logs.size),
			  verbose ? "" : " (-v shows the log)");
		err = -ENOENT;
	}
	free(logs.buf);
	return err;
}

static struct bpf_link *attach_one(struct bpf_program *prog,
				   const struct rs_prog_spec *s,
				   struct rs_run_info *info, struct choice *ch)
{
	struct bpf_link *link = bpf_program__attach(prog);

	if (!link)
		hook_fail(info, ch, s->at->hook, "attach of %s to %s: %s",
			  bpf_program__name(prog), s->at->target,
			  strerror(errno));
	return link;
}

static void attach(struct rs_collector *c, struct rs_run_info *info,
		   struct choice *ch)
{
	for (int i = 0; i < rs_nr_prog_specs; i++) {
		const struct rs_prog_spec *s = &rs_prog_specs[i];

		if (!ch->enabled[i] || ch->hook_failed[s->at->hook])
			continue;
		/*
		 * Copies must run in order (RS_PROGS): tracepoints call probes
		 * of equal priority in attach order (kernel/tracepoint.c),
		 * trampolines the last attached link first
		 * (kernel/bpf/trampoline.c adds at the list's head).
		 */
		for (int n = 0; n < copies_of(info, i); n++) {
			int k = s->at->tracepoint ? n
						  : copies_of(info, i) - 1 - n;

			c->links[i][k] = attach_one(
				copy_of(c->skel, s->prog, k), s, info, ch);
		}
	}
	/* a hook is only useful whole: drop the links of a failed one */
	for (int i = 0; i < rs_nr_prog_specs; i++) {
		enum rs_hook h = rs_prog_specs[i].at->hook;

		if (ch->enabled[i] && !ch->hook_failed[h])
			info->hooks[h].state = RS_HOOK_ATTACHED;
	}
	for (int h = 0; h < RS_NR_HOOKS; h++)
		if (rs_hooks[h].bpf && info->hooks[h].state == RS_HOOK_UNTRIED)
			hook_fail(info, ch, h, "no program was chosen for it");
	info->attached = 0;
	for (int i = 0; i < rs_nr_prog_specs; i++) {
		if (!ch->hook_failed[rs_prog_specs[i].at->hook])
			continue;
		for (int k = 0; k < RS_COPIES; k++) {
			bpf_link__destroy(c->links[i][k]);
			c->links[i][k] = NULL;
		}
	}
	for (int h = 0; h < RS_NR_HOOKS; h++)
		if (info->hooks[h].state == RS_HOOK_ATTACHED)
			info->attached |= 1ULL << h;
	for (int i = 0; i < rs_nr_prog_specs; i++) {
		char *progs = info->hooks[rs_prog_specs[i].at->hook].programs;
		size_t used = strlen(progs);

		c->spec_attached[i] = c->links[i][0] != NULL;
		if (c->spec_attached[i])
			snprintf(progs + used,
				 sizeof(info->hooks[0].programs) - used, "%s%s",
				 used ? " " : "", rs_prog_specs[i].prog);
	}
}

static bool have_caps(void)
{
	/* CAP_BPF (39) and CAP_PERFMON (38), or CAP_SYS_ADMIN (21) */
	char buf[4096], *p;
	unsigned long long eff;

	if (rs_read_file("/proc/self/status", buf, sizeof(buf)))
		return true; /* cannot tell: let the kernel decide */
	p = strstr(buf, "CapEff:");
	if (!p || sscanf(p + 7, "%llx", &eff) != 1)
		return true;
	return (eff & (1ULL << 21)) ||
	       ((eff & (1ULL << 39)) && (eff & (1ULL << 38)));
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct rs_collector *c = ctx;

	return c->fn ? c->fn(c->fn_ctx, data, size) : 0;
}

/*
 * The kernel's BTF (or --btf's), which decides which programs can load;
 * NULL with errbuf set, and every hook marked missing.
 */
static struct btf *kernel_btf(const struct rs_collector_opts *opts,
			      struct rs_run_info *info, char *errbuf,
			      size_t errsz, int *err)
{
	struct btf *btf;
	const char *why;

	if (opts->btf_path) {
		btf = btf__parse(opts->btf_path, NULL);
		if (!btf) {
			*err = -errno;
			rs_kernel_probe(info, NULL);
			snprintf(errbuf, errsz,
				 "cannot read BTF from %s: %s\nhint: --btf "
				 "takes a raw BTF file (as /sys/kernel/btf/"
				 "vmlinux) or an ELF file with a .BTF section",
				 opts->btf_path, strerror(-*err));
		}
		return btf;
	}
	btf = btf__load_vmlinux_btf();
	if (btf)
		return btf;
	*err = -errno;
	rs_kernel_probe(info, NULL);
	/* libbpf also looks in /boot; -ESRCH: found nowhere */
	why = access("/sys/kernel/btf/vmlinux", R_OK) ? strerror(errno)
						      : "cannot be parsed";
	info->btf = false;
	for (int h = 0; h < RS_NR_HOOKS; h++) {
		info->hooks[h].state = RS_HOOK_MISSING;
		snprintf(info->hooks[h].why, sizeof(info->hooks[h].why),
			 "no kernel BTF");
	}
	snprintf(errbuf, errsz,
		 "cannot load the kernel's BTF: /sys/kernel/btf/vmlinux: %s "
		 "(libbpf: %s)\nhint: reclaimscope needs a kernel built with "
		 "CONFIG_DEBUG_INFO_BTF=y",
		 why, strerror(-*err));
	return NULL;
}

/* Without the right to load BPF: every hook fails, and why. */
static int not_permitted(struct rs_run_info *info, struct choice *ch,
			 char *errbuf, size_t errsz)
{
	info->bpf_denied = true;
	info->tp_preempt_off = -EPERM;
	snprintf(info->tp_preempt_why, sizeof(info->tp_preempt_why),
		 "not tried: not permitted to load BPF programs");
	snprintf(info->fentry_why, sizeof(info->fentry_why),
		 "not tried: not permitted to load BPF programs");
	for (int h = 0; h < RS_NR_HOOKS; h++)
		if (rs_hooks[h].bpf)
			hook_fail(info, ch, h,
				  "not permitted to load BPF programs");
	snprintf(errbuf, errsz,
		 "not permitted to load BPF programs\n"
		 "hint: run as root, or grant CAP_BPF and CAP_PERFMON "
		 "(setcap cap_bpf,cap_perfmon+ep reclaimscope)");
	return -EPERM;
}

/*
 * fentry/fexit may be refused as a whole (lockdown, no trampolines): tried
 * on the first chosen function; if refused, every function hook fails.
 */
static void probe_fentry(const struct btf *btf, struct rs_run_info *info,
			 struct choice *ch)
{
	int first = -1, err;

	for (int i = 0; i < rs_nr_prog_specs && first < 0; i++)
		if (!rs_prog_specs[i].at->tracepoint && ch->enabled[i])
			first = i;
	info->fentry_ok = false;
	if (first < 0)
		return;
	err = rs_probe_fentry(btf, rs_prog_specs[first].at->target,
			      info->fentry_why, sizeof(info->fentry_why));
	info->fentry_ok = !err;
	if (err)
		for (int i = 0; i < rs_nr_prog_specs; i++)
			if (!rs_prog_specs[i].at->tracepoint)
				hook_fail(info, ch, rs_prog_specs[i].at->hook,
					  "%s", info->fentry_why);
}

static struct rs_collector *new_collector(char *errbuf, size_t errsz)
{
	struct rs_collector *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(errbuf, errsz, "out of memory");
		return NULL;
	}
	c->stats_fd = -1;
	c->ncpus = libbpf_num_possible_cpus();
	if (c->ncpus > 0)
		c->percpu_stat = calloc(c->ncpus, sizeof(*c->percpu_stat));
	if (!c->percpu_stat) {
		snprintf(errbuf, errsz,
			 c->ncpus > 0 ? "out of memory"
				      : "cannot count the possible CPUs");
		free(c);
		return NULL;
	}
	return c;
}

/* Not BPF: the memcgs' own files, read by the caller, need a hierarchy. */
static void cgroupfs_hook(struct rs_run_info *info)
{
	struct rs_hook_status *h = &info->hooks[RS_HOOK_CGROUPFS];

	if (info->cgroup_version) {
		h->state = RS_HOOK_ATTACHED;
		info->attached |= RS_HOOK_BIT(CGROUPFS);
		return;
	}
	h->state = RS_HOOK_MISSING;
	snprintf(h->why, sizeof(h->why),
		 "no memory cgroup hierarchy is mounted");
}

/* --bpf-stats and --events: what the collector keeps open besides links. */
static int start_outputs(struct rs_collector *c,
			 const struct rs_collector_opts *opts, char *errbuf,
			 size_t errsz)
{
	int err;

	if (opts->bpf_stats) {
		/* on for as long as the fd is open: until we exit */
		c->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (c->stats_fd < 0) {
			err = -errno;
			snprintf(errbuf, errsz,
				 "cannot turn on the kernel's BPF run-time "
				 "statistics: %s\nhint: that needs "
				 "CAP_SYS_ADMIN; or leave --bpf-stats out and "
				 "set sysctl kernel.bpf_stats_enabled=1",
				 strerror(-err));
			return err;
		}
	}
	if (opts->stream_events) {
		c->ring = ring_buffer__new(bpf_map__fd(c->skel->maps.rs_events),
					   on_record, c, NULL);
		if (!c->ring) {
			err = -errno;
			snprintf(errbuf, errsz,
				 "cannot open the ring buffer: %s",
				 strerror(-err));
			return err;
		}
	}
	return 0;
}

int rs_collector_open(struct rs_collector **out, struct rs_run_info *info,
		      const struct rs_collector_opts *opts, char *errbuf,
		      size_t errsz)
{
	struct rs_collector *c;
	struct choice ch = {0};
	struct btf *btf;
	bool lrugen;
	int err = 0;

	verbose = opts->verbose;
	libbpf_set_print(print_fn);
	info->copies = opts->copies ? opts->copies : RS_COPIES;
	info->refaults = opts->refaults;
	info->budget_ns =
		opts->budget_ns ? opts->budget_ns : RS_DEFAULT_BUDGET_NS;
	*out = NULL;
	btf = kernel_btf(opts, info, errbuf, errsz, &err);
	if (!btf)
		return err;
	rs_kernel_probe(info, btf);
	rs_kernel_fields(info, btf);
	if (!have_caps()) {
		btf__free(btf);
		return not_permitted(info, &ch, errbuf, errsz);
	}
	choose(btf, info, &ch);
	probe_fentry(btf, info, &ch);
	lrugen = btf__find_by_name_kind(btf, "lru_gen_folio", BTF_KIND_STRUCT) >
		 0;
	btf__free(btf);
	info->tp_preempt_off = rs_probe_tp_preemption(
		info->tp_preempt_why, sizeof(info->tp_preempt_why));
	c = new_collector(errbuf, errsz);
	if (!c)
		return -ENOMEM;
	err = load(c, info, &ch, opts, errbuf, errsz);
	if (err) {
		for (int h = 0; h < RS_NR_HOOKS; h++)
			if (info->hooks[h].state == RS_HOOK_UNTRIED)
				hook_fail(info, &ch, h, "not loaded: %s",
					  strerror(-err));
		rs_collector_close(c);
		return err;
	}
	attach(c, info, &ch);
	if (!info->attached) {
		rs_collector_close(c);
		snprintf(errbuf, errsz,
			 "no hook could be attached\nhint: run `reclaimscope "
			 "probe` to see why for each hook");
		return -ENOENT;
	}
	cgroupfs_hook(info);
	c->tiers = rs_tier_iter_open(info, opts->btf_path, lrugen);
	err = start_outputs(c, opts, errbuf, errsz);
	if (err) {
		rs_collector_close(c);
		return err;
	}
	info->start_ns = rs_now_ns();
	*out = c;
	return 0;
}

int rs_collector_poll(struct rs_collector *c, int timeout_ms, rs_record_fn fn,
		      void *ctx)
{
	int n;

	if (!c->ring) {
		if (timeout_ms > 0)
			usleep(timeout_ms * 1000);
		return 0;
	}
	c->fn = fn;
	c->fn_ctx = ctx;
	/*
	 * Producers wake us only for a batch (rs_submit): what came since,
	 * short of one, is taken when the timeout ends.
	 */
	n = ring_buffer__poll(c->ring, timeout_ms);
	if (n == -EINTR)
		n = 0;
	if (n >= 0) {
		int more = ring_buffer__consume(c->ring);

		n = more < 0 ? more : n + more;
	}
	return n;
}

/* The kernel's count of a program's skipped runs; 0 when not attached. */
static __u64 spec_misses(struct rs_collector *c, int i)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	if (!c->spec_attached[i])
		return 0;
	memset(&info, 0, len);
	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog_by_name(
					   c->skel, rs_prog_specs[i].prog)),
				   &info, &len))
		return 0;
	return info.recursion_misses;
}

/* Every spec's skipped runs, read now (free with free()). */
static __u64 *prog_misses_read(struct rs_collector *c)
{
	__u64 *misses = calloc(rs_nr_prog_specs, sizeof(*misses));

	for (int i = 0; misses && i < rs_nr_prog_specs; i++)
		misses[i] = spec_misses(c, i);
	return misses;
}

/*
 * Events lost: runs the kernel skipped (the program was busy on that CPU:
 * preempted or nested) of a first copy that no later copy made up for
 * (RS_PROGS); misses from prog_misses_read(), freed here.  Those events
 * are missing from every count.
 */
static __u64 prog_misses(struct rs_collector *c, __u64 *misses)
{
	__u64 lost = 0;

	for (int i = 0; misses && i < rs_nr_prog_specs; i++) {
		__u64 made_up = c->second_runs[rs_prog_specs[i].slot];

		lost += misses[i] > made_up ? misses[i] - made_up : 0;
	}
	free(misses);
	return lost;
}

int rs_collector_misses(struct rs_collector *c, char *buf, size_t size)
{
	size_t len = 0;
	int n = 0;

	buf[0] = '\0';
	for (int i = 0; i < rs_nr_prog_specs; i++) {
		__u64 misses = spec_misses(c, i),
		      made_up = c->second_runs[rs_prog_specs[i].slot],
		      m = misses > made_up ? misses - made_up : 0;
		int w;

		if (!m)
			continue;
		w = snprintf(buf + len, size - len, "%s%s %llu",
			     n++ ? ", " : "", rs_prog_specs[i].prog,
			     (unsigned long long)m);
		if (w < 0 || (size_t)w >= size - len)
			break;
		len += w;
	}
	return n;
}

/*
 * The keys of a map (key_size bytes each), in one walk: all of them, or
 * those whose leading cgroup id is in sorted_ids.  Acting on them comes
 * after, since deleting during get_next_key would restart the walk.  NULL
 * with *nr 0 if there are none (or no memory).
 */
static void *map_keys(int fd, size_t key_size, const __u64 *sorted_ids,
		      size_t nr_ids, size_t *nr)
{
	/* key is read only after the first call, but analyzers cannot tell */
	char key[64] = {0}, next[64];
	char *keys = NULL;
	size_t cap = 0;
	bool first = true;

	*nr = 0;
	while (!bpf_map_get_next_key(fd, first ? NULL : key, next)) {
		memcpy(key, next, key_size);
		first = false;
		if (sorted_ids && !bsearch(key, sorted_ids, nr_ids,
					   sizeof(__u64), rs_cmp_u64))
			continue;
		if (!rs_grow((void **)&keys, &cap, *nr + 1, key_size))
			break;
		memcpy(keys + (*nr)++ * key_size, key, key_size);
	}
	return keys;
}

typedef int (*map_entry_fn)(void *ctx, const void *key, const void *value);

/*
 * Every entry of a hash map (value_size: as the syscall returns it, all CPUs
 * for a per-CPU map), with as few syscalls as the kernel allows:
 * BPF_MAP_LOOKUP_BATCH (v5.6) takes a few hundred entries a call, where
 * get_next_key plus lookup take two calls an entry -- with 10,000 memcgs,
 * most of an idle daemon's time.  Kernels without it get the walk.  0, or
 * fn's error.
 */
static int map_each(int fd, size_t key_size, size_t value_size, map_entry_fn fn,
		    void *ctx)
{
	/* about 1 MiB of values a call, at least 16 entries */
	__u32 cap = value_size * 16 > (1 << 20) ? 16 : (1 << 20) / value_size;
	char *keys = NULL, *values = NULL;
	__u64 token = 0; /* the hash maps' batch token is a bucket index */
	bool first = true, batched = true;
	size_t nr;
	int err = 0;

	for (;;) {
		__u32 count = cap;

		if (!keys) {
			keys = malloc((size_t)cap * key_size);
			values = malloc((size_t)cap * value_size);
			if (!keys || !values) {
				err = -ENOMEM;
				break;
			}
		}
		err = bpf_map_lookup_batch(fd, first ? NULL : &token, &token,
					   keys, values, &count, NULL);
		if (err && errno == ENOSPC && count == 0) {
			/* a bucket holds more than cap: room for it */
			free(keys);
			free(values);
			keys = values = NULL;
			cap *= 4;
			continue;
		}
		if (err && errno != ENOENT) {
			batched = !first; /* not supported: walk instead */
			err = first ? 0 : -errno;
			break;
		}
		first = false;
		for (__u32 i = 0; i < count; i++) {
			int rc = fn(ctx, keys + (size_t)i * key_size,
				    values + (size_t)i * value_size);

			if (rc) {
				free(keys);
				free(values);
				return rc;
			}
		}
		if (err) { /* ENOENT: that was the last */
			err = 0;
			break;
		}
	}
	free(keys);
	free(values);
	if (batched || err)
		return err;
	/* the walk: every key, then each value (deleted meanwhile: skipped) */
	keys = map_keys(fd, key_size, NULL, 0, &nr);
	values = malloc(value_size);
	for (size_t i = 0; values && i < nr && !err; i++)
		if (!bpf_map_lookup_elem(fd, keys + i * key_size, values))
			err = fn(ctx, keys + i * key_size, values);
	if (!values)
		err = -ENOMEM;
	free(keys);
	free(values);
	return err;
}

/* A cell of the spill map (bpf/common.bpf.h: rs_agg_spill), its CPUs summed. */
struct spilled_cell {
	struct rs_agg_key key; /* first: bsearch compares keys */
	__u64 sum[RS_NR_FIELDS];
	bool added; /* to its rs_agg cell */
};

struct snapshot_ctx {
	struct rs_model *model;
	int ncpus;
	struct spilled_cell *spilled; /* sorted by key */
	size_t nr_spilled, cap_spilled;
};

static void sum_cpus(const struct snapshot_ctx *sc, const void *value,
		     __u64 sum[RS_NR_FIELDS])
{
	const struct rs_agg_value *percpu = value;

	memset(sum, 0, RS_NR_FIELDS * sizeof(*sum));
	for (int cpu = 0; cpu < sc->ncpus; cpu++)
		for (int f = 0; f < RS_NR_FIELDS; f++)
			sum[f] += percpu[cpu].v[f];
}

static int cmp_agg_key(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct rs_agg_key));
}

static int take_spilled(void *ctx, const void *key, const void *value)
{
	struct snapshot_ctx *sc = ctx;
	struct spilled_cell *cell;

	if (!rs_grow((void **)&sc->spilled, &sc->cap_spilled,
		     sc->nr_spilled + 1, sizeof(*sc->spilled)))
		return -ENOMEM;
	cell = &sc->spilled[sc->nr_spilled++];
	memcpy(&cell->key, key, sizeof(cell->key));
	sum_cpus(sc, value, cell->sum);
	cell->added = false;
	return 0;
}

static int add_cell(void *ctx, const void *key, const void *value)
{
	const struct snapshot_ctx *sc = ctx;
	struct spilled_cell *spilled = NULL;
	__u64 sum[RS_NR_FIELDS];

	sum_cpus(sc, value, sum);
	if (sc->nr_spilled)
		spilled = bsearch(key, sc->spilled, sc->nr_spilled,
				  sizeof(*sc->spilled), cmp_agg_key);
	if (spilled) {
		for (int f = 0; f < RS_NR_FIELDS; f++)
			sum[f] += spilled->sum[f];
		spilled->added = true;
	}
	return rs_model_add(sc->model, key, sum) ? -ENOMEM : 0;
}

/*
 * Every counter cell: rs_agg's, each with what its key spilled (read first,
 * so that a cell spilled while rs_agg is read is counted in the next
 * snapshot, never twice), and the spilled cells of keys rs_agg lacks.
 */
static int read_cells(struct rs_collector *c, struct snapshot_ctx *sc)
{
	size_t value_size = c->ncpus * sizeof(struct rs_agg_value);
	int err;

	sc->nr_spilled = 0;
	err = map_each(bpf_map__fd(c->skel->maps.rs_agg_spill),
		       sizeof(struct rs_agg_key), value_size, take_spilled, sc);
	if (err)
		return err;
	if (sc->nr_spilled) /* none, mostly: then no array at all */
		qsort(sc->spilled, sc->nr_spilled, sizeof(*sc->spilled),
		      cmp_agg_key);
	err = map_each(bpf_map__fd(c->skel->maps.rs_agg),
		       sizeof(struct rs_agg_key), value_size, add_cell, sc);
	for (size_t i = 0; !err && i < sc->nr_spilled; i++)
		if (!sc->spilled[i].added &&
		    rs_model_add(sc->model, &sc->spilled[i].key,
				 sc->spilled[i].sum))
			err = -ENOMEM;
	return err;
}

static int add_hist(void *ctx, const void *key, const void *value)
{
	const struct snapshot_ctx *sc = ctx;
	const struct rs_hist_key *hkey = key;
	const struct rs_hist_value *hv = value;

	return rs_model_hist_add(sc->model, hkey->cgroup_id, hkey->hist,
				 hkey->octave, hv->count)
		       ? -ENOMEM
		       : 0;
}

/*
 * Whether the counter maps may have changed since the last snapshot read
 * them (bpf/common.bpf.h: rs_changed), clearing the flag.  A program that
 * finds the flag set does not store it, and its own adds may still sit in
 * its CPU's store buffer when it looks (a load may pass earlier stores,
 * even on x86), so the snapshot that clears the flag can read the maps a
 * moment before those adds land.  Hence the snapshot after one that found
 * the flag set reads them too: by then they have landed.  Every
 * RS_READ_ALL_EVERY-th snapshot reads them anyway.
 */
static bool maps_changed(struct rs_collector *c, bool all)
{
	bool flag = true; /* no .bss: no flag, always read */

	if (c->skel->bss)
		flag = __atomic_exchange_n(&c->skel->bss->rs_changed, 0,
					   __ATOMIC_SEQ_CST);
	return rs_read_gate_due(&c->gate, flag, all);
}

/* Is the task with this id still there?  /proc lists thread-group
 * leaders, but every task's own folder opens. */
static bool task_alive(__u32 tid)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/%u", tid);
	return access(path, F_OK) == 0 || errno != ENOENT;
}

struct stalls_ctx {
	struct rs_stalls *stalls;
	const struct rs_model *model;
	int fd;
};

/* Is the memcg gone from cgroupfs (its id is never used again)? */
static bool memcg_gone(const struct rs_model *m, __u64 id)
{
	const struct rs_memcg *mc = rs_model_find(m, id);

	return mc && mc->gone;
}

static int add_stall(void *ctx, const void *key, const void *value)
{
	struct stalls_ctx *sc = ctx;
	const struct rs_task_key *k = key;
	struct rs_task_stall last;

	/*
	 * An entry that did not move may be of a task that is gone, or of a
	 * memcg that is (a long-lived reclaimer, kswapd, throttled in many
	 * memcgs over a run): it is taken out of the map with its counts as
	 * they are at that moment, not as the batch read them a while ago
	 * (a last stall between the two would be lost), so the kernel's map
	 * stays bounded by what is alive.  One that stalls again makes a new
	 * entry, counted from 0.
	 */
	if (rs_stalls_add(sc->stalls, k, value, false) != 1 ||
	    (task_alive(k->tid) && !memcg_gone(sc->model, k->cgroup_id)))
		return 0;
	if (!bpf_map_lookup_and_delete_elem(sc->fd, k, &last) ||
	    (!bpf_map_lookup_elem(sc->fd, k, &last) &&
	     !bpf_map_delete_elem(sc->fd, k)))
		rs_stalls_add(sc->stalls, k, &last, true);
	return 0; /* a lost entry is counted there: go on */
}

/* Every task's stall counts (vmscan.h), into the model's. */
static int read_stalls(struct rs_collector *c, struct rs_model *m)
{
	struct stalls_ctx sc = {rs_model_stalls(m), m,
				bpf_map__fd(c->skel->maps.rs_task_stalls)};
	int err;

	if (!sc.stalls)
		return 0;
	rs_stalls_begin(sc.stalls);
	err = map_each(sc.fd, sizeof(struct rs_task_key),
		       sizeof(struct rs_task_stall), add_stall, &sc);
	rs_stalls_end(sc.stalls);
	return err;
}

int rs_collector_snapshot(struct rs_collector *c, struct rs_model *m, double t,
			  bool all)
{
	struct snapshot_ctx sc = {.model = m, .ncpus = c->ncpus};
	__u64 stats[RS_NR_STATS], *misses;
	int fd, err = 0;
	bool due;

	/* a failed read keeps what was read; the rest comes next time */
	if (read_stalls(c, m) && verbose)
		fprintf(stderr,
			"reclaimscope: reading the task stalls failed\n");
	/* a snapshot without adds keeps every total and zeroes the intervals */
	rs_model_begin(m);
	due = maps_changed(c, all);
	if (due) {
		err = read_cells(c, &sc);
		free(sc.spilled);
		if (!err)
			err = map_each(bpf_map__fd(c->skel->maps.rs_hist),
				       sizeof(struct rs_hist_key),
				       sizeof(struct rs_hist_value), add_hist,
				       &sc);
	}
	if (err) {
		/* what was read is cumulative, so keep it: the memcgs must be
		 * laid out again after the cells moved; the rest of the maps
		 * is read next time */
		c->gate.read_all = true;
		rs_model_end(m, t);
		return err;
	}
	/*
	 * The programs' skipped runs first, then the later copies' runs that
	 * made up for them: a skip is always made up after it happens, so read
	 * in this order a skip and its make-up are both counted or neither is
	 * (read the other way, one between the reads counted as lost).
	 */
	misses = prog_misses_read(c);
	fd = bpf_map__fd(c->skel->maps.rs_stats);
	for (__u32 s = 0; s < RS_NR_STATS; s++) {
		stats[s] = 0;
		if (bpf_map_lookup_elem(fd, &s, c->percpu_stat))
			continue;
		for (int cpu = 0; cpu < c->ncpus; cpu++)
			stats[s] += c->percpu_stat[cpu];
	}
	memcpy(c->second_runs, &stats[RS_STAT_SECOND_RUNS0],
	       sizeof(c->second_runs));
	stats[RS_STAT_PROG_MISSES] = prog_misses(c, misses);
	rs_model_set_stats(m, stats);
	rs_model_end(m, t);
	/*
	 * State, not counts: read as it stands, every snapshot.  A failed
	 * read (memory) leaves the last values, which lose nothing: the next
	 * read gives the state again.
	 */
	if (rs_tier_iter_read(c->tiers, m, due) && verbose)
		fprintf(stderr, "reclaimscope: reading the tiers failed\n");
	return 0;
}

void rs_collector_names(struct rs_collector *c, rs_name_fn fn, void *ctx)
{
	int fd = bpf_map__fd(c->skel->maps.rs_names);
	size_t nr;
	__u64 *ids = map_keys(fd, sizeof(__u64), NULL, 0, &nr);
	struct rs_cgroup_name v;

	if (!ids)
		return;
	/* ids grow with creation (kernfs): parents come first */
	qsort(ids, nr, sizeof(*ids), rs_cmp_u64);
	for (size_t i = 0; i < nr; i++) {
		/* take, so that an rmdir after the read is not lost */
		if (bpf_map_lookup_and_delete_elem(fd, &ids[i], &v) &&
		    (bpf_map_lookup_elem(fd, &ids[i], &v) ||
		     bpf_map_delete_elem(fd, &ids[i])))
			continue;
		v.name[sizeof(v.name) - 1] = '\0';
		fn(ctx, ids[i], v.parent_id, v.name, v.removed);
	}
	free(ids);
}

/* Delete the keys of some memcgs from a map whose keys start with the
 * cgroup id. */
static void forget_keys(int fd, const __u64 *sorted_ids, size_t nr_ids,
			size_t key_size)
{
	size_t nr;
	char *doomed = map_keys(fd, key_size, sorted_ids, nr_ids, &nr);

	for (size_t i = 0; i < nr; i++)
		bpf_map_delete_elem(fd, doomed + i * key_size);
	free(doomed);
}

void rs_collector_forget(struct rs_collector *c, __u64 *ids, size_t nr)
{
	qsort(ids, nr, sizeof(*ids), rs_cmp_u64);
	forget_keys(bpf_map__fd(c->skel->maps.rs_agg), ids, nr,
		    sizeof(struct rs_agg_key));
	forget_keys(bpf_map__fd(c->skel->maps.rs_agg_spill), ids, nr,
		    sizeof(struct rs_agg_key));
	forget_keys(bpf_map__fd(c->skel->maps.rs_hist), ids, nr,
		    sizeof(struct rs_hist_key));
	forget_keys(bpf_map__fd(c->skel->maps.rs_task_stalls), ids, nr,
		    sizeof(struct rs_task_key));
}

int rs_collector_check_access(struct rs_collector *c)
{
	struct rs_agg_key next;
	struct bpf_prog_info info;
	__u32 len = sizeof(info), key = 0;

	/* what a snapshot does: a per-CPU lookup, a key walk, program info */
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.rs_stats), &key,
				c->percpu_stat))
		return -errno;
	if (bpf_map_get_next_key(bpf_map__fd(c->skel->maps.rs_agg), NULL,
				 &next) &&
	    errno != ENOENT)
		return -errno;
	for (int i = 0; i < rs_nr_prog_specs; i++) {
		if (!c->spec_attached[i])
			continue;
		memset(&info, 0, len);
		if (bpf_obj_get_info_by_fd(
			    bpf_program__fd(prog_by_name(
				    c->skel, rs_prog_specs[i].prog)),
			    &info, &len))
			return -errno;
		break;
	}
	return 0;
}

void rs_collector_cost(struct rs_collector *c, struct rs_run_info *info)
{
	struct bpf_prog_info pi;
	__u32 len;

	info->cost_known = c->stats_fd >= 0 || rs_kernel_bpf_stats();
	for (int h = 0; h < RS_NR_HOOKS; h++)
		info->hooks[h].runs = info->hooks[h].run_ns = 0;
	if (!info->cost_known)
		return;
	/*
	 * Every copy runs for every event (RS_PROGS) and costs time; the
	 * first copy's runs count the events.
	 */
	for (int i = 0; i < rs_nr_prog_specs; i++) {
		struct rs_hook_status *hs =
			&info->hooks[rs_prog_specs[i].at->hook];

		if (!c->spec_attached[i])
			continue;
		for (int k = 0; k < RS_COPIES; k++) {
			struct bpf_program *p =
				copy_of(c->skel, rs_prog_specs[i].prog, k);

			len = sizeof(pi);
			memset(&pi, 0, len);
			if (!p || bpf_obj_get_info_by_fd(bpf_program__fd(p),
							 &pi, &len))
				continue;
			hs->run_ns += pi.run_time_ns;
			if (!k)
				hs->runs += pi.run_cnt;
		}
	}
}

void rs_collector_stop(struct rs_collector *c)
{
	for (int i = 0; i < rs_nr_prog_specs; i++)
		for (int k = 0; k < RS_COPIES; k++) {
			bpf_link__destroy(c->links[i][k]);
			c->links[i][k] = NULL;
		}
}

void rs_collector_close(struct rs_collector *c)
{
	if (!c)
		return;
	ring_buffer__free(c->ring);
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	for (int i = 0; i < rs_nr_prog_specs; i++)
		for (int k = 0; k < RS_COPIES; k++)
			bpf_link__destroy(c->links[i][k]);
	reclaimscope_bpf__destroy(c->skel);
	rs_tier_iter_close(c->tiers);
	free(c->percpu_stat);
	free(c);
}
