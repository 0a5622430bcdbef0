"""Spreadsheet exports (CSV) of an evening's hands and of its settlement."""

from __future__ import annotations

import csv
import io
from typing import Any

from scorekeeper.money import cents_to_str
from scorekeeper.operations import EveningView
from scorekeeper.settlement import Settlement


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
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "hand",
            "dealer",
            "void",
            *fact_keys,
            *players,
            *[f"{c} after" for c in common],
            *(["kasse after"] if kasse else []),
        ]
    )
    for result, row in zip(current.ledger.hands, facts, strict=True):
        number = result.record.number
        writer.writerow(
            [
                number,
                result.record.table.dealer,
                hands[number].void_reason or "",
                *[row.get(k, "") for k in fact_keys],
                *[result.deltas.get(p, "") for p in players],
                *[result.common.get(c, "") for c in common],
                *([cents_to_str(kasse(result.state).contents)] if kasse else []),
            ]
        )
    return out.getvalue()


def settlement_csv(current: EveningView, result: Settlement) -> str:
    """Each party's result, then the payments that settle the evening."""
    currency = current.evening.options.get("currency", "")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["party", "units", f"money ({currency})"])
    for party, cents in result.net.items():
        writer.writerow([party, result.final[party], cents_to_str(cents)])
    writer.writerow([])
    writer.writerow(["from", "to", f"amount ({currency})"])
    for payment in result.transfers:
        writer.writerow([payment.source, payment.target, cents_to_str(payment.amount)])
    return out.getvalue()


def tally_csv(current: EveningView) -> str:
    """The Striche per player, for games played without money."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["player", "striche"])
    for player in current.all_players:
        writer.writerow([player, current.ledger.tally.get(player, 0)])
    return out.getvalue()
