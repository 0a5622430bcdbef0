"""The statistics on small evenings built by hand (docs/statistics.md), one table per game:
the worked examples of each game's page, a voided and a corrected hand, persons under
several names, and groups that are never summed together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date
from fractions import Fraction
from typing import Any

import pytest

from scorekeeper.core.ledger import HandRecord, replay
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import Table
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.settlement import settle
from scorekeeper.core.statistics import (
    PlayedEvening,
    compare,
    highlights,
    player_statistics,
    season_table,
    sort_rows,
)
from scorekeeper.core.statistics.figures import Tally

FIVE = ("A", "B", "C", "D", "E")


def evening(
    game: str,
    variant: str,
    hands: Sequence[tuple[Table, Mapping[str, Any]] | HandRecord],
    *,
    evening_id: int = 1,
    day: date | None = date(2025, 3, 1),
    options: Mapping[str, str] | None = None,
    person: Mapping[str, str] | None = None,
) -> PlayedEvening:
    """Replay and settle ``hands`` (numbered from 1) as the shell would."""
    v = get_variant(game, variant)
    opts = parse_options(v.option_specs, dict(options or {}))
    records = [
        h if isinstance(h, HandRecord) else HandRecord(i, h[0], h[1])
        for i, h in enumerate(hands, 1)
    ]
    ledger = replay(v, opts, records)
    last = records[-1].table
    net = settle(v, opts, ledger, Table(last.players, last.after(last.dealer))).net
    money = {p: c for p, c in net.items() if p not in v.common_accounts}
    return PlayedEvening(
        evening_id, day, game, variant, opts.get("currency", ""), ledger, money, person or {}
    )


def dealt(players: Sequence[str], dealer: str) -> Table:
    """A table of ``players`` dealt by ``dealer``."""
    return Table(tuple(players), dealer)


def troggen_g5(**kwargs: Any) -> PlayedEvening:
    """docs/troggen.md G5 and G7's Pagat: five players, a pot carried twice, then won."""
    return evening(
        "troggen",
        "blumenstein-2015",
        [
            (
                dealt(FIVE, "E"),
                {"contract": "doppelt", "bidder": "A", "partner": "D", "points": 30},
            ),
            (
                dealt(FIVE, "A"),
                {"contract": "misere", "points": {"A": 8, "B": 20, "C": 12, "D": 15, "E": 12}},
            ),
            (
                dealt(FIVE, "B"),
                {
                    "contract": "einfach",
                    "bidder": "C",
                    "partner": "E",
                    "points": 37,
                    "last_trick": "pagat_won",
                },
            ),
        ],
        **kwargs,
    )


def taken(places: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The Misère places a person took, without the places never taken (0)."""
    return tuple((place, n) for place, n in places if n)


# -- Troggen --------------------------------------------------------------------------------


def test_troggen_sides_contracts_and_misere_places() -> None:
    """G5: A's Doppelt lost with D; C's Einfach won with E; the Misère ranks fewest first,
    C and E sharing second place."""
    ev = troggen_g5()
    a = player_statistics([ev], "A").troggen
    c = player_statistics([ev], "C").troggen
    e = player_statistics([ev], "E").troggen
    d = player_statistics([ev], "D").troggen
    assert a is not None
    assert c is not None
    assert e is not None
    assert d is not None
    assert a.roles.hands == 3
    assert [(x.contract, x.bid.played, x.bid.won, x.bid.lost) for x in a.roles.contracts] == [
        ("einfach", 0, 0, 0),
        ("doppelt", 1, 0, 1),
        ("ohne", 0, 0, 0),
        ("gegen", 0, 0, 0),
    ]
    assert (a.roles.as_defender.played, a.roles.as_defender.lost) == (1, 1)
    assert taken(a.roles.misere_places) == ((1, 1),)
    assert taken(c.roles.misere_places) == ((2, 1),)
    assert taken(e.roles.misere_places) == ((2, 1),)
    assert taken(d.roles.misere_places) == ((4, 1),)
    assert (d.roles.as_partner.played, d.roles.as_partner.lost) == (1, 1)
    assert (e.roles.as_partner.played, e.roles.as_partner.won) == (1, 1)
    assert c.roles.declared.won == 1


def test_misere_places_list_every_place_in_order_zeros_included() -> None:
    """Every place of the game's largest table is a figure, in order after the sides, so two
    persons who both played the game line up place by place: 0 where a person never took
    a place, never missing (docs/statistics.md, "Sides")."""
    ev = troggen_g5()
    c = player_statistics([ev], "C").troggen
    assert c is not None
    assert c.roles.misere_places == ((1, 0), (2, 1), (3, 0), (4, 0), (5, 0), (6, 0))
    keys = [k for k, _ in c.figures()]
    places = [k for k in keys if k.startswith("misere.")]
    assert places == [f"misere.place.{n}" for n in range(1, 7)]
    assert keys.index("misere.place.1") == keys.index("defender.lost") + 1
    side = compare(player_statistics([ev], "C"), player_statistics([ev], "A"))
    got = [(f.key, f.a, f.b) for f in side.figures if ".misere." in f.key]
    assert got == [
        ("troggen.misere.place.1", 0, 1),
        ("troggen.misere.place.2", 1, 0),
        ("troggen.misere.place.3", 0, 0),
        ("troggen.misere.place.4", 0, 0),
        ("troggen.misere.place.5", 0, 0),
        ("troggen.misere.place.6", 0, 0),
    ]
    order = [f.key for f in side.figures]
    assert order.index("troggen.misere.place.6") < order.index("troggen.last_trick.pagat.won")


def test_troggen_last_trick_seen_from_each_side() -> None:
    """G7's Pagat won: C and her partner E won it; the defenders conceded it. A lost King
    is lost by her side and captured by the defenders."""
    ev = troggen_g5()
    c = player_statistics([ev], "C").troggen
    e = player_statistics([ev], "E").troggen
    b = player_statistics([ev], "B").troggen
    assert c is not None
    assert e is not None
    assert b is not None
    assert c.last_trick[0] == e.last_trick[0]
    assert (c.last_trick[0].card, c.last_trick[0].won) == ("pagat", 1)
    assert (b.last_trick[0].conceded, b.last_trick[0].won) == (1, 0)
    four = ("A", "B", "C", "D")
    lost = evening(
        "troggen",
        "blumenstein-2015",
        [
            (
                dealt(four, "D"),
                {"contract": "ohne", "bidder": "A", "points": 33, "last_trick": "king_lost"},
            )
        ],
    )
    a = player_statistics([lost], "A").troggen
    d = player_statistics([lost], "D").troggen
    assert a is not None
    assert d is not None
    assert (a.last_trick[1].card, a.last_trick[1].lost) == ("king", 1)
    assert d.last_trick[1].captured == 1


def test_troggen_quick_entry_won_is_the_fact() -> None:
    """A hand entered as won/lost counts as the table said."""
    ev = evening(
        "troggen",
        "blumenstein-2015",
        [(dealt(("A", "B", "C", "D"), "D"), {"contract": "gegen", "bidder": "B", "won": True})],
    )
    b = player_statistics([ev], "B").troggen
    assert b is not None
    assert b.roles.contracts[3].bid.won == 1


def test_troggen_highlights() -> None:
    """G5: the pot of 34 went to C (with E) in hand 3; hands 1-2 carried it; C's +28 in
    hand 3 is the best hand; A and C bid once each."""
    h = highlights(troggen_g5())
    assert h.biggest_pot is not None
    assert (h.biggest_pot.hand, h.biggest_pot.amount) == (3, 34)
    assert (h.biggest_pot.winner, h.biggest_pot.partner) == ("C", "E")
    assert h.longest_carry is not None
    assert (h.longest_carry.first_hand, h.longest_carry.last_hand) == (1, 2)
    assert (h.longest_carry.hands, h.longest_carry.pot) == (2, 26)
    assert h.best_hand is not None
    assert (h.best_hand.hand, h.best_hand.player, h.best_hand.amount) == (3, "C", 28)
    assert h.most_bids is not None
    assert h.most_bids.players == ("A", "C")


def test_a_voided_hand_counts_nowhere_and_a_corrected_one_as_corrected() -> None:
    """Voiding G5's first hand leaves A without a bid; correcting it to B's Ohne Talon won
    alone counts B's win instead, and A defending it."""
    ev = troggen_g5()
    records = [r.record for r in ev.ledger.hands]
    voided = evening("troggen", "blumenstein-2015", [replace(records[0], void=True), *records[1:]])
    a = player_statistics([voided], "A").troggen
    assert a is not None
    assert a.roles.hands == 2
    assert a.roles.declared.played == 0
    assert highlights(voided).longest_carry is not None
    assert highlights(voided).longest_carry.first_hand == 2
    assert [r.hands for r in season_table([voided]) if r.person == "A"] == [2]
    fixed = {"contract": "ohne", "bidder": "B", "partner": None, "points": 50}
    corrected = evening(
        "troggen", "blumenstein-2015", [replace(records[0], facts=fixed), *records[1:]]
    )
    a = player_statistics([corrected], "A").troggen
    b = player_statistics([corrected], "B").troggen
    assert a is not None
    assert b is not None
    assert a.roles.declared.played == 0
    assert a.roles.as_defender.lost == 2
    assert b.roles.contracts[2].bid.won == 1


def test_someone_seated_only_at_a_voided_hand_did_not_play() -> None:
    """A newcomer whose only hand was voided has no evening and no row."""
    four = ("A", "B", "C", "D")
    ev = evening(
        "troggen",
        "blumenstein-2015",
        [
            HandRecord(
                1,
                dealt(("A", "B", "C", "X"), "X"),
                {"contract": "einfach", "bidder": "A", "points": 40},
                void=True,
            ),
            HandRecord(2, dealt(four, "A"), {"contract": "einfach", "bidder": "B", "points": 40}),
        ],
    )
    assert "X" not in {r.person for r in season_table([ev])}
    assert player_statistics([ev], "X").evenings == ()


# -- Doppen ---------------------------------------------------------------------------------

ABC = ("Anne", "Bert", "Clara")
D2 = {
    "contract": "zweier",
    "soloist": "Bert",
    "points": 33,
    "kontra": {"game": 1},
    "announced": {"uhu": "Bert"},
    "pagat": {"player": "Clara", "result": "won"},
    "uhu": {"player": "Bert", "result": "won"},
}
D5 = {
    "contract": "dreier",
    "soloist": "Bert",
    "points": 37,
    "kontra": {"game": 1, "pagat": 2},
    "announced": {"pagat": "Bert"},
    "pagat": {"player": "Bert", "result": "won"},
    "uhu": {"player": "Anne", "result": "won"},
}


def test_doppen_premiums_announcements_and_kontra() -> None:
    """D2 and D5: Bert's Zweier lost (game lost, his Uhu announced and won, Clara's silent
    Pagat); his Dreier won (announced Pagat won, Anne's silent Uhu); Kontra on the game
    twice and on his Pagat once; then a hand everybody passed."""
    ev = evening(
        "doppen",
        "kirchberg",
        [
            (dealt(ABC, "Clara"), D2),
            (dealt(ABC, "Anne"), D5),
            (dealt(ABC, "Bert"), {"contract": "pass"}),
        ],
    )
    bert = player_statistics([ev], "Bert").doppen
    clara = player_statistics([ev], "Clara").doppen
    assert bert is not None
    assert clara is not None
    assert [
        (c.contract, c.bid.played, c.bid.won) for c in bert.roles.contracts if c.bid.played
    ] == [
        ("dreier", 1, 1),
        ("zweier", 1, 0),
    ]
    premiums = {p.premium: (p.won, p.lost) for p in bert.premiums}
    assert premiums == {
        "pagat": (1, 1),
        "uhu": (1, 1),
        "trull": (0, 0),
        "kings": (0, 0),
        "valat": (0, 0),
    }
    assert {p.premium: (p.won, p.lost) for p in clara.premiums}["pagat"] == (1, 1)
    said = {a.premium: (a.said, a.won) for a in bert.announced}
    assert said == {"pagat": (1, 1), "uhu": (1, 1), "valat": (0, 0)}
    assert (bert.kontra_received, bert.kontra_given) == (3, 0)
    assert (clara.kontra_given, clara.kontra_received) == (3, 0)
    assert (bert.passed, clara.roles.hands) == (1, 3)
    assert (clara.roles.as_defender.played, clara.roles.as_defender.won) == (2, 1)
    # The soloist plays alone: no "as partner" figures (docs/statistics.md, "Sides").
    assert clara.roles.as_partner is None
    assert not [key for key, _ in clara.roles.figures() if key.startswith("partner.")]
    h = highlights(ev)
    assert h.biggest_pot is None
    assert h.longest_carry is None
    assert h.most_bids is not None
    assert h.most_bids.players == ("Bert",)


def test_doppen_dealer_sitting_out() -> None:
    """At four the dealer sits out: seated, a defender who pays, but gives no Kontra."""
    four = ("Anne", "Bert", "Clara", "Dora")
    ev = evening("doppen", "kirchberg", [(dealt(four, "Dora"), D2)])
    dora = player_statistics([ev], "Dora").doppen
    assert dora is not None
    assert (dora.sat_out, dora.roles.hands, dora.roles.as_defender.played) == (1, 1, 1)
    assert dora.kontra_given == 0
    assert season_table([ev])[3].hands == 1


# -- Troggu ---------------------------------------------------------------------------------

SEVEN = ("A", "B", "C", "D", "E", "F", "G")


def test_troggu_solo_partner_tie_all_tricks_and_misere() -> None:
    """T3 (a partner loses), a Solo won with every trick, T5's tie, T10's Misère."""
    ev = evening(
        "troggu",
        "visp",
        [
            (
                dealt(SEVEN, "G"),
                {"contract": "normal", "declarer": "A", "partner": "B", "points": 50},
            ),
            (
                dealt(SEVEN, "A"),
                {"contract": "solo", "declarer": "C", "points": 114, "all_tricks": "declarer"},
            ),
            (
                dealt(SEVEN, "B"),
                {"contract": "normal", "declarer": "A", "partner": None, "points": 57},
            ),
        ],
    )
    a = player_statistics([ev], "A").troggu
    b = player_statistics([ev], "B").troggu
    c = player_statistics([ev], "C").troggu
    assert a is not None
    assert b is not None
    assert c is not None
    normal = a.roles.contracts[0]
    assert (normal.contract, normal.bid.played, normal.bid.lost, normal.bid.tied) == (
        "normal",
        2,
        1,
        1,
    )
    assert (b.roles.as_partner.played, b.roles.as_partner.lost) == (1, 1)
    assert (c.solo.played, c.solo.won, c.all_tricks_taken) == (1, 1, 1)
    assert a.all_tricks_conceded == 1
    misere = evening(
        "troggu",
        "visp",
        [
            (
                dealt(FIVE, "E"),
                {"contract": "misere", "points": {"A": 30, "B": 22, "C": 30, "D": 20, "E": 5}},
            )
        ],
        evening_id=2,
    )
    places = {p: player_statistics([misere], p).troggu.roles.misere_places for p in FIVE}
    assert {len(p) for p in places.values()} == {8}  # Visp and Grächen seat up to eight
    assert {p: taken(found) for p, found in places.items()} == {
        "A": ((4, 1),),
        "B": ((3, 1),),
        "C": ((4, 1),),
        "D": ((2, 1),),
        "E": ((1, 1),),
    }


def test_eisten_stalden_striche_and_tagessieger() -> None:
    """T11: Beat has two Striche and is the Tagessieger; no pot, no money, no best hand."""
    abcd = ("Anna", "Beat", "Carla", "Dani")
    ev = evening(
        "troggu",
        "eisten-stalden",
        [
            (dealt(abcd, "Anna"), {"team": ["Anna", "Beat"], "points": 61}),
            (dealt(abcd, "Beat"), {"team": ["Beat", "Dani"], "points": 57}),
            (dealt(abcd, "Carla"), {"team": ["Carla", "Anna"], "points": 40}),
        ],
    )
    beat = player_statistics([ev], "Beat").eisten_stalden
    anna = player_statistics([ev], "Anna").eisten_stalden
    assert beat is not None
    assert anna is not None
    assert (beat.striche, beat.tagessieger, beat.tagessieger_shared) == (2, 1, 0)
    assert (anna.striche, anna.tagessieger) == (1, 0)
    assert anna.roles.contracts[0].bid == Tally(2, 1, 1)
    assert anna.roles.as_partner is None
    rows = {r.person: r for r in season_table([ev])}
    assert (rows["Beat"].unit, rows["Beat"].currency, rows["Beat"].units) == ("striche", "", 2)
    h = highlights(ev)
    assert (h.biggest_pot, h.best_hand) == (None, None)
    assert h.most_bids is not None
    assert h.most_bids.players == ("Anna", "Beat")


# -- the season -----------------------------------------------------------------------------


def test_groups_are_never_mixed_and_persons_follow_their_key() -> None:
    """Troggen in CHF, Troggen in EUR and Doppen in EUR are three rows for one person,
    who played as "A" and as "Anne"; each row sums its own evenings only."""
    chf = troggen_g5(evening_id=1, day=date(2025, 1, 10), person={"A": "anna"})
    eur = troggen_g5(
        evening_id=2, day=date(2025, 1, 3), options={"currency": "EUR"}, person={"A": "anna"}
    )
    dop = evening(
        "doppen",
        "kirchberg",
        [(dealt(ABC, "Clara"), D2)],
        evening_id=3,
        day=None,
        person={"Anne": "anna"},
    )
    rows = season_table([chf, eur, dop], persons={"anna"})
    assert [(r.game, r.unit, r.currency) for r in rows] == [
        ("doppen", "points", "EUR"),
        ("troggen", "jetons", "CHF"),
        ("troggen", "jetons", "EUR"),
    ]
    assert [r.money for r in rows] == [dop.money["Anne"], chf.money["A"], eur.money["A"]]
    stats = player_statistics([chf, eur, dop], "anna")
    assert [e.evening_id for e in stats.evenings] == [3, 2, 1]  # undated first, then by day
    assert [len(s.points) for s in stats.running] == [1, 1, 1]
    assert stats.doppen is not None
    assert stats.troggen is not None
    assert stats.troggen.roles.hands == 6


def test_best_worst_average_and_sorting() -> None:
    """Two evenings of one group: the best and worst evening, an exact average, and the
    sortable page's order."""
    one = troggen_g5(evening_id=1, day=date(2025, 2, 1))
    two = troggen_g5(evening_id=2, day=date(2025, 2, 8), options={"unit_value": "0.20"})
    rows = season_table([one, two])
    c = next(r for r in rows if r.person == "C")
    assert (c.best.evening_id, c.worst.evening_id) == (2, 1)
    assert c.average_money == Fraction(c.money, 2)
    by_money = sort_rows(rows, "money", descending=True)
    assert [r.money for r in by_money] == sorted((r.money for r in rows), reverse=True)
    assert sort_rows(rows, "person", descending=False) == rows
    with pytest.raises(ValueError, match="unknown sort key"):
        sort_rows(rows, "colour", descending=False)


def test_compare_lines_up_the_same_keys() -> None:
    """Two persons side by side; a game only one of them played is None on the other side."""
    ev = troggen_g5()
    dop = evening(
        "doppen", "kirchberg", [(dealt(ABC, "Clara"), D2)], evening_id=2, person={"Bert": "B"}
    )
    side = compare(player_statistics([ev, dop], "B"), player_statistics([ev, dop], "C"))
    keys = [f.key for f in side.figures]
    assert len(keys) == len(set(keys))
    got = {f.key: (f.a, f.b) for f in side.figures}
    assert got["troggen.contract.einfach.won"] == (0, 1)
    assert got["doppen.contract.zweier.played"] == (1, None)
    assert got["troggen.jetons.CHF.evenings"] == (1, 1)
