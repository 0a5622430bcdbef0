"""One evening's highlights for its settlement page (docs/statistics.md, "Highlights"):
the biggest pot won, the longest run of pots carried, the best hand, who bid most.

Players are named as at the evening. Games without a pot (everything but Troggen) have
None for the pot's figures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from scorekeeper.core.ledger import HandResult
from scorekeeper.core.rules.base import POT
from scorekeeper.core.rules.troggen import BidHand
from scorekeeper.core.statistics.evenings import PlayedEvening
from scorekeeper.core.statistics.reading import readings


@dataclass(frozen=True, slots=True)
class PotWon:
    """A hand that emptied the pot: all it paid out (the Bieterin's and her partner's
    shares together), and who won it."""

    hand: int
    amount: int
    winner: str
    partner: str | None


@dataclass(frozen=True, slots=True)
class CarriedRun:
    """Consecutive standing hands after each of which the pot still held jetons."""

    first_hand: int
    last_hand: int
    hands: int
    pot: int


@dataclass(frozen=True, slots=True)
class BestHand:
    """The largest gain one player made in one hand, in the game's unit."""

    hand: int
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class MostBids:
    """Who declared most often (tied players all named, in the order they first sat)."""

    players: tuple[str, ...]
    hands: int


@dataclass(frozen=True, slots=True)
class Highlights:
    """An evening's highlights; each is None when the evening has none."""

    biggest_pot: PotWon | None
    longest_carry: CarriedRun | None
    best_hand: BestHand | None
    most_bids: MostBids | None


def pot_paid_out(result: HandResult) -> int:
    """Jetons the pot paid out in this hand (to the Bieterin and her partner)."""
    return sum(t.amount for line in result.score.lines for t in line.transfers if t.source == POT)


def biggest_pot(evening: PlayedEvening) -> PotWon | None:
    """The largest pot a standing hand emptied (the first of equals)."""
    best: PotWon | None = None
    for result in evening.hands():
        hand = result.hand
        if result.common.get(POT) != 0 or not isinstance(hand, BidHand):
            continue
        amount = pot_paid_out(result)
        if amount and (best is None or amount > best.amount):
            best = PotWon(result.record.number, amount, hand.bidder, hand.partner)
    return best


def longest_carry(evening: PlayedEvening) -> CarriedRun | None:
    """The longest run of standing hands that left jetons in the pot (the first of equals);
    a voided hand neither counts nor breaks a run."""
    best: CarriedRun | None = None
    run: CarriedRun | None = None
    for result in evening.hands():
        pot = result.common.get(POT, 0)
        number = result.record.number
        if pot <= 0:
            run = None
            continue
        run = (
            CarriedRun(number, number, 1, pot)
            if run is None
            else CarriedRun(run.first_hand, number, run.hands + 1, pot)
        )
        if best is None or run.hands > best.hands:
            best = run
    return best


def best_hand(evening: PlayedEvening) -> BestHand | None:
    """The largest single-hand gain (the first of equals, in playing order); None when no
    hand gained anyone anything in the game's unit."""
    best: BestHand | None = None
    for result in evening.hands():
        for player in result.record.table.players:
            gain = result.deltas.get(player, 0)
            if gain > 0 and (best is None or gain > best.amount):
                best = BestHand(result.record.number, player, gain)
    return best


def most_bids(evening: PlayedEvening) -> MostBids | None:
    """Who declared most often: Bieterin, soloist, Tappist, every member of Eisten-Stalden's
    declaring side (docs/statistics.md, "Sides")."""
    counts = Counter(name for _, reading in readings(evening) for name in reading.declarers)
    if not counts:
        return None
    most = max(counts.values())
    order = evening.players()
    leaders = sorted((n for n, c in counts.items() if c == most), key=order.index)
    return MostBids(tuple(leaders), most)


def highlights(evening: PlayedEvening) -> Highlights:
    """The evening's highlights (docs/statistics.md, "Highlights")."""
    has_pot = POT in evening.ledger.common
    return Highlights(
        biggest_pot(evening) if has_pot else None,
        longest_carry(evening) if has_pot else None,
        best_hand(evening),
        most_bids(evening),
    )
