"""What an Undo may take back (core.undo; docs/recording.md "Undo")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scorekeeper.core.undo import (
    OFFERED_SECONDS,
    UNDO_SECONDS,
    StoredSave,
    seconds_offered,
    undo_refusal,
)

SAVED = datetime(2026, 11, 28, 20, 0, 0, tzinfo=UTC)


def later(seconds: float) -> datetime:
    return SAVED + timedelta(seconds=seconds)


def hands(*saves: tuple[int, int, bool]) -> list[StoredSave]:
    """Hands saved at SAVED: (number, version, void)."""
    return [StoredSave(n, v, void, SAVED) for n, v, void in saves]


def test_the_last_hand_just_saved_is_taken_back() -> None:
    assert undo_refusal(hands((1, 1, False), (2, 1, False)), 2, 1, later(3)) is None


def test_until_its_time_is_up_by_the_servers_clock() -> None:
    evening = hands((1, 1, False))
    assert undo_refusal(evening, 1, 1, later(UNDO_SECONDS)) is None
    refusal = undo_refusal(evening, 1, 1, later(UNDO_SECONDS + 1))
    assert refusal is not None
    assert "right after saving" in refusal.render()


def test_an_older_hands_receipt_takes_nothing_back() -> None:
    refusal = undo_refusal(hands((1, 1, False), (2, 1, False), (3, 1, False)), 1, 1, later(1))
    assert refusal is not None
    assert refusal.render().startswith("Hand 1 is not the last hand")


def test_voided_hands_after_it_do_not_count() -> None:
    assert undo_refusal(hands((1, 1, False), (2, 2, True)), 1, 1, later(1)) is None


@pytest.mark.parametrize(
    ("number", "version", "start"),
    [(1, 1, "Hand 1 was changed"), (2, 2, "Hand 2 was already taken back"), (9, 1, "There is no")],
)
def test_another_save_than_the_receipts_is_refused(number: int, version: int, start: str) -> None:
    refusal = undo_refusal(hands((1, 2, False), (2, 2, True)), number, version, later(1))
    assert refusal is not None
    assert refusal.render().startswith(start)


def test_the_receipt_offers_the_seconds_left_and_only_for_the_last_hand() -> None:
    evening = hands((1, 1, False), (2, 1, False), (3, 1, True))
    assert seconds_offered(evening, 2, later(0)) == OFFERED_SECONDS
    assert seconds_offered(evening, 2, later(OFFERED_SECONDS - 0.5)) == 0
    assert seconds_offered(evening, 2, later(OFFERED_SECONDS + 5)) == 0
    assert seconds_offered(evening, 1, later(0)) == 0
    assert seconds_offered(evening, 3, later(0)) == 0
    assert seconds_offered([], 1, later(0)) == 0
