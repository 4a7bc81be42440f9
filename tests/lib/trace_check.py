"""What a Chrome trace (report --trace) must be for Perfetto to draw it as
we mean it: shared by the host test (tests/report/trace.py) and the check
of the VM's recordings (tests/report/check.py).

Perfetto's JSON importer drops or misplaces what does not hold: a slice
("X") that overlaps another on its thread without nesting in it, a
negative duration, a timestamp that is not a number.
"""
import json
from collections import defaultdict


def ns(us):
    """report --trace writes µs with three decimals: exact ns."""
    return round(us * 1000)


def structure(check, path, what, ordered=True):
    """Check the trace at path; return its events (or None).  ordered:
    also that on each thread the file's times only go forward (report
    --trace writes a task's slices ahead of their reclaim only when it
    holds more than 4,096 of them)."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{what}: the trace is JSON ({e})")
        return None
    events = doc.get("traceEvents")
    if not check(isinstance(events, list), f"{what}: a traceEvents array"):
        return None
    bad_fields = [e for e in events
                  if e.get("ph") in ("X", "i", "C")
                  and not (isinstance(e.get("ts"), (int, float)) and e["ts"] >= 0
                           and isinstance(e.get("pid"), int))]
    check(not bad_fields, f"{what}: every event has a time >= 0 and a pid "
          f"({len(bad_fields)} not: {bad_fields[:1]})")
    slices = [e for e in events if e.get("ph") == "X"]
    bad_dur = [e for e in slices
               if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0
               or not isinstance(e.get("tid"), int)]
    check(not bad_dur, f"{what}: every slice has a duration >= 0 and a thread "
          f"({len(bad_dur)} not)")
    by_tid = defaultdict(list)
    for e in slices:
        if e not in bad_dur:
            by_tid[(e["pid"], e["tid"])].append(e)
    crossing = []
    depth_max = 0
    for key, ss in by_tid.items():
        # begin ascending, the longer first: a parent before its children
        ss.sort(key=lambda e: (ns(e["ts"]), -ns(e["dur"])))
        stack = []
        for e in ss:
            b, end = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
            while stack and stack[-1][1] <= b:
                stack.pop()
            if stack and end > stack[-1][1]:
                crossing.append((key, stack[-1][2], e["name"], b, end,
                                 stack[-1][0], stack[-1][1]))
                continue
            stack.append((b, end, e["name"]))
            depth_max = max(depth_max, len(stack))
    check(not crossing, f"{what}: on every thread, slices nest or follow each "
          f"other ({len(crossing)} cross: {crossing[:2]})")
    backwards = 0
    last = {}
    for e in events:
        if e.get("ph") in ("X", "i") and e not in bad_fields:
            key = (e["pid"], e.get("tid"))
            backwards += ns(e["ts"]) < last.get(key, 0)
            last[key] = ns(e["ts"])
    if ordered:
        check(backwards == 0, f"{what}: on every thread, time only goes "
              f"forward in the file ({backwards} steps back)")
    names = {e["tid"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    tids = {e["tid"] for e in slices} | {e["tid"] for e in events
                                        if e.get("ph") == "i"}
    check(tids <= names, f"{what}: every task's track is named "
          f"({len(tids - names)} not)")
    doc["_depth_max"] = depth_max
    return doc
