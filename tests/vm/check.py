#!/usr/bin/env python3
"""Judge a VM scenario's recording against the kernel's own counters.

usage: check.py SCENARIO RESULTS_DIR

Every scenario: the guest finished, `record` exited 0, the recording parses
line by line, starts with a header and ends with a summary, and no record was
dropped.  Then the scenario's own assertions.  Prints each check and exits 1
if any failed.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from judge import (Judge, hook_cost_checks, load_ndjson, parse_metrics,  # noqa: E402
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
    out = {}
    for memcg, node, parts in lru_gen_lines(path):
        if parts[0].isdigit():
            key = (memcg, node)
            out[key] = max(out.get(key, 0), int(parts[0]))
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


def common(res):
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
    check(header.get("type") == "header"
          and header.get("schema") == rs_tables.schema(),
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
        batch_types(m)
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


def scenario_matrix(res, header, summary, rec):
    """A Debian MGLRU kernel of the matrix: hooks and nulls as its BTF says,
    and whatever it can count equal to its own counters."""
    m = kernel_expectations(res, header, summary, "/test")
    if m is None:
        return
    check(header.get("mglru") is True, "MGLRU enabled in the guest")
    exact_totals(res, m)
    consistent(rec, m)


def scenario_core(res, header, summary, rec):
    kernel_expectations(res, header, summary, "/test")
    hooks = header["hooks"]
    for h in MISSION_HOOKS:
        check(hooks.get(h) == "attached", f"hook {h} attached ({hooks.get(h)})")
    check(header.get("mglru") is True, "MGLRU enabled in the guest")
    check(header.get("series") is True, "kernel has the reclaim series")

    m = memcg(summary, "/test")
    if not check(m is not None, "memcg /test is in the summary"):
        return
    exact_totals(res, m)
    # attached is not enough: a function in BTF may be inlined where the
    # pass calls it; these ran inside /test's passes
    check(m["abort_checks"] > 0,
          f"should_abort_scan seen in the passes ({m['abort_checks']} calls)")
    # its workload maps 16 MiB of anon and its file: aging walks them (an
    # mm under 64 resident pages, such as dd's in wbstorm, is skipped)
    check(m["walk_ptes"] > 0 and m["walk_young"] > 0,
          f"the aging walked page tables ({m['walk_ptes']} entries, "
          f"{m['walk_young']} young)")
    check(m["budget_kernel_passes"] > 0,
          f"apply_proportional_protection seen in the passes "
          f"({m['budget_kernel_passes']} of {m['passes']})")
    # /test is removed before the end: its memory.stat after the last
    # sample is gone with it (documented), so refaults are judged in "mix"
    check(m["passes"] > 0, f"passes {m['passes']} > 0")
    check(m["budget_used"] > 0, f"budget_used {m['budget_used']} > 0")
    check(m["budget"] is not None and m["budget"] > 0, f"budget {m['budget']} > 0")

    consistent(rec, m)


def scenario_legacy(res, header, summary, rec):
    """A pre-series kernel: the series' hooks are missing, said so, and
    their values are null; everything else still adds up exactly."""
    kernel_expectations(res, header, summary, "/test")
    hooks = header["hooks"]
    check(header.get("series") is False, "kernel predates the series")
    for h in ("handle_reclaim_writeback", "lruvec_evictable_size"):
        check(hooks.get(h) == "missing", f"hook {h} is missing ({hooks.get(h)})")
    # these exist with other prototypes: the right variant must load
    for h in ("try_to_shrink_lruvec", "evict_folios", "try_to_inc_max_seq",
              "mm_vmscan_lru_isolate", "mm_vmscan_memcg_reclaim"):
        check(hooks.get(h) == "attached", f"hook {h} attached ({hooks.get(h)})")
    m = memcg(summary, "/test")
    if not check(m is not None, "memcg /test is in the summary"):
        return
    exact_totals(res, m)
    check(m["budget"] is None, "budget is null, not 0, without the series")
    check(m["flusher_wakeups"] is None, "flusher_wakeups is null without the series")
    # inlined in 6.12: missing, and its count null rather than 0
    if hooks.get("try_to_inc_min_seq") == "missing":
        check(m["min_seq_advances"] is None, "min_seq_advances is null")
    check(m["passes"] > 0 and m["batches"] > 0, "passes and batches are counted")
    check(m["budget_used"] > 0, "budget_used (evict_folios returns) counted")
    check(all(e["budget"] is None for e in events_of(rec, "shrink", m["id"])),
          "shrink records carry no budget")
    consistent(rec, m)


def scenario_wbstorm(res, header, summary, rec):
    m = memcg(summary, "/wb")
    if not check(m is not None, "memcg /wb is in the summary"):
        return
    check(open(os.path.join(res, "dd.status")).read().strip() == "0",
          "dd finished")
    # the scenario's premise, from the kernel's trace: reclaim met the
    # dirty folios before any background writeback could
    with open(os.path.join(res, "writeback-order.txt")) as f:
        order = [line for line in f if "writeback_start" in line
                 or "memcg_reclaim_begin" in line]
    check(order and "memcg_reclaim_begin" in order[0],
          f"no background writeback before the first memcg reclaim "
          f"(kernel trace: {order[:1]})")
    exact_totals(res, m, gone=False)
    print(f"  info  /wb: flusher wakeups {m['flusher_wakeups']}, throttles "
          f"{m['throttles']} ({m['throttled']} us), dirty {m['dirty']}, "
          f"unqueued dirty {m['unqueued_dirty']}")
    check(m["flusher_wakeups"] > 0, "reclaim woke the flushers")
    check(m["throttles"] > 0, "reclaim was throttled")
    check(header.get("budget_ns") == 3_300_000 and m["throttles_over_budget"] > 0,
          f"throttles over the 3.3 ms budget counted ({m['throttles_over_budget']} "
          f"of {m['throttles']})")
    check(m["dirty"] > 0 and m["unqueued_dirty"] > 0,
          "reclaim met dirty, unqueued folios")
    check(m["isolated"] > 10 * m["reclaimed"],
          "isolated far above reclaimed: the dirty-folio scan storm")
    oom = delta(res, "memevents.wb", "oom_kill")
    check(oom == 0, f"no OOM kill ({oom})")
    calls = summary.get("flusher_calls", {}).get("vmscan", 0)
    check(calls >= m["flusher_wakeups"],
          f"wakeup_flusher_threads(WB_REASON_VMSCAN) calls {calls} >= wakeups")
    consistent(rec, m)
    daemon_views(res, m)


def daemon_exited_ok(res):
    check(open(os.path.join(res, "daemon.status")).read().strip() == "daemon exit 0",
          "daemon exited 0 on SIGTERM")


def metric_total(samples, name, memcg_path):
    return sum(v for n, lab, v in samples
               if n == name and lab.get("memcg") == memcg_path)


def daemon_views(res, m):
    """The daemon's /metrics and top's batch frames, from inside the guest,
    during the same run as the recording."""
    path = m["path"]
    daemon_exited_ok(res)
    with open(os.path.join(res, "metrics.after.txt")) as f:
        samples = parse_metrics(f.read())
    # (metric, summary key): series the scenario is about, equal to the
    # recording's totals (nothing reclaims between the two reads)
    for name, key in (("reclaimscope_scanned_pages_total", "scanned"),
                      ("reclaimscope_isolated_pages_total", "isolated"),
                      ("reclaimscope_reclaimed_pages_total", "reclaimed"),
                      ("reclaimscope_agings_total", "agings"),
                      ("reclaimscope_passes_total", "passes"),
                      ("reclaimscope_flusher_wakeups_total", "flusher_wakeups"),
                      ("reclaimscope_throttles_total", "throttles")):
        got = metric_total(samples, name, path)
        check(got == m[key] and got > 0,
              f"/metrics {name}{{memcg={path}}} {got:.0f} == summary {key} {m[key]}")
    got = metric_total(samples, "reclaimscope_throttle_duration_seconds_count", path)
    check(got == m["throttles"], f"throttle delay histogram counts {got:.0f} throttles")
    with open(os.path.join(res, "api.after.json")) as f:
        api = json.load(f)
    check(api["header"]["schema"] == rs_tables.schema() and api["summary"]["type"] == "summary",
          "the JSON API answers with a header and a summary")
    # the tiers: each non-zero counter a series, equal to the API's (both
    # read the same model; the tiers are state, quiet after the workload)
    served = next((e for e in api["summary"]["memcgs"] if e["path"] == path),
                  None)
    tiers = (served or {}).get("tiers")
    want = {(t, str(i), k): v for t in ("anon", "file")
            for i, e in enumerate((tiers or {}).get(t, []))
            for k, v in e.items() if v}
    got = {(lb["type"], lb["tier"], lb["counter"]): v
           for name, lb, v in samples
           if name == "reclaimscope_mglru_tier_pages" and lb.get("memcg") == path}
    check(tiers is not None and want and got == want,
          f"/metrics reclaimscope_mglru_tier_pages{{memcg={path}}}: "
          f"{len(got)} series == the API's non-zero tier counters ({len(want)})")
    # the API's catalogue rows (?metrics=1): the same totals the recording
    # has (which equal memory.stat and lru_gen above), and one derived row
    with open(os.path.join(res, "api-metrics.after.json")) as f:
        rows = next((e.get("metrics") for e in json.load(f)["summary"]["memcgs"]
                     if e["path"] == path), None) or {}
    wrong = [(row, rows.get(row), m[key]) for row, key in
             (("scanned", "scanned"), ("isolated", "isolated"),
              ("reclaimed", "reclaimed"), ("passes", "passes"),
              ("agings", "agings"), ("throttles", "throttles"),
              ("flusher_wakeups", "flusher_wakeups"))
             if rows.get(row) != m[key]]
    eff = rows.get("efficiency")
    check(rows and not wrong and eff is not None
          and abs(eff - 100 * m["reclaimed"] / m["isolated"]) < 1e-9,
          f"API ?metrics=1 for {path}: the rows equal the summary's counts, "
          f"efficiency {eff} (wrong: {wrong[:3]})")
    # top's frames: MGLRU columns filled on the series kernel
    check(open(os.path.join(res, "top.status")).read().strip() == "top exit 0",
          "top -b exited 0 on SIGINT")
    # top's tasks table (--tasks): dd, the one task writing, stalled in /wb
    with open(os.path.join(res, "top-batch.txt")) as f:
        tasks = [line.split() for line in f if line.startswith("dd (")]
    check(tasks and all(t[-1] == path and t[3] in ("memcg", "throttle")
                        and float(t[4]) > 0 for t in tasks),
          f"top -b --tasks: dd's stalls in {path}, each line a rate of them "
          f"({len(tasks)} lines; {tasks[:2]})")
    with open(os.path.join(res, "top-batch.txt")) as f:
        frames = f.read().strip().split("\n\n")
    rows = []
    for frame in frames:
        lines = frame.splitlines()
        heads = [line for line in lines if line.startswith("MEMCG")]
        for line in lines:
            if heads and line.split() and line.split()[0] == path:
                rows.append(dict(zip(heads[0].split()[1:], line.split()[1:])))
    check(len(rows) > 0, f"top -b shows {path} in {len(rows)} frames")
    cols = ("passes/s", "agings/s", "budget%", "flusher_wakeups/s", "throttles/s")
    check(rows and all(r.get(c) != "n/a" for r in rows for c in cols),
          "top -b: the MGLRU columns are filled (never n/a) on the series kernel")
    check(any(float(r.get("passes/s", "0").replace("-", "0")) > 0 for r in rows),
          "top -b: some frame shows passes per second")


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


def scenario_tenants(res, header, summary, rec):
    kids = [memcg(summary, f"/tenants/t{i}") for i in range(1, 9)]
    if not check(all(kids), "all 8 tenants are in the summary"):
        return
    for m in kids:
        exact_totals(res, m, gone=False)
        check(m["passes"] > 0, f"{m['path']}: reclaim passes reached it")
        consistent(rec, m)
    # memory.stat is hierarchical: the parent's counts are its children's
    parent_scan = delta(res, "memstat.tenants", "pgscan")
    parent_steal = delta(res, "memstat.tenants", "pgsteal")
    own = memcg(summary, "/tenants")
    own_isolated = own["isolated"] if own else 0
    check(sum(m["isolated"] for m in kids) + own_isolated == parent_scan,
          f"children's isolated add up to the parent's pgscan ({parent_scan})")
    check(sum(m["reclaimed"] for m in kids) + (own["reclaimed"] if own else 0)
          == parent_steal,
          f"children's reclaimed add up to the parent's pgsteal ({parent_steal})")
    check(summary.get("agg_spilled", 0) > 0,
          f"with room for 16 cells, the rest went to the reserve "
          f"({summary.get('agg_spilled')} cells), and every total above is "
          f"exact")
    daemon_cgroupfs(res, ["/tenants"] + [m["path"] for m in kids])


def scenario_tenants_legacy(res, header, summary, rec):
    """tenants on 6.12, whose tracepoints run their programs with
    preemption off: one copy of each tracepoint program (RS_PROGS), and
    eight reclaimers on two CPUs still lose no run (common checks missed)."""
    probe = json.load(open(os.path.join(res, "probe.json")))
    check(probe.get("tracepoint_preemption") == "off",
          f"the probe finds preemption off in tracepoints "
          f"({probe.get('tracepoint_preemption')}: "
          f"{probe.get('tracepoint_preemption_why')})")
    check(probe.get("tracepoint_copies") == 1,
          f"one copy of each tracepoint program "
          f"({probe.get('tracepoint_copies')})")
    scenario_tenants(res, header, summary, rec)


def scenario_proactive(res, header, summary, rec):
    m = memcg(summary, "/pro")
    if not check(m is not None, "memcg /pro is in the summary"):
        return
    exact_totals(res, m, gone=False)
    rec_kinds = m["by_reclaimer"]
    check("proactive" in rec_kinds and rec_kinds["proactive"]["reclaimed"] > 0,
          f"memory.reclaim recorded as proactive ({sorted(rec_kinds)})")
    check("memcg" not in rec_kinds, "no limit reclaim (there is no limit)")
    check(m["memcg_reclaims"] >= 4,
          f"every memory.reclaim write reclaimed ({m['memcg_reclaims']} >= 4)")
    reclaims = events_of(rec, "reclaim", m["id"])
    check(reclaims and all(e["reclaimer"] == "proactive" for e in reclaims),
          "every reclaim record of /pro says proactive")
    forced = int(open(os.path.join(res, "forced_agings")).read())
    other = [e for e in events_of(rec, "aging", m["id"])
             if e["trigger"] == "other" and e["success"]]
    check(len(other) == forced,
          f"forced agings recorded as such ({len(other)} == {forced})")
    consistent(rec, m)


def scenario_classic(res, header, summary, rec):
    check(header.get("mglru") is True, "MGLRU was on when the recording began")
    snaps = [l for l in rec if l.get("type") == "snapshot"]
    check(snaps and snaps[0].get("mglru") is True
          and snaps[-1].get("mglru") is False,
          "snapshots follow the switch: MGLRU on first, off at the end")
    with open(os.path.join(res, "record.err")) as f:
        err = f.read()
    check("MGLRU switched off at" in err,
          "record says on stderr that MGLRU was switched off")
    hooks = header["hooks"]
    for h in MISSION_HOOKS + ["shrink_lruvec"]:
        check(hooks.get(h) == "attached", f"hook {h} attached ({hooks.get(h)})")
    m = memcg(summary, "/test")
    if not check(m is not None, "memcg /test is in the summary"):
        return
    exact_totals(res, m, mglru=False)
    check(m["passes"] == 0 and m["agings"] == 0,
          "the MGLRU hooks fall quiet (0 passes, 0 agings: known, not null)")
    check(m["classic_shrinks"] > 0, f"classic passes counted ({m['classic_shrinks']})")
    check(m["writeback_checks"] > 0,
          "handle_reclaim_writeback attributes under the classic LRU too")
    check(m["isolated"] <= m["scanned"], "isolated <= scanned")
    consistent(rec, m)


def scenario_global(res, header, summary, rec):
    ms = [memcg(summary, "/g1"), memcg(summary, "/g2")]
    if not check(all(ms), "both memcgs are in the summary"):
        return
    # g2's anonymous memory cannot be reclaimed (no swap): it only presses
    for m, active in zip(ms, (True, False)):
        exact_totals(res, m, gone=False, active=active)
        consistent(rec, m)
    g1 = ms[0]
    kswapd = g1["by_reclaimer"].get("kswapd", {})
    print(f"  info  /g1 by reclaimer: {g1['by_reclaimer']}")
    check(kswapd.get("isolated", 0) > 0,
          "kswapd's passes are attributed to the memcg whose LRU they scanned")
    direct = sum(m["direct_reclaims"] for m in summary["memcgs"])
    check(direct > 0, f"direct reclaim stalls were recorded ({direct})")
    recs = [e for e in rec if e.get("type") == "event" and e.get("kind") == "reclaim"
            and e.get("reclaimer") == "direct"]
    check(len(recs) == direct, "one reclaim record per direct reclaim")
    # the kernel's own count of direct reclaim stalls: do_try_to_free_pages()
    # counts an allocstall for each global direct reclaim (try_to_free_pages,
    # between the two tracepoints), none for memcg reclaim; nothing reclaims
    # outside the snapshots' window (the workload runs inside it)
    before = read_kv(os.path.join(res, "vmstat.before"))
    stalls = sum(delta(res, "vmstat", k) for k in before
                 if k.startswith("allocstall_"))
    check(stalls == direct, f"direct reclaims {direct} == /proc/vmstat "
          f"allocstall_* {stalls}")
    tasks = sum(s["count"] for s in summary["stalls"] if s["kind"] == "direct")
    check(tasks == stalls, f"the tasks' direct stalls {tasks} == allocstall_* "
          f"{stalls}")
    check(all(e["duration_ns"] > 0 for e in recs), "every stall has a latency")
    # the memcg LRU as root reclaim walked it: attached is not enough (a
    # function in BTF may be inlined where shrink_many() calls it)
    visits = sum(m["memcg_lru_visits"] or 0 for m in summary["memcgs"])
    moves = sum(sum(m[f"memcg_lru_to_{k}"] or 0
                    for k in ("head", "tail", "old", "young"))
                for m in summary["memcgs"])
    print(f"  info  memcg LRU: {visits} visits, {moves} moves; /g1 "
          + ", ".join(f"{k} {g1[k]}" for k in g1 if k.startswith("memcg_lru")))
    check(visits > 0, f"shrink_one seen walking the memcg LRU ({visits})")
    check(moves > 0, f"lru_gen_rotate_memcg seen moving memcgs ({moves})")
    kswapd_runs_exact(res, summary, rec)


def read_zoneinfo(path):
    """/proc/zoneinfo: per node, its zones in index order as
    {"boost", "high"} (pages)."""
    nodes = {}
    zones = None
    with open(path) as f:
        for line in f:
            words = line.split()
            if line.startswith("Node "):
                zones = nodes.setdefault(int(words[1].rstrip(",")), [])
                zones.append({})
            elif zones is not None and len(words) == 2 and words[1].isdigit() \
                    and words[0] in ("boost", "high") and words[0] not in zones[-1]:
                zones[-1][words[0]] = int(words[1])
    return nodes


def kswapd_runs_exact(res, summary, rec):
    """kswapd's balance_pgdat() runs: attached and ran (a function in BTF
    may be inlined into kswapd()), and what the runs reclaimed and isolated
    is /proc/vmstat's pgsteal_kswapd and pgscan_kswapd over the recording,
    exactly: kswapd reclaims only inside balance_pgdat()."""
    runs = [e for e in rec if e.get("type") == "event" and e.get("kind") == "kswapd_run"]
    node = memcg(summary, "(unattributed)") or {}
    check(len(runs) > 0 and node.get("kswapd_runs") == len(runs),
          f"kswapd runs recorded, one record each ({len(runs)} records, "
          f"kswapd_runs {node.get('kswapd_runs')})")
    for ours, theirs in (("nr_reclaimed", "pgsteal_kswapd"), ("isolated", "pgscan_kswapd")):
        got = sum(e[ours] for e in runs)
        want = delta(res, "vmstat", theirs)
        check(got == want, f"kswapd runs' {ours} {got} == /proc/vmstat {theirs} delta {want}")
    known = [e for e in runs if "free_after" in e]
    check(len(known) == len(runs), f"every run read its zones' watermarks ({len(known)})")
    # the watermarks each run balanced to: the high marks of the zones up
    # to its highest_zoneidx, as /proc/zoneinfo gives them (global.sh turns
    # boosts off, so they stay put: the same before and after)
    zi = [read_zoneinfo(os.path.join(res, f"zoneinfo.{t}")) for t in ("before", "after")]
    check(all(z.get("boost") == 0 for t in zi for n in t.values() for z in n)
          and [[z["high"] for z in n] for n in zi[0].values()]
          == [[z["high"] for z in n] for n in zi[1].values()],
          "no watermark boosts, and the high marks the same before and after")
    wrong = [(e["node"], e["highest_zoneidx"], e["high_before"], e["high_after"])
             for e in known
             if not e["high_before"] == e["high_after"] == sum(
                 z["high"] for z in zi[1].get(e["node"], [])[:e["highest_zoneidx"] + 1])]
    check(not wrong, f"every run's high watermarks are its zones' in /proc/zoneinfo "
          f"(up to highest_zoneidx; {len(known) - len(wrong)} of {len(known)}; "
          f"first wrong: {wrong[:1]})")
    past = sum(max(0, e["past_high"]) for e in known)
    short = sum(1 for e in known if e["past_high"] < 0)
    check(node.get("kswapd_past_high") == past and node.get("kswapd_runs_short") == short,
          f"kswapd_past_high {node.get('kswapd_past_high')} == {past} and "
          f"kswapd_runs_short {node.get('kswapd_runs_short')} == {short}, from the records")
    time_ns = sum(e["duration_ns"] for e in runs)
    check(node.get("kswapd_run_time") == time_ns,
          f"kswapd_run_time {node.get('kswapd_run_time')} == the records' durations {time_ns}")
    print(f"  info  kswapd runs: {len(runs)}, past the high watermarks at the end "
          f"{past} pages in all, {short} ended short")


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


def scenario_mix(res, header, summary, rec):
    m = memcg(summary, "/mix")
    if not check(m is not None, "memcg /mix is in the summary"):
        return
    exact_totals(res, m, gone=False)
    oom = delta(res, "memevents.mix", "oom_kill")
    print(f"  info  /mix: agings {m['agings']} ({m['aging_time']} ns), "
          f"OOM kills {m['oom_kills']} (memory.events {oom})")
    check(oom > 0, "more anon than the limit got a task OOM-killed")
    check(m["oom_kills"] == oom, "oom_kills == memory.events oom_kill delta")
    # the LRU at each OOM: one record per mem_cgroup_out_of_memory() call,
    # which the kernel counts as memory.events "oom"
    ooms = delta(res, "memevents.mix", "oom")
    check(m["ooms"] == ooms, f"ooms {m['ooms']} == memory.events oom delta {ooms}")
    recs = events_of(rec, "oom", m["id"])
    check(len(recs) == m["ooms"], f"one oom record per OOM ({len(recs)})")
    check(recs and all(e.get("generations") and any(
        g["anon"] or g["file"] for g in e["generations"]) for e in recs),
        "every oom record shows the memcg's populated generations")
    for e in recs[:3]:
        print(f"  info  OOM: killed {e['killed']}, generations "
              + " ".join(f"{g['seq']}:{g['anon']}a/{g['file']}f"
                         for g in e["generations"])
              + f", last pass {e.get('last_pass_exit')}")
    oom_context(res, recs)
    refaults_exact(res, m, header)
    check(m["agings"] > 0 and m["aging_time"] > 0, "agings with their durations")
    ag = [e for e in events_of(rec, "aging", m["id"]) if e["success"]]
    check(all(e["duration_ns"] > 0 for e in ag), "every aging has a duration")
    check(all(any(g["anon"] or g["file"] for g in e["generations"]) for e in ag),
          "every aging shows populated generations")
    consistent(rec, m)
    daemon_cgroupfs(res, ["/mix"])
    # /metrics: how many tasks stalled in /mix, without a label per task
    with open(os.path.join(res, "metrics.after.txt")) as f:
        served = [v for n, labels, v in parse_metrics(f.read())
                  if n == "reclaimscope_memcg_stalled_tasks"
                  and labels.get("memcg") == "/mix"]
    tids = {s["tid"] for s in summary["stalls"] if s["id"] == m["id"]}
    check(served == [len(tids)], f"daemon: stalled tasks of /mix {served} == "
          f"the recording's distinct tasks there ({len(tids)})")
    # the two readers, named by the program's name they ran under (mix.sh):
    # each its own stalls, in /mix
    for comm in ("stall-a", "stall-b"):
        mine = [s for s in summary["stalls"]
                if s["comm"] == comm and s["id"] == m["id"]]
        check(mine and sum(s["count"] for s in mine) > 0
              and len({s["tid"] for s in mine}) == 1,
              f"task {comm}: its own stalls in /mix, under one task id "
              f"({[(s['kind'], s['count'], s['total_ns']) for s in mine]})")


def oom_context(res, recs):
    """What an OOM record says beside the LRU: the last pass's dirty and
    writeback folios (reclaim_stat, among what it isolated), the machine's
    swap (by kallsyms: present exactly when the kernel names both symbols,
    its total equal to /proc/meminfo's, which no OOM changes), and the
    node's dirty and writeback pages."""
    with_pass = [e for e in recs if "last_pass_isolated" in e]
    check(with_pass and all("last_pass_dirty" in e and "last_pass_writeback" in e
                            for e in with_pass),
          f"the last pass's dirty and writeback in every record with a last "
          f"pass ({len(with_pass)} of {len(recs)})")
    check(all(e["last_pass_dirty"] <= e["last_pass_isolated"] and
              e["last_pass_writeback"] <= e["last_pass_isolated"] for e in with_pass),
          "dirty and writeback folios are among those the pass isolated ("
          + ", ".join(f"{e['last_pass_dirty']}/{e['last_pass_writeback']} of "
                      f"{e['last_pass_isolated']}" for e in with_pass[:3]) + ")")
    path = os.path.join(res, "kallsyms.swap")
    names = open(path).read().split() if os.path.exists(path) else []
    named = "nr_swap_pages" in names and "total_swap_pages" in names
    check(all(("swap_free" in e) == named for e in recs),
          f"swap known in the records exactly when kallsyms names it ({named})")
    if named:
        with open(os.path.join(res, "meminfo.after")) as f:
            total = next((int(line.split()[1]) for line in f
                          if line.startswith("SwapTotal:")), -1)
        check(all(e["swap_total"] * 4 == total and 0 <= e["swap_free"] <= e["swap_total"]
                  for e in recs),
              f"swap_total == /proc/meminfo SwapTotal ({total} kB), free within it")
    check(all(e.get("node_dirty", -1) >= 0 and e.get("node_writeback", -1) >= 0
              for e in recs),
          "the node's dirty and writeback pages in every record ("
          + ", ".join(f"{e.get('node_dirty')}/{e.get('node_writeback')}"
                      for e in recs[:3]) + ")")


def scenario_readahead(res, header, summary, rec):
    m = memcg(summary, "/ra")
    if not check(m is not None, "memcg /ra is in the summary"):
        return
    exact_totals(res, m, gone=False)
    refaults_exact(res, m, header)
    print(f"  info  /ra: reclaimed {m['reclaimed']}, file share of isolated "
          f"{m['isolated_file']}/{m['isolated']}")
    check(m["isolated_file"] == m["isolated"] and m["isolated"] > 0,
          "only file pages were taken (the reader has no anon memory to speak of)")
    consistent(rec, m)


def scenario_stalls(res, header, summary, rec):
    """100,000 short-lived threads, each a proactive reclaim stall of its
    own in /st.  common() has checked that nothing was lost and that the
    tasks' counts add up to the memcg's."""
    m = memcg(summary, "/st")
    if not check(m is not None, "memcg /st is in the summary"):
        return
    n = int(open(os.path.join(res, "threads.txt")).read().strip() or 0)
    secs = open(os.path.join(res, "stallers.seconds")).read().strip()
    check(n > 16_384, f"the workload ran its threads ({n} in {secs} s): more "
          f"than the kernel's per-task map holds (16,384) and userspace keeps "
          f"(4,096)")
    mine = [s for s in summary["stalls"] if s["id"] == m["id"]]
    tids = {s["tid"] for s in mine if s["tid"]}
    folded = summary.get("stalls_folded", 0)
    print(f"  info  /st: {m['memcg_reclaims']} memcg reclaims by {n} threads; "
          f"{len(tids)} tasks listed, {folded} folded into (exited tasks), "
          f"{len(summary['stalls'])} entries kept")
    check(all(s["kind"] == "proactive" for s in mine) and
          len(tids) + folded == n,
          f"every thread one task, listed or folded ({len(tids)} + {folded} == {n})")
    check(len(summary["stalls"]) <= 4096 + 4,
          f"userspace kept at most 4,096 entries and the folded ones "
          f"({len(summary['stalls'])})")
    # the slow reader: its map filled, and the loss is counted, exactly
    status = open(os.path.join(res, "record-slow.status")).read().strip()
    slow = load_recording(os.path.join(res, "rec-slow.ndjson"))
    s = slow[-1] if slow else {}
    check(status == "record exit 0" and s.get("type") == "summary",
          f"the slow recording ended with its summary ({status})")
    ms = memcg(s, "/st") if s.get("memcgs") else None
    if not check(ms is not None, "the slow recording has /st"):
        return
    lost = s.get("tasks_lost", 0)
    kept = sum(x["count"] for x in s["stalls"] if x["id"] == ms["id"])
    print(f"  info  slow reader: {lost} stalls lost from its full map, "
          f"{kept} kept per task, of {ms['memcg_reclaims']}")
    check(lost > 0, f"read only at its end, the map filled: stalls lost ({lost})")
    check(kept + lost == ms["memcg_reclaims"] == m["memcg_reclaims"],
          f"kept per task + lost == the memcg's count == the other "
          f"recording's ({kept} + {lost} == {ms['memcg_reclaims']} == "
          f"{m['memcg_reclaims']})")


def scenario_churn(res, header, summary, rec):
    """2,000 short-lived memcgs, 100 paths reused: one entry each, exact."""
    made = []  # (cgroup id, path) in order
    with open(os.path.join(res, "churn.ids")) as f:
        for line in f:
            cgid, path = line.split()
            made.append((int(cgid), path))
    stat = {}  # cgroup id -> memory.stat just before rmdir
    with open(os.path.join(res, "churn.memstat")) as f:
        for line in f:
            k, v = line.split()
            if k == "memcg":
                cur = stat.setdefault(int(v), {})
            else:
                cur[k] = int(v)
    paths = {p for _, p in made}
    check(len(made) == 2000 and len({i for i, _ in made}) == 2000,
          f"2000 memcgs made, each with its own cgroup id ({len(made)})")
    check(len(paths) == 100, f"under 100 paths, each reused ({len(paths)})")
    check(summary.get("names_full") == 0, "the naming map never filled")
    by_id = {m["id"]: m for m in summary["memcgs"]}
    churned = [m for m in summary["memcgs"] if m["path"].startswith("/churn/")]
    unknown = [m for m in summary["memcgs"] if m["path"].startswith("(unknown")]
    check(len(churned) == 2000,
          f"the summary has 2000 entries under /churn ({len(churned)})")
    check(not unknown, f"no memcg left unnamed ({len(unknown)})")
    wrong = {"missing": 0, "path": 0, "gone": 0, "idle": 0, "emptied": 0,
             "pgscan": 0, "pgsteal": 0}
    shown = 0
    for cgid, path in made:
        m, st = by_id.get(cgid), stat.get(cgid, {})
        if m is None:
            wrong["missing"] += 1
            continue
        bad = {"path": m["path"] != path,
               "gone": m.get("gone") is not True,
               "idle": st.get("pgscan", 0) == 0,
               # no page left on its LRUs for reclaim to find later
               # (memory.current keeps a page or so of kernel memory)
               "emptied": st.get("anon") != 0 or st.get("file") != 0,
               "pgscan": m["isolated"] != st.get("pgscan"),
               "pgsteal": m["reclaimed"] != st.get("pgsteal")}
        for what, is_bad in bad.items():
            wrong[what] += is_bad
        if any(bad.values()) and shown < 5:
            shown += 1
            print(f"  info  memcg {cgid} {path}: isolated {m['isolated']} "
                  f"reclaimed {m['reclaimed']}; its memory.stat {st}")
    for what, n in wrong.items():
        check(n == 0, f"every churned memcg: {what} ok ({n} not)")
    print(f"  info  churned memcgs: isolated {sum(m['isolated'] for m in churned)} "
          f"reclaimed {sum(m['reclaimed'] for m in churned)} pages in all")

    # the daemon, forgetting removed memcgs after 2 s
    daemon_exited_ok(res)
    with open(os.path.join(res, "api.mid.json")) as f:
        mid = [m for m in json.load(f)["summary"]["memcgs"]
               if m["path"].startswith("/churn/")]
    mid_gone = [m for m in mid if m.get("gone") is True]
    check(1 <= len(mid_gone) <= 200,
          f"halfway, the daemon shows the recently removed ({len(mid_gone)}), "
          "not the ~950 removed so far")
    # the rest are those still settling before their rmdir (churn.sh)
    check(len(mid) - len(mid_gone) <= CHURN_DEPTH + 1,
          f"... and the memcgs not yet removed ({len(mid) - len(mid_gone)}, "
          f"at most {CHURN_DEPTH + 1})")
    with open(os.path.join(res, "api.after.json")) as f:
        after = [m for m in json.load(f)["summary"]["memcgs"]
                 if m["path"].startswith("/churn/")]
    check(not after, f"at the end, every removed memcg is forgotten ({len(after)} left)")
    with open(os.path.join(res, "metrics.after.txt")) as f:
        series = [s for s in parse_metrics(f.read())
                  if s[1].get("memcg", "").startswith("/churn/")]
    check(not series, f"... and gone from /metrics ({len(series)} series left)")

    # memory: the daemon's stays flat once it has seen its share of churn
    rss = []  # (memcgs made, daemon KiB, record KiB)
    with open(os.path.join(res, "churn.rss")) as f:
        for line in f:
            rss.append(tuple(int(x) for x in line.split()))
    print("  info  RSS KiB (made: daemon record): " +
          ", ".join(f"{n}: {d} {r}" for n, d, r in rss))
    # from the first sample after the halfway fetch (serving it allocates)
    later = [d for n, d, _ in rss if n > 1000]
    check(max(later) - later[0] <= RSS_SLACK_KIB,
          f"daemon RSS flat over the last 900 memcgs "
          f"({later[0]} -> max {max(later)} KiB, slack {RSS_SLACK_KIB})")


# Heap pages the allocator keeps around: the daemon's RSS may wobble by
# this much while its model stays the same size.
RSS_SLACK_KIB = 512
CHURN_DEPTH = 50  # memcgs settling before their rmdir, as in churn.sh


def flat_rss(samples, who, column):
    """RSS (KiB) over the second half of a run stays within RSS_SLACK_KIB of
    where it was at the half."""
    half = samples[-1][0] / 2
    later = [s[column] for s in samples if s[0] >= half]
    if not check(len(later) >= 2, f"{who}: RSS sampled over the second half"):
        return
    check(max(later) - later[0] <= RSS_SLACK_KIB,
          f"{who}: RSS flat over the second half ({later[0]} -> max "
          f"{max(later)} KiB, slack {RSS_SLACK_KIB})")


def scenario_soak(res, header, summary, rec):
    """make soak: rounds for an hour at the default ring size."""
    samples = []  # (seconds, rounds, daemon KiB, record KiB)
    with open(os.path.join(res, "soak.rss")) as f:
        for line in f:
            samples.append(tuple(int(x) for x in line.split()))
    if not check(len(samples) >= 3, f"RSS sampled {len(samples)} times"):
        return
    secs, rounds = samples[-1][0], samples[-1][1]
    print(f"  info  soak: {secs} s, {rounds} rounds, "
          f"{summary['records']} event records; RSS KiB (s: daemon record): "
          + ", ".join(f"{t}: {d} {r}" for t, _, d, r in samples))
    with open(os.path.join(res, "soak.events")) as f:
        delivered = int(f.read())
    check(delivered == summary["records"],
          f"every event record submitted was delivered ({delivered} == "
          f"{summary['records']})")
    for i in range(1, 5):
        m = memcg(summary, f"/soak/r{i}")
        if check(m is not None, f"/soak/r{i} is in the summary"):
            exact_totals(res, m, gone=False, active=True)
    flat_rss(samples, "daemon", 2)
    flat_rss(samples, "record", 3)
    daemon_exited_ok(res)


def scenario_bench(res, header, summary, rec):
    """The VM part of make bench: complete figures (not judged: they are
    emulated and noisy), and the daemon's hook cost metrics equal to the
    kernel's own timing of its programs, fentry hooks included."""
    lines = load_ndjson(judge, os.path.join(res, "bench.jsonl"))
    check(any(l["kind"] == "machine" and l.get("vm") for l in lines),
          "bench.jsonl names the machine")
    work = [l for l in lines if l["kind"] == "workload"]
    for wl in ("readlat", "reclaimloop"):
        per_mode = {m: [l for l in work if l["workload"] == wl and l["mode"] == m]
                    for m in ("none", "agg", "stream", "fair")}
        counts = {m: len(v) for m, v in per_mode.items()}
        check(min(counts.values()) >= 1 and len(set(counts.values())) == 1,
              f"{wl}: every mode ran every round ({counts})")
        check(all(l["wall_s"] > 0 and l["cpu_s"] >= 0 and l["reclaimed"] > 0
                  for v in per_mode.values() for l in v),
              f"{wl}: every run reclaimed and was timed")
    costs = {}
    for mode in ("control", "agg", "stream", "fair"):
        with open(os.path.join(res, f"progs.{mode}.json")) as f:
            costs[mode] = {p["name"]: p for p in json.load(f)}
    # the fair peer: one counter on each distinct point of record's programs
    with open(os.path.join(res, "points.json")) as f:
        points = {(p["kind"], p["target"]) for p in json.load(f)["points"]}
    with open(os.path.join(res, "points.agg.json")) as f:
        agg_points = {(p["kind"], p["target"]) for p in json.load(f)["points"]}
    with open(os.path.join(res, "fair.cost.json")) as f:
        fair = {(p["kind"], p["target"]): p for p in json.load(f)["programs"]}
    check(("fentry", "try_to_shrink_lruvec") in points and
          ("tp", "mm_vmscan_lru_isolate") in points,
          f"record's points listed, fentry and tracepoints ({len(points)})")
    check(set(fair) == points == agg_points,
          f"the fair peer sat on every point of record's and no other "
          f"({sorted(points ^ set(fair))})")
    ran = fair.get(("fentry", "try_to_shrink_lruvec"), {}).get("runs", 0)
    check(ran > 0, f"the fair peer's counter on try_to_shrink_lruvec ran ({ran})")
    # record --refaults: the opt-in hook's programs are on their points, and ran
    with open(os.path.join(res, "points.refaults.json")) as f:
        opt_points = {(p["kind"], p["target"]): p["prog_id"]
                      for p in json.load(f)["points"]}
    with open(os.path.join(res, "progs.refaults.json")) as f:
        opt_runs = {p["id"]: p.get("run_cnt", 0) for p in json.load(f)}
    want = {("fexit", "lru_gen_test_recent"), ("fentry", "workingset_refault"),
            ("fexit", "workingset_refault")}
    check(want <= set(opt_points) and all(opt_runs.get(opt_points[p], 0) > 0
                                          for p in want),
          f"record --refaults: the refault programs attached and ran "
          f"({[opt_runs.get(opt_points.get(p), 0) for p in sorted(want)]})")
    agg = costs["agg"]
    for prog in ("rs_pass_enter", "rs_pass_exit", "rs_lru_isolate"):
        check(agg.get(prog, {}).get("run_cnt", 0) > 0,
              f"{prog} ran and was timed ({agg.get(prog, {}).get('run_cnt')})")
    check(any(n.startswith("rs_empty_") and p.get("run_cnt", 0) > 0
              for n, p in costs["control"].items()),
          "the empty control programs ran")
    probe = json.load(open(os.path.join(res, "probe.json")))
    with open(os.path.join(res, "daemon-prog-ids.txt")) as f:
        ids = {int(i) for i in f.read().split()}
    with open(os.path.join(res, "metrics.cost.txt")) as f:
        samples = parse_metrics(f.read(), judge)
    hook_cost_checks(judge, probe, samples,
                     json.load(open(os.path.join(res, "progs.before.json"))),
                     json.load(open(os.path.join(res, "progs.after.json"))), ids)
    daemon_exited_ok(res)
    m = memcg(summary, "/pro")
    if check(m is not None, "memcg /pro is in the summary"):
        exact_totals(res, m, gone=False)


def copies_misses_by_hook(path):
    """recursion_misses of each program (bpftool prog show --json), summed
    over a program's copies: {program: misses}, those with any, most
    first."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        progs = json.load(f)
    out = {}
    for p in progs:
        name = p.get("name", "")
        if not name.startswith("rs_") or not p.get("recursion_misses"):
            continue
        base = name[:-2] if name[-2:-1] == "_" and name[-1].isdigit() else name
        out[base] = out.get(base, 0) + p["recursion_misses"]
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def scenario_copies(res, header, summary, rec):
    """Issue 20's copy count: per `--copies N`, the events the kernel's
    skips lost (summary "missed"), the skipped runs and the programs most
    of them fell on, and whether every memcg's totals still equal its
    memory.stat.  Figures for BENCHMARKS.md (copies.json); five copies,
    what record attaches by default, must lose nothing."""
    rows = []
    for n in (1, 2, 3, 5):
        path = os.path.join(res, "rec.ndjson" if n == 5 else f"rec.c{n}.ndjson")
        lines = load_recording(path)
        head = next((l for l in lines if l.get("type") == "header"), {})
        summ = next((l for l in lines if l.get("type") == "summary"), None)
        status = os.path.join(res, "record.status" if n == 5
                              else f"record.c{n}.status")
        status = open(status).read().strip() if os.path.exists(status) else None
        if not check(summ is not None and head.get("copies") == n and
                     status == "record exit 0",
                     f"--copies {n}: a whole recording that says so "
                     f"({head.get('copies')}, {status})"):
            continue
        wrong, pages = [], 0
        for i in range(1, 9):
            m = memcg(summ, f"/c{n}/t{i}")
            name = f"c{n}_t{i}"
            before = read_kv(os.path.join(res, f"memstat.{name}.before.c{n}"))
            after = read_kv(os.path.join(res, f"memstat.{name}.after.c{n}"))
            for ours, theirs in (("isolated", "pgscan"), ("reclaimed", "pgsteal")):
                want = after[theirs] - before[theirs]
                got = m[ours] if m else None
                pages += want if ours == "isolated" else 0
                if got != want:
                    wrong.append(f"t{i} {ours} {got} != {want}")
        skipped = copies_misses_by_hook(os.path.join(res, f"progs.c{n}.json"))
        if n == 1:  # no later copy makes a skipped run up
            check(sum(skipped.values()) == summ.get("missed"),
                  f"--copies 1: events lost {summ.get('missed')} == the "
                  f"kernel's skipped runs (bpftool) {sum(skipped.values())}")
        rows.append({"copies": n, "missed": summ.get("missed"),
                     "skipped_runs": sum(skipped.values()),
                     "skipped_most": list(skipped.items())[:3],
                     "pages_scanned": pages,
                     "memcgs_wrong": len({w.split()[0] for w in wrong})})
        print(f"  info  --copies {n}: {summ.get('missed')} events lost, "
              f"{pages} pages scanned, totals wrong in {wrong[:4] or 'none'}; "
              f"runs skipped {sum(skipped.values())}, most in "
              f"{list(skipped.items())[:3]}")
        if n == 5:
            check(summ.get("missed") == 0 and not wrong,
                  f"--copies 5 (the default): nothing lost, every total "
                  f"exact ({summ.get('missed')} lost, {wrong[:3]})")
    with open(os.path.join(res, "copies.json"), "w") as f:
        json.dump(rows, f)


def scenario_lab(res, header, summary, rec):
    """A reclaim lab run (scripts/lab): the workload's outcome is in the
    recording, and every memcg it used has exact totals (scan, reclaim,
    refaults, OOM kills, agings: each counter the kernel keeps too) and a
    consistent event stream.  A parent's memory.stat holds its children's
    scans: compared with the sum of ours over its subtree; refaults and OOM
    kills we read from the memcg's own files, compared as they are."""
    outcomes = [l for l in rec if l.get("type") == "outcome"]
    check(any(o.get("worker") is None for o in outcomes),
          f"the workload's outcome is in the recording ({len(outcomes)} records)")
    # pgpgin and pgpgout: /proc/vmstat over the counters' window, less
    # what the tools disk gave (tests/vm/workloads/lab.sh)
    io = {}
    for o in outcomes:
        if o.get("worker") is None:
            io.update((k, o[k]) for k in ("pgpgin_kib", "pgpgout_kib") if k in o)

    def tools_kib(tag):
        with open(os.path.join(res, f"vdc.stat.{tag}")) as f:
            return int(f.read().split()[2]) // 2
    want = {"pgpgin_kib": (delta(res, "vmstat", "pgpgin") - (tools_kib("after") - tools_kib("before")),
                           "/proc/vmstat pgpgin delta less the tools disk's reads"),
            "pgpgout_kib": (delta(res, "vmstat", "pgpgout"), "/proc/vmstat pgpgout delta")}
    for k, (v, what) in want.items():
        check(io.get(k) == v, f"outcome {k} {io.get(k)} == {what} {v}")
    with open(os.path.join(res, "memcgs")) as f:
        paths = ["/" + p for p in f.read().split()]
    mglru = open(os.path.join(res, "lru_gen.enabled")).read().strip() not in ("0x0000", "none")
    key = "isolated" if mglru else "scanned"
    gen_before = read_lru_gen(os.path.join(res, "lru_gen.before"))
    gen_after = read_lru_gen(os.path.join(res, "lru_gen.after"))
    under = lambda p, path: p == path or p.startswith(path + "/")  # noqa: E731
    for path in paths:
        name = path.strip("/").replace("/", "_")
        subtree = [m for m in summary["memcgs"] if under(m["path"], path)]
        # the kernel's subtree counts against the sum of ours, which are
        # each memcg's own
        for counter, stat in ((key, "pgscan"), ("reclaimed", "pgsteal")):
            ours = sum(m[counter] for m in subtree)
            theirs = delta(res, f"memstat.{name}", stat)
            check(ours == theirs, f"{path}: {counter} {ours} == memory.stat {stat} delta {theirs}")
        # refaults and OOM kills are read from the memcg's own files, as
        # the kernel counts them there (v2: its subtree's)
        m = memcg(summary, path)
        for counter, stat, file in (("refaults_anon", "workingset_refault_anon", "memstat"),
                                    ("refaults_file", "workingset_refault_file", "memstat"),
                                    ("oom_kills", "oom_kill", "memevents")):
            ours = m[counter] if m else 0
            theirs = delta(res, f"{file}.{name}", stat)
            check(ours == theirs, f"{path}: {counter} {ours} == {file} {stat} delta {theirs}")
        # lru_gen: each memcg's own max_seq
        advance = sum(gen_after.get(k, 0) - gen_before.get(k, 0)
                      for k in gen_after if under(k[0], path))
        ours = sum(m["agings"] for m in subtree)
        check(ours == advance, f"{path}: agings {ours} == lru_gen max_seq advance {advance}")
        if m:
            consistent(rec, m)


SCENARIOS = {
    "matrix-6.18": scenario_matrix,
    "matrix-7.3": scenario_matrix,
    "matrix-7.3-exp": scenario_matrix,
    "bench": scenario_bench,
    "soak": scenario_soak,
    "churn": scenario_churn,
    "stalls": scenario_stalls,
    "readahead": scenario_readahead,
    "mix": scenario_mix,
    "tenants": scenario_tenants,
    "tenants-legacy": scenario_tenants_legacy,
    "proactive": scenario_proactive,
    "classic": scenario_classic,
    "global": scenario_global,
    "wbstorm": scenario_wbstorm,
    "lab": scenario_lab,
    "copies": scenario_copies,
    "core": scenario_core,
    "legacy": scenario_legacy,
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SCENARIOS:
        print(__doc__, file=sys.stderr)
        return 2
    name, res = sys.argv[1], sys.argv[2]
    print(f"check {name}:")
    header, summary, rec = common(res)
    if header and summary:
        SCENARIOS[name](res, header, summary, rec)
    return judge.close(f"check {name}")


if __name__ == "__main__":
    sys.exit(main())
