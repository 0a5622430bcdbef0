"""One person's season: every evening, the running result, each game's figures, and two
persons side by side (docs/statistics.md, "A player's figures").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from scorekeeper.core.statistics.counting import (
    GAME_COUNTERS,
    Counts,
    count_evening,
    count_roles,
)
from scorekeeper.core.statistics.evenings import PlayedEvening, in_order
from scorekeeper.core.statistics.figures import (
    DoppenFigures,
    EistenStaldenFigures,
    Figure,
    TroggenFigures,
    TrogguFigures,
)
from scorekeeper.core.statistics.reading import (
    DOPPEN,
    EISTEN_STALDEN,
    TROGGEN,
    TROGGU,
    kind_of,
    readings,
)


@dataclass(frozen=True, slots=True)
class EveningResult:
    """A person's result of one evening: money in cents, units in the game's unit."""

    evening_id: int
    day: date | None
    game: str
    variant: str
    unit: str
    currency: str
    hands: int
    money: int
    units: int


@dataclass(frozen=True, slots=True)
class RunningPoint:
    """The running result after one evening: the season so far in one group."""

    evening_id: int
    day: date | None
    money: int
    units: int


@dataclass(frozen=True, slots=True)
class RunningSeries:
    """The running result of one group (game, unit, currency), a point per evening, for a
    chart; groups are never summed together."""

    game: str
    unit: str
    currency: str
    points: tuple[RunningPoint, ...]


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    """Everything the statistics say about one person; a game's figures are None when the
    person never played it."""

    person: str
    evenings: tuple[EveningResult, ...]
    running: tuple[RunningSeries, ...]
    troggen: TroggenFigures | None
    doppen: DoppenFigures | None
    troggu: TrogguFigures | None
    eisten_stalden: EistenStaldenFigures | None

    def figures(self) -> tuple[tuple[str, int], ...]:
        """Every figure under a key: per group the evenings, hands, money and units, then
        each game's figures under the game's name."""
        out: list[Figure] = []
        for series in self.running:
            group = f"{series.game}.{series.unit}.{series.currency or '-'}"
            mine = [
                e
                for e in self.evenings
                if (e.game, e.unit, e.currency) == (series.game, series.unit, series.currency)
            ]
            last = series.points[-1]
            out += [
                (f"{group}.evenings", len(mine)),
                (f"{group}.hands", sum(e.hands for e in mine)),
                (f"{group}.money", last.money),
                (f"{group}.units", last.units),
            ]
        games = (
            (TROGGEN, self.troggen),
            (DOPPEN, self.doppen),
            (TROGGU, self.troggu),
            (EISTEN_STALDEN, self.eisten_stalden),
        )
        for name, figures in games:
            if figures is not None:
                out += [(f"{name}.{key}", value) for key, value in figures.figures()]
        return tuple(out)


def evening_result(evening: PlayedEvening, person: str) -> EveningResult | None:
    """The person's result of ``evening``, or None when they did not take part."""
    names = [n for n in evening.names_of(person) if evening.took_part(n)]
    if not names:
        return None
    return EveningResult(
        evening.evening_id,
        evening.day,
        evening.game,
        evening.variant,
        evening.unit,
        evening.currency,
        sum(evening.hands_seated(n) for n in names),
        sum(evening.money.get(n, 0) for n in names),
        sum(evening.units_of(n) for n in names),
    )


def running(results: Iterable[EveningResult]) -> tuple[RunningSeries, ...]:
    """The running result per group, in evening order; groups sorted by their key."""
    series: dict[tuple[str, str, str], list[RunningPoint]] = {}
    for r in results:
        points = series.setdefault((r.game, r.unit, r.currency), [])
        money, units = (points[-1].money, points[-1].units) if points else (0, 0)
        points.append(RunningPoint(r.evening_id, r.day, money + r.money, units + r.units))
    return tuple(RunningSeries(*key, tuple(points)) for key, points in sorted(series.items()))


def count_person(evening: PlayedEvening, person: str, counts: Counts) -> None:
    """Add the person's hands of ``evening`` to the counts of its kind of game."""
    names = evening.names_of(person)
    count_game = GAME_COUNTERS[kind_of(evening)]
    for result, reading in readings(evening):
        for name in names:
            if name in result.record.table.players:
                count_roles(counts, reading, name)
                count_game(counts, result, reading, name)
    if kind_of(evening) == EISTEN_STALDEN:
        count_evening(counts, evening, names)


def player_statistics(evenings: Iterable[PlayedEvening], person: str) -> PlayerStatistics:
    """The person's season from the evenings they took part in (docs/statistics.md)."""
    results: list[EveningResult] = []
    counts: dict[str, Counts] = {}
    for evening in in_order(evenings):
        result = evening_result(evening, person)
        if result is None:
            continue
        results.append(result)
        count_person(evening, person, counts.setdefault(kind_of(evening), Counter()))
    return PlayerStatistics(
        person,
        tuple(results),
        running(results),
        TroggenFigures.of(counts[TROGGEN]) if TROGGEN in counts else None,
        DoppenFigures.of(counts[DOPPEN]) if DOPPEN in counts else None,
        TrogguFigures.of(counts[TROGGU]) if TROGGU in counts else None,
        EistenStaldenFigures.of(counts[EISTEN_STALDEN]) if EISTEN_STALDEN in counts else None,
    )


@dataclass(frozen=True, slots=True)
class ComparedFigure:
    """One figure of two persons side by side; None where one of them has no such figure
    (a game the person never played)."""

    key: str
    a: int | None
    b: int | None


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two persons' figures under the same keys: ``a``'s keys in order, then ``b``'s others."""

    a: str
    b: str
    figures: tuple[ComparedFigure, ...]


def compare(a: PlayerStatistics, b: PlayerStatistics) -> Comparison:
    """Two persons side by side, key by key (docs/statistics.md, "Side by side")."""
    left, right = dict(a.figures()), dict(b.figures())
    keys = [k for k, _ in a.figures()] + [k for k, _ in b.figures() if k not in left]
    return Comparison(
        a.person, b.person, tuple(ComparedFigure(k, left.get(k), right.get(k)) for k in keys)
    )
