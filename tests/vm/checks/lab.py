"""Checks of the lab scenario (tests/vm/scenarios/)."""
import os
from .common import (check, consistent, delta, events_of, gens_exact, memcg, oom_ages_exact, read_lru_gen)


def scenario_lab(res, header, summary, rec):
    """A reclaim lab run (scripts/lab): the workload's outcome is in the
    recording, and every memcg it used has exact totals (scan, reclaim,
    refaults, OOM kills, agings: each counter the kernel keeps too) and a
    consistent event stream.  A parent's memory.stat holds its children's
    scans: compared with the sum of ours over its subtree; refaults and OOM
    kills we read from the memcg's own files, compared as they are."""
    outcomes = [l for l in rec if l.get("type") == "outcome"]
    check(any(o.get("worker") is None for o in outcomes),
          f"the workload's outcome is in the recording ({len(outcomes)} records)")
    # pgpgin and pgpgout: /proc/vmstat over the counters' window, less
    # what the tools disk gave (tests/vm/workloads/lab.sh)
    io = {}
    for o in outcomes:
        if o.get("worker") is None:
            io.update((k, o[k]) for k in ("pgpgin_kib", "pgpgout_kib") if k in o)

    def tools_kib(tag):
        with open(os.path.join(res, f"vdc.stat.{tag}")) as f:
            return int(f.read().split()[2]) // 2
    want = {"pgpgin_kib": (delta(res, "vmstat", "pgpgin") - (tools_kib("after") - tools_kib("before")),
                           "/proc/vmstat pgpgin delta less the tools disk's reads"),
            "pgpgout_kib": (delta(res, "vmstat", "pgpgout"), "/proc/vmstat pgpgout delta")}
    for k, (v, what) in want.items():
        check(io.get(k) == v, f"outcome {k} {io.get(k)} == {what} {v}")
    with open(os.path.join(res, "memcgs")) as f:
        paths = ["/" + p for p in f.read().split()]
    mglru = open(os.path.join(res, "lru_gen.enabled")).read().strip() not in ("0x0000", "none")
    key = "isolated" if mglru else "scanned"
    gen_before = read_lru_gen(os.path.join(res, "lru_gen.before"))
    gen_after = read_lru_gen(os.path.join(res, "lru_gen.after"))
    under = lambda p, path: p == path or p.startswith(path + "/")  # noqa: E731
    for path in paths:
        name = path.strip("/").replace("/", "_")
        subtree = [m for m in summary["memcgs"] if under(m["path"], path)]
        # the kernel's subtree counts against the sum of ours, which are
        # each memcg's own
        for counter, stat in ((key, "pgscan"), ("reclaimed", "pgsteal")):
            ours = sum(m[counter] for m in subtree)
            theirs = delta(res, f"memstat.{name}", stat)
            check(ours == theirs, f"{path}: {counter} {ours} == memory.stat {stat} delta {theirs}")
        # refaults and OOM kills are read from the memcg's own files, as
        # the kernel counts them there (v2: its subtree's)
        m = memcg(summary, path)
        for counter, stat, file in (("refaults_anon", "workingset_refault_anon", "memstat"),
                                    ("refaults_file", "workingset_refault_file", "memstat"),
                                    ("oom_kills", "oom_kill", "memevents")):
            ours = m[counter] if m else 0
            theirs = delta(res, f"{file}.{name}", stat)
            check(ours == theirs, f"{path}: {counter} {ours} == {file} {stat} delta {theirs}")
        # lru_gen: each memcg's own max_seq
        advance = sum(gen_after.get(k, 0) - gen_before.get(k, 0)
                      for k in gen_after if under(k[0], path))
        ours = sum(m["agings"] for m in subtree)
        check(ours == advance, f"{path}: agings {ours} == lru_gen max_seq advance {advance}")
        if m:
            consistent(rec, m)
        # the generation timelines (schema 5 on): each memcg of the
        # subtree that reclaimed, against lru_gen after the workload
        if mglru and header.get("schema", 0) >= 5:
            for sm in subtree:
                if sm["passes"] or sm["agings"]:
                    gens_exact(res, sm)
                # each OOM's generations' ages (written since the OOM
                # record read the births; a run made before has none)
                ooms = events_of(rec, "oom", sm["id"])
                if any("age_ms" in g for e in ooms
                       for g in e.get("generations") or []):
                    oom_ages_exact(res, sm, ooms)
