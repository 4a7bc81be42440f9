"""Checks of the stalls scenario (tests/vm/scenarios/)."""
import os
from .common import (check, load_recording, memcg)


def scenario_stalls(res, header, summary, rec):
    """100,000 short-lived threads, each a proactive reclaim stall of its
    own in /st.  common() has checked that nothing was lost and that the
    tasks' counts add up to the memcg's."""
    m = memcg(summary, "/st")
    if not check(m is not None, "memcg /st is in the summary"):
        return
    n = int(open(os.path.join(res, "threads.txt")).read().strip() or 0)
    secs = open(os.path.join(res, "stallers.seconds")).read().strip()
    check(n > 16_384, f"the workload ran its threads ({n} in {secs} s): more "
          f"than the kernel's per-task map holds (16,384) and userspace keeps "
          f"(4,096)")
    mine = [s for s in summary["stalls"] if s["id"] == m["id"]]
    tids = {s["tid"] for s in mine if s["tid"]}
    folded = summary.get("stalls_folded", 0)
    print(f"  info  /st: {m['memcg_reclaims']} memcg reclaims by {n} threads; "
          f"{len(tids)} tasks listed, {folded} folded into (exited tasks), "
          f"{len(summary['stalls'])} entries kept")
    check(all(s["kind"] == "proactive" for s in mine) and
          len(tids) + folded == n,
          f"every thread one task, listed or folded ({len(tids)} + {folded} == {n})")
    check(len(summary["stalls"]) <= 4096 + 4,
          f"userspace kept at most 4,096 entries and the folded ones "
          f"({len(summary['stalls'])})")
    # the slow reader: its map filled, and the loss is counted, exactly
    status = open(os.path.join(res, "record-slow.status")).read().strip()
    slow = load_recording(os.path.join(res, "rec-slow.ndjson"))
    s = slow[-1] if slow else {}
    check(status == "record exit 0" and s.get("type") == "summary",
          f"the slow recording ended with its summary ({status})")
    ms = memcg(s, "/st") if s.get("memcgs") else None
    if not check(ms is not None, "the slow recording has /st"):
        return
    lost = s.get("tasks_lost", 0)
    kept = sum(x["count"] for x in s["stalls"] if x["id"] == ms["id"])
    print(f"  info  slow reader: {lost} stalls lost from its full map, "
          f"{kept} kept per task, of {ms['memcg_reclaims']}")
    check(lost > 0, f"read only at its end, the map filled: stalls lost ({lost})")
    check(kept + lost == ms["memcg_reclaims"] == m["memcg_reclaims"],
          f"kept per task + lost == the memcg's count == the other "
          f"recording's ({kept} + {lost} == {ms['memcg_reclaims']} == "
          f"{m['memcg_reclaims']})")
