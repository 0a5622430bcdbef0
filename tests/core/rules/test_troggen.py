"""Troggen scoring against docs/troggen.md: the worked examples, then one table per rule clause.

Test ids cite the example (G1, G2...) or the clause (§3, §5...) they check, so a failure
points at the sentence of the spec that the code no longer follows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pytest

from scorekeeper.core.ledger import HandRecord, HandResult, Ledger, replay
from scorekeeper.core.rules.base import POT, InvalidHandError, Table
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.rules.troggen import TROGGEN, BidHand, Contract, LastTrick, MisereHand

FOUR = ("A", "B", "C", "D")
FIVE = ("A", "B", "C", "D", "E")
SIX = ("A", "B", "C", "D", "E", "F")
SIZES = {4: FOUR, 5: FIVE, 6: SIX}

Facts = dict[str, object]


def options(**chosen: str) -> dict[str, str]:
    """The evening's options: the defaults plus the house rules a test chooses."""
    return parse_options(TROGGEN.option_specs, chosen)


def play(players: tuple[str, ...], hands: Sequence[Facts], **chosen: str) -> Ledger:
    """Replay ``hands`` at one table, the deal passing on by one each hand."""
    records = [
        HandRecord(i + 1, Table(players, players[i % len(players)]), facts)
        for i, facts in enumerate(hands)
    ]
    return replay(TROGGEN, options(**chosen), records)


def last(players: tuple[str, ...], hands: Sequence[Facts], **chosen: str) -> HandResult:
    """The result of the last of ``hands``."""
    return play(players, hands, **chosen).hands[-1]


def parse(players: tuple[str, ...], raw: Mapping[str, object], **chosen: str) -> object:
    """Validate one hand's facts as entered at a table dealt by the last player."""
    return TROGGEN.parse_entry(raw, Table(players, players[-1]), options(**chosen))


def refused(players: tuple[str, ...], raw: Mapping[str, object]) -> dict[str, list[str]]:
    """The rendered messages per field of a hand the rules refuse."""
    with pytest.raises(InvalidHandError) as caught:
        parse(players, raw)
    return {k: [m.render() for m in ms] for k, ms in caught.value.errors.items()}


def bid(contract: str, bidder: str, points: object, **more: object) -> Facts:
    """The facts of a bid hand."""
    return {"contract": contract, "bidder": bidder, "points": points, **more}


def misere(**points: int) -> Facts:
    """The facts of a Misère."""
    return {"contract": "misere", "points": points}


# -- worked examples ------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One hand of a worked example: its facts, its result, and the sheet's row after it."""

    facts: Facts
    deltas: dict[str, int]
    balances: dict[str, int]
    pot: int


G1 = Step(
    bid("doppelt", "A", 41, last_trick="pagat_won"),
    deltas={"A": 12, "B": -4, "C": -4, "D": -4},
    balances={"A": 12, "B": -4, "C": -4, "D": -4},
    pot=0,
)
G2 = Step(
    bid("ohne", "A", 33, last_trick="king_lost"),
    deltas={"A": -18, "B": -2, "C": -2, "D": -2},
    balances={"A": -6, "B": -6, "C": -6, "D": -6},
    pot=24,
)
G5_H1 = Step(
    bid("doppelt", "A", 30, partner="D"),
    deltas={"A": -8, "B": -2, "C": -2, "D": -2, "E": -2},
    balances={"A": -8, "B": -2, "C": -2, "D": -2, "E": -2},
    pot=16,
)
G5_H2 = Step(
    misere(A=8, B=20, C=12, D=15, E=12),
    deltas={"A": 0, "B": -4, "C": -2, "D": -2, "E": -2},
    balances={"A": -8, "B": -6, "C": -4, "D": -4, "E": -4},
    pot=26,
)
G5_H3 = Step(
    bid("einfach", "C", 37, partner="E"),
    deltas={"A": -1, "B": -1, "C": 20, "D": -1, "E": 9},
    balances={"A": -9, "B": -7, "C": 16, "D": -5, "E": 5},
    pot=0,
)
G5_H3_FLOOR = Step(
    G5_H3.facts,
    deltas={"A": -1, "B": -1, "C": 21, "D": -1, "E": 8},
    balances={"A": -9, "B": -7, "C": 17, "D": -5, "E": 4},
    pot=0,
)
G7 = Step(
    bid("einfach", "A", 40, partner="B", last_trick="pagat_won"),
    deltas={"A": 11, "B": -2, "C": -3, "D": -3, "E": -3},
    balances={"A": 11, "B": -2, "C": -3, "D": -3, "E": -3},
    pot=0,
)

WORKED_EXAMPLES = [
    pytest.param(FOUR, [G1], {}, id="G1"),
    pytest.param(FOUR, [G1, G2], {}, id="G2"),
    pytest.param(FIVE, [G5_H1, G5_H2, G5_H3], {}, id="G5-nearest"),
    pytest.param(FIVE, [G5_H1, G5_H2, G5_H3_FLOOR], {"partner_rounding": "floor"}, id="G5-floor"),
    pytest.param(FIVE, [G7], {}, id="G7"),
]


@pytest.mark.parametrize(("players", "steps", "chosen"), WORKED_EXAMPLES)
def test_worked_example(
    players: tuple[str, ...], steps: list[Step], chosen: dict[str, str]
) -> None:
    """Every hand of the example gives the spec's deltas, sheet row and pot."""
    ledger = play(players, [s.facts for s in steps], **chosen)
    for step, result in zip(steps, ledger.hands, strict=True):
        assert result.deltas == step.deltas
        assert result.balances == step.balances
        assert result.common == {POT: step.pot}
    assert ledger.balances == steps[-1].balances
    assert sum(ledger.balances.values()) + ledger.common[POT] == 0


@pytest.mark.parametrize(("players", "steps", "chosen"), WORKED_EXAMPLES)
def test_worked_example_lines_explain_the_deltas(
    players: tuple[str, ...], steps: list[Step], chosen: dict[str, str]
) -> None:
    """The itemised lines add up to each hand's deltas and to the pot's change."""
    ledger = play(players, [s.facts for s in steps], **chosen)
    pot_before = 0
    for result in ledger.hands:
        total: dict[str, int] = {}
        for line in result.score.lines:
            amounts = line.amounts()
            assert sum(amounts.values()) == 0, line.label.text
            for account, amount in amounts.items():
                total[account] = total.get(account, 0) + amount
        assert {p: total.get(p, 0) for p in players} == result.deltas
        assert total.get(POT, 0) == result.common[POT] - pot_before
        pot_before = result.common[POT]


def test_g1_lines_are_stakes_pot_and_pagat() -> None:
    """G1 explains itself as stakes, the pot won and the Pagat (docs/troggen.md §4, §6)."""
    result = last(FOUR, [G1.facts])
    lines = {line.label.text: line.amounts() for line in result.score.lines}
    assert lines == {
        "Stakes": {"A": -6, "B": -2, "C": -2, "D": -2, POT: 12},
        "Pot won": {POT: -12, "A": 12},
        "Pagat won in the last trick": {"A": 6, "B": -2, "C": -2, "D": -2},
    }


def test_g5_partner_share_is_stake_plus_third() -> None:
    """G5 H3: the partner E takes 1 + 9 = 10 and the Bieterin C the other 24 (§5 A)."""
    result = play(FIVE, [G5_H1.facts, G5_H2.facts, G5_H3.facts]).hands[-1]
    lines = {line.label.text: line.amounts() for line in result.score.lines}
    assert lines["Pot won"] == {POT: -24, "C": 24}
    assert lines["Partner's share"] == {POT: -10, "E": 10}


# -- §3 stakes ------------------------------------------------------------------------

STAKES = [
    pytest.param(contract, n, s * (n - 1), s, 2 * s * (n - 1), id=f"§3-{contract}-{n}p")
    for contract, s in (("einfach", 1), ("doppelt", 2), ("ohne", 4), ("gegen", 6))
    for n in (4, 5, 6)
]


@pytest.mark.parametrize(("contract", "n", "bidder_stake", "other_stake", "pot"), STAKES)
def test_stakes_per_contract_and_table_size(
    contract: str, n: int, bidder_stake: int, other_stake: int, pot: int
) -> None:
    """A lost hand leaves exactly the stakes of the §3 table in the pot."""
    partner = {} if n == 4 else {"partner": None}
    result = last(SIZES[n], [bid(contract, "B", 20, **partner)])
    assert result.deltas == {p: -other_stake for p in SIZES[n]} | {"B": -bidder_stake}
    assert result.common == {POT: pot}


def test_stakes_table_values_from_the_spec() -> None:
    """Spot checks against the printed §3 table, not just its formula."""
    assert last(FIVE, [bid("ohne", "A", 0, partner=None)]).deltas["A"] == -16
    assert last(SIX, [bid("gegen", "A", 0, partner=None)]).common[POT] == 60
    assert last(FOUR, [bid("doppelt", "A", 0)]).common[POT] == 12


# -- §2 threshold ---------------------------------------------------------------------

THRESHOLDS = [
    pytest.param(rule, n, points, won, id=f"§2-{rule}-{n}p-{points}-{'won' if won else 'lost'}")
    for rule, needed in (("fixed-35", {4: 35, 5: 35, 6: 35}), ("half-up", {4: 35, 5: 34, 6: 32}))
    for n in (4, 5, 6)
    for points, won in ((needed[n], True), (needed[n] - 1, False))
]


@pytest.mark.parametrize(("rule", "n", "points", "won"), THRESHOLDS)
def test_threshold(rule: str, n: int, points: int, won: bool) -> None:
    """Fixed 35 at every size, or half the total rounded up: 35, 34, 32."""
    partner = {} if n == 4 else {"partner": None}
    result = last(SIZES[n], [bid("einfach", "A", points, **partner)], threshold=rule)
    assert (result.common[POT] == 0) is won
    assert result.deltas["A"] == (n - 1 if won else -(n - 1))


def test_35_to_35_at_four_is_a_bidder_win() -> None:
    """§2: "35 : 35 with 4 players is a bidder win"."""
    assert last(FOUR, [bid("einfach", "A", 35)]).deltas["A"] == 3


# -- §5 sharing with the partner ------------------------------------------------------

#: Hands that leave a known carry-over C in the pot at five players.
CARRY_OVERS: dict[int, list[Facts]] = {
    0: [],
    4: [misere(A=20, B=10, C=10, D=10, E=10)],
    6: [misere(A=20, B=15, C=10, D=10, E=10)],
    8: [bid("einfach", "C", 10, partner="D")],
    26: [G5_H1.facts, G5_H2.facts],
}

PARTNER_THIRDS = [
    pytest.param(carry, rule, third, id=f"§5-C{carry}-mod{carry % 3}-{rule}")
    for carry, nearest, floor in ((0, 0, 0), (4, 1, 1), (6, 2, 2), (8, 3, 2), (26, 9, 8))
    for rule, third in (("nearest", nearest), ("floor", floor))
]


@pytest.mark.parametrize(("carry", "rule", "third"), PARTNER_THIRDS)
def test_partner_third_of_the_carry_over(carry: int, rule: str, third: int) -> None:
    """The partner gets his stake back plus a third of C; rounding differs when C mod 3 = 2."""
    hands = [*CARRY_OVERS[carry], bid("einfach", "A", 40, partner="B")]
    ledger = play(FIVE, hands, partner_rounding=rule)
    assert (ledger.hands[-2].common[POT] if carry else 0) == carry
    result = ledger.hands[-1]
    assert result.deltas["B"] == third  # staked 1, got 1 + third back
    assert result.deltas["A"] == carry + 8 - 1 - third - 4
    assert result.common == {POT: 0}


@pytest.mark.parametrize(
    "players", [pytest.param(FIVE, id="§5-own-king-5p"), pytest.param(SIX, id="§5-own-king-6p")]
)
def test_no_sharing_without_partner(players: tuple[str, ...]) -> None:
    """A Bieterin who called her own king takes the whole pot, carry-over included."""
    hands = [bid("doppelt", "B", 10, partner="C"), bid("einfach", "A", 40, partner=None)]
    ledger = play(players, hands)
    n = len(players)
    carry = 4 * (n - 1)
    assert ledger.hands[-1].deltas["A"] == carry + (n - 1)
    assert all(ledger.hands[-1].deltas[p] == -1 for p in players if p != "A")


def test_six_players_partner_share() -> None:
    """Six players: stakes 5 and 1 each; with C = 10 the partner gets 1 + 3."""
    hands = [bid("einfach", "D", 0, partner="E"), bid("einfach", "A", 40, partner="B")]
    result = play(SIX, hands).hands[-1]
    assert result.deltas == {"A": 20 - 4 - 5, "B": 3, "C": -1, "D": -1, "E": -1, "F": -1}


KULANZ = [
    pytest.param(0, {"A": 7 - 4, "B": 0}, id="§5-kulanz-none"),
    pytest.param(2, {"A": 7 - 4 - 2, "B": 2}, id="§5-kulanz-2"),
    pytest.param(7, {"A": -4, "B": 7}, id="§5-kulanz-all-of-her-share"),
]


@pytest.mark.parametrize(("kulanz", "deltas"), KULANZ)
def test_kulanz_passes_jetons_to_the_partner(kulanz: int, deltas: dict[str, int]) -> None:
    """Kulanz moves jetons from the Bieterin's share to her partner, up to all of it."""
    result = last(FIVE, [bid("einfach", "A", 40, partner="B", kulanz=kulanz)])
    assert {p: result.deltas[p] for p in ("A", "B")} == deltas
    kulanz_lines = [ln for ln in result.score.lines if ln.label.text == "Kulanz"]
    assert [ln.amounts() for ln in kulanz_lines] == (
        [{"A": -kulanz, "B": kulanz}] if kulanz else []
    )


def test_kulanz_larger_than_the_share_is_refused() -> None:
    """§5: Kulanz comes out of the Bieterin's share (7 here), so 8 cannot be given."""
    with pytest.raises(InvalidHandError) as caught:
        play(FIVE, [bid("einfach", "A", 40, partner="B", kulanz=8)])
    assert list(caught.value.errors) == ["kulanz"]
    assert "at most 7" in caught.value.errors["kulanz"][0].render()
    assert caught.value.hand == 1


def test_kulanz_on_a_lost_hand_is_refused() -> None:
    """A lost hand leaves the pot on the table, so there is no share to give from."""
    with pytest.raises(InvalidHandError) as caught:
        play(FIVE, [bid("einfach", "A", 20, partner="B", kulanz=1)])
    assert list(caught.value.errors) == ["kulanz"]


def test_kulanz_without_partner_is_refused() -> None:
    """Kulanz goes to the partner; a hand without one cannot have it."""
    errors = refused(FIVE, bid("einfach", "A", 40, partner=None, kulanz=1))
    assert list(errors) == ["kulanz"]
    assert "partner" in errors["kulanz"][0]


# -- §6 Pagat or King in the last trick -------------------------------------------------


def last_trick_case(event: str, payers: str, outcome: str) -> object:
    """One row of the §6 table: who pays whom 2 for ``event`` under the ``payers`` option."""
    others = ("B", "C", "D", "E") if payers == "all-others" else ("C", "D", "E")
    sign = 1 if event.endswith("_won") else -1
    expected = {"A": sign * 2 * len(others)} | {p: -sign * 2 for p in others}
    return pytest.param(
        event, payers, outcome == "won", expected, id=f"§6-{event}-{payers}-hand-{outcome}"
    )


LAST_TRICK = [
    last_trick_case(event, payers, outcome)
    for event in ("pagat_won", "pagat_lost", "king_won", "king_lost")
    for payers in ("all-others", "defenders")
    for outcome in ("won", "lost")
]


@pytest.mark.parametrize(("event", "payers", "hand_won", "expected"), LAST_TRICK)
def test_last_trick_payments(
    event: str, payers: str, hand_won: bool, expected: dict[str, int]
) -> None:
    """2 jetons each, directly between players, whether or not the hand was won."""
    facts = bid("einfach", "A", 40 if hand_won else 20, partner="B", last_trick=event)
    result = last(FIVE, [facts], last_trick_payers=payers)
    direct = [ln for ln in result.score.lines if "last trick" in ln.label.text]
    assert len(direct) == 1
    assert direct[0].amounts() == expected
    assert POT not in direct[0].amounts()
    assert (result.common[POT] == 0) is hand_won


@pytest.mark.parametrize("payers", ["all-others", "defenders"])
def test_last_trick_without_partner_everyone_else_pays(payers: str) -> None:
    """§6 with no partner: every other player is a defender under either option."""
    facts = bid("einfach", "A", 40, partner=None, last_trick="king_won")
    result = last(FIVE, [facts], last_trick_payers=payers)
    assert result.deltas == {"A": 4 + 8, "B": -3, "C": -3, "D": -3, "E": -3}


def test_no_last_trick_event_no_line() -> None:
    """§6: "none" (partner's trick, a defender's Pagat...) pays nothing."""
    result = last(FIVE, [bid("einfach", "A", 40, partner="B", last_trick="none")])
    assert [ln.label.text for ln in result.score.lines] == ["Stakes", "Pot won", "Partner's share"]


# -- §7 Misère ------------------------------------------------------------------------

MISERE_PAYMENTS = [
    pytest.param(FOUR, {"A": 10, "B": 20, "C": 21, "D": 11}, {"C": 4, "B": 2, "D": 2}, id="§7-4p"),
    pytest.param(
        FIVE,
        {"A": 8, "B": 20, "C": 12, "D": 15, "E": 11},
        {"B": 4, "C": 2, "D": 2, "E": 2},
        id="§7-5p-every-in-between-pays-2",
    ),
    pytest.param(
        SIX,
        {"A": 5, "B": 8, "C": 10, "D": 12, "E": 14, "F": 15},
        {"F": 4, "B": 2, "C": 2, "D": 2, "E": 2},
        id="§7-6p-every-in-between-pays-2",
    ),
    pytest.param(
        FIVE,
        {"A": 8, "B": 8, "C": 20, "D": 15, "E": 12},
        {"C": 4, "D": 2, "E": 2},
        id="§7-tie-for-lowest-all-pay-0",
    ),
    pytest.param(
        FIVE,
        {"A": 8, "B": 20, "C": 20, "D": 10, "E": 9},
        {"B": 4, "C": 4, "D": 2, "E": 2},
        id="§7-tie-for-highest-all-pay-4",
    ),
    pytest.param(
        FOUR, {"A": 10, "B": 10, "C": 20, "D": 20}, {"C": 4, "D": 4}, id="§7-two-scores-only"
    ),
    pytest.param(FOUR, {"A": 15, "B": 15, "C": 15, "D": 15}, {}, id="§7-all-tied-nobody-pays"),
    pytest.param(SIX, {p: 10 for p in SIX}, {}, id="§7-all-tied-nobody-pays-6p"),
]


@pytest.mark.parametrize(("players", "points", "paid"), MISERE_PAYMENTS)
def test_misere_payments(
    players: tuple[str, ...], points: dict[str, int], paid: dict[str, int]
) -> None:
    """Lowest pays 0, highest 4, everyone in between 2, all into the pot."""
    result = last(players, [misere(**points)])
    assert result.deltas == {p: -paid.get(p, 0) for p in players}
    assert result.common == {POT: sum(paid.values())}


def test_misere_all_tied_says_so() -> None:
    """§7 R: the all-tied Misère is still explained on the sheet."""
    result = last(FOUR, [misere(A=15, B=15, C=15, D=15)])
    assert [ln.label.text for ln in result.score.lines] == ["Misère: all tied, nobody pays"]


def test_misere_winner_does_not_take_the_pot() -> None:
    """§4.4: Misère payments add to the pot already on the table; nobody takes it."""
    ledger = play(FOUR, [bid("doppelt", "A", 20), misere(A=10, B=20, C=21, D=11)])
    assert ledger.hands[-1].common == {POT: 12 + 8}
    assert ledger.hands[-1].deltas["A"] == 0


# -- §7/§9 Misère validation ----------------------------------------------------------

MISERE_REFUSED = [
    pytest.param(FOUR, {"A": 20, "B": 20, "C": 20}, "points", "D", id="§9-misere-player-missing"),
    pytest.param(
        FOUR,
        {"A": 15, "B": 15, "C": 15, "D": 15, "Zoe": 0},
        "points",
        "Zoe is not at the table",
        id="§9-misere-unknown-player",
    ),
    pytest.param(
        FOUR,
        {"A": -1, "B": 20, "C": 20, "D": 20},
        "points.A",
        "between 0 and 70",
        id="§9-misere-below-zero",
    ),
    pytest.param(
        FIVE,
        {"A": 68, "B": 0, "C": 0, "D": 0, "E": 0},
        "points.A",
        "between 0 and 67",
        id="§9-misere-above-total",
    ),
    pytest.param(
        FOUR,
        {"A": "many", "B": 20, "C": 20, "D": 20},
        "points.A",
        "whole number",
        id="§9-misere-not-a-number",
    ),
    pytest.param(
        FOUR,
        {"A": True, "B": 20, "C": 20, "D": 20},
        "points.A",
        "whole number",
        id="§9-misere-bool-is-not-a-number",
    ),
    pytest.param(
        FOUR,
        {"A": 11, "B": 11, "C": 11, "D": 11},
        "points",
        "between 45 and 71",
        id="§9-misere-sum-below-4p",
    ),
    pytest.param(
        FOUR,
        {"A": 18, "B": 18, "C": 18, "D": 18},
        "points",
        "add up to 72",
        id="§9-misere-sum-above-4p",
    ),
    pytest.param(
        FIVE,
        {"A": 13, "B": 10, "C": 10, "D": 10, "E": 10},
        "points",
        "between 54 and 68",
        id="§9-misere-sum-below-5p",
    ),
    pytest.param(
        FIVE,
        {"A": 29, "B": 10, "C": 10, "D": 10, "E": 10},
        "points",
        "between 54 and 68",
        id="§9-misere-sum-above-5p",
    ),
    pytest.param(
        SIX,
        {"A": 3, "B": 7, "C": 7, "D": 7, "E": 7, "F": 7},
        "points",
        "between 39 and 65",
        id="§9-misere-sum-below-6p",
    ),
    pytest.param(
        FOUR,
        {"A": 10, "a": 20, "B": 20, "C": 10, "D": 10},
        "points",
        "A is given more than once",
        id="§9-misere-same-player-twice",
    ),
]


@pytest.mark.parametrize(("players", "points", "field", "text"), MISERE_REFUSED)
def test_misere_refused(
    players: tuple[str, ...], points: dict[str, object], field: str, text: str
) -> None:
    """Impossible Misère counts are refused on the field to fix, saying why."""
    errors = refused(players, {"contract": "misere", "points": points})
    assert field in errors
    assert any(text in m for m in errors[field]), errors


@pytest.mark.parametrize(
    ("players", "total"),
    [
        pytest.param(FOUR, 45, id="§9-misere-lowest-sum-4p"),
        pytest.param(FOUR, 71, id="§9-misere-highest-sum-4p"),
        pytest.param(FIVE, 54, id="§9-misere-lowest-sum-5p"),
        pytest.param(FIVE, 68, id="§9-misere-highest-sum-5p"),
        pytest.param(SIX, 39, id="§9-misere-lowest-sum-6p"),
        pytest.param(SIX, 65, id="§9-misere-highest-sum-6p"),
    ],
)
def test_misere_sum_range_bounds_are_accepted(players: tuple[str, ...], total: int) -> None:
    """The ±1 for the Excuse and the fullest talon are still possible (§2, §9)."""
    each = total // len(players)
    points = dict.fromkeys(players, each) | {players[0]: total - each * (len(players) - 1)}
    hand = parse(players, {"contract": "misere", "points": points})
    assert isinstance(hand, MisereHand)
    assert sum(v for _, v in hand.points) == total


def test_misere_names_are_matched_like_at_the_table() -> None:
    """Case and spaces do not matter; the hand keeps the table's spelling and order."""
    hand = parse(FOUR, misere(**{" d ": 10, "c": 20, "b": 21, "a": 11}))
    assert hand == MisereHand((("A", 11), ("B", 21), ("C", 20), ("D", 10)))


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        pytest.param({"contract": "misere"}, "points", id="§9-misere-no-points"),
        pytest.param({"contract": "misere", "points": [10, 20]}, "points", id="§9-misere-list"),
        pytest.param(
            {"contract": "misere", "points": dict.fromkeys(FOUR, 15), "talon_points": 25},
            "talon_points",
            id="§9-misere-talon-above-24",
        ),
        pytest.param(
            {"contract": "misere", "points": dict.fromkeys(FOUR, 15), "bidder": "A"},
            "bidder",
            id="§9-misere-unknown-field",
        ),
    ],
)
def test_misere_shape_refused(raw: dict[str, object], field: str) -> None:
    """A Misère needs a points object and nothing a bid hand has."""
    assert field in refused(FOUR, raw)


def test_misere_talon_at_five_holds_at_most_12() -> None:
    """Five players leave 3 talon cards: 12 card points at most (§7)."""
    points = {"A": 11, "B": 11, "C": 11, "D": 11, "E": 11}
    assert "talon_points" in refused(FIVE, misere(**points) | {"talon_points": 13})
    assert isinstance(parse(FIVE, misere(**points) | {"talon_points": 12}), MisereHand)


@pytest.mark.parametrize(
    ("players", "points", "talon", "warned"),
    [
        pytest.param(FOUR, {"A": 10, "B": 20, "C": 21, "D": 11}, 8, False, id="§9-talon-matches"),
        pytest.param(FOUR, {"A": 10, "B": 20, "C": 21, "D": 11}, 4, True, id="§9-talon-mismatch"),
        pytest.param(FIVE, dict.fromkeys(FIVE, 13), 2, False, id="§9-talon-matches-5p"),
        pytest.param(FIVE, dict.fromkeys(FIVE, 13), 0, True, id="§9-talon-off-by-excuse-5p"),
        pytest.param(FOUR, {"A": 10, "B": 20, "C": 21, "D": 11}, None, False, id="§9-no-talon"),
    ],
)
def test_misere_plausibility_warning(
    players: tuple[str, ...], points: dict[str, int], talon: int | None, warned: bool
) -> None:
    """With the talon's points given, the sum must match exactly or the table confirms."""
    raw: Facts = misere(**points) | ({} if talon is None else {"talon_points": talon})
    table = Table(players, players[0])
    hand = TROGGEN.parse_hand(raw, table, options())
    warnings = TROGGEN.warnings(hand, table, options())
    if not warned:
        assert warnings == {}
        return
    assert list(warnings) == ["points"]
    text = warnings["points"][0].render()
    expected = {4: 70, 5: 67}[len(players)] - (talon or 0)
    assert f"add up to {sum(points.values())}" in text
    assert f"should add up to {expected}" in text


def test_bid_hands_have_no_warnings() -> None:
    """Only the Misère has a checksum to warn about."""
    table = Table(FOUR, "D")
    hand = TROGGEN.parse_hand(bid("einfach", "A", 40), table, options())
    assert TROGGEN.warnings(hand, table, options()) == {}


# -- §9 bid validation ----------------------------------------------------------------

BID_REFUSED = [
    pytest.param(
        FOUR,
        bid("einfach", "A", 40, partner="B"),
        "partner",
        "plays alone",
        id="§1-partner-at-four-refused",
    ),
    pytest.param(
        FIVE, bid("einfach", "A", 40), "partner", "called king", id="§9-partner-missing-5p"
    ),
    pytest.param(
        SIX, bid("einfach", "A", 40), "partner", "called king", id="§9-partner-missing-6p"
    ),
    pytest.param(
        FIVE,
        bid("einfach", "A", 40, partner="a"),
        "partner",
        "another player",
        id="§1-partner-is-the-bidder",
    ),
    pytest.param(
        FIVE,
        bid("einfach", "A", 40, partner="Zoe"),
        "partner",
        "Zoe is not at",
        id="§9-partner-unknown",
    ),
    pytest.param(
        FOUR, bid("einfach", "Zoe", 40), "bidder", "Zoe is not at the table", id="§9-bidder-unknown"
    ),
    pytest.param(
        FOUR,
        {"contract": "einfach", "points": 40},
        "bidder",
        "Choose a player",
        id="§9-bidder-missing",
    ),
    pytest.param(
        FOUR, bid("einfach", "A", -1), "points", "between 0 and 70", id="§9-points-below-zero"
    ),
    pytest.param(
        FOUR, bid("einfach", "A", 71), "points", "between 0 and 70", id="§9-points-above-70-4p"
    ),
    pytest.param(
        FIVE,
        bid("einfach", "A", 68, partner=None),
        "points",
        "between 0 and 67",
        id="§9-points-above-67-5p",
    ),
    pytest.param(
        SIX,
        bid("einfach", "A", 65, partner=None),
        "points",
        "between 0 and 64",
        id="§9-points-above-64-6p",
    ),
    pytest.param(
        FOUR, bid("einfach", "A", True), "points", "whole number", id="§9-points-bool-is-not-an-int"
    ),
    pytest.param(FOUR, bid("einfach", "A", 40.0), "points", "whole number", id="§9-points-float"),
    pytest.param(
        FOUR, bid("einfach", "A", "--5"), "points", "whole number", id="§9-points-double-minus"
    ),
    pytest.param(
        FOUR, bid("einfach", "A", "²"), "points", "whole number", id="§9-points-superscript-digit"
    ),
    pytest.param(
        FOUR,
        bid("einfach", "A", "9" * 5000),
        "points",
        "between 0 and 70",
        id="§9-points-5000-digits",
    ),
    pytest.param(
        FOUR, bid("einfach", "A", 40, won=True), "won", "not both", id="§9-points-and-won"
    ),
    pytest.param(
        FOUR,
        {"contract": "einfach", "bidder": "A", "won": "yes"},
        "won",
        "true or false",
        id="§9-won-not-bool",
    ),
    pytest.param(
        FOUR,
        {"contract": "einfach", "bidder": "A"},
        "points",
        "Enter the points",
        id="§9-neither-points-nor-won",
    ),
    pytest.param(
        FOUR,
        bid("einfach", "A", 4, last_trick="pagat_won"),
        "points",
        "at least 5",
        id="§9-pagat-won-under-5-points",
    ),
    pytest.param(
        FOUR,
        bid("einfach", "A", 0, last_trick="king_won"),
        "points",
        "at least 5",
        id="§9-king-won-under-5-points",
    ),
    pytest.param(
        FOUR,
        bid("einfach", "A", 66, last_trick="pagat_lost"),
        "points",
        "they have at least 5 points: the Bieterin's side has at most 65",
        id="§9-pagat-lost-over-65-points",
    ),
    pytest.param(
        SIX,
        bid("einfach", "A", 64, partner="B", last_trick="king_lost"),
        "points",
        "at most 59",
        id="§9-king-lost-over-59-points-at-six",
    ),
    pytest.param(
        FOUR,
        bid("einfach", "A", 40, last_trick="pagat"),
        "last_trick",
        "pagat_won",
        id="§9-last-trick-unknown",
    ),
    pytest.param(
        FOUR,
        bid("einfach", "A", 40, kulantz=1),
        "kulantz",
        "Unknown field kulantz",
        id="§9-unknown-field",
    ),
    pytest.param(
        FIVE,
        bid("einfach", "A", 40, partner="B", kulanz=-1),
        "kulanz",
        "between 0",
        id="§5-kulanz-negative",
    ),
    pytest.param(
        FIVE,
        bid("einfach", "A", 40, partner="B", kulanz=False),
        "kulanz",
        "whole number",
        id="§5-kulanz-bool",
    ),
    pytest.param(
        FOUR,
        bid("dreifach", "A", 40),
        "contract",
        "einfach, doppelt, ohne, gegen",
        id="§3-unknown-contract",
    ),
    pytest.param(
        FOUR, {"bidder": "A", "points": 40}, "contract", "Choose one of", id="§3-contract-missing"
    ),
]


@pytest.mark.parametrize(("players", "raw", "field", "text"), BID_REFUSED)
def test_bid_refused(players: tuple[str, ...], raw: Facts, field: str, text: str) -> None:
    """Impossible bid hands are refused on the field to fix, with a message saying why."""
    errors = refused(players, raw)
    assert field in errors, errors
    assert any(text in m for m in errors[field]), errors


def test_a_lost_last_trick_stored_before_its_check_still_replays() -> None:
    """Refused when entered now; an evening holding it from before still replays, as said:
    A lost the Pagat, paying 2 to each of the others, and won the hand (``refusals``)."""
    raw = bid("einfach", "A", 70, last_trick="pagat_lost")
    assert "points" in refused(FOUR, raw)
    assert last(FOUR, [raw]).deltas == {"A": 3 - 6, "B": -1 + 2, "C": -1 + 2, "D": -1 + 2}


def test_every_problem_is_named_at_once() -> None:
    """One answer lists every field to fix, so the form is corrected in one go."""
    errors = refused(FIVE, {"contract": "einfach", "bidder": "Zoe", "points": 99, "x": 1})
    assert set(errors) == {"bidder", "partner", "points", "x"}


@pytest.mark.parametrize(
    ("players", "raw", "expected"),
    [
        pytest.param(
            FOUR,
            bid("einfach", " a ", "41"),
            BidHand(Contract.EINFACH, "A", None, 41, None),
            id="§9-names-and-numbers-as-typed",
        ),
        pytest.param(
            FOUR,
            bid("gegen", "D", 70),
            BidHand(Contract.GEGEN, "D", None, 70, None),
            id="§9-all-70-points-4p",
        ),
        pytest.param(
            FIVE,
            bid("ohne", "B", 5, partner="e", last_trick="pagat_won"),
            BidHand(Contract.OHNE, "B", "E", 5, None, LastTrick.PAGAT_WON, 0, True),
            id="§9-pagat-won-with-5-points",
        ),
        pytest.param(
            FIVE,
            bid("einfach", "A", 0, partner=None, last_trick="king_lost"),
            BidHand(Contract.EINFACH, "A", None, 0, None, LastTrick.KING_LOST, 0, True),
            id="§1-own-king-partner-none",
        ),
        pytest.param(
            SIX,
            {"contract": "doppelt", "bidder": "F", "partner": "", "won": False},
            BidHand(Contract.DOPPELT, "F", None, None, False, with_partner_seat=True),
            id="§9-quick-entry-lost",
        ),
        pytest.param(
            FIVE,
            {"contract": "einfach", "bidder": "A", "partner": "B", "won": True, "kulanz": "2"},
            BidHand(Contract.EINFACH, "A", "B", None, True, kulanz=2, with_partner_seat=True),
            id="§9-quick-entry-won-with-kulanz",
        ),
    ],
)
def test_bid_accepted(players: tuple[str, ...], raw: Facts, expected: BidHand) -> None:
    """Possible hands parse to their facts, with the table's spelling of names."""
    assert parse(players, raw) == expected


@pytest.mark.parametrize(
    ("facts", "stored"),
    [
        pytest.param(
            bid("einfach", "a", 41),
            {"contract": "einfach", "bidder": "A", "points": 41, "last_trick": "none"},
            id="§9-record-keeps-points",
        ),
        pytest.param(
            {"contract": "einfach", "bidder": "A", "won": True, "last_trick": "king_won"},
            {"contract": "einfach", "bidder": "A", "won": True, "last_trick": "king_won"},
            id="§9-record-keeps-quick-won",
        ),
    ],
)
def test_record_keeps_what_was_said(facts: Facts, stored: Facts) -> None:
    """The stored input is what the table said: points when counted, else won/lost."""
    hand = parse(FOUR, facts)
    assert isinstance(hand, BidHand)
    assert hand.to_json() == stored
    assert parse(FOUR, hand.to_json()) == hand


def test_record_at_five_keeps_partner_and_kulanz() -> None:
    """At 5-6 players the partner (or none) is part of what was said, as is Kulanz."""
    hand = parse(FIVE, bid("einfach", "A", 40, partner="b", kulanz=1))
    assert isinstance(hand, BidHand)
    assert hand.to_json() == {
        "contract": "einfach",
        "bidder": "A",
        "partner": "B",
        "points": 40,
        "last_trick": "none",
        "kulanz": 1,
    }
    alone = parse(FIVE, bid("einfach", "A", 40, partner=None))
    assert isinstance(alone, BidHand)
    assert alone.to_json()["partner"] is None


@pytest.mark.parametrize(
    ("won", "pot"),
    [
        pytest.param(True, 0, id="§9-quick-won-takes-pot"),
        pytest.param(False, 6, id="§9-quick-lost"),
    ],
)
def test_quick_entry_scores_like_points(won: bool, pot: int) -> None:
    """Only win or loss matters for the payments, so ``won`` scores like counted points."""
    quick = last(FOUR, [{"contract": "einfach", "bidder": "A", "won": won}])
    counted = last(FOUR, [bid("einfach", "A", 40 if won else 20)])
    assert quick.common == {POT: pot}
    assert quick.deltas == counted.deltas


def test_misere_record_round_trip() -> None:
    """A Misère's record keeps every player's points and the talon's, in table order."""
    hand = parse(FOUR, misere(d=10, c=20, b=21, a=11) | {"talon_points": 8})
    assert isinstance(hand, MisereHand)
    assert hand.to_json() == {
        "contract": "misere",
        "points": {"A": 11, "B": 21, "C": 20, "D": 10},
        "talon_points": 8,
    }
    assert parse(FOUR, hand.to_json()) == hand


# -- §8 end of the evening ------------------------------------------------------------

#: Four players leave 6 + 8 = 14 jetons: A staked 3 and paid 0, B 1 + 2, C 1 + 4, D 1 + 2.
LEFT_IN_POT = [bid("einfach", "A", 20), misere(A=10, B=20, C=21, D=11)]


@pytest.mark.parametrize(
    ("next_dealer", "shares"),
    [
        pytest.param("D", {"A": 4, "B": 4, "C": 3, "D": 3}, id="§8-split-remainder-from-A"),
        pytest.param("B", {"A": 3, "B": 3, "C": 4, "D": 4}, id="§8-split-remainder-from-C"),
    ],
)
def test_split_remainder_goes_round_from_the_next_forehand(
    next_dealer: str, shares: dict[str, int]
) -> None:
    """14 jetons among 4: 3 each, and the 2 left go to the next forehand and the next."""
    ledger = play(FOUR, LEFT_IN_POT)
    lines = TROGGEN.close_evening(ledger.state, Table(FOUR, next_dealer), options())
    assert [ln.label.text for ln in lines] == ["Pot split"]
    assert lines[0].amounts() == {POT: -14} | shares


def test_refund_pays_back_what_each_put_in() -> None:
    """§8 refund: each gets back their stakes and Misère payments since the pot was won."""
    ledger = play(FOUR, [G1.facts, *LEFT_IN_POT])
    lines = TROGGEN.close_evening(ledger.state, Table(FOUR, "D"), options(end_pot="refund"))
    assert lines[0].amounts() == {POT: -14, "A": 3, "B": 3, "C": 5, "D": 3}


@pytest.mark.parametrize("rule", ["carry", "split", "refund"])
def test_nothing_to_close(rule: str) -> None:
    """An empty pot needs no line, and a carried pot stays where it is."""
    empty = play(FOUR, [G1.facts])
    assert TROGGEN.close_evening(empty.state, Table(FOUR, "D"), options(), rule=rule) == ()
    full = play(FOUR, LEFT_IN_POT)
    closing = TROGGEN.close_evening(full.state, Table(FOUR, "D"), options(), rule=rule)
    assert (closing == ()) is (rule == "carry")
