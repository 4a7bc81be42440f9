// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "kernel.h"
#include "fields.h"
#include "rs_common.h"
#include "aging.h"
#include "preempt.h"
#include "util.h"
#include "preempt.skel.h"

/* Count the nodes in a list such as "0-3,8". */
static int count_nodes(const char *list)
{
	int n = 0, a, b, used;

	while (*list) {
		if (sscanf(list, "%d-%d%n", &a, &b, &used) == 2 && b >= a)
			n += b - a + 1;
		else if (sscanf(list, "%d%n", &a, &used) == 1)
			n++;
		else
			break;
		list += used;
		if (*list == ',')
			list++;
	}
	return n;
}

int rs_kernel_mglru(void)
{
	char buf[64];

	if (rs_read_file("/sys/kernel/mm/lru_gen/enabled", buf, sizeof(buf)))
		return -1;
	return (int)strtol(buf, NULL, 0);
}

bool rs_kernel_bpf_stats(void)
{
	char buf[16];

	return !rs_read_file("/proc/sys/kernel/bpf_stats_enabled", buf,
			     sizeof(buf)) &&
	       strtol(buf, NULL, 10) > 0;
}

void rs_kernel_probe(struct rs_run_info *info, const struct btf *btf)
{
	struct utsname uts;
	char buf[256];

	if (!uname(&uts))
		snprintf(info->kernel, sizeof(info->kernel), "%s", uts.release);
	info->btf = access("/sys/kernel/btf/vmlinux", R_OK) == 0;
	info->mglru_enabled = rs_kernel_mglru();
	info->series = btf &&
		       btf__find_by_name_kind(btf, "handle_reclaim_writeback",
					      BTF_KIND_FUNC) > 0 &&
		       btf__find_by_name_kind(btf, "lruvec_evictable_size",
					      BTF_KIND_FUNC) > 0;
	/* userspace's page is the kernel's (there is no other on Linux) */
	info->page_size = sysconf(_SC_PAGESIZE);
	info->nr_nodes = 1;
	if (!rs_read_file("/sys/devices/system/node/possible", buf,
			  sizeof(buf)))
		info->nr_nodes = count_nodes(buf);
	if (info->nr_nodes < 1)
		info->nr_nodes = 1;
}

/* A member of struct/union id, directly or in an anonymous one inside it,
 * as CO-RE finds it: its type's id, or 0. */
static __u32 member_type(const struct btf *btf, __u32 id, const char *member,
			 int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;

	if (!t || !btf_is_composite(t) || depth > 8)
		return 0;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		__u32 found;

		if (name && !strcmp(name, member))
			return m->type;
		if (name && name[0])
			continue;
		found = member_type(btf, btf__resolve_type(btf, m->type),
				    member, depth + 1);
		if (found)
			return found;
	}
	return 0;
}

/*
 * The architecture the BPF objects were compiled for (make ARCH=, which
 * defines RS_BPF_ARCH_x86 or RS_BPF_ARCH_arm64): what must match the
 * kernel.  The C compiler must agree, or the program's own layouts would
 * not be the objects'.
 */
#if (defined(RS_BPF_ARCH_arm64) && !defined(__aarch64__)) ||                   \
	(defined(RS_BPF_ARCH_x86) && !defined(__x86_64__))
#error "make ARCH= names another architecture than the C compiler's (CC=)"
#endif
const char *rs_build_arch(void)
{
#if defined(RS_BPF_ARCH_x86)
	return "x86-64";
#elif defined(RS_BPF_ARCH_arm64)
	return "arm64";
#else
	return NULL; /* not built by the Makefile: nothing to tell by */
#endif
}

/*
 * By struct pt_regs, which every kernel's BTF holds: x86-64 saves the
 * system call's first register as orig_ax, arm64 as orig_x0 (uname(2)
 * cannot tell: qemu-user answers with the emulated machine).
 */
const char *rs_btf_arch(const struct btf *btf)
{
	__s32 regs = btf__find_by_name_kind(btf, "pt_regs", BTF_KIND_STRUCT);

	if (regs <= 0)
		return NULL;
	if (member_type(btf, regs, "orig_ax", 0))
		return "x86-64";
	if (member_type(btf, regs, "orig_x0", 0))
		return "arm64";
	return NULL;
}

/*
 * Why a member that is there still cannot be used, or NULL.  The walk
 * counters are running totals only with one history slot
 * (bpf/compat.bpf.h: rs_walk_stats); the programs check the same size.
 */
static const char *member_unusable(int hook, const struct btf *btf, __u32 type)
{
	const __s64 one_slot = RS_NR_WALK_STATS * (__s64)sizeof(unsigned long);

	if (hook == RS_HOOK_WALK_STATS &&
	    btf__resolve_size(btf, type) != one_slot)
		return "this kernel keeps the page-table walk's counters per "
		       "generation (CONFIG_LRU_GEN_STATS), not as running "
		       "totals";
	return NULL;
}

void rs_kernel_fields(struct rs_run_info *info, const struct btf *btf)
{
	for (int h = 0; h < RS_NR_HOOKS; h++) {
		struct rs_hook_status *hs = &info->hooks[h];
		char type[64];
		const char *dot = strchr(rs_hooks[h].name, '.');
		const char *unusable;
		__u32 member;
		int id;

		if (!rs_hooks[h].kernel_field || !dot)
			continue;
		snprintf(type, sizeof(type), "%.*s",
			 (int)(dot - rs_hooks[h].name), rs_hooks[h].name);
		id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
		member = id > 0 ? member_type(btf, id, dot + 1, 0) : 0;
		unusable = member ? member_unusable(h, btf, member) : NULL;
		if (member && !unusable) {
			hs->state = RS_HOOK_ATTACHED;
			continue;
		}
		hs->state = RS_HOOK_MISSING;
		if (unusable) {
			snprintf(hs->why, sizeof(hs->why), "%s", unusable);
			continue;
		}
		snprintf(hs->why, sizeof(hs->why),
			 id > 0 ? "this kernel's struct %s has no member %s"
				: "this kernel has no struct %s (member %s)",
			 type, dot + 1);
	}
}

static void append(char *buf, size_t size, size_t *len, const char *s)
{
	int n = snprintf(buf + *len, size - *len, "%s%s", *len ? "," : "", s);

	if (n > 0)
		*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

int rs_btf_func_params(const struct btf *btf, const char *func, char *buf,
		       size_t size)
{
	const struct btf_type *t;
	const struct btf_param *p;
	size_t len = 0;
	int id;

	buf[0] = '\0';
	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	if (id <= 0)
		return -ENOENT;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (!t || !btf_is_func_proto(t))
		return -EINVAL;
	p = btf_params(t);
	for (int i = 0; i < btf_vlen(t); i++)
		append(buf, size, &len,
		       btf__name_by_offset(btf, p[i].name_off));
	return 0;
}

/* "int", "gfp_t", "struct mem_cgroup *", ... */
static void type_name(const struct btf *btf, __u32 id, char *buf, size_t size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int ptrs = 0;

	while (t && (btf_is_ptr(t) || btf_is_const(t) || btf_is_volatile(t))) {
		if (btf_is_ptr(t))
			ptrs++;
		t = btf__type_by_id(btf, t->type);
	}
	if (!t) {
		snprintf(buf, size, "void%s", ptrs ? " *" : "");
		return;
	}
	snprintf(buf, size, "%s%s%s%s",
		 btf_is_struct(t)  ? "struct "
		 : btf_is_union(t) ? "union "
		 : btf_is_enum(t)  ? "enum "
				   : "",
		 btf__name_by_offset(btf, t->name_off), ptrs ? " " : "",
		 ptrs == 0   ? ""
		 : ptrs == 1 ? "*"
			     : "**");
}

int rs_btf_tp_params(const struct btf *btf, const char *tp, char *buf,
		     size_t size)
{
	char name[128], tname[96];
	const struct btf_type *t;
	const struct btf_param *p;
	size_t len = 0;
	int id;

	buf[0] = '\0';
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	while (t && (btf_is_typedef(t) || btf_is_ptr(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t))
		return -EINVAL;
	p = btf_params(t);
	/* the first parameter is the tracepoint's void *data */
	for (int i = 1; i < btf_vlen(t); i++) {
		type_name(btf, p[i].type, tname, sizeof(tname));
		append(buf, size, &len, tname);
	}
	return 0;
}

bool rs_signature_matches(const char *sig, const char *pattern)
{
	while (*pattern) {
		const char *pe = strchr(pattern, ','), *se = strchr(sig, ',');
		size_t pl = pe ? (size_t)(pe - pattern) : strlen(pattern);
		size_t sl = se ? (size_t)(se - sig) : strlen(sig);

		/* "..." stands for any further parameters, or none */
		if (pl == 3 && !strncmp(pattern, "...", 3))
			return true;
		if (!*sig)
			return false;
		if (!(pl == 1 && *pattern == '*') &&
		    (pl != sl || strncmp(pattern, sig, pl)))
			return false;
		pattern += pl + (pe ? 1 : 0);
		sig += sl + (se ? 1 : 0);
	}
	return *sig == '\0';
}

int rs_probe_fentry(const struct btf *btf, const char *func, char *why,
		    size_t size)
{
	/* r0 = 0; exit */
	const struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_FENTRY);
	int id, fd, link, err;

	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	if (id <= 0) {
		snprintf(why, size, "%s is not in the kernel's BTF", func);
		return -ENOENT;
	}
	opts.attach_btf_id = id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "rs_fentry_probe", "GPL",
			   insns, 2, &opts);
	if (fd < 0) {
		err = -errno;
		snprintf(why, size, "fentry/fexit cannot be loaded: %s",
			 strerror(-err));
		return err;
	}
	link = bpf_link_create(fd, 0, BPF_TRACE_FENTRY, NULL);
	if (link < 0) {
		err = -errno;
		snprintf(why, size, "fentry/fexit cannot be attached: %s",
			 strerror(-err));
		close(fd);
		return err;
	}
	close(link);
	close(fd);
	return 0;
}

/* Fork a child that exits at once, and reap it. */
static int fork_once(void)
{
	pid_t child = fork();
	int status;

	if (child < 0)
		return -errno;
	if (!child)
		_exit(0);
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int rs_probe_tp_preemption(char *why, size_t size)
{
	struct preempt_bpf *skel = preempt_bpf__open();
	struct rs_preempt_seen seen;
	int err;

	if (!skel) {
		err = -errno;
		snprintf(why, size, "preemption probe: open: %s",
			 strerror(-err));
		return err;
	}
	err = preempt_bpf__load(skel);
	if (err) {
		snprintf(why, size, "preemption probe: load: %s",
			 strerror(-err));
		goto out;
	}
	err = preempt_bpf__attach(skel);
	if (err) {
		snprintf(why, size,
			 "preemption probe: attach to sched_process_fork: %s",
			 strerror(-err));
		goto out;
	}
	err = fork_once();
	if (err) {
		snprintf(why, size, "preemption probe: fork: %s",
			 strerror(-err));
		goto out;
	}
	seen = skel->bss->rs_preempt_seen;
	if (!seen.runs) {
		err = -ENODATA;
		snprintf(why, size, "preemption probe: it did not run");
	} else if (seen.unknown) {
		err = -EOPNOTSUPP;
		snprintf(why, size,
			 "preemption probe: this kernel's tasks have no "
			 "migration_disabled");
	} else {
		err = seen.preempt_off == seen.runs;
		snprintf(why, size, "seen in a fork's tracepoint");
	}
out:
	preempt_bpf__destroy(skel);
	return err;
}
