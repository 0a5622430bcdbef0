"""The season table: one row per person and group of game, unit and currency
(docs/statistics.md, "The season table").

Money and units are summed only within a group: a person who played Troggen in CHF and
Doppen in EUR has two rows, never one total.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from scorekeeper.core.statistics.evenings import PlayedEvening, in_order


@dataclass(frozen=True, slots=True)
class EveningMark:
    """One evening's result of a person: money in cents, units in the game's unit."""

    evening_id: int
    day: date | None
    money: int
    units: int


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """A person's season in one group (game, unit, currency).

    ``best`` and ``worst``: the evenings with the highest and lowest money result, units
    breaking a tie (they alone decide where no money is kept), then the earlier evening.
    """

    person: str
    game: str
    unit: str
    currency: str
    evenings: int
    hands: int
    money: int
    units: int
    best: EveningMark
    worst: EveningMark

    @property
    def average_money(self) -> Fraction:
        """Money per evening, exact."""
        return Fraction(self.money, self.evenings)

    @property
    def average_units(self) -> Fraction:
        """Units per evening, exact."""
        return Fraction(self.units, self.evenings)


def evening_marks(evening: PlayedEvening) -> dict[str, tuple[EveningMark, int]]:
    """Each person who took part: their mark of the evening and their hands played.

    A person seated under two names has both summed.
    """
    out: dict[str, tuple[EveningMark, int]] = {}
    for name in evening.players():
        if not evening.took_part(name):
            continue
        person = evening.person_of(name)
        mark, hands = out.get(person, (EveningMark(evening.evening_id, evening.day, 0, 0), 0))
        mark = EveningMark(
            mark.evening_id,
            mark.day,
            mark.money + evening.money.get(name, 0),
            mark.units + evening.units_of(name),
        )
        out[person] = (mark, hands + evening.hands_seated(name))
    return out


def season_table(
    evenings: Iterable[PlayedEvening], persons: Collection[str] | None = None
) -> tuple[SeasonRow, ...]:
    """Every person's season per group, or only those of ``persons``.

    Sorted by game, unit, currency, then person.
    """
    marks: dict[tuple[str, str, str, str], list[tuple[EveningMark, int]]] = {}
    for evening in in_order(evenings):
        for person, mark in evening_marks(evening).items():
            if persons is None or person in persons:
                marks.setdefault((*evening.group, person), []).append(mark)
    rows = [row_of(key, found) for key, found in marks.items()]
    return tuple(sorted(rows, key=lambda r: (r.game, r.unit, r.currency, r.person)))


def row_of(key: tuple[str, str, str, str], found: list[tuple[EveningMark, int]]) -> SeasonRow:
    """The row of one person and group from their evenings' marks (in season order)."""
    game, unit, currency, person = key
    evenings = [mark for mark, _ in found]
    best = max(evenings, key=lambda m: (m.money, m.units))  # the first of equals
    worst = min(evenings, key=lambda m: (m.money, m.units))
    return SeasonRow(
        person,
        game,
        unit,
        currency,
        len(evenings),
        sum(hands for _, hands in found),
        sum(m.money for m in evenings),
        sum(m.units for m in evenings),
        best,
        worst,
    )


#: The keys ``sort_rows`` sorts by, and the value each reads from a row.
SORT_KEYS: dict[str, Callable[[SeasonRow], Any]] = {
    "person": lambda r: r.person,
    "game": lambda r: (r.game, r.unit, r.currency),
    "evenings": lambda r: r.evenings,
    "hands": lambda r: r.hands,
    "money": lambda r: r.money,
    "units": lambda r: r.units,
    "average_money": lambda r: r.average_money,
    "average_units": lambda r: r.average_units,
    "best": lambda r: (r.best.money, r.best.units),
    "worst": lambda r: (r.worst.money, r.worst.units),
}


def sort_rows(rows: Iterable[SeasonRow], key: str, descending: bool) -> tuple[SeasonRow, ...]:
    """The rows sorted by one column for the sortable page; equal rows stay in the table's
    order (game, unit, currency, person) whichever the direction. Raises ``ValueError``
    for a key not in ``SORT_KEYS``."""
    if key not in SORT_KEYS:
        raise ValueError(f"unknown sort key {key!r}; choose one of {', '.join(SORT_KEYS)}")
    read = SORT_KEYS[key]
    ordered = sorted(rows, key=lambda r: (r.game, r.unit, r.currency, r.person))
    return tuple(sorted(ordered, key=read, reverse=descending))
