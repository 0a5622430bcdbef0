"""Tournament standings from the tables' results (docs/tournaments.md, "Standings").

Pure: the shell replays each table's evening and passes what every seated player ended the
round with, in the game's native unit (jetons, points), after the end-of-round pot rule.
Nothing here is stored; the standings are computed anew from the hands every time, so a
correction to a closed table shows at once.

* **Sum** (default): a player's score is the sum of their round results. Tables of
  different sizes play different numbers of hands with different stakes, so the result per
  hand is shown beside the sum.
* **Rank points**: per round, ranks within the table, ties sharing the points of the places
  they hold; first place earns ``RANK_TOP`` points, last none, the places between evenly
  spaced, so tables of 3, 4, 5 and 6 players give the same range.
* **Bye**: a player who sits out a round scores that round's average (the mean of every
  seated player's score in it) and plays no hands.
* **Ties**: by the better best round, then by fewer hands played; players equal on all
  three share the place. For the hands, a bye counts the round's average number of hands
  per seated player, as it counts the round's average result: sitting out must not win a
  tie. A player with no round yet comes after those who played to the same total.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: Points for the first place at a table in rank scoring; 60 divides evenly for 3 to 6.
RANK_TOP = 60
SCORINGS = ("sum", "rank")


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of one round: each seated player's result and the hands it played."""

    round: int
    table: int
    #: Start number → result in the native unit, after the end-of-round pot rule.
    results: Mapping[int, int]
    hands: int


@dataclass(frozen=True, slots=True)
class RoundScore:
    """What one player got in one round."""

    round: int
    #: The table number, or None for a bye.
    table: int | None
    #: The round result in the native unit (a bye: the round's average).
    result: Fraction
    #: What counts for the standings: the result, or the rank points.
    score: Fraction
    hands: int
    #: The hands the round counts for in the tie break: those played, or for a bye the
    #: round's average per seated player.
    hands_counted: Fraction

    @property
    def bye(self) -> bool:
        """Whether the player sat out this round."""
        return self.table is None


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    place: int
    number: int
    total: Fraction
    #: The sum of the native results (equal to ``total`` with sum scoring).
    result: Fraction
    hands: int
    rounds: tuple[RoundScore, ...]

    @property
    def played(self) -> bool:
        """Whether the player has played a hand or sat a round out: a table whose first hand
        is still to come counts as no round yet (docs/tournaments.md, ties)."""
        return any(r.bye or r.hands > 0 for r in self.rounds)

    @property
    def best_round(self) -> Fraction | None:
        """The best single round's score, the first tie break (rounds played only)."""
        return max((r.score for r in self.rounds if r.bye or r.hands > 0), default=None)

    @property
    def hands_counted(self) -> Fraction:
        """The hands that break a tie: those played, a bye counting the round's average."""
        return sum((r.hands_counted for r in self.rounds), Fraction(0))

    @property
    def per_hand(self) -> Fraction | None:
        """The native result per hand actually played (byes left out)."""
        played = [r for r in self.rounds if not r.bye]
        hands = sum(r.hands for r in played)
        return sum((r.result for r in played), Fraction(0)) / hands if hands else None


def rank_points(results: Mapping[int, int]) -> dict[int, Fraction]:
    """Rank points at one table: ``RANK_TOP`` for the first, 0 for the last, ties sharing.

    >>> rank_points({1: 30, 2: 10, 3: -15, 4: -25})
    {1: Fraction(60, 1), 2: Fraction(40, 1), 3: Fraction(20, 1), 4: Fraction(0, 1)}
    >>> rank_points({1: 5, 2: 5, 3: -10})
    {1: Fraction(45, 1), 2: Fraction(45, 1), 3: Fraction(0, 1)}
    """
    size = len(results)
    if size == 1:
        return {number: Fraction(RANK_TOP) for number in results}
    step = Fraction(RANK_TOP, size - 1)
    order = sorted(results, key=lambda n: -results[n])
    points: dict[int, Fraction] = {}
    start = 0
    while start < size:
        end = start
        while end + 1 < size and results[order[end + 1]] == results[order[start]]:
            end += 1
        shared = sum((RANK_TOP - place * step for place in range(start, end + 1)), Fraction(0))
        for place in range(start, end + 1):
            points[order[place]] = shared / (end - start + 1)
        start = end + 1
    return {number: points[number] for number in results}


def standings(
    numbers: Iterable[int],
    tables: Iterable[TableResult],
    byes: Mapping[int, Sequence[int]],
    *,
    scoring: str = "sum",
) -> tuple[Standing, ...]:
    """Rank every entrant by the rounds played so far.

    ``byes`` maps a round to the start numbers who sat it out. A player in no table and no
    bye of a round (a late arrival, a dropout) simply has no score for it.

    >>> rows = standings(
    ...     [1, 2, 3, 4, 5],
    ...     [TableResult(1, 1, {1: 12, 2: 4, 3: -6, 4: -10}, 8)],
    ...     {1: [5]},
    ... )
    >>> [(r.place, r.number, int(r.total)) for r in rows]
    [(1, 1, 12), (2, 2, 4), (3, 5, 0), (4, 3, -6), (5, 4, -10)]
    """
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {SCORINGS}, not {scoring!r}")
    scores: dict[int, list[RoundScore]] = {number: [] for number in numbers}
    by_round: dict[int, list[RoundScore]] = {}
    for table in tables:
        counted = (
            rank_points(table.results)
            if scoring == "rank"
            else {n: Fraction(r) for n, r in table.results.items()}
        )
        for number, result in table.results.items():
            score = RoundScore(
                table.round,
                table.table,
                Fraction(result),
                counted[number],
                table.hands,
                Fraction(table.hands),
            )
            scores.setdefault(number, []).append(score)
            by_round.setdefault(table.round, []).append(score)
    for round_number, sitting_out in byes.items():
        seated = by_round.get(round_number, [])
        if not seated:
            continue
        average = sum((s.result for s in seated), Fraction(0)) / len(seated)
        average_score = sum((s.score for s in seated), Fraction(0)) / len(seated)
        average_hands = Fraction(sum(s.hands for s in seated), len(seated))
        for number in sitting_out:
            scores.setdefault(number, []).append(
                RoundScore(round_number, None, average, average_score, 0, average_hands)
            )
    lines = []
    for number, rounds in scores.items():
        rounds.sort(key=lambda r: r.round)
        lines.append(
            Standing(
                0,
                number,
                sum((r.score for r in rounds), Fraction(0)),
                sum((r.result for r in rounds), Fraction(0)),
                sum(r.hands for r in rounds),
                tuple(rounds),
            )
        )
    lines.sort(key=lambda s: (_rank_key(s), s.number))
    placed: list[Standing] = []
    for index, line in enumerate(lines):
        if placed and _rank_key(placed[-1]) == _rank_key(line):
            place = placed[-1].place
        else:
            place = index + 1
        placed.append(
            Standing(place, line.number, line.total, line.result, line.hands, line.rounds)
        )
    return tuple(placed)


def _rank_key(line: Standing) -> tuple[Fraction, bool, Fraction, Fraction]:
    """Higher total first, then having played (a hand, or a bye), the better best round,
    then fewer hands."""
    best = line.best_round
    return (
        -line.total,
        not line.played,
        -best if best is not None else Fraction(0),
        line.hands_counted,
    )
