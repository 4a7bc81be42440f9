#!/usr/bin/env python3
"""Judge what the views showed during the host test (tests/host/views.sh):
the daemon's /metrics (promtool, exact against the recording), its JSON
API, a real Prometheus' PromQL answer, HTTP misuse, and `top`.

usage: views_check.py WORKDIR MEMCG_PATH
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from judge import Judge, hook_cost_checks, load_ndjson, parse_metrics  # noqa: E402
import rs_tables  # noqa: E402

judge = Judge()
check = judge.check
def read(work, name):
    with open(os.path.join(work, name)) as f:
        return f.read()


def total(samples, name, memcg):
    return sum(v for n, lab, v in samples
               if n == name and lab.get("memcg") == memcg)


def metrics_checks(work, path, rec_memcg, probe):
    text = read(work, "metrics.txt")
    rc = read(work, "promtool.rc").strip()
    check(rc == "0", f"promtool check metrics finds no problem "
          f"({read(work, 'promtool.out').strip()[:200] or 'silent'})")
    samples = parse_metrics(text, judge)
    names = {n for n, _, _ in samples}
    check(all(n.startswith("reclaimscope_") for n in names),
          "every metric has the reclaimscope_ prefix")
    counters = [n for n in re.findall(r"^# TYPE (\S+) counter$", text, re.M)]
    check(counters and all(n.endswith("_total") for n in counters),
          f"every counter ends in _total ({len(counters)} counters)")
    for key in ("reclaimed", "scanned", "isolated"):
        got = total(samples, f"reclaimscope_{key}_pages_total", path)
        check(got == rec_memcg[key],
              f"/metrics {key} of the memcg {got:.0f} == the recording's "
              f"{rec_memcg[key]} (same pages, seen by two instances)")
    # a value the kernel cannot give is absent, never 0
    for key in probe["unavailable_fields"]:
        stem = re.sub(r"_(ns|us)$", "", key)
        present = [n for n in names if n.startswith(f"reclaimscope_{stem}_")
                   and not n.startswith("reclaimscope_hook")]
        check(not present, f"{key}: unavailable here, so no metric "
              f"({present[:2]})")
    hooks = {lab["hook"]: v for n, lab, v in samples
             if n == "reclaimscope_hook_attached"}
    check(hooks == {h: float(s["state"] == "attached")
                    for h, s in probe["hooks"].items()},
          "reclaimscope_hook_attached: one series per hook, 1 iff attached")
    check("reclaimscope_ring_drops_total" in names, "drops are a metric")
    # histograms: cumulative buckets on 2^k ns bounds, +Inf == _count
    for fam in sorted({n[:-len("_bucket")] for n in names
                       if n.endswith("_bucket")}):
        series = {}
        for n, lab, v in samples:
            if n == fam + "_bucket":
                series.setdefault(lab["memcg"], []).append((lab["le"], v))
        for memcg, buckets in series.items():
            bounds = [float(le) for le, _ in buckets[:-1]]
            counts = [v for _, v in buckets]
            check(buckets[-1][0] == "+Inf" and bounds == sorted(bounds)
                  and counts == sorted(counts),
                  f"{fam}{{memcg={memcg}}}: bounds and counts ascend")
            check(all(round(b * 1e9) & (round(b * 1e9) - 1) == 0
                      and abs(b * 1e9 - round(b * 1e9)) < 1e-6
                      for b in bounds),
                  f"{fam}{{memcg={memcg}}}: every bound is 2^k ns exactly")
            cnt = total(samples, fam + "_count", memcg)
            check(counts[-1] == cnt, f"{fam}: +Inf bucket == _count ({cnt:.0f})")
    cnt = total(samples, "reclaimscope_memcg_reclaim_duration_seconds_count", path)
    check(cnt == rec_memcg["memcg_reclaims"] and cnt > 0,
          f"memcg reclaim latency histogram counts every reclaim "
          f"({cnt:.0f} == {rec_memcg['memcg_reclaims']})")
    return samples


def api_checks(work, path, rec, samples):
    try:
        api = json.loads(read(work, "api.json"))
    except ValueError as e:
        check(False, f"/api/v1/snapshot is JSON ({e})")
        return
    check(api["header"]["type"] == "header"
          and api["header"]["schema"] == rs_tables.schema(),
          f"API: a schema-{rs_tables.schema()} header, as a recording's")
    check(api["snapshot"]["type"] == "snapshot", "API: the last snapshot")
    summ = api["summary"]
    check(summ["type"] == "summary", "API: the totals, as a summary")
    rec_keys = set(rec[-1]["memcgs"][0].keys()) if rec[-1]["memcgs"] else set()
    mine = [m for m in summ["memcgs"] if m["path"] == path]
    if check(len(mine) == 1, "API: the test memcg is in the summary"):
        check(set(mine[0].keys()) == rec_keys,
              "API: a memcg has exactly the keys of a recording's memcg")
    try:
        api = json.loads(read(work, "api.metrics.json"))
    except ValueError as e:
        check(False, f"/api/v1/snapshot?metrics=1 is JSON ({e})")
        return
    summ = api["summary"]
    mine = [m for m in summ["memcgs"] if m["path"] == path]
    if check(len(mine) == 1, "API with metrics: the test memcg is in the summary"):
        rows = mine[0]["metrics"]
        eff = rows.get("efficiency")
        check(isinstance(summ.get("span"), (int, float)) and summ["span"] > 0
              and "pass_p99" in rows and "budget_use" in rows
              and (eff is None if not mine[0]["isolated"] else
                   abs(eff - 100 * mine[0]["reclaimed"] / mine[0]["isolated"]) < 1e-6),
              f"API: the report's rows per memcg since the start (efficiency {eff}, "
              f"span {summ.get('span')})")
        check(mine[0]["reclaimed"] ==
              total(samples, "reclaimscope_reclaimed_pages_total", path),
              "API and /metrics agree on reclaimed")


def promql_checks(work, path, samples):
    ans = json.loads(read(work, "promql.json"))
    res = ans.get("data", {}).get("result", [])
    check(ans.get("status") == "success" and len(res) == 1
          and res[0]["metric"].get("memcg") == path,
          f"PromQL returns the test memcg's series ({len(res)} series)")
    if not res:
        return
    values = [float(v) for _, v in res[0]["values"]]
    check(values == sorted(values), "its values never decrease")
    check(values[-1] > values[0], f"and grew during the run "
          f"({values[0]:.0f} -> {values[-1]:.0f})")
    check(values[-1] == total(samples, "reclaimscope_reclaimed_pages_total", path),
          "its last value is the daemon's")


def http_checks(work):
    got = dict(line.split() for line in read(work, "http.txt").splitlines()
               if len(line.split()) == 2)
    want = {"post": {"405"}, "delete": {"405"}, "missing": {"404"},
            "oversized": {"413", "431"}, "head": {"200"},
            "during-slow": {"200"}, "garbage": {"400"}, "after": {"200"}}
    for what, ok in want.items():
        check(got.get(what) in ok,
              f"HTTP {what}: {got.get(what)} (want {'/'.join(sorted(ok))})")
    check(read(work, "daemon.rc").strip() == "0", "daemon exits 0 on SIGTERM")
    unix = read(work, "unix.txt").split()
    check(unix == ["unix", "200", "0", "removed"],
          f"a second daemon on a Unix socket serves /metrics, exits 0 on "
          f"SIGINT and removes its socket ({' '.join(unix)})")
    check("reclaimscope_hook_attached" in read(work, "metrics-unix.txt"),
          "the Unix-socket daemon's /metrics has the metrics")
    err = read(work, "daemon.err")
    check("serving on" in err and "stopping" in err,
          "daemon logs its start and stop to stderr")


def top_checks(work, path, probe):
    cap = {k: read(work, f"top.{k}.txt") for k in
           ("start", "sorted", "filtered-out", "filtered", "details",
            "help", "tree", "resized", "quit")}
    lines = cap["start"].splitlines()
    check(lines and lines[0].startswith("reclaimscope  kernel"),
          "top: header first")
    check(all(len(line) <= 80 for line in lines), "top: fits 80 columns")
    check("sort reclaimed/s" in cap["start"], "top: sorted by reclaimed/s")
    check("sort eff%" in cap["sorted"], "top: '>' sorts by the next column")
    check("under the filter" in cap["filtered-out"],
          "top: a filter that matches nothing shows no row, and says so")
    name = path.rsplit("/", 1)[-1]
    rows = [line for line in cap["filtered"].splitlines()
            if name[-20:] in line and not line.startswith("sort ")]
    check(len(rows) == 1, "top: filtering by its name shows the test memcg")
    check("last aging:" in cap["details"] and "MGLRU generations" in cap["details"],
          "top: Enter opens the details of the selected memcg")
    check("memcg reclaims targeting this memcg" in cap["details"],
          "top: details show its reclaim latency histogram")
    check("this help" in cap["help"], "top: h shows the help")
    check("sort tree" in cap["tree"], "top: t shows the tree")
    lines = cap["resized"].splitlines()
    check(len(lines) == 30 and lines[0].startswith("reclaimscope  kernel")
          and "MEMCG" in cap["resized"] and lines[-1].startswith("sort "),
          "top: redrawn whole after the terminal grew to 100x30")
    check("top-exited-0" in cap["quit"], "top: q quits, exit status 0")
    # batch frames: tracepoint-only columns filled, the rest n/a
    batch = read(work, "top-batch.txt")
    check(read(work, "top-batch.rc").strip() == "0", "top -b exits 0")
    frames = batch.strip().split("\n\n")
    check(len(frames) == 12, f"top -b -n 12 prints 12 frames ({len(frames)})")
    # the last frame where the test memcg reclaimed
    rows, cols = [], []
    for frame in frames:
        lines = frame.splitlines()
        heads = [line for line in lines if line.startswith("MEMCG")]
        mine = [line for line in lines if line.strip().startswith(path)]
        if heads and mine:
            cols, rows = heads[0].split()[1:], mine
    if check(len(rows) == 1, "top -b: the test memcg has a row while it reclaims"):
        vals = dict(zip(cols, rows[0].split()[1:]))
        unavailable = set(probe["unavailable_fields"])
        for col, key in (("passes/s", "passes"), ("agings/s", "agings"),
                         ("flusher_wakeups/s", "flusher_wakeups")):
            want = "n/a" if key in unavailable else None
            check(want is None or vals.get(col) == want,
                  f"top -b: {col} is {vals.get(col)} (unavailable here: n/a)")
        for col in ("scanned/s", "isolated/s", "reclaimed/s"):
            check(re.fullmatch(r"[0-9.]+", vals.get(col, "")) is not None,
                  f"top -b: {col} is a number ({vals.get(col)})")


def wrk_checks(work):
    """wrk on /metrics during the workload: every request answered 200,
    no socket error; the latency figures are printed for the README."""
    out = read(work, "wrk.txt")
    m = re.search(r"(\d+) requests in ([\d.]+)s", out)
    if not check(m is not None, "wrk ran against /metrics"):
        print(out[-400:])
        return
    check(int(m.group(1)) >= 100, f"wrk: {m.group(1)} requests served")
    check("Non-2xx" not in out, "wrk: every response was 200")
    check("Socket errors" not in out, "wrk: no socket error (connect, read, "
          "write, timeout)")
    lat = dict(re.findall(r"^\s+(50|90|99)%\s+(\S+)", out, re.M))
    rps = re.search(r"Requests/sec:\s+(\S+)", out)
    print(f"  info  scrape latency under load (16 connections): p50 "
          f"{lat.get('50')} p90 {lat.get('90')} p99 {lat.get('99')}, "
          f"{rps.group(1) if rps else '?'} requests/s")


def oom_checks(work):
    """The daemon reads a memcg's own counters only when the kernel-wide
    count moved (src/collect/memcg_files.c, RS_CG_LAG_S): the OOM kill must still show,
    a few refreshes later, as the kernel counted it."""
    path, kernel = read(work, "oom.count").split()
    samples = parse_metrics(read(work, "metrics.txt"), judge)
    got = total(samples, "reclaimscope_oom_kills_total", path)
    check(got == int(kernel) and got > 0,
          f"/metrics OOM kills of {path} {got:.0f} == the kernel's {kernel}")


def main():
    work, path = sys.argv[1:3]
    rec = load_ndjson(judge, os.path.join(work, "rec.ndjson"))
    probe = json.loads(read(work, "probe.json"))
    mine = [m for m in rec[-1]["memcgs"] if m["path"] == path]
    if check(len(mine) == 1, "the recording has the test memcg"):
        samples = metrics_checks(work, path, mine[0], probe)
        api_checks(work, path, rec, samples)
        promql_checks(work, path, samples)
    oom_checks(work)
    hook_cost_checks(
        judge, probe, parse_metrics(read(work, "metrics.cost.txt"), judge),
        json.loads(read(work, "progs.before.json")),
        json.loads(read(work, "progs.after.json")),
        {int(i) for i in read(work, "daemon-prog-ids.txt").split()})
    http_checks(work)
    wrk_checks(work)
    top_checks(work, path, probe)
    return judge.close("views")


if __name__ == "__main__":
    sys.exit(main())
