"""Shared by the host and VM checkers: numbered checks and the closing line.

Each check prints "ok" or "FAIL" with what it asserts; the closing line is
"NAME: N passed, M failed", which CI reads.
"""
import json
import re
import rs_tables  # noqa: E402 (tests/lib, beside this file)


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

    def parts(self, parts, prefix, name):
        """Run each part(d) in a fresh temporary folder d, an exception a
        failed check (an old binary's output), then the closing line."""
        import shutil
        import tempfile
        d = tempfile.mkdtemp(prefix=prefix)
        try:
            for part in parts:
                try:
                    part(d)
                except Exception as e:
                    self.check(False, f"{part.__name__}: {type(e).__name__}: {e}")
        finally:
            shutil.rmtree(d, ignore_errors=True)
        return self.close(name)

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
    "shrink": ("passes",),
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


def hook_cost_checks(judge, probe, samples, before, after, ids):
    """The daemon's reclaimscope_hook_runs_total / _run_seconds_total against
    the kernel's own timing of its programs: `bpftool prog show --json` read
    just before and just after the /metrics read (before, after), restricted
    to the program ids the daemon holds (ids).  Per hook: runs are its first
    copies' run_cnt, seconds every copy's run_time_ns; each metric lies
    between the two readings (equal to both when nothing reclaimed
    meanwhile)."""
    def by_name(progs):
        return {p["name"]: p for p in progs if p["id"] in ids}

    lo, hi = by_name(before), by_name(after)
    runs = {lab["hook"]: v for n, lab, v in samples
            if n == "reclaimscope_hook_runs_total"}
    secs = {lab["hook"]: v for n, lab, v in samples
            if n == "reclaimscope_hook_run_seconds_total"}
    claimed = set()
    judge.check(probe["tracepoint_copies"] ==
                (1 if probe["tracepoint_preemption"] == "off" else 5),
                f"one copy of each tracepoint program iff tracepoints run "
                f"with preemption off ({probe['tracepoint_preemption']}: "
                f"{probe['tracepoint_copies']})")
    # per-event hooks only: an iterator ('i', read when userspace asks)
    # has no copies and no cost per event
    kinds = {name: kind for _, name, kind in rs_tables.hooks()}
    for hook, st in probe["hooks"].items():
        firsts = st.get("programs")
        if firsts and kinds.get(hook) == "i":
            claimed.update(p for p in hi if p in firsts)
        if not firsts or kinds.get(hook) not in ("f", "t"):
            continue
        every = [p for p in hi
                 if re.sub(r"_[0-9]+$", "", p) in firsts]
        claimed.update(every)
        # copies (RS_PROGS): one per tracepoint program where the kernel
        # runs them with preemption off, five for functions and elsewhere
        tracepoint = kinds[hook] == "t"
        copies = probe["tracepoint_copies"] if tracepoint else 5
        judge.check(len(every) == copies * len(firsts),
                    f"{hook}: {copies} cop{'y' if copies == 1 else 'ies'} "
                    f"of each of its {len(firsts)} programs loaded "
                    f"({len(every)})")
        if not judge.check(hook in runs and hook in secs,
                           f"{hook}: both cost metrics are there"):
            continue
        r = [sum(s.get(n, {}).get("run_cnt", 0) for n in firsts)
             for s in (lo, hi)]
        ns = [sum(s.get(n, {}).get("run_time_ns", 0) for n in every)
              for s in (lo, hi)]
        judge.check(r[0] <= runs[hook] <= r[1],
                    f"{hook}: runs {runs[hook]:.0f} within the kernel's "
                    f"run_cnt of {'+'.join(firsts)} ({r[0]}..{r[1]})")
        judge.check(ns[0] <= round(secs[hook] * 1e9) <= ns[1],
                    f"{hook}: {secs[hook]:.9f} s within the kernel's "
                    f"run_time_ns of its {len(every)} programs "
                    f"({ns[0]}..{ns[1]})")
    judge.check(set(hi) == claimed,
                f"every program of the daemon is some hook's "
                f"({len(hi)} programs; not: {sorted(set(hi) - claimed)[:3]})")
    judge.check(any(v > 0 for v in runs.values()),
                "some hook ran (the comparison is not of zeros)")
