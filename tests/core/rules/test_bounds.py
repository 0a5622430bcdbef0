"""Every list inside a hand body has a bound (docs/limits.md): at the bound it is read, one
over is refused, and a list of any length is refused with a short answer, quickly.

Doppen's revokes: at most three per player and hand. A Misère names each player once, so it
has at most as many entries as the table has players; Eisten-Stalden's declaring side is at
most as large as the rules allow at the table. The player lists of ``validation`` stop at
the game's largest table.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import pytest

from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import ErrorCollector, InvalidHandError, Table
from scorekeeper.core.rules.doppen_hand import (
    MAX_PENALTIES_PER_PLAYER,
    PassHand,
    parse_doppen_hand,
)
from scorekeeper.core.rules.eisten_stalden import EISTEN_STALDEN, TEAM_SIZES
from scorekeeper.core.rules.troggen import TROGGEN
from scorekeeper.core.rules.troggu import TROGGU_VISP
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.validation import NAME_COLUMN, NAME_LENGTH, name_problem, read_players

THREE = Table(("Anne", "Bert", "Clara"), dealer="Clara")
FOUR = Table(("Anne", "Bert", "Clara", "Dora"), dealer="Dora")
#: Far more than any bound; read in well under a second when refused.
HUGE = 100_000


def messages(raw: Mapping[str, object], table: Table = THREE) -> dict[str, list[str]]:
    """The rendered messages of a Doppen hand the rules refuse."""
    with pytest.raises(InvalidHandError) as caught:
        parse_doppen_hand(raw, table)
    return {k: [m.render() for m in ms] for k, ms in caught.value.errors.items()}


def revokes(*players: str) -> list[dict[str, str]]:
    """One revoke per name given."""
    return [{"player": p, "kind": "revoke"} for p in players]


def test_three_revokes_of_one_player_are_a_hand() -> None:
    hand = parse_doppen_hand({"contract": "pass", "penalties": revokes(*["Bert"] * 3)}, THREE)
    assert isinstance(hand, PassHand)
    assert [p.player for p in hand.penalties] == ["Bert"] * MAX_PENALTIES_PER_PLAYER


def test_a_fourth_revoke_of_one_player_is_refused_naming_them() -> None:
    body = {"contract": "pass", "penalties": revokes(*["Bert"] * 4, "Anne")}
    assert messages(body) == {"penalties": ["Bert can be fined for at most 3 revokes in one hand."]}


def test_a_played_hand_counts_revokes_the_same_way() -> None:
    body = {
        "contract": "dreier",
        "soloist": "Anne",
        "points": 41,
        "penalties": revokes("Clara", "Clara", "Clara", "Clara"),
    }
    assert messages(body)["penalties"] == ["Clara can be fined for at most 3 revokes in one hand."]
    body["penalties"] = revokes("Clara", "Clara", "Clara", "Bert", "Bert", "Bert")
    assert len(parse_doppen_hand(body, THREE).penalties) == 6


def test_every_player_at_their_most_is_a_hand_at_four() -> None:
    """At four the dealer sits out and cannot revoke: three players, three revokes each."""
    body = {"contract": "pass", "penalties": revokes(*["Anne", "Bert", "Clara"] * 3)}
    assert len(parse_doppen_hand(body, FOUR).penalties) == 9


@pytest.mark.alone  # a time limit
@pytest.mark.parametrize("count", [3 * 3 + 1, HUGE])
def test_a_longer_list_than_every_players_most_is_refused_unread(count: int) -> None:
    """A hundred thousand revokes once took a score sheet three minutes: now one message."""
    body = {"contract": "pass", "penalties": revokes(*["Bert"] * count)}
    started = time.perf_counter()
    errors = messages(body)
    assert time.perf_counter() - started < 1
    assert errors == {"penalties": ["Each player can be fined for at most 3 revokes in one hand."]}


def test_a_list_of_anything_that_long_is_refused_unread() -> None:
    errors = messages({"contract": "pass", "penalties": [None] * HUGE})
    assert errors == {"penalties": ["Each player can be fined for at most 3 revokes in one hand."]}


# -- Misère points and the declaring side --------------------------------------------------

TROGGEN_FOUR = Table(("A", "B", "C", "D"), dealer="D")


@pytest.mark.parametrize(
    ("variant", "table"),
    [(TROGGEN, TROGGEN_FOUR), (TROGGU_VISP, Table(("A", "B", "C", "D"), dealer="D"))],
    ids=["troggen", "troggu"],
)
def test_a_misere_with_one_entry_too_many_names_it(variant: Variant, table: Table) -> None:
    points: dict[str, object] = {"A": 10, "B": 20, "C": 20, "D": 10, "Zoe": 0}
    with pytest.raises(InvalidHandError) as caught:
        variant.parse_hand({"contract": "misere", "points": points}, table, {})
    errors = {k: [m.render() for m in ms] for k, ms in caught.value.errors.items()}
    assert errors == {
        "points": [
            "Enter the points of the 4 players at the table, no more.",
            "Zoe is not at the table.",
        ]
    }


@pytest.mark.alone  # a time limit
def test_a_misere_of_any_length_gets_a_short_answer() -> None:
    points = {f"Guest {i}": 0 for i in range(HUGE)}
    started = time.perf_counter()
    with pytest.raises(InvalidHandError) as caught:
        TROGGEN.parse_hand({"contract": "misere", "points": points}, TROGGEN_FOUR, {})
    assert time.perf_counter() - started < 1
    # The count, and the first entry too many (all five unknown here).
    assert len(caught.value.errors["points"]) <= 1 + TROGGEN_FOUR.size + 1


def test_a_misere_of_every_player_once_is_read() -> None:
    hand = TROGGEN.parse_hand(
        {"contract": "misere", "points": {"A": 10, "B": 20, "C": 21, "D": 11}}, TROGGEN_FOUR, {}
    )
    assert dict(hand.points) == {"A": 10, "B": 20, "C": 21, "D": 11}  # type: ignore[union-attr]


@pytest.mark.parametrize("size", sorted(TEAM_SIZES))
def test_the_largest_declaring_side_is_read_and_one_more_refused(size: int) -> None:
    players = tuple("ABCDEFGH"[:size])
    table = Table(players, dealer=players[0])
    most = max(TEAM_SIZES[size])
    team = list(players[:most])
    hand = EISTEN_STALDEN.parse_hand({"team": team, "points": 61}, table, {})
    assert len(hand.team) == most
    with pytest.raises(InvalidHandError) as caught:
        EISTEN_STALDEN.parse_hand({"team": list(players[: most + 1]), "points": 61}, table, {})
    [message] = caught.value.errors["team"]
    assert f"not {most + 1}" in message.render()


def test_a_declaring_side_of_any_length_gets_one_message() -> None:
    table = Table(("A", "B", "C", "D"), dealer="A")
    with pytest.raises(InvalidHandError) as caught:
        EISTEN_STALDEN.parse_hand({"team": ["A"] * HUGE, "points": 61}, table, {})
    assert [m.render() for m in caught.value.errors["team"]] == [
        f"The declaring side at 4 players has 2, not {HUGE}."
    ]


# -- players and names ---------------------------------------------------------------------


def test_a_name_of_forty_characters_is_one_and_of_forty_one_is_not() -> None:
    assert NAME_LENGTH == 40
    assert name_problem("A" * NAME_LENGTH) is None
    problem = name_problem("A" * (NAME_LENGTH + 1))
    assert problem is not None
    assert problem.render() == "Names can be at most 40 characters long."


def test_a_name_folding_longer_than_its_column_is_refused() -> None:
    """Forty "ß" fold to eighty "ss", which fit the column; the ligature "ﷺ" stands for
    eighteen characters (docs/limits.md "Names that look alike")."""
    assert name_problem("ß" * NAME_LENGTH) is None
    assert name_problem("\ufdfa" * (NAME_COLUMN // 18 + 1)) is not None


def test_a_list_of_players_longer_than_the_largest_table_is_one_message() -> None:
    variant = get_variant("troggen", None)
    errors = ErrorCollector()
    names = read_players(["x" * 1000] * HUGE, variant, errors)
    assert names == ()
    assert [m.render() for m in errors.errors["players"]] == [
        f"This game is played by 4 to 6 players, not {HUGE}."
    ]


def test_players_already_seated_keep_a_longer_name() -> None:
    """A name stored before the limit was lowered stays usable at its evening's table."""
    variant = get_variant("troggen", None)
    old = "Anna-Barbara Zurbriggen-Imboden von Stalden-Ried"
    assert NAME_LENGTH < len(old) <= NAME_COLUMN
    errors = ErrorCollector()
    read_players([old, "Bert", "Clara", "Dora"], variant, errors)
    assert "players" in errors.errors
    errors = ErrorCollector()
    names = read_players([old.upper(), "Bert", "Clara", "Dora"], variant, errors, seated=[old])
    assert not errors
    assert names[0] == old.upper()
    errors = ErrorCollector()
    read_players(["Z" * (NAME_COLUMN + 1), "Bert", "Clara", "Dora"], variant, errors, seated=[])
    assert "players" in errors.errors
