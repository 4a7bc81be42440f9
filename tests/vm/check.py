#!/usr/bin/env python3
"""Judge a VM scenario's recording against the kernel's own counters.

usage: check.py SCENARIO RESULTS_DIR

Every scenario: the guest finished, `record` exited 0, the recording parses
line by line, starts with a header and ends with a summary, and no record was
dropped.  Then the scenario's own assertions.  Prints each check and exits 1
if any failed.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import (bench, churn, classic, copies, core, dispatch, global_reclaim, lab, legacy, matrix, mix, proactive, readahead, soak, spare, stalls, tenants, wbstorm)  # noqa: E402
from checks.common import common, judge  # noqa: E402

SCENARIOS = {
    "matrix-6.18": matrix.scenario_matrix,
    "matrix-7.3": matrix.scenario_matrix,
    "matrix-7.3-exp": matrix.scenario_matrix,
    "bench": bench.scenario_bench,
    "soak": soak.scenario_soak,
    "churn": churn.scenario_churn,
    "spare": spare.scenario_spare,
    "stalls": stalls.scenario_stalls,
    "readahead": readahead.scenario_readahead,
    "mix": mix.scenario_mix,
    "tenants": tenants.scenario_tenants,
    "tenants-legacy": tenants.scenario_tenants_legacy,
    "proactive": proactive.scenario_proactive,
    "classic": classic.scenario_classic,
    "global": global_reclaim.scenario_global,
    "wbstorm": wbstorm.scenario_wbstorm,
    "lab": lab.scenario_lab,
    "copies": copies.scenario_copies,
    "dispatch": dispatch.scenario_dispatch,
    "core": core.scenario_core,
    "core-arm64": core.scenario_core,
    "core-arm64-16k": core.scenario_core,
    "legacy": legacy.scenario_legacy,
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SCENARIOS:
        print(__doc__, file=sys.stderr)
        return 2
    name, res = sys.argv[1], sys.argv[2]
    print(f"check {name}:")
    # the lab's runs may be kept ones of an earlier build (scripts/lab)
    header, summary, rec = common(res, older_schemas=name == "lab")
    if header and summary:
        SCENARIOS[name](res, header, summary, rec)
    return judge.close(f"check {name}")


if __name__ == "__main__":
    sys.exit(main())
