#!/usr/bin/env python3
"""report and diff on recordings of many memcgs: peak memory and time per
size, one JSON line each on stdout (bench.sh appends them to host.jsonl;
report.py renders them in section 4).

usage: views.py RECLAIMSCOPE N...

For each N: two recordings of N memcgs (tests/report/hostile.py's
generator: a few counters each), then `report --json A`, `diff --json A B`
and `diff --groups --json A B`, each once, its peak RSS (GNU time) and
its wall time.  Linear means the per-memcg figures stay put as N grows.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "report"))
from hostile import many  # noqa: E402  (the same generator as the test)


def measure(args):
    """Peak RSS (KiB) and seconds, by GNU time: a child of this process
    would report at least this process's own peak (Linux keeps the larger
    of the two across exec), GNU time's child starts from its small one."""
    with tempfile.NamedTemporaryFile("r") as t:
        start = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%M", *args],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.monotonic() - start
        if p.returncode:
            sys.exit(f"views: {' '.join(args)} failed")
        return int(t.read().split()[-1]), seconds


def main():
    binary = os.path.abspath(sys.argv[1])
    d = tempfile.mkdtemp(prefix="rs-views-")
    try:
        for n in (int(a) for a in sys.argv[2:]):
            a, b = os.path.join(d, "a.ndjson"), os.path.join(d, "b.ndjson")
            many(a, n, 0)
            many(b, n, 3)
            for name, args in (("report --json", ["report", "--json", a]),
                               ("diff --json", ["diff", "--json", a, b]),
                               ("diff --groups --json", ["diff", "--groups", "--json", a, b])):
                kib, seconds = measure([binary, *args])
                print(json.dumps({"kind": "views", "command": name, "memcgs": n,
                                  "peak_kib": kib, "seconds": round(seconds, 3)}),
                      flush=True)
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
