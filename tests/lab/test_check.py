#!/usr/bin/env python3
"""The lab's checker (tests/lab/check.py) held to cases worked by hand:
its histogram buckets and quantile as docs/recording-format.md defines
them, each figure it recomputes, and its failures where a recording and
its summary disagree or a cell has no figure to recompute."""
import contextlib
import importlib.util
import io
import json
import os
import shutil
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def load_check():
    spec = importlib.util.spec_from_file_location("lab_check", os.path.join(HERE, "check.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def memcg(**kw):
    m = {"path": "/w", "id": 9, "scanned": 0, "isolated": 0, "reclaimed": 0,
         "passes": 0, "agings": 0, "flusher_wakeups": 0, "throttles": 0,
         "throttled": 0, "memcg_reclaims": 0, "direct_reclaims": 0,
         "budget": None, "budget_used": None, "refaults_anon": 0,
         "refaults_file": 0, "oom_kills": 0,
         "histograms": {"memcg_reclaim": [], "direct_reclaim": []}}
    m.update(kw)
    return m


def recording(memcgs, events=(), outcomes=(), drops=0):
    return ([{"type": "header", "schema": 5, "mglru": True, "cgroup_version": 2}]
            + list(events) + list(outcomes)
            + [{"type": "summary", "drops": drops, "missed": 0, "memcgs": memcgs}])


def reclaim(ns, who="memcg"):
    return {"type": "event", "kind": "reclaim", "reclaimer": who, "duration_ns": ns}


class CheckTest(unittest.TestCase):
    def setUp(self):
        self.c = load_check()
        # the checker's own ok/FAIL lines (FAIL is what these tests ask
        # for) stay out of the log
        quiet = contextlib.redirect_stdout(io.StringIO())
        quiet.__enter__()
        self.addCleanup(quiet.__exit__, None, None, None)

    def failures(self):
        return len(self.c.judge.failures)

    def test_buckets_as_documented(self):
        c = self.c
        self.assertEqual(len(c.HIST_BOUNDS), 34 * 16)
        self.assertEqual(c.HIST_BOUNDS[-1], 1 << 37)
        # "8.3 ms lies in (8,126,464, 8,388,608] ns"
        b = c.hist_bucket(8_300_000)
        self.assertEqual((c.HIST_BOUNDS[b - 1], c.HIST_BOUNDS[b]), (8_126_464, 8_388_608))
        self.assertEqual(c.HIST_BOUNDS[c.hist_bucket(0)], 1)
        self.assertEqual(c.HIST_BOUNDS[c.hist_bucket(16)], 16)
        self.assertEqual(c.HIST_BOUNDS[c.hist_bucket(17)], 17)
        self.assertEqual(c.HIST_BOUNDS[c.hist_bucket(33)], 34)
        self.assertEqual(c.HIST_BOUNDS[c.hist_bucket(1 << 20)], 1 << 20)
        self.assertEqual(c.hist_bucket(1 << 40), len(c.HIST_BOUNDS) - 1)

    def test_quantile_interpolates_in_its_bucket(self):
        c = self.c
        lo_b, hi_b = c.hist_bucket(1000), c.hist_bucket(1_000_000)
        # 99 values in one bucket, 1 far above: the p99's rank (99) ends
        # the first bucket, the p50's (50) lies half-way into it
        counts = {lo_b: 99, hi_b: 1}
        self.assertEqual(c.hist_quantile(counts, 0.99), c.HIST_BOUNDS[lo_b])
        lo = c.HIST_BOUNDS[lo_b - 1]
        self.assertAlmostEqual(c.hist_quantile(counts, 0.5),
                               lo + (c.HIST_BOUNDS[lo_b] - lo) * 50 / 99)
        self.assertIsNone(c.hist_quantile({len(c.HIST_BOUNDS) - 1: 1}, 0.99))
        self.assertIsNone(c.hist_quantile({}, 0.99))

    def test_latency_p99_from_histogram_capped_by_the_longest_event(self):
        c = self.c
        ns = [1000] * 99 + [1_000_000]
        hist = {}
        for x in ns:
            b = c.HIST_BOUNDS[c.hist_bucket(x)]
            hist[b] = hist.get(b, 0) + 1
        m = memcg(memcg_reclaims=100, histograms={
            "memcg_reclaim": sorted([list(p) for p in hist.items()]), "direct_reclaim": []})
        before = self.failures()
        v = c.latency_figures(recording([m], [reclaim(x) for x in ns]))
        self.assertEqual(self.failures(), before)
        self.assertAlmostEqual(v["memcg_p99"], c.HIST_BOUNDS[c.hist_bucket(1000)] / 1e6)
        self.assertNotIn("direct_p99", v)
        # one record short of the histogram: a failure, named
        c.latency_figures(recording([m], [reclaim(x) for x in ns[1:]]))
        self.assertEqual(self.failures(), before + 1)
        self.assertIn("memcg_reclaim", c.judge.failures[-1])
        # records dropped: the kernel's histogram stands, unchecked, uncapped
        v = c.latency_figures(recording([m], [reclaim(x) for x in ns[1:]], drops=1))
        self.assertEqual(self.failures(), before + 1)
        self.assertIn("memcg_p99", v)

    def test_counters_held_to_their_records(self):
        c = self.c
        m = memcg(agings=2, memcg_reclaims=2, throttles=1, throttled=1500,
                  passes=4, reclaimed=10, budget=200, budget_used=150)
        ev = [{"type": "event", "kind": "aging", "success": True}] * 2 + \
             [{"type": "event", "kind": "aging", "success": False}] + \
             [reclaim(5), reclaim(7)] + \
             [{"type": "event", "kind": "throttle", "delayed_us": 1500}]
        before = self.failures()
        v = c.counter_figures(recording([m], ev))
        self.assertEqual(self.failures(), before)
        self.assertEqual((v["agings"], v["memcg_reclaims"], v["throttles"]), (2, 2, 1))
        self.assertEqual(v["throttled"], 1.5)
        self.assertEqual(v["budget_use"], 75.0)
        self.assertEqual(v["reclaimed_per_pass"], 2.5)
        # an aging record lost, a throttle's delay wrong: two failures
        ev2 = ev[1:-1] + [{"type": "event", "kind": "throttle", "delayed_us": 900}]
        c.counter_figures(recording([m], ev2))
        self.assertEqual(self.failures(), before + 2)  # agings, throttled
        self.assertIn("agings", c.judge.failures[-2])
        self.assertIn("throttled", c.judge.failures[-1])
        # no budget hook: no budget_use, never a 0
        self.assertNotIn("budget_use", c.counter_figures(recording([memcg()], [])))

    def test_outcomes(self):
        c = self.c
        outs = [{"type": "outcome", "workload": "t", "lat_mean_ms": 3.0, "lat_p99_ms": 9.0},
                {"type": "outcome", "workload": "t", "worker": 0, "progress": 2, "exit_status": 0},
                {"type": "outcome", "workload": "t", "worker": 1, "progress": 0,
                 "exit_status": 137, "oom_killed": True},
                {"type": "outcome", "workload": "t", "worker": 2, "progress": 0, "exit_status": 1}]
        v = c.outcome_figures(outs, {"t"})
        self.assertEqual((v["lat_mean"], v["lat_p99"]), (3.0, 9.0))
        self.assertAlmostEqual(v["worker_progress"], 2 / 3)
        self.assertAlmostEqual(v["worker_fairness"], 4 / (3 * 4))  # Jain: (sum)^2 / (n sum^2)
        self.assertEqual(v["failed"], 1)  # not the OOM-killed one
        # two outcomes of the whole workload: no one latency
        self.assertNotIn("lat_p99", c.outcome_figures(outs + outs[:1], {"t"}))

    def test_oom_lru_mib(self):
        c = self.c
        gens = [{"seq": 4, "anon": 256, "file": 512}, {"seq": 5, "anon": 0, "file": -3}]
        rec = recording([memcg()], [{"type": "event", "kind": "oom", "generations": gens},
                                    {"type": "snapshot", "mglru": False},
                                    {"type": "event", "kind": "oom", "generations": gens}])
        v = c.oom_figures(rec)
        # the second OOM came with MGLRU off: stale, not counted
        self.assertEqual((v["oom_file_lru"], v["oom_anon_lru"]), (2.0, 1.0))
        # in the recorded kernel's pages: 64 KiB on an arm64 one
        rec[0]["page_size"] = 65536
        v = c.oom_figures(rec)
        self.assertEqual((v["oom_file_lru"], v["oom_anon_lru"]), (32.0, 16.0))

    def test_a_cell_not_recomputed_fails(self):
        c = self.c
        tmp = tempfile.mkdtemp(prefix="rs-checktest-")
        self.addCleanup(shutil.rmtree, tmp, ignore_errors=True)
        for g in ("a", "b"):
            run = os.path.join(tmp, "runs", "w", g, "run-1")
            os.makedirs(run)
            json.dump({"status": "ok"}, open(os.path.join(run, "run.json"), "w"))
            counted = os.path.join(tmp, "counted", "w", g)
            os.makedirs(counted)
            with open(os.path.join(counted, "run-1.ndjson"), "w") as f:
                for r in recording([memcg(scanned=5)]):
                    f.write(json.dumps(r) + "\n")
        table = ("| A: a | k | mglru | 1 of 1 | - |\n| B: b | k | mglru | 1 of 1 | - |\n\n"
                 "| metric | unit | A | B | change |\n|---|---|---:|---:|---|\n"
                 "| scanned | pages | 5 | 5 | +0.0% too few runs (exact p=1) |\n"
                 "| mystery | things | 7 | 8 | - |\n")
        before = self.failures()
        c.check_table(tmp, "w", table)
        failed = c.judge.failures[before:]
        self.assertTrue(any("mystery A: recomputed" in f for f in failed), failed)
        self.assertFalse(any("scanned A" in f or "scanned B" in f for f in failed), failed)


if __name__ == "__main__":
    unittest.main()
