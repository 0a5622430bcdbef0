"""The ledger is a pure fold over the stored facts (docs/settlement.md): replay, void, errors."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace

import pytest

from scorekeeper.core.ledger import HandRecord, replay
from scorekeeper.core.rules.base import POT, InvalidHandError, Table
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.rules.troggen import TROGGEN

FOUR = ("A", "B", "C", "D")
FIVE = ("A", "B", "C", "D", "E")
OPTIONS = parse_options(TROGGEN.option_specs, {})

G1 = {"contract": "doppelt", "bidder": "A", "points": 41, "last_trick": "pagat_won"}
G2 = {"contract": "ohne", "bidder": "A", "points": 33, "last_trick": "king_lost"}
LOST = {"contract": "einfach", "bidder": "B", "points": 20}
WON_BY_C = {"contract": "einfach", "bidder": "C", "points": 50}


def records(
    *facts: Mapping[str, object], players: tuple[str, ...] = FOUR, void: tuple[int, ...] = ()
) -> list[HandRecord]:
    """Hands 1, 2, ... at one table, the deal passing on, the numbers in ``void`` voided."""
    return [
        HandRecord(i, Table(players, players[(i - 1) % len(players)]), f, void=i in void)
        for i, f in enumerate(facts, start=1)
    ]


def test_empty_evening() -> None:
    """Before the first hand nobody owes anything and the pot is empty."""
    ledger = replay(TROGGEN, OPTIONS, [])
    assert (ledger.hands, ledger.players, ledger.balances) == ((), (), {})
    assert ledger.common == {POT: 0}


def test_balances_are_running_totals() -> None:
    """Each hand shows the balances after it; the ledger's are the last hand's (G1, G2)."""
    ledger = replay(TROGGEN, OPTIONS, records(G1, G2))
    assert [h.balances for h in ledger.hands] == [
        {"A": 12, "B": -4, "C": -4, "D": -4},
        {"A": -6, "B": -6, "C": -6, "D": -6},
    ]
    assert [h.common for h in ledger.hands] == [{POT: 0}, {POT: 24}]
    assert ledger.balances == ledger.hands[-1].balances
    assert ledger.players == FOUR


def test_void_hand_has_no_effect() -> None:
    """A voided hand stays in the list with zero deltas, and later hands replay without it."""
    with_void = replay(TROGGEN, OPTIONS, records(LOST, G1, WON_BY_C, void=(2,)))
    without = replay(TROGGEN, OPTIONS, records(LOST, WON_BY_C))
    voided = with_void.hands[1]
    assert voided.record.void
    assert voided.hand is None
    assert voided.score.lines == ()
    assert voided.deltas == dict.fromkeys(FOUR, 0)
    assert voided.common == with_void.hands[0].common
    assert with_void.balances == without.balances
    assert with_void.hands[2].deltas == without.hands[1].deltas


def test_void_hand_is_not_validated() -> None:
    """Facts that no longer parse do not matter once their hand is voided."""
    broken = {"contract": "einfach", "bidder": "Zoe", "points": 99}
    ledger = replay(TROGGEN, OPTIONS, records(G1, broken, void=(2,)))
    assert ledger.balances == {"A": 12, "B": -4, "C": -4, "D": -4}


def test_invalid_stored_hand_names_its_number() -> None:
    """A stored hand that no longer fits is reported with its number and its fields."""
    broken = {"contract": "einfach", "bidder": "Zoe", "points": 40}
    with pytest.raises(InvalidHandError) as caught:
        replay(TROGGEN, OPTIONS, records(G1, G2, broken))
    assert caught.value.hand == 3
    assert list(caught.value.errors) == ["bidder"]


def test_editing_an_earlier_hand_can_break_a_later_kulanz() -> None:
    """Kulanz is bounded by the pot; shrinking the pot earlier makes hand 2 impossible."""
    kulanz = {"contract": "einfach", "bidder": "A", "partner": "B", "points": 40, "kulanz": 14}
    big_pot = {"contract": "doppelt", "bidder": "C", "partner": None, "points": 0}
    small_pot = {"contract": "einfach", "bidder": "C", "partner": None, "points": 0}
    ok = replay(TROGGEN, OPTIONS, records(big_pot, kulanz, players=FIVE))
    # The Bieterin's share is 24 - 6 = 18 after a pot of 16, 16 - 4 = 12 after one of 8.
    assert ok.hands[1].deltas["B"] == 5 + 14  # a third of 16 and the Kulanz
    with pytest.raises(InvalidHandError) as caught:
        replay(TROGGEN, OPTIONS, records(small_pot, kulanz, players=FIVE))
    assert caught.value.hand == 2
    assert list(caught.value.errors) == ["kulanz"]


def test_every_seated_player_has_a_delta() -> None:
    """Deltas list all players at the table, zeros included (docs/api.md)."""
    misere = {"contract": "misere", "points": {"A": 10, "B": 10, "C": 20, "D": 20}}
    ledger = replay(TROGGEN, OPTIONS, records(misere))
    assert ledger.hands[0].deltas == {"A": 0, "B": 0, "C": -4, "D": -4}


def test_players_who_leave_keep_their_balance_and_their_stakes_stay() -> None:
    """A seating change: B leaves his stake in the pot, E joins and plays for it."""
    first = HandRecord(1, Table(FOUR, "A"), LOST)
    seated = ("A", "C", "D", "E")
    second = HandRecord(2, Table(seated, "C"), WON_BY_C)
    ledger = replay(TROGGEN, OPTIONS, [first, second])
    assert ledger.players == ("A", "B", "C", "D", "E")
    assert ledger.balances == {"A": -2, "B": -3, "C": 6 + 3 - 1, "D": -2, "E": -1}
    assert set(ledger.hands[1].deltas) == set(seated)
    assert sum(ledger.balances.values()) + ledger.common[POT] == 0


def test_replay_is_deterministic_and_leaves_the_facts_alone() -> None:
    """Same facts, same ledger; the stored facts are read, never changed."""
    stored = records(G1, G2, LOST, WON_BY_C)
    before = copy.deepcopy([r.facts for r in stored])
    assert replay(TROGGEN, OPTIONS, stored) == replay(TROGGEN, OPTIONS, stored)
    assert [r.facts for r in stored] == before


def test_options_change_the_replay() -> None:
    """House rules are passed to every hand: here the defenders-only Pagat rule."""
    g7 = {
        "contract": "einfach",
        "bidder": "A",
        "partner": "B",
        "points": 40,
        "last_trick": "pagat_won",
    }
    defenders = parse_options(TROGGEN.option_specs, {"last_trick_payers": "defenders"})
    assert replay(TROGGEN, OPTIONS, records(g7, players=FIVE)).balances["B"] == -2
    assert replay(TROGGEN, defenders, records(g7, players=FIVE)).balances["B"] == 0


def test_a_hand_parsed_at_entry_is_played_without_parsing_again() -> None:
    """A write hands the ledger the facts it parsed (``HandRecord.parsed``): the ledger
    plays that value and does not read the stored form again. Here the two are made to
    differ on purpose, which a write never does (tests/core/rules/replays.py)."""
    (stored,) = records(G1)
    parsed = TROGGEN.parse_hand(LOST | {"bidder": "A"}, stored.table, OPTIONS)
    played = replay(TROGGEN, OPTIONS, [replace(stored, parsed=parsed)])
    assert played.hands[0].hand is parsed
    assert played.balances == replay(TROGGEN, OPTIONS, records(LOST | {"bidder": "A"})).balances
    assert played.balances != replay(TROGGEN, OPTIONS, [stored]).balances
