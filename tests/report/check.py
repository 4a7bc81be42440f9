#!/usr/bin/env python3
"""`report` and `diff` on recordings the VM scenarios made (real data): every
number checked here is computed again from the recording by this script,
not copied from the output.  Then the HTML report in headless Chromium, and
untrusted input.

usage: check.py BINARY VM_RESULTS_DIR WORKDIR
"""
import json
import math
import os
import re
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from judge import Judge, load_ndjson  # noqa: E402
from loghist import quantile_ns  # noqa: E402
import trace_check  # noqa: E402

judge = Judge()
check = judge.check
BIN = VM = WORK = None


def run(*args, ok=True):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    if ok and p.returncode != 0:
        check(False, f"{' '.join(args)} exits 0 ({p.stderr.strip()[:200]})")
    return p


def report_values(text, path):
    """{metric: float or None} of one memcg's block of a text report."""
    out, inside = {}, False
    for line in text.splitlines():
        if line.startswith("== "):
            inside = line.startswith(f"== {path} ") or line == f"== {path} =="
            continue
        parts = line.split()
        if inside and len(parts) >= 2 and line.startswith("    "):
            v = parts[1]
            out[parts[0]] = None if v == "n/a" else float(v)
    return out


def close(a, b):
    if a is None or b is None:
        return a is b
    return abs(a - b) <= max(1e-3, 1e-3 * abs(b))


def quantile_ms(pairs, q):
    """The histogram's quantile as report computes it (tests/lib/loghist)."""
    ns = quantile_ns(pairs, q)
    return None if ns is None else ns / 1e6


def wbstorm(budget_ms):
    path = os.path.join(VM, "wbstorm", "results", "rec.ndjson")
    rec = load_ndjson(judge, path)
    summ = rec[-1]
    m = [x for x in summ["memcgs"] if x["path"] == "/wb"][0]
    ev = [e for e in rec if e.get("type") == "event" and e.get("id") == m["id"]]
    shrink = [e for e in ev if e["kind"] == "shrink"]
    recl = [e for e in ev if e["kind"] == "reclaim" and e["reclaimer"] != "direct"]
    thr = [e for e in ev if e["kind"] == "throttle"]
    # None: the recording's own (3.3 ms, counted in the kernel); 3.3 asked
    # by name must find the same (3.3 * 1e6 is not 3300000 in a double)
    args = [path] + (["--budget-ms", str(budget_ms)] if budget_ms else [])
    text = run("report", "--all", *args).stdout
    budget_ms = budget_ms or 3.3
    budget_ns = round(budget_ms * 1e6)  # whole ns, as the tool compares
    if budget_ms == 3.3:
        check("latency budget 3.3 ms (counted in the kernel)" in text,
              f"report {' '.join(args[1:])}: the kernel's counts at 3.3 ms")
    got = report_values(text, "/wb")
    pass_max = max(e["duration_ns"] for e in shrink) / 1e6
    with_ratio = [e for e in recl if e["nr_to_reclaim"]]
    want = {
        "scanned": m["scanned"], "isolated": m["isolated"],
        "reclaimed": m["reclaimed"],
        "efficiency": 100 * m["reclaimed"] / m["isolated"],
        "passes": m["passes"], "budget_used": m["budget_used"],
        "exit_budget": m["exit_budget"], "exit_target": m["exit_target"],
        "passes_over_budget": sum(e["duration_ns"] > budget_ns for e in shrink),
        "memcg_over_budget": sum(e["duration_ns"] > budget_ns for e in recl),
        "throttles_over_budget": sum(e["delayed_us"] * 1000 > budget_ns
                                     for e in thr),
        "pass_max": pass_max,
        "pass_p99": min(pass_max, quantile_ms(m["histograms"]["pass"], 0.99)),
        "memcg_max": max(e["duration_ns"] for e in recl) / 1e6,
        "throttle_max": max(e["delayed_us"] for e in thr) / 1e3,
        "throttled": m["throttled"] / 1e3,
        "over_reclaim": sum(e["nr_reclaimed"] / e["nr_to_reclaim"]
                            for e in with_ratio) / len(with_ratio),
        "aging_rate": m["agings"] / summ["duration"],
        "direct_p99": None,  # no direct reclaim in a memcg-limit storm
    }
    # the split by reclaimer, from the summary's by_reclaimer; it adds up
    by = {r: v.get("reclaimed", 0) for r, v in m["by_reclaimer"].items()}
    for r in ("kswapd", "direct", "memcg", "proactive", "node", "other"):
        want[f"reclaimed_by_{r}"] = by.get(r, 0)
    check(sum(by.values()) == m["reclaimed"],
          f"/wb: by_reclaimer's reclaimed adds up ({by})")
    for k, v in want.items():
        check(close(got.get(k), v),
              f"report --budget-ms {budget_ms} /wb {k}: {got.get(k)} == {v}")
    return got


def fairness():
    path = os.path.join(VM, "tenants", "results", "rec.ndjson")
    rec = load_ndjson(judge, path)
    ms = [m for m in rec[-1]["memcgs"] if m.get("mem_current_avg")]
    paths = [m["path"] for m in ms]
    leaves = [m for m in ms if m["path"].startswith("/")
              and not any(p.startswith(m["path"] + "/") for p in paths)]
    x = [m["reclaimed"] / (m["mem_current_avg"] / 4096) for m in leaves]
    want = sum(x) ** 2 / (len(x) * sum(v * v for v in x))
    out = run("report", path).stdout
    mt = re.search(r"over (\d+) leaf memcgs\): ([0-9.]+)", out)
    check(mt is not None and int(mt.group(1)) == len(leaves) == 8,
          f"fairness over the 8 tenants ({mt.group(1) if mt else None})")
    check(mt is not None and abs(float(mt.group(2)) - want) < 5e-4,
          f"Jain's index {mt.group(2) if mt else None} == {want:.4f}")


def diff():
    a = os.path.join(VM, "core", "results", "rec.ndjson")
    b = os.path.join(VM, "classic", "results", "rec.ndjson")
    p = run("diff", "--json", a, b)
    try:
        d = json.loads(p.stdout)
    except ValueError as e:
        check(False, f"diff --json is JSON ({e})")
        return
    text = run("diff", a, b).stdout
    check(text.count("== ") >= 1, "diff prints a text table")
    check("latency budget 2 ms (counts over it: A from the kernel, B from the "
          "kernel)" in text and d.get("budget_ms") == 2,
          "diff says the latency budget and where its counts come from")
    total = [x for x in d["memcgs"] if x["path"] == "(total)"]
    if not check(len(total) == 1, "diff has the totals"):
        return
    ra, rb = (load_ndjson(judge, f)[-1] for f in (a, b))
    for key in ("scanned", "isolated", "reclaimed"):
        wa = sum(m[key] for m in ra["memcgs"])
        wb = sum(m[key] for m in rb["memcgs"])
        got = total[0]["metrics"][key]
        check(got["a"] == wa and got["b"] == wb,
              f"diff total {key}: A {got['a']} == {wa}, B {got['b']} == {wb}")
    # the kernel's counts over the budget both were recorded with (2 ms)
    for key in ("passes_over_budget", "memcg_over_budget"):
        wa = sum(m[key] or 0 for m in ra["memcgs"])
        wb = sum(m[key] or 0 for m in rb["memcgs"])
        got = total[0]["metrics"][key]
        check(got["a"] == wa and got["b"] == wb,
              f"diff total {key}: A {got['a']} == {wa}, B {got['b']} == {wb}")
    # recordings made with different budgets (core 2 ms, wbstorm 3.3 ms):
    # refused unless given one, then compared at it from the event records
    w = os.path.join(VM, "wbstorm", "results", "rec.ndjson")
    p = run("diff", a, w, ok=False)
    check(p.returncode == 1 and "over a latency budget of 2 ms" in p.stderr
          and "3.3 ms" in p.stderr and "--budget-ms" in p.stderr,
          f"diff of recordings made with 2 and 3.3 ms budgets: refused, said "
          f"why ({p.returncode}, {p.stderr.strip()[:160]})")
    check("latency budget 5 ms (counts over it: A from event records, B from "
          "event records)" in run("diff", "--budget-ms", "5", a, w).stdout,
          "diff --budget-ms 5: the counts from event records, said")
    p = run("diff", "--json", "--budget-ms", "5", a, w)
    got = [x for x in json.loads(p.stdout or "{}").get("memcgs", [])
           if x["path"] == "(total)"]
    ev = [e for e in load_ndjson(judge, a) if e.get("type") == "event"
          and e["kind"] == "shrink"]
    check(got and got[0]["metrics"]["passes_over_budget"]["a"] ==
          sum(e["duration_ns"] > 5e6 for e in ev),
          "diff --budget-ms 5 of them: counts from the event records at 5 ms")
    lower = {"refaults", "throttles", "direct_p99", "memcg_p99", "oom_kills"}
    for x in d["memcgs"]:
        for k, v in x["metrics"].items():
            if v["a"] is None or v["b"] is None:
                continue
            want = ("same" if v["a"] == v["b"] else
                    "better" if (v["b"] < v["a"]) == (k in lower) else "worse")
            if k in lower or k == "efficiency":
                check(v["verdict"] == want,
                      f"diff {x['path']} {k}: {v['a']} -> {v['b']} is {v['verdict']}")
            if v["a"] and k in ("reclaimed", "efficiency"):
                check(close(v["change_pct"], 100 * (v["b"] - v["a"]) / v["a"]),
                      f"diff {x['path']} {k}: change {v['change_pct']}%")


def png_pixels(path):
    """(width, height, distinct colours) of an 8-bit RGB(A) PNG."""
    data = open(path, "rb").read()
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        if y % 8 == 0:
            for i in range(0, stride, bpp * 8):
                colours.add(bytes(line[i:i + 3]))
        prev = line
    return w, h, len(colours)


def html():
    rec = os.path.join(VM, "wbstorm", "results", "rec.ndjson")
    out = os.path.join(WORK, "wbstorm.html")
    run("report", rec, "--html", out)
    page = open(out).read()
    check("<script" not in page and "http://" not in page and "https://" not in page,
          "the HTML is self-contained: no script, no network")
    ids = set(re.findall(r'<svg class="chart" id="([^"]+)"', page))
    # the generations of the memcg that reclaimed most (MGLRU here)
    want = {f"ts-0-{s}" for s in range(6)} | {"gens-0-anon", "gens-0-file"} | {
        f"hist-{h}" for h in ("direct_reclaim", "memcg_reclaim", "pass", "aging",
                              "throttle", "evict_age")} | {"budget-use"}
    check(want <= ids, f"every chart is there ({len(ids)} charts; missing "
          f"{sorted(want - ids)})")
    check("prefers-color-scheme: dark" in page, "a palette for dark backgrounds too")
    # a series drawn without a colour is not seen (file refaults was)
    unstyled = sorted({c for c in re.findall(r'<polyline class="(s\d+)"', page)
                       if f".{c}{{stroke:" not in page})
    check(not unstyled, f"every series has a colour ({unstyled or 'all do'})")
    chromium = next((c for c in ("chromium", "chromium-browser")
                     if subprocess.run(["sh", "-c", f"command -v {c}"],
                                       capture_output=True).returncode == 0), None)
    if not check(chromium is not None, "headless Chromium is installed"):
        return
    png = os.path.join(WORK, "wbstorm.png")
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
            "--hide-scrollbars", "--enable-logging=stderr", "--v=0"]
    p = subprocess.run(base + ["--window-size=1280,2400", f"--screenshot={png}",
                               "file://" + out], capture_output=True, text=True,
                       timeout=120)
    console = [line for line in p.stderr.splitlines() if "CONSOLE" in line]
    check(not console, f"no console messages ({console[:2]})")
    if check(os.path.exists(png), "Chromium took a screenshot"):
        w, h, colours = png_pixels(png)
        check(w == 1280 and colours > 8,
              f"the screenshot is not blank ({w}x{h}, {colours} colours)")
    dom = subprocess.run(base + ["--dump-dom", "file://" + out],
                         capture_output=True, text=True, timeout=120).stdout
    check(len(re.findall(r'<svg class="chart"', dom)) == len(ids),
          "Chromium's DOM holds every chart")


def untrusted():
    good = open(os.path.join(VM, "wbstorm", "results", "rec.ndjson")).read().splitlines()
    cases = {
        "binary junk": bytes(range(256)) * 4,
        "newer schema": (re.sub(r'"schema":\d+', '"schema":7', good[0]) + "\n").encode(),
        "a broken line in the middle": ("\n".join(good[:3] + ['{"type":"snapshot",']
                                                  + good[3:]) + "\n").encode(),
        "an absurd number": ("\n".join(
            good[:2] + ['{"type":"snapshot","t":99,"memcgs":[{"id":1,"scanned":-5}]}'])
            + "\n").encode(),
    }
    for what, data in cases.items():
        path = os.path.join(WORK, "bad.ndjson")
        open(path, "wb").write(data)
        p = run("report", path, ok=False)
        check(p.returncode == 1 and re.search(r"bad\.ndjson:\d+: ", p.stderr),
              f"{what}: refused, naming the line ({p.stderr.strip()[:90]})")
    # cut short while being written: what came before stands, and says so
    path = os.path.join(WORK, "cut.ndjson")
    open(path, "w").write("\n".join(good[:5]) + "\n" + good[5][:30])
    p = run("report", path)
    check(p.returncode == 0 and "cut short" in p.stdout,
          "a recording cut mid-line is reported up to its last whole line")


def report_blocks(text):
    """The text report's memcg blocks in order: [(path, {metric: value})];
    a path reused by several memcgs has a block each."""
    blocks = []
    for line in text.splitlines():
        if line.startswith("== "):
            blocks.append((line[3:].rsplit(" ==", 1)[0].replace(" (gone)", ""), {}))
            continue
        parts = line.split()
        if blocks and len(parts) >= 2 and line.startswith("    "):
            blocks[-1][1][parts[0]] = None if parts[1] == "n/a" else float(parts[1])
    return blocks


def report_json():
    """report --json says what the text report says: for every scenario's
    recording, the memcgs in the same order, and block by block (a reused
    path has one per memcg) every figure."""
    compared = 0
    for name in sorted(os.listdir(VM)):
        rec = os.path.join(VM, name, "results", "rec.ndjson")
        if not os.path.exists(rec):
            continue
        blocks = report_blocks(run("report", "--all", rec).stdout)
        # without --all: the rows null or 0 in every memcg are left out,
        # and only those (their number said)
        folded = report_blocks(run("report", rec).stdout)
        nonzero = {k for _, b in blocks for k, v in b.items() if v}
        m = re.search(r"^(\d+) of \d+ metrics are null or 0 in every memcg",
                      run("report", rec).stdout, re.M)
        kept = {k for _, b in folded for k in b}
        check(nonzero <= kept and all(not v for _, b in blocks for k, v in b.items()
                                      if k not in kept),
              f"{name}: the report leaves out only rows null or 0 everywhere")
        check((m is not None) == (len(kept) < len({k for _, b in blocks for k in b})),
              f"{name}: the report says how many rows it leaves out")
        doc = json.loads(run("report", "--json", rec).stdout)
        check([m["path"] or f"(id {m['id']})" for m in doc["memcgs"]] == [b[0] for b in blocks],
              f"{name}: report --json lists the text report's memcgs in its order")
        for m, (path, want) in list(zip(doc["memcgs"], blocks))[:20]:
            got = {k: v for k, v in m["metrics"].items() if k in want}
            same = all(close(got.get(k), v) for k, v in want.items())
            check(same and set(got) == set(want),
                  f"{name} {path}: {len(want)} figures equal the text's")
            compared += 1
        check(doc["drops"] == json.loads(open(rec).read().splitlines()[-1]).get("drops", doc["drops"]),
              f"{name}: drops as the summary says")
    check(compared >= 10, f"report --json compared on {compared} memcgs")


def trace(scenario):
    """report --trace of a scenario's recording made with --events: the
    trace's structure (tests/lib/trace_check.py), and each event of the
    recording drawn once, as its kind's slice or instant."""
    rec = os.path.join(VM, scenario, "results", "rec.ndjson")
    out = os.path.join(WORK, f"{scenario}.trace.json")
    run("report", rec, "--trace", out)
    doc = trace_check.structure(check, out, f"{scenario} trace")
    if doc is None:
        return
    kinds = {}
    tasks = set()
    for line in open(rec):
        o = json.loads(line)
        if o.get("type") == "event":
            kinds[o["kind"]] = kinds.get(o["kind"], 0) + 1
            tasks.add(o["pid"])
    drawn = {}
    for e in doc["traceEvents"]:
        if e.get("ph") not in ("X", "i"):
            continue
        name = e["name"]
        kind = ("reclaim" if name.endswith(" reclaim") else
                "throttle" if name.startswith("throttle") else
                {"MGLRU pass": "shrink", "aging": "aging", "kswapd run":
                 "kswapd_run", "writeback": "writeback", "OOM": "oom"}.get(name))
        drawn[kind] = drawn.get(kind, 0) + 1
    check(kinds and drawn == kinds,
          f"{scenario} trace: every event drawn once, as its kind "
          f"(recording {sorted(kinds.items())}, trace {sorted(drawn.items())})")
    named = {e["tid"] for e in doc["traceEvents"] if e.get("name") == "thread_name"}
    check(named == tasks, f"{scenario} trace: a track for each of the "
          f"recording's {len(tasks)} tasks ({len(named)})")
    check(doc["_depth_max"] >= 2, f"{scenario} trace: passes nested in their "
          f"reclaims ({doc['_depth_max']} deep)")
    if scenario == "mix":  # its readers run as stall-a and stall-b
        names = [e["args"]["name"] for e in doc["traceEvents"]
                 if e.get("name") == "thread_name"]
        check(all(any(n.startswith(c + " ") for n in names)
                  for c in ("stall-a", "stall-b")),
              f"mix trace: the readers' tracks named by their comm ({names})")


def main():
    global BIN, VM, WORK
    BIN, VM, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(WORK, exist_ok=True)
    wbstorm(None)
    wbstorm(3.3)
    wbstorm(1)
    fairness()
    diff()
    html()
    trace("mix")
    trace("wbstorm")
    report_json()
    untrusted()
    return judge.close("report")


if __name__ == "__main__":
    sys.exit(main())
