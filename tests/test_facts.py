"""An evening's facts as plain values (``operations.facts``): the stamp carried forward."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.operations.facts import EveningFacts, HandFact

START = datetime(2026, 11, 24, 19, tzinfo=UTC)


def evening(hands: tuple[HandFact, ...]) -> EveningFacts:
    """A casual evening holding ``hands``."""
    return EveningFacts(
        id=1,
        game="troggen",
        variant="troggen",
        title="",
        place="",
        date=None,
        options={},
        version=2,
        language="de",
        closed_at=None,
        hands_due=None,
        created_at=START,
        updated_at=START,
        seatings=(),
        hands=hands,
        player_ids={"Anna": 1},
    )


@st.composite
def hand_lists(draw: st.DrawFn) -> tuple[HandFact, ...]:
    """Hands numbered from 1, of any version, written at any time (a correction may be
    newer than the hands after it)."""
    count = draw(st.integers(0, 12))
    return tuple(
        HandFact(
            number,
            1,
            "Anna",
            {"contract": "einfach"},
            draw(st.integers(1, 4)),
            None,
            START + timedelta(seconds=draw(st.integers(0, 10_000))),
        )
        for number in range(1, count + 1)
    )


@given(hand_lists(), st.integers(0, 12), st.booleans())
def test_hands_added_give_the_stamp_of_the_whole_evening(
    hands: tuple[HandFact, ...], split: int, known: bool
) -> None:
    before = evening(hands[:split])
    if known:
        _ = before.stamp  # worked out before the hands are added: carried forward
    added = before.with_hands(hands[split:])
    assert added.hands == hands
    assert added.stamp == evening(hands).stamp
