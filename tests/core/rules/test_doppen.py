"""Doppen scoring against docs/doppen.md: the worked examples, then one table per rule clause.

Test ids cite the example (D1, D2, D5, D10, the seed's Kasse example) or the clause (§4,
§5...) they check, so a failure points at the sentence of the spec the code no longer
follows. Points are per opponent as R in the spec; money is integer cents.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import pytest

from scorekeeper.core.ledger import HandRecord, HandResult, Ledger, replay
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import KASSE, InvalidHandError, InvalidSettingsError, Table
from scorekeeper.core.rules.counting import CardCount, count_points, count_sides
from scorekeeper.core.rules.doppen import DOPPEN, result_per_opponent
from scorekeeper.core.rules.doppen_hand import Contract, GameHand, PassHand, Result, Side
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.settlement import Payment, pairwise_exact, settle

THREE = ("Anne", "Bert", "Clara")
FOUR = ("Anne", "Bert", "Clara", "Dora")

Facts = dict[str, object]


def options(**chosen: str) -> dict[str, str]:
    """The evening's options: the defaults plus the house rules a test chooses."""
    return parse_options(DOPPEN.option_specs, chosen)


def records(players: tuple[str, ...], hands: Sequence[Facts]) -> list[HandRecord]:
    """Hands 1, 2, ... at one table; the last player deals the first hand, then it passes on.

    At four, Dora deals hand 1 and sits out, Anne hand 2, Bert hand 3...
    """
    n = len(players)
    return [
        HandRecord(i + 1, Table(players, players[(i - 1) % n]), facts)
        for i, facts in enumerate(hands)
    ]


def play(players: tuple[str, ...], hands: Sequence[Facts], **chosen: str) -> Ledger:
    """Replay ``hands`` at one table."""
    return replay(DOPPEN, options(**chosen), records(players, hands))


def last(players: tuple[str, ...], hands: Sequence[Facts], **chosen: str) -> HandResult:
    """The result of the last of ``hands``."""
    return play(players, hands, **chosen).hands[-1]


def lines(result: HandResult) -> dict[str, dict[str, int]]:
    """The hand's lines by their English label."""
    return {line.label.render(): line.amounts() for line in result.score.lines}


def notes(result: HandResult) -> dict[str, dict[str, int]]:
    """The hand's Kasse notes by their English label (a label twice: the later wins)."""
    return {note.label.render(): note.amounts() for note in result.score.notes}


def refused(raw: Mapping[str, object], players: tuple[str, ...] = THREE) -> dict[str, list[str]]:
    """The rendered messages per field of a hand the rules refuse (the last player deals)."""
    with pytest.raises(InvalidHandError) as caught:
        DOPPEN.parse_hand(raw, Table(players, players[-1]), options())
    return {k: [m.render() for m in ms] for k, ms in caught.value.errors.items()}


def game(contract: str, soloist: str | None, points: int | None = None, **more: object) -> Facts:
    """The facts of a played hand."""
    facts: Facts = {"contract": contract, "soloist": soloist, **more}
    if points is not None:
        facts["points"] = points
    return facts


def per_opponent(result: HandResult, soloist: str, r: int) -> dict[str, int]:
    """The deltas when each opponent pays ``r`` to ``soloist``."""
    table = result.record.table
    return {p: r * (table.size - 1) if p == soloist else -r for p in table.players}


# -- worked examples (§12) --------------------------------------------------------------

D1 = game("dreier", "Anne", 41)
D2 = game(
    "zweier",
    "Bert",
    33,
    kontra={"game": 1},
    announced={"uhu": "Bert"},
    pagat={"player": "Clara", "result": "won"},
    uhu={"player": "Bert", "result": "won"},
)
D5 = game(
    "dreier",
    "Bert",
    37,
    kontra={"game": 1, "pagat": 2},
    announced={"pagat": "Bert"},
    pagat={"player": "Bert", "result": "won"},
    uhu={"player": "Anne", "result": "won"},
)

WORKED = [
    pytest.param(
        D1,
        "Anne",
        16,
        {"Game won with 41 card points": 16},
        id="D1-dreier-41",
    ),
    pytest.param(
        D2,
        "Bert",
        -28,
        {
            "Game lost with 33 card points, times 2 by Kontra": -48,
            "Pagat won, silent": -20,
            "Uhu announced and won": 40,
        },
        id="D2-zweier-kontra-opponents-pagat-announced-uhu",
    ),
    pytest.param(
        D5,
        "Bert",
        94,
        {
            "Game won with 37 card points, times 2 by Kontra": 24,
            "Pagat announced and won, times 4 by Kontra": 80,
            "Uhu won, silent": -10,
        },
        id="D5-kontra-re-on-the-pagat",
    ),
]


@pytest.mark.parametrize(("facts", "soloist", "r", "items"), WORKED)
def test_worked_example(facts: Facts, soloist: str, r: int, items: dict[str, int]) -> None:
    """R per opponent, each item separately, and the soloist receives it twice (§7)."""
    result = last(THREE, [facts])
    assert result.deltas == per_opponent(result, soloist, r)
    assert sum(result.deltas.values()) == 0
    opponent = next(p for p in THREE if p != soloist)
    point_lines = {k: v for k, v in lines(result).items() if not k.startswith("Kasse")}
    assert {k: -v[opponent] for k, v in point_lines.items()} == items
    assert DOPPEN.columns(result.state) == {p: r if p == soloist else 0 for p in THREE}


@pytest.mark.parametrize(("facts", "soloist", "r", "items"), WORKED)
def test_worked_example_lines_explain_the_deltas(
    facts: Facts, soloist: str, r: int, items: dict[str, int]
) -> None:
    """Point lines add up to the deltas, money lines to the money deltas."""
    result = last(THREE, [facts])
    points: dict[str, int] = {}
    money: dict[str, int] = {}
    for line in result.score.lines:
        amounts = line.amounts()
        assert sum(amounts.values()) == 0
        target = money if line.money else points
        for account, amount in amounts.items():
            target[account] = target.get(account, 0) + amount
    assert {p: points.get(p, 0) for p in THREE} == result.deltas
    assert {p: money.get(p, 0) for p in THREE} == result.money_deltas


def test_d1_in_money() -> None:
    """D1 at 2 ct a point: Anne +0.64 €, each opponent -0.32 € (the Kasse shares out even)."""
    ledger = play(THREE, [D1])
    s = settle(DOPPEN, options(), ledger, Table(THREE, "Anne"))
    assert s.net == {"Bert": -32, "Clara": -32, "Anne": 64}
    assert s.money == {"Bert": 0, "Clara": 0, "Anne": 0}


def test_d5_kasse() -> None:
    """D5 Kasse: K = 3.00 (c = 1 each), Pagat doubled twice: each pays Bert 4 · 1.00."""
    result = last(THREE, [D5])
    assert result.money_deltas == {"Anne": -400, "Bert": 800, "Clara": -400}
    won = [line for line in result.score.lines if line.money]
    assert [line.label.render() for line in won] == [
        "Kasse won with the announced Pagat, times 4 by Kontra"
    ]
    kasse = DOPPEN.kasse_view(result.state)
    assert kasse.contents == 300  # struck out, then refilled
    assert kasse.owed() == dict.fromkeys(THREE, 100)


def test_d10_card_counting() -> None:
    """D10: 20 cards worth 49 count 36, the other 34 cards worth 57 count 34; R = 22."""
    soloist = {"fives": 4, "fours": 2, "threes": 2, "twos": 3, "ones": 9, "cards": 20}
    opponents = {"fives": 3, "fours": 2, "threes": 2, "twos": 1, "ones": 26, "cards": 34}
    assert count_points(**soloist) == 36
    assert count_points(**opponents) == 34
    assert count_sides(soloist, opponents) == (36, 34)
    assert CardCount(fives=4, fours=2, threes=2, twos=3, ones=9).raw == 49
    assert last(THREE, [game("zweier", "Anne", 36)]).deltas["Anne"] == 2 * 22


# -- the seed's Kasse example (§9) ------------------------------------------------------

SEED_PASS: Facts = {"contract": "pass"}
SEED_BERT_LOSES = game(
    "dreier", "Clara", 40, announced={"pagat": "Bert"}, pagat={"player": "Bert", "result": "lost"}
)


def seed_anne_wins(kontra: int) -> Facts:
    """Anne's announced Pagat wins, doubled ``kontra`` times."""
    return game(
        "dreier",
        "Anne",
        40,
        announced={"pagat": "Anne"},
        kontra={"pagat": kontra},
        pagat={"player": "Anne", "result": "won"},
    )


def test_seed_kasse_notes() -> None:
    """Refill 1 (K 3.00), all pass 1.50 (K 4.50), Bert's lost Pagat notes 4.50 (K 9.00)."""
    ledger = play(THREE, [SEED_PASS, SEED_BERT_LOSES])
    first, second = (DOPPEN.kasse_view(r.state) for r in ledger.hands)
    assert first.contents == 450
    assert first.common_notes() == dict.fromkeys(THREE, 150)
    assert first.individual_notes() == {}
    assert second.contents == 900
    assert second.common_notes() == dict.fromkeys(THREE, 150)
    assert second.individual_notes() == {"Bert": 450}
    assert second.owed() == {"Anne": 150, "Bert": 600, "Clara": 150}
    assert notes(ledger.hands[0]) == {
        "Kasse empty: everybody pays the base in": {**dict.fromkeys(THREE, -100), KASSE: 300},
        "Everybody passed: half the base into the Kasse": {
            **dict.fromkeys(THREE, -50),
            KASSE: 150,
        },
    }
    assert notes(ledger.hands[1]) == {
        "Announced Pagat lost: the Kasse doubles": {"Bert": -450, KASSE: 450}
    }
    assert all(r.money_deltas == dict.fromkeys(THREE, 0) for r in ledger.hands)


@pytest.mark.parametrize(
    ("kontra", "paid"),
    [
        pytest.param(0, {"Bert": 600, "Clara": 150}, id="§9-seed-pagat-wins"),
        pytest.param(1, {"Bert": 1200, "Clara": 300}, id="§9-seed-pagat-wins-kontra"),
    ],
)
def test_seed_kasse_won(kontra: int, paid: dict[str, int]) -> None:
    """Anne wins: Bert pays 6.00 and Clara 1.50 (Kontra: 12.00 and 3.00); then a refill."""
    result = last(THREE, [SEED_PASS, SEED_BERT_LOSES, seed_anne_wins(kontra)])
    assert result.money_deltas == {"Anne": sum(paid.values()), **{p: -a for p, a in paid.items()}}
    kasse = DOPPEN.kasse_view(result.state)
    assert kasse.owed() == dict.fromkeys(THREE, 100)
    assert kasse.individual_notes() == {}


def test_seed_evening_settles() -> None:
    """The seed's evening in money: points at 2 ct, the Kasse won, the refill shared back."""
    ledger = play(THREE, [SEED_PASS, SEED_BERT_LOSES, seed_anne_wins(0)])
    assert ledger.balances == {"Anne": 35, "Bert": -70, "Clara": 35}
    assert ledger.money == {"Anne": 750, "Bert": -600, "Clara": -150}
    s = settle(DOPPEN, options(), ledger, Table(THREE, "Anne"))
    assert [line.label.render() for line in s.closing] == [
        "Kasse notes paid in",
        "Kasse shared out equally",
    ]
    assert s.money == {"Bert": -600, "Clara": -150, "Anne": 750}
    assert s.net == {"Bert": -740, "Clara": -80, "Anne": 820}
    owed = {(p.target, p.source): p.amount for p in s.pairwise}
    # Points: S = (Anne 35, Bert 0, Clara 35), so Bert owes each 35 points (0.70).
    assert owed == {("Anne", "Bert"): 600 + 70, ("Anne", "Clara"): 150, ("Clara", "Bert"): 70}


# -- §1 the table of four ---------------------------------------------------------------


def test_dealer_sits_out_and_pays_as_an_opponent() -> None:
    """At four Dora deals hand 1: Anne's D1 is paid by Bert, Clara and Dora (3 times 16)."""
    result = last(FOUR, [D1])
    assert result.record.table.dealer == "Dora"
    assert result.deltas == {"Anne": 48, "Bert": -16, "Clara": -16, "Dora": -16}
    assert DOPPEN.kasse_view(result.state).owed() == dict.fromkeys(FOUR, 100)


def test_four_players_rotate_who_sits_out() -> None:
    """Hand 2 is dealt by Anne, who sits out; Dora may now play."""
    ledger = play(FOUR, [D1, game("solo", "Dora", 20)])
    assert ledger.hands[1].record.table.dealer == "Anne"
    assert ledger.hands[1].deltas == {"Anne": 100, "Bert": 100, "Clara": 100, "Dora": -300}
    assert DOPPEN.columns(ledger.state) == {"Anne": 16, "Bert": 0, "Clara": 0, "Dora": -100}


def test_soloist_sitting_out_is_refused() -> None:
    """The soloist cannot be the dealer who sits out."""
    errors = refused(game("dreier", "Dora", 41), FOUR)
    assert errors == {"soloist": ["Dora deals this hand and sits out."]}


def test_at_three_the_dealer_plays() -> None:
    """Nobody sits out at three: the dealer may be the soloist."""
    assert last(THREE, [game("dreier", "Clara", 41)]).deltas["Clara"] == 32


# -- §4 the game ------------------------------------------------------------------------

GAME_VALUES = [
    pytest.param(contract, points, r * gf, id=f"§4-{contract}-{points}")
    for contract, gf in (("dreier", 1), ("unterer", 2), ("zweier", 2), ("einer", 3), ("solo", 4))
    for points, r in ((36, 11), (35, -10), (30, -15), (70, 45), (0, -45))
]


@pytest.mark.parametrize(("contract", "points", "r"), GAME_VALUES)
def test_game_value(contract: str, points: int, r: int) -> None:
    """(10 + |P - 35|) · GF; 36 wins, 35 : 35 goes to the opponents."""
    result = last(THREE, [game(contract, "Bert", points)])
    assert result.deltas == per_opponent(result, "Bert", r)


@pytest.mark.parametrize(
    ("doublings", "factor"), [(0, 1), (1, 2), (2, 4), (3, 8), (10, 1024), (11, 2048), (64, 2**64)]
)
def test_game_doublings(doublings: int, factor: int) -> None:
    """Kontra doubles, Re quadruples, Subkontra 8 times..., with no limit (§4, §6)."""
    result = last(THREE, [game("dreier", "Bert", 41, kontra={"game": doublings})])
    assert result.deltas["Anne"] == -16 * factor


@pytest.mark.parametrize("key", ["game", "pagat"])
def test_more_doublings_than_tables_play_are_confirmed(key: str) -> None:
    """Up to ten doublings pass as they are; more are possible but asked to be confirmed."""
    table = Table(THREE, "Clara")
    usual = game("dreier", "Anne", 41, kontra={key: 10}, announced={"pagat": "Anne"})
    hand = DOPPEN.parse_hand(usual, table, options())
    assert DOPPEN.warnings(hand, table, options()) == {}
    many = game("dreier", "Anne", 41, kontra={key: 12}, announced={"pagat": "Anne"})
    hand = DOPPEN.parse_hand(many, table, options())
    warnings = DOPPEN.warnings(hand, table, options())
    assert {k: [m.render() for m in v] for k, v in warnings.items()} == {
        f"kontra.{key}": [
            "12 doublings multiply this by 4096. Please check: Kontra is 1, Re 2, Subkontra 3."
        ]
    }


# -- §5 Valat ---------------------------------------------------------------------------

VALATS = [
    pytest.param(game("dreier", "Anne", valat="soloist"), 50, id="§5-silent-valat-soloist"),
    pytest.param(game("einer", "Anne", valat="opponents"), -150, id="§5-silent-valat-opponents"),
    pytest.param(
        game("zweier", "Anne", valat="soloist", kontra={"game": 1}),
        200,
        id="§5-silent-valat-with-game-kontra",
    ),
    pytest.param(
        game("unterer", "Anne", announced={"valat": True}, valat="soloist"),
        200,
        id="§5-announced-valat-won-uses-gf",
    ),
    pytest.param(
        game("dreier", "Anne", announced={"valat": True}, kontra={"valat": 2}, valat="soloist"),
        400,
        id="§6-announced-valat-re",
    ),
    pytest.param(
        game("solo", "Anne", announced={"valat": True}),
        -400,
        id="§5-announced-valat-failed",
    ),
    pytest.param(
        game("dreier", "Anne", announced={"valat": True}, kontra={"valat": 1}, valat="opponents"),
        -200,
        id="§5-announced-valat-failed-opponents-took-all",
    ),
]


@pytest.mark.parametrize(("facts", "r"), VALATS)
def test_valat_replaces_the_game(facts: Facts, r: int) -> None:
    """50·GF silent (game Kontra applies), 100·GF·K announced; a failed one pays 100·GF·K."""
    result = last(THREE, [facts])
    assert result.deltas == per_opponent(result, "Anne", r)
    assert len(result.score.lines) == 1
    assert not any("card points" in label for label in lines(result))


def test_valat_keeps_the_premiums() -> None:
    """Pagat, Trull and Könige are scored on top of a Valat (§5)."""
    facts = game(
        "dreier",
        "Anne",
        valat="soloist",
        pagat={"player": "Anne", "result": "won"},
        trull="Anne",
        kings="Anne",
    )
    assert last(THREE, [facts]).deltas["Bert"] == -(50 + 10 + 10 + 10)


# -- §5 Pagat and Uhu -------------------------------------------------------------------

TRICK_PREMIUMS = [
    pytest.param({"pagat": {"player": "Anne", "result": "won"}}, 10, id="§5-pagat-won-silent"),
    pytest.param({"pagat": {"player": "Anne", "result": "lost"}}, -10, id="§5-pagat-lost-silent"),
    pytest.param({"uhu": {"player": "Anne", "result": "lost"}}, -10, id="§5-uhu-lost-silent"),
    pytest.param(
        {"announced": {"uhu": "Anne"}, "uhu": {"player": "Anne", "result": "lost"}},
        -20,
        id="§5-uhu-announced-lost",
    ),
    pytest.param({"announced": {"uhu": "Anne"}}, -20, id="§5-uhu-announced-did-not-happen"),
    pytest.param(
        {"announced": {"uhu": "Anne"}, "kontra": {"uhu": 1}}, -40, id="§6-uhu-announced-kontra"
    ),
    pytest.param({"pagat": {"player": "Bert", "result": "won"}}, -10, id="§5-opponent-pagat-won"),
    pytest.param({"pagat": {"player": "Clara", "result": "lost"}}, 10, id="§5-opponent-pagat-lost"),
    pytest.param(
        {"announced": {"uhu": "Bert"}, "uhu": {"player": "Bert", "result": "won"}},
        -20,
        id="§5-opponent-uhu-announced-won",
    ),
    pytest.param(
        {"announced": {"uhu": "Clara"}, "kontra": {"uhu": 2}},
        80,
        id="§5-opponent-uhu-announced-lost-re",
    ),
]


@pytest.mark.parametrize(("more", "premium"), TRICK_PREMIUMS)
def test_pagat_and_uhu(more: dict[str, object], premium: int) -> None:
    """To whichever side earned it: 10·PF silent, 20·PF·K announced (Zweier: PF 2)."""
    result = last(THREE, [game("zweier", "Anne", 41, **more)])
    assert result.deltas["Anne"] == 2 * (2 * 16 + 2 * premium)


@pytest.mark.parametrize(
    ("announcer", "soloist", "result", "kasse_delta"),
    [
        pytest.param("Anne", "Anne", "lost", {"Anne": 300}, id="§8-soloist-pagat-lost"),
        pytest.param("Bert", "Anne", "lost", {"Bert": 300}, id="§8-opponent-pagat-lost"),
        pytest.param("Bert", "Anne", None, {"Bert": 300}, id="§8-pagat-did-not-happen"),
    ],
)
def test_announced_pagat_lost_doubles_the_kasse(
    announcer: str, soloist: str, result: str | None, kasse_delta: dict[str, int]
) -> None:
    """The announcer owes what the Kasse holds; the premium goes to the other side."""
    played = {"pagat": {"player": announcer, "result": result}} if result else {}
    facts = game("dreier", soloist, 41, announced={"pagat": announcer}, **played)
    hand = last(THREE, [facts])
    kasse = DOPPEN.kasse_view(hand.state)
    assert kasse.contents == 600
    assert kasse.individual_notes() == kasse_delta
    assert hand.money_deltas == dict.fromkeys(THREE, 0)
    sign = 1 if announcer != soloist else -1
    assert hand.deltas[soloist] == 2 * (16 + sign * 20)


def test_opponent_wins_the_kasse() -> None:
    """An opponent's announced Pagat wins the Kasse for them and 20·PF from the soloist."""
    facts = game(
        "dreier", "Anne", 41, announced={"pagat": "Bert"}, pagat={"player": "Bert", "result": "won"}
    )
    hand = last(THREE, [facts])
    assert hand.money_deltas == {"Anne": -100, "Bert": 200, "Clara": -100}
    assert hand.deltas == {"Anne": 2 * (16 - 20), "Bert": -(16 - 20), "Clara": -(16 - 20)}


def test_kontra_on_a_lost_pagat_doubles_the_payment_into_the_kasse() -> None:
    """A lost announced Pagat after Kontra pays twice the contents (§8)."""
    facts = game("dreier", "Anne", 41, announced={"pagat": "Anne"}, kontra={"pagat": 1})
    kasse = DOPPEN.kasse_view(last(THREE, [facts]).state)
    assert kasse.individual_notes() == {"Anne": 600}
    assert kasse.contents == 900


def test_silent_pagat_does_not_touch_the_kasse() -> None:
    """Only an announced Pagat plays for the Kasse (§8)."""
    hand = last(THREE, [game("dreier", "Anne", 41, pagat={"player": "Anne", "result": "won"})])
    assert hand.money_deltas == dict.fromkeys(THREE, 0)
    assert DOPPEN.kasse_view(hand.state).contents == 300


# -- §5 Trull and Könige ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "holder", "premium"),
    [
        pytest.param("dreier", "Anne", 10, id="§5-trull-soloist"),
        pytest.param("unterer", "Anne", 10, id="§5-trull-unterer-pf-1"),
        pytest.param("einer", "Bert", -30, id="§5-trull-opponent-einer"),
        pytest.param("solo", "Clara", -40, id="§5-trull-opponent-solo"),
    ],
)
@pytest.mark.parametrize("premium_key", ["trull", "kings"])
def test_trull_and_kings(contract: str, holder: str, premium: int, premium_key: str) -> None:
    """10·PF to the holder's side, never doubled."""
    plain = last(THREE, [game(contract, "Anne", 41)])
    held = last(THREE, [game(contract, "Anne", 41, **{premium_key: holder})])
    assert held.deltas["Anne"] - plain.deltas["Anne"] == 2 * premium
    label = "Trull" if premium_key == "trull" else "Kings"
    assert lines(held)[label]["Anne"] == 2 * premium


# -- §8 the Kasse: refill, all pass, revoke ----------------------------------------------


def test_all_pass_notes_half_the_base_for_everyone() -> None:
    """The first hand refills (1.00 each), the pass adds 0.50 each, nothing is paid."""
    result = last(FOUR, [SEED_PASS])
    assert result.score.lines == ()
    assert result.deltas == dict.fromkeys(FOUR, 0)
    kasse = DOPPEN.kasse_view(result.state)
    assert kasse.owed() == dict.fromkeys(FOUR, 150)
    assert kasse.contents == 600
    assert DOPPEN.columns(result.state) == dict.fromkeys(FOUR, 0)


def test_kasse_base_option() -> None:
    """A base of 2.00: the refill notes 2.00 each, a pass 1.00."""
    result = last(THREE, [SEED_PASS], kasse_base="2.00")
    assert DOPPEN.kasse_view(result.state).owed() == dict.fromkeys(THREE, 300)


@pytest.mark.parametrize(
    ("facts", "individual"),
    [
        pytest.param(
            game("dreier", "Anne", 41, penalties=[{"player": "Bert", "kind": "revoke"}]),
            {"Bert": 50},
            id="§8-revoke",
        ),
        pytest.param(
            game("dreier", "Anne", 41, penalties=[{"player": "Bert"}, {"player": "Bert"}]),
            {"Bert": 100},
            id="§8-two-revokes-kind-defaults",
        ),
        pytest.param(
            {"contract": "pass", "penalties": [{"player": "Clara", "kind": "revoke"}]},
            {"Clara": 50},
            id="§8-revoke-on-a-pass-hand",
        ),
    ],
)
def test_revoke_notes_half_the_base(facts: Facts, individual: dict[str, int]) -> None:
    """A revoke notes half the base at the foot of the offender's column; no points move."""
    plain = last(THREE, [{**facts, "penalties": []}])
    result = last(THREE, [facts])
    assert result.deltas == plain.deltas
    assert DOPPEN.kasse_view(result.state).individual_notes() == individual
    assert "Revoke: half the base into the Kasse" in notes(result)


def test_revoke_is_noted_before_the_pagat_wins_the_kasse() -> None:
    """Order within a hand: penalties first, then the Pagat against the Kasse (§8)."""
    facts = game(
        "dreier",
        "Anne",
        41,
        announced={"pagat": "Anne"},
        pagat={"player": "Anne", "result": "won"},
        penalties=[{"player": "Bert", "kind": "revoke"}],
    )
    assert last(THREE, [facts]).money_deltas == {"Anne": 250, "Bert": -150, "Clara": -100}


def test_sitting_out_dealer_refills_and_shares() -> None:
    """At four everyone seated pays the refill and shares the Kasse at the end (§8 R)."""
    ledger = play(FOUR, [D1, SEED_PASS])
    assert DOPPEN.kasse_view(ledger.state).owed() == dict.fromkeys(FOUR, 150)
    s = settle(DOPPEN, options(), ledger, Table(FOUR, "Bert"))
    assert s.money == dict.fromkeys(("Clara", "Dora", "Anne", "Bert"), 0)
    assert s.closing[1].amounts() == {KASSE: -600, **dict.fromkeys(FOUR, 150)}


def test_end_split_remainder_from_the_next_forehand() -> None:
    """Cents that do not divide go one each from the next forehand (docs/settlement.md)."""
    facts = game("dreier", "Anne", 41, announced={"pagat": "Anne"}, kontra={"pagat": 3})
    ledger = play(THREE, [facts], kasse_base="0.02")  # K = 6 + 8 * 6 = 54 cents
    lost = play(THREE, [facts, SEED_PASS], kasse_base="0.02")  # + 3: 57 cents, 19 each
    assert DOPPEN.kasse_view(ledger.state).contents == 54
    assert DOPPEN.kasse_view(lost.state).contents == 57
    s = settle(DOPPEN, options(kasse_base="0.02"), lost, Table(THREE, "Bert"))
    assert s.closing[1].amounts() == {KASSE: -57, "Anne": 19, "Bert": 19, "Clara": 19}
    short = play(THREE, [SEED_PASS, game("dreier", "Anne", 41, penalties=[{"player": "Bert"}])])
    s = settle(DOPPEN, options(), short, Table(THREE, "Bert"))
    # K = 4.50 + 0.50 = 5.00 = 166 + 167 + 167, the extra cents to Clara then Anne.
    assert s.closing[1].amounts() == {KASSE: -500, "Anne": 167, "Bert": 166, "Clara": 167}


# -- §10 the Aufschreibsystem -----------------------------------------------------------


def test_columns_and_pairwise_points() -> None:
    """Each hand's R goes to the soloist's column; j owes i S_i - S_j points (§10)."""
    ledger = play(THREE, [D1, D2, D5])
    columns = DOPPEN.columns(ledger.state)
    assert columns == {"Anne": 16, "Bert": -28 + 94, "Clara": 0}
    n, total = len(THREE), sum(columns.values())
    assert ledger.balances == {p: n * s - total for p, s in columns.items()}
    exact = pairwise_exact(ledger, (), DOPPEN.common_accounts)
    expected = {
        (i, j): Fraction(columns[i] - columns[j])
        for i in THREE
        for j in THREE
        if columns[i] > columns[j]
    }
    assert exact == expected


def test_four_player_column_closed_form() -> None:
    """§10: for 4 players with R = 33 the nets are +99, -33, -33, -33."""
    ledger = play(FOUR, [game("dreier", "Bert", 58)])
    assert DOPPEN.columns(ledger.state) == {"Anne": 0, "Bert": 33, "Clara": 0, "Dora": 0}
    assert ledger.balances == {"Anne": -33, "Bert": 99, "Clara": -33, "Dora": -33}


def test_pairwise_money_attributes_the_kasse_to_those_who_paid_in() -> None:
    """Bert's revoke note is shared out at the end: he owes each other player a third."""
    ledger = play(THREE, [game("dreier", "Anne", 35, penalties=[{"player": "Bert"}])])
    s = settle(DOPPEN, options(), ledger, Table(THREE, "Bert"))
    # Points: Anne pays 10 points (20 ct) to each. Kasse 3.50: Anne and Clara paid in 1.00,
    # Bert 1.50; shared out 1.17, 1.17, 1.16 from the next forehand, Clara.
    assert s.money == {"Clara": 17, "Anne": 17, "Bert": -34}
    assert s.net == {"Clara": 37, "Anne": -23, "Bert": -14}
    # Bert owes Clara and Anne 17 ct each through the Kasse; Anne owes Bert 20 - 17.
    assert set(s.pairwise) == {
        Payment("Anne", "Clara", 20),
        Payment("Bert", "Clara", 17),
        Payment("Anne", "Bert", 3),
    }


# -- the facts as stored ------------------------------------------------------------------


def test_to_json_normalises_the_facts() -> None:
    """Names as seated, every key present, defaults filled in; parsing it again is stable."""
    raw = {"contract": "zweier", "soloist": " bert ", "points": "33", "kontra": {"game": 1}}
    table = Table(THREE, "Clara")
    hand = DOPPEN.parse_hand(raw, table, options())
    assert isinstance(hand, GameHand)
    assert hand.to_json() == {
        "contract": "zweier",
        "soloist": "Bert",
        "points": 33,
        "kontra": {"game": 1, "valat": 0, "pagat": 0, "uhu": 0},
        "announced": {"pagat": None, "uhu": None, "valat": False},
        "pagat": None,
        "uhu": None,
        "valat": None,
        "trull": None,
        "kings": None,
        "penalties": [],
    }
    assert DOPPEN.parse_hand(hand.to_json(), table, options()) == hand


@pytest.mark.parametrize("facts", [D1, D2, D5, SEED_BERT_LOSES, VALATS[3].values[0]])
def test_to_json_round_trip(facts: Facts) -> None:
    """The stored form parses back to the same facts."""
    table = Table(THREE, "Clara")
    hand = DOPPEN.parse_hand(facts, table, options())
    assert DOPPEN.parse_hand(hand.to_json(), table, options()) == hand


def test_pass_hand_json() -> None:
    """A pass with blank fields as a form sends them is a plain pass."""
    raw = {"contract": "pass", "soloist": None, "kontra": {"game": 0}, "announced": {}}
    hand = DOPPEN.parse_hand(raw, Table(THREE, "Clara"), options())
    assert hand == PassHand()
    assert hand.to_json() == {"contract": "pass", "penalties": []}


def test_result_per_opponent_matches_the_deltas() -> None:
    """R as a function of the facts alone."""
    hand = DOPPEN.parse_hand(D2, Table(THREE, "Clara"), options())
    assert isinstance(hand, GameHand)
    assert result_per_opponent(hand) == -28
    assert hand.contract is Contract.ZWEIER
    assert hand.pagat is not None
    assert hand.pagat.result is Result.WON
    assert hand.valat is not Side.SOLOIST


# -- bad input --------------------------------------------------------------------------

BAD = [
    pytest.param(game("dreier", "Anne", 71), "points", "Enter a number between 0 and 70.", id="71"),
    pytest.param(game("dreier", "Anne", -1), "points", "between 0 and 70", id="negative"),
    pytest.param(game("dreier", "Anne"), "points", "Enter the soloist's card points", id="missing"),
    pytest.param(
        game("dreier", "Anne", 41, valat="soloist"), "points", "leave them out", id="with-valat"
    ),
    pytest.param(
        game("dreier", "Anne", 41, kontra={"pagat": 1}),
        "kontra.pagat",
        "Nobody announced the Pagat, so it cannot be doubled.",
        id="kontra-unannounced-pagat",
    ),
    pytest.param(
        game("dreier", "Anne", 41, kontra={"uhu": 2}),
        "kontra.uhu",
        "Nobody announced the Uhu",
        id="kontra-unannounced-uhu",
    ),
    pytest.param(
        game("dreier", "Anne", valat="soloist", kontra={"valat": 1}),
        "kontra.valat",
        "Nobody announced the Valat",
        id="kontra-unannounced-valat",
    ),
    pytest.param(
        game("dreier", "Anne", announced={"valat": True}, kontra={"game": 1}),
        "kontra.game",
        "put the doublings on the Valat",
        id="kontra-game-beside-announced-valat",
    ),
    pytest.param(
        game("dreier", "Anne", 41, kontra={"game": 65}),
        "kontra.game",
        "between 0 and 64",
        id="kontra-too-many",
    ),
    pytest.param(
        game("dreier", "Anne", 41, pagat={"player": "Zoe", "result": "won"}),
        "pagat.player",
        "Zoe is not at the table.",
        id="pagat-not-at-the-table",
    ),
    pytest.param(
        game("dreier", "Anne", 41, uhu={"player": "Zoe", "result": "lost"}),
        "uhu.player",
        "Zoe is not at the table.",
        id="uhu-not-at-the-table",
    ),
    pytest.param(
        game(
            "dreier",
            "Anne",
            41,
            announced={"pagat": "Bert"},
            pagat={"player": "Clara", "result": "lost"},
        ),
        "pagat.player",
        "Bert announced the Pagat, so only Bert can have played it.",
        id="announced-pagat-other-player",
    ),
    pytest.param(
        game("dreier", "Anne", 41, pagat={"player": "Bert", "result": "draw"}),
        "pagat.result",
        "Choose one of: won, lost.",
        id="pagat-result",
    ),
    pytest.param(
        game("dreier", "Anne", 41, pagat="Bert"),
        "pagat",
        "Send this as an object with the keys player, result.",
        id="pagat-not-an-object",
    ),
    pytest.param(
        game("dreier", "Anne", valat="soloist", pagat={"player": "Bert", "result": "won"}),
        "pagat.result",
        "The soloist took every trick",
        id="valat-soloist-opponent-pagat-won",
    ),
    pytest.param(
        game("dreier", "Anne", valat="opponents", uhu={"player": "Anne", "result": "won"}),
        "uhu.result",
        "The opponents took every trick, so the soloist's Uhu was lost.",
        id="valat-opponents-soloist-uhu-won",
    ),
    pytest.param(
        game("dreier", "Anne", 41, trull="Bert", pagat={"player": "Anne", "result": "won"}),
        "pagat.player",
        "Bert held the Trull, so trump I was Bert's.",
        id="trull-holds-the-pagat",
    ),
    pytest.param(
        game("dreier", "Anne", 41, trull="Bert", announced={"pagat": "Clara"}),
        "announced.pagat",
        "Bert held the Trull",
        id="trull-holds-the-announced-pagat",
    ),
    pytest.param(
        game("dreier", "Anne", valat="all"), "valat", "Choose one of: soloist, opponents.", id="v"
    ),
    pytest.param(
        game("dreier", "Anne", 41, announced={"valat": "yes"}),
        "announced.valat",
        "Say true or false.",
        id="announced-valat-not-a-bool",
    ),
    pytest.param(
        game("dreier", "Anne", 41, announced={"kontra": 1}),
        "announced.kontra",
        "Unknown field announced.kontra.",
        id="announced-unknown-key",
    ),
    pytest.param(game("dreier", None, 41), "soloist", "Choose a player.", id="no-soloist"),
    pytest.param(game("dreier", "Zoe", 41), "soloist", "Zoe is not at the table.", id="soloist"),
    pytest.param(
        game("dreier", "Anne", 41, kings="Zoe"), "kings", "Zoe is not at the table.", id="kings"
    ),
    pytest.param(game("sechser", "Anne", 41), "contract", "Choose one of: dreier", id="contract"),
    pytest.param(
        game("dreier", "Anne", 41, bidder="Anne"), "bidder", "Unknown field bidder.", id="unknown"
    ),
    pytest.param(
        {"contract": "pass", "soloist": "Anne"},
        "soloist",
        "Everybody passed, so leave this out.",
        id="pass-with-soloist",
    ),
    pytest.param(
        game("dreier", "Anne", 41, penalties={"player": "Bert"}),
        "penalties",
        "Send the penalties as a list",
        id="penalties-not-a-list",
    ),
    pytest.param(
        game("dreier", "Anne", 41, penalties=[{"player": "Bert", "kind": "misdeal"}]),
        "penalties.0.kind",
        "Choose one of: revoke.",
        id="penalty-kind",
    ),
    pytest.param(
        game("dreier", "Anne", 41, penalties=[{"player": "Bert"}, {"player": "Zoe"}]),
        "penalties.1.player",
        "Zoe is not at the table.",
        id="penalty-player",
    ),
]


@pytest.mark.parametrize(("facts", "field", "text"), BAD)
def test_bad_input(facts: Facts, field: str, text: str) -> None:
    """Impossible facts are refused on their own field with a message that says what to fix."""
    errors = refused(facts)
    assert list(errors) == [field], errors
    assert text in errors[field][0]


BAD_AT_FOUR = [
    pytest.param(game("dreier", "Dora", 41), "soloist", id="soloist-sits-out"),
    pytest.param(
        game("dreier", "Anne", 41, pagat={"player": "Dora", "result": "won"}),
        "pagat.player",
        id="pagat-sits-out",
    ),
    pytest.param(
        game("dreier", "Anne", 41, uhu={"player": "Dora", "result": "lost"}),
        "uhu.player",
        id="uhu-sits-out",
    ),
    pytest.param(
        game("dreier", "Anne", 41, announced={"uhu": "Dora"}), "announced.uhu", id="announcer"
    ),
    pytest.param(game("dreier", "Anne", 41, trull="Dora"), "trull", id="trull-sits-out"),
    pytest.param(
        game("dreier", "Anne", 41, penalties=[{"player": "Dora", "kind": "revoke"}]),
        "penalties.0.player",
        id="revoke-sits-out",
    ),
]


@pytest.mark.parametrize(("facts", "field"), BAD_AT_FOUR)
def test_the_dealer_sitting_out_plays_no_cards(facts: Facts, field: str) -> None:
    """Dora deals at four and sits out: she can neither play, nor hold, nor revoke."""
    assert refused(facts, FOUR) == {field: ["Dora deals this hand and sits out."]}


def test_every_problem_is_named_at_once() -> None:
    """One answer names every field that needs fixing."""
    facts = game("dreier", "Zoe", 80, kontra={"pagat": 1}, uhu={"player": "Anne"})
    assert set(refused(facts)) == {"soloist", "points", "kontra.pagat", "uhu.result"}


def test_stored_hand_that_no_longer_fits_names_its_number() -> None:
    """Replay reports a bad stored hand with its number."""
    with pytest.raises(InvalidHandError) as caught:
        play(THREE, [D1, game("dreier", "Anne", 99)])
    assert caught.value.hand == 2
    assert list(caught.value.errors) == ["points"]


@pytest.mark.parametrize("value", ["1.01", "0.015", "0", "0.00", "-1.00", "abc", "1,00", "0.03"])
def test_kasse_base_must_be_whole_even_cents(value: str) -> None:
    """b is a whole, even number of cents, so that b/2 is whole cents too (§8)."""
    with pytest.raises(InvalidSettingsError) as caught:
        parse_options(DOPPEN.option_specs, {"kasse_base": value})
    assert list(caught.value.errors) == ["options.kasse_base"]
    assert "even number of whole cents" in caught.value.errors["options.kasse_base"][0].render()


@pytest.mark.parametrize("value", ["0.02", "1", "2.50", "1.00"])
def test_kasse_base_accepted(value: str) -> None:
    """Whole even cents pass."""
    assert parse_options(DOPPEN.option_specs, {"kasse_base": value})["kasse_base"] == value


# -- card counting ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        pytest.param({"fives": 0, "fours": 0, "threes": 0, "twos": 0, "ones": 0}, 0, id="none"),
        pytest.param({"fives": 1, "fours": 0, "threes": 0, "twos": 0, "ones": 0}, 4, id="single"),
        pytest.param({"fives": 1, "fours": 1, "threes": 0, "twos": 0, "ones": 0}, 8, id="pair"),
        pytest.param({"fives": 1, "fours": 0, "threes": 0, "twos": 0, "ones": 2}, 5, id="group"),
        pytest.param({"fives": 7, "fours": 4, "threes": 4, "twos": 4, "ones": 35}, 70, id="pack"),
    ],
)
def test_count_points_in_groups_of_three(counts: dict[str, int], points: int) -> None:
    """A group is worth its sum - 2, a pair its sum - 1, a single card its value - 1 (§2)."""
    assert count_points(**counts, cards=sum(counts.values())) == points


@pytest.mark.parametrize(
    ("counts", "field", "text"),
    [
        pytest.param(
            {"fives": 8, "fours": 0, "threes": 0, "twos": 0, "ones": 0, "cards": 8},
            "fives",
            "between 0 and 7",
            id="more-fives-than-the-pack",
        ),
        pytest.param(
            {"fives": 1, "fours": 1, "threes": 1, "twos": 1, "ones": 1, "cards": 6},
            "cards",
            "add up to 5, not 6",
            id="cards-do-not-match",
        ),
        pytest.param(
            {"fives": 1, "fours": 1, "threes": 1, "twos": 1, "ones": 1, "cards": 55},
            "cards",
            "between 0 and 54",
            id="more-cards-than-the-pack",
        ),
    ],
)
def test_count_points_refuses(counts: dict[str, int], field: str, text: str) -> None:
    """Counts beyond the pack, or that do not match the number of cards, are refused."""
    with pytest.raises(InvalidHandError) as caught:
        count_points(**counts)
    assert list(caught.value.errors) == [field]
    assert text in caught.value.errors[field][0].render()


def test_count_sides_checks_the_whole_pack() -> None:
    """The two sides must be the whole pack; then they make 70."""
    soloist = {"fives": "4", "fours": 2, "threes": 2, "twos": 3, "ones": 9, "cards": 20}
    opponents = {"fives": 3, "fours": 2, "threes": 2, "twos": 1, "ones": 25, "cards": 33}
    with pytest.raises(InvalidHandError) as caught:
        count_sides(soloist, opponents)
    assert {k: [m.render() for m in v] for k, v in caught.value.errors.items()} == {
        "opponents.ones": ["The two sides have 34 cards worth 1 between them; the pack has 35."]
    }
    with pytest.raises(InvalidHandError) as caught:
        count_sides({**soloist, "twos": 9}, {**opponents, "cards": 3})
    assert set(caught.value.errors) == {"soloist.twos", "opponents.cards"}


# -- registry ---------------------------------------------------------------------------


def test_registered_as_doppen_kirchberg() -> None:
    """The game's default and only variant; three players, or four with the dealer out."""
    assert get_variant("doppen") is DOPPEN
    assert get_variant("doppen", "kirchberg") is DOPPEN
    assert [DOPPEN.allows_players(n) for n in (2, 3, 4, 5)] == [False, True, True, False]
    assert options() == {
        "unit_value": "0.02",
        "currency": "EUR",
        "coin": "0.01",
        "kasse_base": "1.00",
        "kasse_on_change": "split",
    }
    assert DOPPEN.common_balance(DOPPEN.initial_state()) == {}


# -- §8 a player joins or leaves (kasse_on_change) ------------------------------------------

PASS_WITH_BERTS_REVOKE: Facts = {"contract": "pass", "penalties": [{"player": "Bert"}]}
PASS: Facts = {"contract": "pass"}


def joined(hands: Sequence[Facts], **chosen: str) -> Ledger:
    """Hand 1 at Anne, Bert and Clara (Clara deals); then Dora joins and Anne deals."""
    first = HandRecord(1, Table(THREE, "Clara"), hands[0])
    later = [HandRecord(i + 2, Table(FOUR, FOUR[i % 4]), f) for i, f in enumerate(hands[1:])]
    return replay(DOPPEN, options(**chosen), [first, *later])


def test_a_newcomer_ends_the_partie_for_the_kasse_by_default() -> None:
    """Anne, Bert and Clara stand at 1.50 each and Bert's revoke 0.50 (5.00): when Dora
    sits down, they pay their notes in and share the 5.00, the odd cents from the next
    forehand (Bert, Clara, Anne); then the four refill."""
    assert options()["kasse_on_change"] == "split"
    ledger = joined([PASS_WITH_BERTS_REVOKE, PASS])
    assert DOPPEN.kasse_view(ledger.hands[0].state).owed() == {
        "Anne": 150,
        "Bert": 200,
        "Clara": 150,
    }
    split = ledger.hands[1]
    assert lines(split) == {
        "Players changed: the Kasse notes are paid in": {
            "Anne": -150,
            "Bert": -200,
            "Clara": -150,
            KASSE: 500,
        },
        "Players changed: the Kasse is shared out among those seated before": {
            KASSE: -500,
            "Bert": 167,
            "Clara": 167,
            "Anne": 166,
        },
    }
    assert split.money_deltas == {"Anne": 16, "Bert": -33, "Clara": 17, "Dora": 0}
    assert DOPPEN.kasse_view(split.state).owed() == dict.fromkeys(FOUR, 150)
    assert sum(ledger.money.values()) == 0


def test_with_the_notes_staying_nobody_pays_at_a_change() -> None:
    """``stays``: the notes stay with each player, the newcomer is noted nothing until the
    next refill (the reading before the rule was settled)."""
    ledger = joined([PASS_WITH_BERTS_REVOKE, PASS], kasse_on_change="stays")
    assert lines(ledger.hands[1]) == {}
    assert DOPPEN.kasse_view(ledger.hands[1].state).owed() == {
        "Anne": 200,
        "Bert": 250,
        "Clara": 200,
        "Dora": 50,
    }


def test_an_evening_stored_without_the_rule_keeps_the_notes() -> None:
    """Evenings stored before the rule have no key: they read as ``stays``."""
    stored = {k: v for k, v in options().items() if k != "kasse_on_change"}
    first = HandRecord(1, Table(THREE, "Clara"), PASS_WITH_BERTS_REVOKE)
    second = HandRecord(2, Table(FOUR, "Anne"), PASS)
    ledger = replay(DOPPEN, stored, [first, second])
    assert ledger == joined([PASS_WITH_BERTS_REVOKE, PASS], kasse_on_change="stays")


def test_a_swap_of_seats_or_a_new_dealer_is_no_change() -> None:
    swapped = ("Clara", "Anne", "Bert")
    hands = [
        HandRecord(1, Table(THREE, "Clara"), PASS_WITH_BERTS_REVOKE),
        HandRecord(2, Table(swapped, "Bert"), PASS),
    ]
    ledger = replay(DOPPEN, options(), hands)
    assert lines(ledger.hands[1]) == {}
    assert DOPPEN.kasse_view(ledger.hands[1].state).contents == 650


def test_a_player_leaving_splits_among_the_four_who_sat() -> None:
    """Dora leaves after a hand at four: all four share; the three refill."""
    hands = [
        HandRecord(1, Table(FOUR, "Dora"), PASS),
        HandRecord(2, Table(THREE, "Anne"), PASS),
    ]
    ledger = replay(DOPPEN, options(), hands)
    shared = lines(ledger.hands[1])[
        "Players changed: the Kasse is shared out among those seated before"
    ]
    assert shared == {KASSE: -600, "Anne": 150, "Bert": 150, "Clara": 150, "Dora": 150}
    assert ledger.hands[1].money_deltas == {"Anne": 0, "Bert": 0, "Clara": 0}
    assert DOPPEN.kasse_view(ledger.hands[1].state).owed() == dict.fromkeys(THREE, 150)


def test_an_evening_closed_right_after_a_change_shares_among_those_who_played() -> None:
    ledger = replay(
        DOPPEN, options(), [HandRecord(1, Table(THREE, "Clara"), PASS_WITH_BERTS_REVOKE)]
    )
    closing = DOPPEN.close_evening(ledger.state, Table(FOUR, "Anne"), options())
    assert [line.amounts() for line in closing] == [
        {"Anne": -150, "Bert": -200, "Clara": -150, KASSE: 500},
        {KASSE: -500, "Bert": 167, "Clara": 167, "Anne": 166},
    ]
    kept = DOPPEN.close_evening(ledger.state, Table(FOUR, "Anne"), options(kasse_on_change="stays"))
    assert kept[1].amounts() == {KASSE: -500, "Bert": 125, "Clara": 125, "Dora": 125, "Anne": 125}
