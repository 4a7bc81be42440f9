"""Checks of the mix scenario (tests/vm/scenarios/)."""
import os
from .common import (check, consistent, daemon_cgroupfs, delta, events_of, exact_totals, memcg, oom_ages_exact, parse_metrics, refaults_exact)


def scenario_mix(res, header, summary, rec):
    m = memcg(summary, "/mix")
    if not check(m is not None, "memcg /mix is in the summary"):
        return
    exact_totals(res, m, gone=False)
    oom = delta(res, "memevents.mix", "oom_kill")
    print(f"  info  /mix: agings {m['agings']} ({m['aging_time']} ns), "
          f"OOM kills {m['oom_kills']} (memory.events {oom})")
    check(oom > 0, "more anon than the limit got a task OOM-killed")
    check(m["oom_kills"] == oom, "oom_kills == memory.events oom_kill delta")
    # the LRU at each OOM: one record per mem_cgroup_out_of_memory() call,
    # which the kernel counts as memory.events "oom"
    ooms = delta(res, "memevents.mix", "oom")
    check(m["ooms"] == ooms, f"ooms {m['ooms']} == memory.events oom delta {ooms}")
    recs = events_of(rec, "oom", m["id"])
    check(len(recs) == m["ooms"], f"one oom record per OOM ({len(recs)})")
    check(recs and all(e.get("generations") and any(
        g["anon"] or g["file"] for g in e["generations"]) for e in recs),
        "every oom record shows the memcg's populated generations")
    for e in recs[:3]:
        print(f"  info  OOM: killed {e['killed']}, generations "
              + " ".join(f"{g['seq']}:{g['anon']}a/{g['file']}f"
                         for g in e["generations"])
              + f", last pass {e.get('last_pass_exit')}")
    oom_context(res, recs)
    if header.get("mglru"):
        check(oom_ages_exact(res, m, recs) > 0,
              "some OOM's generations held to the agings that bore them")
    refaults_exact(res, m, header)
    check(m["agings"] > 0 and m["aging_time"] > 0, "agings with their durations")
    ag = [e for e in events_of(rec, "aging", m["id"]) if e["success"]]
    check(all(e["duration_ns"] > 0 for e in ag), "every aging has a duration")
    check(all(any(g["anon"] or g["file"] for g in e["generations"]) for e in ag),
          "every aging shows populated generations")
    consistent(rec, m)
    daemon_cgroupfs(res, ["/mix"])
    # /metrics: how many tasks stalled in /mix, without a label per task
    with open(os.path.join(res, "metrics.after.txt")) as f:
        served = [v for n, labels, v in parse_metrics(f.read())
                  if n == "reclaimscope_memcg_stalled_tasks"
                  and labels.get("memcg") == "/mix"]
    tids = {s["tid"] for s in summary["stalls"] if s["id"] == m["id"]}
    check(served == [len(tids)], f"daemon: stalled tasks of /mix {served} == "
          f"the recording's distinct tasks there ({len(tids)})")
    # the two readers, named by the program's name they ran under (mix.sh):
    # each its own stalls, in /mix
    for comm in ("stall-a", "stall-b"):
        mine = [s for s in summary["stalls"]
                if s["comm"] == comm and s["id"] == m["id"]]
        check(mine and sum(s["count"] for s in mine) > 0
              and len({s["tid"] for s in mine}) == 1,
              f"task {comm}: its own stalls in /mix, under one task id "
              f"({[(s['kind'], s['count'], s['total_ns']) for s in mine]})")


def oom_context(res, recs):
    """What an OOM record says beside the LRU: the last pass's dirty and
    writeback folios (reclaim_stat, among what it isolated), the machine's
    swap (by kallsyms: present exactly when the kernel names both symbols,
    its total equal to /proc/meminfo's, which no OOM changes), and the
    node's dirty and writeback pages."""
    with_pass = [e for e in recs if "last_pass_isolated" in e]
    check(with_pass and all("last_pass_dirty" in e and "last_pass_writeback" in e
                            for e in with_pass),
          f"the last pass's dirty and writeback in every record with a last "
          f"pass ({len(with_pass)} of {len(recs)})")
    check(all(e["last_pass_dirty"] <= e["last_pass_isolated"] and
              e["last_pass_writeback"] <= e["last_pass_isolated"] for e in with_pass),
          "dirty and writeback folios are among those the pass isolated ("
          + ", ".join(f"{e['last_pass_dirty']}/{e['last_pass_writeback']} of "
                      f"{e['last_pass_isolated']}" for e in with_pass[:3]) + ")")
    path = os.path.join(res, "kallsyms.swap")
    names = open(path).read().split() if os.path.exists(path) else []
    named = "nr_swap_pages" in names and "total_swap_pages" in names
    check(all(("swap_free" in e) == named for e in recs),
          f"swap known in the records exactly when kallsyms names it ({named})")
    if named:
        with open(os.path.join(res, "meminfo.after")) as f:
            total = next((int(line.split()[1]) for line in f
                          if line.startswith("SwapTotal:")), -1)
        check(all(e["swap_total"] * 4 == total and 0 <= e["swap_free"] <= e["swap_total"]
                  for e in recs),
              f"swap_total == /proc/meminfo SwapTotal ({total} kB), free within it")
    check(all(e.get("node_dirty", -1) >= 0 and e.get("node_writeback", -1) >= 0
              for e in recs),
          "the node's dirty and writeback pages in every record ("
          + ", ".join(f"{e.get('node_dirty')}/{e.get('node_writeback')}"
                      for e in recs[:3]) + ")")
