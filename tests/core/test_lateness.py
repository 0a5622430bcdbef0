"""Which tables the organiser's board flags as late (core.lateness; docs/tournaments.md,
"The board")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scorekeeper.core.lateness import TableProgress, late

START = datetime(2026, 11, 28, 14, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def table(
    hands: int, last: float | None, *, due: int = 16, finished: bool = False
) -> TableProgress:
    return TableProgress(hands, due, finished, None if last is None else at(last))


def test_nothing_is_late_in_the_rounds_first_quarter_hour() -> None:
    tables = [table(3, 9), table(0, None), table(3, 10)]
    assert late(tables, START, at(14.9)) == [False, False, False]


def test_a_table_without_a_hand_is_late_once_quiet_since_the_start() -> None:
    tables = [table(4, 15), table(0, None), table(4, 16)]
    assert late(tables, START, at(16)) == [False, True, False]


def test_a_table_quiet_for_a_quarter_hour_is_late() -> None:
    tables = [table(8, 30), table(5, 14), table(8, 31)]
    assert late(tables, START, at(29.5)) == [False, True, False]
    assert late(tables, START, at(28)) == [False, False, False]


@pytest.mark.parametrize(
    ("hands", "is_late"),
    [(7, False), (6, False), (5, True), (2, True)],
)
def test_behind_means_two_hands_and_a_quarter_of_its_hands(hands: int, is_late: bool) -> None:
    """The median table has 9 of 16; a quarter is 4 hands: 4 behind is late, 3 not."""
    tables = [table(9, 20), table(9, 20), table(hands, 20)]
    assert late(tables, START, at(20))[2] is is_late


def test_a_small_table_one_hand_behind_is_not_late() -> None:
    """Three hands due: one behind is a third, but not two hands."""
    tables = [table(2, 20, due=3), table(2, 20, due=3), table(1, 20, due=3)]
    assert late(tables, START, at(20)) == [False, False, False]


def test_a_finished_table_is_never_late() -> None:
    tables = [table(16, 40, finished=True), table(16, 10, finished=True)]
    assert late(tables, START, at(90)) == [False, False]
    assert late([], START, at(90)) == []
