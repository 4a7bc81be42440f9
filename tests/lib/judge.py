"""Shared by the host and VM checkers: numbered checks and the closing line.

Each check prints "ok" or "FAIL" with what it asserts; the closing line is
"NAME: N passed, M failed", which CI reads.
"""
import json
import re


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


METRIC_LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
METRIC_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_metrics(text, judge=None):
    """[(name, {labels}, value)] of the sample lines of a Prometheus text
    exposition; with a judge, a line that does not parse is a failure."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = METRIC_LINE.match(line)
        if not m:
            if judge:
                judge.check(False, f"sample line parses: {line[:60]}")
            continue
        labels = dict(METRIC_LABEL.findall(m.group(3) or ""))
        out.append((m.group(1), labels, float(m.group(4))))
    return out


# Each record kind and the in-kernel per-memcg counters that count the
# events it is emitted for (kept whether or not the record fits the ring).
RECORD_COUNTS = {
    "shrink": ("shrinks",),
    "aging": ("aging_attempts",),
    "writeback": ("writeback_checks",),
    "throttle": ("throttles",),
    "reclaim": ("direct_reclaims", "memcg_reclaims", "node_reclaims"),
}


def ring_accounting(judge, lines, name):
    """An unfiltered --events recording: for every record kind, records
    delivered + records dropped == events the kernel counted, exactly."""
    summary = lines[-1]
    by_kind = summary.get("drops_by_kind") or {}
    judge.check(sum(by_kind.values()) == summary["drops"],
                f"{name}: drops by kind add up to drops ({summary['drops']})")
    for kind, counters in RECORD_COUNTS.items():
        counts = [m[c] for m in summary["memcgs"] for c in counters]
        if any(c is None for c in counts):
            continue  # the kernel cannot give this count here
        produced = sum(counts)
        delivered = sum(1 for l in lines
                        if l["type"] == "event" and l["kind"] == kind)
        dropped = by_kind.get(kind, 0)
        judge.check(delivered + dropped == produced,
                    f"{name}: {kind} records delivered {delivered} + dropped "
                    f"{dropped} == counted {produced}")
