"""Checks of the global scenario (tests/vm/scenarios/)."""
import os
from .common import (check, consistent, delta, exact_totals, memcg, read_kv)


def scenario_global(res, header, summary, rec):
    ms = [memcg(summary, "/g1"), memcg(summary, "/g2")]
    if not check(all(ms), "both memcgs are in the summary"):
        return
    # g2's anonymous memory cannot be reclaimed (no swap): it only presses
    for m, active in zip(ms, (True, False)):
        exact_totals(res, m, gone=False, active=active)
        consistent(rec, m)
    g1 = ms[0]
    kswapd = g1["by_reclaimer"].get("kswapd", {})
    print(f"  info  /g1 by reclaimer: {g1['by_reclaimer']}")
    check(kswapd.get("isolated", 0) > 0,
          "kswapd's passes are attributed to the memcg whose LRU they scanned")
    direct = sum(m["direct_reclaims"] for m in summary["memcgs"])
    check(direct > 0, f"direct reclaim stalls were recorded ({direct})")
    recs = [e for e in rec if e.get("type") == "event" and e.get("kind") == "reclaim"
            and e.get("reclaimer") == "direct"]
    check(len(recs) == direct, "one reclaim record per direct reclaim")
    # the kernel's own count of direct reclaim stalls: do_try_to_free_pages()
    # counts an allocstall for each global direct reclaim (try_to_free_pages,
    # between the two tracepoints), none for memcg reclaim; nothing reclaims
    # outside the snapshots' window (the workload runs inside it)
    before = read_kv(os.path.join(res, "vmstat.before"))
    stalls = sum(delta(res, "vmstat", k) for k in before
                 if k.startswith("allocstall_"))
    check(stalls == direct, f"direct reclaims {direct} == /proc/vmstat "
          f"allocstall_* {stalls}")
    tasks = sum(s["count"] for s in summary["stalls"] if s["kind"] == "direct")
    check(tasks == stalls, f"the tasks' direct stalls {tasks} == allocstall_* "
          f"{stalls}")
    check(all(e["duration_ns"] > 0 for e in recs), "every stall has a latency")
    # the memcg LRU as root reclaim walked it: attached is not enough (a
    # function in BTF may be inlined where shrink_many() calls it)
    visits = sum(m["memcg_lru_visits"] or 0 for m in summary["memcgs"])
    moves = sum(sum(m[f"memcg_lru_to_{k}"] or 0
                    for k in ("head", "tail", "old", "young"))
                for m in summary["memcgs"])
    print(f"  info  memcg LRU: {visits} visits, {moves} moves; /g1 "
          + ", ".join(f"{k} {g1[k]}" for k in g1 if k.startswith("memcg_lru")))
    check(visits > 0, f"shrink_one seen walking the memcg LRU ({visits})")
    check(moves > 0, f"lru_gen_rotate_memcg seen moving memcgs ({moves})")
    kswapd_runs_exact(res, summary, rec)


def read_zoneinfo(path):
    """/proc/zoneinfo: per node, its zones in index order as
    {"boost", "high"} (pages)."""
    nodes = {}
    zones = None
    with open(path) as f:
        for line in f:
            words = line.split()
            if line.startswith("Node "):
                zones = nodes.setdefault(int(words[1].rstrip(",")), [])
                zones.append({})
            elif zones is not None and len(words) == 2 and words[1].isdigit() \
                    and words[0] in ("boost", "high") and words[0] not in zones[-1]:
                zones[-1][words[0]] = int(words[1])
    return nodes


def kswapd_runs_exact(res, summary, rec):
    """kswapd's balance_pgdat() runs: attached and ran (a function in BTF
    may be inlined into kswapd()), and what the runs reclaimed and isolated
    is /proc/vmstat's pgsteal_kswapd and pgscan_kswapd over the recording,
    exactly: kswapd reclaims only inside balance_pgdat()."""
    runs = [e for e in rec if e.get("type") == "event" and e.get("kind") == "kswapd_run"]
    node = memcg(summary, "(unattributed)") or {}
    check(len(runs) > 0 and node.get("kswapd_runs") == len(runs),
          f"kswapd runs recorded, one record each ({len(runs)} records, "
          f"kswapd_runs {node.get('kswapd_runs')})")
    for ours, theirs in (("nr_reclaimed", "pgsteal_kswapd"), ("isolated", "pgscan_kswapd")):
        got = sum(e[ours] for e in runs)
        want = delta(res, "vmstat", theirs)
        check(got == want, f"kswapd runs' {ours} {got} == /proc/vmstat {theirs} delta {want}")
    known = [e for e in runs if "free_after" in e]
    check(len(known) == len(runs), f"every run read its zones' watermarks ({len(known)})")
    # the watermarks each run balanced to: the high marks of the zones up
    # to its highest_zoneidx, as /proc/zoneinfo gives them (global.sh turns
    # boosts off, so they stay put: the same before and after)
    zi = [read_zoneinfo(os.path.join(res, f"zoneinfo.{t}")) for t in ("before", "after")]
    check(all(z.get("boost") == 0 for t in zi for n in t.values() for z in n)
          and [[z["high"] for z in n] for n in zi[0].values()]
          == [[z["high"] for z in n] for n in zi[1].values()],
          "no watermark boosts, and the high marks the same before and after")
    wrong = [(e["node"], e["highest_zoneidx"], e["high_before"], e["high_after"])
             for e in known
             if not e["high_before"] == e["high_after"] == sum(
                 z["high"] for z in zi[1].get(e["node"], [])[:e["highest_zoneidx"] + 1])]
    check(not wrong, f"every run's high watermarks are its zones' in /proc/zoneinfo "
          f"(up to highest_zoneidx; {len(known) - len(wrong)} of {len(known)}; "
          f"first wrong: {wrong[:1]})")
    past = sum(max(0, e["past_high"]) for e in known)
    short = sum(1 for e in known if e["past_high"] < 0)
    check(node.get("kswapd_past_high") == past and node.get("kswapd_runs_short") == short,
          f"kswapd_past_high {node.get('kswapd_past_high')} == {past} and "
          f"kswapd_runs_short {node.get('kswapd_runs_short')} == {short}, from the records")
    time_ns = sum(e["duration_ns"] for e in runs)
    check(node.get("kswapd_run_time") == time_ns,
          f"kswapd_run_time {node.get('kswapd_run_time')} == the records' durations {time_ns}")
    print(f"  info  kswapd runs: {len(runs)}, past the high watermarks at the end "
          f"{past} pages in all, {short} ended short")
