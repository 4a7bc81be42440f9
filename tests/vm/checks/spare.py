"""Checks of the spare scenario (tests/vm/scenarios/)."""
from .common import check
from .matrix import scenario_matrix


def scenario_spare(res, header, summary, rec):
    """6.18 with every task's state in the spare map: what the matrix
    checks of 6.18 (hooks as its BTF says, exact totals), and the states
    were indeed kept there (none missed: the checks every scenario makes)."""
    scenario_matrix(res, header, summary, rec)
    spare = summary.get("spare_states")
    check(spare is not None and spare > 0,
          f"the task states were kept in the spare map ({spare})")
