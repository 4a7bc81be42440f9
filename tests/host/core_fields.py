#!/usr/bin/env python3
"""Every kernel field our BPF programs read, and whether a kernel that drops
it costs one value or a whole program.

usage: core_fields.py BPF_OBJECT RS_COMMON_H [KERNEL_BTF...]

A CO-RE read of a member the kernel lacks fails its program at load, and
with the program every value it counts (7.3 dropped reclaim_stat.nr_pageout
and took `reclaimed` with it).  So a member is either

- guarded: read only under bpf_core_field_exists() of the same access (a
  FIELD_EXISTS relocation beside the read), and listed as a 'k' row of
  RS_HOOKS in include/rs_common.h, which userspace looks up in the kernel's
  BTF to show the values it feeds as null; or
- core: listed below with the reason it may stay unguarded, because without
  it the program has nothing to count (attribution, the reclaim loop's own
  state).

Checks: every field read is one or the other; every 'k' row is guarded in
the object; and for each KERNEL_BTF given (a vmlinux ELF file or raw BTF),
every unguarded read of a program whose function or tracepoint exists
there resolves, so that no program fails on it.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from btf import FIELD_EXISTS, core_relocations, kernel_btf  # noqa: E402
from judge import Judge  # noqa: E402
import rs_tables  # noqa: E402

# (struct, member): why a kernel without it may fail the program reading it
CORE = {
    # attribution: which memcg and node an lruvec or a task belongs to;
    # without them no count can be given to a memcg
    ("cgroup", "kn"): "cgroup id of a memcg",
    ("kernfs_node", "id"): "cgroup id of a memcg",
    ("kernfs_node", "name"): "a new memcg's name (cgroup_mkdir)",
    ("cgroup", "self"): "a new memcg's parent",
    ("cgroup", "subsys"): "a new memcg's css",
    ("cgroup_subsys_state", "cgroup"): "cgroup of a css",
    ("cgroup_subsys_state", "parent"): "parent of a css",
    ("cgroup_subsys_state", "flags"): "memcg online (the budget's input)",
    ("css_set", "subsys"): "the current task's memcg",
    ("task_struct", "cgroups"): "the current task's memcg",
    ("task_struct", "flags"): "PF_KSWAPD: who reclaims",
    ("task_struct", "start_time"): "whose a spare task state is (rs_state)",
    ("mem_cgroup", "css"): "cgroup id of a memcg",
    ("mem_cgroup_per_node", "lruvec"): "memcg of an lruvec",
    ("mem_cgroup_per_node", "memcg"): "memcg of an lruvec",
    ("lruvec", "pgdat"): "node of an lruvec",
    ("pglist_data", "__lruvec"): "a node's own lruvec (memcg off)",
    ("pglist_data", "node_id"): "node of an lruvec",
    # the reclaim loop's own state, read by the programs of the hooks that
    # exist only with it
    ("scan_control", "priority"): "pass budget (>> priority)",
    ("scan_control", "nr_to_reclaim"): "the reclaim's target",
    ("scan_control", "nr_reclaimed"): "the reclaim's progress",
    ("scan_control", "order"): "pass exit classification",
    ("scan_control", "target_mem_cgroup"): "who reclaims, root reclaim",
    ("scan_control", "memcg_low_reclaim"): "the budget's protection input",
    ("mem_cgroup", "memory"): "the budget's protection input",
    ("page_counter", "emin"): "the budget's protection input",
    ("page_counter", "elow"): "the budget's protection input",
    ("page_counter", "usage"): "the budget's protection input",
    ("", "counter"): "page_counter.usage's atomic value",
    ("lruvec", "lrugen"): "MGLRU's generations (MGLRU programs only)",
    ("lru_gen_folio", "max_seq"): "aging: max_seq",
    ("lru_gen_folio", "min_seq"): "retirement: min_seq",
    ("lru_gen_folio", "timestamps"): "MAX_NR_GENS (its size): aging's "
    "generations",
    # the refault programs (--refaults), loaded only with MGLRU's shadow test
    ("lru_gen_folio", "avg_refaulted"): "MAX_NR_TIERS (its size): the "
    "token's shift",
    # (struct folio's members sit in an anonymous union of structs)
    ("folio", ""): "a refaulted folio's flags and memcg",
    ("", ""): "a refaulted folio's flags and memcg",
    ("", "flags"): "a refaulted folio's type and size",
    ("", "memcg_data"): "a refaulted folio's memcg",
    ("obj_cgroup", "memcg"): "a refaulted folio's memcg (charged to an "
    "obj_cgroup)",
    ("task_struct", "in_lru_fault"): "a refault in a fault: activated",
    # kswapd's balance_pgdat() runs: the node's zones, free pages and high
    # watermarks, what a run reclaims to (in 6.12 through 7.3)
    ("pglist_data", "node_zones"): "a kswapd run's zones",
    ("zone", "_watermark"): "a kswapd run's target (high watermark)",
    ("zone", "watermark_boost"): "a kswapd run's target (its boost)",
    ("zone", "vm_stat"): "a kswapd run's free pages (NR_FREE_PAGES)",
    ("pglist_data", "vm_stat"): "an OOM node's dirty and writeback pages",
}

# Guarded members that feed no value of their own: the program falls back
# on something it can still say (compat.bpf.h), so no field turns null.
GUARDED_WITH_FALLBACK = {
    ("lru_gen_folio", "nr_pages"): "two array shapes (flavours), one exists",
    ("scan_control", "proactive"): "absent before v6.0: not proactive",
    ("scan_control", "hibernation_mode"): "absent before v5.8: not set",
    ("task_struct", "migration_disabled"): "preemption: cannot tell (-1)",
    # the oom record's LRU (bpf/oom.bpf.c): mem_cgroup_out_of_memory exists
    # without MGLRU, where the record has no generations but still counts
    ("mem_cgroup", "nodeinfo"): "oom record: no generations",
    ("lruvec", "lrugen"): "oom record: no generations (no MGLRU)",
    ("lru_gen_folio", "max_seq"): "oom record: no generations (no MGLRU)",
    ("lru_gen_folio", "min_seq"): "oom record: no generations (no MGLRU)",
    ("lru_gen_folio", "timestamps"): "oom record: no generations",
    ("lru_gen_folio", "enabled"): "oom record: generations read as before "
                                  "(every MGLRU kernel, 6.1 on, has it)",
}

judge = Judge()
check = judge.check


def kernel_fields(header):
    """The 'k' rows of RS_HOOKS: {(struct, member)}."""
    return {tuple(name.split(".")) for _, name, kind in rs_tables.hooks(header)
            if kind == "k"}


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    obj, header, kernels = sys.argv[1], sys.argv[2], sys.argv[3:]
    _btf, relos = core_relocations(obj)
    listed = kernel_fields(header)
    check(len(relos) > 0 and len(listed) > 0,
          f"{len(relos)} field relocations in {os.path.basename(obj)}, "
          f"{len(listed)} kernel fields in RS_HOOKS")

    # per program: which accesses are read, which checked for existence
    reads, guarded = set(), set()
    for section, kind, path in relos:
        if kind == FIELD_EXISTS:
            guarded.add((section, path))
    for section, kind, path in relos:
        if kind != FIELD_EXISTS:
            reads.add((section, path, (section, path) in guarded))

    unguarded = set()  # (section, path)
    problems = []
    for section, path, is_guarded in sorted(reads):
        if is_guarded:
            continue
        unguarded.add((section, path))
        if not all(step in CORE for step in path):
            problems.append(f"{section}: {'.'.join(s + '.' + m for s, m in path)}")
    check(not problems, "every unguarded field read is core "
          f"({len({p for _, p in unguarded})} paths); not: {problems[:5]}")

    for member in sorted(listed):
        progs = {s for s, p, g in reads if p[-1] == member}
        bare = {s for s, p, g in reads if p[-1] == member and not g}
        check(progs and not bare,
              f"{'.'.join(member)}: read by {len(progs)} programs, "
              f"every read guarded ({sorted(bare)[:3]} not)")
    guarded_leaves = {p[-1] for s, p, g in reads if g}
    unlisted = {m for m in guarded_leaves
                if m not in listed and m not in GUARDED_WITH_FALLBACK}
    check(not unlisted, f"every guarded member that feeds a value is a 'k' "
          f"row of RS_HOOKS ({sorted(unlisted)} not)")

    targets = rs_tables.hook_targets()
    hook_fn = {h: name for h, name, kind in rs_tables.hooks(header) if kind == "f"}
    for path in kernels:
        kb = kernel_btf(path)
        name = os.path.basename(os.path.dirname(path)) or path
        # a program whose function or tracepoint is absent is not loaded,
        # nor one whose hook's own function is (the refault hook's programs
        # on workingset_refault need lru_gen_test_recent)
        def loaded(section):
            target = section.partition("/")[2]
            return kb.has_target(section) and all(
                hook_fn[h] in kb.funcs for h in targets.get(target, ())
                if h in hook_fn)
        missing = sorted({f"{s}: {p}" for s, p in unguarded
                          if loaded(s) and not kb.path_exists(p)})
        check(not missing, f"{name}: every unguarded read of a program "
              f"whose hook exists resolves ({missing[:3]} do not)")
        absent = sorted(".".join(m) for m in listed if not kb.has_member(*m))
        print(f"  info  {name}: kernel fields absent: {absent or 'none'}")
    return judge.close("core fields")


if __name__ == "__main__":
    sys.exit(main())
