"""What the VM scenarios' checks share: the kernel's own counters read
back (memory.stat, lru_gen, the walk and tier counters), the checks
every recording passes, and those several scenarios make."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "lib"))
from judge import (Judge, hook_cost_checks, load_ndjson, parse_metrics,  # noqa: E402,F401
                   read_kv, ring_accounting)
import loghist  # noqa: E402
import rs_tables  # noqa: E402
from btf import kernel_btf  # noqa: E402

judge = Judge()
check = judge.check


def lru_gen_lines(path):
    """The lines of /sys/kernel/debug/lru_gen or lru_gen_full below a memcg
    and node header: (memcg_path, node, fields)."""
    memcg = node = None
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "memcg":
                memcg = parts[2] if len(parts) > 2 else "/"
            elif parts[0] == "node":
                node = int(parts[1])
            elif memcg is not None:
                yield memcg, node, parts


def read_lru_gen(path):
    """/sys/kernel/debug/lru_gen: {(memcg_path, node): max_seq}."""
    return {k: max(g[0] for g in gens)
            for k, gens in read_lru_gen_gens(path).items()}


def read_lru_gen_gens(path):
    """/sys/kernel/debug/lru_gen: {(memcg_path, node): [(seq, age_ms, anon,
    file), ...]}, oldest first."""
    out = {}
    for memcg, node, parts in lru_gen_lines(path):
        if parts[0].isdigit() and len(parts) >= 4:
            out.setdefault((memcg, node), []).append(
                tuple(int(x) for x in parts[:4]))
    return out


WALK_KEYS = ("walk_ptes", "walk_young", "walk_pmds", "walk_bloom_added")


def read_walk_stats(path):
    """/sys/kernel/debug/lru_gen_full's page-table walk counters:
    {(memcg_path, node): [T, Y, F, A]}, the running totals it prints under
    the youngest generation with one history slot (mm/vmscan.c,
    lru_gen_seq_show_full), or None without the file."""
    if not os.path.exists(path):
        return None
    return {(memcg, node): [int(p[:-1]) for p in parts]
            for memcg, node, parts in lru_gen_lines(path)
            if len(parts) == 4 and [p[-1] for p in parts] == list("TYFA")}


def walk_exact(res, m):
    """The walk counters we summed from aging's ends equal the kernel's
    running totals, per memcg (over its nodes), exactly."""
    before = read_walk_stats(os.path.join(res, "lru_gen_full.before"))
    after = read_walk_stats(os.path.join(res, "lru_gen_full.after"))
    if not check(after is not None and before is not None,
                 "lru_gen_full read before and after"):
        return
    for i, key in enumerate(WALK_KEYS):
        kernel = sum(v[i] - before.get(k, [0] * 4)[i]
                     for k, v in after.items() if k[0] == m["path"])
        check(m[key] == kernel, f"{m['path']}: {key} {m[key]} == "
              f"lru_gen_full's {'TYFA'[i]} delta {kernel}")


TIER_KEYS = ("refaulted", "evicted", "protected", "avg_refaulted", "avg_total")


def read_tiers_full(path):
    """/sys/kernel/debug/lru_gen_full's tier counters, summed over nodes:
    {memcg_path: {"anon": [[r, e, p, R, T] per tier], "file": ...}}.  Each
    tier line holds anon's three then file's three; a type's r e p are on
    the line of its oldest generation, R T on the youngest's (one history
    slot; mm/vmscan.c, lru_gen_seq_show_full)."""
    if not os.path.exists(path):
        return None
    out = {}
    for memcg, _node, parts in lru_gen_lines(path):
        if len(parts) != 7 or not parts[0].isdigit():
            continue
        tier = int(parts[0])
        for t, name in enumerate(("anon", "file")):
            tokens = parts[1 + 3 * t:4 + 3 * t]
            suffix = "".join(tok[-1] for tok in tokens)
            values = [int(tok[:-1]) for tok in tokens]
            tiers = out.setdefault(memcg, {"anon": [], "file": []})[name]
            while len(tiers) <= tier:
                tiers.append([0] * 5)
            if suffix == "rep":
                for i in range(3):
                    tiers[tier][i] += values[i]
            elif suffix == "RTx":
                tiers[tier][3] += values[0]
                tiers[tier][4] += values[1]
    return out


def tiers_exact(res, m):
    """The tier counters the iterator read last equal lru_gen_full's,
    taken after the workload (nothing moves them in a quiet memcg)."""
    full = read_tiers_full(os.path.join(res, "lru_gen_full.after"))
    if not check(full is not None and m["path"] in full,
                 f"{m['path']}: in lru_gen_full"):
        return
    ours = m.get("tiers")
    if not check(ours is not None, f"{m['path']}: tiers read"):
        return
    kernel = full[m["path"]]
    for t in ("anon", "file"):
        mine = [[e[k] for k in TIER_KEYS] for e in ours[t]]
        check(mine == kernel[t], f"{m['path']}: {t} tiers {mine} == "
              f"lru_gen_full's {kernel[t]}")


# ages are whole jiffies (lru_gen rounds each one to ms): one jiffy at HZ
# = 100, and a millisecond of rounding
JIFFY_MS = 11
# the scenarios and the lab record with -i 1
INTERVAL_MS = 1000
# how far jiffies may lag the monotonic clock under TCG (the ticks a busy
# host delays: some 50 ms seen; 18 ms at an aging in the mix scenario)
TICK_LAG_MS = 50

_recordings = {}


def recording(res):
    """The run's recording (rec.ndjson), read once."""
    if res not in _recordings:
        _recordings[res] = load_ndjson(judge, os.path.join(res, "rec.ndjson"))
    return _recordings[res]


def torn(e):
    """A timeline entry read while an aging ran: a generation younger than
    the next (written before the iterator kept such reads out; the reader
    skips them, src/model/gens.c: rs_gens_sample_torn)."""
    ages = [g["age_ms"] for g in e.get("gens") or []]
    return any(a is not None and b is not None and a < b
               for a, b in zip(ages, ages[1:]))


def timeline(res, path):
    """The timeline's entries of memcg `path` in the recording's snapshots,
    in order (src/view/json_view.c: snapshot_gens), torn ones left out as
    the reader leaves them."""
    return [e for r in recording(res) if r.get("type") == "snapshot"
            for e in (r.get("lru_gens") or [])
            if e.get("path") == path and not torn(e)]


def oom_ages_exact(res, m, recs):
    """Each OOM record's generations' ages against the births our aging
    records saw: a generation with seq s was born at the successful aging
    that made max_seq s on that node, so its age at the OOM is the time
    between the two records, within a jiffy of rounding and the ticks a
    busy host delays (5 % of the span).  Ages grow from the youngest to the
    oldest; none is missing once HZ is known (a timeline sample with ages,
    of any memcg, came before).  Jiffies may lag the monotonic clock by the
    ticks a busy guest delays, at the birth and not at the OOM: that much
    more is allowed."""
    path = m["path"]
    rec = recording(res)
    born = {(e["node"], e["max_seq"]): e["t"] for e in events_of(rec, "aging", m["id"])
            if e.get("success")}
    hz_from = min((e["t"] for r in rec if r.get("type") == "snapshot"
                   for e in (r.get("lru_gens") or [])
                   if any(g["age_ms"] is not None for g in e.get("gens") or [])),
                  default=None)
    compared = 0
    for r in recs:
        gens = r.get("generations") or []
        ages = [g.get("age_ms") for g in gens]
        if all(a is None for a in ages):
            check(hz_from is None or r["t"] < hz_from,
                  f"{path}: OOM at {r['t']:.3f} s without ages: HZ was not "
                  f"known yet (first ages at {hz_from} s)")
            continue
        # null only where an aging between the record's reads put a
        # younger birth in an older generation's slot (never the youngest)
        if not check(all(isinstance(a, int) or (a is None and i < len(ages) - 1)
                         for i, a in enumerate(ages)),
                     f"{path}: OOM at {r['t']:.3f} s: every generation aged "
                     f"but one torn by an aging ({ages})"):
            continue
        known = [a for a in ages if a is not None]
        check(known == sorted(known, reverse=True),
              f"{path}: OOM at {r['t']:.3f} s: older generations older "
              f"({ages})")
        for g in gens:
            t = born.get((r["node"], g["seq"]))
            if t is None or g["age_ms"] is None:
                continue  # born before the recording, or not by aging
            compared += 1
            span = (r["t"] - t) * 1e3
            check(abs(g["age_ms"] - span) <= JIFFY_MS + TICK_LAG_MS + 0.05 * abs(span),
                  f"{path}: OOM at {r['t']:.3f} s: seq {g['seq']} aged "
                  f"{g['age_ms']} ms, born by the aging at {t:.3f} s "
                  f"({span:.1f} ms before)")
    print(f"  info  {path}: {compared} generations of {len(recs)} OOM "
          f"records aged as their agings' records say")
    return compared


def gens_exact(res, m):
    """The memcg's generations as the tier iterator read them last equal
    lru_gen's, read after the workload: seqs, max_seq and pages of each
    generation.  Ages: every generation's, less lru_gen's, is the time
    from lru_gen's copy to the sample (both placed on the monotonic clock:
    the copy by /proc/uptime, the sample by the header's start_mono_ns),
    within one interval, and one offset for all generations.  Over the
    recording's timeline, seqs only grow, the generations run from the
    lower min_seq to max_seq, and max_seq's steps from lru_gen before the
    workload to the last sample are the agings counted."""
    path = m["path"]
    kernel = read_lru_gen_gens(os.path.join(res, "lru_gen.after"))
    ours = m.get("lru_gens")
    if not check(bool(ours), f"{path}: generations sampled"):
        return
    nodes = sorted(k[1] for k in kernel if k[0] == path)
    check(sorted(e["node"] for e in ours) == nodes,
          f"{path}: generations on nodes {nodes}, as lru_gen")
    before = read_lru_gen(os.path.join(res, "lru_gen.before"))
    steps = 0
    for e in ours:
        theirs = kernel.get((path, e["node"]), [])
        mine = [(g["seq"], g["anon"], g["file"]) for g in e["gens"]]
        want = [(seq, anon, file) for seq, _age, anon, file in theirs]
        check(mine == want, f"{path} node {e['node']}: generations (seq, "
              f"anon, file) {mine} == lru_gen's {want}")
        check(bool(theirs) and e["max_seq"] == theirs[-1][0],
              f"{path} node {e['node']}: max_seq {e['max_seq']} == lru_gen's")
        steps += e["max_seq"] - before.get((path, e["node"]), 0)
        offsets = [g["age_ms"] - age for g, (_s, age, _a, _f)
                   in zip(e["gens"], theirs) if g["age_ms"] is not None]
        if not check(offsets and len(offsets) == len(theirs),
                     f"{path} node {e['node']}: every age known (HZ learnt)"):
            continue
        stamp = os.path.join(res, "lru_gen.after.uptime")
        start = recording(res)[0].get("start_mono_ns")
        if start is None or not os.path.exists(stamp):
            # a run made before the copy and the recording were placed on
            # one clock: the ages can only be held to one offset
            check(max(offsets) - min(offsets) <= JIFFY_MS,
                  f"{path} node {e['node']}: ages one offset from lru_gen's "
                  f"(no clock places its copy: spread "
                  f"{max(offsets) - min(offsets)} ms)")
            continue
        with open(stamp) as f:
            copied = float(f.read())
        apart = round((start / 1e9 + e["t"] - copied) * 1e3)
        # every generation read at one instant, in both: one offset
        check(max(offsets) - min(offsets) <= JIFFY_MS,
              f"{path} node {e['node']}: ages {[g['age_ms'] for g in e['gens']]}"
              f" one offset from lru_gen's {[t[1] for t in theirs]} "
              f"(spread {max(offsets) - min(offsets)} ms)")
        # and that offset the time between the two reads, within one
        # interval: ages count jiffies, which lag the monotonic clock by
        # the ticks a busy host delays (tens of ms under TCG)
        check(abs(offsets[0] - apart) <= INTERVAL_MS,
              f"{path} node {e['node']}: the ages' offset {offsets[0]} ms is "
              f"the {apart} ms from lru_gen's copy to the sample, within "
              f"one interval ({offsets[0] - apart:+d} ms)")
    check(steps == m["agings"], f"{path}: max_seq's steps from lru_gen "
          f"before the workload to the last samples {steps} == agings "
          f"{m['agings']}")
    line = timeline(res, path)
    last, bad, ends, births = {}, [], 0, {}
    for e in line:
        node = e["node"]
        if e.get("end"):
            ends += 1
            if node not in last:
                bad.append(f"an end without samples at {e['t'] if 't' in e else '?'}")
            last.pop(node, None)
            continue
        seqs = [g["seq"] for g in e["gens"]]
        lo = min(e["min_seq"]["anon"], e["min_seq"]["file"])
        ok = (1 <= len(seqs) <= 4 and seqs[-1] == e["max_seq"] and
              seqs == list(range(seqs[0], seqs[-1] + 1)) and
              seqs[0] == max(lo, e["max_seq"] - 3))
        prev = last.get(node)
        if prev:
            ok = ok and (e["max_seq"] >= prev["max_seq"] and
                         e["min_seq"]["anon"] >= prev["min_seq"]["anon"] and
                         e["min_seq"]["file"] >= prev["min_seq"]["file"] and
                         e["t"] >= prev["t"])
        if not ok:
            bad.append(f"node {node} at {e['t']} s: {seqs}, min_seq "
                       f"{e['min_seq']}")
        last[node] = e
        # the time between two generations' births, from one read's ages
        for a, b in zip(e["gens"], e["gens"][1:]):
            if a["age_ms"] is not None and b["age_ms"] is not None:
                births.setdefault((node, b["seq"]), []).append(
                    a["age_ms"] - b["age_ms"])
    # births do not move: the time from a generation's birth to the next
    # one's is the same in every entry that has both (to the ms each age
    # is rounded to; taken within one read, so that the drift between
    # jiffies and the monotonic clock does not enter)
    moved = {k: max(v) - min(v) for k, v in births.items() if max(v) - min(v) > 2}
    check(births and not moved, f"{path}: the {len(births)} gaps between "
          f"births keep one length over the timeline ({moved or 'none moved'})")
    check(line and not bad, f"{path}: its timeline, {len(line)} entries "
          f"({ends} ends), in order: seqs only grow, generations from the "
          f"lower min_seq to max_seq ({bad[:3]})")


def evict_age_exact(res, m):
    """The ages of the generations eviction batches took from (the isolate
    tracepoint inside a pass): one per batch that isolated (isolate_folios,
    where its prototype says what was isolated), aged or said unaged
    (before HZ was known), the histogram (us, its bounds written in ns)
    holding each aged one, and none older than the timeline lets a
    generation be: its oldest's age at a sample plus the time until the
    next (or the recording's end), within a jiffy."""
    path = m["path"]
    aged, unaged = m.get("evict_aged"), m.get("evict_unaged")
    if aged is None:
        return  # the isolate tracepoint or the pass hook missing
    if m.get("batches_anon") is not None:
        took = m["batches_anon"] + m["batches_file"]
        check(aged + unaged == took, f"{path}: eviction batches aged {aged} + "
              f"unaged {unaged} == batches that isolated {took} (anon "
              f"{m['batches_anon']}, file {m['batches_file']})")
    check(unaged <= aged, f"{path}: most batches aged ({aged}; unaged, "
          f"before HZ was known: {unaged})")
    hist = (m.get("histograms") or {}).get("evict_age") or []
    check(sum(n for _, n in hist) == aged,
          f"{path}: evict_age histogram holds {sum(n for _, n in hist)} == "
          f"{aged} ages")
    samples = [e for e in timeline(res, path) if e.get("gens")]
    end = recording(res)[-1].get("duration")
    if not aged or not hist or not samples or end is None:
        return
    # the generations alive before the timeline's first sample (the memcg
    # enters it at its first reclaim): lru_gen before the workload, on the
    # recording's clock, each living at most until the end
    oldest = 0.0
    start = recording(res)[0].get("start_mono_ns")
    stamp = os.path.join(res, "lru_gen.before.uptime")
    if start is None or not os.path.exists(stamp):
        return  # a run whose copy no clock places
    with open(stamp) as f:
        before_t = float(f.read()) - start / 1e9
    for (p, _node), gens in read_lru_gen_gens(
            os.path.join(res, "lru_gen.before")).items():
        if p == path and gens:
            oldest = max(oldest, max(g[1] for g in gens) + (end - before_t) * 1e3)
    for i, e in enumerate(samples):
        ages = [g["age_ms"] for g in e["gens"] if g["age_ms"] is not None]
        if not ages:
            continue
        later = [x["t"] for x in samples[i + 1:] if x["node"] == e["node"]]
        until = later[0] if later else end
        oldest = max(oldest, max(ages) + (until - e["t"]) * 1e3)

    def low_ms(le_ns):
        b = loghist.bucket(le_ns // 1000)  # counted in us
        return (loghist.bucket_hi(b - 1) if b else 0) / 1e3
    low = max(low_ms(le) for le, n in hist if n)
    check(low <= oldest + JIFFY_MS,
          f"{path}: the oldest generation evicted from (a bucket from "
          f"{low:.0f} ms) no older than lru_gen before the workload and the "
          f"timeline let a generation be ({oldest:.0f} ms)")
    mean = m["evict_age_sum"] / aged / 1e3
    print(f"  info  {path}: {aged} eviction batches aged ({unaged} not), "
          f"their generations {mean:.0f} ms old on average")


def batch_types(m):
    """isolate_folios (fexit), where its prototype says what was isolated:
    every evict_folios batch of a pass called it once (none inlined away),
    and the types it isolated agree with mm_vmscan_lru_isolate's, a
    tracepoint in scan_folios: a type has batches exactly when pages of it
    were isolated."""
    if m.get("batches_anon") is None:
        return
    typed = m["batches_anon"] + m["batches_file"] + m["batches_empty"]
    check(typed == m["batches"], f"{m['path']}: batches by type {typed} "
          f"(anon {m['batches_anon']}, file {m['batches_file']}, empty "
          f"{m['batches_empty']}) == evict_folios batches {m['batches']}")
    anon_pages = m["isolated"] - m["isolated_file"]
    check((m["batches_file"] > 0) == (m["isolated_file"] > 0) and
          (m["batches_anon"] > 0) == (anon_pages > 0),
          f"{m['path']}: batch types agree with the isolate tracepoint "
          f"(file {m['batches_file']} batches, {m['isolated_file']} pages; "
          f"anon {m['batches_anon']} batches, {anon_pages} pages)")
    check(m["type_fallbacks"] <= m["batches"] - m["batches_empty"],
          f"{m['path']}: fallbacks {m['type_fallbacks']} only in batches "
          f"that isolated")


def load_recording(path):
    if not check(os.path.exists(path), f"{os.path.basename(path)} exists"):
        return []
    return load_ndjson(judge, path)


def memcg(summary, path):
    for m in summary["memcgs"]:
        if m["path"] == path:
            return m
    return None


def delta(res, name, tag_key):
    before = read_kv(os.path.join(res, f"{name}.before"))
    after = read_kv(os.path.join(res, f"{name}.after"))
    return after.get(tag_key, 0) - before.get(tag_key, 0)


MISSION_HOOKS = [
    "try_to_shrink_lruvec", "evict_folios", "lruvec_evictable_size",
    "try_to_inc_max_seq", "try_to_inc_min_seq", "handle_reclaim_writeback",
    "wakeup_flusher_threads", "mm_vmscan_lru_isolate",
    "mm_vmscan_lru_shrink_inactive", "mm_vmscan_throttled",
    "mm_vmscan_memcg_reclaim", "mm_vmscan_direct_reclaim",
    "apply_proportional_protection", "should_abort_scan", "shrink_one",
    "lru_gen_rotate_memcg", "mem_cgroup_out_of_memory",
]


def common(res, older_schemas=False):
    """What every scenario's run must hold.  older_schemas: a recording of
    an earlier schema is this tree's reader's too (the lab judges kept runs
    made by an earlier build again: their recordings are as that build
    wrote them); a fresh run's must be of this tree's schema."""
    with open(os.path.join(res, "status")) as f:
        status = f.read().strip()
    check(status == "0", f"guest scenario exited 0 (got {status})")
    rec_status = open(os.path.join(res, "record.status")).read().strip() \
        if os.path.exists(os.path.join(res, "record.status")) else "none"
    check(rec_status == "record exit 0", f"record exited 0 ({rec_status})")
    rec = load_recording(os.path.join(res, "rec.ndjson"))
    if not check(len(rec) >= 2, "recording has a header and a summary"):
        return None, None, rec
    header, summary = rec[0], rec[-1]
    schema = header.get("schema")
    if older_schemas:
        check(header.get("type") == "header" and isinstance(schema, int)
              and 1 <= schema <= rs_tables.schema(),
              f"first line is a header of schema 1 to {rs_tables.schema()} "
              f"({schema})")
    else:
        check(header.get("type") == "header" and schema == rs_tables.schema(),
              f"first line is a schema-{rs_tables.schema()} header")
    check(summary.get("type") == "summary", "last line is the summary")
    check(summary.get("drops") == 0, f"no record dropped ({summary.get('drops')})")
    check(summary.get("agg_full") == 0, "aggregation map never full")
    check(summary.get("state_misses") == 0, "per-task state always available")
    check(summary.get("missed") == 0,
          f"no program run skipped by the kernel ({summary.get('missed')})")
    if any(l.get("type") == "event" for l in rec):
        ring_accounting(judge, rec, "ring")
    stalls_exact(summary)
    budget_exact(header, summary, rec)
    hist_exact(summary, rec)
    return header, summary, rec


# the counts over the latency budget the kernel keeps, and the event
# records' reclaimer, kind and length they count
OVER_BUDGET = (("passes_over_budget", "shrink", None, "duration_ns", 1),
               ("direct_over_budget", "reclaim", ("direct",), "duration_ns", 1),
               ("memcg_over_budget", "reclaim", ("memcg", "proactive"),
                "duration_ns", 1),
               ("throttles_over_budget", "throttle", None, "delayed_us", 1000))


def budget_exact(header, summary, rec):
    """The BPF programs count the reclaims, passes and throttles longer than
    the budget record was given (--budget-ms, in the header): per memcg,
    exactly the event records longer than it, when the recording has every
    event (common() checks nothing was dropped or missed)."""
    budget = header.get("budget_ns")
    if not check(isinstance(budget, int) and budget > 0,
                 f"the header names the latency budget ({budget} ns)"):
        return
    events = [e for e in rec if e.get("type") == "event"]
    if not events:
        return
    wrong, over, seen = [], {}, {}
    for m in summary["memcgs"]:
        for key, kind, reclaimers, length, scale in OVER_BUDGET:
            if m.get(key) is None:
                continue  # not attached on this kernel
            evs = [e for e in events if e["kind"] == kind and e["id"] == m["id"]
                   and (reclaimers is None or e.get("reclaimer") in reclaimers)]
            n = sum(1 for e in evs if e[length] * scale > budget)
            over[key] = over.get(key, 0) + n
            seen[key] = seen.get(key, 0) + len(evs)
            if n != m[key]:
                wrong.append((m["path"], key, m[key], n))
    check(not wrong, f"per memcg, the kernel's counts over the {budget / 1e6:g} ms "
          f"budget == the event records longer than it (wrong: {wrong[:3]})")
    print("  info  over the budget, of the records: " +
          ", ".join(f"{k} {over[k]} of {seen[k]}" for k in over))


# each latency histogram, and the event records' kind, reclaimers and
# length (with its scale to ns) it counts
HIST_EVENTS = {"pass": ("shrink", None, "duration_ns", 1),
               "direct_reclaim": ("reclaim", ("direct",), "duration_ns", 1),
               "memcg_reclaim": ("reclaim", ("memcg", "proactive"), "duration_ns", 1),
               "aging": ("aging", None, "duration_ns", 1),
               "throttle": ("throttle", None, "delayed_us", 1000)}


def hist_exact(summary, rec):
    """Per memcg, each histogram holds exactly the event records' lengths
    put into its log-linear buckets (when the recording has every event),
    so its p50 and p99 lie in the bucket of the exact quantiles; the
    histograms' buckets are each at most 1/16 of their bound wide."""
    events = [e for e in rec if e.get("type") == "event"]
    if not events:
        return
    check(summary.get("hist_full") == 0,
          f"the histogram map never full ({summary.get('hist_full')})")
    wrong, far, judged = [], [], 0
    for m in summary["memcgs"]:
        for key, (kind, reclaimers, length, scale) in HIST_EVENTS.items():
            got = (m.get("histograms") or {}).get(key)
            if got is None:
                continue  # not attached on this kernel
            lengths = [e[length] * scale for e in events
                       if e["kind"] == kind and e["id"] == m["id"]
                       and (reclaimers is None or e.get("reclaimer") in reclaimers)]
            want = {}
            for v in lengths:
                hi = loghist.bucket_hi(loghist.bucket(v))
                want[hi] = want.get(hi, 0) + 1
            if {b: n for b, n in got} != want:
                wrong.append((m["path"], key, len(lengths), sum(n for _, n in got)))
                continue
            for q in (0.5, 0.99) if lengths else ():
                exact = loghist.exact_quantile_ns(lengths, q)
                est = loghist.quantile_ns(got, q)
                judged += 1
                if abs(loghist.bucket(round(est)) - loghist.bucket(exact)) > 1:
                    far.append((m["path"], key, q, exact, est))
    check(not wrong, "per memcg, each histogram == its event records in "
          f"16 buckets per power of two (wrong: {wrong[:3]})")
    check(not far, f"p50 and p99 from the histograms within one bucket of "
          f"the event records' exact ones ({judged} judged; off: {far[:3]})")


# each kind of stall per task, and the memcg counters they add up to (a
# throttle's time is kept in ns per task, in us per memcg; the count over
# the latency budget last)
STALL_SUMS = {"direct": (("direct_reclaims", 1), ("direct_time", 1),
                         "direct_over_budget"),
              "memcg": (("memcg_reclaims", 1), ("memcg_time", 1),
                        "memcg_over_budget"),
              "throttle": (("throttles", 1), ("throttled", 1000),
                           "throttles_over_budget")}


def stalls_exact(summary):
    """Every stall belongs to one task: per memcg, the tasks' counts and
    times add up to the memcg's own (memory.reclaim's proactive stalls are
    memcg reclaims too), with nothing lost from the per-task map."""
    stalls = summary.get("stalls")
    if not check(isinstance(stalls, list), "the summary lists the stalls per task"):
        return
    check(summary.get("tasks_lost") == 0 and summary.get("stalls_unkept") == 0,
          f"no stall lost from the per-task counts (map {summary.get('tasks_lost')}, "
          f"memory {summary.get('stalls_unkept')})")
    wrong, wrong_over = [], []
    for m in summary["memcgs"]:
        mine = [s for s in stalls if s["id"] == m["id"]]
        for kind, ((count_key, _), (time_key, scale), over_key) in STALL_SUMS.items():
            kinds = ("memcg", "proactive") if kind == "memcg" else (kind,)
            ks = [s for s in mine if s["kind"] in kinds]
            count, time_ns = sum(s["count"] for s in ks), sum(s["total_ns"] for s in ks)
            over = sum(s["over_budget"] for s in ks)
            if m.get(count_key) is not None and (
                    count != m[count_key] or time_ns != m[time_key] * scale):
                wrong.append((m["path"], kind, count, m[count_key], time_ns,
                              m[time_key] * scale))
            if m.get(over_key) is not None and over != m[over_key]:
                wrong_over.append((m["path"], kind, over, m[over_key]))
    check(not wrong, f"per memcg, the tasks' stalls add up to its counts and "
          f"times ({len(stalls)} task entries; wrong: {wrong[:3]})")
    check(not wrong_over, f"per memcg, the tasks' stalls over the budget add up to "
          f"its counts over it (wrong: {wrong_over[:3]})")
    bad_max = [s for s in stalls if s["count"] and not
               (0 < s["max_ns"] <= s["total_ns"] or s["kind"] == "throttle")]
    check(not bad_max, f"each task's longest stall within its total ({bad_max[:2]})")


KNOWN_THROTTLE_REASONS = {"writeback", "isolated", "noprogress", "congested"}


EXIT_KEYS = ("exit_budget", "exit_no_progress", "exit_target", "exit_below_min",
             "exit_after_aging", "exit_other")


def events_of(rec, kind, memcg_id):
    return [e for e in rec if e.get("type") == "event"
            and e.get("kind") == kind and e.get("id") == memcg_id]


def consistent(rec, m):
    """The event stream and the in-kernel totals of one memcg agree, and
    every record is plausible.  Holds only when nothing was dropped."""
    name = m["path"]
    if m["passes"] is not None:
        sh = events_of(rec, "shrink", m["id"])
        check(len(sh) == m["passes"],
              f"{name}: one shrink record per pass ({len(sh)} == {m['passes']})")
        check(sum(e["budget_used"] for e in sh) == m["budget_used"],
              f"{name}: shrink records add up to budget_used")
        if m["budget"] is not None:
            # before its last batch a pass had budget left
            bad = [e for e in sh if e["budget"] is None or
                   e["budget_used"] > e["budget"] + e["last_batch"]]
            check(not bad, f"{name}: budget_used <= budget + last batch "
                  f"in every pass ({len(bad)} not)")
        exits = sum(m[k] for k in EXIT_KEYS)
        check(exits == m["passes"],
              f"{name}: exit reasons add up to the passes ({exits})")
        # the mirror of get_nr_to_scan() against the kernel's own budget,
        # and the deduced "target met" against should_abort_scan()'s answer
        kb = [e for e in sh if "budget_kernel" in e]
        mirrored = [e for e in kb if e["budget"] is not None]
        off = [(e["budget"], e["budget_kernel"]) for e in mirrored
               if e["budget"] != e["budget_kernel"]]
        check(not off, f"{name}: budget == the kernel's in each of "
              f"{len(mirrored)} passes that showed both ({off[:5]} differ)")
        if m.get("budget_kernel_passes") is not None:
            check(len(kb) == m["budget_kernel_passes"] and
                  sum(e["budget_kernel"] for e in kb) == m["budget_kernel"],
                  f"{name}: the kernel's budgets add up to budget_kernel")
        ab = [e for e in sh if "aborted" in e]
        check(all((e["exit"] == "target_met") == e["aborted"] for e in ab),
              f"{name}: exit target_met exactly where should_abort_scan() "
              f"ended the pass")
        # the deduction (all a kernel without the hook gets) agrees where
        # it can tell: with the budget known (the series)
        # it cannot tell one case: kswapd's should_abort_scan() is also true
        # once the watermarks are met, which the deduction does not see;
        # met at the batch that used up the budget (or after an aging), the
        # loop ended on both, and the deduction names the other
        told = [e for e in ab if e["budget"] is not None]
        both = [e for e in told if e["reclaimer"] == "kswapd" and e["aborted"]
                and ((e["exit_deduced"] == "budget_exhausted"
                      and e["budget_used"] >= e["budget"])
                     or e["exit_deduced"] == "after_aging")]
        wrong = [(e["exit_deduced"], e["aborted"]) for e in told
                 if (e["exit_deduced"] == "target_met") != e["aborted"]
                 and e not in both]
        check(not wrong, f"{name}: the deduced exit is target_met exactly "
              f"where should_abort_scan() ended the pass, in {len(told)} "
              f"passes ({len(wrong)} disagree: {wrong[:5]}; {len(both)} kswapd "
              f"passes ended on both the watermarks and another reason)")
        if m.get("memcg_lru_skips") is not None:
            # root reclaim (kswapd, global direct) walks the memcg LRU and
            # runs a memcg's pass only from shrink_one(); limit and
            # proactive reclaim of a memcg do not walk it
            root = sum(1 for e in sh if e["reclaimer"] in ("kswapd", "direct"))
            ran = m["memcg_lru_visits"] - m["memcg_lru_skips"]
            check(ran == root, f"{name}: memcg LRU visits that ran a pass "
                  f"({ran}) == kswapd and direct passes ({root})")
        if m.get("aborts") is not None:
            check(sum(e["aborted"] for e in ab) == m["aborts"],
                  f"{name}: aborted passes == aborts ({m['aborts']})")
    if m["agings"] is not None:
        ag = events_of(rec, "aging", m["id"])
        check(sum(1 for e in ag if e["success"]) == m["agings"],
              f"{name}: successful aging records == agings")
        check(all(e["generations"] for e in ag if e["success"]),
              f"{name}: every successful aging lists generation sizes")
    if m["flusher_wakeups"] is not None:
        wb = events_of(rec, "writeback", m["id"])
        check(len(wb) == m["writeback_checks"],
              f"{name}: one writeback record per check")
        check(sum(1 for e in wb if e["flusher_woken"]) == m["flusher_wakeups"],
              f"{name}: writeback records that woke the flusher == flusher_wakeups")
    if m.get("goal_reclaims") is not None:
        # over-reclaim's two counters, from the reclaim records' own goal
        # and result (the kernel sums reclaimed / goal in 2^-20 steps)
        rc = [e for e in events_of(rec, "reclaim", m["id"])
              if e.get("nr_to_reclaim")]
        ratio = sum((e["nr_reclaimed"] << 20) // e["nr_to_reclaim"]
                    for e in rc) / (1 << 20)
        check(len(rc) == m["goal_reclaims"],
              f"{name}: reclaim records with a goal == goal_reclaims "
              f"({len(rc)} == {m['goal_reclaims']})")
        check(abs(ratio - m["goal_ratio"]) <= 1e-8 * max(1, ratio),
              f"{name}: their reclaimed / goal add up to goal_ratio "
              f"({ratio} == {m['goal_ratio']})")
    th = events_of(rec, "throttle", m["id"])
    check(len(th) == m["throttles"],
          f"{name}: one throttle record per throttle ({len(th)})")
    check(sum(e["delayed_us"] for e in th) == m["throttled"],
          f"{name}: throttle delays add up to throttled")
    check(all(e["reason"] in KNOWN_THROTTLE_REASONS for e in th),
          f"{name}: every throttle has a known reason")


def exact_totals(res, m, gone=True, mglru=True, active=True):
    """Against memory.stat and lru_gen.  MGLRU counts pgscan when it takes a
    folio (isolated); the classic LRU counts every folio it looks at on an
    inactive list (scanned), see shrink_inactive_list()."""
    name = m["path"].strip("/").replace("/", "_")
    pgscan = delta(res, f"memstat.{name}", "pgscan")
    pgsteal = delta(res, f"memstat.{name}", "pgsteal")
    print(f"  info  {m['path']}: isolated {m['isolated']} pgscan {pgscan}, "
          f"reclaimed {m['reclaimed']} pgsteal {pgsteal}, "
          f"passes {m['passes']} agings {m['agings']}")
    if active:
        check(pgscan > 0, "the workload made the kernel scan (pgscan > 0)")
    key = "isolated" if mglru else "scanned"
    check(m[key] == pgscan, f"{key} {m[key]} == memory.stat pgscan delta {pgscan}")
    check(m["reclaimed"] == pgsteal, f"reclaimed {m['reclaimed']} == memory.stat pgsteal delta {pgsteal}")
    # the split by reclaimer (report's reclaimed_by_*): memory.stat counts
    # kswapd's part apart (every other reclaimer is "direct" to it)
    kswapd = delta(res, f"memstat.{name}", "pgsteal_kswapd")
    by = (m.get("by_reclaimer") or {}).get("kswapd", {}).get("reclaimed", 0)
    check(by == kswapd, f"reclaimed by kswapd {by} == memory.stat "
          f"pgsteal_kswapd delta {kswapd}")
    # the reclaimers' pass time (their yields' divisor) adds up
    split = sum(e.get("pass_time") or 0
                for e in (m.get("by_reclaimer") or {}).values())
    check(m["pass_time"] is None or split == m["pass_time"],
          f"pass time by reclaimer {split} == pass_time {m['pass_time']}")

    before = read_lru_gen(os.path.join(res, "lru_gen.before"))
    after = read_lru_gen(os.path.join(res, "lru_gen.after"))
    advance = sum(after.get(k, 0) - before.get(k, 0)
                  for k in after if k[0] == m["path"])
    if mglru and active:
        check(advance > 0, f"the workload aged the memcg (max_seq advanced {advance})")
    check(m["agings"] == advance, f"agings {m['agings']} == lru_gen max_seq advance {advance}")
    if mglru:
        walk_exact(res, m)
        tiers_exact(res, m)
        gens_exact(res, m)
        batch_types(m)
        evict_age_exact(res, m)
    if gone:
        check(m.get("gone") is True,
              "the removed memcg is marked gone, path kept")


def signature_matches(sig, pattern):
    """src/collect/kernel.c's rs_signature_matches: names by position, '*'
    any one, '...' any rest."""
    sig = sig.split(",") if sig else []
    pattern = pattern.split(",") if pattern else []
    for i, p in enumerate(pattern):
        if p == "...":
            return True
        if i >= len(sig) or (p != "*" and p != sig[i]):
            return False
    return len(sig) == len(pattern)


def kernel_expectations(res, header, summary, path):
    """The kernel matrix: what this kernel's own BTF says decides every
    hook's state (a function or tracepoint it has must attach, one it lacks
    is missing, none fails) and every kernel member's; a field of memcg
    `path` is null exactly where a hook or member it needs is not there."""
    # every core.sh run: record --budget-ms 2 (budget_exact() judges the
    # counts against the event records at it)
    check(header.get("budget_ns") == 2_000_000,
          f"record --budget-ms 2 is the header's budget ({header.get('budget_ns')} ns)")
    # the guest kernel's page size, as its own smaps says it (lib.sh):
    # what the recording's pages turn into bytes by
    try:
        with open(os.path.join(res, "kernel_page_size")) as f:
            kib = int(f.read().split()[1])  # "KernelPageSize:  4 kB"
    except (OSError, IndexError, ValueError):
        kib = None
    check(kib is not None and header.get("page_size") == kib * 1024,
          f"the header's page_size {header.get('page_size')} == the guest "
          f"kernel's ({kib} KiB)")
    with open(os.path.join(res, "kernel.btf")) as f:
        kb = kernel_btf(f.read().strip())
    print(f"  info  kernel {header.get('kernel')}")
    hooks = header["hooks"]
    state_of = {}
    unread = rs_tables.unread_protos()
    for hook_id, name, kind in rs_tables.hooks():
        if kind == "f":
            # a prototype no program reads leaves it missing (hooks.c)
            params = kb.func_params(name)
            want = ("attached" if name in kb.funcs and not any(
                signature_matches(params, p) for p in unread.get(hook_id, []))
                else "missing")
            # per refaulted folio: only with --refaults (header "refaults")
            if hook_id == "REFAULTS" and not header.get("refaults"):
                want = "missing"
        elif kind == "i":
            # the tier iterator: MGLRU's lrugen (the guest runs cgroup v2)
            want = "attached" if kb.by_name.get("lru_gen_folio") else "missing"
        elif kind == "t":
            want = ("attached" if any(t.startswith(f"btf_trace_{name}")
                                      for t in kb.typedefs) else "missing")
        elif kind == "k":
            want = "attached" if kb.has_member(*name.split(".")) else "missing"
        else:
            want = "attached"
        got = hooks.get(name)
        state_of[hook_id] = got
        check(got == want, f"{name}: {got} as the kernel's BTF says ({want})")
    unknown = {key for key, needs in rs_tables.field_needs().items()
               if not all(state_of.get(h) == "attached" for h in needs)}
    print(f"  info  null here: {sorted(unknown)}")
    with open(os.path.join(res, "probe.json")) as f:
        probe = json.loads(f.read() or "{}")
    check(set(probe.get("unavailable_fields", [None])) == unknown,
          f"probe lists exactly these as unavailable "
          f"({sorted(probe.get('unavailable_fields', []))})")
    names = dict((i, n) for i, n, _ in rs_tables.hooks())
    needs = rs_tables.field_needs()
    why = probe.get("unavailable_why", {})
    unexplained = [k for k in unknown if not any(
        names[h] in why.get(k, "") for h in needs[k]
        if state_of.get(h) != "attached")]
    check(not unexplained, f"probe names the missing hook or member of each "
          f"({unexplained} not)")
    m = memcg(summary, path)
    if not check(m is not None, f"memcg {path} is in the summary"):
        return None
    wrong = [f"{k}={m.get(k)}" for k in needs
             if (k in unknown) != (m.get(k) is None)]
    check(not wrong, f"{path}: a value is null exactly where a hook or member "
          f"it needs is not there ({wrong})")
    return m


def daemon_exited_ok(res):
    check(open(os.path.join(res, "daemon.status")).read().strip() == "daemon exit 0",
          "daemon exited 0 on SIGTERM")


def metric_total(samples, name, memcg_path):
    return sum(v for n, lab, v in samples
               if n == name and lab.get("memcg") == memcg_path)


def daemon_cgroupfs(res, paths):
    """The daemon reads a memcg's memory.stat and memory.events only when
    the kernel's counts say they moved (src/collect/memcg_files.c: /proc/vmstat from
    10 s before, the parent's subtree count).  Once the scenario has been
    quiet past that lag, /metrics must show every refault and OOM kill the
    kernel counted between the two snapshots (nothing happens outside
    them: the daemon started before the first)."""
    daemon_exited_ok(res)
    with open(os.path.join(res, "metrics.after.txt")) as f:
        samples = parse_metrics(f.read())
    seen = 0
    for path in paths:
        name = path.strip("/").replace("/", "_")
        for metric, src, key in (
                ("reclaimscope_refaults_file_pages_total", "memstat", "workingset_refault_file"),
                ("reclaimscope_refaults_anon_pages_total", "memstat", "workingset_refault_anon"),
                ("reclaimscope_oom_kills_total", "memevents", "oom_kill")):
            want = delta(res, f"{src}.{name}", key)
            got = metric_total(samples, metric, path)
            seen += want
            check(got == want, f"daemon: {metric}{{memcg={path}}} {got:.0f} "
                  f"== {key} delta {want}")
    check(seen > 0, f"the kernel counted refaults or OOM kills there ({seen})")


def refaults_exact(res, m, header=None):
    """Refaults happened, and the model's equal the memcg's memory.stat.
    With --refaults (the header says so), the shadow tests seen too: per
    type, refaults tested, activated and restored equal memory.stat's
    workingset_refault_*, workingset_activate_* and workingset_restore_*
    (the kernel counts them in the same function, on the same condition);
    the distance from each shadow agrees with the kernel's verdict (but
    where an aging ran during the test and may have moved max_seq after
    the kernel read it: those are counted as raced), and the distance
    buckets add up to the refaults tested."""
    name = m["path"].strip("/").replace("/", "_")
    refaults = delta(res, f"memstat.{name}", "workingset_refault_file")
    check(refaults > 0 and m["refaults_file"] == refaults,
          f"refaults_file {m['refaults_file']} == memory.stat "
          f"workingset_refault_file delta {refaults} (> 0)")
    if header is None:
        return
    if not header.get("refaults"):
        check(m.get("refault_tested_file") is None,
              "without --refaults the shadow tests are null, not 0")
        return
    for t in ("anon", "file"):
        for ours, theirs in (("tested", "refault"), ("activated", "activate"),
                             ("restored", "restore")):
            got = m.get(f"refault_{ours}_{t}")
            want = delta(res, f"memstat.{name}", f"workingset_{theirs}_{t}")
            check(got == want, f"refault_{ours}_{t} {got} == memory.stat "
                  f"workingset_{theirs}_{t} delta {want}")
        buckets = sum(m.get(f"refault_gens_{b}_{t}") or 0
                      for b in ("0_1", "2_3", "4_7", "8_up"))
        check(buckets == m.get(f"refault_tested_{t}"),
              f"{t}: the distance buckets add up to the refaults tested "
              f"({buckets})")
        check(m.get(f"refault_recent_{t}", 0) >= max(
            m.get(f"refault_in_fault_{t}", 0), m.get(f"refault_restored_{t}", 0))
            and m.get(f"refault_in_fault_{t}", 0) >= m.get(f"refault_activated_{t}", 0),
            f"{t}: activations and restores are among the recent refaults")
    raced = m.get("refault_dist_raced")
    tested = sum(m.get(f"refault_tested_{t}") or 0 for t in ("anon", "file"))
    check(raced is not None and 0 <= raced <= tested,
          f"refaults tested during an aging counted ({raced} of at most {tested})")
    check(m.get("refault_dist_disagree") == 0,
          f"the distance from every shadow tested outside an aging agrees with "
          f"the kernel's verdict ({m.get('refault_dist_disagree')} disagreed, "
          f"{raced} raced)")
    print(f"  info  {m['path']} file refaults: {m.get('refault_recent_file')} recent, "
          f"{m.get('refault_in_fault_file')} of them in a fault (activated before "
          f"the series' folio_mark_accessed change), {m.get('refault_activated_file')} "
          f"activated now")
    print(f"  info  {m['path']} file refaults by generations ago: "
          + ", ".join(f"{b}: {m.get('refault_gens_' + b + '_file')}"
                      for b in ("0_1", "2_3", "4_7", "8_up")))


# Heap pages the allocator keeps around: the daemon's RSS may wobble by
# this much while its model stays the same size.
RSS_SLACK_KIB = 512
