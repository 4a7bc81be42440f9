"""Checks of the copies scenario (tests/vm/scenarios/)."""
import json
import os
from .common import (check, load_recording, memcg, read_kv)


def copies_misses_by_hook(path):
    """recursion_misses of each program (bpftool prog show --json), summed
    over a program's copies: {program: misses}, those with any, most
    first."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        progs = json.load(f)
    out = {}
    for p in progs:
        name = p.get("name", "")
        if not name.startswith("rs_") or not p.get("recursion_misses"):
            continue
        base = name[:-2] if name[-2:-1] == "_" and name[-1].isdigit() else name
        out[base] = out.get(base, 0) + p["recursion_misses"]
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def scenario_copies(res, header, summary, rec):
    """Issue 20's copy count: per `--copies N`, the events the kernel's
    skips lost (summary "missed"), the skipped runs and the programs most
    of them fell on, and whether every memcg's totals still equal its
    memory.stat.  Figures for BENCHMARKS.md (copies.json); five copies,
    what record attaches by default, must lose nothing."""
    rows = []
    for n in (1, 2, 3, 5):
        path = os.path.join(res, "rec.ndjson" if n == 5 else f"rec.c{n}.ndjson")
        lines = load_recording(path)
        head = next((l for l in lines if l.get("type") == "header"), {})
        summ = next((l for l in lines if l.get("type") == "summary"), None)
        status = os.path.join(res, "record.status" if n == 5
                              else f"record.c{n}.status")
        status = open(status).read().strip() if os.path.exists(status) else None
        if not check(summ is not None and head.get("copies") == n and
                     status == "record exit 0",
                     f"--copies {n}: a whole recording that says so "
                     f"({head.get('copies')}, {status})"):
            continue
        wrong, pages = [], 0
        for i in range(1, 9):
            m = memcg(summ, f"/c{n}/t{i}")
            name = f"c{n}_t{i}"
            before = read_kv(os.path.join(res, f"memstat.{name}.before.c{n}"))
            after = read_kv(os.path.join(res, f"memstat.{name}.after.c{n}"))
            for ours, theirs in (("isolated", "pgscan"), ("reclaimed", "pgsteal")):
                want = after[theirs] - before[theirs]
                got = m[ours] if m else None
                pages += want if ours == "isolated" else 0
                if got != want:
                    wrong.append(f"t{i} {ours} {got} != {want}")
        skipped = copies_misses_by_hook(os.path.join(res, f"progs.c{n}.json"))
        if n == 1:  # no later copy makes a skipped run up
            check(sum(skipped.values()) == summ.get("missed"),
                  f"--copies 1: events lost {summ.get('missed')} == the "
                  f"kernel's skipped runs (bpftool) {sum(skipped.values())}")
        rows.append({"copies": n, "missed": summ.get("missed"),
                     "skipped_runs": sum(skipped.values()),
                     "skipped_most": list(skipped.items())[:3],
                     "pages_scanned": pages,
                     "memcgs_wrong": len({w.split()[0] for w in wrong})})
        print(f"  info  --copies {n}: {summ.get('missed')} events lost, "
              f"{pages} pages scanned, totals wrong in {wrong[:4] or 'none'}; "
              f"runs skipped {sum(skipped.values())}, most in "
              f"{list(skipped.items())[:3]}")
        if n == 5:
            check(summ.get("missed") == 0 and not wrong,
                  f"--copies 5 (the default): nothing lost, every total "
                  f"exact ({summ.get('missed')} lost, {wrong[:3]})")
    with open(os.path.join(res, "copies.json"), "w") as f:
        json.dump(rows, f)
