"""The ledger of an evening: a pure fold over its stored hand facts (docs/settlement.md).

Nothing here is stored: balances, the pot and every hand's payments are recomputed from
what was said at the table, so editing or voiding a hand simply replays the evening.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.rules.base import (
    CARRIED,
    HandInput,
    HandScore,
    InvalidInputError,
    ScoreLine,
    Table,
    Transfer,
    msg,
)
from scorekeeper.core.rules.variant import Options, Variant


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A stored hand: its number, the table it was played at, and the facts said.

    ``parsed``: the facts already parsed by the variant (``Variant.parse_hand``), when the
    hand was just entered: a write parses a hand once, and the ledger plays that value
    instead of parsing its stored form again (both are equal, ``tests/core/test_ledger.py``).
    """

    number: int
    table: Table
    facts: Mapping[str, object]
    void: bool = False
    parsed: HandInput | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class HandResult:
    """One replayed hand: its parsed facts, itemised lines, deltas and what followed."""

    record: HandRecord
    hand: HandInput | None
    score: HandScore
    deltas: dict[str, int]
    common: dict[str, int]
    balances: dict[str, int]
    #: This hand's marks beside the money (``HandScore.tally``), every seated player listed.
    tally: dict[str, int] = field(default_factory=dict)
    #: Money (cents) that changed hands in this hand through money lines (``ScoreLine.money``,
    #: Doppen's Kasse won), every seated player listed, and anyone else who paid (a player
    #: who left still owes their Kasse notes); kept apart from the native deltas.
    money_deltas: dict[str, int] = field(default_factory=dict)
    #: Each player's money balance (cents) after the hand.
    money: dict[str, int] = field(default_factory=dict)
    #: The variant's state after the hand (Doppen reads its Kasse and columns from it);
    #: a voided hand carries the state of the hand before.
    state: Any = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class Ledger:
    """An evening replayed: every hand, the players' balances and the common accounts."""

    hands: tuple[HandResult, ...]
    players: tuple[str, ...]
    balances: dict[str, int]
    common: dict[str, int]
    state: Any = field(repr=False)
    #: The evening's marks beside the money per player (Eisten-Stalden's Striche), zeros
    #: included; all zeros for variants that keep no tally.
    tally: dict[str, int] = field(default_factory=dict)
    #: Money balances (cents) from money lines, per player and per common account that such
    #: a line touched; all zeros for variants whose hands move only native units.
    money: dict[str, int] = field(default_factory=dict)
    #: What the evening opened with before its first hand: the pot an earlier evening
    #: carried in, paid in by ``CARRIED`` (docs/troggen.md §8); empty for most evenings.
    opening: tuple[ScoreLine, ...] = ()

    @property
    def carried_in(self) -> int:
        """The jetons an earlier evening carried into this one (0: none)."""
        return sum(-line.amounts().get(CARRIED, 0) for line in self.opening)


def replay(
    variant: Variant, options: Options, records: Sequence[HandRecord], *, carried_in: int = 0
) -> Ledger:
    """Replay an evening hand by hand; voided hands stay in the list with no effect.

    Raises ``InvalidInputError`` carrying the hand's number when a stored hand no longer
    fits (an earlier edit changed the pot a later Kulanz was taken from, say).
    ``carried_in``: the pot an earlier evening carried into this one (``empty``).

    >>> from scorekeeper.core.rules import get_variant
    >>> troggen = get_variant("troggen")
    >>> opts = {"threshold": "fixed-35", "partner_rounding": "nearest",
    ...         "last_trick_payers": "all-others"}
    >>> table = Table(("A", "B", "C", "D"), dealer="D")
    >>> g1 = HandRecord(1, table, {"contract": "doppelt", "bidder": "A", "points": 41,
    ...                            "last_trick": "pagat_won"})
    >>> replay(troggen, opts, [g1]).balances
    {'A': 12, 'B': -4, 'C': -4, 'D': -4}
    """
    return extend(empty(variant, carried_in=carried_in), variant, options, records)


def empty(variant: Variant, *, carried_in: int = 0) -> Ledger:
    """The ledger of an evening before its first hand, opening with ``carried_in`` jetons
    in the pot when an earlier evening carried them on: the pot holds them from the start,
    and whoever keeps them (``CARRIED``) counts as having paid them in, so every account
    still sums to zero."""
    if not carried_in:
        state = variant.initial_state()
        return Ledger((), (), {}, variant.common_balance(state), state, {}, {})
    state = variant.carried_state(carried_in)
    (pot,) = variant.common_accounts
    opening = ScoreLine(msg("Pot carried in"), (Transfer(CARRIED, pot, carried_in),))
    return Ledger((), (), {}, variant.common_balance(state), state, {}, {}, opening=(opening,))


def extend(
    ledger: Ledger, variant: Variant, options: Options, records: Sequence[HandRecord]
) -> Ledger:
    """The ledger after ``records``, played on from ``ledger`` (which stays as it was).

    A fold goes on from any of its steps: ``extend(replay(v, o, a), v, o, b)`` is
    ``replay(v, o, a + b)``. So a hand added at the end of an evening is checked, and an
    evening already replayed is brought up to date, without replaying the hands before.
    Raises ``InvalidInputError`` as ``replay`` does.
    """
    state = ledger.state
    balances = dict(ledger.balances)
    tally = dict(ledger.tally)
    money = dict(ledger.money)
    results: list[HandResult] = list(ledger.hands)
    for record in records:
        for player in record.table.players:
            balances.setdefault(player, 0)
            tally.setdefault(player, 0)
            money.setdefault(player, 0)
        if record.void:
            hand, score = None, HandScore()
        else:
            try:
                hand = record.parsed
                if hand is None:
                    hand = variant.parse_hand(record.facts, record.table, options)
                score, state = variant.score_hand(hand, record.table, state, options)
            except InvalidInputError as error:
                raise type(error)(error.errors, hand=record.number) from error
        amounts = score.amounts()
        deltas = {p: amounts.get(p, 0) for p in record.table.players}
        for account, amount in amounts.items():
            if account in balances or account in record.table.players:
                balances[account] = balances.get(account, 0) + amount
        marks = dict(score.tally)
        hand_tally = {p: marks.get(p, 0) for p in record.table.players}
        for player, count in hand_tally.items():
            tally[player] += count
        # An account a hand's money lines pass through and leave even (the Kasse when the
        # players change, docs/doppen.md §8) is not a party to the hand.
        cents = {account: amount for account, amount in score.money_amounts().items() if amount}
        for account, amount in cents.items():
            money[account] = money.get(account, 0) + amount
        common = variant.common_balance(state)
        results.append(
            HandResult(
                record,
                hand,
                score,
                deltas,
                common,
                dict(balances),
                hand_tally,
                money_deltas={p: cents.get(p, 0) for p in record.table.players} | cents,
                money=dict(money),
                state=state,
            )
        )
    common = variant.common_balance(state)
    return Ledger(
        tuple(results),
        tuple(balances),
        balances,
        common,
        state,
        tally,
        money,
        opening=ledger.opening,
    )
