"""Checks of the tenants, tenants-legacy scenarios (tests/vm/scenarios/)."""
import json
import os
from .common import (check, consistent, daemon_cgroupfs, delta, exact_totals, memcg)


def scenario_tenants(res, header, summary, rec):
    kids = [memcg(summary, f"/tenants/t{i}") for i in range(1, 9)]
    if not check(all(kids), "all 8 tenants are in the summary"):
        return
    # more memcgs than a cgroup iterator's read buffer holds records of:
    # the tiers and generations below were read all the same
    with open(os.path.join(res, "lru_gen.after")) as f:
        listed = sum(1 for line in f if line.startswith("memcg "))
    with open(os.path.join(res, "record.err")) as f:
        err = f.read()
    check(listed > 128 and "were not read" not in err
          and "generations failed" not in err,
          f"the tier iterator walked {listed} memcgs, past its read "
          f"buffer's 68 records, and said no failure")
    for m in kids:
        exact_totals(res, m, gone=False)
        check(m["passes"] > 0, f"{m['path']}: reclaim passes reached it")
        consistent(rec, m)
    # memory.stat is hierarchical: the parent's counts are its children's
    parent_scan = delta(res, "memstat.tenants", "pgscan")
    parent_steal = delta(res, "memstat.tenants", "pgsteal")
    own = memcg(summary, "/tenants")
    own_isolated = own["isolated"] if own else 0
    check(sum(m["isolated"] for m in kids) + own_isolated == parent_scan,
          f"children's isolated add up to the parent's pgscan ({parent_scan})")
    check(sum(m["reclaimed"] for m in kids) + (own["reclaimed"] if own else 0)
          == parent_steal,
          f"children's reclaimed add up to the parent's pgsteal ({parent_steal})")
    check(summary.get("agg_spilled", 0) > 0,
          f"with room for 16 cells, the rest went to the reserve "
          f"({summary.get('agg_spilled')} cells), and every total above is "
          f"exact")
    daemon_cgroupfs(res, ["/tenants"] + [m["path"] for m in kids])


def scenario_tenants_legacy(res, header, summary, rec):
    """tenants on 6.12, whose tracepoints run their programs with
    preemption off: one copy of each tracepoint program (RS_PROGS), and
    eight reclaimers on two CPUs still lose no run (common checks missed)."""
    probe = json.load(open(os.path.join(res, "probe.json")))
    check(probe.get("tracepoint_preemption") == "off",
          f"the probe finds preemption off in tracepoints "
          f"({probe.get('tracepoint_preemption')}: "
          f"{probe.get('tracepoint_preemption_why')})")
    check(probe.get("tracepoint_copies") == 1,
          f"one copy of each tracepoint program "
          f"({probe.get('tracepoint_copies')})")
    scenario_tenants(res, header, summary, rec)
