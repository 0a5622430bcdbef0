"""Who sits where and who deals next, as the table changes over an evening (docs/troggen.md §9).

The deal passes to the right, which in counter-clockwise playing order is the next player.
A hand's dealer is stored with it and never moves; only the proposal for the next hand is
computed here, from the last hand that stands (so voiding the last hand gives the deal
back) or from a later change of seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.core.rules.base import Table


@dataclass(frozen=True, slots=True)
class Seating:
    """The table from hand ``from_hand`` on; ``dealer`` deals that hand when given."""

    from_hand: int
    players: tuple[str, ...]
    dealer: str | None = None


@dataclass(frozen=True, slots=True)
class DealtHand:
    """The facts rotation needs about a recorded hand."""

    number: int
    dealer: str
    void: bool = False


def seating_for(seatings: Sequence[Seating], number: int) -> Seating:
    """The seating in force for hand ``number`` (the latest that starts at or before it)."""
    current = seatings[0]
    for seating in seatings:
        if seating.from_hand <= number:
            current = seating
    return current


def successor(dealer: str, played_at: tuple[str, ...], now: tuple[str, ...]) -> str:
    """Who deals after ``dealer``: the next player in the old order who is still seated.

    >>> successor("Bert", ("Anna", "Bert", "Clara"), ("Anna", "Clara", "Dora"))
    'Clara'
    >>> successor("Clara", ("Anna", "Bert", "Clara"), ("Anna", "Clara", "Dora"))
    'Dora'
    """
    if dealer in now:
        return now[(now.index(dealer) + 1) % len(now)]
    if dealer in played_at:
        i = played_at.index(dealer)
        for step in range(1, len(played_at)):
            candidate = played_at[(i + step) % len(played_at)]
            if candidate in now:
                return candidate
    return now[0]


def next_table(seatings: Sequence[Seating], hands: Sequence[DealtHand]) -> Table:
    """The table for the next hand, with the proposed dealer.

    >>> s = [Seating(1, ("Anna", "Bert", "Clara", "Dora"), "Anna")]
    >>> next_table(s, [DealtHand(1, "Anna"), DealtHand(2, "Bert", void=True)]).dealer
    'Bert'
    """
    number = max((h.number for h in hands), default=0) + 1
    current = seating_for(seatings, number)
    standing = [h for h in hands if not h.void]
    last = standing[-1] if standing else None
    if current.dealer is not None and (last is None or last.number < current.from_hand):
        return Table(current.players, current.dealer)
    if last is None:
        return Table(current.players, current.players[0])
    played_at = seating_for(seatings, last.number).players
    return Table(current.players, successor(last.dealer, played_at, current.players))
