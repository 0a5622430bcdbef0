"""Who deals next (docs/troggen.md §9): the deal passes on in playing order, from the last hand
that stands, and survives players joining, leaving and sitting elsewhere."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.core.ledger import HandRecord
from scorekeeper.core.rules.base import Table
from scorekeeper.core.rules.rotation import DealtHand, Seating, next_table, seating_for, successor
from scorekeeper.operations.views import table_after

FOUR = ("Anna", "Bert", "Clara", "Dora")
FIVE = ("Anna", "Bert", "Clara", "Dora", "Emil")


def dealt(*dealers: str, void: tuple[int, ...] = ()) -> list[DealtHand]:
    """Hands 1, 2, ... dealt by ``dealers``; the numbers in ``void`` are voided."""
    return [DealtHand(i, d, void=i in void) for i, d in enumerate(dealers, start=1)]


@pytest.mark.parametrize(
    ("seatings", "hands", "dealer"),
    [
        pytest.param([Seating(1, FOUR)], [], "Anna", id="§9-first-hand-first-player"),
        pytest.param([Seating(1, FOUR, "Clara")], [], "Clara", id="§9-first-dealer-chosen"),
        pytest.param([Seating(1, FOUR, "Clara")], dealt("Clara"), "Dora", id="§9-passes-on"),
        pytest.param(
            [Seating(1, FOUR)], dealt("Anna", "Bert", "Clara", "Dora"), "Anna", id="§9-wraps-round"
        ),
        pytest.param(
            [Seating(1, FOUR)], dealt("Anna", "Dora"), "Anna", id="§9-follows-a-corrected-dealer"
        ),
        pytest.param(
            [Seating(1, FOUR)],
            dealt("Anna", "Bert", void=(2,)),
            "Bert",
            id="§9-undo-gives-the-deal-back",
        ),
        pytest.param(
            [Seating(1, FOUR)],
            dealt("Anna", "Bert", "Bert", void=(2, 3)),
            "Bert",
            id="§9-two-undos",
        ),
        pytest.param(
            [Seating(1, FOUR)],
            dealt("Anna", "Bert", "Bert", void=(2,)),
            "Clara",
            id="§9-void-in-the-middle-moves-nothing",
        ),
        pytest.param(
            [Seating(1, FOUR, "Clara")],
            dealt("Clara", void=(1,)),
            "Clara",
            id="§9-everything-voided-back-to-first-dealer",
        ),
        pytest.param(
            [Seating(1, FOUR)],
            dealt("Anna", void=(1,)),
            "Anna",
            id="§9-everything-voided-first-player",
        ),
    ],
)
def test_next_dealer(seatings: list[Seating], hands: list[DealtHand], dealer: str) -> None:
    """The proposal for the next hand; the forehand is the player after the dealer."""
    table = next_table(seatings, hands)
    assert table.dealer == dealer
    assert table.forehand == table.after(dealer)


SEATED_AGAIN = [Seating(1, FOUR, "Anna"), Seating(5, FIVE, "Clara")]


@pytest.mark.parametrize(
    ("hands", "players", "dealer"),
    [
        pytest.param(dealt("Anna", "Bert", "Clara"), FOUR, "Dora", id="before-the-change"),
        pytest.param(dealt("Anna", "Bert", "Clara", "Dora"), FIVE, "Clara", id="chosen-dealer"),
        pytest.param(
            dealt("Anna", "Bert", "Clara", "Dora", "Clara"), FIVE, "Dora", id="then-rotation"
        ),
        pytest.param(
            dealt("Anna", "Bert", "Clara", "Dora", "Clara", void=(5,)),
            FIVE,
            "Clara",
            id="undo-first-hand-after-change",
        ),
        pytest.param(
            dealt("Anna", "Bert", "Clara", "Dora", "Clara", "Dora", "Emil"),
            FIVE,
            "Anna",
            id="new-player-deals-in-turn",
        ),
    ],
)
def test_seating_change_with_dealer(
    hands: list[DealtHand], players: tuple[str, ...], dealer: str
) -> None:
    """A change of seats may name who deals its first hand; rotation resumes from there."""
    table = next_table(SEATED_AGAIN, hands)
    assert (table.players, table.dealer) == (players, dealer)


@pytest.mark.parametrize(
    ("now", "last_dealer", "dealer"),
    [
        pytest.param(
            ("Anna", "Clara", "Dora", "Emil"), "Anna", "Clara", id="next-left-dealer-still-seated"
        ),
        pytest.param(
            ("Anna", "Clara", "Dora", "Emil"), "Bert", "Clara", id="dealer-left-next-in-old-order"
        ),
        pytest.param(
            ("Anna", "Clara", "Dora", "Emil"), "Dora", "Emil", id="joiner-seated-after-dealer"
        ),
        pytest.param(("Anna", "Dora", "Emil", "Fritz"), "Bert", "Dora", id="dealer-and-next-left"),
        pytest.param(
            ("Dora", "Clara", "Bert", "Anna"), "Bert", "Anna", id="seats-swapped-new-order-counts"
        ),
    ],
)
def test_seating_change_without_dealer(now: tuple[str, ...], last_dealer: str, dealer: str) -> None:
    """Without a chosen dealer the deal passes on from the last dealer, in the new seats."""
    seatings = [Seating(1, FOUR, "Anna"), Seating(5, now)]
    hands = dealt("Anna", "Bert", "Clara", last_dealer)
    table = next_table(seatings, hands)
    assert (table.players, table.dealer) == (now, dealer)


def test_undo_across_a_seating_change_uses_the_old_table() -> None:
    """Voiding the last hand before a change gives its deal back, seated as now."""
    seatings = [Seating(1, FOUR, "Anna"), Seating(5, ("Anna", "Clara", "Dora", "Emil"))]
    hands = dealt("Anna", "Bert", "Clara", "Dora", void=(4,))
    assert next_table(seatings, hands).dealer == "Dora"
    hands = dealt("Anna", "Bert", "Clara", void=(3,))
    assert next_table(seatings, hands).players == FOUR


@pytest.mark.parametrize(
    ("dealer", "played_at", "now", "expected"),
    [
        pytest.param("Bert", FOUR, FOUR, "Clara", id="same-table"),
        pytest.param("Dora", FOUR, FOUR, "Anna", id="wraps"),
        pytest.param(
            "Bert", ("Anna", "Bert", "Clara"), ("Anna", "Clara", "Dora"), "Clara", id="dealer-left"
        ),
        pytest.param(
            "Clara", ("Anna", "Bert", "Clara"), ("Anna", "Clara", "Dora"), "Dora", id="dealer-stays"
        ),
        pytest.param(
            "Zeno", FOUR, ("Dora", "Anna", "Bert"), "Dora", id="unknown-dealer-first-seat"
        ),
    ],
)
def test_successor(
    dealer: str, played_at: tuple[str, ...], now: tuple[str, ...], expected: str
) -> None:
    """The next player in the old order who is still seated."""
    assert successor(dealer, played_at, now) == expected


@pytest.mark.parametrize(
    ("number", "from_hand"),
    [(1, 1), (4, 1), (5, 5), (8, 5), (9, 9), (40, 9)],
)
def test_seating_for(number: int, from_hand: int) -> None:
    """The latest seating that starts at or before the hand is in force."""
    seatings = [Seating(1, FOUR), Seating(5, FIVE), Seating(9, FOUR, "Dora")]
    assert seating_for(seatings, number).from_hand == from_hand


@given(
    dealers=st.lists(st.sampled_from(FOUR), max_size=12),
    voided=st.sets(st.integers(1, 12)),
    joined=st.integers(2, 13),
)
def test_the_table_after_reads_only_the_hands_up_to_the_last_that_stands(
    dealers: list[str], voided: set[int], joined: int
) -> None:
    seatings = (Seating(1, FOUR), Seating(joined, FIVE))
    hands = dealt(*dealers, void=tuple(voided))
    records = [
        HandRecord(h.number, Table(seating_for(seatings, h.number).players, h.dealer), {}, h.void)
        for h in hands
    ]
    assert table_after(seatings, reversed(records)) == next_table(seatings, hands)
