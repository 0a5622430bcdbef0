"""The pot carried from one evening to the next (docs/troggen.md §8), over random chains of
Troggen evenings: every evening balances with whoever keeps the carried-in pot as a party,
and across the chain the players and the last pot sum to zero."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.core.ledger import HandRecord, extend, replay
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import CARRIED, POT, Table
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.rules.troggen import TROGGEN
from scorekeeper.core.settlement import merged, pairwise_exact, settle
from tests.core.rules.test_troggen_properties import Evening, evenings, play

CHAIN = settings(max_examples=60, deadline=None)


@st.composite
def chains(draw: st.DrawFn) -> list[Evening]:
    """Two to four evenings, each but the last carrying its pot into the next; the last
    one carries or splits its pot (a refund is followed in the tests below)."""
    length = draw(st.integers(2, 4))
    chain: list[Evening] = []
    carried = draw(st.integers(0, 40))
    for i in range(length):
        rule = draw(st.sampled_from(["carry", "split"])) if i == length - 1 else "carry"
        evening = draw(evenings(max_hands=8, carried_in=carried, end_rule=rule))
        chain.append(evening)
        carried = TROGGEN.pot_carried_on(evening.options, play(evening).common)
    return chain


@CHAIN
@given(chains())
def test_every_evening_of_a_chain_balances_and_the_chain_conserves_the_jetons(
    chain: list[Evening],
) -> None:
    finals = []
    for evening in chain:
        ledger = play(evening)
        assert ledger.carried_in == evening.carried_in
        half = len(evening.records) // 2
        opened = replay(
            TROGGEN, evening.options, evening.records[:half], carried_in=ledger.carried_in
        )
        assert extend(opened, TROGGEN, evening.options, evening.records[half:]) == ledger
        assert all(held >= 0 for held in ledger.common.values())
        assert sum(ledger.balances.values()) + ledger.common[POT] == evening.carried_in
        result = settle(TROGGEN, evening.options, ledger, evening.next_table)
        assert sum(result.final.values()) == 0
        assert sum(result.net.values()) == 0
        if result.rule == "carry":
            # One pile: the pot's entry is what it gained or lost tonight.
            assert CARRIED not in result.final
            assert result.final.get(POT, 0) == ledger.common[POT] - evening.carried_in
        else:
            assert result.final.get(CARRIED, 0) == -evening.carried_in
        finals.append(result.final)
    players = sum(v for final in finals for p, v in final.items() if p not in (POT, CARRIED))
    left = TROGGEN.pot_carried_on(chain[-1].options, play(chain[-1]).common)
    assert players + left == chain[0].carried_in


@CHAIN
@given(evenings(max_hands=10, carried_in=17))
def test_the_carried_pot_is_followed_like_any_pot_in_the_pairwise_table(
    evening: Evening,
) -> None:
    ledger = play(evening)
    result = settle(TROGGEN, evening.options, ledger, evening.next_table)
    owed = pairwise_exact(ledger, result.closing, TROGGEN.common_accounts)
    if result.rule == "carry":
        owed = merged(owed, CARRIED, POT)
    received = {p: 0 for p in result.final}
    for (a, b), amount in owed.items():
        received[a] = received.get(a, 0) + amount
        received[b] = received.get(b, 0) - amount
    assert {p: v for p, v in received.items() if v} == {p: v for p, v in result.final.items() if v}


def test_only_the_end_rule_carry_leaves_the_pot_for_a_later_evening() -> None:
    left = {POT: 26}
    for rule, carried in (("carry", 26), ("split", 0), ("refund", 0)):
        options = parse_options(TROGGEN.option_specs, {"end_pot": rule})
        assert TROGGEN.pot_carried_on(options, left) == carried
    doppen = get_variant("doppen", "kirchberg")
    assert doppen.pot_carried_on(parse_options(doppen.option_specs, {}), left) == 0


def test_an_evening_without_hands_hands_the_pot_on_back_or_out() -> None:
    options = parse_options(TROGGEN.option_specs, {"end_pot": "carry"})
    table = Table(("Anna", "Bert", "Clara", "Dora"), "Dora")
    ledger = replay(TROGGEN, options, (), carried_in=26)
    assert ledger.common == {POT: 26}
    carried = settle(TROGGEN, options, ledger, table)
    assert carried.final == {"Anna": 0, "Bert": 0, "Clara": 0, "Dora": 0}
    assert carried.transfers == ()
    refunded = settle(TROGGEN, options, ledger, table, rule="refund")
    assert refunded.final == {"Anna": 0, "Bert": 0, "Clara": 0, "Dora": 0}
    split = settle(TROGGEN, options, ledger, table, rule="split")
    assert split.final == {"Anna": 7, "Bert": 7, "Clara": 6, "Dora": 6, CARRIED: -26}


def test_a_refund_gives_the_carried_jetons_back_to_whoever_keeps_them() -> None:
    """G5's evening opening with its 26 jetons carried in, the winning hand not played:
    Anna's 8 and the others' stakes go back to them, the 26 to the pot's keeper."""
    options = parse_options(TROGGEN.option_specs, {"end_pot": "refund"})
    table = Table(("Anna", "Bert", "Clara", "Dora", "Emil"), "Emil")
    lost = HandRecord(
        1, table, {"contract": "doppelt", "bidder": "Anna", "partner": "Dora", "points": 30}
    )
    ledger = replay(TROGGEN, options, [lost], carried_in=26)
    result = settle(TROGGEN, options, ledger, Table(table.players, "Anna"))
    assert result.final == {"Anna": 0, "Bert": 0, "Clara": 0, "Dora": 0, "Emil": 0}
