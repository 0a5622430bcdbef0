"""The rules core: pure Python that turns what was said at the table into money.

Games and variants (``rules/``), the ledger, the settlement, money formatting, the seating
draw, tournament standings, the balance chart and the validation of settings. Dataclasses
in, dataclasses out, exact arithmetic; no framework, no database, no clock, no dice, no
I/O (tests/core/test_purity.py holds the folder to it; docs/architecture.md "Layers").
"""
