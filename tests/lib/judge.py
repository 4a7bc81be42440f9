"""Shared by the host and VM checkers: numbered checks and the closing line.

Each check prints "ok" or "FAIL" with what it asserts; the closing line is
"NAME: N passed, M failed", which CI reads.
"""
import json


class Judge:
    def __init__(self):
        self.passed = 0
        self.failures = []

    def check(self, ok, what):
        print(("  ok    " if ok else "  FAIL  ") + what)
        if ok:
            self.passed += 1
        else:
            self.failures.append(what)
        return ok

    def close(self, name):
        print(f"{name}: {self.passed} passed, {len(self.failures)} failed")
        return 1 if self.failures else 0


def read_kv(path):
    """memory.stat, memory.events, /proc/vmstat: 'key value' lines."""
    out = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2 and parts[1].lstrip("-").isdigit():
                out[parts[0]] = int(parts[1])
    return out


def load_ndjson(judge, path):
    """Every line of a recording, each parsed by itself."""
    lines = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            try:
                lines.append(json.loads(raw))
            except ValueError as e:
                judge.check(False, f"line {n} of {path} is JSON ({e})")
    return lines
