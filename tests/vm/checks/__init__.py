"""The VM scenarios' checks, one module per scenario (tests/vm/check.py)."""
