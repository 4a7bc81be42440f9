"""Checks of the readahead scenario (tests/vm/scenarios/)."""
from .common import (check, consistent, exact_totals, memcg, refaults_exact)


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
