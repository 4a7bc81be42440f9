#!/usr/bin/env python3
"""Judge the host test's recording.

usage: check.py WORKDIR MEMCG_PATH LIMIT_MB FILE_MB CGROUP_VERSION
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from judge import Judge, load_ndjson, read_kv, ring_accounting  # noqa: E402

judge = Judge()
check = judge.check


def global_sum(vm, prefix):
    """pgscan/pgsteal by type: unlike the _kswapd/_direct split, these
    count memcg reclaim too."""
    return vm.get(prefix + "_anon", 0) + vm.get(prefix + "_file", 0)


def main():
    work, path, limit_mb, file_mb, version = sys.argv[1:6]
    limit_mb, file_mb = int(limit_mb), int(file_mb)
    lines = load_ndjson(judge, os.path.join(work, "rec.ndjson"))
    header, summary = lines[0], lines[-1]
    check(header["type"] == "header" and summary["type"] == "summary",
          "header first, summary last")
    check(summary["drops"] == 0, "no record dropped")
    check(summary["missed"] == 0,
          f"no program run skipped by the kernel ({summary['missed']})")
    check(any(l["type"] == "snapshot" for l in lines), "snapshots were written")
    # made here: pages of this machine's size (a reader elsewhere turns
    # them into bytes by it)
    check(header.get("page_size") == os.sysconf("SC_PAGE_SIZE"),
          f"the header's page_size {header.get('page_size')} == this machine's "
          f"{os.sysconf('SC_PAGE_SIZE')}")
    # the intervals add up to the totals, the last partial one included
    for key in ("scanned", "isolated", "reclaimed", "memcg_reclaims"):
        per_interval = sum(m[key] or 0 for l in lines if l["type"] == "snapshot"
                           for m in l["memcgs"])
        total = sum(m[key] or 0 for m in summary["memcgs"])
        check(per_interval == total,
              f"snapshots' {key} add up to the summary's ({per_interval} == {total})")

    hooks = header["hooks"]
    for h in ("mm_vmscan_lru_isolate", "mm_vmscan_lru_shrink_inactive",
              "mm_vmscan_memcg_reclaim"):
        check(hooks.get(h) == "attached", f"hook {h} attached")
    mine = [m for m in summary["memcgs"] if m["path"] == path]
    if not check(len(mine) == 1, f"the test memcg {path} is in the summary"):
        return
    m = mine[0]
    # To stay under the limit, at least (file - limit) must have been
    # reclaimed from this memcg's own LRU, and it was all file cache.
    floor = (file_mb - limit_mb) * 256
    print(f"  info  {path}: scanned {m['scanned']} isolated {m['isolated']} "
          f"reclaimed {m['reclaimed']} (at least {floor} expected)")
    check(m["reclaimed"] >= floor, f"reclaimed {m['reclaimed']} >= {floor} pages")
    check(m["isolated"] >= m["reclaimed"], "isolated >= reclaimed")
    check(m["reclaimed_file"] == m["reclaimed"], "all of it file pages")
    check(m["memcg_reclaims"] > 0, "memcg limit reclaims were seen")
    check("memcg" in m["by_reclaimer"], "attributed to memcg reclaim")
    # a value the kernel cannot give is null, never 0
    for key, hook in (("passes", "try_to_shrink_lruvec"),
                      ("agings", "try_to_inc_max_seq"),
                      ("flusher_wakeups", "handle_reclaim_writeback")):
        if hooks.get(hook) != "attached":
            check(m[key] is None, f"{key} is null without {hook}")
        else:
            check(isinstance(m[key], int), f"{key} is a number")

    # Global oracle: every scan and reclaim of the run, in all memcgs, is
    # in /proc/vmstat; it holds only if nothing reclaimed between the quiet
    # check and the start of the workload.
    quiet = read_kv(os.path.join(work, "vmstat.quiet"))
    before = read_kv(os.path.join(work, "vmstat.before"))
    after = read_kv(os.path.join(work, "vmstat.after"))
    if global_sum(quiet, "pgscan") != global_sum(before, "pgscan"):
        print("  note  the machine reclaims in the background: global "
              "equality not judged")
    else:
        total = lambda k: sum(x[k] or 0 for x in summary["memcgs"])
        d_scan = global_sum(after, "pgscan") - global_sum(before, "pgscan")
        d_steal = global_sum(after, "pgsteal") - global_sum(before, "pgsteal")
        key = "isolated" if header["mglru"] else "scanned"
        check(total(key) == d_scan,
              f"sum of {key} {total(key)} == /proc/vmstat pgscan delta {d_scan}")
        check(total("reclaimed") == d_steal,
              f"sum of reclaimed {total('reclaimed')} == /proc/vmstat pgsteal delta {d_steal}")

    check_churn(work, summary)
    check_oom(work, summary, version)
    check_filtered(work, path, summary)
    check_overload(work, path, summary)
    check_no_pageout(work, path, summary)
    check_names(work, summary)

    if version == "2":
        b = read_kv(os.path.join(work, "memstat.before"))
        a = read_kv(os.path.join(work, "memstat.after"))
        key = "isolated" if header["mglru"] else "scanned"
        check(m[key] == a["pgscan"] - b["pgscan"],
              f"{key} == memory.stat pgscan delta")
        check(m["reclaimed"] == a["pgsteal"] - b["pgsteal"],
              "reclaimed == memory.stat pgsteal delta")


def check_churn(work, summary):
    """Memcgs made and removed within one interval keep their own path."""
    by_id = {m["id"]: m for m in summary["memcgs"]}
    with open(os.path.join(work, "churn.ids")) as f:
        for line in f:
            ino, path = line.split()
            m = by_id.get(int(ino))
            if not check(m is not None, f"short-lived memcg {path} is in the summary"):
                continue
            check(m["path"] == path, f"  named {m['path']} (kernel id {ino})")
            check(m["gone"] is True, f"  {path} is marked gone")
            check(m["reclaimed"] > 0, f"  {path} has its own reclaim ({m['reclaimed']})")


def check_oom(work, summary, version):
    """The OOM-killed worker's memcg: oom_kills equals the kernel's own
    count (memory.oom_control in v1, memory.events in v2)."""
    with open(os.path.join(work, "oom.count")) as f:
        path, kernel = f.read().split()
    kernel = int(kernel)
    source = "memory.events" if version == "2" else "memory.oom_control"
    check(kernel > 0, f"more anon than {path}'s limit got a task OOM-killed "
          f"({source} oom_kill {kernel})")
    mine = [m for m in summary["memcgs"] if m["path"] == path]
    if check(len(mine) == 1, f"the OOM memcg {path} is in the summary"):
        check(mine[0]["oom_kills"] == kernel,
              f"oom_kills {mine[0]['oom_kills']} == {source} oom_kill {kernel}")


def check_filtered(work, path, full):
    """The --cgroup --events instance: only the test memcg, same totals."""
    lines = load_ndjson(judge, os.path.join(work, "filtered.ndjson"))
    summary = lines[-1]
    check(summary["type"] == "summary", "filtered recording ends with a summary")
    # the filter, canonical, in the header: what a reader needs to tell a
    # memcg outside it from an idle one (diff over groups)
    check(lines[0].get("cgroup_filter") == path,
          f"the header says the filter, canonical ({lines[0].get('cgroup_filter')!r})")
    paths = {m["path"] for m in summary["memcgs"]}
    check(paths == {path}, f"--cgroup keeps only {path} ({sorted(paths)})")
    events = [l for l in lines if l["type"] == "event"]
    check(len(events) > 0, f"--events wrote event records ({len(events)})")
    check(all(e.get("path") == path for e in events),
          "every event record belongs to the filtered memcg")
    check(summary["drops"] == 0, "no event record dropped")
    check(summary["missed"] == 0, "no program run skipped by the kernel")
    # nothing lost on the way, filter included: one record per event
    if summary["memcgs"]:
        f = summary["memcgs"][0]
        n = sum(1 for e in events if e["kind"] == "reclaim")
        check(n == f["memcg_reclaims"],
              f"one reclaim record per memcg reclaim ({n} == {f['memcg_reclaims']})")
        n = sum(1 for e in events if e["kind"] == "throttle")
        check(n == f["throttles"],
              f"one throttle record per throttle ({n} == {f['throttles']})")
    mine = [m for m in full["memcgs"] if m["path"] == path]
    if mine and summary["memcgs"]:
        f = summary["memcgs"][0]
        check(f["reclaimed"] == mine[0]["reclaimed"] and
              f["isolated"] == mine[0]["isolated"],
              "both instances counted the same pages")


def check_overload(work, path, full):
    """The instance whose consumer was stopped, with a 16 KiB ring: records
    were dropped, every one of them counted, and the totals still exact."""
    lines = load_ndjson(judge, os.path.join(work, "overload.ndjson"))
    summary = lines[-1]
    if not check(summary["type"] == "summary",
                 "overloaded recording ends with a summary"):
        return
    print(f"  info  overload: {summary['records']} records delivered, "
          f"{summary['drops']} dropped {summary.get('drops_by_kind')}")
    check(summary["drops"] > 0, "the stopped consumer made the ring drop records")
    events = [l for l in lines if l["type"] == "event"]
    check(len(events) == summary["records"],
          f"every submitted record was delivered ({len(events)} == {summary['records']})")
    ring_accounting(judge, lines, "overload")
    snaps = sum(l["drops"] for l in lines if l["type"] == "snapshot")
    check(snaps == summary["drops"], f"the snapshots report the drops ({snaps})")
    mine = [m for m in summary["memcgs"] if m["path"] == path]
    ref = [m for m in full["memcgs"] if m["path"] == path]
    if check(len(mine) == 1 and len(ref) == 1, "overload run has the test memcg"):
        same = all(mine[0][k] == ref[0][k] for k in
                   ("scanned", "isolated", "reclaimed", "memcg_reclaims", "throttles"))
        check(same, "its in-kernel totals equal the unloaded run's")


def check_no_pageout(work, path, full):
    """The instance loaded against this kernel's BTF without
    reclaim_stat.nr_pageout, as on 7.3: that member costs pageout and
    nothing else."""
    lines = load_ndjson(judge, os.path.join(work, "nopageout.ndjson"))
    header, summary = lines[0], lines[-1]
    if not check(summary["type"] == "summary",
                 "the run without nr_pageout ends with a summary"):
        return
    hooks = header["hooks"]
    check(hooks.get("mm_vmscan_lru_shrink_inactive") == "attached",
          "without nr_pageout: mm_vmscan_lru_shrink_inactive still attached "
          f"({hooks.get('mm_vmscan_lru_shrink_inactive')})")
    check(hooks.get("reclaim_stat.nr_pageout") == "missing",
          "without nr_pageout: the header says the member is missing")
    mine = [m for m in summary["memcgs"] if m["path"] == path]
    ref = [m for m in full["memcgs"] if m["path"] == path]
    if not check(len(mine) == 1 and len(ref) == 1,
                 "the run without nr_pageout has the test memcg"):
        return
    m, r = mine[0], ref[0]
    check(m["pageout"] is None and r["pageout"] is not None,
          f"pageout is null there only ({m['pageout']}, {r['pageout']})")
    differ = [k for k in r if k not in ("pageout", "by_reclaimer", "by_node")
              and (r[k] is None) != (m[k] is None)]
    check(not differ, f"no other value turned null ({differ})")
    for key in ("reclaimed", "reclaimed_file", "dirty", "writeback",
                "isolated", "scanned"):
        check(m[key] == r[key],
              f"without nr_pageout: {key} {m[key]} == {r[key]}")


def rs_escape(raw):
    """The escaped form of a cgroup name (src/util.c rs_escape_name), made
    independently: bytes that do not decode as UTF-8, controls, DEL, C1
    and the backslash as \\xHH."""
    out = []
    for ch in raw.decode("utf-8", "surrogateescape"):
        cp = ord(ch)
        if 0xDC80 <= cp <= 0xDCFF:
            out.append(f"\\x{cp - 0xDC00:02x}")
        elif cp < 0x20 or cp == 0x7F or ch == "\\" or 0x80 <= cp < 0xA0:
            out.append("".join(f"\\x{b:02x}" for b in ch.encode()))
        else:
            out.append(ch)
    return "".join(out)


def check_names(work, summary):
    """Memcgs named with a byte that is not UTF-8 and with a terminal
    escape: in the recording under their escaped names, and no view
    carries the raw bytes."""
    with open(os.path.join(work, "bad-names.txt"), "rb") as f:
        names = [l.rstrip(b"\n") for l in f if l.strip()]
    check(len(names) == 2, "two hostile memcg names were made")
    paths = {m["path"]: m for m in summary["memcgs"] if m.get("path")}
    for raw in names:
        want = rs_escape(raw)
        m = paths.get(want)
        check(m is not None and (m["isolated"] or 0) > 0,
              f"memcg {want} is in the recording under its escaped name, "
              "with its reclaim")
    for view in ("top-names.txt", "report.txt", "rec.ndjson", "metrics.txt",
                 "api.json", "api.metrics.json"):
        with open(os.path.join(work, view), "rb") as f:
            data = f.read()
        check(b"\x1b" not in data and b"\xff" not in data,
              f"{view}: no raw escape or invalid byte")
        try:
            data.decode("utf-8")
            ok = True
        except UnicodeDecodeError:
            ok = False
        check(ok, f"{view}: valid UTF-8")
    with open(os.path.join(work, "top-names.txt"), encoding="utf-8") as f:
        top = f.read()
    with open(os.path.join(work, "report.txt"), encoding="utf-8") as f:
        report = f.read()
    for raw in names:
        want = rs_escape(raw)
        check(want in top, f"top -b shows {want}")
        check(want in report, f"report shows {want}")


if __name__ == "__main__":
    main()
    sys.exit(judge.close("host"))
