"""From jetons to money (docs/settlement.md): rounding to coin, transfers, pairwise, end rules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.core.ledger import HandRecord, HandResult, Ledger, replay
from scorekeeper.core.rules.base import POT, HandScore, ScoreLine, Table, Transfer, msg
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.rules.troggen import TROGGEN
from scorekeeper.core.settlement import (
    EXACT_TRANSFER_LIMIT,
    Payment,
    _greedy,
    fewest_transfers,
    pairwise_exact,
    party_order,
    round_pairwise,
    round_to_coin,
    settle,
)

FOUR = ("A", "B", "C", "D")
FIVE = ("A", "B", "C", "D", "E")


def cents(**amounts: float) -> dict[str, Fraction]:
    """Exact amounts in cents (floats in tests only, turned into exact fractions)."""
    return {k: Fraction(v).limit_denominator(1000) for k, v in amounts.items()}


def balance_of(payments: Iterable[Payment]) -> dict[str, int]:
    """What each party ends up with after ``payments``: received minus paid, zeros left out."""
    out: dict[str, int] = {}
    for p in payments:
        out[p.source] = out.get(p.source, 0) - p.amount
        out[p.target] = out.get(p.target, 0) + p.amount
    return nonzero(out)


def nonzero(amounts: Mapping[str, int]) -> dict[str, int]:
    """``amounts`` without the zeros."""
    return {k: v for k, v in amounts.items() if v}


# -- round_to_coin ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("exact", "order", "expected"),
    [
        pytest.param(cents(A=7, B=-3, C=-4), "ABC", {"A": 5, "B": 0, "C": -5}, id="docstring"),
        pytest.param(
            cents(A=13, B=12, C=-25), "ABC", {"A": 15, "B": 10, "C": -25}, id="largest-up"
        ),
        pytest.param(
            cents(A=12, B=13, C=-25), "ABC", {"A": 10, "B": 15, "C": -25}, id="not-by-order"
        ),
        pytest.param(
            cents(A=25, B=-13, C=-12), "ABC", {"A": 25, "B": -15, "C": -10}, id="negative-abs"
        ),
        pytest.param(
            cents(A=7.5, B=7.5, C=-15), "ABC", {"A": 10, "B": 5, "C": -15}, id="tie-first-A"
        ),
        pytest.param(
            cents(A=7.5, B=7.5, C=-15), "BAC", {"B": 10, "A": 5, "C": -15}, id="tie-first-B"
        ),
        pytest.param(cents(A=10, B=-10), "AB", {"A": 10, "B": -10}, id="whole-coins-stay"),
        pytest.param(cents(A=0, B=0), "AB", {"A": 0, "B": 0}, id="nothing"),
    ],
)
def test_round_to_coin(exact: dict[str, Fraction], order: str, expected: dict[str, int]) -> None:
    """Largest remainder, negatives by their absolute value, ties in the given order."""
    net = round_to_coin(exact, 5, order)
    assert net == expected
    assert list(net) == list(order)


def test_round_to_coin_one_cent() -> None:
    """With a one-cent coin only fractions of a cent move, and only as many as must."""
    exact = {"A": Fraction(1, 3), "B": Fraction(1, 3), "C": Fraction(-2, 3)}
    assert round_to_coin(exact, 1, "ABC") == {"A": 0, "B": 0, "C": 0}
    exact = {"A": Fraction(2, 3), "B": Fraction(2, 3), "C": Fraction(-4, 3)}
    assert round_to_coin(exact, 1, "ABC") == {"A": 1, "B": 0, "C": -1}
    assert round_to_coin(exact, 1, "BAC") == {"B": 1, "A": 0, "C": -1}


@st.composite
def zero_sum_amounts(draw: st.DrawFn) -> dict[str, Fraction]:
    """Up to seven exact amounts that sum to zero."""
    n = draw(st.integers(2, 7))
    parts = draw(
        st.lists(
            st.fractions(min_value=-500, max_value=500, max_denominator=60),
            min_size=n - 1,
            max_size=n - 1,
        )
    )
    return {f"P{i}": v for i, v in enumerate([*parts, -sum(parts, Fraction(0))])}


@given(zero_sum_amounts(), st.sampled_from([1, 5, 10, 20]))
def test_round_to_coin_properties(exact: dict[str, Fraction], coin: int) -> None:
    """Whole coins, still summing to zero, each less than one coin from its exact amount."""
    net = round_to_coin(exact, coin, list(exact))
    assert sum(net.values()) == 0
    for p, amount in net.items():
        assert amount % coin == 0
        assert abs(amount - exact[p]) < coin
        if exact[p] % coin == 0:
            assert amount == exact[p]


# -- fewest_transfers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("net", "order", "expected"),
    [
        pytest.param(
            {"A": 50, "B": -20, "C": 20, "D": -50},
            "ABCD",
            [("D", "A", 50), ("B", "C", 20)],
            id="two-groups",
        ),
        pytest.param(
            {"A": 4, "B": 3, "C": 2, "D": -5, "E": -4},
            "ABCDE",
            [("E", "A", 4), ("D", "B", 3), ("D", "C", 2)],
            id="groups-beat-plain-greedy",
        ),
        pytest.param(
            {"A": 30, "B": -10, "C": -20}, "ABC", [("C", "A", 20), ("B", "A", 10)], id="one-group"
        ),
        pytest.param({"A": 0, "B": 10, "C": -10}, "ABC", [("C", "B", 10)], id="zeros-ignored"),
        pytest.param({"A": 0, "B": 0}, "AB", [], id="all-square"),
        pytest.param(
            {"A": -10, "B": -10, "C": 20}, "ABC", [("A", "C", 10), ("B", "C", 10)], id="tie-AB"
        ),
        pytest.param(
            {"A": -10, "B": -10, "C": 20}, "BAC", [("B", "C", 10), ("A", "C", 10)], id="tie-BA"
        ),
        pytest.param(
            {"A": 10, "B": -10, "C": 25, "D": -25, "E": 5, "F": -5},
            "ABCDEF",
            [("B", "A", 10), ("D", "C", 25), ("F", "E", 5)],
            id="three-pairs",
        ),
    ],
)
def test_fewest_transfers(
    net: dict[str, int], order: str, expected: list[tuple[str, str, int]]
) -> None:
    """The fewest payments, groups in playing order, largest debtor to largest creditor."""
    payments = fewest_transfers(net, order)
    assert [(p.source, p.target, p.amount) for p in payments] == expected
    assert balance_of(payments) == nonzero(net)


def test_fewest_transfers_ignore_dict_order() -> None:
    """The same nets give the same list, however the mapping happens to be ordered."""
    net = {"A": 35, "B": -15, "C": -5, "D": 5, "E": -20}
    shuffled = dict(reversed(list(net.items())))
    assert fewest_transfers(net, "ABCDE") == fewest_transfers(shuffled, "ABCDE")


def test_more_parties_than_the_exact_limit_still_settle() -> None:
    """Beyond the limit the greedy path is used: still exact, at most n - 1 payments."""
    parties = [f"P{i:02}" for i in range(15)]
    amounts = [70, -30, 25, -45, 15, 5, -5, 40, -60, 10, -10, 35, -20, -15, -15]
    net = dict(zip(parties, amounts, strict=True))
    assert sum(amounts) == 0
    assert len(parties) > EXACT_TRANSFER_LIMIT
    payments = fewest_transfers(net, parties)
    assert balance_of(payments) == nonzero(net)
    assert len(payments) <= len(parties) - 1
    assert all(p.amount > 0 for p in payments)
    assert payments == fewest_transfers(net, parties)


def test_exact_search_at_the_limit() -> None:
    """Twelve players and a carried pot: the exact search still finds the fewest payments
    (40 and -40, then 30 and the pot's 20 against -50, then four pairs: seven), where
    paying the largest debtor to the largest creditor takes eight."""
    parties = [f"P{i:02}" for i in range(12)] + ["pot"]
    amounts = [40, 30, -50, -40, 5, -5, 6, -6, 7, -7, 8, -8, 20]
    assert len(parties) == EXACT_TRANSFER_LIMIT
    net = dict(zip(parties, amounts, strict=True))
    payments = fewest_transfers(net, parties)
    assert len(payments) == 7
    assert balance_of(payments) == nonzero(net)
    assert len(_greedy(parties, net)) == 8  # what the search saves


# -- round_pairwise ---------------------------------------------------------------------


def test_round_pairwise_whole_coins() -> None:
    """Whole coins pass through unchanged."""
    pairs = round_pairwise({("A", "B"): Fraction(10)}, {"A": 10, "B": -10}, 5, "AB")
    assert pairs == (Payment("B", "A", 10),)


def test_round_pairwise_moves_a_coin_to_match_the_nets() -> None:
    """Nearest rounding gives A 2 coins but her net is 1: one pair gives a coin back.

    A received 2/3 of a cent from B and from C; the nets round to A 1, B -1, C 0.
    """
    exact = {("A", "B"): Fraction(2, 3), ("A", "C"): Fraction(2, 3)}
    net = round_to_coin({"A": Fraction(4, 3), "B": Fraction(-2, 3), "C": Fraction(-2, 3)}, 1, "ABC")
    assert net == {"A": 1, "B": -1, "C": 0}
    assert round_pairwise(exact, net, 1, "ABC") == (Payment("B", "A", 1),)


def test_round_pairwise_moves_further_only_when_it_must() -> None:
    """Rows must equal the nets; here no rounding keeps every pair within one coin.

    C's row forces C to receive 1 from A (0.4 exact) and pay D 1; B's row ties B←A to D←B;
    A's row of -3 then leaves nothing for D←A (1.1 exact): that pair moves 1.1 coins.
    """
    exact = {
        ("B", "A"): Fraction(21, 10),
        ("C", "A"): Fraction(2, 5),
        ("D", "A"): Fraction(11, 10),
        ("B", "C"): Fraction(1, 10),
        ("D", "B"): Fraction(3, 2),
        ("D", "C"): Fraction(11, 10),
    }
    net = {"A": -3, "B": 0, "C": 0, "D": 3}
    pairs = round_pairwise(exact, net, 1, "ABDC")
    assert balance_of(pairs) == nonzero(net)
    got = {(p.target, p.source): p.amount for p in pairs}
    off = {k: got.get(k, 0) - got.get((k[1], k[0]), 0) - v for k, v in exact.items()}
    assert sum(abs(d) > 1 for d in off.values()) == 1


def test_pairwise_exact_after_a_partial_payout() -> None:
    """A common account that pays out only part keeps each payer's share in proportion.

    Troggen's pot is always emptied when taken, so this builds the lines by hand: A and B
    put in 2 and 1, C takes 1, D puts in 1, and the 3 left are carried.
    """
    table = Table(FOUR, "A")
    lines = (
        ScoreLine(msg("in"), (Transfer("A", POT, 2), Transfer("B", POT, 1))),
        ScoreLine(msg("out"), (Transfer(POT, "C", 1),)),
        ScoreLine(msg("in"), (Transfer("D", POT, 1),)),
        ScoreLine(msg("direct"), (Transfer("C", "D", 1),)),
    )
    hand = HandResult(HandRecord(1, table, {}), None, HandScore(lines), {}, {}, {})
    ledger = Ledger((hand,), FOUR, {}, {POT: 3}, None)
    assert pairwise_exact(ledger, (), (POT,)) == {
        ("C", "A"): Fraction(2, 3),
        ("C", "B"): Fraction(1, 3),
        ("D", "C"): Fraction(1),
        (POT, "A"): Fraction(4, 3),
        (POT, "B"): Fraction(2, 3),
        (POT, "D"): Fraction(1),
    }


# -- settle -----------------------------------------------------------------------------

G5: list[dict[str, object]] = [
    {"contract": "doppelt", "bidder": "A", "partner": "D", "points": 30},
    {"contract": "misere", "points": {"A": 8, "B": 20, "C": 12, "D": 15, "E": 12}},
    {"contract": "einfach", "bidder": "C", "partner": "E", "points": 37},
]
G1_G2: list[dict[str, object]] = [
    {"contract": "doppelt", "bidder": "A", "points": 41, "last_trick": "pagat_won"},
    {"contract": "ohne", "bidder": "A", "points": 33, "last_trick": "king_lost"},
]


def evening(
    players: tuple[str, ...], hands: list[dict[str, object]], **chosen: str
) -> tuple[dict[str, str], Ledger, Table]:
    """Options, ledger and next table of an evening dealt round from the first player."""
    options = parse_options(TROGGEN.option_specs, chosen)
    records = [
        HandRecord(i + 1, Table(players, players[i % len(players)]), f) for i, f in enumerate(hands)
    ]
    next_table = Table(players, players[len(hands) % len(players)])
    return options, replay(TROGGEN, options, records), next_table


def test_g5_in_money() -> None:
    """G5 at 0.10 CHF a jeton, coin 0.05: whole jetons need no rounding."""
    options, ledger, next_table = evening(FIVE, G5, unit_value="0.10", currency="CHF")
    s = settle(TROGGEN, options, ledger, next_table)
    assert list(s.final) == ["E", "A", "B", "C", "D"]  # from the next forehand, E
    assert s.final == {"E": 5, "A": -9, "B": -7, "C": 16, "D": -5}
    assert s.net == {"E": 50, "A": -90, "B": -70, "C": 160, "D": -50}
    assert s.rounding == {}
    assert s.closing == ()
    assert s.transfers == (
        Payment("D", "E", 50),
        Payment("A", "C", 90),
        Payment("B", "C", 70),
    )
    assert balance_of(s.pairwise) == nonzero(s.net)


def test_g5_pairwise_follows_the_pot() -> None:
    """C and E took the 34 jetons; each payer owes them in proportion to what they put in."""
    options, ledger, next_table = evening(FIVE, G5, unit_value="0.10")
    exact = pairwise_exact(ledger, (), TROGGEN.common_accounts)
    # Put in since the pot was last emptied: A 9, B 7, C 8, D 5, E 5; C took 24, E 10.
    assert exact[("C", "A")] == Fraction(24 * 9, 34)
    assert exact[("E", "B")] == Fraction(10 * 7, 34)
    assert exact[("C", "E")] == Fraction(24 * 5 - 10 * 8, 34)
    assert ("E", "C") not in exact
    s = settle(TROGGEN, options, ledger, next_table)
    got = {(p.target, p.source): p.amount for p in s.pairwise}
    for (a, b), jetons in exact.items():
        assert abs(got.get((a, b), 0) - got.get((b, a), 0) - jetons * 10) <= 5


@pytest.mark.parametrize(
    ("rule", "final", "transfers"),
    [
        pytest.param("split", {"D": 0, "A": 0, "B": 0, "C": 0}, (), id="§8-split-everyone-square"),
        pytest.param(
            "refund",
            {"D": -2, "A": 6, "B": -2, "C": -2},
            (Payment("D", "A", 20), Payment("B", "A", 20), Payment("C", "A", 20)),
            id="§8-refund",
        ),
        pytest.param(
            "carry",
            {"D": -6, "A": -6, "B": -6, "C": -6, POT: 24},
            tuple(Payment(p, POT, 60) for p in "DABC"),
            id="§8-carry-pot-is-a-party",
        ),
    ],
)
def test_end_rules(rule: str, final: dict[str, int], transfers: tuple[Payment, ...]) -> None:
    """G1 + G2 leave 24 jetons in the pot (A put in 12, the others 4 each)."""
    options, ledger, next_table = evening(FOUR, G1_G2, end_pot=rule)
    s = settle(TROGGEN, options, ledger, next_table)
    assert s.rule == rule
    assert s.final == final
    assert s.net == {p: 10 * v for p, v in final.items()}
    assert s.transfers == transfers
    assert balance_of(s.pairwise) == nonzero(s.net)


def test_rule_chosen_on_the_settlement_page_wins() -> None:
    """The end rule can be changed before printing without changing the evening."""
    options, ledger, next_table = evening(FOUR, G1_G2)
    assert options["end_pot"] == "split"
    s = settle(TROGGEN, options, ledger, next_table, rule="refund")
    assert s.rule == "refund"
    assert s.final["A"] == 6


def test_rounding_is_reported() -> None:
    """At 0.03 a jeton and a 0.05 coin, G1's 36 and -12 cents must move; the statement says so."""
    options, ledger, next_table = evening(FOUR, G1_G2[:1], unit_value="0.03")
    s = settle(TROGGEN, options, ledger, next_table)
    assert list(s.net) == ["C", "D", "A", "B"]
    assert s.exact == {"C": -12, "D": -12, "A": 36, "B": -12}
    assert s.net == {"C": -15, "D": -10, "A": 35, "B": -10}
    assert s.rounding == {"C": -3, "D": 2, "A": -1, "B": 2}
    assert balance_of(s.transfers) == nonzero(s.net)
    assert balance_of(s.pairwise) == nonzero(s.net)


def test_party_order_starts_with_the_next_forehand_then_those_who_left() -> None:
    """Ties are broken in playing order from the next forehand; leavers come last."""
    order = party_order(("A", "B", "C", "D", "E"), Table(("A", "C", "D", "E"), "C"))
    assert order == ["D", "E", "A", "C", "B"]


def test_split_goes_to_those_seated_at_the_end() -> None:
    """B leaves after staking; the pot is split among the four at the table, B gets none."""
    options = parse_options(TROGGEN.option_specs, {})
    lost = {"contract": "einfach", "bidder": "A", "points": 0}
    records = [HandRecord(1, Table(FOUR, "A"), lost)]
    ledger = replay(TROGGEN, options, records)
    seated = ("A", "C", "D", "E")
    s = settle(TROGGEN, options, ledger, Table(seated, "A"))
    assert s.closing[0].amounts() == {POT: -6, "A": 1, "C": 2, "D": 2, "E": 1}
    assert s.final == {"C": 1, "D": 1, "E": 1, "A": -2, "B": -1}
