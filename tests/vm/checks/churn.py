"""Checks of the churn scenario (tests/vm/scenarios/)."""
import json
import os
from .common import (RSS_SLACK_KIB, check, daemon_exited_ok, parse_metrics)


def scenario_churn(res, header, summary, rec):
    """2,000 short-lived memcgs, 100 paths reused: one entry each, exact."""
    made = []  # (cgroup id, path) in order
    with open(os.path.join(res, "churn.ids")) as f:
        for line in f:
            cgid, path = line.split()
            made.append((int(cgid), path))
    stat = {}  # cgroup id -> memory.stat just before rmdir
    with open(os.path.join(res, "churn.memstat")) as f:
        for line in f:
            k, v = line.split()
            if k == "memcg":
                cur = stat.setdefault(int(v), {})
            else:
                cur[k] = int(v)
    paths = {p for _, p in made}
    check(len(made) == 2000 and len({i for i, _ in made}) == 2000,
          f"2000 memcgs made, each with its own cgroup id ({len(made)})")
    check(len(paths) == 100, f"under 100 paths, each reused ({len(paths)})")
    check(summary.get("names_full") == 0, "the naming map never filled")
    by_id = {m["id"]: m for m in summary["memcgs"]}
    churned = [m for m in summary["memcgs"] if m["path"].startswith("/churn/")]
    unknown = [m for m in summary["memcgs"] if m["path"].startswith("(unknown")]
    check(len(churned) == 2000,
          f"the summary has 2000 entries under /churn ({len(churned)})")
    check(not unknown, f"no memcg left unnamed ({len(unknown)})")
    wrong = {"missing": 0, "path": 0, "gone": 0, "idle": 0, "emptied": 0,
             "pgscan": 0, "pgsteal": 0}
    shown = 0
    for cgid, path in made:
        m, st = by_id.get(cgid), stat.get(cgid, {})
        if m is None:
            wrong["missing"] += 1
            continue
        bad = {"path": m["path"] != path,
               "gone": m.get("gone") is not True,
               "idle": st.get("pgscan", 0) == 0,
               # no page left on its LRUs for reclaim to find later
               # (memory.current keeps a page or so of kernel memory)
               "emptied": st.get("anon") != 0 or st.get("file") != 0,
               "pgscan": m["isolated"] != st.get("pgscan"),
               "pgsteal": m["reclaimed"] != st.get("pgsteal")}
        for what, is_bad in bad.items():
            wrong[what] += is_bad
        if any(bad.values()) and shown < 5:
            shown += 1
            print(f"  info  memcg {cgid} {path}: isolated {m['isolated']} "
                  f"reclaimed {m['reclaimed']}; its memory.stat {st}")
    for what, n in wrong.items():
        check(n == 0, f"every churned memcg: {what} ok ({n} not)")
    print(f"  info  churned memcgs: isolated {sum(m['isolated'] for m in churned)} "
          f"reclaimed {sum(m['reclaimed'] for m in churned)} pages in all")

    # the generation timelines of memcgs that come and go: a memcg's entries
    # are samples, then one "end" once it is gone, and nothing after it
    entries = {}
    for line in rec:
        if line.get("type") == "snapshot":
            for e in line.get("lru_gens") or []:
                entries.setdefault(e["id"], []).append(e)
    ends = {"sampled": 0, "ended once, last": 0}
    for cgid, _path in made:
        line = entries.get(cgid, [])
        samples = [e for e in line if not e.get("end")]
        if not samples:
            continue
        ends["sampled"] += 1
        m = by_id.get(cgid) or {}
        # and the summary keeps its last sample, marked ended
        ends["ended once, last"] += bool(
            sum(1 for e in line if e.get("end")) == 1 and line[-1].get("end")
            and m.get("lru_gens")
            and all(g.get("ended") for g in m["lru_gens"]))
    print(f"  info  churned memcgs with generation samples: {ends['sampled']}")
    check(ends["sampled"] > 0 and ends["ended once, last"] == ends["sampled"],
          f"every churned memcg's timeline ends once, after its samples "
          f"({ends['ended once, last']} of {ends['sampled']})")

    # the daemon, forgetting removed memcgs after 2 s
    daemon_exited_ok(res)
    with open(os.path.join(res, "api.mid.json")) as f:
        mid = [m for m in json.load(f)["summary"]["memcgs"]
               if m["path"].startswith("/churn/")]
    mid_gone = [m for m in mid if m.get("gone") is True]
    check(1 <= len(mid_gone) <= 200,
          f"halfway, the daemon shows the recently removed ({len(mid_gone)}), "
          "not the ~950 removed so far")
    # the rest are those still settling before their rmdir (churn.sh)
    settling = CHURN_WORKERS * (CHURN_DEPTH + 1)
    check(len(mid) - len(mid_gone) <= settling,
          f"... and the memcgs not yet removed ({len(mid) - len(mid_gone)}, "
          f"at most {settling})")
    with open(os.path.join(res, "api.after.json")) as f:
        after = [m for m in json.load(f)["summary"]["memcgs"]
                 if m["path"].startswith("/churn/")]
    check(not after, f"at the end, every removed memcg is forgotten ({len(after)} left)")
    with open(os.path.join(res, "metrics.after.txt")) as f:
        series = [s for s in parse_metrics(f.read())
                  if s[1].get("memcg", "").startswith("/churn/")]
    check(not series, f"... and gone from /metrics ({len(series)} series left)")

    # memory: the daemon's stays flat once it has seen its share of churn
    rss = []  # (memcgs made, daemon KiB, record KiB)
    with open(os.path.join(res, "churn.rss")) as f:
        for line in f:
            rss.append(tuple(int(x) for x in line.split()))
    print("  info  RSS KiB (made: daemon record): " +
          ", ".join(f"{n}: {d} {r}" for n, d, r in rss))
    # from the first sample after the halfway fetch (serving it allocates)
    later = [d for n, d, _ in rss if n > 1000]
    check(max(later) - later[0] <= RSS_SLACK_KIB,
          f"daemon RSS flat over the last 900 memcgs "
          f"({later[0]} -> max {max(later)} KiB, slack {RSS_SLACK_KIB})")


# as in churn.sh: chains at once, and memcgs each keeps settling before
# their rmdir
CHURN_WORKERS = 2
CHURN_DEPTH = 25
