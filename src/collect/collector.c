// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "collector.h"
#include "collector_int.h"
#include "rs_common.h"
#include "fields.h"
#include "hooks.h"
#include "kernel.h"
#include "tier_iter.h"
#include "util.h"
#include "reclaimscope.skel.h"

/* --- libbpf output: everything with -v, nothing without ----------------- */

bool rs_collector_verbose;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	if (rs_collector_verbose)
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

__attribute__((format(printf, 4, 5))) static void
hook_fail(struct rs_run_info *info, struct choice *ch, enum rs_hook h,
	  const char *fmt, ...)
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
typedef __typeof__(((struct reclaimscope_bpf *)0)->progs) skel_progs;
#define SPEC_HAS_COPIES(p, s, pat, ...)                                        \
	_Static_assert(offsetof(skel_progs, p) < offsetof(skel_progs, p##_5),  \
		       #p " and its copies are in the skeleton, in order");
RS_PROG_SPECS(SPEC_HAS_COPIES)
#undef SPEC_HAS_COPIES
#define SPEC_ENUM(p, s, pat, ...) SPEC_##p,
enum { RS_PROG_SPECS(SPEC_ENUM) NR_PROG_SPECS };
#undef SPEC_ENUM
_Static_assert(sizeof(skel_progs) ==
		       sizeof(struct bpf_program *) * RS_COPIES * NR_PROG_SPECS,
	       "the skeleton's programs are RS_PROG_SPECS' and their copies");

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
	const char *spare_test = getenv("RECLAIMSCOPE_TEST_SPARE_STATES");
	int err;

	if (!skel)
		return -errno;
	skel->rodata->rs_stream_events = opts->stream_events;
	skel->rodata->rs_tp_preempt_off = info->tp_preempt_off == 1;
	skel->rodata->rs_fixed_node = info->nr_nodes == 1 ? 0 : RS_NODE_UNKNOWN;
	skel->rodata->rs_budget_ns = info->budget_ns;
	/*
	 * For the VM test of the spare states (rs_state in
	 * bpf/common.bpf.h): every task's state kept there, as if task
	 * storage always refused, so that their path is proven exact.
	 */
	if (spare_test && !strcmp(spare_test, "1")) {
		skel->rodata->rs_spare_only = true;
		fprintf(stderr,
			"reclaimscope: RECLAIMSCOPE_TEST_SPARE_STATES=1: "
			"every task's state in the spare map (a test)\n");
	}
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
		if (rs_collector_verbose) /* libbpf prints only the logs it
					     allocates */
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
			  rs_collector_verbose ? "" : " (-v shows the log)");
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

/*
 * A build run on another architecture's kernel (qemu-user through
 * binfmt_misc), or given another architecture's BTF (--btf): every hook
 * fails, nothing is tried, and the error says which build this is and
 * which one the kernel wants.
 */
static bool arch_matches(const struct btf *btf,
			 const struct rs_collector_opts *opts,
			 struct rs_run_info *info, struct choice *ch,
			 char *errbuf, size_t errsz)
{
	const char *kernel = rs_btf_arch(btf);
	const char *mine = rs_build_arch();
	bool arm64 = kernel && !strcmp(kernel, "arm64");
	char why[64];

	if (!kernel || !mine || !strcmp(kernel, mine))
		return true;
	snprintf(why, sizeof(why), "an %s build on an %s kernel", mine, kernel);
	info->tp_preempt_off = -ENOEXEC;
	snprintf(info->tp_preempt_why, sizeof(info->tp_preempt_why),
		 "not tried: %s", why);
	snprintf(info->fentry_why, sizeof(info->fentry_why), "not tried: %s",
		 why);
	/* the memcg files too: the collector that reads them does not open */
	for (int h = 0; h < RS_NR_HOOKS; h++)
		hook_fail(info, ch, h, "%s", why);
	if (opts->btf_path)
		snprintf(errbuf, errsz,
			 "this reclaimscope is built for %s, and the BTF in %s "
			 "is %s's (its struct pt_regs says so): its BPF "
			 "programs cannot be relocated against it\nhint: give "
			 "--btf the BTF of the kernel it runs on (/sys/kernel/"
			 "btf/vmlinux there)",
			 mine, opts->btf_path, kernel);
	else
		snprintf(errbuf, errsz,
			 "this reclaimscope is built for %s, and the kernel is "
			 "%s's (its BTF's struct pt_regs says so): its BPF "
			 "programs read %s's registers and must not load "
			 "there\nhint: it runs here through an emulator "
			 "(qemu-user, binfmt_misc); use the %s build: the "
			 "reclaimscope_*_%s.deb package, or make ARCH=%s",
			 mine, kernel, mine, kernel, arm64 ? "arm64" : "amd64",
			 arm64 ? "arm64" : "x86");
	return false;
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

/*
 * Tasks are judged gone when /proc has them no more (the spare task states,
 * the stalls per task: collector_maps.c).  In a PID namespace of its own
 * /proc shows only that namespace's tasks, and live tasks outside it would
 * be taken out: say so.  The initial namespace's inode is fixed
 * (PROC_PID_INIT_INO, include/linux/proc_ns.h).
 */
static void warn_pid_namespace(void)
{
	struct stat st;

	if (!stat("/proc/self/ns/pid", &st) && st.st_ino != 0xEFFFFFFCU)
		fprintf(stderr,
			"reclaimscope: warning: running in a PID namespace of "
			"its own: the tasks outside it are not in /proc, so "
			"their stalls per task and spare states are taken out "
			"as if gone; run in the host's PID namespace\n");
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

	rs_collector_verbose = opts->verbose;
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
	if (!arch_matches(btf, opts, info, &ch, errbuf, errsz)) {
		btf__free(btf);
		return -ENOEXEC;
	}
	if (!have_caps()) {
		btf__free(btf);
		return not_permitted(info, &ch, errbuf, errsz);
	}
	warn_pid_namespace();
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
	rs_collector_share_hz(c);
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
__u64 *rs_prog_misses_read(struct rs_collector *c)
{
	__u64 *misses = calloc(rs_nr_prog_specs, sizeof(*misses));

	for (int i = 0; misses && i < rs_nr_prog_specs; i++)
		misses[i] = spec_misses(c, i);
	return misses;
}

/*
 * Events lost: runs the kernel skipped (the program was busy on that CPU:
 * preempted or nested) of a first copy that no later copy made up for
 * (RS_PROGS); misses from rs_prog_misses_read(), freed here.  Those events
 * are missing from every count.
 */
__u64 rs_prog_misses(struct rs_collector *c, __u64 *misses)
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
