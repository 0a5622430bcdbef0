"""Spreadsheet exports (CSV) of an evening's hands and of its settlement.

Every CSV the app writes goes through ``csv_text``: names, titles and reasons are typed
by guests, and a spreadsheet runs a cell that starts like a formula (OWASP "CSV
Injection"; ``docs/hall-safety.md``). Numbers are passed as numbers (``int``, ``Decimal``)
and stay numbers; text that starts like a formula is shown as text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from scorekeeper.core.money import cents_to_str
from scorekeeper.core.settlement import Settlement
from scorekeeper.operations import EveningView

#: What a spreadsheet reads as the start of a formula (or skips to find one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: What makes a CSV cell need quotes.
NEEDS_QUOTES = frozenset(',"\r\n')


def csv_cell(value: object) -> str:
    """One cell: a number as it is; a text quoted if it must be, and one a spreadsheet
    would read as a formula behind a single quote, and quoted.

    >>> csv_cell(-4), csv_cell(Decimal("-1.20")), csv_cell("Anna"), csv_cell("Müller, A.")
    ('-4', '-1.20', 'Anna', '"Müller, A."')
    >>> print(csv_cell('=HYPERLINK("http://x")'), csv_cell("-2+3"), repr(csv_cell(None)))
    "'=HYPERLINK(""http://x"")" "'-2+3" ''
    """
    if isinstance(value, int | Decimal):
        return str(value)
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS):
        return '"' + ("'" + text).replace('"', '""') + '"'
    if NEEDS_QUOTES.intersection(text):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """Rows of cells as CSV (comma, CRLF, as Python's ``csv`` module writes it)."""
    return "".join(",".join(csv_cell(value) for value in row) + "\r\n" for row in rows)


def money(cents: int) -> Decimal:
    """An amount as a number with two decimals (``-1.20``), for a spreadsheet to add up."""
    return Decimal(cents_to_str(cents))


def _flatten(facts: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested facts (a Misère's points per player) as ``points.Anna`` columns."""
    out: dict[str, Any] = {}
    for key, value in facts.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = "" if value is None else value
    return out


def hands_csv(current: EveningView) -> str:
    """One row per hand: its facts, each player's delta and the common accounts after it."""
    hands = {h.number: h for h in current.evening.hands}
    facts = [_flatten(dict(r.record.facts)) for r in current.ledger.hands]
    fact_keys: list[str] = []
    for row in facts:
        fact_keys += [k for k in row if k not in fact_keys]
    players = list(current.all_players)
    common = list(current.ledger.common)
    kasse = getattr(current.variant, "kasse_view", None)
    rows: list[list[object]] = [
        [
            "hand",
            "dealer",
            "void",
            *fact_keys,
            *players,
            *[f"{c} after" for c in common],
            *(["kasse after"] if kasse else []),
        ]
    ]
    for result, row in zip(current.ledger.hands, facts, strict=True):
        number = result.record.number
        rows.append(
            [
                number,
                result.record.table.dealer,
                hands[number].void_reason or "",
                *[row.get(k, "") for k in fact_keys],
                *[result.deltas.get(p, "") for p in players],
                *[result.common.get(c, "") for c in common],
                *([money(kasse(result.state).contents)] if kasse else []),
            ]
        )
    return csv_text(rows)


def settlement_csv(current: EveningView, result: Settlement) -> str:
    """Each party's result, then the payments that settle the evening."""
    currency = current.evening.options.get("currency", "")
    rows: list[list[object]] = [["party", "units", f"money ({currency})"]]
    for party, cents in result.net.items():
        rows.append([party, result.final[party], money(cents)])
    rows.append([])
    rows.append(["from", "to", f"amount ({currency})"])
    for payment in result.transfers:
        rows.append([payment.source, payment.target, money(payment.amount)])
    return csv_text(rows)


def tally_csv(current: EveningView) -> str:
    """The Striche per player, for games played without money."""
    rows: list[list[object]] = [["player", "striche"]]
    for player in current.all_players:
        rows.append([player, current.ledger.tally.get(player, 0)])
    return csv_text(rows)
