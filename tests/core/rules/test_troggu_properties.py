"""Properties of random valid Troggu evenings, variant by variant (docs/settlement.md, "Checks
every implementation passes"): zero-sum hands, the declarer's side against the opponents,
the partner's share at 7-8 players, Misère payments, Striche, and replay determinism.

The strategies record evenings as a table would: every table size the variant allows, the
deal passing on, normal games and Solos with points around every threshold, every trick
taken by either side, partners at 7-8 players, and Misères whose points add up to a sum
some Tapp allows (ties included). The expected amounts are computed here from docs/troggu.md,
independently of the code under test.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.core.ledger import HandRecord, Ledger, replay
from scorekeeper.core.rules.base import Table
from scorekeeper.core.rules.eisten_stalden import (
    DEALER_DECLARES,
    EISTEN_STALDEN,
    TEAM_SIZES,
    TeamHand,
    leaders,
)
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.rules.troggu import MONEY_VARIANTS, Troggu
from scorekeeper.core.rules.troggu_scoring import Contract, GameHand, MisereHand
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.settlement import Payment, settle
from tests.core.rules.replays import check_goes_on, check_parsed_once

NAMES = ("Anna", "Beat", "Carla", "Dani", "Ella", "Fritz", "Gabi", "Hans")
ALL_VARIANTS: tuple[Variant, ...] = (*MONEY_VARIANTS, EISTEN_STALDEN)
#: The money variants that seat 7 players or more (the flat stake stops at 6).
BIG_TABLE_VARIANTS = tuple(v for v in MONEY_VARIANTS if v.max_players >= 7)
#: The losers pay double with this many points or fewer (docs/troggu.md §2); None: flat stake.
DOUBLE_AT = {"visp": 30, "st-niklaus": 31, "graechen": 20, "flat": None}
#: The Tapp's cards per table size (docs/troggu.md §1, §2): Grächen deals 6 at four players.
TAPP = {3: 8, 4: 10, 5: 7, 6: 8, 7: 6, 8: 6}
#: Points around every threshold: the tie, the win, and each region's double.
EDGES = (0, 1, 20, 21, 30, 31, 32, 56, 57, 58, 82, 83, 84, 93, 94, 113)

Facts = dict[str, Any]
PROPERTY = settings(max_examples=150)


@dataclass(frozen=True)
class Evening:
    """A recorded evening: its variant, options, hands and the table that would play on."""

    variant: Variant
    options: Mapping[str, str]
    records: tuple[HandRecord, ...]
    next_table: Table


def tapp_cards(variant: Variant, n: int) -> int:
    """The Tapp's cards in this variant at ``n`` players."""
    return 6 if variant.key == "graechen" and n == 4 else TAPP[n]


@st.composite
def game_facts(draw: st.DrawFn, variant: Variant, table: Table) -> Facts:
    """A normal game or Solo; a partner (or none) for a normal game at 7-8 players."""
    contract = draw(st.sampled_from(["normal", "solo"]))
    declarer = draw(st.sampled_from(table.players))
    facts: Facts = {"contract": contract, "declarer": declarer}
    if contract == "normal" and table.size >= 7:
        facts["partner"] = draw(st.none() | st.sampled_from(table.others(declarer)))
    kind = draw(st.sampled_from(["points"] * 4 + ["declarer", "opponents"]))
    if kind == "declarer":
        facts |= {"points": 114, "all_tricks": "declarer"}
    elif kind == "opponents":
        cards = tapp_cards(variant, table.size)
        facts |= {"points": draw(st.integers(cards, 5 * cards)), "all_tricks": "opponents"}
    else:
        # Each side took a trick, a card from everyone; the declaring side also keeps the Tapp.
        low, high = tapp_cards(variant, table.size) + table.size, 114 - table.size
        edges = [p for p in EDGES if low <= p <= high]
        facts["points"] = draw(st.integers(low, high) | st.sampled_from([low, high, *edges]))
        if draw(st.booleans()):
            facts["all_tricks"] = None
    return facts


@st.composite
def misere_facts(draw: st.DrawFn, variant: Variant, table: Table) -> Facts:
    """A Misère whose sum some Tapp allows: 114 less t to 5t points (at 7-8 players the
    Fool and I, 5 each, lie in the Tapp); sometimes two players tie, sometimes all do."""
    n, cards = table.size, tapp_cards(variant, table.size)
    big = n >= 7
    low, high = 114 - 5 * cards, 114 - cards - (8 if big else 0)
    mode = draw(st.sampled_from(["any", "any", "pair", "all"]))
    if mode == "all":
        points = [draw(st.integers(-(-low // n), high // n))] * n
    else:
        total = draw(st.integers(low, high))
        cuts = sorted(draw(st.lists(st.integers(0, total), min_size=n - 1, max_size=n - 1)))
        points = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        if mode == "pair":
            i, j, k = draw(st.permutations(range(n)))[:3]
            pair = points[i] + points[j]
            points[i] = points[j] = pair // 2
            points[k] += pair % 2
    facts: Facts = {"contract": "misere", "points": dict(zip(table.players, points, strict=True))}
    if big:
        facts["fool_and_i_in_tapp"] = True
    if draw(st.booleans()):  # exact, or another possible Tapp (a warning, not an error)
        exact = 114 - sum(points)
        facts["tapp_points"] = draw(st.just(exact) | st.integers(114 - high, 114 - low))
    return facts


@st.composite
def team_facts(draw: st.DrawFn, table: Table) -> Facts:
    """An Eisten-Stalden hand: a declaring side of a size the rules give, and its points."""
    size = draw(st.sampled_from(TEAM_SIZES[table.size]))
    members = draw(st.permutations(table.players))[:size]
    if table.size in DEALER_DECLARES and table.dealer not in members:
        members[-1] = table.dealer
    points = draw(st.integers(0, 114) | st.sampled_from(EDGES))
    return {"contract": "team", "team": members, "points": points}


def hand_facts(variant: Variant, table: Table) -> st.SearchStrategy[Facts]:
    """Any valid hand of ``variant`` at ``table``."""
    if variant is EISTEN_STALDEN:
        return team_facts(table)
    return st.one_of(
        game_facts(variant, table), game_facts(variant, table), misere_facts(variant, table)
    )


@st.composite
def evenings(
    draw: st.DrawFn, variants: tuple[Variant, ...] = ALL_VARIANTS, sizes: Iterable[int] = ()
) -> Evening:
    """A whole evening of one variant at one table, the deal passing on."""
    variant = draw(st.sampled_from(variants))
    allowed = [n for n in (sizes or range(3, 9)) if variant.allows_players(n)]
    n = draw(st.sampled_from(allowed))
    chosen: dict[str, str] = {}
    if variant.option_specs:
        chosen = {
            "unit_value": draw(st.sampled_from(["0.10", "0.05", "0.20", "1"])),
            "coin": draw(st.sampled_from(["0.05", "0.01", "0.10"])),
        }
    options = parse_options(variant.option_specs, chosen)
    players = NAMES[:n]
    table = Table(players, draw(st.sampled_from(players)))
    records = []
    for number in range(1, draw(st.integers(0, 12)) + 1):
        records.append(HandRecord(number, table, draw(hand_facts(variant, table))))
        table = Table(players, table.after(table.dealer))
    return Evening(variant, options, tuple(records), table)


def play(evening: Evening) -> Ledger:
    """The evening's ledger."""
    return replay(evening.variant, evening.options, evening.records)


def expected_unit(key: str, hand: GameHand) -> int:
    """Base amounts per opponent, from the docs/troggu.md §2 tables (not from the code)."""
    if hand.points == 57:
        return 0
    limit = DOUBLE_AT[key]
    if limit is None:
        return 1
    losers = min(hand.points, 114 - hand.points)
    factor = 3 if hand.all_tricks is not None else 2 if losers <= limit else 1
    return factor * (2 if hand.contract is Contract.SOLO else 1)


def balance_of(payments: Iterable[Payment]) -> dict[str, int]:
    """Received minus paid per party, zeros left out."""
    out: dict[str, int] = {}
    for p in payments:
        out[p.source] = out.get(p.source, 0) - p.amount
        out[p.target] = out.get(p.target, 0) + p.amount
    return {k: v for k, v in out.items() if v}


# -- every variant ------------------------------------------------------------------------


@PROPERTY
@given(evenings())
def test_hands_are_zero_sum(evening: Evening) -> None:
    """Every line and every hand sums to zero; nothing is left in a common account."""
    ledger = play(evening)
    for result in ledger.hands:
        for line in result.score.lines:
            assert sum(line.amounts().values()) == 0
        assert sum(result.deltas.values()) == 0
        assert result.common == {}
        assert set(result.score.amounts()) <= set(result.record.table.players)
    assert sum(ledger.balances.values()) == 0
    assert ledger.common == {}


@PROPERTY
@given(evenings())
def test_replay_is_deterministic(evening: Evening) -> None:
    """The same facts give the same ledger and the same settlement, which adds up."""
    first, second = play(evening), play(evening)
    assert first == second
    s = settle(evening.variant, evening.options, first, evening.next_table)
    assert s == settle(evening.variant, evening.options, second, evening.next_table)
    assert sum(s.net.values()) == 0
    assert balance_of(s.transfers) == {p: v for p, v in s.net.items() if v}
    assert balance_of(s.pairwise) == {p: v for p, v in s.net.items() if v}


@PROPERTY
@given(evenings())
def test_stored_facts_parse_back_the_same(evening: Evening) -> None:
    """``to_json`` is the normalised record: parsing it gives the same hand again."""
    for result in play(evening).hands:
        assert result.hand is not None
        again = evening.variant.parse_hand(
            result.hand.to_json(), result.record.table, evening.options
        )
        assert again == result.hand


# -- money variants -------------------------------------------------------------------------


@PROPERTY
@given(evenings(MONEY_VARIANTS))
def test_declarer_side_against_the_opponents(evening: Evening) -> None:
    """Each opponent pays (or gets) the same u from the scale; the declarer's side gets (or
    pays) exactly what the opponents pay (get) together; alone, the declarer all of it."""
    for result in play(evening).hands:
        hand = result.hand
        if not isinstance(hand, GameHand):
            continue
        side = [p for p in (hand.declarer, hand.partner) if p is not None]
        opponents = [p for p in result.record.table.players if p not in side]
        u = expected_unit(evening.variant.key, hand)
        sign = 1 if hand.points >= 58 else -1
        assert all(result.deltas[p] == -sign * u for p in opponents)
        assert sum(result.deltas[p] for p in side) == -sum(result.deltas[p] for p in opponents)
        if hand.partner is None:
            assert result.deltas[hand.declarer] == sign * u * len(opponents)


@PROPERTY
@given(evenings(BIG_TABLE_VARIANTS, sizes=(7, 8)))
def test_partner_shares_at_seven_and_eight(evening: Evening) -> None:
    """With a partner: each opponent u, the partner 2u, the Tappist the rest (3u at 7
    players, 4u at 8); a Solo or a partner of none leaves the declarer alone."""
    for result in play(evening).hands:
        hand = result.hand
        if not isinstance(hand, GameHand):
            continue
        n = result.record.table.size
        u = expected_unit(evening.variant.key, hand)
        sign = 1 if hand.points >= 58 else -1
        if hand.partner is None:
            assert result.deltas[hand.declarer] == sign * u * (n - 1)
            continue
        assert hand.contract is Contract.NORMAL
        assert result.deltas[hand.partner] == sign * 2 * u
        assert result.deltas[hand.declarer] == sign * {7: 3, 8: 4}[n] * u


@PROPERTY
@given(evenings(MONEY_VARIANTS))
def test_misere_payments(evening: Evening) -> None:
    """The most points (St. Niklaus: the fewest) pays (receives) B to (from) each non-tied
    player; all tied, nobody pays."""
    for result in play(evening).hands:
        hand = result.hand
        if not isinstance(hand, MisereHand):
            continue
        points = dict(hand.points)
        fewest = evening.variant.key == "st-niklaus"
        target = min(points.values()) if fewest else max(points.values())
        tied = [p for p, v in points.items() if v == target]
        others = [p for p in points if p not in tied]
        sign = 1 if fewest else -1
        for p in tied:
            assert result.deltas[p] == sign * len(others)
        for p in others:
            assert result.deltas[p] == -sign * len(tied)


@PROPERTY
@given(evenings(MONEY_VARIANTS))
def test_money_variants_keep_no_tally(evening: Evening) -> None:
    """Only Eisten-Stalden keeps Striche: the money variants' tally is all zeros."""
    assert isinstance(evening.variant, Troggu)
    ledger = play(evening)
    assert set(ledger.tally.values()) <= {0}


# -- Eisten-Stalden ---------------------------------------------------------------------------


@PROPERTY
@given(evenings((EISTEN_STALDEN,)))
def test_striche(evening: Evening) -> None:
    """One Strich per member of the winning side, none at 57 : 57; the evening's tally is
    the sum of the hands', the Tagessieger has the most, and no money moves."""
    ledger = play(evening)
    totals = dict.fromkeys(ledger.players, 0)
    for result in ledger.hands:
        hand = result.hand
        assert isinstance(hand, TeamHand)
        players = result.record.table.players
        if hand.points >= 58:
            winners: Iterable[str] = hand.team
        elif hand.points <= 56:
            winners = [p for p in players if p not in hand.team]
        else:
            winners = []
        assert result.tally == {p: int(p in winners) for p in players}
        assert result.deltas == dict.fromkeys(players, 0)
        for p in winners:
            totals[p] += 1
    assert ledger.tally == totals
    most = max(totals.values(), default=0)
    assert leaders(ledger.tally) == tuple(p for p, v in totals.items() if v == most and v)
    s = settle(evening.variant, evening.options, ledger, evening.next_table)
    assert set(s.net.values()) <= {0}
    assert s.transfers == ()


@PROPERTY
@given(evenings(), st.data())
def test_a_replay_goes_on_from_any_hand(evening: Evening, data: st.DataObject) -> None:
    """``ledger.extend`` from any hand gives the whole evening's ledger, the Striche
    included (``check_goes_on``)."""
    check_goes_on(evening.variant, evening.options, evening.records, data)


@given(evenings())
def test_a_hand_parsed_once_plays_as_its_stored_form(evening: Evening) -> None:
    """What a write plays (the hand as parsed when entered) is what a later replay plays
    (the hand parsed from what was stored): ``check_parsed_once``."""
    check_parsed_once(evening.variant, evening.options, evening.records)
