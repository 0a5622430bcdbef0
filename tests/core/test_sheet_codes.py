"""The score sheet's short forms (``core/sheet_codes.py``; docs/presentation.md "The score
sheet as paper")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.core.sheet_codes import doppen_codes, game_codes, player_codes, troggu_codes

NAMES = st.lists(
    st.text(alphabet="AaBbÄäE 12-", min_size=1, max_size=8).filter(lambda n: n.strip()),
    min_size=3,
    max_size=8,
    unique_by=lambda n: n.casefold(),
)


@given(NAMES)
def test_every_player_gets_a_code_of_their_own(names: list[str]) -> None:
    codes = player_codes(names)
    assert len(set(codes.values())) == len(names)
    for seat, name in enumerate(names, start=1):
        code = codes[name]
        assert code in (str(seat), f"#{seat}") or "".join(name.split()).startswith(code)
        assert len(code) <= 3


def test_a_doppen_hand_everybody_passed_with_a_revoke() -> None:
    hand = doppen_codes({"contract": "pass", "penalties": [{"player": "Clara"}]}, {"Clara": "C"})
    assert (hand.contract, hand.who, hand.points, hand.extra) == ("\u2013", "", "", "R·C")


def test_an_announced_pagat_that_never_came_is_lost() -> None:
    facts = {
        "contract": "dreier",
        "soloist": "Anne",
        "valat": "soloist",
        "announced": {"pagat": "Anne", "valat": True},
        "kontra": {"pagat": 2, "valat": 1},
    }
    hand = doppen_codes(facts, {"Anne": "A"})
    assert hand.points == "aV+\u00d72"
    assert hand.extra == "aP\u2212·A\u00d74"


def test_a_troggu_misere_spreads_over_three_columns() -> None:
    facts = {"contract": "misere", "points": {"Anna": 30, "Beat": 22}, "tapp_points": 7}
    hand = troggu_codes(facts, {"Anna": "A", "Beat": "B"})
    assert (hand.contract, hand.who, hand.spread) == ("M", "A30 B22 T7", True)


def test_the_striche_have_their_own_legend() -> None:
    codes = [entry.code for entry in game_codes("troggu", keeps_tally=True).legend]
    assert "|" in codes
    assert "(\u22126) +59" not in codes
    assert "(\u22126) +59" in [entry.code for entry in game_codes("troggen").legend]
