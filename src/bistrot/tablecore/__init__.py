"""The table core: a table's whole behaviour, with no I/O (see core.py)."""
