"""Troggu scoring against docs/troggu.md: the worked examples, then one table per rule clause.

Test ids cite the example (T1, T3...) or the clause (§2, §3...) they check. Amounts are in
base amounts B (the native unit); the worked examples' Rappen are checked through the
settlement with each region's default B.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from scorekeeper.core.ledger import HandRecord, HandResult, Ledger, replay
from scorekeeper.core.rules import VARIANTS, get_variant
from scorekeeper.core.rules.base import InvalidHandError, InvalidSettingsError, Table
from scorekeeper.core.rules.eisten_stalden import (
    EISTEN_STALDEN,
    Holders,
    TeamHand,
    leaders,
    suggest_team,
    team_rule,
)
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.rules.troggen import TROGGEN
from scorekeeper.core.rules.troggu import (
    MONEY_VARIANTS,
    TROGGU_FLAT,
    TROGGU_GRAECHEN,
    TROGGU_ST_NIKLAUS,
    TROGGU_VISP,
)
from scorekeeper.core.rules.troggu_scoring import AllTricks, Contract, GameHand, MisereHand
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.settlement import settle

NAMES = ("Anna", "Beat", "Carla", "Dani", "Ella", "Fritz", "Gabi", "Hans", "Ida")
BY_KEY = {v.key: v for v in MONEY_VARIANTS}

Facts = dict[str, object]


def seats(n: int) -> tuple[str, ...]:
    """The first ``n`` players."""
    return NAMES[:n]


def options(variant: Variant, **chosen: str) -> dict[str, str]:
    """The evening's options: the defaults plus what a test chooses."""
    return parse_options(variant.option_specs, chosen)


def play(variant: Variant, players: tuple[str, ...], hands: Sequence[Facts]) -> Ledger:
    """Replay ``hands`` at one table, the deal passing on by one each hand."""
    records = [
        HandRecord(i + 1, Table(players, players[i % len(players)]), facts)
        for i, facts in enumerate(hands)
    ]
    return replay(variant, options(variant), records)


def last(variant: Variant, players: tuple[str, ...], facts: Facts) -> HandResult:
    """The result of one hand."""
    return play(variant, players, [facts]).hands[-1]


def parse(variant: Variant, players: tuple[str, ...], raw: Mapping[str, object]) -> object:
    """Validate one hand's facts as entered at a table dealt by the last player."""
    return variant.parse_entry(raw, Table(players, players[-1]), options(variant))


def refused(
    variant: Variant, players: tuple[str, ...], raw: Mapping[str, object]
) -> dict[str, list[str]]:
    """The rendered messages per field of a hand the rules refuse."""
    with pytest.raises(InvalidHandError) as caught:
        parse(variant, players, raw)
    return {k: [m.render() for m in ms] for k, ms in caught.value.errors.items()}


def game(contract: str, declarer: str, points: object, **more: object) -> Facts:
    """The facts of a normal game or Solo."""
    return {"contract": contract, "declarer": declarer, "points": points, **more}


def misere(**points: int) -> Facts:
    """The facts of a Misère."""
    return {"contract": "misere", "points": points}


def team(members: Sequence[str], points: int) -> Facts:
    """The facts of an Eisten-Stalden hand."""
    return {"contract": "team", "team": list(members), "points": points}


def cents(variant: Variant, ledger: Ledger, players: tuple[str, ...]) -> dict[str, int]:
    """Each player's net in cents (Rappen) at the region's default base amount."""
    s = settle(variant, options(variant), ledger, Table(players, players[0]))
    return {p: s.net[p] for p in players}


# -- worked examples (docs/troggu.md §5) ---------------------------------------------------


def test_t1_visp_normal_game_won() -> None:
    """T1: Visp, 4 players, Tappist 62 : 52: Tappist +30, each opponent -10 Rappen."""
    players = seats(4)
    ledger = play(TROGGU_VISP, players, [game("normal", "Anna", 62)])
    assert ledger.hands[0].deltas == {"Anna": 3, "Beat": -1, "Carla": -1, "Dani": -1}
    assert cents(TROGGU_VISP, ledger, players) == {
        "Anna": 30,
        "Beat": -10,
        "Carla": -10,
        "Dani": -10,
    }


def test_t3_visp_seven_players_partner_team_loses() -> None:
    """T3: 7 players, the Tappist's team loses 50 : 64: opponents +10, partner -20,
    Tappist -30."""
    players = seats(7)
    ledger = play(TROGGU_VISP, players, [game("normal", "Anna", 50, partner="Beat")])
    opponents = dict.fromkeys(players[2:], 10)
    assert cents(TROGGU_VISP, ledger, players) == {"Anna": -30, "Beat": -20, **opponents}
    lines = {ln.label.render(): ln.amounts() for ln in ledger.hands[0].score.lines}
    assert lines == {
        "Tappist loses: 1 to each opponent (losers 50 points)": {
            "Anna": -5,
            **dict.fromkeys(players[2:], 1),
        },
        "Partner's share": {"Beat": -2, "Anna": 2},
    }


@pytest.mark.parametrize(
    ("variant", "n"),
    [pytest.param(v, n, id=f"T5-{v.key}-{n}p") for v in MONEY_VARIANTS for n in (4, 6)],
)
@pytest.mark.parametrize("contract", ["normal", "solo"])
def test_t5_fifty_seven_all_pays_nothing(variant: Variant, n: int, contract: str) -> None:
    """T5: 57 : 57 is a tie at every table: nobody pays, and the sheet says so."""
    result = last(variant, seats(n), game(contract, "Beat", 57))
    assert result.deltas == dict.fromkeys(seats(n), 0)
    assert [ln.label.render() for ln in result.score.lines] == ["57 : 57, nobody pays"]


def test_t5_fifty_seven_all_at_seven_with_partner() -> None:
    """T5 with a partner: still nothing, and no partner's share either."""
    result = last(TROGGU_VISP, seats(7), game("normal", "Anna", 57, partner="Beat"))
    assert result.deltas == dict.fromkeys(seats(7), 0)


def test_t5_eisten_stalden_no_strich() -> None:
    """T5: Eisten-Stalden gives no Strich at 57 : 57."""
    result = last(EISTEN_STALDEN, seats(4), team(["Anna", "Beat"], 57))
    assert result.tally == dict.fromkeys(seats(4), 0)
    assert [ln.label.render() for ln in result.score.lines] == ["57 : 57, no Strich"]


T10 = {"Anna": 30, "Beat": 22, "Carla": 30, "Dani": 20, "Ella": 5}


@pytest.mark.parametrize(
    ("variant", "rappen"),
    [
        pytest.param(
            TROGGU_VISP,
            {"Anna": -30, "Beat": 20, "Carla": -30, "Dani": 20, "Ella": 20},
            id="T10-visp-tie-for-most",
        ),
        pytest.param(
            TROGGU_ST_NIKLAUS,
            {"Anna": -5, "Beat": -5, "Carla": -5, "Dani": -5, "Ella": 20},
            id="T10-st-niklaus-fewest-receives",
        ),
    ],
)
def test_t10_misere(variant: Variant, rappen: dict[str, int]) -> None:
    """T10: A and C tie for most and each pay B to B, D and E; in St. Niklaus E (fewest)
    receives B from each. St. Niklaus's default B is 5 Rappen, so E's 4 B are 20."""
    players = seats(5)
    facts = misere(**T10) | {"tapp_points": 7}
    ledger = play(variant, players, [facts])
    assert cents(variant, ledger, players) == rappen
    hand = ledger.hands[0].hand
    table = Table(players, players[0])
    assert variant.warnings(hand, table, options(variant)) == {}  # type: ignore[arg-type]


def test_t10_st_niklaus_at_ten_rappen() -> None:
    """T10 as the spec writes it for St. Niklaus (B = 10): E +40, the others -10."""
    players = seats(5)
    opts = options(TROGGU_ST_NIKLAUS, unit_value="0.10")
    ledger = replay(TROGGU_ST_NIKLAUS, opts, [HandRecord(1, Table(players, "Anna"), misere(**T10))])
    s = settle(TROGGU_ST_NIKLAUS, opts, ledger, Table(players, "Anna"))
    assert s.net == {"Anna": -10, "Beat": -10, "Carla": -10, "Dani": -10, "Ella": 40}


T11 = [
    (team(["Anna", "Beat"], 61), {"Anna": 1, "Beat": 1, "Carla": 0, "Dani": 0}),
    (team(["Beat", "Dani"], 57), {"Anna": 0, "Beat": 0, "Carla": 0, "Dani": 0}),
    (team(["Carla", "Anna"], 40), {"Anna": 0, "Beat": 1, "Carla": 0, "Dani": 1}),
]


def test_t11_eisten_stalden_striche() -> None:
    """T11: three Chinigu hands give Anna 1, Beat 2, Carla 0, Dani 1: Beat is Tagessieger."""
    players = seats(4)
    ledger = play(EISTEN_STALDEN, players, [facts for facts, _ in T11])
    assert [h.tally for h in ledger.hands] == [striche for _, striche in T11]
    assert ledger.tally == {"Anna": 1, "Beat": 2, "Carla": 0, "Dani": 1}
    assert leaders(ledger.tally) == ("Beat",)
    assert all(h.deltas == dict.fromkeys(players, 0) for h in ledger.hands)
    assert ledger.balances == dict.fromkeys(players, 0)
    labels = [ln.label.render() for h in ledger.hands for ln in h.score.lines]
    assert labels == [
        "The declaring side wins 61 : 53: one Strich each",
        "57 : 57, no Strich",
        "The opponents win 74 : 40: one Strich each",
    ]


# -- §2 the payment scale, region by region --------------------------------------------

#: The losers' points and the multiplier in Visp, St. Niklaus, Grächen and the flat stake.
SCALE = [
    (56, 1, 1, 1, 1),
    (32, 1, 1, 1, 1),
    (31, 1, 2, 1, 1),
    (30, 2, 2, 1, 1),
    (21, 2, 2, 1, 1),
    (20, 2, 2, 2, 1),
    (14, 2, 2, 2, 1),
]
REGION_ORDER = (TROGGU_VISP, TROGGU_ST_NIKLAUS, TROGGU_GRAECHEN, TROGGU_FLAT)

REGION_TABLE = [
    pytest.param(variant, losers, row[i], won, id=f"§2-{variant.key}-L{losers}-{side}-x{row[i]}")
    for losers, *row in SCALE
    for i, variant in enumerate(REGION_ORDER)
    for won, side in ((True, "declarer-wins"), (False, "declarer-loses"))
]


@pytest.mark.parametrize(("variant", "losers", "factor", "won"), REGION_TABLE)
def test_region_payment_scale(variant: Variant, losers: int, factor: int, won: bool) -> None:
    """The losing side's points decide single or double, at each region's threshold."""
    points = 114 - losers if won else losers
    result = last(variant, seats(4), game("normal", "Anna", points))
    sign = 1 if won else -1
    assert result.deltas == {"Anna": 3 * sign * factor} | {p: -sign * factor for p in seats(4)[1:]}


ALL_TRICKS = [
    pytest.param(variant, side, points, factor, id=f"§2-{variant.key}-all-tricks-{side}")
    for variant, factor in zip(REGION_ORDER, (3, 3, 3, 1), strict=True)
    for side, points in (("declarer", 114), ("opponents", 12))
]


@pytest.mark.parametrize(("variant", "side", "points", "factor"), ALL_TRICKS)
def test_all_tricks_pay_triple(variant: Variant, side: str, points: int, factor: int) -> None:
    """Every trick pays triple before the points count: the declarer with 12 points from his
    discard took no trick and still pays triple, not double (§2 [R]); flat pays 1."""
    result = last(variant, seats(4), game("normal", "Anna", points, all_tricks=side))
    sign = 1 if side == "declarer" else -1
    assert result.deltas["Anna"] == 3 * sign * factor
    assert result.deltas["Beat"] == -sign * factor


@pytest.mark.parametrize(
    ("variant", "points", "factor"),
    [
        pytest.param(TROGGU_VISP, 70, 2, id="§2-solo-visp-x1-doubled"),
        pytest.param(TROGGU_VISP, 90, 4, id="§2-solo-visp-x2-doubled"),
        pytest.param(TROGGU_ST_NIKLAUS, 83, 4, id="§2-solo-st-niklaus-L31-doubled"),
        pytest.param(TROGGU_GRAECHEN, 90, 2, id="§2-solo-graechen-L24-single-doubled"),
        pytest.param(TROGGU_GRAECHEN, 114, 6, id="§2-solo-graechen-all-tricks-doubled"),
        pytest.param(TROGGU_FLAT, 90, 1, id="§2b-solo-flat-not-doubled"),
    ],
)
def test_solo_doubles(variant: Variant, points: int, factor: int) -> None:
    """A Solo pays double the normal game's amounts, except at the flat stake."""
    extra: Facts = {"all_tricks": "declarer"} if points == 114 else {}
    result = last(variant, seats(5), game("solo", "Carla", points, **extra))
    assert result.deltas == {p: -factor for p in seats(5) if p != "Carla"} | {"Carla": 4 * factor}


def test_solo_lost_label_explains_the_doubling() -> None:
    """The line says who lost, how much each opponent gets, and why."""
    result = last(TROGGU_VISP, seats(4), game("solo", "Beat", 25))
    assert [ln.label.render() for ln in result.score.lines] == [
        "Soloist loses: 4 to each opponent "
        "(losers 25 points, 30 or fewer: double, doubled for the Solo)"
    ]
    assert result.deltas == {"Anna": 4, "Beat": -12, "Carla": 4, "Dani": 4}


def test_all_tricks_label() -> None:
    """Every trick taken is named as the reason for the triple payment."""
    result = last(TROGGU_GRAECHEN, seats(3), game("normal", "Anna", 114, all_tricks="declarer"))
    assert [ln.label.render() for ln in result.score.lines] == [
        "Tappist wins: 3 from each opponent (every trick taken: triple)"
    ]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize(
    ("contract", "points", "sign"),
    [
        pytest.param("normal", 60, 1, id="§2b-normal-won"),
        pytest.param("normal", 20, -1, id="§2b-normal-lost-low"),
        pytest.param("solo", 100, 1, id="§2b-solo-won-same-as-normal"),
        pytest.param("solo", 56, -1, id="§2b-solo-lost"),
    ],
)
def test_flat_stake(n: int, contract: str, points: int, sign: int) -> None:
    """Flat stake (seed 003): B from or to every other player, whatever the points."""
    result = last(TROGGU_FLAT, seats(n), game(contract, "Anna", points))
    assert result.deltas == {p: -sign for p in seats(n)[1:]} | {"Anna": sign * (n - 1)}
    label = result.score.lines[0].label.render()
    assert label.endswith("(flat stake)")


# -- §2 partner at 7-8 players ---------------------------------------------------------

PARTNER_SHARES = [
    pytest.param(variant, n, points, factor, id=f"§2-{variant.key}-{n}p-{points}")
    for variant, sizes in (
        (TROGGU_VISP, (7, 8)),
        (TROGGU_GRAECHEN, (7, 8)),
        (TROGGU_ST_NIKLAUS, (7,)),
    )
    for n in sizes
    for points, factor in ((70, 1), (100, 2), (114, 3), (40, 1), (15, 2))
]


@pytest.mark.parametrize(("variant", "n", "points", "factor"), PARTNER_SHARES)
def test_partner_shares(variant: Variant, n: int, points: int, factor: int) -> None:
    """Each opponent u, the partner 2u, the Tappist the rest: 3u at 7, 4u at 8 (§2)."""
    extra: Facts = {"all_tricks": "declarer"} if points == 114 else {}
    result = last(variant, seats(n), game("normal", "Beat", points, partner="Dani", **extra))
    sign = 1 if points >= 58 else -1
    u = factor
    assert result.deltas["Beat"] == sign * {7: 3, 8: 4}[n] * u
    assert result.deltas["Dani"] == sign * 2 * u
    for p in seats(n):
        if p not in ("Beat", "Dani"):
            assert result.deltas[p] == -sign * u


@pytest.mark.parametrize("n", [7, 8])
@pytest.mark.parametrize(("points", "sign"), [(64, 1), (50, -1)])
def test_alone_when_the_called_trump_is_his_own_or_in_the_tapp(
    n: int, points: int, sign: int
) -> None:
    """Partner none (called trump in the Tappist's hand or the Tapp): he gets or pays k·u."""
    result = last(TROGGU_VISP, seats(n), game("normal", "Anna", points, partner=None))
    assert result.deltas == {p: -sign for p in seats(n)[1:]} | {"Anna": sign * (n - 1)}
    assert len(result.score.lines) == 1


@pytest.mark.parametrize("n", [7, 8])
def test_solo_at_seven_or_eight_is_alone(n: int) -> None:
    """A soloist never has a partner: every other player pays or receives."""
    result = last(TROGGU_VISP, seats(n), game("solo", "Anna", 80))
    assert result.deltas == {p: -2 for p in seats(n)[1:]} | {"Anna": 2 * (n - 1)}


# -- §2 Misère, per region --------------------------------------------------------------

MISERE_PAYMENTS = [
    pytest.param(
        v,
        {"Anna": 40, "Beat": 20, "Carla": 25, "Dani": 14},
        {"Anna": -3, "Beat": 1, "Carla": 1, "Dani": 1},
        id=f"§2-misere-{v.key}-most-pays",
    )
    for v in (TROGGU_VISP, TROGGU_GRAECHEN, TROGGU_FLAT)
] + [
    pytest.param(
        TROGGU_VISP,
        {"Anna": 30, "Beat": 30, "Carla": 20, "Dani": 10},
        {"Anna": -2, "Beat": -2, "Carla": 2, "Dani": 2},
        id="§2-misere-visp-two-tie-for-most",
    ),
    pytest.param(
        TROGGU_GRAECHEN,
        {"Anna": 30, "Beat": 30, "Carla": 30, "Dani": 0},
        {"Anna": -1, "Beat": -1, "Carla": -1, "Dani": 3},
        id="§2-misere-graechen-three-tie-for-most",
    ),
    pytest.param(
        TROGGU_VISP,
        dict.fromkeys(("Anna", "Beat", "Carla", "Dani"), 22),
        dict.fromkeys(("Anna", "Beat", "Carla", "Dani"), 0),
        id="§2-misere-visp-all-tied",
    ),
    pytest.param(
        TROGGU_ST_NIKLAUS,
        {"Anna": 40, "Beat": 20, "Carla": 25, "Dani": 14},
        {"Anna": -1, "Beat": -1, "Carla": -1, "Dani": 3},
        id="§2-misere-st-niklaus-fewest-receives",
    ),
    pytest.param(
        TROGGU_ST_NIKLAUS,
        {"Anna": 40, "Beat": 14, "Carla": 25, "Dani": 14},
        {"Anna": -2, "Beat": 2, "Carla": -2, "Dani": 2},
        id="§2-misere-st-niklaus-two-tie-for-fewest",
    ),
    pytest.param(
        TROGGU_ST_NIKLAUS,
        dict.fromkeys(("Anna", "Beat", "Carla", "Dani"), 22),
        dict.fromkeys(("Anna", "Beat", "Carla", "Dani"), 0),
        id="§2-misere-st-niklaus-all-tied",
    ),
]


@pytest.mark.parametrize(("variant", "points", "deltas"), MISERE_PAYMENTS)
def test_misere_payments(variant: Variant, points: dict[str, int], deltas: dict[str, int]) -> None:
    """Tied players pay (or receive) B to (from) every non-tied player; all tied: nothing."""
    assert last(variant, seats(4), misere(**points)).deltas == deltas


def test_misere_all_tied_says_so() -> None:
    """The all-tied Misère is still explained on the sheet."""
    result = last(TROGGU_VISP, seats(4), misere(**dict.fromkeys(seats(4), 22)))
    assert [ln.label.render() for ln in result.score.lines] == ["Misère: all tied, nobody pays"]


@pytest.mark.parametrize(
    ("variant", "n", "low", "high"),
    [
        pytest.param(TROGGU_VISP, 4, 64, 104, id="§2-misere-range-visp-4p-tapp-10"),
        pytest.param(TROGGU_GRAECHEN, 4, 84, 108, id="§2-misere-range-graechen-4p-tapp-6"),
        pytest.param(TROGGU_ST_NIKLAUS, 3, 74, 106, id="§2-misere-range-st-niklaus-3p-tapp-8"),
        pytest.param(TROGGU_FLAT, 5, 79, 107, id="§2-misere-range-flat-5p-tapp-7"),
        pytest.param(TROGGU_VISP, 8, 84, 100, id="§2-misere-range-visp-8p-fool-and-i"),
    ],
)
def test_misere_sum_range(variant: Variant, n: int, low: int, high: int) -> None:
    """The sum is 114 less the Tapp, whose t cards hold t to 5t points (at 7-8 players the
    Fool and I among them): the bounds are accepted, one beyond is refused."""
    flag: Facts = {"fool_and_i_in_tapp": True} if n >= 7 else {}
    for total, ok in ((low, True), (high, True), (low - 1, False), (high + 1, False)):
        each = total // n
        points = dict.fromkeys(seats(n), each) | {"Anna": total - each * (n - 1)}
        raw = misere(**points) | flag
        if ok:
            assert isinstance(parse(variant, seats(n), raw), MisereHand)
        else:
            errors = refused(variant, seats(n), raw)
            assert errors["points"] == [
                f"The points add up to {total}; at this table they must add up to "
                f"between {low} and {high}."
            ]


@pytest.mark.parametrize(
    ("tapp", "warned"),
    [
        pytest.param(7, False, id="§2-tapp-matches"),
        pytest.param(9, True, id="§2-tapp-mismatch"),
    ],
)
def test_misere_tapp_checksum_warning(tapp: int, warned: bool) -> None:
    """With the Tapp's points given the sum must match exactly, or the table confirms."""
    table = Table(seats(5), "Ella")
    hand = TROGGU_VISP.parse_hand(misere(**T10) | {"tapp_points": tapp}, table, {})
    warnings = TROGGU_VISP.warnings(hand, table, {})
    if not warned:
        assert warnings == {}
        return
    assert {k: [m.render() for m in v] for k, v in warnings.items()} == {
        "points": [
            "The points add up to 107, but with 9 in the Tapp they should add up to 105. "
            "Please check the count."
        ]
    }


def test_game_hands_have_no_warnings() -> None:
    """Only the Misère has a checksum to warn about."""
    table = Table(seats(4), "Dani")
    hand = TROGGU_VISP.parse_hand(game("normal", "Anna", 60), table, {})
    assert TROGGU_VISP.warnings(hand, table, {}) == {}


@pytest.mark.parametrize(
    ("variant", "n"),
    [
        pytest.param(TROGGU_VISP, 7, id="§2-misere-7p-visp"),
        pytest.param(TROGGU_VISP, 8, id="§2-misere-8p-visp"),
        pytest.param(TROGGU_ST_NIKLAUS, 7, id="§2-misere-7p-st-niklaus"),
        pytest.param(TROGGU_GRAECHEN, 8, id="§2-misere-8p-graechen"),
    ],
)
@pytest.mark.parametrize("flag", [None, False, "yes"])
def test_misere_at_seven_or_eight_needs_fool_and_i_in_the_tapp(
    variant: Variant, n: int, flag: object
) -> None:
    """At 7-8 players an all-pass forces a normal game unless the Fool and I lie in the Tapp."""
    points = dict.fromkeys(seats(n), 90 // n) | {"Anna": 90 - 90 // n * (n - 1)}
    raw = misere(**points) | ({} if flag is None else {"fool_and_i_in_tapp": flag})
    errors = refused(variant, seats(n), raw)
    assert list(errors) == ["fool_and_i_in_tapp"]
    assert "only when the Fool and trump I both lie in the Tapp" in errors["fool_and_i_in_tapp"][0]
    ok = parse(variant, seats(n), raw | {"fool_and_i_in_tapp": True})
    assert isinstance(ok, MisereHand)
    assert ok.fool_and_i_in_tapp


def test_misere_flag_below_seven_is_ignored() -> None:
    """At 3-6 players the question is not asked; a true or false answer changes nothing."""
    hand = parse(TROGGU_VISP, seats(5), misere(**T10) | {"fool_and_i_in_tapp": True})
    assert hand == MisereHand(tuple(T10.items()))
    assert "fool_and_i_in_tapp" in refused(
        TROGGU_VISP, seats(5), misere(**T10) | {"fool_and_i_in_tapp": "yes"}
    )


@pytest.mark.parametrize(
    ("n", "tapp", "ok"),
    [
        pytest.param(7, 14, True, id="§2-tapp-7p-fool-and-i-at-least-14"),
        pytest.param(7, 13, False, id="§2-tapp-7p-below-14"),
        pytest.param(7, 31, False, id="§2-tapp-7p-above-30"),
        pytest.param(4, 10, True, id="§2-tapp-4p-at-least-10"),
        pytest.param(4, 9, False, id="§2-tapp-4p-below-10"),
    ],
)
def test_tapp_points_range(n: int, tapp: int, ok: bool) -> None:
    """The Tapp's own points are refused when no Tapp of that size can hold them."""
    total = 114 - tapp
    points = dict.fromkeys(seats(n), total // n) | {"Anna": total - total // n * (n - 1)}
    raw = misere(**points) | {"tapp_points": tapp}
    if n >= 7:
        raw["fool_and_i_in_tapp"] = True
    if ok:
        assert isinstance(parse(TROGGU_VISP, seats(n), raw), MisereHand)
    else:
        assert "tapp_points" in refused(TROGGU_VISP, seats(n), raw)


# -- bad input --------------------------------------------------------------------------

GAME_REFUSED = [
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Anna", -1),
        "points",
        "between 0 and 114",
        id="points-below-0",
    ),
    pytest.param(
        TROGGU_VISP, 4, game("normal", "Anna", 115), "points", "between 0 and 114", id="points-115"
    ),
    pytest.param(
        TROGGU_FLAT, 3, game("solo", "Anna", "viel"), "points", "whole number", id="points-text"
    ),
    pytest.param(
        TROGGU_VISP, 4, game("normal", "Anna", True), "points", "whole number", id="points-bool"
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        {"contract": "normal", "declarer": "Anna"},
        "points",
        "Enter the card points of the declaring side.",
        id="points-missing",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Anna", 60, partner="Beat"),
        "partner",
        "Only with 7 or 8 players does the Tappist call a partner",
        id="partner-at-4",
    ),
    pytest.param(
        TROGGU_GRAECHEN,
        3,
        game("normal", "Anna", 60, partner="Beat"),
        "partner",
        "Only with 7 or 8 players",
        id="partner-at-3",
    ),
    pytest.param(
        TROGGU_FLAT,
        6,
        game("normal", "Anna", 60, partner="Beat"),
        "partner",
        "Only with 7 or 8 players",
        id="partner-at-6",
    ),
    pytest.param(
        TROGGU_VISP,
        7,
        game("solo", "Anna", 60, partner="Beat"),
        "partner",
        "A soloist plays alone",
        id="partner-with-solo",
    ),
    pytest.param(
        TROGGU_VISP,
        7,
        game("normal", "Anna", 60),
        "partner",
        "Say who held the called trump",
        id="partner-missing-at-7",
    ),
    pytest.param(
        TROGGU_VISP,
        8,
        game("normal", "Anna", 60, partner="Zoe"),
        "partner",
        "Zoe is not at the table.",
        id="partner-not-at-the-table",
    ),
    pytest.param(
        TROGGU_VISP,
        8,
        game("normal", "Anna", 60, partner="anna"),
        "partner",
        "The partner is another player",
        id="partner-is-the-tappist",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Zoe", 60),
        "declarer",
        "Zoe is not at the table.",
        id="declarer-not-at-the-table",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        {"contract": "normal", "points": 60},
        "declarer",
        "Choose a player.",
        id="declarer-missing",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Anna", 100, all_tricks="declarer"),
        "all_tricks",
        "took every trick has all 114 points",
        id="all-tricks-declarer-without-114",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Anna", 114),
        "all_tricks",
        "With all 114 points the declaring side took every trick",
        id="114-without-all-tricks",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Anna", 114, all_tricks="opponents"),
        "all_tricks",
        "With all 114 points",
        id="114-opponents-all-tricks",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Anna", 60, all_tricks="opponents"),
        "all_tricks",
        "keeps only the 10 cards of the Tapp or the discard: between 10 and 50 points",
        id="all-tricks-opponents-with-60",
    ),
    pytest.param(
        TROGGU_GRAECHEN,
        4,
        game("solo", "Anna", 5, all_tricks="opponents"),
        "all_tricks",
        "between 6 and 30 points",
        id="all-tricks-opponents-below-the-tapp-cards",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Anna", 13),
        "points",
        "took a trick has at least 14 points: the 10 cards of the Tapp or the discard and a "
        "trick of 4 cards",
        id="a-trick-and-the-discard-below-their-least",
    ),
    pytest.param(
        TROGGU_GRAECHEN,
        5,
        game("solo", "Anna", 3),
        "points",
        "at least 12 points",
        id="solo-below-the-tapp-and-a-trick",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Anna", 111),
        "points",
        "lost a trick has at most 110 points",
        id="opponents-trick-leaves-at-most",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Anna", 60, all_tricks="everyone"),
        "all_tricks",
        "Choose one of: declarer, opponents.",
        id="all-tricks-unknown",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("einfach", "Anna", 60),
        "contract",
        "Choose one of: normal, solo, misere.",
        id="contract-unknown",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        game("normal", "Anna", 60, bidder="Anna"),
        "bidder",
        "Unknown field bidder.",
        id="unknown-field",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        misere(Anna=30, Beat=30, Carla=30, Zoe=10),
        "points",
        "Zoe is not at the table.",
        id="misere-player-not-at-the-table",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        misere(Anna=30, Beat=30, Carla=30),
        "points",
        "Enter the points of every player: Dani.",
        id="misere-player-missing",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        misere(Anna=115, Beat=0, Carla=0, Dani=0),
        "points.Anna",
        "between 0 and 114",
        id="misere-points-above-114",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        misere(Anna=30, Beat=30, Carla=30, Dani=10) | {"talon_points": 8},
        "talon_points",
        "Unknown field talon_points.",
        id="misere-troggen-field",
    ),
    pytest.param(
        TROGGU_VISP,
        4,
        {"contract": "misere", "points": [30, 30]},
        "points",
        "Enter the points of every player.",
        id="misere-points-not-an-object",
    ),
]


@pytest.mark.parametrize(("variant", "n", "raw", "field", "text"), GAME_REFUSED)
def test_refused(variant: Variant, n: int, raw: Facts, field: str, text: str) -> None:
    """Impossible hands are refused on the field to fix, with a message saying why."""
    errors = refused(variant, seats(n), raw)
    assert field in errors, errors
    assert any(text in m for m in errors[field]), errors


@pytest.mark.parametrize(
    ("n", "least", "most"),
    [(3, 11, 111), (4, 10, 110), (5, 12, 109), (6, 14, 108), (7, 13, 107), (8, 14, 106)],
)
def test_a_trick_each_bounds_the_points(n: int, least: int, most: int) -> None:
    """Without "every trick", each side took at least one trick: the declaring side has the
    Tapp's or discard's cards and a trick, the opponents a trick, 1 point a card at least."""
    variant = TROGGU_GRAECHEN  # every table size from 3 to 8; a Tapp of 6 at four
    for points in (least, most):
        assert last(variant, seats(n), game("solo", "Anna", points)).deltas["Anna"] != 0
    for points in (least - 1, most + 1):
        assert "points" in refused(variant, seats(n), game("solo", "Anna", points))


@pytest.mark.parametrize(
    ("variant", "n", "raw"),
    [
        pytest.param(TROGGU_VISP, 4, game("normal", "Anna", 5), id="points-below-a-trick"),
        pytest.param(TROGGU_VISP, 4, game("solo", "Anna", 112), id="points-above-a-lost-trick"),
        pytest.param(EISTEN_STALDEN, 4, team(["Beat", "Carla"], 60), id="team-without-the-dealer"),
    ],
)
def test_a_hand_stored_before_a_check_came_still_replays(
    variant: Variant, n: int, raw: Facts
) -> None:
    """Refused when entered now, but an evening that holds it from before still replays:
    what was entered is never lost (``Variant.refusals``)."""
    assert refused(variant, seats(n), raw)  # dealt by the last player, Dani
    assert last(variant, seats(n), raw).score.lines  # replayed, dealt by Anna


def test_every_problem_is_named_at_once() -> None:
    """One answer lists every field to fix."""
    raw = {"contract": "normal", "declarer": "Zoe", "partner": "Beat", "points": 200, "x": 1}
    assert set(refused(TROGGU_VISP, seats(4), raw)) == {"declarer", "partner", "points", "x"}


@pytest.mark.parametrize(
    ("variant", "n"),
    [
        pytest.param(TROGGU_VISP, 3, id="visp-no-3"),
        pytest.param(TROGGU_ST_NIKLAUS, 8, id="st-niklaus-no-8"),
        pytest.param(TROGGU_FLAT, 7, id="flat-no-7"),
        pytest.param(TROGGU_GRAECHEN, 9, id="graechen-no-9"),
        pytest.param(EISTEN_STALDEN, 9, id="eisten-stalden-no-9"),
        pytest.param(EISTEN_STALDEN, 2, id="eisten-stalden-no-2"),
    ],
)
def test_player_count_the_variant_does_not_allow(variant: Variant, n: int) -> None:
    """A table size outside the variant's range is refused, saying which sizes it takes."""
    assert not variant.allows_players(n)
    raw = team(seats(n)[:1], 60) if variant is EISTEN_STALDEN else game("normal", "Anna", 60)
    errors = refused(variant, seats(n), raw)
    assert errors == {
        "players": [
            f"This game is played by {variant.min_players} to {variant.max_players} "
            f"players, not {n}."
        ]
    }


@pytest.mark.parametrize(
    ("variant", "low", "high"),
    [
        pytest.param(TROGGU_VISP, 4, 8, id="visp-4-8"),
        pytest.param(TROGGU_ST_NIKLAUS, 3, 7, id="st-niklaus-3-7"),
        pytest.param(TROGGU_GRAECHEN, 3, 8, id="graechen-3-8"),
        pytest.param(TROGGU_FLAT, 3, 6, id="flat-3-6"),
        pytest.param(EISTEN_STALDEN, 3, 8, id="eisten-stalden-3-8"),
    ],
)
def test_player_ranges(variant: Variant, low: int, high: int) -> None:
    """Variants at a glance: each region's table sizes."""
    assert [n for n in range(1, 11) if variant.allows_players(n)] == list(range(low, high + 1))


# -- what is stored --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "raw", "expected", "stored"),
    [
        pytest.param(
            4,
            game("normal", " anna ", "62"),
            GameHand(Contract.NORMAL, "Anna", None, 62),
            {"contract": "normal", "declarer": "Anna", "points": 62, "all_tricks": None},
            id="names-and-numbers-as-typed",
        ),
        pytest.param(
            7,
            game("normal", "Anna", 50, partner="beat"),
            GameHand(Contract.NORMAL, "Anna", "Beat", 50, None, True),
            {
                "contract": "normal",
                "declarer": "Anna",
                "partner": "Beat",
                "points": 50,
                "all_tricks": None,
            },
            id="partner-at-7",
        ),
        pytest.param(
            8,
            game("normal", "Anna", 114, partner="", all_tricks="declarer"),
            GameHand(Contract.NORMAL, "Anna", None, 114, AllTricks.DECLARER, True),
            {
                "contract": "normal",
                "declarer": "Anna",
                "partner": None,
                "points": 114,
                "all_tricks": "declarer",
            },
            id="alone-at-8-every-trick",
        ),
        pytest.param(
            7,
            game("solo", "Anna", 12, all_tricks="opponents", partner=None),
            GameHand(Contract.SOLO, "Anna", None, 12, AllTricks.OPPONENTS),
            {"contract": "solo", "declarer": "Anna", "points": 12, "all_tricks": "opponents"},
            id="solo-at-7-no-partner-seat",
        ),
        pytest.param(
            5,
            misere(**T10) | {"tapp_points": 7},
            MisereHand(tuple(T10.items()), 7),
            {"contract": "misere", "points": T10, "tapp_points": 7},
            id="misere-with-tapp",
        ),
        pytest.param(
            7,
            misere(**dict.fromkeys(seats(7), 13)) | {"fool_and_i_in_tapp": True},
            MisereHand(tuple(dict.fromkeys(seats(7), 13).items()), None, True),
            {
                "contract": "misere",
                "points": dict.fromkeys(seats(7), 13),
                "fool_and_i_in_tapp": True,
            },
            id="misere-at-7",
        ),
    ],
)
def test_record_round_trip(n: int, raw: Facts, expected: object, stored: Facts) -> None:
    """The stored facts are what the table said, normalised, and parse back the same."""
    hand = parse(TROGGU_VISP, seats(n), raw)
    assert hand == expected
    assert hand.to_json() == stored  # type: ignore[attr-defined]
    assert list(hand.to_json()) == list(stored)  # type: ignore[attr-defined]
    assert parse(TROGGU_VISP, seats(n), stored) == hand


# -- Eisten-Stalden ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "members", "points", "striche"),
    [
        pytest.param(3, ["Beat"], 70, {"Beat": 1}, id="§3-narru-3p-won"),
        pytest.param(3, ["Beat"], 50, {"Anna": 1, "Carla": 1}, id="§3-narru-3p-lost"),
        pytest.param(5, ["Carla"], 58, {"Carla": 1}, id="§3-uf-eis-alone-58-wins"),
        pytest.param(5, ["Carla", "Ella"], 56, {"Anna": 1, "Beat": 1, "Dani": 1}, id="§3-5p-56"),
        pytest.param(
            6, ["Fritz", "Anna", "Dani"], 60, {"Anna": 1, "Dani": 1, "Fritz": 1}, id="§3-6p-won"
        ),
        pytest.param(8, ["Gabi", "Hans"], 0, {p: 1 for p in NAMES[:6]}, id="§3-narru-8p-lost"),
        pytest.param(7, ["Gabi"], 114, {"Gabi": 1}, id="§3-narru-7p-alone-all-points"),
    ],
)
def test_striche(n: int, members: list[str], points: int, striche: dict[str, int]) -> None:
    """One Strich per member of the winning side (>= 58 of 114); nothing else moves."""
    result = last(EISTEN_STALDEN, seats(n), team(members, points))
    assert result.tally == dict.fromkeys(seats(n), 0) | striche
    assert result.deltas == dict.fromkeys(seats(n), 0)
    assert all(line.transfers == () for line in result.score.lines)


@pytest.mark.parametrize(
    ("tally", "expected"),
    [
        pytest.param({"Anna": 1, "Beat": 2, "Carla": 0, "Dani": 1}, ("Beat",), id="one-leader"),
        pytest.param({"Anna": 3, "Beat": 1, "Carla": 3}, ("Anna", "Carla"), id="shared-by-two"),
        pytest.param(dict.fromkeys(NAMES[:5], 2), NAMES[:5], id="shared-by-all"),
        pytest.param(dict.fromkeys(NAMES[:4], 0), (), id="no-strich-yet"),
        pytest.param({}, (), id="no-players"),
    ],
)
def test_leaders(tally: dict[str, int], expected: tuple[str, ...]) -> None:
    """The Tagessieger has the most Striche; a tie shares the title (§3 [R])."""
    assert leaders(tally) == expected


def test_leaders_of_an_evening_with_a_tie() -> None:
    """Hands won by different sides: a shared Tagessieger, in playing order."""
    hands = [team(["Anna", "Beat"], 80), team(["Beat", "Carla"], 20), team(["Beat", "Carla"], 80)]
    ledger = play(EISTEN_STALDEN, seats(4), hands)
    assert ledger.tally == {"Anna": 2, "Beat": 2, "Carla": 1, "Dani": 1}
    assert leaders(ledger.tally) == ("Anna", "Beat")


TEAM_REFUSED = [
    pytest.param(
        4, team(["Anna"], 60), "The declaring side at 4 players has 2, not 1.", id="4p-alone"
    ),
    pytest.param(
        4, team(["Anna", "Beat", "Carla"], 60), "at 4 players has 2, not 3", id="4p-three-members"
    ),
    pytest.param(3, team(["Anna", "Beat"], 60), "at 3 players has 1, not 2", id="3p-two-members"),
    pytest.param(6, team(["Anna"], 60), "at 6 players has 2 or 3, not 1", id="6p-one"),
    pytest.param(
        8, team(["Anna", "Beat", "Carla"], 60), "at 8 players has 1 or 2, not 3", id="8p-three"
    ),
    pytest.param(4, team(["Anna", "Zoe"], 60), "Zoe is not at the table.", id="not-at-the-table"),
    pytest.param(
        4, team(["Anna", "anna"], 60), "Anna is given more than once.", id="same-player-twice"
    ),
    pytest.param(4, team([], 60), "Choose the players of the declaring side.", id="empty"),
    pytest.param(
        4,
        team(["Anna", "Beat"], 60),
        "At 4 players the dealer, Dani, always plays on the declaring side.",
        id="4p-without-the-dealer",
    ),
    pytest.param(
        6,
        team(["Anna", "Beat", "Carla"], 60),
        "At 6 players the dealer, Fritz, always plays on the declaring side.",
        id="6p-without-the-dealer",
    ),
    pytest.param(
        4,
        {"contract": "team", "team": "Anna", "points": 60},
        "Choose the players of the declaring side.",
        id="not-a-list",
    ),
]


@pytest.mark.parametrize(("n", "raw", "text"), TEAM_REFUSED)
def test_team_refused(n: int, raw: Facts, text: str) -> None:
    """The declaring side must be seated players, each once, as many as the rules give."""
    errors = refused(EISTEN_STALDEN, seats(n), raw)
    assert list(errors) == ["team"]
    assert any(text in m for m in errors["team"]), errors


@pytest.mark.parametrize(
    ("raw", "field", "text"),
    [
        pytest.param(team(["Anna", "Beat"], 115), "points", "between 0 and 114", id="points-115"),
        pytest.param(team(["Anna", "Beat"], -3), "points", "between 0 and 114", id="points-neg"),
        pytest.param(
            {"contract": "team", "team": ["Anna", "Beat"]},
            "points",
            "Enter the card points of the declaring side.",
            id="points-missing",
        ),
        pytest.param(
            team(["Anna", "Beat"], 60) | {"contract": "normal"},
            "contract",
            "Choose one of: team.",
            id="money-contract",
        ),
        pytest.param(
            team(["Anna", "Beat"], 60) | {"declarer": "Anna"},
            "declarer",
            "Unknown field declarer.",
            id="unknown-field",
        ),
    ],
)
def test_eisten_stalden_refused(raw: Facts, field: str, text: str) -> None:
    """Points 0 to 114, the one contract, no fields of the money variants."""
    errors = refused(EISTEN_STALDEN, seats(4), raw)
    assert any(text in m for m in errors[field]), errors


def test_eisten_stalden_record() -> None:
    """The team is stored in playing order with the table's spelling; contract optional."""
    hand = parse(EISTEN_STALDEN, seats(4), {"team": ["dani", "Anna"], "points": "61"})
    assert hand == TeamHand(("Anna", "Dani"), 61)
    assert hand.to_json() == {"contract": "team", "team": ["Anna", "Dani"], "points": 61}
    assert parse(EISTEN_STALDEN, seats(4), hand.to_json()) == hand


def test_eisten_stalden_settles_to_nothing() -> None:
    """No money options, so the settlement is all zeros with no payments (docs/api.md)."""
    assert EISTEN_STALDEN.option_specs == ()
    assert options(EISTEN_STALDEN) == {}
    with pytest.raises(InvalidSettingsError) as caught:
        parse_options(EISTEN_STALDEN.option_specs, {"unit_value": "0.10"})
    assert list(caught.value.errors) == ["options.unit_value"]
    players = seats(4)
    ledger = play(EISTEN_STALDEN, players, [facts for facts, _ in T11])
    s = settle(EISTEN_STALDEN, {}, ledger, Table(players, "Anna"))
    assert s.net == dict.fromkeys(players, 0)
    assert s.final == dict.fromkeys(players, 0)
    assert (s.transfers, s.pairwise, s.closing) == ((), (), ())


# -- the team suggestion (§3 "Teams") ---------------------------------------------------


def suggested(n: int, dealer: str, **holders: object) -> tuple[str, ...]:
    """The suggested team at a table of ``n`` dealt by ``dealer``."""
    return suggest_team(Table(seats(n), dealer), Holders(**holders))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("n", "dealer", "holders", "expected"),
    [
        pytest.param(3, "Anna", {"fool": "Carla"}, ("Carla",), id="3p-fool-holder-alone"),
        pytest.param(3, "Anna", {}, ("Beat",), id="3p-fool-in-tappi-next-to-dealer"),
        pytest.param(4, "Carla", {"called": ("Anna",)}, ("Anna", "Carla"), id="4p-dealer-king"),
        pytest.param(
            5, "Ella", {"declarer": "Beat", "called": ("Dani",)}, ("Beat", "Dani"), id="5p-pair"
        ),
        pytest.param(5, "Ella", {"declarer": "Beat"}, ("Beat",), id="5p-alone"),
        pytest.param(
            6,
            "Anna",
            {"mund": "Carla", "bagat": "Fritz"},
            ("Anna", "Carla", "Fritz"),
            id="6p-dealer-mund-bagat",
        ),
        pytest.param(
            6,
            "Anna",
            {"mund": "Anna", "bagat": "Anna", "called": ("Beat", "Ella")},
            ("Anna", "Beat", "Ella"),
            id="6p-dealer-holds-both-calls-two-kings",
        ),
        pytest.param(
            6,
            "Anna",
            {"mund": "Dani", "bagat": "Dani", "called": ("Beat",)},
            ("Anna", "Beat", "Dani"),
            id="6p-widersaege",
        ),
        pytest.param(
            7, "Anna", {"fool": "Dani", "called": ("Gabi",)}, ("Dani", "Gabi"), id="7p-helper"
        ),
        pytest.param(8, "Anna", {"fool": "Dani"}, ("Dani",), id="8p-helper-in-tappi"),
        pytest.param(
            8, "Hans", {"called": ("Gabi",)}, ("Anna",), id="8p-fool-in-tappi-forehand-alone"
        ),
    ],
)
def test_suggest_team(
    n: int, dealer: str, holders: dict[str, object], expected: tuple[str, ...]
) -> None:
    """The form's suggestion follows the team rule for the table size, in playing order."""
    team_members = suggested(n, dealer, **holders)
    assert team_members == expected
    table = Table(seats(n), dealer)
    assert isinstance(EISTEN_STALDEN.parse_hand(team(team_members, 60), table, {}), TeamHand)


@pytest.mark.parametrize("n", range(3, 9))
def test_team_rule_for_every_size(n: int) -> None:
    """Each table size has a rule with its questions and a one-line explanation."""
    rule = team_rule(n)
    assert rule.players == n
    assert rule.asks
    assert rule.explanation.render()


# -- registry and options ---------------------------------------------------------------


def test_registry() -> None:
    """Five Troggu variants, Visp the default; Troggen is unchanged."""
    assert get_variant("troggu") is TROGGU_VISP
    assert [k for g, k in VARIANTS if g == "troggu"] == [
        "visp",
        "st-niklaus",
        "graechen",
        "flat",
        "eisten-stalden",
    ]
    assert get_variant("troggu", "eisten-stalden") is EISTEN_STALDEN
    assert get_variant("troggen") is TROGGEN
    assert [v.title.render() for v in (*MONEY_VARIANTS, EISTEN_STALDEN)] == [
        "Troggu (Visp)",
        "Troggu (St. Niklaus)",
        "Troggu (Grächen)",
        "Troggu (flat stake)",
        "Troggu (Eisten-Stalden)",
    ]
    assert EISTEN_STALDEN.keeps_tally
    assert not any(v.keeps_tally for v in (*MONEY_VARIANTS, TROGGEN))


@pytest.mark.parametrize(
    ("key", "unit_value"),
    [("visp", "0.10"), ("st-niklaus", "0.05"), ("graechen", "0.05"), ("flat", "0.10")],
)
def test_default_base_amount(key: str, unit_value: str) -> None:
    """B is 10 Rappen in Visp and at the flat stake, 5 in St. Niklaus and Grächen."""
    assert options(BY_KEY[key]) == {"unit_value": unit_value, "currency": "CHF", "coin": "0.05"}


def test_money_variants_close_nothing() -> None:
    """Every payment is direct: no common account, nothing to resolve at the end."""
    ledger = play(TROGGU_VISP, seats(4), [game("normal", "Anna", 80)])
    for variant in MONEY_VARIANTS:
        assert variant.common_accounts == ()
        assert variant.close_evening(ledger.state, Table(seats(4), "Anna"), {}) == ()


def test_troggen_keeps_no_tally() -> None:
    """The tally is additive: a Troggen evening's tally is all zeros, its ledger unchanged."""
    records = [
        HandRecord(
            1, Table(seats(4), "Anna"), {"contract": "einfach", "bidder": "Beat", "points": 40}
        )
    ]
    ledger = replay(TROGGEN, parse_options(TROGGEN.option_specs, {}), records)
    assert ledger.tally == dict.fromkeys(seats(4), 0)
    assert ledger.hands[0].tally == dict.fromkeys(seats(4), 0)
    assert ledger.hands[0].score.tally == ()
