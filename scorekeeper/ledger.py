"""The ledger of an evening: a pure fold over its stored hand facts (settlement.md).

Nothing here is stored: balances, the pot and every hand's payments are recomputed from
what was said at the table, so editing or voiding a hand simply replays the evening.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.rules.base import HandInput, HandScore, InvalidInputError, Table
from scorekeeper.rules.variant import Options, Variant


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A stored hand: its number, the table it was played at, and the facts said."""

    number: int
    table: Table
    facts: Mapping[str, object]
    void: bool = False


@dataclass(frozen=True, slots=True)
class HandResult:
    """One replayed hand: its parsed facts, itemised lines, deltas and what followed."""

    record: HandRecord
    hand: HandInput | None
    score: HandScore
    deltas: dict[str, int]
    common: dict[str, int]
    balances: dict[str, int]


@dataclass(frozen=True, slots=True)
class Ledger:
    """An evening replayed: every hand, the players' balances and the common accounts."""

    hands: tuple[HandResult, ...]
    players: tuple[str, ...]
    balances: dict[str, int]
    common: dict[str, int]
    state: Any = field(repr=False)


def replay(variant: Variant, options: Options, records: Sequence[HandRecord]) -> Ledger:
    """Replay an evening hand by hand; voided hands stay in the list with no effect.

    Raises ``InvalidInputError`` carrying the hand's number when a stored hand no longer
    fits (an earlier edit changed the pot a later Kulanz was taken from, say).

    >>> from scorekeeper.rules import get_variant
    >>> troggen = get_variant("troggen")
    >>> opts = {"threshold": "fixed-35", "partner_rounding": "nearest",
    ...         "last_trick_payers": "all-others"}
    >>> table = Table(("A", "B", "C", "D"), dealer="D")
    >>> g1 = HandRecord(1, table, {"contract": "doppelt", "bidder": "A", "points": 41,
    ...                            "last_trick": "pagat_won"})
    >>> replay(troggen, opts, [g1]).balances
    {'A': 12, 'B': -4, 'C': -4, 'D': -4}
    """
    state = variant.initial_state()
    balances: dict[str, int] = {}
    results: list[HandResult] = []
    for record in records:
        for player in record.table.players:
            balances.setdefault(player, 0)
        if record.void:
            hand, score = None, HandScore()
        else:
            try:
                hand = variant.parse_hand(record.facts, record.table, options)
                score, state = variant.score_hand(hand, record.table, state, options)
            except InvalidInputError as error:
                raise type(error)(error.errors, hand=record.number) from error
        amounts = score.amounts()
        deltas = {p: amounts.get(p, 0) for p in record.table.players}
        for account, amount in amounts.items():
            if account in balances or account in record.table.players:
                balances[account] = balances.get(account, 0) + amount
        results.append(
            HandResult(record, hand, score, deltas, variant.common_balance(state), dict(balances))
        )
    return Ledger(tuple(results), tuple(balances), balances, variant.common_balance(state), state)
