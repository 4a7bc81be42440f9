"""Checks of the matrix scenario (tests/vm/scenarios/)."""
from .common import (check, consistent, exact_totals, kernel_expectations)


def scenario_matrix(res, header, summary, rec):
    """A Debian MGLRU kernel of the matrix: hooks and nulls as its BTF says,
    and whatever it can count equal to its own counters."""
    m = kernel_expectations(res, header, summary, "/test")
    if m is None:
        return
    check(header.get("mglru") is True, "MGLRU enabled in the guest")
    exact_totals(res, m)
    consistent(rec, m)
