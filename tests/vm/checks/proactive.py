"""Checks of the proactive scenario (tests/vm/scenarios/)."""
import os
from .common import (check, consistent, events_of, exact_totals, memcg)


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
