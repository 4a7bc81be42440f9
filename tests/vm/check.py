#!/usr/bin/env python3
"""Judge a VM scenario's recording against the kernel's own counters.

usage: check.py SCENARIO RESULTS_DIR

Every scenario: the guest finished, `record` exited 0, the recording parses
line by line, starts with a header and ends with a summary, and no record was
dropped.  Then the scenario's own assertions.  Prints each check and exits 1
if any failed.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from judge import Judge, load_ndjson, read_kv  # noqa: E402

judge = Judge()
check = judge.check


def read_lru_gen(path):
    """/sys/kernel/debug/lru_gen: {(memcg_path, node): max_seq}."""
    out = {}
    memcg = node = None
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "memcg":
                memcg = parts[2] if len(parts) > 2 else "/"
            elif parts[0] == "node":
                node = int(parts[1])
            elif parts[0].isdigit() and memcg is not None:
                key = (memcg, node)
                out[key] = max(out.get(key, 0), int(parts[0]))
    return out


def load_recording(path):
    if not check(os.path.exists(path), f"{os.path.basename(path)} exists"):
        return []
    return load_ndjson(judge, path)


def memcg(summary, path):
    for m in summary["memcgs"]:
        if m["path"] == path:
            return m
    return None


def delta(res, name, tag_key):
    before = read_kv(os.path.join(res, f"{name}.before"))
    after = read_kv(os.path.join(res, f"{name}.after"))
    return after.get(tag_key, 0) - before.get(tag_key, 0)


MISSION_HOOKS = [
    "try_to_shrink_lruvec", "evict_folios", "lruvec_evictable_size",
    "try_to_inc_max_seq", "try_to_inc_min_seq", "handle_reclaim_writeback",
    "wakeup_flusher_threads", "mm_vmscan_lru_isolate",
    "mm_vmscan_lru_shrink_inactive", "mm_vmscan_throttled",
    "mm_vmscan_memcg_reclaim", "mm_vmscan_direct_reclaim",
]


def common(res):
    with open(os.path.join(res, "status")) as f:
        status = f.read().strip()
    check(status == "0", f"guest scenario exited 0 (got {status})")
    rec_status = open(os.path.join(res, "record.status")).read().strip() \
        if os.path.exists(os.path.join(res, "record.status")) else "none"
    check(rec_status == "record exit 0", f"record exited 0 ({rec_status})")
    rec = load_recording(os.path.join(res, "rec.ndjson"))
    if not check(len(rec) >= 2, "recording has a header and a summary"):
        return None, None, rec
    header, summary = rec[0], rec[-1]
    check(header.get("type") == "header" and header.get("schema") == 1,
          "first line is a schema-1 header")
    check(summary.get("type") == "summary", "last line is the summary")
    check(summary.get("drops") == 0, f"no record dropped ({summary.get('drops')})")
    check(summary.get("agg_full") == 0, "aggregation map never full")
    check(summary.get("state_misses") == 0, "per-task state always available")
    return header, summary, rec


def exact_totals(res, m):
    """isolated/reclaimed/agings against memory.stat and lru_gen."""
    pgscan = delta(res, "memstat.test", "pgscan")
    pgsteal = delta(res, "memstat.test", "pgsteal")
    print(f"  info  /test: isolated {m['isolated']} pgscan {pgscan}, "
          f"reclaimed {m['reclaimed']} pgsteal {pgsteal}, "
          f"shrinks {m['shrinks']} agings {m['agings']}")
    check(pgscan > 0, "the workload made the kernel scan (pgscan > 0)")
    check(m["isolated"] == pgscan, f"isolated {m['isolated']} == memory.stat pgscan delta {pgscan}")
    check(m["reclaimed"] == pgsteal, f"reclaimed {m['reclaimed']} == memory.stat pgsteal delta {pgsteal}")

    before = read_lru_gen(os.path.join(res, "lru_gen.before"))
    after = read_lru_gen(os.path.join(res, "lru_gen.after"))
    advance = sum(after.get(k, 0) - before.get(k, 0)
                  for k in after if k[0] == "/test")
    check(advance > 0, f"the workload aged the memcg (max_seq advanced {advance})")
    check(m["agings"] == advance, f"agings {m['agings']} == lru_gen max_seq advance {advance}")
    check(m.get("gone") is True, "the removed memcg is marked gone, path kept")


def scenario_core(res, header, summary, rec):
    hooks = header["hooks"]
    for h in MISSION_HOOKS:
        check(hooks.get(h) == "attached", f"hook {h} attached ({hooks.get(h)})")
    check(header.get("mglru") is True, "MGLRU enabled in the guest")
    check(header.get("series") is True, "kernel has the reclaim series")

    m = memcg(summary, "/test")
    if not check(m is not None, "memcg /test is in the summary"):
        return
    exact_totals(res, m)
    check(m["shrinks"] > 0, f"shrinks {m['shrinks']} > 0")
    check(m["budget_used"] > 0, f"budget_used {m['budget_used']} > 0")
    check(m["budget"] is not None and m["budget"] > 0, f"budget {m['budget']} > 0")

    # the event stream agrees with the in-kernel totals when nothing dropped
    shrink_events = [e for e in rec if e.get("type") == "event"
                     and e.get("kind") == "shrink" and e.get("id") == m["id"]]
    check(len(shrink_events) == m["shrinks"],
          f"one shrink record per pass ({len(shrink_events)} == {m['shrinks']})")
    check(sum(e["budget_used"] for e in shrink_events) == m["budget_used"],
          "shrink records add up to budget_used")
    exits = sum(m[k] for k in ("exit_budget", "exit_no_progress", "exit_target",
                               "exit_below_min", "exit_after_aging",
                               "exit_other"))
    check(exits == m["shrinks"], f"exit reasons add up to the passes ({exits})")
    aging_events = [e for e in rec if e.get("type") == "event"
                    and e.get("kind") == "aging" and e.get("id") == m["id"]]
    check(sum(1 for e in aging_events if e["success"]) == m["agings"],
          "successful aging records == agings")
    check(all(e["generations"] for e in aging_events if e["success"]),
          "every successful aging lists generation sizes")


def scenario_legacy(res, header, summary, rec):
    """A pre-series kernel: the series' hooks are missing, said so, and
    their values are null; everything else still adds up exactly."""
    hooks = header["hooks"]
    check(header.get("series") is False, "kernel predates the series")
    for h in ("handle_reclaim_writeback", "lruvec_evictable_size"):
        check(hooks.get(h) == "missing", f"hook {h} is missing ({hooks.get(h)})")
    # these exist with other prototypes: the right variant must load
    for h in ("try_to_shrink_lruvec", "evict_folios", "try_to_inc_max_seq",
              "mm_vmscan_lru_isolate", "mm_vmscan_memcg_reclaim"):
        check(hooks.get(h) == "attached", f"hook {h} attached ({hooks.get(h)})")
    m = memcg(summary, "/test")
    if not check(m is not None, "memcg /test is in the summary"):
        return
    exact_totals(res, m)
    check(m["budget"] is None, "budget is null, not 0, without the series")
    check(m["flusher_wakeups"] is None, "flusher_wakeups is null without the series")
    # inlined in 6.12: missing, and its count null rather than 0
    if hooks.get("try_to_inc_min_seq") == "missing":
        check(m["min_seq_advances"] is None, "min_seq_advances is null")
    check(m["shrinks"] > 0 and m["batches"] > 0, "passes and batches are counted")
    check(m["budget_used"] > 0, "budget_used (evict_folios returns) counted")
    shrink_events = [e for e in rec if e.get("type") == "event"
                     and e.get("kind") == "shrink" and e.get("id") == m["id"]]
    check(all(e["budget"] is None for e in shrink_events),
          "shrink records carry no budget")


SCENARIOS = {
    "core": scenario_core,
    "legacy": scenario_legacy,
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SCENARIOS:
        print(__doc__, file=sys.stderr)
        return 2
    name, res = sys.argv[1], sys.argv[2]
    print(f"check {name}:")
    header, summary, rec = common(res)
    if header and summary:
        SCENARIOS[name](res, header, summary, rec)
    return judge.close(f"check {name}")


if __name__ == "__main__":
    sys.exit(main())
