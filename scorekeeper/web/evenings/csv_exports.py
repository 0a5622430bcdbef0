"""Spreadsheet exports (CSV) of an evening's hands and of its settlement.

Every CSV the app writes goes through ``csv_text``: names, titles and reasons are typed
by guests, and a spreadsheet runs a cell that starts like a formula (OWASP "CSV
Injection"; ``docs/hall-safety.md``). Numbers are passed as numbers (``int``, ``Decimal``)
and stay numbers; text that starts like a formula is shown as text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from scorekeeper.core.money import cents_to_str
from scorekeeper.core.settlement import Settlement
from scorekeeper.operations import EveningView

#: What a spreadsheet reads as the start of a formula (or skips to find one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> int | Decimal | str:
    r"""One cell as the writer is given it: a number (``int``, ``Decimal``) as it is, any
    other value as text, behind a single quote when a spreadsheet would read it as a
    formula. The type decides, not the looks: the text ``-4`` (a name) is guarded, the
    number -4 is not.

    >>> safe_cell(-4), safe_cell(Decimal("-1.20")), safe_cell("Anna"), safe_cell(None)
    (-4, Decimal('-1.20'), 'Anna', '')
    >>> safe_cell('=HYPERLINK("http://x")'), safe_cell("-2+3"), safe_cell("-4")
    ('\'=HYPERLINK("http://x")', "'-2+3", "'-4")
    """
    if isinstance(value, int | Decimal):
        return value
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    r"""Rows of cells as CSV, written by Python's ``csv`` module: comma, CRLF, and every
    text cell in double quotes (``QUOTE_NONNUMERIC``), every number bare.

    OWASP asks that a cell guarded with a single quote be quoted as well; the ``csv``
    module (Python 3.11) cannot quote single cells, so every text cell is quoted. That
    also keeps a text whole for a spreadsheet that splits lines at another separator (a
    semicolon, as Excel does under German regional settings): ``Anna;=1+1`` stays one
    cell and cannot start a formula of its own. Numbers stay bare so every spreadsheet
    reads them as numbers (``QUOTE_ALL`` would quote them too, and a spreadsheet told to
    read quoted fields as text would take the amounts for text). ``safe_cell`` hands the
    writer only ``int`` and ``Decimal`` as numbers, which ``QUOTE_NONNUMERIC`` leaves bare
    (it quotes what is not a number; ``Decimal`` counts as one).

    >>> csv_text([["Anna", -4, Decimal("-1.20")], ["=1+1", "-4", "Anna;=1+1"], []])
    '"Anna",-4,-1.20\r\n"\'=1+1","\'-4","Anna;=1+1"\r\n\r\n'
    """
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    writer.writerows([safe_cell(value) for value in row] for row in rows)
    return out.getvalue()


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
