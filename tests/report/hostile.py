#!/usr/bin/env python3
"""report and diff against the second hostile round (issue 34), on
recordings this test writes: no kernel, no BPF, no guest.

usage: hostile.py RECLAIMSCOPE [--big]

Each check stands for a defect found by trying the tool as a hostile user
would, and failed before its fix:
  verdicts      counts and yes/no outcomes by an exact test; none where
                no split of the runs can reach p < 0.05 (3 against 3)
  idle          a memcg a run leaves out (idle) counts as 0 there, and a
                cell says how many runs it is the mean of
  wrap          histogram counts that would wrap a __u64 are refused
  escapes       a recording's kernel and start cannot reach the terminal
                as escape sequences
  html          --html never overwrites an input or a recording
  small         one heading per section, rows null or 0 everywhere
                folded and counted, "1 run", alpha 0.05, the notice after
                the report
  --big         10^5 memcgs: report --json and a group diff under 1 GiB,
                diff --json of 10^4 under 256 MiB; the group diff linear
                in the memcgs (instructions counted by callgrind, not
                timed)
"""
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
from judge import Judge  # noqa: E402
import rs_tables  # noqa: E402

judge = Judge()
check = judge.check
HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "fuzz", "corpus", "outcome.ndjson")
# every hook attached: what a recording on the series kernel says
HEADER = json.loads(open(CORPUS).readline())


def write_recording(path, memcgs, outcomes=(), header=None, summary=True):
    """A recording: the header, outcome records, the summary's memcgs
    ({path: {key: value}}, ids in order)."""
    with open(path, "w") as f:
        f.write(json.dumps(header or HEADER) + "\n")
        for o in outcomes:
            f.write(json.dumps(dict(type="outcome", **o)) + "\n")
        if summary:
            ms = [dict(path=p, id=100 + i, **v) for i, (p, v) in enumerate(memcgs.items())]
            f.write(json.dumps({"type": "summary", "duration": 10, "drops": 0,
                                "records": 0, "agg_full": 0, "missed": 0,
                                "memcgs": ms}) + "\n")


def run(*args, ok=True, merge=False):
    p = subprocess.run([BIN, *args], capture_output=not merge, text=True,
                       stdout=subprocess.PIPE if merge else None,
                       stderr=subprocess.STDOUT if merge else None)
    if ok and p.returncode:
        check(False, f"{' '.join(args)} exits 0 ({(p.stderr or p.stdout)[-300:]})")
    return p


def cell(table, metric, column):
    """The text of a markdown table's cell: column 0 A, 1 B, 2 B's change."""
    for line in table.splitlines():
        parts = [c.strip() for c in line.strip().strip("|").split("|")]
        if parts and parts[0] == metric:
            return parts[2 + column]
    return None


def group(d, name, values, key="oom_killed"):
    """A folder of one recording per value of the workload's outcome key."""
    g = os.path.join(d, name)
    os.makedirs(g)
    for i, v in enumerate(values):
        out = {"workload": "w", key: bool(v) if key == "oom_killed" else v}
        write_recording(os.path.join(g, f"run-{i}.ndjson"),
                        {"/w": {"scanned": 100 + i, "isolated": 90, "reclaimed": 50,
                                "dirty": 0}},
                        outcomes=[out])
    return g


def verdicts(d):
    """Item 1: an OOM kill in every run against none, 3 a side, is no
    verdict (the exact test cannot go below p = 0.1); 5 a side is."""
    a, b = group(d, "a3", [0, 0, 0]), group(d, "b3", [1, 1, 1])
    md = run("diff", "--markdown", "--total", "--metric", "oom_killed",
             "--metric", "scanned", "--metric", "efficiency", a, b).stdout
    c = cell(md, "oom_killed", 2)
    check(c is not None and "too few runs" in c and "exact p=0.1" in c
          and "better" not in c and "worse" not in c,
          f"3 against 3 OOM kills: no verdict, exact p = 0.1 ({c})")
    a, b = group(d, "a5", [0] * 5), group(d, "b5", [1] * 5)
    md = run("diff", "--markdown", "--total", "--metric", "oom_killed", a, b).stdout
    c = cell(md, "oom_killed", 2)
    check(c is not None and "worse" in c and "exact p=0.0079" in c,
          f"5 against 5: worse, Fisher's exact p = 2/252 ({c})")
    # the lab's table (--headline): rows 0 in every run folded into a
    # count, the workload's own 0 kept; a row named (--metric) is shown
    md = run("diff", "--markdown", "--total", "--headline", a, b).stdout
    check(cell(md, "oom_killed", 1) is not None and cell(md, "dirty", 1) is None
          and re.search(r"^\d+ metrics null or 0 in every run not shown", md, re.M),
          "--headline folds the rows 0 in every run, with a count, and keeps the outcome's")
    md = run("diff", "--markdown", "--total", "--headline", "--metric", "dirty", a, b).stdout
    check(cell(md, "dirty", 1) == "0 ± 0", "--metric shows a row 0 in every run")
    js = json.loads(run("diff", "--json", "--total", "--metric", "oom_killed", a, b).stdout)
    g = js["memcgs"][0]["metrics"]["oom_killed"]["groups"][1]
    check(g["test"] == "permutation_exact" and abs(g["p"] - 2 / 252) < 1e-12
          and abs(g["p_min"] - 2 / 252) < 1e-12 and g["detectable"] == 0,
          f"diff --json names the test, p, the smallest p and the detectable change ({g})")
    check(js["alpha"] == 0.05 and '"alpha": 0.05,' in run(
        "diff", "--json", "--total", "--metric", "oom_killed", a, b).stdout,
          "diff --json prints alpha as 0.05")
    # a continuous metric with spread: Welch, and what it could have seen
    ga = group(d, "wa", [10.0, 12.0, 11.0], key="mb_per_s")
    gb = group(d, "wb", [10.5, 12.5, 11.5], key="mb_per_s")
    md = run("diff", "--markdown", "--total", "--metric", "mb_per_s", ga, gb).stdout
    c = cell(md, "mb_per_s", 2)
    check(c is not None and "no significant change" in c and "could see" in c
          and "exact" not in c, f"throughput: Welch, and the change it could see ({c})")
    text = run("diff", "--total", "--metric", "oom_killed", a, b).stdout
    check("too few runs" in run("diff", "--total", "--metric", "oom_killed",
                                group(d, "one", [0]), group(d, "other", [1])).stdout,
          "one run a side: 'too few runs' in the text too")
    check("exact p=" in text, "the text says which p is exact")


def idle(d):
    """Item 6: /a reclaims 500 in one run of three and is idle (left out of
    the summary) in the others: its mean is 166.7, not 500."""
    ga, gb = os.path.join(d, "ia"), os.path.join(d, "ib")
    os.makedirs(ga)
    os.makedirs(gb)
    write_recording(os.path.join(ga, "r1.ndjson"), {"/a": {"reclaimed": 500, "scanned": 600, "isolated": 550}})
    for k in (2, 3):
        write_recording(os.path.join(ga, f"r{k}.ndjson"), {"/b": {"reclaimed": 5, "scanned": 6, "isolated": 5}})
    for k in (1, 2, 3):
        write_recording(os.path.join(gb, f"r{k}.ndjson"), {"/a": {"reclaimed": 50, "scanned": 60, "isolated": 55}})
    md = run("diff", "--markdown", "--metric", "reclaimed", "--metric", "efficiency", ga, gb).stdout
    sec = md.split("#### /a", 1)[-1].split("####", 1)[0]
    c = cell(sec, "reclaimed", 0)
    check(c is not None and c.startswith("166.7 ±"), f"/a's mean over all 3 runs: 166.7 ({c})")
    c = cell(sec, "efficiency", 0)
    check(c is not None and "(n=1)" in c, f"a mean of one run of three says n=1 ({c})")
    # a run that recorded only /b's subtree cannot tell about /a
    os.makedirs(os.path.join(d, "fa"))
    write_recording(os.path.join(d, "fa", "r1.ndjson"), {"/a": {"reclaimed": 500, "scanned": 1, "isolated": 1}})
    write_recording(os.path.join(d, "fa", "r2.ndjson"), {"/b": {"reclaimed": 5, "scanned": 1, "isolated": 1}},
                    header=dict(HEADER, cgroup_filter="/b"))
    md = run("diff", "--markdown", "--metric", "reclaimed", os.path.join(d, "fa"), gb).stdout
    sec = md.split("#### /a", 1)[-1].split("####", 1)[0]
    c = cell(sec, "reclaimed", 0)
    check(c is not None and c.startswith("500") and "(n=1)" in c,
          f"a run filtered to another subtree does not count /a as idle ({c})")


def partial(d):
    """A run cut short (no summary) cannot say a memcg was idle: /w is
    unknown there, not 0 (the review of issue 34's fixes)."""
    ga, gb = os.path.join(d, "pa"), os.path.join(d, "pb")
    for g in (ga, gb):
        os.makedirs(g)
        for k in range(4):
            write_recording(os.path.join(g, f"r{k}.ndjson"),
                            {"/w": {"scanned": 100, "isolated": 90, "reclaimed": 50}},
                            summary=not (g == gb and k == 3))
    md = run("diff", "--markdown", "--metric", "scanned", ga, gb).stdout
    sec = md.split("#### /w", 1)[-1]
    c = cell(sec, "scanned", 1)
    check(c is not None and c.startswith("100 ± 0") and "(n=3)" in c,
          f"a run cut short counts /w as unknown, not idle ({c})")
    check("cut short" in md, "the groups' lines say a run was cut short")


def page_sizes(d):
    """Recordings of 4 and 16 KiB pages (x86 and an arm64 kernel of 16 KiB
    pages): diff says the counts of pages are not in one unit, for groups,
    for a group whose runs differ, and for two recordings; not where the
    sizes are one."""
    def side(name, sizes):
        g = os.path.join(d, name)
        os.makedirs(g)
        for k, size in enumerate(sizes):
            write_recording(os.path.join(g, f"r{k}.ndjson"),
                            {"/w": {"scanned": 100, "isolated": 90, "reclaimed": 50}},
                            header=dict(HEADER, page_size=size))
        return g
    x86, arm, mixed, x86b = (side("x86", [4096] * 3), side("arm16k", [16384] * 3),
                             side("mixed", [4096, 16384, 4096]), side("x86b", [4096] * 3))
    md = run("diff", "--markdown", "--total", "--metric", "scanned", x86, arm).stdout
    check("- note: pages of different sizes (A 4 KiB, B 16 KiB): counts of pages "
          "(scanned, reclaimed, the LRU's sizes) are each in its own recordings' "
          "pages" in md, f"groups of 4 and 16 KiB pages are said to differ ({md[:600]})")
    check("; pages of 16 KiB" in md and "; pages of 4 KiB" not in md,
          "a group's line names its pages where they are not 4 KiB")
    txt = run("diff", "--total", "--metric", "scanned", x86, mixed).stdout
    check("pages of more than one size across its runs" in txt
          and "note: pages of different sizes (A 4 KiB, B mixed)" in txt,
          "a group whose runs' pages differ is said to")
    js = json.loads(run("diff", "--json", "--total", x86, arm, mixed).stdout)
    check([g["page_size"] for g in js["groups"]] == [4096, 16384, None],
          f"diff --json gives each group's page size, null where mixed "
          f"({[g.get('page_size') for g in js['groups']]})")
    same = run("diff", "--total", "--metric", "scanned", x86, x86b).stdout
    check("pages of different sizes" not in same and "pages of" not in same,
          "nothing is said where every page is 4 KiB")
    a, b = os.path.join(x86, "r0.ndjson"), os.path.join(arm, "r0.ndjson")
    two = run("diff", a, b).stdout
    check("note: pages of different sizes (A 4 KiB, B 16 KiB)" in two,
          "a diff of two recordings says their pages differ")
    js = json.loads(run("diff", "--json", a, b).stdout)
    check(js.get("page_size") == {"a": 4096, "b": 16384},
          f"diff --json of two recordings gives each one's page size ({js.get('page_size')})")


def names(d):
    """File and folder names that are not UTF-8 stay in the JSON (jansson
    drops such strings), and an error quoting a file's content escapes
    it."""
    base = os.fsencode(d)
    ga = os.path.join(base, b"a\xff")
    gb = os.path.join(base, b"b")
    for g in (ga, gb):
        os.makedirs(g)
        write_recording(os.fsdecode(os.path.join(g, b"r\xfe.ndjson")), {"/w": {"scanned": 1}})
        write_recording(os.fsdecode(os.path.join(g, b"r2.ndjson")), {"/w": {"scanned": 2}})
    p = subprocess.run([BIN, "diff", "--json", "--total", "--metric", "scanned", ga, gb],
                       capture_output=True)
    js = json.loads(p.stdout)
    names = [g.get("name") for g in js["groups"]]
    files = [len(g.get("recordings", [])) for g in js["groups"]]
    check(len(names) == 2 and all(names) and "\\xff" in names[0] and files == [2, 2],
          f"names not UTF-8 kept in the JSON, escaped ({names}, {files})")
    bad = os.path.join(d, "bad.ndjson")
    with open(bad, "w") as f:
        f.write(json.dumps({"type": "x\x1b]0;owned\x07"}) + "\n")
    r = run("report", bad, ok=False)
    raw = [ch for ch in r.stderr if ord(ch) < 32 and ch != "\n" or 0x7f <= ord(ch) <= 0x9f]
    check(r.returncode == 1 and not raw and "\\x1b" in r.stderr,
          f"an error quoting the file's content escapes it ({r.stderr.strip()[:120]!r})")


def wrap(d):
    """Item 9: three buckets of 9e18 would wrap a __u64 sum."""
    p = os.path.join(d, "wrap.ndjson")
    big = 9_000_000_000_000_000_000
    write_recording(p, {"/a": {"scanned": 1, "histograms": {
        "direct_reclaim": [[1024, big], [2048, big], [4096, big]]}}})
    r = run("report", p, ok=False)
    check(r.returncode == 1 and ":2: histogram \"direct_reclaim\": counts add up" in r.stderr,
          f"wrapping histogram refused with its line ({r.stderr.strip()[:120]})")


def escapes(d):
    """Item 10: ESC, BEL and C1 controls in the header reach no output."""
    hostile = "\x1b]0;owned\x07\x1b]52;c;Y3VybCBldmls\x07\x1b[2J\u009b2J"
    hdr = dict(HEADER, kernel="7.2" + hostile, start="2026" + hostile)
    for side in ("ea", "eb"):
        os.makedirs(os.path.join(d, side))
        write_recording(os.path.join(d, side, "r.ndjson"), {"/a": {"scanned": 1}}, header=hdr)
    a, b = os.path.join(d, "ea", "r.ndjson"), os.path.join(d, "eb", "r.ndjson")
    for args in (("report", a), ("report", "--all", a), ("diff", a, b),
                 ("diff", "--markdown", a, b, "--groups"), ("diff", "--groups", a, b)):
        out = run(*args).stdout
        raw = [ch for ch in out if ord(ch) < 32 and ch != "\n" or 0x7f <= ord(ch) <= 0x9f]
        check(not raw and "\\x1b" in out,
              f"{' '.join(args[:2])}: no control character reaches the terminal, shown as \\x1b")


def html(d):
    """Item 14: the output name forgotten, or an input named as the page."""
    a = os.path.join(d, "h1.ndjson")
    write_recording(a, {"/a": {"scanned": 1}})
    for k in (2, 3):
        shutil.copy(a, os.path.join(d, f"h{k}.ndjson"))
    before = open(a).read()
    r = run("diff", "--groups", "--html", a, os.path.join(d, "h2.ndjson"),
            os.path.join(d, "h3.ndjson"), ok=False)
    check(r.returncode == 2 and open(a).read() == before and "not overwritten" in r.stderr,
          "diff --groups --html RECORDING ...: refused, the recording untouched")
    r = run("report", a, "--html", a, ok=False)
    check(r.returncode == 2 and open(a).read() == before, "report R --html R: refused")
    page = os.path.join(d, "page.html")
    run("report", a, "--html", page)
    r = run("report", a, "--html", page)
    check(r.returncode == 0, "an earlier page may be written again")


def small(d):
    """The small items: headings, folding, '1 run', the notice's place."""
    a = os.path.join(d, "s.ndjson")
    write_recording(a, {"/a": {"scanned": 10, "isolated": 9, "reclaimed": 5, "passes": 3}},
                    header=dict(HEADER, schema=rs_tables.schema()))
    text = run("report", a).stdout
    check(re.search(r"^    passes +3 ", text, re.M),
          "a recording of today's schema: its passes read")
    block = text.split("== (total) ==", 1)[1].split("\n== ", 1)[0]
    sections = [l.strip() for l in block.splitlines() if re.fullmatch(r"  [a-zA-Z].*", l)]
    check(len(sections) == len(set(sections)), f"each heading once per memcg ({sections})")
    m = re.search(r"^(\d+) of (\d+) metrics are null or 0 in every memcg", text, re.M)
    rows = [l.split()[0] for l in block.splitlines() if l.startswith("    ")]
    check(m is not None and "n/a" not in block and " 0  " not in block,
          f"null and 0 rows folded and counted ({m.group(0) if m else None}; shown {rows})")
    full = run("report", "--all", a).stdout
    check("n/a" in full and "metrics are null or 0" not in full, "report --all shows every row")
    os.makedirs(os.path.join(d, "single"))
    shutil.copy(a, os.path.join(d, "single", "r.ndjson"))
    page = os.path.join(d, "g.html")
    run("diff", "--html", page, os.path.join(d, "single"), os.path.join(d, "single"))
    check("1 runs (" not in open(page).read() and "1 run (" in open(page).read(),
          "the diff page says '1 run'")
    # group diffs fold them too, keeping the workload's own zeros
    md = run("diff", "--markdown", "--total", group(d, "fa0", [0, 0]), group(d, "fb0", [0, 0])).stdout
    m = re.search(r"^(\d+) metrics null or 0 in every run not shown", md, re.M)
    check(m is not None and cell(md, "oom_killed", 0) is not None and cell(md, "dirty", 0) is None
          and cell(md, "scanned", 0) is not None,
          f"group diffs fold rows null or 0 in every run, not the workload's ({m.group(0) if m else None})")
    md = run("diff", "--markdown", "--total", "--metric", "dirty",
             os.path.join(d, "fa0"), os.path.join(d, "fb0")).stdout
    check(cell(md, "dirty", 0) == "0 ± 0", "a metric named with --metric is shown even if 0")
    merged = run("report", a, "--html", os.path.join(d, "n.html"), merge=True).stdout
    check(merged.rstrip().splitlines()[-1].startswith("reclaimscope: wrote "),
          "the 'wrote' notice comes after the report, not in it")


def child_peak_mib(args):
    """Run, and the child's peak RSS in MiB (wait4's rusage: this child)."""
    p = subprocess.Popen([BIN, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    check(p.returncode == 0, f"{' '.join(args[:2])} on many memcgs exits 0 ({err[-200:]})")
    return usage.ru_maxrss / 1024


def many(path, n, seed):
    """n memcgs in a summary, a few counters each."""
    with open(path, "w") as f:
        f.write(json.dumps(HEADER) + "\n")
        f.write('{"type":"summary","duration":10,"drops":0,"records":0,'
                '"agg_full":0,"missed":0,"memcgs":[')
        f.write(",".join('{"path":"/t%06d","id":%d,"scanned":%d,"isolated":90,"reclaimed":50}'
                         % (i, 1000 + i, 100 + (i * 7 + seed) % 1000) for i in range(n)))
        f.write("]}\n")


def instructions(args):
    """Instructions executed (callgrind): repeatable, whatever the load."""
    with tempfile.TemporaryDirectory() as t:
        out = os.path.join(t, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        BIN, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        for line in open(out):
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    return None


def big(d):
    """Items 16-18: memory bounded for 10^5 memcgs, the group diff linear."""
    a, b = os.path.join(d, "big-a.ndjson"), os.path.join(d, "big-b.ndjson")
    many(a, 100_000, 0)
    many(b, 100_000, 3)
    for args in (["report", "--json", a],
                 ["diff", "--groups", "--json", "--metric", "scanned", a, b]):
        mib = child_peak_mib(args)
        check(mib < 1024, f"{' '.join(args[:3])} on 10^5 memcgs: peak {mib:.0f} MiB < 1 GiB")
    # the two-file diff --json prints some 150 metrics per memcg (a
    # gigabyte for 10^5, a minute to write): 10^4 here, where building the
    # document had taken 1.42 GB and streaming it takes under 100 MB
    a4, b4 = os.path.join(d, "mid-a.ndjson"), os.path.join(d, "mid-b.ndjson")
    many(a4, 10_000, 0)
    many(b4, 10_000, 3)
    mib = child_peak_mib(["diff", "--json", a4, b4])
    check(mib < 256, f"diff --json on 10^4 memcgs: peak {mib:.0f} MiB < 256 MiB (1.42 GB before)")
    # linear: 4x the memcgs, about 4x the instructions.  The quadratic
    # lookups this replaced measured 7.0x from 1,000 to 4,000 memcgs (the
    # constant costs hide the square at smaller sizes), the index 3.9x.
    counts = {}
    for n in (1000, 4000):
        pa, pb = os.path.join(d, f"l{n}-a.ndjson"), os.path.join(d, f"l{n}-b.ndjson")
        many(pa, n, 0)
        many(pb, n, 3)
        counts[n] = instructions(["diff", "--groups", "--json", "--metric", "scanned", pa, pb])
    ratio = counts[4000] / counts[1000] if counts[1000] else float("inf")
    check(ratio < 5, f"group diff, 4x the memcgs: {ratio:.2f}x the instructions "
          f"({counts[1000]} -> {counts[4000]}; linear 4x, the old lookups 7x)")


def histograms(d):
    """The review of issue 30's log-linear histograms: an old recording's
    log2 percentiles never compared with a new one's finer ones; a
    histogram over all 34 octaves still drawn; a full histogram map said;
    a memcg listed twice refused."""
    old, new = os.path.join(d, "old.ndjson"), os.path.join(d, "new.ndjson")
    # about 1.1 ms: schema 2 keeps it under 2^21 ns, schema 3 under 1,179,648
    write_recording(old, {"/a": {"scanned": 1, "histograms": {"pass": [[2097152, 100]]}}},
                    header=dict(HEADER, schema=2))
    write_recording(new, {"/a": {"scanned": 1, "histograms": {"pass": [[1179648, 100]]}}},
                    header=dict(HEADER, schema=3))
    r = run("diff", old, new)
    rows = [l.split() for l in r.stdout.splitlines() if l.split()[:1] == ["pass_p99"]]
    check(rows and all(row[1] == row[2] == "2.097" for row in rows)
          and "before schema 3" in r.stderr,
          f"diff of schema 2 and 3: both sides' p99 from powers of two, said so ({rows[:1]}, "
          f"{r.stderr.strip()[:100]!r})")
    r = run("diff", "--groups", "--metric", "pass_p99", old, new, new)
    values = [v for l in r.stdout.splitlines() if l.startswith("pass_p99")
              for v in re.findall(r"(?<![0-9.+-=])(\d+\.\d+)(?![0-9%])", l)]
    check(values and set(values) == {"2.097"} and "before schema 3" in r.stderr,
          f"diff of groups mixing schemas: powers of two everywhere ({r.stdout.strip()[-160:]!r})")
    r = run("diff", new, new)
    rows = [l.split() for l in r.stdout.splitlines() if l.split()[:1] == ["pass_p99"]]
    check(rows and rows[0][1] != "2.097" and not r.stderr,
          f"two schema 3 recordings keep their finer percentiles ({rows[:1]})")
    wide = os.path.join(d, "wide.ndjson")
    write_recording(wide, {"/a": {"scanned": 1, "histograms": {
        "pass": [[1, 1], [137438953472, 1]]}}}, header=dict(HEADER, schema=3))
    out = os.path.join(d, "wide.html")
    run("report", "--html", out, wide)
    with open(out) as f:
        page = f.read()
    chart = page[page.index('id="hist-pass"'):]
    chart = chart[:chart.index("</svg>")]
    widths = [float(w) for w in re.findall(r'<rect class="b"[^>]*width="([-0-9.]+)"', chart)]
    check(0 < len(widths) <= 96 and min(widths) > 0,
          f"a histogram over 34 octaves: {len(widths)} bars, none of width <= 0")
    full = os.path.join(d, "full.ndjson")
    write_recording(full, {"/a": {"scanned": 1}}, header=dict(HEADER, schema=3))
    with open(full) as f:
        lines = f.read().splitlines()
    summary = json.loads(lines[-1])
    summary["hist_full"] = 7
    summary["state_misses"] = 49
    with open(full, "w") as f:
        f.write("\n".join(lines[:-1] + [json.dumps(summary)]) + "\n")
    r = run("report", full)
    check("7 latency histogram updates lost" in r.stdout,
          "a full histogram map is said (percentiles may be too low)")
    # events the kernel gave no per-task state: their pages are missing
    # from the totals (seen on 6.18 under the lab's aging workload)
    js = json.loads(run("report", "--json", full).stdout)
    check("49 events had no per-task state" in r.stdout and "below memory.stat" in r.stdout
          and js.get("state_misses") == 49,
          "events without per-task state are said, in text and JSON")
    summary["memcgs"].append(dict(summary["memcgs"][0]))
    with open(full, "w") as f:
        f.write("\n".join(lines[:-1] + [json.dumps(summary)]) + "\n")
    r = run("report", full, ok=False)
    check(r.returncode == 1 and "listed twice" in r.stderr,
          f"a memcg listed twice in the summary is refused ({r.stderr.strip()[-80:]!r})")


def main():
    global BIN
    BIN = os.path.abspath(sys.argv[1])
    return judge.parts((verdicts, idle, partial, page_sizes, names, wrap, escapes,
                        html, small, histograms)
                       + ((big,) if "--big" in sys.argv else ()),
                       "rs-hostile-", "report hostile")


if __name__ == "__main__":
    sys.exit(main())
