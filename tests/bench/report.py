#!/usr/bin/env python3
"""make bench: the figures of tests/bench/bench.sh (host.jsonl) as a table on
stdout and as BENCHMARKS.md.  Targets are printed beside the figures; none is
asserted (the machines are shared and noisy)."""
import json
import os
import statistics
import sys

RS_COPIES = 5  # include/rs_common.h


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def workload_table(rows, latency="read p99 µs", floor=None):
    """floor: the mode whose slowdown is the floor (the fair peer), for a
    column of each mode's slowdown as a multiple of it."""
    modes = []
    for r in rows:
        if r["mode"] not in modes:
            modes.append(r["mode"])
    base = [r for r in rows if r["mode"] == "none"]
    base_wall = median([r["wall_s"] for r in base])
    base_cpu = median([r["cpu_s"] for r in base])
    slow = {mode: median([r["wall_s"] for r in rows if r["mode"] == mode])
            / base_wall - 1 for mode in modes}
    with_floor = floor in slow and slow[floor] > 0
    out = ["| mode | runs | wall s (median) | slowdown | "
           + ("× floor | " if with_floor else "")
           + f"CPU s | pages reclaimed per CPU-s | {latency} |",
           "|---|---|---|---|---|---|---|" + ("---|" if with_floor else "")]
    for mode in modes:
        rs = [r for r in rows if r["mode"] == mode]
        wall = median([r["wall_s"] for r in rs])
        cpu = median([r["cpu_s"] for r in rs])
        per_cpu = median([r["reclaimed"] / r["cpu_s"] for r in rs if r["cpu_s"] > 0])
        ratio = ""
        if with_floor:
            ratio = ("| " if mode == "none" else
                     f"{slow[mode] / slow[floor]:.2f}× | " if slow[mode] > 0
                     else "≤ 0 (noise) | ")
        out.append(f"| {mode} | {len(rs)} | {wall:.3f} | {slow[mode] * 100:+.2f}% | "
                   f"{ratio}{cpu:.3f} | {per_cpu:,.0f} | "
                   f"{median([r['p99_us'] for r in rs]):,.0f} |")
    return out, slow, base_cpu


def copy_of(name):
    """A program's name as (its first copy's name, which copy): RS_PROGS
    names copies 2..RS_COPIES "<name>_<n>"."""
    tail = name.rsplit("_", 1)
    if len(tail) == 2 and tail[1].isdigit() and 2 <= int(tail[1]) <= RS_COPIES:
        return tail[0], int(tail[1])
    return name, 1


def per_event(progs, prefix_of):
    """Per hook: events (first copies' runs) and ns per event, all copies."""
    hooks = {}
    for p in progs:
        base, copy = copy_of(p["prog"])
        h = hooks.setdefault(prefix_of(base), {"events": 0, "ns": 0, "progs": 0})
        h["ns"] += p["run_ns"]
        h["progs"] += 1
        if copy == 1:
            h["events"] += p["runs"]
    return {k: v for k, v in hooks.items() if v["events"]}


def strip(prefix):
    return lambda name: name[len(prefix):] if name.startswith(prefix) else name


def cost_table(costs, function_progs=(), iter_progs=()):
    """function_progs: our programs on fentry/fexit (the rest are on
    tracepoints); each kind's body is taken against its own empty control
    (a trampoline costs more than a tracepoint's call)."""
    control = per_event(costs.get("control", []), strip("rs_empty_"))
    ctl_fn = median([v["ns"] / v["events"] for k, v in control.items()
                     if k.startswith(("fentry_", "fexit_"))])
    ctl_tp = median([v["ns"] / v["events"] for k, v in control.items()
                     if not k.startswith(("fentry_", "fexit_"))])
    out = ["| tool | program | attach | events | ns/event (raw) | empty control "
           "ns/run | body ns/event |", "|---|---|---|---|---|---|---|"]
    for mode in ("agg", "stream", "peer"):
        if mode not in costs:
            continue
        hooks = per_event(costs[mode], strip("rs_peer_" if mode == "peer" else "rs_"))
        for name, v in sorted(hooks.items()):
            raw = v["ns"] / v["events"]
            runs_per_event = v["progs"]  # copies attached, each runs
            function = mode != "peer" and "rs_" + name in function_progs
            if mode != "peer" and "rs_" + name in iter_progs:
                # an iterator's run walks every memcg: no event, no control
                out.append(f"| {mode} | {name} | cgroup_iter | {v['events']:,} runs | "
                           f"{raw:.1f} per run | n/a | n/a |")
                continue
            ctl = ctl_fn if function else ctl_tp
            body = raw - ctl * runs_per_event
            out.append(f"| {mode} | {name} | {'fentry/fexit' if function else 'tp_btf'} | "
                       f"{v['events']:,} | {raw:.1f} | "
                       + (f"{ctl:.1f} × {runs_per_event} | {body:.1f} |"
                          if ctl == ctl else "n/a | n/a |"))
    return out, ctl_tp


WORKLOADS = (
    ("readlat", "a reader of a file several times its memcg's limit "
     "(`rs-workload readlat`): limit reclaim all the time, but most of the "
     "time goes to copying", "read p99 µs"),
    ("reclaimloop", "a memcg's page cache read in and then emptied (v2 "
     "`memory.reclaim`, v1 `memory.force_empty`), only the emptying timed "
     "(`rs-workload reclaimloop`): nearly all reclaim, so a tool's cost "
     "shows undiluted", "reclaim p99 µs"))


def bpftool_programs(path):
    """`bpftool prog show --json` as the cost lines' program lists."""
    with open(path) as f:
        return [{"prog": p["name"], "runs": p.get("run_cnt", 0),
                 "run_ns": p.get("run_time_ns", 0)}
                for p in json.load(f) if p.get("name", "").startswith("rs_")]


def points_and_programs(res_dir, mode):
    """A mode's programs: {prog_id: (kind, target)} from points.MODE.json
    (rs-bench points) and {prog_id: bpftool's entry} from progs.MODE.json;
    None if the mode did not run."""
    points_path = os.path.join(res_dir, f"points.{mode}.json")
    progs_path = os.path.join(res_dir, f"progs.{mode}.json")
    if not (os.path.exists(points_path) and os.path.exists(progs_path)):
        return None
    with open(points_path) as f:
        where = {p["prog_id"]: (p["kind"], p["target"])
                 for p in json.load(f)["points"]}
    with open(progs_path) as f:
        progs = {p["id"]: p for p in json.load(f)}
    return where, progs


def cost_per_point(res_dir, mode):
    """What a tool's programs cost per attach point: points.MODE.json names
    each program's point, progs.MODE.json its kernel statistics; per
    (kind, target), the run time of every program and copy there and the
    events (every program on a point runs once per event).  None if the
    mode did not run."""
    loaded = points_and_programs(res_dir, mode)
    if loaded is None:
        return None
    where, progs = loaded
    per_point = {}
    for prog_id, point in where.items():
        p = progs.get(prog_id, {})
        v = per_point.setdefault(point, {"ns": 0, "events": 0})
        v["ns"] += p.get("run_time_ns", 0)
        v["events"] = max(v["events"], p.get("run_cnt", 0))
    return per_point


def read_fair(vm_dir):
    """The fair peer's programs by point, {(kind, target): stats}, or None."""
    path = os.path.join(vm_dir, "fair.cost.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return {(p["kind"], p["target"]): p for p in json.load(f)["programs"]}


def point_ratios(vm_dir, fair):
    """Per mode (agg, stream), per point that fired, most costly first:
    (point, events, our ns per event, the fair peer's, ours / peer's)."""
    ratios = {}
    for mode in ("agg", "stream"):
        per_point = cost_per_point(vm_dir, mode)
        if per_point is None:
            continue
        ratios[mode] = []
        for point, v in sorted(per_point.items(), key=lambda kv: -kv[1]["ns"]):
            peer = fair.get(point)
            if not v["events"] or not peer or not peer["runs"]:
                continue
            ours_ns = v["ns"] / v["events"]
            peer_ns = peer["run_ns"] / peer["runs"]
            ratios[mode].append((point, v["events"], ours_ns, peer_ns,
                                 ours_ns / peer_ns))
    return ratios


def floor_table(vm_dir):
    """Per attach point: what our programs there cost per event, all copies
    (cost_per_point), against the fair peer's bare counter on the same
    point (fair.cost.json); then the points only record --refaults adds."""
    fair = read_fair(vm_dir)
    if fair is None:
        return []
    out = ["| tool | point | events | ns/event, ours (all programs and copies) "
           "| ns/event, fair peer | × peer |", "|---|---|---|---|---|---|"]
    ratios = point_ratios(vm_dir, fair)
    for mode, rows in ratios.items():
        for point, events, ours_ns, peer_ns, ratio in rows:
            out.append(f"| {mode} | {point[0]}:{point[1]} | {events:,} | "
                       f"{ours_ns:,.0f} | {peer_ns:,.0f} | {ratio:.1f}× |")
    # the opt-in hooks: the points record --refaults adds to plain record's
    for point, v in sorted((cost_per_point(vm_dir, "refaults") or {}).items()):
        if point in fair:
            continue
        ns = f"{v['ns'] / v['events']:,.0f}" if v["events"] else "n/a"
        out.append(f"| refaults | {point[0]}:{point[1]} | {v['events']:,} "
                   f"| {ns} | (opt-in: no peer) | |")
    summary = []
    for mode, rows in ratios.items():
        r = [row[4] for row in rows]
        if r:
            summary.append(f"- {mode}: {len(r)} points that fired; × peer "
                           f"median {median(r):.1f}, worst {max(r):.1f}; "
                           f"within 1.5×: {sum(x <= 1.5 for x in r)}")
    return out + [""] + summary


def step_aside_lines(vm_dir, mode="agg"):
    """What copies 2..n cost when they step aside (the usual case: the first
    copy ran), per kind of point, against an empty program of that kind
    (progs.control.json): the part beyond the empty program is the task-
    storage lookup and the test, the most a cheaper step-aside could save;
    the rest is what any attached program costs."""
    loaded = points_and_programs(vm_dir, mode)
    control_path = os.path.join(vm_dir, "progs.control.json")
    if loaded is None or not os.path.exists(control_path):
        return []
    where, progs = loaded
    with open(control_path) as f:
        control = json.load(f)
    empty = {}  # kind -> [run_ns, runs] of the empty programs of that kind
    for p in control:
        name = p.get("name", "")
        kind = ("fentry" if name.startswith("rs_empty_fentry") else
                "fexit" if name.startswith("rs_empty_fexit") else
                "tracepoint" if name.startswith("rs_empty_") else None)
        if kind and p.get("run_cnt"):
            e = empty.setdefault(kind, [0, 0])
            e[0] += p["run_time_ns"]
            e[1] += p["run_cnt"]
    copies = {}  # kind -> [run_ns, runs] of copies 2..n
    for prog_id, p in progs.items():
        kind = where.get(prog_id, ("tracepoint",))[0]
        kind = "tracepoint" if kind not in ("fentry", "fexit") else kind
        if copy_of(p.get("name", ""))[1] > 1 and p.get("run_cnt"):
            c = copies.setdefault(kind, [0, 0])
            c[0] += p["run_time_ns"]
            c[1] += p["run_cnt"]
    out = ["| kind | copy runs (2..n) | ns per copy run | ns per empty-program run "
           "| beyond empty |", "|---|---|---|---|---|"]
    for kind in sorted(copies):
        ns, runs = copies[kind]
        if kind not in empty or not runs:
            continue
        empty_ns = empty[kind][0] / empty[kind][1]
        per = ns / runs
        out.append(f"| {kind} | {runs:,} | {per:,.0f} | {empty_ns:,.0f} "
                   f"| {per - empty_ns:+,.0f} ns ({(per - empty_ns) / per:.0%}) |")
    return out if len(out) > 2 else []


def vm_section(vm_dir):
    """The VM part (tests/vm/scenarios/bench.sh on the series kernel)."""
    rows = load(os.path.join(vm_dir, "bench.jsonl"))
    machine = next(r for r in rows if r["kind"] == "machine")
    emulated = "TCG" in machine["cpu"] or "QEMU" in machine["cpu"]
    vm = vm_clock(vm_dir)
    counted = vm.get("clock") == "icount"
    lines = ["## 5. On the series kernel (VM)", "",
             f"- kernel {machine['kernel']}, {machine['cpus']} CPUs "
             f"({machine['cpu']}), {machine['mem_kib'] // 1024} MiB, "
             f"{machine['date']}" + (", smoke run: tiny sizes" if machine["smoke"]
                                     else ""),
             "- " + (f"**emulated, on the counted clock** (qemu TCG, "
                     f"`-icount shift={vm['icount_shift']}`): the guest's "
                     f"time is the instructions it ran, "
                     f"{2 ** vm['icount_shift']} ns each, whatever else the "
                     f"host did; a trampoline or a helper costs the "
                     f"instructions it runs, not a CPU's caches and "
                     f"pipelines; compare modes within this run"
                     if counted else
                     "**emulated** (qemu TCG): every figure here is the "
                     "emulator's time, many times the CPU's; compare modes "
                     "within this run only" if emulated else
                     "under KVM: close to the host CPU's figures"),
             "- the fentry hooks (lruvec passes, evict_folios, aging, "
             "writeback) run here, the tracepoints alone on the host", ""]
    for wl, what, lat in WORKLOADS:
        work = [r for r in rows if r["kind"] == "workload" and r["workload"] == wl]
        if not work:
            continue
        table, _, _ = workload_table(work, lat, floor="fair")
        lines += [f"### {wl}: {what}", ""] + table + [""]
    if any(r.get("mode") == "fair" for r in rows):
        lines += ["`fair`: the floor, one bare per-cgroup counter (rs-bench) on "
                  "each point `record`'s programs are attached to (fentry, fexit "
                  "and tracepoints, listed from the running `record` by "
                  "`rs-bench points`). × floor = a mode's slowdown over the "
                  "floor's; targets (issue 20): `agg` ≤ 1.25×, `stream` ≤ 1.5×.",
                  ""]
    floor = floor_table(vm_dir)
    if floor:
        lines += ["### Cost per event against the floor, point by point", "",
                  "Our programs' kernel statistics per attach point (every "
                  "program there and every copy, per event) against the fair "
                  "peer's program on the same point, both with "
                  "`kernel.bpf_stats_enabled` over one run of both workloads. "
                  "Target: ≤ 1.5× per hook.", ""] + floor + [""]
    aside = step_aside_lines(vm_dir)
    if aside:
        lines += ["### What a copy costs when it steps aside", "",
                  "Copies 2..n of a program run on every event and, where the "
                  "first copy ran, only look up the task's state and return "
                  "(`record`'s programs, kernel statistics). Beside them, an "
                  "empty program on the same kind of point: what remains "
                  "beyond it is the lookup and the test, the most a cheaper "
                  "step-aside could save; the rest, and the trampoline's own "
                  "entry and exit that no statistic shows, any attached copy "
                  "costs.", ""] + aside + [""]
    costs = {}
    for mode in ("control", "agg", "stream", "peer"):
        path = os.path.join(vm_dir, f"progs.{mode}.json")
        if os.path.exists(path):
            costs[mode] = bpftool_programs(path)
    function_progs, iter_progs = set(), set()
    probe_path = os.path.join(vm_dir, "probe.json")
    if os.path.exists(probe_path):
        with open(probe_path) as f:
            for hook, st in json.load(f)["hooks"].items():
                if hook == "cgroup_iter":
                    iter_progs.update(st.get("programs") or [])
                elif not hook.startswith(("mm_", "cgroup_")):
                    function_progs.update(st.get("programs") or [])
    if costs:
        table, _ = cost_table(costs, function_progs, iter_progs)
        lines += ["### Cost per event", "",
                  "As section 2, over both workloads, the fentry/fexit hooks' "
                  "programs included; their body is taken against empty "
                  "fentry/fexit programs on shrink_lruvec.", ""]
        lines += table + [""]
    return lines


def vm_clock(vm_dir):
    """How the guest kept time (tests/vm/boot's vm.json): {} if not said."""
    path = os.path.join(vm_dir, "vm.json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def slowdown_figures(rows):
    """reclaimloop's slowdowns of the floor, record and record -e, and the
    latter two as multiples of the floor's."""
    rows = [r for r in rows if r["kind"] == "workload" and
            r.get("workload") == "reclaimloop"]
    if not rows:
        return {}
    _, slow, _ = workload_table(rows, floor="fair")
    out = {}
    if "fair" in slow:
        out["reclaimloop: floor +%"] = slow["fair"] * 100
    for mode in ("agg", "stream"):
        if mode not in slow:
            continue
        out[f"reclaimloop: {mode} +%"] = slow[mode] * 100
        # a floor at or below no tool's time gives no multiple of it
        if slow.get("fair", 0) > 0:
            out[f"reclaimloop: {mode} × floor"] = slow[mode] / slow["fair"]
    return out


def vm_figures(vm_dir):
    """The VM part's headline figures: reclaimloop's slowdowns as multiples
    of the floor's, and the median of our cost per point over the fair
    peer's."""
    out = slowdown_figures(load(os.path.join(vm_dir, "bench.jsonl")))
    fair = read_fair(vm_dir)
    for mode, rs in (point_ratios(vm_dir, fair) if fair else {}).items():
        if rs:
            out[f"per point ({mode}): median × peer"] = median([r[4] for r in rs])
    return out


def agreement_table(one, two):
    """Each figure of two runs side by side: within 10% of each other?"""
    lines = ["| figure | run 1 | run 2 | difference | within 10% |",
             "|---|---|---|---|---|"]
    for name in two:
        if name not in one:
            continue  # a figure one run lacks (an older run, a missing mode)
        a, b = one[name], two[name]
        diff = abs(a - b) / ((abs(a) + abs(b)) / 2) if a or b else 0.0
        fmt = (lambda x: f"{x:+.1f}%") if name.endswith("+%") else (lambda x: f"{x:.2f}×")
        lines.append(f"| {name} | {fmt(a)} | {fmt(b)} | {diff:.1%} | "
                     f"{'yes' if diff <= 0.10 else '**no**'} |")
    return lines


def repeat_section(vm_dir, repeat_dir):
    """The same code's VM part twice: does a figure hold within 10%?"""
    return ["### The same code twice", "",
            "`make bench` runs the VM part twice; the first run's folder is "
            f"`{os.path.relpath(repeat_dir)}`. A figure is good to judge a "
            "change only where its two runs agree within 10% "
            "(|run 1 − run 2| over their mean).", ""] + agreement_table(
                vm_figures(repeat_dir), vm_figures(vm_dir)) + [""]


def dispatch_section(res_dir):
    """Issue 33's candidates measured (tests/vm/scenarios/dispatch.sh,
    summed up by check.py scenario_dispatch into dispatch.json)."""
    path = os.path.join(res_dir, "dispatch.json")
    lines = ["## 7. One copy per point: programs the kernel runs with "
             "preemption off (VM, series kernel)", ""]
    if not os.path.exists(path):
        return lines + [f"Not run ({path} is missing).", ""]
    with open(path) as f:
        d = json.load(f)
    vm = vm_clock(res_dir)
    lines += ["The same bare per-cgroup counter on every point `record` "
              "attaches to: `fair`, as fentry, fexit and tp_btf programs, "
              "once (the floor) and five times (`fair5`); `nopreempt`, as one "
              "kprobe-session program on every function (its entry and "
              "exit) and a perf-event program on every tracepoint, which "
              "the kernel runs with preemption off; `kfunctions` and "
              "`ptracepoints`, only the functions' or only the "
              "tracepoints' so, the rest as `fair`; `empty`, `empty5` and "
              "`nopreempt-empty`, the same programs with nothing in them: "
              "what their dispatch alone costs; `agg` is `record`. "
              "`reclaimloop`, the modes interleaved and rotated round by "
              f"round ({d['rounds']} rounds"
              + (f", the counted clock, 2^{vm['icount_shift']} ns an "
                 "instruction" if vm.get("clock") == "icount" else "")
              + "); medians.", "",
              "| mode | wall s (median) | range | over no tool | × the floor's |",
              "|---|---|---|---|---|"]
    base = d["over_none_s"]["fair"]
    for mode, wall in d["wall_s"].items():
        over = d["over_none_s"][mode]
        lo, hi = d["spread_s"][mode]
        lines.append(f"| {mode} | {wall:.4f} | {lo:.4f}–{hi:.4f} | "
                     + (f"{over * 1e3:+.1f} ms | " if mode != "none" else "| ")
                     + (f"{over / base:.2f}× |" if mode != "none" and base > 0
                        else "|"))
    lines += ["", "Skipped runs with 8 reclaimers on 2 CPUs (the copies "
              "scenario's load) and `record` running beside: one counter "
              "per point of each kind (the kernel's `recursion_misses`).", "",
              "| counters | runs | skipped | where |", "|---|---|---|---|"]
    for mode, sk in d["skips"].items():
        where = ", ".join(f"{k} {v}" for k, v in
                          sorted(sk["by_program"].items(), key=lambda kv: -kv[1])[:4])
        lines.append(f"| {mode} | {sk['runs']:,} | {sk['skipped']:,} | {where} |")
    return lines + [""]


def copies_section(res_dir):
    """How many copies of each program exactness needs (tests/vm/scenarios/
    copies.sh, judged by check.py scenario_copies)."""
    path = os.path.join(res_dir, "copies.json")
    lines = ["## 6. Copies of each program (VM, series kernel)", ""]
    if not os.path.exists(path):
        return lines + [f"Not run ({path} is missing).", ""]
    with open(path) as f:
        rows = json.load(f)
    lines += ["The kernel skips a BPF program whose earlier run on the same CPU "
              "is still in progress (preempted, or nested), and counts the skip "
              "in its `recursion_misses`; RS_PROGS attaches copies that do the "
              "work only when an earlier one was skipped. The tenants load (8 "
              "readers in sibling memcgs under a 128 MiB parent: 8 reclaimers "
              "on the guest's 2 CPUs, the heaviest contention the VM makes), "
              "once per `record --copies N`, each in fresh memcgs; skipped = "
              "the kernel's skipped runs over every program and copy "
              "(`recursion_misses`), and the programs most fell on; "
              "lost = first-copy skips no later copy made up (summary "
              "`missed`); wrong = memcg totals (isolated, reclaimed) that "
              "differ from memory.stat's pgscan and pgsteal.", "",
              "| copies | runs skipped | most skipped | events lost "
              "| pages scanned | memcgs with a wrong total (of 8) |",
              "|---|---|---|---|---|---|"]
    for r in rows:
        most = ", ".join(f"{p} {n:,}" for p, n in r.get("skipped_most", []))
        skipped = r.get("skipped_runs")
        lines.append(f"| {r['copies']} "
                     f"| {'n/a' if skipped is None else f'{skipped:,}'} | {most} "
                     f"| {r['missed']:,} | {r['pages_scanned']:,} "
                     f"| {r['memcgs_wrong']} |")
    return lines + [""]


def views_section(rows):
    """report and diff on many memcgs (tests/bench/views.py)."""
    views = [r for r in rows if r["kind"] == "views"]
    if not views:
        return []
    lines = ["### report and diff on many memcgs", "",
             "`tests/bench/views.py`: two recordings of N memcgs (a few counters "
             "each), each command run once; peak RSS by GNU time.  Linear means the "
             "per-memcg figures stay put as N grows.  Target: 10^5 memcgs under "
             "1 GiB (`make viewtest` holds it).", "",
             "| command | memcgs | peak RSS | per memcg | time | per memcg |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in views:
        lines.append(f"| `{r['command']}` | {r['memcgs']:,} | {r['peak_kib'] / 1024:,.0f} MiB | "
                     f"{r['peak_kib'] / r['memcgs']:.2f} KiB | {r['seconds']:.2f} s | "
                     f"{r['seconds'] / r['memcgs'] * 1e6:.0f} µs |")
    return lines + [""]


def main():
    # options after the positional arguments: the VM part's first run, and
    # the dispatch scenario's results
    opts = {}
    while len(sys.argv) > 2 and sys.argv[-2] in ("--repeat", "--dispatch",
                                                 "--host-repeat"):
        opts[sys.argv[-2]] = sys.argv[-1]
        del sys.argv[-2:]
    if len(sys.argv) not in (3, 4, 5):
        sys.exit("usage: report.py HOST.jsonl BENCHMARKS.md [VM_RESULTS_DIR "
                 "[COPIES_RESULTS_DIR]] [--repeat VM_RESULTS_DIR] "
                 "[--dispatch DISPATCH_RESULTS_DIR] [--host-repeat HOST.jsonl]")
    rows = load(sys.argv[1])
    machine = next(r for r in rows if r["kind"] == "machine")
    work = [r for r in rows if r["kind"] == "workload"]
    costs = {r["mode"]: r["programs"] for r in rows if r["kind"] == "cost"}
    lines = ["# Benchmarks", "",
             "Written by `make bench` (tests/bench/bench.sh, rs-bench.c, report.py)."
             + (" **Smoke run: tiny sizes, figures meaningless.**" if machine["smoke"] else ""),
             "",
             "## Machine", "",
             f"- date: {machine['date']}",
             f"- kernel: {machine['kernel']} (cgroup v{machine['cgroup']})",
             f"- CPU: {machine['cpu']}, {machine['cpus']} CPUs, "
             f"{machine['mem_kib'] // 1024} MiB",
             "- a shared virtual machine: figures move by several per cent from "
             "run to run; compare modes within one run only", ""]
    lines += ["## 1. Workload slowdown", "",
              "Modes run interleaved, the order rotated every round; medians. "
              "`none`: no tool; `agg`: `reclaimscope record` (in-kernel "
              "aggregation); `stream`: `record -e` (every record streamed); "
              "`fair`: the floor, one bare per-cgroup counter on each point "
              "`record`'s programs are attached to (rs-bench; × floor is a "
              "mode's slowdown over its; targets agg ≤ 1.1×, stream ≤ 1.3× "
              "here); "
              "`peer`: the libbpf equivalent of a bpftrace one-liner counting the "
              "vmscan tracepoints per cgroup (rs-bench); `bpftrace`: that one-liner; "
              "`perf`: `perf record -a -e 'vmscan:*'`. Target: agg within 0.5%, "
              "stream within 2%; our overhead at most half of bpftrace's and a "
              "fifth of perf's.", ""]
    for wl, what, lat in WORKLOADS:
        rows_wl = [r for r in work if r.get("workload", "readlat") == wl]
        if not rows_wl:
            continue
        table, _, _ = workload_table(rows_wl, lat, floor="fair")
        lines += [f"### {wl}: {what}", ""] + table + [""]
    if opts.get("--host-repeat") and os.path.exists(opts["--host-repeat"]):
        lines += ["### The same code twice (host)", "",
                  "`make bench` runs the host part twice; the first run's "
                  f"figures are `{os.path.relpath(opts['--host-repeat'])}`. "
                  "On this shared machine a figure holds only where the "
                  "two agree within 10%.", ""]
        lines += agreement_table(slowdown_figures(load(opts["--host-repeat"])),
                                 slowdown_figures(rows)) + [""]
    if machine["cgroup"] == 1:
        lines += ["cgroup v1 here: readlat's pages reclaimed are the memcg's "
                  "pgpgout, which counts folios, not pages (v1 has no per-memcg "
                  "pgsteal); reclaimloop's are the usage each emptying freed.", ""]
    lines += ["## 2. Cost per event", "",
              "`run_time_ns / run_cnt` with `kernel.bpf_stats_enabled` on for these "
              "runs only, over the same workload; every copy of a program runs "
              "for each event (RS_PROGS: five where programs can be preempted, "
              "one for tracepoint programs where tracepoints run with "
              "preemption off, as on this host), so a hook's cost is the sum "
              "over its copies per first-copy run. Body = raw − the empty control program's "
              "cost per run × programs run per event. Target: body ≤ 40 ns "
              "aggregate-only, ≤ 80 ns streaming (host CPU).", ""]
    table, ctl = cost_table(costs)
    lines += table + [""]
    floor = floor_table(os.path.dirname(os.path.abspath(sys.argv[1])))
    if floor:
        lines += ["### Against the floor, point by point", "",
                  "As section 5's table: our programs per attach point against "
                  "the fair peer's on the same point. Target: ≤ 1.5× per hook.",
                  ""] + floor + [""]
    lines += ["## 3. Consumer", "",
              "`rs-bench drain`: a BPF_PROG_TEST_RUN producer fills half of a 16 MiB "
              "ring through `rs_reserve`/`rs_submit`, then one thread drains it; only "
              "the draining is timed. `count`: the records are counted by type; "
              "`json`: each is formatted as `record -e` writes it. `rs-bench sustain`: "
              "a paced producer, consumed as the collector does (woken for a batch "
              "of a quarter ring, else every 100 ms). Targets: ≥ 10 M records/s per "
              "core; at 1 M/s no loss, ≤ 5% of a core, ≤ 1,000 wakeups/s.", "",
              "| test | sink | rate | records | dropped | records per CPU-s | "
              "core share | wakeups/s |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["kind"] == "drain":
            lines.append(f"| drain | {r['sink']} | as fast as taken | {r['records']:,} | "
                         f"{r['dropped']} | {r['records_per_cpu_s']:,.0f} | | |")
        if r["kind"] == "sustain":
            lines.append(f"| sustain | {r['sink']} | {r['rate']:,}/s | {r['consumed']:,} | "
                         f"{r['dropped']} | | {r['consumer_core_share'] * 100:.2f}% | "
                         f"{r['wakeups_per_s']:.0f} |")
    lines.append("")
    startup = [r["seconds"] for r in rows if r["kind"] == "startup"]
    model = next((r for r in rows if r["kind"] == "model"), None)
    daemon = next((r for r in rows if r["kind"] == "daemon"), None)
    lines += ["## 4. Footprint", "",
              f"- start-up (`reclaimscope probe`: BTF probe, load, attach, detach): "
              f"median {median(startup):.3f} s of {len(startup)} (target < 1 s)"]
    if model:
        lines.append(f"- the model with {model['memcgs']:,} memcgs (two snapshots, "
                     f"paths): {model['rss_after_kib'] - model['rss_before_kib']:,} KiB, "
                     f"{model['kib_per_memcg']:.2f} KiB per memcg")
    timeline = next((r for r in rows if r["kind"] == "timeline"), None)
    if timeline:
        n = timeline["memcgs"]
        lines.append(
            f"- a recording's generation timelines (`lru_gens`) with {n:,} memcgs "
            f"on one node (`rs-bench timeline`: the snapshot lines record writes): "
            f"the first interval {timeline['first_timeline_bytes'] / 1e6:.2f} MB "
            f"({timeline['first_timeline_bytes'] / n:.0f} bytes a memcg, of a "
            f"{timeline['first_line_bytes'] / 1e6:.1f} MB line with every memcg's counters); "
            f"an interval where no generation moved {timeline['unchanged_timeline_bytes']:,} "
            f"bytes (the line {timeline['unchanged_line_bytes']} bytes); "
            f"one where every memcg aged {timeline['all_aged_timeline_bytes'] / 1e6:.2f} MB: "
            f"only lruvecs whose generations moved are written")
    if daemon:
        lines.append(f"- the daemon (1 s refresh) on this machine with nothing reclaiming: "
                     f"{daemon['quiet_core_share'] * 100:.2f}% of a core (target < 0.5%), "
                     f"RSS {daemon['quiet_rss_kib'] / 1024:.1f} MiB")
        lines.append(f"- the daemon after {daemon['memcgs']:,} memcgs each reclaimed "
                     f"({daemon['tracked_series']:,} in /metrics): RSS "
                     f"{daemon['rss_kib'] / 1024:.1f} MiB (target < 32 MiB); idle, "
                     f"{daemon['idle_core_share'] * 100:.2f}% of a core right after, "
                     f"{daemon['later_core_share'] * 100:.2f}% once they have been "
                     f"idle a minute")
    lines.append("")
    lines += views_section(rows)
    if len(sys.argv) >= 4:
        if os.path.exists(os.path.join(sys.argv[3], "bench.jsonl")):
            lines += vm_section(sys.argv[3])
            repeat = opts.get("--repeat")
            if repeat and os.path.exists(os.path.join(repeat, "bench.jsonl")):
                lines += repeat_section(sys.argv[3], repeat)
            elif repeat:
                lines += ["### The same code twice", "",
                          f"Not run ({repeat}/bench.jsonl is missing).", ""]
        else:
            lines += ["## 5. On the series kernel (VM)", "",
                      f"Not run ({sys.argv[3]}/bench.jsonl is missing).", ""]
    if len(sys.argv) == 5:
        lines += copies_section(sys.argv[4])
    if "--dispatch" in opts:
        lines += dispatch_section(opts["--dispatch"])
    # what the figures mean and what was tried: written by hand
    notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "NOTES.md")
    if os.path.exists(notes):
        with open(notes) as f:
            lines.append(f.read())
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(lines))
        f.write("\n")
    print("\n".join(lines))
    print(f"\nbench: wrote {sys.argv[2]}", file=sys.stderr)


if __name__ == "__main__":
    main()
