"""Tournament standings (docs/tournaments.md, "Standings"): sum and rank scoring, byes, tie breaks.

Worked examples computed by hand, then properties over random tournaments: rank points at a
table always add up to 30 per seat, the order follows the tie-break key, sum scoring adds
up, and the order the results come in does not matter.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction as F
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.core.standings import (
    RANK_TOP,
    SCORINGS,
    RoundScore,
    Standing,
    TableResult,
    rank_points,
    standings,
)

PROPERTY = settings(max_examples=150)


def places(rows: tuple[Standing, ...]) -> list[tuple[int, int]]:
    """(place, start number) in the order of the standings."""
    return [(row.place, row.number) for row in rows]


def by_number(rows: tuple[Standing, ...]) -> dict[int, Standing]:
    return {row.number: row for row in rows}


# -- rank points -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "points"),
    [
        (3, [60, 30, 0]),
        (4, [60, 40, 20, 0]),
        (5, [60, 45, 30, 15, 0]),
        (6, [60, 48, 36, 24, 12, 0]),
    ],
)
def test_rank_points_run_from_60_to_0_whatever_the_table_size(size: int, points: list[int]) -> None:
    """First place 60, last 0, evenly spaced, so tables of 3 to 6 are comparable."""
    results = {n: 100 - 7 * n for n in range(1, size + 1)}  # number 1 first, then 2...
    assert rank_points(results) == {n: F(p) for n, p in zip(results, points, strict=True)}


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        # Two share the 2nd and 3rd places of four: (40 + 20) / 2.
        ({1: 30, 2: 10, 3: 10, 4: -50}, {1: 60, 2: 30, 3: 30, 4: 0}),
        # Three share the top of four: (60 + 40 + 20) / 3.
        ({1: 5, 2: 5, 3: 5, 4: -15}, {1: 40, 2: 40, 3: 40, 4: 0}),
        # Two share the 2nd and 3rd places of five: (45 + 30) / 2 is not whole.
        ({1: 9, 2: 4, 3: 4, 4: -1, 5: -16}, {1: 60, 2: F(75, 2), 3: F(75, 2), 4: 15, 5: 0}),
        # Everyone equal at six: all share the average, 30.
        ({n: 0 for n in range(1, 7)}, {n: 30 for n in range(1, 7)}),
        # The last two of three share (30 + 0) / 2.
        ({7: 12, 8: -6, 9: -6}, {7: 60, 8: 15, 9: 15}),
        # Input order does not decide: the lowest result is last wherever it is listed.
        ({4: -20, 2: 8, 3: 12, 1: 0}, {4: 0, 2: 40, 3: 60, 1: 20}),
    ],
    ids=["two-in-the-middle", "three-on-top", "fraction", "all-equal", "last-two", "unsorted"],
)
def test_tied_players_share_the_points_of_the_places_they_hold(
    results: dict[int, int], expected: dict[int, int | F]
) -> None:
    assert rank_points(results) == {n: F(p) for n, p in expected.items()}


def test_rank_points_keep_the_tables_order_of_players() -> None:
    """The answer lists the players as given (the shell zips it with the seats)."""
    assert list(rank_points({5: 1, 3: 9, 8: 4})) == [5, 3, 8]


# -- sum scoring: worked examples ------------------------------------------------------------


def test_sum_of_two_rounds_with_a_bye_each() -> None:
    """Five players, one table of four per round, one bye per round.

    Round 1: 1 +12, 2 +5, 3 -6, 4 -9 (8 hands); 5 sits out and scores the average
    (12 + 5 - 6 - 9) / 4 = 1/2. Round 2: 2 +8, 3 -2, 4 +3, 5 -9 (8 hands); 1 sits out and
    scores (8 - 2 + 3 - 9) / 4 = 0. Totals: 1 12, 2 13, 3 -8, 4 -6, 5 -17/2.
    """
    rows = standings(
        [1, 2, 3, 4, 5],
        [
            TableResult(1, 1, {1: 12, 2: 5, 3: -6, 4: -9}, 8),
            TableResult(2, 1, {2: 8, 3: -2, 4: 3, 5: -9}, 8),
        ],
        {1: [5], 2: [1]},
    )
    assert places(rows) == [(1, 2), (2, 1), (3, 4), (4, 3), (5, 5)]
    lines = by_number(rows)
    assert {n: line.total for n, line in lines.items()} == {
        1: 12,
        2: 13,
        3: -8,
        4: -6,
        5: F(-17, 2),
    }
    assert all(line.total == line.result for line in rows)
    # Byes play no hands and are left out of the result per hand.
    assert {n: line.hands for n, line in lines.items()} == {1: 8, 2: 16, 3: 16, 4: 16, 5: 8}
    assert lines[1].per_hand == F(12, 8)
    assert lines[2].per_hand == F(13, 16)
    assert lines[5].per_hand == F(-9, 8)
    bye = lines[5].rounds[0]
    assert bye == RoundScore(1, None, F(1, 2), F(1, 2), 0, F(8))  # counts 8 hands in a tie
    assert bye.bye
    assert lines[1].rounds[1] == RoundScore(2, None, F(0), F(0), 0, F(8))
    assert lines[1].best_round == 12
    assert lines[5].best_round == F(1, 2)


def test_ties_break_by_best_round_then_fewer_hands_then_share_the_place() -> None:
    """Nine players, a table of four (8 hands) and one of five (10 hands) per round.

    Round 1: A {1 +10, 2 0, 3 -4, 4 -6}, B {5 +10, 6 +2, 7 -3, 8 -4, 9 -5}.
    Round 2: C {1 -2, 2 +8, 3 -6, 4 -4}, D {5 -2, 6 +3, 7 +1, 8 +4, 9 -6}.

    1, 2 and 5 all have 8: 1 and 5 had a best round of 10, 2 only 8; 1 played 16 hands,
    5 played 20, so 1, 5, 2. 3 and 4 both have -10 with a best round of -4 and 16 hands:
    they share 7th place, and the next is 9th.
    """
    rows = standings(
        range(1, 10),
        [
            TableResult(1, 1, {1: 10, 2: 0, 3: -4, 4: -6}, 8),
            TableResult(1, 2, {5: 10, 6: 2, 7: -3, 8: -4, 9: -5}, 10),
            TableResult(2, 1, {1: -2, 2: 8, 3: -6, 4: -4}, 8),
            TableResult(2, 2, {5: -2, 6: 3, 7: 1, 8: 4, 9: -6}, 10),
        ],
        {},
    )
    assert places(rows) == [(1, 1), (2, 5), (3, 2), (4, 6), (5, 8), (6, 7), (7, 3), (7, 4), (9, 9)]
    lines = by_number(rows)
    assert [lines[n].total for n in (1, 5, 2)] == [8, 8, 8]
    assert [lines[n].best_round for n in (1, 5, 2)] == [10, 10, 8]
    assert [lines[n].hands for n in (1, 5, 2)] == [16, 20, 16]
    assert (lines[3].total, lines[3].best_round, lines[3].hands) == (-10, -4, 16)
    assert (lines[4].total, lines[4].best_round, lines[4].hands) == (-10, -4, 16)


def test_a_table_still_to_play_its_first_hand_comes_after_those_at_the_same_total() -> None:
    """Round 1 under way: table 1 at 0, 0, +2, -2 after four hands, table 2 not started.
    Players 5 to 8 have no round yet: they come after 1 and 2, who played to 0."""
    rows = standings(
        range(1, 9),
        [
            TableResult(1, 1, {1: 0, 2: 0, 3: 2, 4: -2}, 4),
            TableResult(1, 2, {5: 0, 6: 0, 7: 0, 8: 0}, 0),
        ],
        {},
    )
    assert places(rows) == [(1, 3), (2, 1), (2, 2), (4, 5), (4, 6), (4, 7), (4, 8), (8, 4)]
    lines = by_number(rows)
    assert (lines[5].played, lines[5].best_round) == (False, None)
    assert (lines[1].played, lines[1].best_round) == (True, 0)


def test_a_player_without_rounds_is_listed_with_nothing() -> None:
    """A registered player who has not played yet stands at 0 with no rounds and no hands."""
    rows = standings([1, 2, 3, 4, 9], [TableResult(1, 1, {1: 3, 2: 1, 3: -1, 4: -3}, 4)], {})
    late = by_number(rows)[9]
    assert (late.total, late.hands, late.rounds, late.per_hand, late.best_round) == (
        0,
        0,
        (),
        None,
        None,
    )
    assert places(rows) == [(1, 1), (2, 2), (3, 9), (4, 3), (5, 4)]


def test_a_bye_does_not_win_the_tie_on_fewer_hands() -> None:
    """Seven players, a table of six per round, every result 0: 7 sits out round 1, 6 round
    2. A bye counts the round's 12 hands, so all seven tie and share the first place."""
    rows = standings(
        range(1, 8),
        [
            TableResult(1, 1, dict.fromkeys(range(1, 7), 0), 12),
            TableResult(2, 1, dict.fromkeys([1, 2, 3, 4, 5, 7], 0), 12),
        ],
        {1: [7], 2: [6]},
    )
    assert {row.place for row in rows} == {1}
    lines = by_number(rows)
    assert (lines[7].hands, lines[7].hands_counted) == (12, 24)  # 12 played, 12 for the bye
    assert lines[1].hands_counted == 24


def test_a_player_without_rounds_comes_after_those_who_played_to_the_same_total() -> None:
    """A late arrival at 0 is not ahead of players who played to 0."""
    rows = standings([9, 1, 2], [TableResult(1, 1, {1: 0, 2: 0}, 4)], {})
    assert places(rows) == [(1, 1), (1, 2), (3, 9)]


def test_a_bye_in_a_round_nobody_played_scores_nothing() -> None:
    """Without seated players there is no average to give."""
    rows = standings([1, 2], [], {1: [2]})
    assert by_number(rows)[2].rounds == ()


def test_results_of_players_not_registered_still_count() -> None:
    """The standings rank everyone who has a result, not only the numbers listed."""
    rows = standings([1], [TableResult(1, 1, {1: -4, 2: 4, 3: 0}, 6)], {})
    assert places(rows) == [(1, 2), (2, 3), (3, 1)]


def test_unknown_scoring_is_refused() -> None:
    with pytest.raises(ValueError, match="scoring"):
        standings([1], [], {}, scoring="elo")


# -- rank scoring: worked example ------------------------------------------------------------


def test_rank_scoring_with_ties_and_a_bye() -> None:
    """Round 1: {1 +5, 2 +5, 3 -2, 4 -8} gives 50, 50, 20, 0; 5 sits out and gets the
    average of the rank points, 120 / 4 = 30, with the round's average result 0.
    Round 2 (a table of five): {1 -9, 2 +1, 3 +20, 4 +1, 5 -13} gives 15, 75/2, 60, 75/2, 0.
    Totals: 1 65, 2 175/2, 3 80, 4 75/2, 5 30.
    """
    rows = standings(
        [1, 2, 3, 4, 5],
        [
            TableResult(1, 1, {1: 5, 2: 5, 3: -2, 4: -8}, 8),
            TableResult(2, 1, {1: -9, 2: 1, 3: 20, 4: 1, 5: -13}, 10),
        ],
        {1: [5]},
        scoring="rank",
    )
    assert places(rows) == [(1, 2), (2, 3), (3, 1), (4, 4), (5, 5)]
    lines = by_number(rows)
    assert {n: line.total for n, line in lines.items()} == {
        1: 65,
        2: F(175, 2),
        3: 80,
        4: F(75, 2),
        5: 30,
    }
    # The native results are kept beside the points.
    assert {n: line.result for n, line in lines.items()} == {1: -4, 2: 6, 3: 18, 4: -7, 5: -13}
    assert lines[5].rounds[0] == RoundScore(1, None, F(0), F(30), 0, F(8))
    assert lines[2].best_round == 50


# -- properties ------------------------------------------------------------------------------


@st.composite
def tournaments(
    draw: st.DrawFn,
) -> tuple[list[int], list[TableResult], dict[int, list[int]]]:
    """Players, each round's tables of 3 to 6 (results with many ties) and its byes."""
    players = list(range(1, draw(st.integers(3, 24)) + 1))
    rounds = draw(st.integers(1, 4))
    tables: list[TableResult] = []
    byes: dict[int, list[int]] = {}
    for r in range(1, rounds + 1):
        order = draw(st.permutations(players))
        absent = draw(st.integers(0, min(3, len(order) - 3)))
        present = order[absent:]
        seated = 0
        while len(present) - seated >= 3:
            size = draw(st.integers(3, min(6, len(present) - seated)))
            group = present[seated : seated + size]
            results = draw(st.lists(st.integers(-6, 6), min_size=size, max_size=size))
            k = draw(st.integers(1, 3))
            tables.append(
                TableResult(r, len(tables) + 1, dict(zip(group, results, strict=True)), k * size)
            )
            seated += size
        sitting_out = list(present[seated:])
        if draw(st.booleans()):
            sitting_out += order[:absent]  # some absent players count as byes too
        if sitting_out:
            byes[r] = sitting_out
    return players, tables, byes


def key(line: Standing, tables: list[TableResult]) -> tuple[F, bool, F, F]:
    """The documented order: higher total, having played, better best round, fewer hands
    (a bye counting the round's average hands per seated player)."""
    best = line.best_round if line.best_round is not None else F(0)
    hands = F(0)
    for r in line.rounds:
        if r.bye:
            seated = [t for t in tables if t.round == r.round for _ in t.results]
            hands += F(sum(t.hands for t in seated), len(seated))
        else:
            hands += r.hands
    return (-line.total, line.best_round is None, -best, hands)


@PROPERTY
@given(results=st.lists(st.integers(-40, 40), min_size=2, max_size=6))
def test_rank_points_at_a_table_always_sum_to_thirty_per_seat(results: list[int]) -> None:
    points = rank_points(dict(enumerate(results, start=1)))
    assert sum(points.values()) == 30 * len(results)
    assert max(points.values()) <= RANK_TOP
    assert min(points.values()) >= 0
    # Better results never get fewer points; equal results get equal points.
    for a, ra in enumerate(results, start=1):
        for b, rb in enumerate(results, start=1):
            if ra > rb:
                assert points[a] > points[b]
            elif ra == rb:
                assert points[a] == points[b]


@PROPERTY
@given(data=tournaments(), scoring=st.sampled_from(SCORINGS))
def test_standings_follow_the_tie_break_key(
    data: tuple[list[int], list[TableResult], dict[int, list[int]]], scoring: str
) -> None:
    players, tables, byes = data
    rows = standings(players, tables, byes, scoring=scoring)
    assert sorted(row.number for row in rows) == players
    for index, row in enumerate(rows):
        # The place is one more than the number of lines strictly ahead.
        assert row.place == 1 + sum(1 for other in rows if key(other, tables) < key(row, tables))
        if index:
            before = rows[index - 1]
            assert key(before, tables) <= key(row, tables)
            assert (before.place == row.place) == (key(before, tables) == key(row, tables))
            if key(before, tables) == key(row, tables):
                assert before.number < row.number
        assert row.total == sum((r.score for r in row.rounds), F(0))
        assert row.hands == sum(r.hands for r in row.rounds)
        assert [r.round for r in row.rounds] == sorted({r.round for r in row.rounds})


@PROPERTY
@given(data=tournaments())
def test_sum_scoring_adds_up_the_results(
    data: tuple[list[int], list[TableResult], dict[int, list[int]]],
) -> None:
    players, tables, byes = data
    rows = standings(players, tables, byes)
    lines = by_number(rows)
    played: dict[int, F] = defaultdict(F)
    per_round: dict[int, list[int]] = defaultdict(list)
    for table in tables:
        for number, result in table.results.items():
            played[number] += result
            per_round[table.round].append(result)
    averages = {r: F(sum(v), len(v)) for r, v in per_round.items()}
    for number in players:
        expected = played[number] + sum(
            (averages[r] for r, out in byes.items() if number in out and r in averages), F(0)
        )
        assert lines[number].total == lines[number].result == expected
    seated_total = sum((F(sum(t.results.values())) for t in tables), F(0))
    bye_total = sum((averages[r] * len(out) for r, out in byes.items() if r in averages), F(0))
    assert sum((row.total for row in rows), F(0)) == seated_total + bye_total


@PROPERTY
@given(data=tournaments(), scoring=st.sampled_from(SCORINGS), rng=st.randoms(use_true_random=False))
def test_the_order_of_the_input_does_not_change_the_standings(
    data: tuple[list[int], list[TableResult], dict[int, list[int]]], scoring: str, rng: Random
) -> None:
    players, tables, byes = data
    rows = standings(players, tables, byes, scoring=scoring)
    other_players = rng.sample(players, len(players))
    other_tables = [
        TableResult(
            t.round, t.table, dict(rng.sample(list(t.results.items()), len(t.results))), t.hands
        )
        for t in rng.sample(tables, len(tables))
    ]
    other_byes = {
        r: rng.sample(out, len(out)) for r, out in rng.sample(list(byes.items()), len(byes))
    }
    assert standings(other_players, other_tables, other_byes, scoring=scoring) == rows
