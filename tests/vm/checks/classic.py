"""Checks of the classic scenario (tests/vm/scenarios/)."""
import os
from .common import (MISSION_HOOKS, check, consistent, exact_totals, memcg,
                     delta)


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
    # the generation timelines: null from the switch on, and said so
    check("generation timelines are null from now" in err,
          "record says the generation timelines stop")
    off = [s for s in snaps if s.get("mglru") is False]
    check(off and all("lru_gens" in s and s["lru_gens"] is None for s in off),
          f"every snapshot with MGLRU off has null lru_gens ({len(off)})")
    hooks = header["hooks"]
    for h in MISSION_HOOKS + ["shrink_lruvec"]:
        check(hooks.get(h) == "attached", f"hook {h} attached ({hooks.get(h)})")
    m = memcg(summary, "/test")
    if not check(m is not None, "memcg /test is in the summary"):
        return
    exact_totals(res, m, mglru=False)
    check(m.get("lru_gens", "absent") is None,
          "the summary's generations of /test are null (MGLRU off at the end)")
    check(m["passes"] == 0 and m["agings"] == 0,
          "the MGLRU hooks fall quiet (0 passes, 0 agings: known, not null)")
    check(m["classic_shrinks"] > 0, f"classic passes counted ({m['classic_shrinks']})")
    check(m["writeback_checks"] > 0,
          "handle_reclaim_writeback attributes under the classic LRU too")
    check(m["isolated"] <= m["scanned"], "isolated <= scanned")
    consistent(rec, m)
    # an OOM with MGLRU off: counted, and no generations (lrugen's, while
    # MGLRU is off, are 0 pages with stale births: 2026-12-07's lab read
    # "0 MiB on the LRU, the oldest generation 12 minutes old")
    hog = memcg(summary, "/hog")
    ooms = [e for e in rec if e.get("type") == "event" and e.get("kind") == "oom"
            and hog is not None and e.get("id") == hog["id"]]
    want = delta(res, "memevents.hog", "oom")
    check(want > 0 and len(ooms) == want,
          f"/hog's OOMs recorded: {len(ooms)}, memory.events oom {want}")
    check(all("generations" not in e and "max_seq" not in e for e in ooms),
          "an OOM with MGLRU off carries no generations")
