#!/usr/bin/env python3
"""The lab's report checked against the recordings it was made from.

usage: check.py LAB_OUT

For every workload table in LAB_OUT/report.md: each group's cells (mean ±
95% half-width) are computed again here from the group's recordings
(runs/WORKLOAD/GROUP/run-K/results/rec.ndjson: the summary's totals and the
workload's outcome records), and each change and p-value with the test that
fits the metric: for counts and yes/no outcomes the exact permutation test,
every split of the pooled runs enumerated here (not the tool's code); for
the rest Welch's test, its t distribution integrated numerically (not the
tool's continued fraction), or the permutation test where neither group
has any spread.  A verdict only at p < 0.05, and "too few runs" exactly
where no split could reach it.  A cell with a figure this check cannot
recompute fails: every row of the table is vouched for, or named.  Where
the recording holds every event record, the counters and histograms the
figures come from are held to those records too.  Every run must have passed its own checks (run.json "ok"), and
the recordings must agree with the JSON export.
"""
import bisect
import collections
import glob
import itertools
import json
import math
import os
import random
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from judge import Judge, load_ndjson  # noqa: E402
import rs_tables  # noqa: E402

judge = Judge()
check = judge.check


def t_pdf(x, df):
    return math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)
                    - 0.5 * math.log(df * math.pi)
                    - (df + 1) / 2 * math.log1p(x * x / df))


def t_two_sided_p(t, df):
    """Twice the tail beyond |t|, substituting x = |t| / v to bring it onto
    (0, 1], by the midpoint rule: no cancellation for tiny p."""
    t, n = abs(t), 20000
    if t == 0:
        return 1.0
    h = 1.0 / n
    tail = sum(t_pdf(t / v, df) * t / (v * v) for v in ((i + 0.5) * h for i in range(n)))
    return 2 * tail * h


def t_critical(df):
    return t_quantile(0.05, df)


def recording_values(path):
    """{metric: value} of the report's rows this test recomputes."""
    rec = load_ndjson(judge, path)
    summary = rec[-1]
    header = rec[0]
    outs = [l for l in rec if l.get("type") == "outcome"]
    whole = [o for o in outs if o.get("worker") is None]
    # under the key it had before schema 4 in a recording made before it
    old = rs_tables.old_names()
    tot = lambda k: sum(m[k] if k in m else m[old[k]] for m in summary["memcgs"])  # noqa: E731
    # a memcg's own counters on cgroup v2 include its descendants': the
    # total takes, per counter, the memcgs no listed ancestor that knows
    # it already counts; v2's root has no memory.events (its OOM kills
    # unknown, whatever an older recording wrote), and an unknown value
    # with listed descendants leaves the count to them
    v1 = header.get("cgroup_version") == 1
    value = {(m["path"], k): (None if not v1 and m["path"] == "/" and k == "oom_kills"
                              else m.get(k))
             for m in summary["memcgs"] for k in ("refaults_anon", "refaults_file", "oom_kills")}
    paths = {m["path"] for m in summary["memcgs"]}

    def below(p, a):
        return p != a and (p.startswith(a + "/") or (a == "/" and p.startswith("/")))

    def own(k):
        total = 0
        for p in paths:
            if v1:
                total += value[(p, k)]
                continue
            if any(below(p, a) and value[(a, k)] is not None for a in paths):
                continue
            if value[(p, k)] is None and any(below(d, p) for d in paths):
                continue
            total += value[(p, k)]
        return total
    v = {"scanned": tot("scanned"), "reclaimed": tot("reclaimed"),
         "refaults": own("refaults_anon") + own("refaults_file"),
         "oom_kills": own("oom_kills")}
    if all(m.get("passes") is not None for m in summary["memcgs"]):
        v["passes"] = tot("passes")
    isolated = tot("isolated")
    if isolated:
        v["efficiency"] = 100.0 * v["reclaimed"] / isolated
    # the eviction ages (us summed, one per batch aged): their mean in ms
    aged = sum(m.get("evict_aged") or 0 for m in summary["memcgs"])
    if aged:
        v["evict_age"] = sum(m.get("evict_age_sum") or 0
                             for m in summary["memcgs"]) / aged / 1e3
    for key, name in (("mb_per_s", "mb_per_s"), ("ops_per_s", "ops_per_s"),
                      ("iterations", "iterations"), ("pgpgin_kib", "pgpgin"),
                      ("pgpgout_kib", "pgpgout")):
        have = [o[key] for o in whole if o.get(key) is not None]
        if have:
            v[name] = sum(have)
    # processes: a workload's workers, or the workload if it has none
    has_workers = {o["workload"] for o in outs if o.get("worker") is not None}
    with_oom = [o for o in outs if o.get("oom_killed") is not None
                and (o.get("worker") is not None or o["workload"] not in has_workers)]
    if with_oom:
        v["oom_killed"] = sum(1 for o in with_oom if o["oom_killed"])
    v.update(timeline_figures(rec))
    v.update(oom_figures(rec))
    v.update(counter_figures(rec))
    v.update(latency_figures(rec))
    v.update(outcome_figures(outs, has_workers))
    return v


def every_event(rec):
    """The recording holds every event record (recorded with --events,
    nothing dropped or missed): figures from events stand, and the
    summary's totals must equal them."""
    summary = rec[-1]
    # (the tool's own maps full: its counters or histograms lost updates
    # the records still carry)
    return not summary.get("drops") and not summary.get("missed") \
        and not summary.get("agg_full") and not summary.get("hist_full") \
        and any(r.get("type") == "event" for r in rec)


def reclaim_records(rec, direct):
    """The reclaim records of global direct reclaim, or (direct False) of
    memcg reclaim (limit or memory.reclaim), as the counters and the
    histograms split them (node reclaim is neither)."""
    return [e for e in rec if e.get("type") == "event" and e.get("kind") == "reclaim"
            and (e.get("reclaimer") == "direct") == direct and e.get("reclaimer") != "node"]


def counter_figures(rec):
    """The rows that are one counter of the summary (or two), summed over
    the memcgs (these are reclaimscope's own counts, one memcg each, not
    the cgroup files' hierarchical ones), each held to the event records
    that count it where the recording has all of them
    (docs/recording-format.md: records of a kind == its counters)."""
    memcgs = rec[-1]["memcgs"]

    def total(k):
        vals = [m.get(k) for m in memcgs]
        return None if not vals or any(x is None for x in vals) else sum(vals)
    v = {}
    for key in ("agings", "flusher_wakeups", "throttles", "memcg_reclaims",
                "direct_reclaims"):
        if total(key) is not None:
            v[key] = total(key)
    if total("throttled") is not None:
        v["throttled"] = total("throttled") / 1e3  # us -> ms
    if total("budget") and total("budget_used") is not None:
        v["budget_use"] = 100.0 * total("budget_used") / total("budget")
    if total("passes") and total("reclaimed") is not None:
        v["reclaimed_per_pass"] = total("reclaimed") / total("passes")
    if every_event(rec):
        events = [r for r in rec if r.get("type") == "event"]
        kind = lambda k: [e for e in events if e["kind"] == k]  # noqa: E731
        if "agings" in v:
            check(sum(1 for e in kind("aging") if e.get("success")) == v["agings"],
                  f"agings {v['agings']} == the aging records that advanced max_seq")
        for key, direct in (("direct_reclaims", True), ("memcg_reclaims", False)):
            if key in v:
                n = len(reclaim_records(rec, direct))
                check(n == v[key], f"{key} {v[key]} == its reclaim records ({n})")
        if "throttles" in v:
            th = kind("throttle")
            check(len(th) == v["throttles"], f"throttles {v['throttles']} == its records ({len(th)})")
            us = sum(e.get("delayed_us") or 0 for e in th)
            check("throttled" not in v or abs(us / 1e3 - v["throttled"]) < 1e-6 * max(1, us),
                  f"throttled {v.get('throttled')} ms == its records' delays ({us / 1e3} ms)")
    return v


# The histograms' buckets (docs/recording-format.md): one per ns up to 16,
# then each power of two 2^k .. 2^(k+1) split in 16, up to 2^37 ns
HIST_BOUNDS = list(range(1, 17)) + [
    (1 << k) + j * (1 << (k - 4)) for k in range(4, 37) for j in range(1, 17)]


def hist_bucket(ns):
    """The index of the bucket that holds a value: the first bound at or
    above it (the last bucket holds everything past 2^37 ns)."""
    import bisect
    return min(bisect.bisect_left(HIST_BOUNDS, ns), len(HIST_BOUNDS) - 1)


def hist_quantile(counts, q):
    """A quantile of {bucket index: count}, interpolated linearly inside
    the bucket that holds its rank; None past the range."""
    total = sum(counts.values())
    if not total:
        return None
    rank, seen = q * total, 0
    for b in sorted(counts):
        n = counts[b]
        if seen + n < rank:
            seen += n
            continue
        if b == len(HIST_BOUNDS) - 1:
            return None
        lo = HIST_BOUNDS[b - 1] if b else 0
        frac = min(1.0, max(0.0, (rank - seen) / n))
        return lo + (HIST_BOUNDS[b] - lo) * frac
    return HIST_BOUNDS[max(counts)]


def latency_figures(rec):
    """memcg_p99 and direct_p99: the 99th percentile of the memcgs'
    histograms merged (kept in the kernel: whole even with records
    dropped), in ms, never above the longest event where the recording has
    every event; each histogram then held to its event records, bucket by
    bucket."""
    complete = every_event(rec)
    memcgs = rec[-1]["memcgs"]
    v = {}
    for key, hist, direct in (("memcg_p99", "memcg_reclaim", False),
                              ("direct_p99", "direct_reclaim", True)):
        if any((m.get("histograms") or {}).get(hist) is None for m in memcgs):
            continue  # the hook is missing: no figure
        merged = {}
        for m in memcgs:
            for hi, n in m["histograms"][hist]:
                b = HIST_BOUNDS.index(hi)
                merged[b] = merged.get(b, 0) + n
        durations = [e["duration_ns"] for e in reclaim_records(rec, direct)]
        from_events = dict(collections.Counter(hist_bucket(d) for d in durations))
        if complete:
            check(from_events == merged,
                  f"{hist}: the histograms' buckets == their reclaim records' "
                  f"({sum(merged.values())} against {len(durations)})")
        q = hist_quantile(merged, 0.99)
        if q is not None:
            v[key] = min(q, max(durations)) / 1e6 if complete and durations else q / 1e6
    return v


def outcome_figures(outs, has_workers):
    """The workload's own rows (the catalogue's outcome rows): a latency
    of the one outcome of the whole workload, the workers' mean progress
    and Jain's index of it, the processes that failed but not by OOM."""
    v = {}
    whole = [o for o in outs if o.get("worker") is None]
    for key, name in (("lat_mean_ms", "lat_mean"), ("lat_p99_ms", "lat_p99")):
        have = [o[key] for o in whole if o.get(key) is not None]
        if len(have) == 1:
            v[name] = have[0]
    progress = [o["progress"] for o in outs
                if o.get("worker") is not None and o.get("progress") is not None]
    if progress:
        v["worker_progress"] = sum(progress) / len(progress)
    sq = sum(x * x for x in progress)
    if len(progress) >= 2 and sq:
        v["worker_fairness"] = sum(progress) ** 2 / (len(progress) * sq)
    procs = [o for o in outs if o.get("exit_status") is not None
             and (o.get("worker") is not None or o["workload"] not in has_workers)]
    if procs:
        v["failed"] = sum(1 for o in procs if o["exit_status"] != 0 and not o.get("oom_killed"))
    return v


def oom_figures(rec):
    """From the OOM records, where the recording has every record (nothing
    dropped or missed) and not while MGLRU is off (lrugen's generations
    are stale then): oom_file_lru and oom_anon_lru, the file and anon
    pages of the generations each record carries, in MiB of the recorded
    kernel's pages, mean over the records that carry them; oom_oldest_age
    and oom_youngest_age, the oldest and youngest generations' ages, mean
    over the records with every age (src/model/recording.c)."""
    summary = rec[-1]
    if summary.get("drops") or summary.get("missed"):
        return {}
    # the recorded kernel's pages (docs/recording-format.md: 4 KiB where
    # the header does not say)
    page = rec[0].get("page_size", 4096)
    files, anons, oldest, youngest = [], [], [], []
    mglru = None  # as the header, then each snapshot, says (None: unsaid)
    for e in rec:
        if e.get("type") in ("header", "snapshot") and isinstance(e.get("mglru"), bool):
            mglru = e["mglru"]
        if e.get("type") != "event" or e.get("kind") != "oom" or mglru is False:
            continue
        gens = e.get("generations")
        if not isinstance(gens, list):
            continue
        files.append(sum(max(0, g["file"]) for g in gens))
        anons.append(sum(max(0, g["anon"]) for g in gens))
        ages = [g.get("age_ms") for g in gens]
        if ages and all(a is not None for a in ages):
            oldest.append(ages[0])
            youngest.append(ages[-1])
    v = {}
    if files:
        v["oom_file_lru"] = sum(files) / len(files) * page / 2**20
        v["oom_anon_lru"] = sum(anons) / len(anons) * page / 2**20
    if oldest:
        v["oom_oldest_age"] = sum(oldest) / len(oldest)
        v["oom_youngest_age"] = sum(youngest) / len(youngest)
    return v


def timeline_figures(rec):
    """gens_alive and aging_interval of the whole recording, from the
    snapshots' lru_gens (docs/recording-format.md), computed here apart
    from src/model/gens.c: per memcg and node, each sample holds until the
    next, that node's "end", MGLRU off (null) or the last snapshot; a
    birth counts once per lruvec (the youngest counted is kept across
    ends and MGLRU off), the gap to it from its elder's birth taken from
    one entry's ages, where both are known.  {} where the recording has
    no timeline."""
    last, born, held, alive_held, gaps = {}, {}, 0.0, 0.0, []
    sampled = False
    t_end = 0.0

    def hold(e, t):
        nonlocal held, alive_held
        if t > e["t"]:
            held += t - e["t"]
            alive_held += len(e["gens"]) * (t - e["t"])

    for r in rec:
        if r.get("type") != "snapshot":
            continue
        t_end = r["t"]
        if "lru_gens" not in r:
            continue
        if r["lru_gens"] is None:
            for e in last.values():
                hold(e, r["t"])
            last = {}
            continue
        for e in r["lru_gens"]:
            key = (e["id"], e["node"])
            # torn by an aging (a generation younger than the next): the
            # reader skips it, the last sample standing
            ages = [g["age_ms"] for g in e.get("gens") or []]
            if any(a is not None and b is not None and a < b
                   for a, b in zip(ages, ages[1:])):
                continue
            prev = last.pop(key, None)
            if e.get("end"):
                if prev:
                    hold(prev, r["t"])
                continue
            if prev:
                hold(prev, e["t"])
            sampled = True
            # seqs 0..3 are made with the lruvec (max_seq = MIN_NR_GENS
            # + 1): a gap counts between two births by agings
            for a, b in zip(e["gens"], e["gens"][1:]):
                if b["seq"] > born.get(key, 0) and a["seq"] > 3 and a["age_ms"] is not None \
                        and b["age_ms"] is not None:
                    gaps.append(a["age_ms"] - b["age_ms"])
                    born[key] = b["seq"]
            last[key] = e
    for e in last.values():
        hold(e, t_end)
    v = {}
    if sampled and held > 0:
        v["gens_alive"] = alive_held / held
    if gaps:
        v["aging_interval"] = sum(gaps) / len(gaps)
    return v


def sample(xs):
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return n, mean, None, None
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    return n, mean, sd, t_critical(n - 1) * sd / math.sqrt(n)


# the report's rows that count something: judged by the permutation test
COUNTS = {"scanned", "reclaimed", "refaults", "oom_kills", "passes",
          "agings", "flusher_wakeups", "throttles", "memcg_reclaims",
          "direct_reclaims", "iterations", "ops", "oom_killed", "failed",
          "pgpgin", "pgpgout"}


def welch(a, b):
    (na, ma, sa, _), (nb, mb, sb, _) = a, b
    if sa is None or sb is None:
        return None
    va, vb = sa * sa / na, sb * sb / nb
    if va + vb == 0:
        return None  # no spread: t is undefined
    df = (va + vb) ** 2 / (va * va / (na - 1) + vb * vb / (nb - 1))
    return t_two_sided_p((mb - ma) / math.sqrt(va + vb), df)


def observed_split(xa, xb):
    """(pooled, na, nb, total, observed difference of means, the
    rounding a split's difference is allowed to fall short of it by)."""
    pooled, na, nb = xa + xb, len(xa), len(xb)
    observed = abs(sum(xb) / nb - sum(xa) / na)
    tol = 1e-9 * observed + 1e-12 * max(abs(v) for v in pooled)
    return pooled, na, nb, sum(pooled), observed, tol


def permutation(xa, xb):
    """(p, smallest possible p): the share of all splits of the pooled
    values into groups of these sizes whose difference of means is at
    least the observed one."""
    pooled, na, nb, total, observed, tol = observed_split(xa, xb)
    splits = hits = 0
    for idx in itertools.combinations(range(na + nb), nb):
        sb = sum(pooled[i] for i in idx)
        splits += 1
        hits += abs(sb / nb - (total - sb) / na) >= observed - tol
    p_min = (2 if na == nb else 1) / math.comb(na + nb, na)
    return hits / splits, p_min


# src/model/stats.h: the permutation test counts every split up to this
# many, and estimates p from as many random splits past it
PERM_EXACT_SPLITS = 200000
PERM_RESAMPLES = 20000


def resampled_permutation(xa, xb):
    """(p, smallest possible p) estimated from PERM_RESAMPLES random splits
    (with a seed of our own: the lab's estimate and this one are two draws,
    compared within their error), (1 + hits) / (1 + resamples)."""
    pooled, na, nb, total, observed, tol = observed_split(xa, xb)
    rng = random.Random(1)
    hits = 0
    for _ in range(PERM_RESAMPLES):
        sb = sum(rng.sample(pooled, nb))
        hits += abs(sb / nb - (total - sb) / na) >= observed - tol
    p_min = max((2 if na == nb else 1) / math.comb(na + nb, na),
                1 / (1 + PERM_RESAMPLES))
    return (1 + hits) / (1 + PERM_RESAMPLES), p_min


def near(shown, exact):
    """A cell's figure (4 significant digits, or whole from 1000 up)."""
    if exact == 0:
        return shown == 0
    return abs(shown - exact) <= max(0.51, 6e-4 * abs(exact))


def cell(text):
    """(mean, 95% half-width or None, cv in % or None) of a cell."""
    m = re.fullmatch(r"\s*(-?[0-9.e+-]+)(?: ± ([0-9.e+-]+))?"
                     r"(?:, cv ([0-9.e+-]+)%)?(?: \(n=\d+\))?\s*", text)
    if not m:
        return None
    return (float(m.group(1)), float(m.group(2)) if m.group(2) else None,
            float(m.group(3)) if m.group(3) else None)


def t_quantile(p_two_sided, df):
    lo, hi = 0.0, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > p_two_sided:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def welch_mde(a, b, power=0.8):
    """The change Welch's test calls significant at 0.05 in that share of
    repeats: (t(0.05) + t(2 (1 - power))) * se, its own t quantiles."""
    (na, _, sa, _), (nb, _, sb, _) = a, b
    va, vb = sa * sa / na, sb * sb / nb
    df = (va + vb) ** 2 / (va * va / (na - 1) + vb * vb / (nb - 1))
    return (t_quantile(0.05, df) + t_quantile(2 * (1 - power), df)) * math.sqrt(va + vb)


def check_table(out, workload, sec):
    """One table of a workload: its cells recomputed from exactly the
    recordings the lab counted (counted/WORKLOAD/GROUP/, what diff read)."""
    groups = re.findall(r"^\| ([A-C]): (\S+) \| (\S+) \| (\S+) \| (\d+) of (\d+) \|", sec, re.M)
    check(len(groups) >= 2, f"{workload}: two groups or more")
    values = {}
    for letter, group, _, _, ok, total in groups:
        # the runs the report lists, run-1..run-N: a run beyond -n, or one
        # a lab still makes, is not the report's (and has no run.json yet)
        infos = []
        for i in range(1, int(total) + 1):
            path = os.path.join(out, "runs", workload, group, f"run-{i}", "run.json")
            check(os.path.exists(path), f"{workload} {group}: run {i} listed, never made")
            infos.append(json.load(open(path)) if os.path.exists(path) else {})
        check(all(i.get("status") == "ok" for i in infos),
              f"{workload} {group}: every run passed its checks "
              f"({[i.get('why') for i in infos if i.get('status') != 'ok']})")
        recs = sorted(glob.glob(os.path.join(out, "counted", workload, group, "*.ndjson")))
        values[letter] = [recording_values(p) for p in recs]
        check(len(values[letter]) == int(ok), f"{workload} {group}: {ok} recordings counted")
    rows = re.findall(r"^\| (\w+) \| [^|]* \|(.*)\|$", sec, re.M)
    checked = 0
    for metric, rest in rows:
        if metric in ("group", "metric"):
            continue
        cells = [c.strip() for c in rest.split("|")]
        # A | B | change B | C | change C
        letters = ["A", "B", "C"][:1 + (len(cells) - 1) // 2]
        samples, raw = {}, {}
        for i, letter in enumerate(letters):
            text = cells[0 if i == 0 else 2 * i - 1]
            got = cell(text)
            xs = [v[metric] for v in values.get(letter, []) if metric in v]
            if not xs:
                # a figure the recordings do not give is a cell this
                # check cannot vouch for
                check(got is None,
                      f"{workload} {metric} {letter}: recomputed from the recordings ({text})")
                continue
            samples[letter] = s = sample(xs)
            raw[letter] = xs
            if not check(got is not None, f"{workload} {metric} {letter}: a figure ({text})"):
                continue
            check(near(got[0], s[1]), f"{workload} {metric} {letter}: mean {got[0]} == {s[1]:.6g}")
            if s[3] is not None:
                check(near(got[1], s[3]), f"{workload} {metric} {letter}: 95% half-width {got[1]} == {s[3]:.6g}")
            if s[2] is not None and s[1] != 0:
                cv = 100 * s[2] / abs(s[1])
                # whole percents from 10% up, two significant digits below
                tol = 0.51 if cv >= 9.95 else \
                    0 if cv == 0 else 0.051 * 10 ** math.floor(math.log10(cv)) + 1e-12
                check(got[2] is not None and abs(got[2] - cv) <= tol,
                      f"{workload} {metric} {letter}: cv {got[2]}% == {cv:.3g}%")
            checked += 1
            if i == 0 or "A" not in samples:
                continue
            change = cells[2 * i]
            p = None if metric in COUNTS else welch(samples["A"], s)
            p_min, resampled = 0, False
            if p is None:
                # no difference at all: p = 1 whatever the splits
                _, _, _, _, observed, tol = observed_split(raw["A"], xs)
                same = observed <= tol
                resampled = not same and math.comb(
                    len(raw["A"]) + len(xs), len(xs)) > PERM_EXACT_SPLITS
                if same:
                    p = 1.0
                    p_min = (2 if len(xs) == len(raw["A"]) else 1) / \
                        math.comb(len(raw["A"]) + len(xs), len(xs))
                else:
                    p, p_min = (resampled_permutation if resampled else
                                permutation)(raw["A"], xs)
            check(("exact p=" in change) == (not resampled and (metric in COUNTS or p_min > 0))
                  and ("resampled p=" in change) == resampled,
                  f"{workload} {metric} {letter}: the test that fits ({change})")
            check(("too few runs" in change) == (p_min >= 0.05),
                  f"{workload} {metric} {letter}: too few runs exactly where "
                  f"no split reaches 0.05 (p_min {p_min:.3g}: {change})")
            m = re.search(r"p=([0-9.e+-]+)", change)
            if check(m is not None, f"{workload} {metric} {letter}: a p-value ({change})"):
                shown = float(m.group(1))
                # shown with two significant digits
                digit = 10 ** (math.floor(math.log10(p)) - 1) if p > 0 else 0
                # two estimates from random splits: five of their
                # difference's standard errors, and one resample
                spread = (5 * math.sqrt(2 * p * (1 - p) / PERM_RESAMPLES) +
                          1 / (1 + PERM_RESAMPLES)) if resampled else 0
                check(abs(shown - p) <= 0.5 * digit + 1e-9 + 1e-4 * p + spread,
                      f"{workload} {metric} {letter}: p {shown} == {p:.3g}"
                      + (" (both resampled)" if resampled else ""))
                called = "better" in change or "worse" in change or \
                    "higher" in change or "lower" in change
                # a resampled p: the table's own estimate decides
                check(called == ((shown if resampled else p) < 0.05),
                      f"{workload} {metric} {letter}: verdict only at p < 0.05 ({change})")
                m = re.search(r"could see ±([0-9.e+]+)%", change)
                if m and p_min == 0 and samples["A"][1] != 0:
                    mde = 100 * welch_mde(samples["A"], s) / abs(samples["A"][1])
                    shown = float(m.group(1))
                    check(abs(shown - mde) <= max(0.51, 0.006 * mde),
                          f"{workload} {metric} {letter}: the minimum detectable "
                          f"effect at power 0.8 {shown}% == {mde:.3g}%")
    check(checked >= 6, f"{workload}: {checked} cells recomputed from the recordings")


def main():
    out = sys.argv[1]
    report = open(os.path.join(out, "report.md")).read()
    sections = re.split(r"^## ", report, flags=re.M)[1:]
    check(sections, "the report has a section per workload")
    for sec in sections:
        workload = sec.split("\n", 1)[0].strip()
        # one table per comparison: "### A against B and C" headings when
        # there are several
        # there are several; other "###" parts (the generations at each
        # OOM) hold no group table
        tables = [t for t in re.split(r"^### ", sec, flags=re.M)
                  if re.search(r"^\| [A-C]: ", t, re.M)]
        check(tables, f"{workload}: a table of groups")
        for table in tables:
            check_table(out, workload, table)
        # the HTML page: every group of the first table, each run drawn
        groups = re.findall(r"^\| ([A-C]): (\S+) \|", tables[0], re.M)
        page = open(os.path.join(out, f"{workload}.html")).read()
        check(all(g in page for _, g in groups) and page.count("<circle") >= 2 * len(groups),
              f"{workload}.html names the groups and draws their runs")
        # the JSON export carries the same runs
        js = json.load(open(os.path.join(out, f"{workload}.json")))
        counted = [len(glob.glob(os.path.join(out, "counted", workload, g, "*.ndjson")))
                   for _, g in groups]
        check([g["n"] for g in js["groups"]] == counted,
              f"{workload}.json: the groups' run counts")
    return judge.close("lab check")


if __name__ == "__main__":
    sys.exit(main())
