"""Checks of the bench scenario (tests/vm/scenarios/)."""
import json
import os
from .common import (check, daemon_exited_ok, exact_totals, hook_cost_checks, judge, load_ndjson, memcg, parse_metrics)


def scenario_bench(res, header, summary, rec):
    """The VM part of make bench: complete figures (not judged: they are
    emulated and noisy), and the daemon's hook cost metrics equal to the
    kernel's own timing of its programs, fentry hooks included."""
    lines = load_ndjson(judge, os.path.join(res, "bench.jsonl"))
    check(any(l["kind"] == "machine" and l.get("vm") for l in lines),
          "bench.jsonl names the machine")
    work = [l for l in lines if l["kind"] == "workload"]
    for wl in ("readlat", "reclaimloop"):
        per_mode = {m: [l for l in work if l["workload"] == wl and l["mode"] == m]
                    for m in ("none", "agg", "stream", "fair")}
        counts = {m: len(v) for m, v in per_mode.items()}
        check(min(counts.values()) >= 1 and len(set(counts.values())) == 1,
              f"{wl}: every mode ran every round ({counts})")
        check(all(l["wall_s"] > 0 and l["cpu_s"] >= 0 and l["reclaimed"] > 0
                  for v in per_mode.values() for l in v),
              f"{wl}: every run reclaimed and was timed")
    costs = {}
    for mode in ("control", "agg", "stream", "fair"):
        with open(os.path.join(res, f"progs.{mode}.json")) as f:
            costs[mode] = {p["name"]: p for p in json.load(f)}
    # the fair peer: one counter on each distinct point of record's programs
    with open(os.path.join(res, "points.json")) as f:
        points = {(p["kind"], p["target"]) for p in json.load(f)["points"]}
    with open(os.path.join(res, "points.agg.json")) as f:
        agg_points = {(p["kind"], p["target"]) for p in json.load(f)["points"]}
    with open(os.path.join(res, "fair.cost.json")) as f:
        fair = {(p["kind"], p["target"]): p for p in json.load(f)["programs"]}
    check(("fentry", "try_to_shrink_lruvec") in points and
          ("tp", "mm_vmscan_lru_isolate") in points,
          f"record's points listed, fentry and tracepoints ({len(points)})")
    check(set(fair) == points == agg_points,
          f"the fair peer sat on every point of record's and no other "
          f"({sorted(points ^ set(fair))})")
    ran = fair.get(("fentry", "try_to_shrink_lruvec"), {}).get("runs", 0)
    check(ran > 0, f"the fair peer's counter on try_to_shrink_lruvec ran ({ran})")
    # record --refaults: the opt-in hook's programs are on their points, and ran
    with open(os.path.join(res, "points.refaults.json")) as f:
        opt_points = {(p["kind"], p["target"]): p["prog_id"]
                      for p in json.load(f)["points"]}
    with open(os.path.join(res, "progs.refaults.json")) as f:
        opt_runs = {p["id"]: p.get("run_cnt", 0) for p in json.load(f)}
    want = {("fexit", "lru_gen_test_recent"), ("fentry", "workingset_refault"),
            ("fexit", "workingset_refault")}
    check(want <= set(opt_points) and all(opt_runs.get(opt_points[p], 0) > 0
                                          for p in want),
          f"record --refaults: the refault programs attached and ran "
          f"({[opt_runs.get(opt_points.get(p), 0) for p in sorted(want)]})")
    agg = costs["agg"]
    for prog in ("rs_pass_enter", "rs_pass_exit", "rs_lru_isolate"):
        check(agg.get(prog, {}).get("run_cnt", 0) > 0,
              f"{prog} ran and was timed ({agg.get(prog, {}).get('run_cnt')})")
    check(any(n.startswith("rs_empty_") and p.get("run_cnt", 0) > 0
              for n, p in costs["control"].items()),
          "the empty control programs ran")
    probe = json.load(open(os.path.join(res, "probe.json")))
    with open(os.path.join(res, "daemon-prog-ids.txt")) as f:
        ids = {int(i) for i in f.read().split()}
    with open(os.path.join(res, "metrics.cost.txt")) as f:
        samples = parse_metrics(f.read(), judge)
    hook_cost_checks(judge, probe, samples,
                     json.load(open(os.path.join(res, "progs.before.json"))),
                     json.load(open(os.path.join(res, "progs.after.json"))), ids)
    daemon_exited_ok(res)
    m = memcg(summary, "/pro")
    if check(m is not None, "memcg /pro is in the summary"):
        exact_totals(res, m, gone=False)
