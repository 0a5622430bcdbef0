"""Counting card points in 3er-Lagen, as Doppen of Kirchberg am Wechsel does (docs/doppen.md §2).

The 54 cards of an Austrian tarock pack are worth 5 (I, XXI, Sküs and the four kings), 4
(queens), 3 (cavalls), 2 (jacks) or 1 (every other card). A pile is counted in groups of
three, each worth its sum minus 2; a leftover pair is worth its sum minus 1 and a leftover
single card its value minus 1. As a formula for a pile of *n* cards:
``points = sum of values - 2 * (n // 3) - (1 if n % 3 else 0)``. The two sides always make
70 between them: the pack's 106 less 36 for the groups.

The table counts a side by sorting its cards: how many of each value and how many in all.
``count_points`` gives one side's points; ``count_sides`` reads both sides as typed into a
form and checks that together they are the whole pack, so their points make 70.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scorekeeper.core.rules.base import ErrorCollector, InvalidHandError, msg
from scorekeeper.core.rules.parsing import read_int

#: How many cards of each value a pack holds, by the name of the count.
PACK = {"fives": 7, "fours": 4, "threes": 4, "twos": 4, "ones": 35}
#: What a card of each kind is worth.
VALUES = {"fives": 5, "fours": 4, "threes": 3, "twos": 2, "ones": 1}
PACK_CARDS = 54
#: Card points of both sides together (docs/doppen.md §2).
TOTAL_POINTS = 70


@dataclass(frozen=True, slots=True)
class CardCount:
    """How many cards of each value one side has.

    >>> CardCount(fives=4, fours=2, threes=2, twos=3, ones=9).points
    36
    """

    fives: int = 0
    fours: int = 0
    threes: int = 0
    twos: int = 0
    ones: int = 0

    def __post_init__(self) -> None:
        for kind, most in PACK.items():
            if not 0 <= getattr(self, kind) <= most:
                raise ValueError(f"{kind} must be between 0 and {most}")

    @property
    def cards(self) -> int:
        """How many cards the side has."""
        return sum(getattr(self, kind) for kind in PACK)

    @property
    def raw(self) -> int:
        """The plain sum of the cards' values."""
        return sum(getattr(self, kind) * value for kind, value in VALUES.items())

    @property
    def points(self) -> int:
        """Card points counted in groups of three (docs/doppen.md §2)."""
        n = self.cards
        return self.raw - 2 * (n // 3) - (1 if n % 3 else 0)


def count_points(*, fives: int, fours: int, threes: int, twos: int, ones: int, cards: int) -> int:
    """One side's card points from how many cards of each value it has (docs/doppen.md §2).

    ``cards`` is the number of cards the side counted; it must match the values given.
    Raises ``InvalidHandError`` naming each field that cannot be right.

    D10: the soloist's 6 tricks and 2 discards, 20 cards worth 49, count 36.

    >>> count_points(fives=4, fours=2, threes=2, twos=3, ones=9, cards=20)
    36
    """
    raw = {
        "fives": fives,
        "fours": fours,
        "threes": threes,
        "twos": twos,
        "ones": ones,
        "cards": cards,
    }
    return _read_side(raw, "", ErrorCollector(), raise_now=True).points


def count_sides(soloist: Mapping[str, object], opponents: Mapping[str, object]) -> tuple[int, int]:
    """Both sides' card points, checked to be the whole pack between them, so they make 70.

    Each side is a mapping with the keys ``fives``, ``fours``, ``threes``, ``twos``,
    ``ones`` and ``cards`` (numbers or digit strings, as a form sends them). Problems are
    named per field (``soloist.fives``, ``opponents.cards``...).

    >>> soloist = {"fives": 4, "fours": 2, "threes": 2, "twos": 3, "ones": 9, "cards": 20}
    >>> opponents = {"fives": 3, "fours": 2, "threes": 2, "twos": 1, "ones": 26, "cards": 34}
    >>> count_sides(soloist, opponents)
    (36, 34)
    """
    errors = ErrorCollector()
    mine = _read_side(soloist, "soloist.", errors)
    theirs = _read_side(opponents, "opponents.", errors)
    errors.raise_if_any(InvalidHandError)
    for kind, in_pack in PACK.items():
        together = getattr(mine, kind) + getattr(theirs, kind)
        if together != in_pack:
            errors.add(
                f"opponents.{kind}",
                msg(
                    "The two sides have {n} cards worth {value} between them; "
                    "the pack has {total}.",
                    n=together,
                    value=VALUES[kind],
                    total=in_pack,
                ),
            )
    errors.raise_if_any(InvalidHandError)
    points = mine.points, theirs.points
    if sum(points) != TOTAL_POINTS:  # pragma: no cover - the whole pack always makes 70
        raise AssertionError(f"the whole pack counted {sum(points)}")
    return points


def _read_side(
    raw: Mapping[str, object], prefix: str, errors: ErrorCollector, *, raise_now: bool = False
) -> CardCount:
    """One side's counts, each within what the pack holds, matching its number of cards."""
    counts: dict[str, int] = {}
    for kind, most in PACK.items():
        value = read_int(raw, kind, errors, low=0, high=most, field_name=prefix + kind)
        if value is not None:
            counts[kind] = value
    cards = read_int(raw, "cards", errors, low=0, high=PACK_CARDS, field_name=prefix + "cards")
    if cards is not None and len(counts) == len(PACK) and sum(counts.values()) != cards:
        errors.add(
            prefix + "cards",
            msg(
                "The cards of each value add up to {sum}, not {cards}; please count again.",
                sum=sum(counts.values()),
                cards=cards,
            ),
        )
    if raise_now:
        errors.raise_if_any(InvalidHandError)
    # An incomplete side stands in as empty; the caller raises before using it.
    return CardCount(**counts) if len(counts) == len(PACK) else CardCount()
