"""Checks of the soak scenario (tests/vm/scenarios/)."""
import os
from .common import (RSS_SLACK_KIB, check, daemon_exited_ok, exact_totals, memcg)


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
