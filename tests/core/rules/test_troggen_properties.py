"""Properties of random valid Troggen evenings (docs/settlement.md, "Checks every implementation
passes"): conservation, determinism, edits that can be undone, and a settlement that adds up.

The strategies build evenings hand by hand, as a table would record them: 4 to 6 players,
the deal passing on, sometimes a change of seats, every contract with and without partner,
points or the quick won/lost, last-trick events, Kulanz only where the rules allow it, and
Misères whose points add up to a possible sum.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.core.ledger import HandRecord, Ledger, replay
from scorekeeper.core.rules.base import POT, InvalidHandError, Table
from scorekeeper.core.rules.options import parse_options, to_fraction
from scorekeeper.core.rules.troggen import (
    MAX_TALON_POINTS,
    MULTIPLIER,
    TOTAL_POINTS,
    TROGGEN,
    Contract,
    LastTrick,
)
from scorekeeper.core.settlement import Payment, pairwise_exact, settle
from tests.core.rules.replays import check_goes_on, check_parsed_once

PLAYERS = ("Anna", "Bert", "Clara", "Dora", "Emil", "Fritz")
NEWCOMER = "Gina"
END_RULES = ("split", "refund", "carry")
BIDS = [c for c in Contract if c is not Contract.MISERE]
WON_LAST_TRICK = (LastTrick.PAGAT_WON, LastTrick.KING_WON)
LOST_LAST_TRICK = (LastTrick.PAGAT_LOST, LastTrick.KING_LOST)

Facts = dict[str, Any]
PROPERTY = settings(max_examples=150)


@dataclass(frozen=True)
class Evening:
    """A recorded evening: its options, its hands and the table that would play on, and
    the pot an earlier evening carried in."""

    options: Mapping[str, str]
    records: tuple[HandRecord, ...]
    next_table: Table
    carried_in: int = 0


@st.composite
def misere_facts(draw: st.DrawFn, table: Table) -> Facts:
    """A Misère whose points are each possible and add up to a possible sum (§9)."""
    n, total, most = table.size, TOTAL_POINTS[table.size], MAX_TALON_POINTS[table.size]
    low, high = total - most - 1, total + 1
    if draw(st.integers(0, 5)) == 0:  # everybody tied, the case nobody pays
        each = draw(st.integers(-(-low // n), high // n))
        points = [each] * n
    else:
        remaining = draw(st.integers(low, high))
        points = []
        for left in range(n - 1, -1, -1):
            lo, hi = max(0, remaining - total * left), min(total, remaining)
            ties = [p for p in points if lo <= p <= hi] or [lo]
            value = draw(st.integers(lo, hi) | st.sampled_from(ties))
            points.append(value)
            remaining -= value
    facts: Facts = {"contract": "misere", "points": dict(zip(table.players, points, strict=True))}
    if draw(st.booleans()):
        facts["talon_points"] = draw(st.integers(0, most))
    return facts


def bidder_share(facts: Facts, table: Table, state: Any, options: Mapping[str, str]) -> int:
    """What the Bieterin takes from the pot in this hand (0 when the hand is lost)."""
    hand = TROGGEN.parse_hand(facts, table, options)
    score, _ = TROGGEN.score_hand(hand, table, state, options)
    return sum(
        t.amount
        for line in score.lines
        for t in line.transfers
        if t.source == POT and t.target == facts["bidder"]
    )


@st.composite
def bid_facts(draw: st.DrawFn, table: Table, state: Any, options: Mapping[str, str]) -> Facts:
    """A bid hand with or without partner, counted or quick, Kulanz only where valid."""
    bidder = draw(st.sampled_from(table.players))
    facts: Facts = {"contract": draw(st.sampled_from(BIDS)).value, "bidder": bidder}
    if table.size > 4:
        facts["partner"] = draw(st.none() | st.sampled_from(table.others(bidder)))
    last_trick = draw(st.sampled_from([LastTrick.NONE] * 4 + list(LastTrick)))
    if last_trick is not LastTrick.NONE or draw(st.booleans()):
        facts["last_trick"] = last_trick.value
    if draw(st.integers(0, 3)):
        # The side that takes the last trick with the Pagat or a King has at least 5 points.
        total = TOTAL_POINTS[table.size]
        low = 5 if last_trick in WON_LAST_TRICK else 0
        high = total - 5 if last_trick in LOST_LAST_TRICK else total
        facts["points"] = draw(st.integers(low, high))
    else:
        facts["won"] = draw(st.booleans())
    if facts.get("partner") and draw(st.booleans()):
        share = bidder_share(facts, table, state, options)
        if share:
            facts["kulanz"] = draw(st.integers(1, share))
    return facts


def hand_facts(table: Table, state: Any, options: Mapping[str, str]) -> st.SearchStrategy[Facts]:
    """Any valid hand at ``table`` with the pot in ``state``: mostly bids, some Misères."""
    return st.one_of(
        bid_facts(table, state, options),
        bid_facts(table, state, options),
        bid_facts(table, state, options),
        misere_facts(table),
    )


@st.composite
def changed_table(draw: st.DrawFn, table: Table) -> Table:
    """A change of seats: someone leaves, the newcomer joins, or two swap places."""
    players = list(table.players)
    moves = ["swap"]
    if len(players) > 4:
        moves.append("leave")
    if len(players) < 6 and NEWCOMER not in players:
        moves.append("join")
    move = draw(st.sampled_from(moves))
    if move == "leave":
        players.remove(draw(st.sampled_from(players)))
    elif move == "join":
        players.insert(draw(st.integers(0, len(players))), NEWCOMER)
    else:
        i, j = draw(st.lists(st.integers(0, len(players) - 1), min_size=2, max_size=2, unique=True))
        players[i], players[j] = players[j], players[i]
    return Table(tuple(players), draw(st.sampled_from(players)))


@st.composite
def evenings(
    draw: st.DrawFn,
    min_hands: int = 0,
    max_hands: int = 14,
    *,
    carried_in: int = 0,
    end_rule: str | None = None,
) -> Evening:
    """A whole evening as the table records it, hand by hand; opening with ``carried_in``
    jetons an earlier evening left, and ending by ``end_rule`` when one is given."""
    n = draw(st.sampled_from([4, 5, 6]))
    chosen = {
        "threshold": draw(st.sampled_from(["fixed-35", "half-up"])),
        "partner_rounding": draw(st.sampled_from(["nearest", "floor"])),
        "last_trick_payers": draw(st.sampled_from(["all-others", "defenders"])),
        "end_pot": end_rule or draw(st.sampled_from(END_RULES)),
        "unit_value": draw(st.sampled_from(["0.10", "0.05", "0.03", "0.25", "1"])),
        "coin": draw(st.sampled_from(["0.05", "0.01", "0.10", "0.20"])),
    }
    options = parse_options(TROGGEN.option_specs, chosen)
    count = draw(st.integers(min_hands, max_hands))
    change_at = draw(st.none() | st.integers(2, max(2, count)))
    table = Table(PLAYERS[:n], draw(st.sampled_from(PLAYERS[:n])))
    state = TROGGEN.carried_state(carried_in)
    records = []
    for number in range(1, count + 1):
        if number == change_at:
            table = draw(changed_table(table))
        facts = draw(hand_facts(table, state, options))
        _, state = TROGGEN.score_hand(
            TROGGEN.parse_hand(facts, table, options), table, state, options
        )
        records.append(HandRecord(number, table, facts))
        table = Table(table.players, table.after(table.dealer))
    return Evening(options, tuple(records), table, carried_in)


def play(evening: Evening) -> Ledger:
    """The evening's ledger."""
    return replay(TROGGEN, evening.options, evening.records, carried_in=evening.carried_in)


def replay_or_error(
    options: Mapping[str, str], records: list[HandRecord]
) -> Ledger | InvalidHandError:
    """The ledger, or the error that a stored hand which no longer fits raises."""
    try:
        return replay(TROGGEN, options, records)
    except InvalidHandError as error:
        return error


def balance_of(payments: Iterable[Payment]) -> dict[str, int]:
    """Received minus paid per party, zeros left out."""
    out: dict[str, int] = {}
    for p in payments:
        out[p.source] = out.get(p.source, 0) - p.amount
        out[p.target] = out.get(p.target, 0) + p.amount
    return {k: v for k, v in out.items() if v}


def fewest_possible(net: Mapping[str, int]) -> int:
    """The true minimum number of payments, by brute force: nonzero parties minus the most
    disjoint groups summing to zero (each group of k settles with k - 1 payments)."""

    @cache
    def most_groups(amounts: tuple[int, ...]) -> int:
        if not amounts:
            return 0
        first, rest = amounts[0], amounts[1:]
        best = 0
        for size in range(len(rest) + 1):
            for picked in combinations(range(len(rest)), size):
                if first + sum(rest[i] for i in picked) == 0:
                    left = tuple(v for i, v in enumerate(rest) if i not in picked)
                    best = max(best, 1 + most_groups(left))
        return best

    amounts = tuple(sorted(v for v in net.values() if v))
    return len(amounts) - most_groups(amounts)


# -- the ledger -----------------------------------------------------------------------


@PROPERTY
@given(evenings())
def test_conservation_after_every_hand(evening: Evening) -> None:
    """Players and pot sum to zero after every hand, the pot is never negative, and each
    hand's lines are balanced and add up to its deltas."""
    pot_before = 0
    for result in play(evening).hands:
        pot = result.common[POT]
        assert pot >= 0
        assert sum(result.balances.values()) + pot == 0
        assert sum(result.deltas.values()) + pot - pot_before == 0
        total: dict[str, int] = {}
        for line in result.score.lines:
            amounts = line.amounts()
            assert sum(amounts.values()) == 0
            for account, amount in amounts.items():
                total[account] = total.get(account, 0) + amount
        assert {p: total.get(p, 0) for p in result.record.table.players} == result.deltas
        assert total.get(POT, 0) == pot - pot_before
        pot_before = pot


@PROPERTY
@given(evenings())
def test_stakes_bring_two_s_times_n_minus_one(evening: Evening) -> None:
    """Each bid hand's stakes bring 2·s·(n-1) jetons into the pot (docs/troggen.md §3)."""
    for result in play(evening).hands:
        contract = Contract(str(result.record.facts["contract"]))
        if contract is Contract.MISERE:
            continue
        stakes = result.score.lines[0]
        assert stakes.label.text == "Stakes"
        n = result.record.table.size
        assert stakes.amounts()[POT] == 2 * MULTIPLIER[contract] * (n - 1)


@PROPERTY
@given(evenings())
def test_replay_is_deterministic(evening: Evening) -> None:
    """The same facts replayed twice give equal balances, deltas and lines."""
    first, second = play(evening), play(evening)
    assert first.balances == second.balances
    assert first.common == second.common
    for a, b in zip(first.hands, second.hands, strict=True):
        assert a.deltas == b.deltas
        assert a.score.lines == b.score.lines
    assert first == second


@PROPERTY
@given(evenings(min_hands=1, max_hands=10), st.data())
def test_edit_then_restore_gives_the_same_ledger(evening: Evening, data: st.DataObject) -> None:
    """Editing a hand replays the evening; restoring the old facts restores the old ledger.

    An edit may leave a later Kulanz larger than its new pot: then the error names that
    later hand, never the edited one.
    """
    original = play(evening)
    i = data.draw(st.integers(0, len(evening.records) - 1))
    record = evening.records[i]
    state_before = replay(TROGGEN, evening.options, evening.records[:i]).state
    facts = data.draw(hand_facts(record.table, state_before, evening.options))
    edited = [*evening.records]
    edited[i] = replace(record, facts=facts)
    outcome = replay_or_error(evening.options, edited)
    if isinstance(outcome, InvalidHandError):
        assert outcome.hand is not None
        assert outcome.hand > record.number
        assert list(outcome.errors) == ["kulanz"]
    else:
        assert outcome.hands[:i] == original.hands[:i]
    edited[i] = record
    assert replay(TROGGEN, evening.options, edited) == original


# -- the settlement -------------------------------------------------------------------


@PROPERTY
@given(evenings(), st.sampled_from(END_RULES))
def test_settlement_adds_up(evening: Evening, rule: str) -> None:
    """Nets sum to zero; transfers settle them exactly with the fewest payments possible;
    pairwise rows sum to the nets."""
    ledger = play(evening)
    s = settle(TROGGEN, evening.options, ledger, evening.next_table, rule=rule)
    assert sum(s.final.values()) == 0
    assert sum(s.net.values()) == 0
    nonzero_net = {p: v for p, v in s.net.items() if v}
    assert balance_of(s.transfers) == nonzero_net
    assert all(p.amount > 0 and p.source != p.target for p in s.transfers)
    assert len(s.transfers) == fewest_possible(s.net)
    assert balance_of(s.pairwise) == nonzero_net
    assert settle(TROGGEN, evening.options, ledger, evening.next_table, rule=rule) == s


@PROPERTY
@given(evenings(), st.sampled_from(END_RULES))
def test_pairwise_within_one_coin(evening: Evening, rule: str) -> None:
    """Every pairwise amount is within one coin of what the pair exactly owes each other."""
    ledger = play(evening)
    s = settle(TROGGEN, evening.options, ledger, evening.next_table, rule=rule)
    unit = to_fraction(evening.options["unit_value"]) * 100
    coin = to_fraction(evening.options["coin"]) * 100
    exact = pairwise_exact(ledger, s.closing, TROGGEN.common_accounts)
    rounded = {(p.target, p.source): p.amount for p in s.pairwise}
    pairs = {frozenset(k) for k in [*exact, *rounded]}
    for pair in pairs:
        a, b = sorted(pair)
        owed = (exact.get((a, b), Fraction(0)) - exact.get((b, a), Fraction(0))) * unit
        paid = rounded.get((a, b), 0) - rounded.get((b, a), 0)
        assert abs(paid - owed) <= coin, (a, b, paid, owed)


@PROPERTY
@given(evenings(), st.sampled_from(END_RULES))
def test_end_rules_resolve_the_pot(evening: Evening, rule: str) -> None:
    """Split and refund empty the pot; carry keeps it as a party of the settlement."""
    ledger = play(evening)
    s = settle(TROGGEN, evening.options, ledger, evening.next_table, rule=rule)
    pot = ledger.common[POT]
    if rule == "carry" and pot:
        assert s.final[POT] == pot
        assert s.net[POT] >= 0
        assert s.closing == ()
    else:
        assert POT not in s.final
        assert POT not in s.net
    players = set(ledger.players) | set(evening.next_table.players)
    assert set(s.final) - {POT} == players
    if rule == "split" and pot:
        shares = s.closing[0].amounts()
        del shares[POT]
        assert set(shares) <= set(evening.next_table.players)
        assert sum(shares.values()) == pot
        counts = [shares.get(p, 0) for p in evening.next_table.players]
        assert max(counts) - min(counts) <= 1


@pytest.mark.parametrize(
    ("net", "fewest"),
    [
        ({"A": 4, "B": 3, "C": 2, "D": -5, "E": -4}, 3),
        ({"A": 1, "B": -1, "C": 2, "D": -2}, 2),
        ({"A": 6, "B": -1, "C": -2, "D": -3}, 3),
        ({"A": 0}, 0),
    ],
)
def test_brute_force_minimum(net: dict[str, int], fewest: int) -> None:
    """The independent minimum used above is itself right on small known cases."""
    assert fewest_possible(net) == fewest


@PROPERTY
@given(evenings(), st.data())
def test_a_replay_goes_on_from_any_hand(evening: Evening, data: st.DataObject) -> None:
    """``ledger.extend`` from any hand gives the whole evening's ledger (``check_goes_on``)."""
    check_goes_on(TROGGEN, evening.options, evening.records, data)


@given(evenings())
def test_a_hand_parsed_once_plays_as_its_stored_form(evening: Evening) -> None:
    """What a write plays (the hand as parsed when entered) is what a later replay plays
    (the hand parsed from what was stored): ``check_parsed_once``."""
    check_parsed_once(TROGGEN, evening.options, evening.records)
