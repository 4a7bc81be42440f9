"""Checks of the legacy scenario (tests/vm/scenarios/)."""
from .common import (check, consistent, events_of, exact_totals, kernel_expectations, memcg)


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
