"""Checks of the core scenario (tests/vm/scenarios/)."""
from .common import (MISSION_HOOKS, check, consistent, exact_totals, kernel_expectations, memcg)


def scenario_core(res, header, summary, rec):
    kernel_expectations(res, header, summary, "/test")
    hooks = header["hooks"]
    for h in MISSION_HOOKS:
        check(hooks.get(h) == "attached", f"hook {h} attached ({hooks.get(h)})")
    check(header.get("mglru") is True, "MGLRU enabled in the guest")
    check(header.get("series") is True, "kernel has the reclaim series")

    m = memcg(summary, "/test")
    if not check(m is not None, "memcg /test is in the summary"):
        return
    exact_totals(res, m)
    # attached is not enough: a function in BTF may be inlined where the
    # pass calls it; these ran inside /test's passes
    check(m["abort_checks"] > 0,
          f"should_abort_scan seen in the passes ({m['abort_checks']} calls)")
    # its workload maps 16 MiB of anon and its file: aging walks them (an
    # mm under 64 resident pages, such as dd's in wbstorm, is skipped)
    check(m["walk_ptes"] > 0 and m["walk_young"] > 0,
          f"the aging walked page tables ({m['walk_ptes']} entries, "
          f"{m['walk_young']} young)")
    check(m["budget_kernel_passes"] > 0,
          f"apply_proportional_protection seen in the passes "
          f"({m['budget_kernel_passes']} of {m['passes']})")
    # /test is removed before the end: its memory.stat after the last
    # sample is gone with it (documented), so refaults are judged in "mix"
    check(m["passes"] > 0, f"passes {m['passes']} > 0")
    check(m["budget_used"] > 0, f"budget_used {m['budget_used']} > 0")
    check(m["budget"] is not None and m["budget"] > 0, f"budget {m['budget']} > 0")

    consistent(rec, m)
