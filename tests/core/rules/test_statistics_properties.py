"""Properties of the statistics over random seasons (docs/statistics.md): every figure is
what a straightforward recount from the stored facts gives, voided hands count nowhere,
corrected hands count as corrected, and money is summed per game, unit and currency only.

The evenings come from the games' own strategies (``test_troggen_properties``,
``test_doppen_properties``, ``test_troggu_properties``); some hands are voided, some
corrected, and some players are mapped to persons under another key. The recount below
reads the facts as stored (the JSON dicts) and the rule pages, not the statistics' code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.core.ledger import HandRecord, replay
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import InvalidInputError, Table
from scorekeeper.core.settlement import settle
from scorekeeper.core.statistics import (
    PlayedEvening,
    player_statistics,
    season_table,
)
from tests.core.rules.test_doppen_properties import evenings as doppen_evenings
from tests.core.rules.test_troggen_properties import evenings as troggen_evenings
from tests.core.rules.test_troggu_properties import evenings as troggu_evenings

PROPERTY = settings(max_examples=60)
TROGGEN_TOTAL = {4: 70, 5: 67, 6: 64}
Facts = Mapping[str, Any]
Played = tuple[PlayedEvening, Mapping[str, str]]


# -- building a season ----------------------------------------------------------------------


@st.composite
def raw_evening(draw: st.DrawFn) -> tuple[str, str, Mapping[str, str], Sequence[HandRecord], Table]:
    """Game, variant key, options, records and next table of one random evening."""
    game = draw(st.sampled_from(["troggen", "doppen", "troggu"]))
    if game == "troggen":
        e = draw(troggen_evenings(max_hands=10))
        return game, "blumenstein-2015", e.options, e.records, e.next_table
    if game == "doppen":
        d = draw(doppen_evenings(max_hands=10))
        return game, "kirchberg", d.options, d.records, d.next_table
    t = draw(troggu_evenings())
    return game, t.variant.key, t.options, t.records, t.next_table


def still_plays(game: str, variant: str, options: Mapping[str, str], records: Any) -> bool:
    """Whether the records replay (a void or a correction may leave a later Kulanz too big)."""
    try:
        replay(get_variant(game, variant), options, records)
    except InvalidInputError:
        return False
    return True


@st.composite
def corrected(draw: st.DrawFn, game: str, variant: str, options: Any, records: Any) -> Any:
    """Some hands voided, one perhaps corrected to another hand's facts at the same table."""
    out = list(records)
    for i in draw(st.sets(st.integers(0, max(0, len(out) - 1)), max_size=3)) if out else ():
        out[i] = replace(out[i], void=True)
    if len(out) > 1 and draw(st.booleans()):
        i, j = draw(st.lists(st.integers(0, len(out) - 1), min_size=2, max_size=2, unique=True))
        if out[i].table == out[j].table:
            out[i] = replace(out[i], facts=out[j].facts, void=False)
    return out if still_plays(game, variant, options, out) else list(records)


@st.composite
def played_evening(draw: st.DrawFn, evening_id: int) -> Played:
    """A replayed and settled evening, as the shell would hand it to the statistics, with
    the options it was recorded under (which the recount needs for Troggen's line)."""
    game, key, options, records, next_table = draw(raw_evening())
    records = draw(corrected(game, key, options, records))
    variant = get_variant(game, key)
    ledger = replay(variant, options, records)
    net = settle(variant, options, ledger, next_table).net
    commons = set(variant.common_accounts)
    money = {name: cents for name, cents in net.items() if name not in commons}
    names = sorted({*ledger.players, *money})
    persons = {n: draw(st.sampled_from([n, f"p-{n[:2]}", "same"])) for n in names}
    day = draw(st.none() | st.dates(date(2025, 1, 1), date(2025, 12, 31)))
    currency = options.get("currency", "")
    return PlayedEvening(evening_id, day, game, key, currency, ledger, money, persons), options


@st.composite
def seasons(draw: st.DrawFn) -> list[Played]:
    """One to three evenings of any games and variants."""
    count = draw(st.integers(1, 3))
    return [draw(played_evening(i)) for i in range(1, count + 1)]


# -- the recount, from the facts as stored ---------------------------------------------------


def kind(evening: PlayedEvening) -> str:
    """Eisten-Stalden's Striche are figures of their own."""
    return "eisten-stalden" if evening.variant == "eisten-stalden" else evening.game


def sides(
    facts: Facts, table: Table, game: str, line: int = 35
) -> tuple[list[str], list[str], bool | None]:
    """Declarers (with the partner), defenders and whether the declaring side won, or
    ([], [], None) for a Misère or all passed."""
    contract = facts.get("contract", "team")
    if contract in ("misere", "pass"):
        return [], [], None
    if contract == "team":
        team = [p for p in table.players if p in facts["team"]]
        others = [p for p in table.players if p not in team]
        return team, others, None if facts["points"] == 57 else facts["points"] >= 58
    declarer = facts.get("bidder") or facts.get("soloist") or facts["declarer"]
    side = [declarer] + ([facts["partner"]] if facts.get("partner") else [])
    others = [p for p in table.players if p not in side]
    if game == "doppen":
        valat = facts["valat"]
        won = valat == "soloist" if valat or facts["announced"]["valat"] else facts["points"] > 35
    elif game == "troggu":
        won = None if facts["points"] == 57 else facts["points"] >= 58
    else:
        won = facts["won"] if "won" in facts else facts["points"] >= line
    return side, others, won


def threshold(options: Mapping[str, str], table: Table) -> int:
    """Troggen's winning line under the evening's option (docs/troggen.md §2)."""
    if options.get("threshold") == "half-up":
        return -(-TROGGEN_TOTAL[table.size] // 2)
    return 35


def recount_roles(
    c: Counter[str], facts: Facts, table: Table, game: str, name: str, line: int
) -> None:
    """Hands, contracts, partner, defender, Misère places."""
    c["hands"] += 1
    if facts.get("contract") == "misere":
        mine = facts["points"][name]
        c[f"misere.place.{1 + sum(v < mine for v in facts['points'].values())}"] += 1
        return
    side, others, won = sides(facts, table, game, line)
    if name in side:
        key = (
            "partner"
            if facts.get("partner") == name
            else f"contract.{facts.get('contract', 'team')}"
        )
    elif name in others:
        key, won = "defender", None if won is None else not won
    else:
        return
    c[f"{key}.played"] += 1
    if won is not None:
        c[f"{key}.{'won' if won else 'lost'}"] += 1


def recount_troggen(c: Counter[str], facts: Facts, table: Table, name: str) -> None:
    """The Bieterin's Pagat or King in the last trick, seen from ``name``'s side."""
    event = facts.get("last_trick", "none")
    if facts["contract"] == "misere" or event == "none":
        return
    card, happened = event.split("_")
    if name in (facts["bidder"], facts.get("partner")):
        c[f"last_trick.{card}.{happened}"] += 1
    else:
        c[f"last_trick.{card}.{'conceded' if happened == 'won' else 'captured'}"] += 1


def recount_doppen(c: Counter[str], facts: Facts, table: Table, name: str) -> None:
    """Premiums, announcements, Kontra, passes and sitting out (docs/doppen.md §5, §6)."""
    if table.size == 4 and name == table.dealer:
        c["sat_out"] += 1
    if facts["contract"] == "pass":
        c["passed"] += 1
        return
    soloist, said, kontra = facts["soloist"], facts["announced"], facts["kontra"]

    def side(player: str) -> int:
        return 1 if player == soloist else -1

    earned: list[tuple[str, int]] = []
    for key in ("pagat", "uhu"):
        played = facts[key]
        if said[key]:
            won = played is not None and played["result"] == "won"
            earned.append((key, side(said[key]) * (1 if won else -1)))
            c[f"announced.{key}.said"] += said[key] == name
            c[f"announced.{key}.won"] += said[key] == name and won
        elif played is not None:
            earned.append((key, side(played["player"]) * (1 if played["result"] == "won" else -1)))
    earned += [(k, side(facts[k])) for k in ("trull", "kings") if facts[k]]
    if facts["valat"] or said["valat"]:
        earned.append(("valat", 1 if facts["valat"] == "soloist" else -1))
        c["announced.valat.said"] += said["valat"] and name == soloist
        c["announced.valat.won"] += (
            said["valat"] and name == soloist and facts["valat"] == "soloist"
        )
    for premium, by in earned:
        c[f"premium.{premium}.{'won' if by == side(name) else 'lost'}"] += 1
    owners = [soloist if kontra["game"] else None, soloist if kontra["valat"] else None]
    owners += [said[k] if kontra[k] else None for k in ("pagat", "uhu")]
    for owner in owners:
        if owner is None:
            continue
        if side(owner) == side(name):
            c["kontra.received"] += 1
        elif not (table.size == 4 and name == table.dealer):
            c["kontra.given"] += 1


def recount_troggu(c: Counter[str], facts: Facts, table: Table, name: str) -> None:
    """Every trick taken by one side."""
    if facts["contract"] == "misere" or not facts.get("all_tricks"):
        return
    side, _, _ = sides(facts, table, "troggu")
    mine = "declarer" if name in side else "opponents"
    c[f"all_tricks.{'taken' if facts['all_tricks'] == mine else 'conceded'}"] += 1


RECOUNT = {"troggen": recount_troggen, "doppen": recount_doppen, "troggu": recount_troggu}


def recount_striche(c: Counter[str], evening: PlayedEvening, names: list[str]) -> None:
    """Striche hand by hand from the facts, and the Tagessieger of the evening."""
    striche: Counter[str] = Counter()
    for record in evening.ledger.hands:
        r = record.record
        if r.void or r.facts["points"] == 57:
            continue
        team = [p for p in r.table.players if p in r.facts["team"]]
        winners = team if r.facts["points"] >= 58 else [p for p in r.table.players if p not in team]
        striche.update(winners)
    most = max(striche.values(), default=0)
    top = [p for p, n in striche.items() if n == most and most]
    for name in names:
        c["striche"] += striche[name]
        if name in top:
            c["tagessieger" if len(top) == 1 else "tagessieger.shared"] += 1


def recount(season: Sequence[Played], person: str) -> dict[str, int]:
    """The person's figures, non-zero only, recounted from the facts."""
    per_game: dict[str, Counter[str]] = {}
    groups: Counter[str] = Counter()
    for evening, options in season:
        names = [n for n in evening.players() if evening.person.get(n, n) == person]
        c = per_game.setdefault(kind(evening), Counter())
        for result in evening.ledger.hands:
            r = result.record
            if r.void:
                continue
            for name in [n for n in names if n in r.table.players]:
                line = threshold(options, r.table)
                recount_roles(c, r.facts, r.table, evening.game, name, line)
                if kind(evening) in RECOUNT:
                    RECOUNT[kind(evening)](c, r.facts, r.table, name)
        if kind(evening) == "eisten-stalden":
            recount_striche(c, evening, names)
        recount_group(groups, evening, names)
    out = {f"{game}.{k}": v for game, c in per_game.items() for k, v in c.items()}
    return {k: v for k, v in (out | dict(groups)).items() if v}


def recount_group(groups: Counter[str], evening: PlayedEvening, names: list[str]) -> None:
    """Evenings, hands, money and units of the evening's group."""
    unit = {"troggen": "jetons", "doppen": "points", "troggu": "base-amounts"}[evening.game]
    if evening.variant == "eisten-stalden":
        unit = "striche"
    group = f"{evening.game}.{unit}.{evening.currency or '-'}"
    hands = {
        n: sum(1 for h in evening.ledger.hands if not h.record.void and n in h.record.table.players)
        for n in names
    }
    units = {
        n: (evening.ledger.tally if unit == "striche" else evening.ledger.balances).get(n, 0)
        for n in names
    }
    present = [n for n in names if hands[n] or evening.money.get(n, 0) or units[n]]
    if not present:
        return
    groups[f"{group}.evenings"] += 1
    groups[f"{group}.hands"] += sum(hands[n] for n in present)
    groups[f"{group}.money"] += sum(evening.money.get(n, 0) for n in present)
    groups[f"{group}.units"] += sum(units[n] for n in present)


def persons_of(season: Sequence[Played]) -> list[str]:
    """Every person of the season, sorted."""
    return sorted({e.person.get(n, n) for e, _ in season for n in e.players()})


# -- the properties ---------------------------------------------------------------------------


@PROPERTY
@given(seasons())
def test_figures_are_a_recount_of_the_facts(season: list[Played]) -> None:
    """Every person's figures are what counting the stored facts hand by hand gives: voided
    hands nowhere, corrected hands as corrected."""
    evenings = [e for e, _ in season]
    for person in persons_of(season):
        figures = dict(player_statistics(evenings, person).figures())
        assert {k: v for k, v in figures.items() if v} == recount(season, person), person


@PROPERTY
@given(seasons())
def test_the_season_table_sums_each_group_apart(season: list[Played]) -> None:
    """Per person and group, the table sums the evening results of that group only; over
    all groups, it sums the person's every evening; each row is one group of one person."""
    evenings = [e for e, _ in season]
    rows = season_table(evenings)
    assert len({(r.person, r.game, r.unit, r.currency) for r in rows}) == len(rows)
    for row in rows:
        mine = [
            (e, n)
            for e in evenings
            if (e.game, e.unit, e.currency) == (row.game, row.unit, row.currency)
            for n in e.players()
            if e.person.get(n, n) == row.person
        ]
        assert row.money == sum(e.money.get(n, 0) for e, n in mine)
        assert row.units == sum(e.units_of(n) for e, n in mine)
        assert row.average_money * row.evenings == row.money
        assert row.worst.money <= row.best.money
    for person in persons_of(season):
        total = sum(
            e.money.get(n, 0) for e in evenings for n in e.players() if e.person.get(n, n) == person
        )
        assert sum(r.money for r in rows if r.person == person) == total


@PROPERTY
@given(seasons(), st.data())
def test_a_voided_hand_counts_as_a_hand_never_played(
    season: list[Played], data: st.DataObject
) -> None:
    """Voiding a hand gives the statistics of the evening without it (hand numbers aside)."""
    evening, options = season[0]
    records = [r.record for r in evening.ledger.hands]
    if not records:
        return
    i = data.draw(st.integers(0, len(records) - 1))
    variant = get_variant(evening.game, evening.variant)
    voided = [*records[:i], replace(records[i], void=True), *records[i + 1 :]]
    removed = [*records[:i], *records[i + 1 :]]
    if not still_plays(evening.game, evening.variant, options, voided):
        return
    with_void = replace(evening, ledger=replay(variant, options, voided))
    without = replace(evening, ledger=replay(variant, options, removed))
    for person in persons_of(season):
        a = dict(player_statistics([with_void], person).figures())
        b = dict(player_statistics([without], person).figures())
        assert {k: v for k, v in a.items() if v} == {k: v for k, v in b.items() if v}
