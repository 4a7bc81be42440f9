"""Checks of the wbstorm scenario (tests/vm/scenarios/)."""
import json
import os
from .common import (check, consistent, daemon_exited_ok, delta, exact_totals, memcg, metric_total, parse_metrics, rs_tables)


def scenario_wbstorm(res, header, summary, rec):
    m = memcg(summary, "/wb")
    if not check(m is not None, "memcg /wb is in the summary"):
        return
    check(open(os.path.join(res, "dd.status")).read().strip() == "0",
          "dd finished")
    # the scenario's premise, from the kernel's trace: reclaim met the
    # dirty folios before any background writeback could
    with open(os.path.join(res, "writeback-order.txt")) as f:
        order = [line for line in f if "writeback_start" in line
                 or "memcg_reclaim_begin" in line]
    check(order and "memcg_reclaim_begin" in order[0],
          f"no background writeback before the first memcg reclaim "
          f"(kernel trace: {order[:1]})")
    exact_totals(res, m, gone=False)
    print(f"  info  /wb: flusher wakeups {m['flusher_wakeups']}, throttles "
          f"{m['throttles']} ({m['throttled']} us), dirty {m['dirty']}, "
          f"unqueued dirty {m['unqueued_dirty']}")
    check(m["flusher_wakeups"] > 0, "reclaim woke the flushers")
    check(m["throttles"] > 0, "reclaim was throttled")
    check(header.get("budget_ns") == 3_300_000 and m["throttles_over_budget"] > 0,
          f"throttles over the 3.3 ms budget counted ({m['throttles_over_budget']} "
          f"of {m['throttles']})")
    check(m["dirty"] > 0 and m["unqueued_dirty"] > 0,
          "reclaim met dirty, unqueued folios")
    check(m["isolated"] > 10 * m["reclaimed"],
          "isolated far above reclaimed: the dirty-folio scan storm")
    oom = delta(res, "memevents.wb", "oom_kill")
    check(oom == 0, f"no OOM kill ({oom})")
    calls = summary.get("flusher_calls", {}).get("vmscan", 0)
    check(calls >= m["flusher_wakeups"],
          f"wakeup_flusher_threads(WB_REASON_VMSCAN) calls {calls} >= wakeups")
    consistent(rec, m)
    daemon_views(res, m)


def daemon_views(res, m):
    """The daemon's /metrics and top's batch frames, from inside the guest,
    during the same run as the recording."""
    path = m["path"]
    daemon_exited_ok(res)
    with open(os.path.join(res, "metrics.after.txt")) as f:
        samples = parse_metrics(f.read())
    # (metric, summary key): series the scenario is about, equal to the
    # recording's totals (nothing reclaims between the two reads)
    for name, key in (("reclaimscope_scanned_pages_total", "scanned"),
                      ("reclaimscope_isolated_pages_total", "isolated"),
                      ("reclaimscope_reclaimed_pages_total", "reclaimed"),
                      ("reclaimscope_agings_total", "agings"),
                      ("reclaimscope_passes_total", "passes"),
                      ("reclaimscope_flusher_wakeups_total", "flusher_wakeups"),
                      ("reclaimscope_throttles_total", "throttles")):
        got = metric_total(samples, name, path)
        check(got == m[key] and got > 0,
              f"/metrics {name}{{memcg={path}}} {got:.0f} == summary {key} {m[key]}")
    got = metric_total(samples, "reclaimscope_throttle_duration_seconds_count", path)
    check(got == m["throttles"], f"throttle delay histogram counts {got:.0f} throttles")
    with open(os.path.join(res, "api.after.json")) as f:
        api = json.load(f)
    check(api["header"]["schema"] == rs_tables.schema() and api["summary"]["type"] == "summary",
          "the JSON API answers with a header and a summary")
    # the tiers: each non-zero counter a series, equal to the API's (both
    # read the same model; the tiers are state, quiet after the workload)
    served = next((e for e in api["summary"]["memcgs"] if e["path"] == path),
                  None)
    tiers = (served or {}).get("tiers")
    want = {(t, str(i), k): v for t in ("anon", "file")
            for i, e in enumerate((tiers or {}).get(t, []))
            for k, v in e.items() if v}
    got = {(lb["type"], lb["tier"], lb["counter"]): v
           for name, lb, v in samples
           if name == "reclaimscope_mglru_tier_pages" and lb.get("memcg") == path}
    check(tiers is not None and want and got == want,
          f"/metrics reclaimscope_mglru_tier_pages{{memcg={path}}}: "
          f"{len(got)} series == the API's non-zero tier counters ({len(want)})")
    # the API's catalogue rows (?metrics=1): the same totals the recording
    # has (which equal memory.stat and lru_gen above), and one derived row
    with open(os.path.join(res, "api-metrics.after.json")) as f:
        rows = next((e.get("metrics") for e in json.load(f)["summary"]["memcgs"]
                     if e["path"] == path), None) or {}
    wrong = [(row, rows.get(row), m[key]) for row, key in
             (("scanned", "scanned"), ("isolated", "isolated"),
              ("reclaimed", "reclaimed"), ("passes", "passes"),
              ("agings", "agings"), ("throttles", "throttles"),
              ("flusher_wakeups", "flusher_wakeups"))
             if rows.get(row) != m[key]]
    eff = rows.get("efficiency")
    check(rows and not wrong and eff is not None
          and abs(eff - 100 * m["reclaimed"] / m["isolated"]) < 1e-9,
          f"API ?metrics=1 for {path}: the rows equal the summary's counts, "
          f"efficiency {eff} (wrong: {wrong[:3]})")
    # top's frames: MGLRU columns filled on the series kernel
    check(open(os.path.join(res, "top.status")).read().strip() == "top exit 0",
          "top -b exited 0 on SIGINT")
    # top's tasks table (--tasks): dd, the one task writing, stalled in /wb
    with open(os.path.join(res, "top-batch.txt")) as f:
        tasks = [line.split() for line in f if line.startswith("dd (")]
    check(tasks and all(t[-1] == path and t[3] in ("memcg", "throttle")
                        and float(t[4]) > 0 for t in tasks),
          f"top -b --tasks: dd's stalls in {path}, each line a rate of them "
          f"({len(tasks)} lines; {tasks[:2]})")
    with open(os.path.join(res, "top-batch.txt")) as f:
        frames = f.read().strip().split("\n\n")
    rows = []
    for frame in frames:
        lines = frame.splitlines()
        heads = [line for line in lines if line.startswith("MEMCG")]
        for line in lines:
            if heads and line.split() and line.split()[0] == path:
                rows.append(dict(zip(heads[0].split()[1:], line.split()[1:])))
    check(len(rows) > 0, f"top -b shows {path} in {len(rows)} frames")
    cols = ("passes/s", "agings/s", "budget%", "flusher_wakeups/s", "throttles/s")
    check(rows and all(r.get(c) != "n/a" for r in rows for c in cols),
          "top -b: the MGLRU columns are filled (never n/a) on the series kernel")
    check(any(float(r.get("passes/s", "0").replace("-", "0")) > 0 for r in rows),
          "top -b: some frame shows passes per second")
