#!/usr/bin/env python3
"""report --trace on recordings this test writes: no kernel, no BPF, no
guest.  The VM's own recordings are traced and checked the same way in
tests/report/check.py.

usage: trace.py RECLAIMSCOPE

  nesting     two tasks: a memcg reclaim holding two MGLRU passes, an aging
              inside one, a throttle whose jiffy-counted delay reaches back
              into the pass before it (its beginning moved, and said by how
              much); a direct reclaim; writeback and OOM instants; every
              slice on its task's named track, nested, time forward
  counters    per memcg counter tracks from the snapshots' rates
  stallers    the summary's stalls per task name the tracks (comm) and
              make report's "who stalled" table and --json list; a
              hostile comm escaped; a stall without a valid tid refused
  long run    a kswapd run of 5,000 passes: they go out ahead of it, its
              throttle is held and moved into it
  hostile     t as a string, past 31 years or negative: refused; names
              cut within a character and a delay past 2^63 ns: written
              without them; --trace and --html on one file: refused
  names       a memcg path with a terminal escape and a backslash (as a
              hostile recording may hold them; record writes bytes that
              are not UTF-8 escaped already): the name escaped in the
              trace
  no events   a recording without --events: a trace of counters only, and
              a note saying why
  outputs     never onto an input or a file not a trace; over an earlier
              trace, yes; a write that fails (file size limit) leaves no
              file half written and the earlier trace whole; a broken
              recording writes no trace
"""
import json
import os
import resource
import signal
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from judge import Judge  # noqa: E402
import trace_check  # noqa: E402

judge = Judge()
check = judge.check
HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "fuzz", "corpus", "outcome.ndjson")
HEADER = json.loads(open(CORPUS).readline())
BIN = None


def ev(kind, t, pid, **kv):
    e = dict(type="event", kind=kind, t=t, pid=pid, id=28, path="/app",
             node=0, reclaimer="memcg")
    e.update(kv)
    return e


def events():
    """Times in s (end of each), durations in ns: task 101's memcg reclaim
    runs 1.000-1.010; pass A 1.001-1.004 with an aging 1.002-1.003 in it;
    pass B 1.0045-1.008; a throttle that ended at 1.0095 after 2 ms (a
    jiffy-counted 2 ms: really it began after pass B ended at 1.008)."""
    return [
        ev("aging", 1.003, 101, duration_ns=1_000_000, seq=3, success=True,
           force_scan=False, trigger="reclaim", max_seq=4, min_seq_anon=1,
           min_seq_file=1, generations=None),
        ev("shrink", 1.004, 101, duration_ns=3_000_000, priority=10,
           budget=64, budget_used=64, batches=1, last_batch=64, isolated=64,
           reclaimed=60, nr_to_reclaim=32, exit="budget_exhausted"),
        ev("writeback", 1.005, 101, nr_taken=1, dirty=1, flusher_woken=True),
        ev("shrink", 1.008, 101, duration_ns=3_500_000, priority=9,
           budget=64, budget_used=64, batches=1, last_batch=64, isolated=64,
           reclaimed=10, nr_to_reclaim=32, exit="budget_exhausted"),
        ev("throttle", 1.0095, 101, reason="writeback", timeout_us=100000,
           delayed_us=2000),
        ev("reclaim", 1.010, 101, duration_ns=10_000_000, nr_reclaimed=70,
           nr_to_reclaim=32),
        ev("reclaim", 1.02, 102, reclaimer="direct", duration_ns=4_000_000,
           nr_reclaimed=12, nr_to_reclaim=32),
        ev("oom", 1.03, 102, killed=True, order=0),
    ]


def snapshot(t, reclaimed, path="/app"):
    return {"type": "snapshot", "t": t, "memcgs": [
        {"path": path, "id": 28, "scanned": 2 * reclaimed,
         "reclaimed": reclaimed, "refaults_file": 5}],
        "drops": 0, "agg_full": 0, "missed": 0}


def write(path, lines, raw_tail=b""):
    with open(path, "wb") as f:
        f.write((json.dumps(HEADER) + "\n").encode())
        for line in lines:
            f.write((json.dumps(line) + "\n").encode())
        f.write(raw_tail)


def run(*args, limit=None):
    def fsize():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([BIN, *args], capture_output=True, text=True,
                          preexec_fn=fsize if limit else None)


def by_name(doc, name):
    return [e for e in doc["traceEvents"] if e.get("name") == name]


def nesting(d):
    rec, out = os.path.join(d, "run.ndjson"), os.path.join(d, "run.json")
    write(rec, [snapshot(0.5, 0)] + events() + [snapshot(1.5, 70)])
    r = run("report", rec, "--trace", out)
    check(r.returncode == 0, f"report --trace exits 0 ({r.stderr[-200:]})")
    check("wrote" in r.stderr and "2 tasks" in r.stderr,
          f"the notice says what was written ({r.stderr.strip()[-120:]})")
    doc = trace_check.structure(check, out, "two tasks")
    if doc is None:
        return
    check(doc["_depth_max"] == 3, f"reclaim > pass > aging: 3 deep "
          f"({doc['_depth_max']})")
    names = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"]
             if e.get("name") == "thread_name"}
    check(names == {101: "task 101 (memcg reclaim)",
                    102: "task 102 (direct reclaim)"},
          f"each task's track named by its id and what it did ({names})")
    (rcl,) = by_name(doc, "memcg reclaim")
    check(trace_check.ns(rcl["ts"]) == 1_000_000_000 and
          trace_check.ns(rcl["dur"]) == 10_000_000,
          f"the reclaim begins its duration before it ended, to the ns "
          f"({rcl['ts']} µs, {rcl['dur']} µs)")
    check(rcl["args"].get("memcg") == "/app" and rcl["args"].get("nr_reclaimed") == 70,
          "its args: the memcg and what it reclaimed")
    (thr,) = by_name(doc, "throttle (writeback)")
    check(trace_check.ns(thr["ts"]) == 1_008_000_000 and
          abs(thr["args"].get("begin_moved_us", 0) - 500) < 1e-6,
          f"the throttle begins when pass B ended, moved 500 µs and said so "
          f"({thr['ts']} µs, {thr['args'].get('begin_moved_us')})")
    passes = by_name(doc, "MGLRU pass")
    check(len(passes) == 2 and all(p["tid"] == 101 for p in passes),
          "both passes on task 101's track")
    check(len(by_name(doc, "writeback")) == 1 and len(by_name(doc, "OOM")) == 1
          and by_name(doc, "OOM")[0]["tid"] == 102,
          "writeback and OOM as instants on their tasks' tracks")
    check(doc.get("displayTimeUnit") == "ms" and
          doc.get("otherData", {}).get("kernel") == HEADER["kernel"],
          "the trace says its kernel and unit")
    counters = [e for e in doc["traceEvents"] if e.get("ph") == "C"]
    check(len(counters) == 2 and counters[1]["name"] == "/app" and
          trace_check.ns(counters[1]["ts"]) == 1_500_000_000 and
          counters[1]["args"] == {"reclaimed/s": 70, "scanned/s": 140,
                                  "file refaults/s": 5},
          f"a counter sample per interval of the memcg, its rates ({counters})")


def stallers(d):
    """The summary's stalls per task name the tracks, and report lists
    who stalled, a hostile name escaped."""
    rec, out = os.path.join(d, "st.ndjson"), os.path.join(d, "st.json")
    summary = {"type": "summary", "duration": 2, "drops": 0, "records": 0,
               "agg_full": 0, "missed": 0,
               "memcgs": [{"path": "/app", "id": 28}],
               "stalls": [
                   {"tid": 101, "tgid": 100, "comm": "worker", "id": 28,
                    "path": "/app", "kind": "memcg", "count": 1,
                    "total_ns": 10_000_000, "max_ns": 10_000_000},
                   {"tid": 102, "tgid": 102, "comm": "evil\u001b[2J", "id": 28,
                    "path": "/app", "kind": "direct", "count": 1,
                    "total_ns": 4_000_000, "max_ns": 4_000_000}]}
    write(rec, events() + [summary])
    r = run("report", rec, "--trace", out)
    check(r.returncode == 0, f"with stalls per task: exits 0 ({r.stderr[-200:]})")
    doc = trace_check.structure(check, out, "stallers")
    if doc:
        names = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"]
                 if e.get("name") == "thread_name"}
        check(names.get(101) == "worker 101 (memcg reclaim)",
              f"a task's track named by its comm ({names.get(101)})")
    text = subprocess.run([BIN, "report", rec], capture_output=True).stdout
    check(b"Who stalled" in text and b"worker (101)" in text,
          "report lists who stalled")
    check(b"\x1b" not in text and b"evil\\x1b" in text,
          "a hostile comm shown escaped, never raw")
    j = json.loads(run("report", "--json", rec).stdout)
    check([(s["tid"], s["kind"], s["total_ns"]) for s in j.get("stalls") or []]
          == [(101, "memcg", 10_000_000), (102, "direct", 4_000_000)],
          f"report --json: every stall, most time first ({j.get('stalls')})")
    # diff: tasks of one name summed, matched by memcg and kind
    b_rec = os.path.join(d, "st-b.ndjson")
    b_summary = dict(summary, stalls=[
        {"tid": 201, "tgid": 200, "comm": "worker", "id": 28, "kind": "memcg",
         "count": 2, "total_ns": 3_000_000, "max_ns": 2_000_000},
        {"tid": 202, "tgid": 200, "comm": "worker", "id": 28, "kind": "memcg",
         "count": 1, "total_ns": 2_000_000, "max_ns": 2_000_000}])
    write(b_rec, [b_summary])
    text = run("diff", rec, b_rec).stdout
    row = [line.split() for line in text.splitlines()
           if line.strip().startswith("worker ")]
    check(row == [["worker", "memcg", "1", "10.000", "3", "5.000", "-50.0%", "/app"]],
          f"diff: who stalled, a name's tasks summed, the change in time ({row})")
    j = json.loads(run("diff", "--json", rec, b_rec).stdout)
    w = [e for e in j.get("stalls") or [] if e["comm"] == "worker"]
    check(w and w[0]["a"]["tasks"] == 1 and w[0]["b"] ==
          {"count": 3, "total_ns": 5_000_000, "max_ns": 2_000_000, "tasks": 2},
          f"diff --json: the same, per side ({w})")
    # groups of runs: each side's means per run
    ga, gb = os.path.join(d, "ga"), os.path.join(d, "gb")
    os.makedirs(ga, exist_ok=True)
    os.makedirs(gb, exist_ok=True)
    write(os.path.join(ga, "1.ndjson"), [summary])
    write(os.path.join(ga, "2.ndjson"), [summary])
    write(os.path.join(gb, "1.ndjson"), [b_summary])
    write(os.path.join(gb, "2.ndjson"), [dict(summary, stalls=[
        {"tid": 301, "tgid": 300, "comm": "worker", "id": 28, "kind": "memcg",
         "count": 1, "total_ns": 2_000_000, "max_ns": 2_000_000}])])
    j = json.loads(run("diff", "--json", ga, gb).stdout or "{}")
    w = [e for e in (j.get("stalls") or {}).get("B") or [] if e["comm"] == "worker"]
    check(w and w[0]["a"] == {"count": 1, "total_ns": 10_000_000,
                              "max_ns": 10_000_000, "tasks": 1} and
          w[0]["b"] == {"count": 2, "total_ns": 3_500_000, "max_ns": 2_000_000,
                        "tasks": 1.5},
          f"diff of groups --json: who stalled, means per run ({w})")
    text = run("diff", ga, gb).stdout
    row = [line.split() for line in text.splitlines()
           if line.strip().startswith("worker ")]
    check("the mean of each group's runs" in text and
          row == [["worker", "memcg", "1.0", "10.000", "2.0", "3.500", "-65.0%",
                   "/app"]],
          f"diff of groups: who stalled, means per run ({row})")
    old = os.path.join(d, "old.ndjson")
    write(old, [{k: v for k, v in summary.items() if k != "stalls"}])
    text = run("diff", old, b_rec).stdout
    check("not compared" in text and
          json.loads(run("diff", "--json", old, b_rec).stdout).get("stalls") is None,
          "diff against a recording without stalls per task: said, null in JSON")
    for stall, why in (({"tid": -1, "count": 1, "total_ns": 1, "max_ns": 1},
                        "a negative tid"),
                       ({"tid": 1}, "no count"),
                       ({"tid": 1, "count": 1, "total_ns": 1, "max_ns": 2},
                        "its longest over its total"),
                       ({"tid": 1, "count": 1, "total_ns": 1, "max_ns": 1,
                         "over_budget": 2}, "more over the budget than stalls")):
        bad = dict(summary, stalls=[dict({"comm": "x", "id": 28, "kind": "memcg",
                                          "tgid": 1}, **stall)])
        write(rec, [bad])
        r = run("report", rec)
        check(r.returncode == 1 and "stall" in r.stderr,
              f"a stall with {why}: refused, said ({r.stderr.strip()[-120:]})")


def long_run(d):
    """A kswapd run holding more slices than a task holds back (5,000
    passes) and a throttle whose jiffy-counted delay reaches before the
    run began: the passes go out ahead, the throttle waits for its run
    and is moved into it."""
    rec, out = os.path.join(d, "long.ndjson"), os.path.join(d, "long.json")
    evs = [ev("throttle", 1.0001, 7, reclaimer="kswapd", reason="writeback",
              timeout_us=100000, delayed_us=4000)]
    for i in range(5000):
        evs.append(ev("shrink", 1.001 + i * 1e-5 + 5e-6, 7, reclaimer="kswapd",
                      duration_ns=4000, priority=12, budget=1, budget_used=1,
                      batches=1, last_batch=1, isolated=1, reclaimed=1,
                      nr_to_reclaim=32, exit="budget_exhausted"))
    evs.append(ev("kswapd_run", 1.06, 7, reclaimer="kswapd", id=0,
                  duration_ns=60_000_000, order=0, highest_zoneidx=2,
                  order_reached=0, isolated=5000, nr_reclaimed=5000))
    write(rec, evs)
    r = run("report", rec, "--trace", out)
    check(r.returncode == 0, f"a long kswapd run: exits 0 ({r.stderr[-200:]})")
    doc = trace_check.structure(check, out, "long run", ordered=False)
    if doc:
        (thr,) = by_name(doc, "throttle (writeback)")
        check(trace_check.ns(thr["ts"]) == 1_000_000_000 and
              thr["args"].get("begin_moved_us") == 3900,
              f"the throttle moved into its run ({thr['ts']} µs, moved "
              f"{thr['args'].get('begin_moved_us')} µs)")
        check(len(by_name(doc, "MGLRU pass")) == 5000, "every pass drawn")


def hostile_events(d):
    """Times and delays a hostile recording may carry."""
    rec, out = os.path.join(d, "h.ndjson"), os.path.join(d, "h.json")
    for bad, why in (({"t": "5"}, "t as a string"), ({"t": 1e12}, "t past 31 years"),
                     ({"t": -1}, "a negative t")):
        e = ev("reclaim", 1.0, 5, duration_ns=1, nr_reclaimed=0, nr_to_reclaim=1)
        e.update(bad)
        write(rec, [e])
        r = run("report", rec, "--trace", out)
        check(r.returncode == 1 and '"t"' in r.stderr,
              f"an event with {why}: refused, said ({r.stderr.strip()[-100:]})")
    write(rec, [ev("throttle", 2.0, 5, reason="a" + "é" * 40,
                   timeout_us=1, delayed_us=2 ** 62),
                ev("throttle", 2.0, 5, reason="x" + "é" * 40,
                   timeout_us=1, delayed_us=10),
                ev("reclaim", 2.0, 5, reclaimer="yy" + "é" * 40,
                   duration_ns=10_000, nr_reclaimed=0, nr_to_reclaim=1)])
    r = run("report", rec, "--trace", out)
    check(r.returncode == 0, f"names cut within a character, a delay past "
          f"2^63 ns: still written ({r.stderr.strip()[-100:]})")
    doc = trace_check.structure(check, out, "hostile events")
    if doc:
        check(len([e for e in doc["traceEvents"] if e.get("ph") == "X"]) == 2,
              "the impossible delay left out, the others drawn")
    r = run("report", rec, "--trace", out, "--html", out)
    check(r.returncode == 2 and "same file" in r.stderr,
          f"--trace and --html naming one file: refused ({r.stderr.strip()[-100:]})")


def names(d):
    rec, out = os.path.join(d, "names.ndjson"), os.path.join(d, "names.json")
    bad = "/t\u001b[31m/\\x"
    evs = events()
    for e in evs:
        e["path"] = bad
    write(rec, evs)
    r = run("report", rec, "--trace", out)
    check(r.returncode == 0, f"hostile names: exits 0 ({r.stderr[-200:]})")
    text = open(out, "rb").read()
    check(b"\x1b" not in text, "no escape byte reaches the trace raw")
    doc = trace_check.structure(check, out, "hostile names")
    if doc:
        memcgs = {e["args"].get("memcg") for e in doc["traceEvents"]
                  if e.get("ph") == "X"}
        check(any(m and "\\x1b" in m for m in memcgs),
              f"the escape shown escaped in the memcg's name ({memcgs})")


def no_events(d):
    rec, out = os.path.join(d, "plain.ndjson"), os.path.join(d, "plain.json")
    write(rec, [snapshot(0.5, 0), snapshot(1.5, 10)])
    r = run("report", rec, "--trace", out)
    check(r.returncode == 0 and "no event records" in r.stderr and
          "--events" in r.stderr,
          f"without events: written, and the note says to record with "
          f"--events ({r.stderr.strip()[-160:]})")
    doc = trace_check.structure(check, out, "no events")
    if doc:
        check(not [e for e in doc["traceEvents"] if e.get("ph") == "X"] and
              [e for e in doc["traceEvents"] if e.get("ph") == "C"],
              "counters only")


def outputs(d):
    rec = os.path.join(d, "o.ndjson")
    write(rec, events())
    before = open(rec).read()
    r = run("report", rec, "--trace", rec)
    check(r.returncode == 2 and open(rec).read() == before,
          "report R --trace R: refused, the recording untouched")
    other = os.path.join(d, "notes.txt")
    with open(other, "w") as f:
        f.write("mine\n")
    r = run("report", rec, "--trace", other)
    check(r.returncode == 2 and open(other).read() == "mine\n" and
          "not a trace of ours" in r.stderr,
          f"onto a file not a trace: refused, untouched ({r.stderr.strip()[-120:]})")
    out = os.path.join(d, "o.json")
    run("report", rec, "--trace", out)
    r = run("report", rec, "--trace", out)
    check(r.returncode == 0, "over an earlier trace: written")
    whole = open(out).read()
    big = os.path.join(d, "big.ndjson")
    write(big, events() * 200)
    r = run("report", big, "--trace", out, limit=len(whole) + 4096)
    left = [n for n in os.listdir(d) if ".tmp." in n]
    check(r.returncode == 1 and "cannot write" in r.stderr and
          open(out).read() == whole and not left,
          f"a write that fails: exit 1, said, the earlier trace whole, no "
          f"temporary file left ({r.returncode}, {r.stderr.strip()[-120:]}, {left})")
    broken = os.path.join(d, "broken.ndjson")
    write(broken, events()[:2] + [{"type": "event"}] + events()[2:])
    gone = os.path.join(d, "none.json")
    r = run("report", broken, "--trace", gone)
    left = [n for n in os.listdir(d) if ".tmp." in n]
    check(r.returncode == 1 and not os.path.exists(gone) and not left,
          f"a broken recording: exit 1, no trace, nothing left "
          f"({r.returncode}, {r.stderr.strip()[-120:]})")
    r = run("report", rec, "--trace", os.path.join(d, "no", "such", "t.json"))
    check(r.returncode == 1 and "cannot write" in r.stderr,
          f"into a folder that does not exist: exit 1, said ({r.stderr.strip()[-120:]})")


def main():
    global BIN
    BIN = os.path.abspath(sys.argv[1])
    return judge.parts((nesting, stallers, long_run, hostile_events, names,
                        no_events, outputs), "rs-trace-", "report trace")


if __name__ == "__main__":
    sys.exit(main())
