"""Counting one person's hands: sides, contracts and Misère places, then each game's own
events (docs/statistics.md, "A player's figures").

Counts are gathered in a ``Counter`` under dotted keys (``contract.einfach.won``) while the
hands are read, and frozen into the figures' dataclasses afterwards (``figures.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from scorekeeper.core.ledger import HandResult
from scorekeeper.core.rules import doppen, doppen_hand, eisten_stalden, troggen, troggu_scoring
from scorekeeper.core.statistics.evenings import PlayedEvening
from scorekeeper.core.statistics.reading import (
    DOPPEN,
    EISTEN_STALDEN,
    TROGGEN,
    TROGGU,
    Reading,
)

Counts = Counter[str]


def outcome(won: bool | None) -> str | None:
    """``won``, ``lost``, or None for a tie."""
    if won is None:
        return None
    return "won" if won else "lost"


def count_roles(counts: Counts, reading: Reading, name: str) -> None:
    """The hand, the contract bid, the partner's or defender's part, the Misère place."""
    counts["hands"] += 1
    if reading.misere:
        counts[f"misere.{misere_place(reading.misere, name)}"] += 1
        return
    side = reading.side_of(name)
    if name in reading.declarers:
        key = f"contract.{reading.contract}"
    elif side == 1:
        key = "partner"
    elif side == -1:
        key = "defender"
    else:
        return
    counts[f"{key}.played"] += 1
    won = reading.won if side == 1 else None if reading.won is None else not reading.won
    result = outcome(won)
    if result is not None:
        counts[f"{key}.{result}"] += 1


def misere_place(points: Iterable[tuple[str, int]], name: str) -> int:
    """The place in a Misère: fewest points first, tied players sharing the better place
    (1, 2, 2, 4); when all tie, everyone is first (docs/statistics.md, "Sides").

    >>> misere_place((("A", 10), ("B", 20), ("C", 20), ("D", 11)), "C")
    3
    """
    values = dict(points)
    mine = values[name]
    return 1 + sum(1 for value in values.values() if value < mine)


def count_troggen(counts: Counts, result: HandResult, reading: Reading, name: str) -> None:
    """The Bieterin's own Pagat or King in the last trick (docs/troggen.md §6): ``won`` and
    ``lost`` on her side (her partner included), ``conceded`` and ``captured`` defending."""
    hand = result.hand
    if not isinstance(hand, troggen.BidHand) or hand.last_trick is troggen.LastTrick.NONE:
        return
    card, happened = hand.last_trick.value.split("_")
    side = reading.side_of(name)
    if side == 1:
        counts[f"last_trick.{card}.{happened}"] += 1
    elif side == -1:
        counts[f"last_trick.{card}.{'conceded' if happened == 'won' else 'captured'}"] += 1


def doppen_premiums(hand: doppen_hand.GameHand) -> tuple[tuple[str, int], ...]:
    """Each premium of the hand with the side that earned it: +1 the soloist's, -1 the
    opponents' (the sign of its item in ``doppen.hand_items``, docs/doppen.md §5)."""
    out: list[tuple[str, int]] = []
    k = hand.kontra
    for name, announcer, played, doublings in (
        ("pagat", hand.announced.pagat, hand.pagat, k.pagat),
        ("uhu", hand.announced.uhu, hand.uhu, k.uhu),
    ):
        item = doppen.trick_item(name.title(), announcer, played, doublings, hand)
        if item is not None:
            out.append((name, 1 if item[1] > 0 else -1))
    for name, holder in (("trull", hand.trull), ("kings", hand.kings)):
        if holder is not None:
            out.append((name, 1 if holder == hand.soloist else -1))
    if hand.valat is not None or hand.announced.valat:
        out.append(("valat", 1 if doppen.game_item(hand)[1] > 0 else -1))
    return tuple(out)


def count_doppen(counts: Counts, result: HandResult, reading: Reading, name: str) -> None:
    """Premiums won and lost by the person's side, their own announcements, Kontra given
    and received, hands everybody passed and hands sat out (docs/statistics.md)."""
    hand = result.hand
    table = result.record.table
    if name == doppen_hand.sitting_out(table):
        counts["sat_out"] += 1
    if isinstance(hand, doppen_hand.PassHand):
        counts["passed"] += 1
        return
    assert isinstance(hand, doppen_hand.GameHand)
    side = reading.side_of(name)
    for premium, earned in doppen_premiums(hand):
        counts[f"premium.{premium}.{'won' if earned == side else 'lost'}"] += 1
    said = hand.announced
    for premium, announcer, played in (
        ("pagat", said.pagat, hand.pagat),
        ("uhu", said.uhu, hand.uhu),
    ):
        if announcer == name:
            counts[f"announced.{premium}.said"] += 1
            if played is not None and played.result is doppen_hand.Result.WON:
                counts[f"announced.{premium}.won"] += 1
    if said.valat and name == hand.soloist:
        counts["announced.valat.said"] += 1
        if hand.valat is doppen_hand.Side.SOLOIST:
            counts["announced.valat.won"] += 1
    count_kontra(counts, hand, name, doppen_hand.sitting_out(table))


def count_kontra(
    counts: Counts, hand: doppen_hand.GameHand, name: str, sitting: str | None
) -> None:
    """One Kontra per doubled component (game, Valat, Pagat, Uhu): received by the side
    that bid or announced it, given by the other side; the dealer sitting out gives none."""
    k = hand.kontra
    for doublings, owner in (
        (k.game, hand.soloist),
        (k.valat, hand.soloist),
        (k.pagat, hand.announced.pagat),
        (k.uhu, hand.announced.uhu),
    ):
        if not doublings or owner is None:
            continue
        same_side = (name == hand.soloist) == (owner == hand.soloist)
        if same_side:
            counts["kontra.received"] += 1
        elif name != sitting:
            counts["kontra.given"] += 1


def count_troggu(counts: Counts, result: HandResult, reading: Reading, name: str) -> None:
    """Every trick taken by one side (``all_tricks``, docs/troggu.md §2): ``taken`` when the
    person's side took them all, ``conceded`` when the other side did."""
    hand = result.hand
    if not isinstance(hand, troggu_scoring.GameHand) or hand.all_tricks is None:
        return
    taker = 1 if hand.all_tricks is troggu_scoring.AllTricks.DECLARER else -1
    counts[f"all_tricks.{'taken' if reading.side_of(name) == taker else 'conceded'}"] += 1


def count_evening(counts: Counts, evening: PlayedEvening, names: Iterable[str]) -> None:
    """Eisten-Stalden's evening: Striche and Tagessieger, alone or shared (docs/troggu.md §3)."""
    tally = evening.ledger.tally
    leaders = eisten_stalden.leaders(tally)
    for name in names:
        counts["striche"] += tally.get(name, 0)
        if name in leaders:
            counts["tagessieger.alone" if len(leaders) == 1 else "tagessieger.shared"] += 1


def count_nothing(counts: Counts, result: HandResult, reading: Reading, name: str) -> None:
    """No events of its own beside the sides (Eisten-Stalden's hands)."""


GAME_COUNTERS = {
    TROGGEN: count_troggen,
    DOPPEN: count_doppen,
    TROGGU: count_troggu,
    EISTEN_STALDEN: count_nothing,
}
