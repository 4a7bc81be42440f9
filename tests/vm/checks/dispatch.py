"""Checks of the dispatch scenario (tests/vm/scenarios/dispatch.sh): issue
33's measurement of one copy per point by programs the kernel runs with
preemption off.  Figures, not verdicts: the checks only hold that every
mode ran every round and that each counter ran on its points; the figures
go to dispatch.json for BENCHMARKS.md."""
import json
import os
import statistics
from .common import check, judge, load_ndjson

MODES = ("none", "agg", "fair", "fair5", "nopreempt", "kfunctions", "ptracepoints",
         "empty", "empty5", "nopreempt-empty")
SMOKE_MODES = ("none", "fair", "nopreempt")  # rs.bench_smoke=1: tiny, fewer modes


def counters(path):
    """rs-bench attach's output: {program: {runs, run_ns, skipped}}."""
    if not os.path.exists(path) or not os.path.getsize(path):
        return None
    with open(path) as f:
        return {p["prog"]: p for p in json.load(f)["programs"]}


def scenario_dispatch(res, header, summary, rec):
    rows = load_ndjson(judge, os.path.join(res, "dispatch.jsonl"))
    smoke = os.path.exists(os.path.join(res, "smoke"))
    modes = SMOKE_MODES if smoke else MODES
    per_mode = {m: [r for r in rows if r["mode"] == m] for m in modes}
    counts = {m: len(v) for m, v in per_mode.items()}
    if not check(min(counts.values()) >= 1 and len(set(counts.values())) == 1,
                 f"every mode ran every round ({counts})"):
        return
    wall = {m: statistics.median(r["wall_s"] for r in v) for m, v in per_mode.items()}
    spread = {m: (min(r["wall_s"] for r in v), max(r["wall_s"] for r in v))
              for m, v in per_mode.items()}
    rounds = counts["none"]
    # the rounds run without the kernel's statistics (no mode pays them):
    # rs-bench's reports say only that its programs were there
    for m in modes:
        if m in ("none", "agg"):
            continue
        for r in range(1, rounds + 1):
            c = counters(os.path.join(res, f"cost.{m}.{r}.json"))
            check(c is not None and len(c) > 0,
                  f"{m}, round {r}: its programs were attached and reported")
    skips = {}
    for m in ("fair", "nopreempt"):
        c = counters(os.path.join(res, f"skips.{m}.json"))
        if not check(c is not None and (sum(p["runs"] for p in c.values()) > 0 or smoke),
                     f"skips beside record: {m}'s counters ran and reported"):
            continue
        skips[m] = {"runs": sum(p["runs"] for p in c.values()),
                    "skipped": sum(p["skipped"] for p in c.values()),
                    "by_program": {k: p["skipped"] for k, p in c.items() if p["skipped"]}}
    ks = [p for p in (counters(os.path.join(res, "cost.nopreempt.1.json")) or {})
          if p.startswith("rs_fair_ksession")]
    check(len(ks) == 1, f"one kprobe-session program on the functions ({ks})")
    base = wall["none"]
    out = {"rounds": rounds, "smoke": smoke, "wall_s": wall, "spread_s": spread,
           "over_none_s": {m: wall[m] - base for m in modes},
           "skips": skips}
    with open(os.path.join(res, "dispatch.json"), "w") as f:
        json.dump(out, f, indent=1)
    fl = wall["fair"] - base
    for m in modes:
        over = wall[m] - base
        print(f"  {m:10s} median {wall[m]:.4f} s ({spread[m][0]:.4f}-{spread[m][1]:.4f}),"
              f" +{over:.4f} s over none" + (f", {over / fl:.2f}x the floor's" if fl > 0 else ""))
    for m, s in skips.items():
        print(f"  beside record, 8 reclaimers: {m}: {s['skipped']} of "
              f"{s['runs'] + s['skipped']} runs skipped {s['by_program']}")
