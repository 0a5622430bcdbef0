"""Properties of random valid Doppen evenings (docs/settlement.md, "Checks every implementation
passes"): zero-sum hands, a Kasse that is conserved, a settlement that adds up and follows
the Aufschreibsystem, and replays that are deterministic.

The strategies build evenings hand by hand as a table records them: 3 or 4 players, the
deal passing on (at four the dealer sits out), now and then a change of seats; every
contract, Valats silent and announced, Pagat and Uhu silent or announced (won, lost or not
played), Trull, Könige, Kontra and Re where they are allowed, revokes, and hands that
everybody passed. Two small oracles, written from docs/doppen.md rather than from the code,
recompute each hand's R and the Kasse notes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.core.ledger import HandRecord, Ledger, replay
from scorekeeper.core.rules.base import KASSE, Table
from scorekeeper.core.rules.doppen import DOPPEN
from scorekeeper.core.rules.options import parse_options, to_fraction
from scorekeeper.core.settlement import Payment, pairwise_exact, settle
from tests.core.rules.replays import check_goes_on, check_parsed_once

PLAYERS = ("Anne", "Bert", "Clara", "Dora")
NEWCOMER = "Emil"
CONTRACTS = ("dreier", "unterer", "zweier", "einer", "solo")
GF = {"dreier": 1, "unterer": 2, "zweier": 2, "einer": 3, "solo": 4}
PF = {"dreier": 1, "unterer": 1, "zweier": 2, "einer": 3, "solo": 4}

Facts = dict[str, Any]
PROPERTY = settings(max_examples=150)


@dataclass(frozen=True)
class Evening:
    """A recorded evening: options, hands, the table that would play on, and whether the
    same players sat at every hand."""

    options: Mapping[str, str]
    records: tuple[HandRecord, ...]
    next_table: Table
    fixed: bool


def active(table: Table) -> list[str]:
    """Who plays cards: everyone but the dealer at a table of four."""
    return [p for p in table.players if table.size == 3 or p != table.dealer]


@st.composite
def played(draw: st.DrawFn, players: list[str]) -> Facts | None:
    """Who played trump I (II) in the last (second-to-last) trick, and whether it won."""
    if draw(st.integers(0, 2)) == 0:
        return None
    return {
        "player": draw(st.sampled_from(players)),
        "result": draw(st.sampled_from(["won", "lost"])),
    }


def fit_to_valat(outcome: Facts | None, valat: str | None, soloist: str) -> Facts | None:
    """A side that took every trick took the last two as well."""
    if outcome is None or valat is None:
        return outcome
    mine = outcome["player"] == soloist
    if valat == "soloist":
        return {**outcome, "result": "won" if mine else "lost"}
    return {**outcome, "result": "lost"} if mine else outcome


@st.composite
def game_facts(draw: st.DrawFn, table: Table) -> Facts:
    """A played hand whose facts are possible."""
    players = active(table)
    soloist = draw(st.sampled_from(players))
    announced_valat = draw(st.integers(0, 9)) == 0
    valat = draw(st.sampled_from([None] * 6 + ["soloist", "opponents"]))
    said: Facts = {"valat": announced_valat}
    kontra = {"game": 0 if announced_valat else draw(st.integers(0, 3)), "valat": 0}
    if announced_valat:
        kontra["valat"] = draw(st.integers(0, 3))
    facts: Facts = {"contract": draw(st.sampled_from(CONTRACTS)), "soloist": soloist}
    for key in ("pagat", "uhu"):
        announcer = draw(st.none() | st.none() | st.sampled_from(players))
        said[key] = announcer
        kontra[key] = draw(st.integers(0, 2)) if announcer else 0
        outcome = draw(played([announcer] if announcer else players))
        facts[key] = fit_to_valat(outcome, valat, soloist)
    trull = draw(st.none() | st.sampled_from(players))
    if trull is not None and any(
        p is not None and p != trull for p in (said["pagat"], (facts["pagat"] or {}).get("player"))
    ):
        trull = None
    facts |= {
        "kontra": kontra,
        "announced": said,
        "valat": valat,
        "trull": trull,
        "kings": draw(st.none() | st.none() | st.sampled_from(players)),
        "penalties": [{"player": p, "kind": "revoke"} for p in draw(penalised(players))],
    }
    if valat is None and not announced_valat:
        facts["points"] = draw(st.integers(0, 70))
    return facts


def penalised(players: list[str]) -> st.SearchStrategy[list[str]]:
    """Mostly nobody, sometimes one or two revokes."""
    return st.sampled_from([[]] * 4 + [[p] for p in players]) | st.lists(
        st.sampled_from(players), max_size=2
    )


@st.composite
def hand_facts(draw: st.DrawFn, table: Table) -> Facts:
    """Any valid hand: mostly played, sometimes everybody passed."""
    if draw(st.integers(0, 5)) == 0:
        return {
            "contract": "pass",
            "penalties": [{"player": p} for p in draw(penalised(active(table)))],
        }
    return draw(game_facts(table))


@st.composite
def changed_table(draw: st.DrawFn, table: Table) -> Table:
    """A change of seats: the fourth leaves, a fourth joins, or two swap places."""
    players = list(table.players)
    move = draw(st.sampled_from(["swap", "leave" if len(players) == 4 else "join"]))
    if move == "leave":
        players.remove(draw(st.sampled_from(players)))
    elif move == "join":
        players.insert(draw(st.integers(0, len(players))), NEWCOMER)
    else:
        i, j = draw(st.lists(st.integers(0, len(players) - 1), min_size=2, max_size=2, unique=True))
        players[i], players[j] = players[j], players[i]
    return Table(tuple(players), draw(st.sampled_from(players)))


@st.composite
def evenings(draw: st.DrawFn, max_hands: int = 14, *, fixed: bool = False) -> Evening:
    """A whole evening as the table records it, hand by hand; ``fixed``: no change of seats."""
    n = draw(st.sampled_from([3, 4]))
    chosen = {
        "unit_value": draw(st.sampled_from(["0.02", "0.04", "0.01", "0.025", "0.10"])),
        "coin": draw(st.sampled_from(["0.01", "0.05", "0.10"])),
        "kasse_base": draw(st.sampled_from(["1.00", "2.00", "0.50", "0.02", "1.34"])),
        "kasse_on_change": draw(st.sampled_from(["split", "stays"])),
    }
    options = parse_options(DOPPEN.option_specs, chosen)
    count = draw(st.integers(0, max_hands))
    change_at = None if fixed else draw(st.none() | st.integers(2, max(2, count)))
    table = Table(PLAYERS[:n], draw(st.sampled_from(PLAYERS[:n])))
    records = []
    for number in range(1, count + 1):
        if number == change_at:
            table = draw(changed_table(table))
        records.append(HandRecord(number, table, draw(hand_facts(table))))
        table = Table(table.players, table.after(table.dealer))
    same = len({r.table.players for r in records}) <= 1 and set(table.players) >= {
        p for r in records for p in r.table.players
    }
    return Evening(options, tuple(records), table, same)


def play(evening: Evening) -> Ledger:
    """The evening's ledger."""
    return replay(DOPPEN, evening.options, evening.records)


# -- the oracles, from docs/doppen.md ----------------------------------------------------------


def expected_r(facts: Facts) -> int:
    """R per opponent from the soloist's side (§4-§7), straight from the tables."""
    contract, soloist = facts["contract"], facts["soloist"]
    gf, pf, kontra, said = GF[contract], PF[contract], facts["kontra"], facts["announced"]

    def side(player: str) -> int:
        return 1 if player == soloist else -1

    if said["valat"]:
        r = 100 * gf * 2 ** kontra["valat"] * (1 if facts["valat"] == "soloist" else -1)
    elif facts["valat"]:
        r = 50 * gf * 2 ** kontra["game"] * (1 if facts["valat"] == "soloist" else -1)
    else:
        points = facts["points"]
        r = (10 + abs(points - 35)) * gf * 2 ** kontra["game"] * (1 if points >= 36 else -1)
    for key in ("pagat", "uhu"):
        outcome = facts[key]
        if said[key]:
            won = outcome is not None and outcome["result"] == "won"
            r += 20 * pf * 2 ** kontra[key] * side(said[key]) * (1 if won else -1)
        elif outcome is not None:
            r += 10 * pf * side(outcome["player"]) * (1 if outcome["result"] == "won" else -1)
    for key in ("trull", "kings"):
        if facts[key]:
            r += 10 * pf * side(facts[key])
    return r


@dataclass
class KasseOracle:
    """The seed's sheet: notes per player; money moves only when a Pagat wins the Kasse,
    and with ``split`` when players change (docs/doppen.md §8, "A player joins or
    leaves")."""

    base: int
    owed: dict[str, int]
    split: bool = False
    struck: int = 0
    seated: Table | None = None

    def share_out(self, money: dict[str, int]) -> None:
        """Those seated before pay their notes in and share the contents equally, the
        odd cents one each in order from the next forehand of their table."""
        assert self.seated is not None
        contents = sum(self.owed.values())
        before = self.seated
        order = before.order_from(before.after(before.after(before.dealer)))
        share, rest = divmod(contents, before.size)
        for i, p in enumerate(order):
            money[p] = money.get(p, 0) + share + (1 if i < rest else 0)
        for p, owes in self.owed.items():
            money[p] = money.get(p, 0) - owes
        self.struck += contents
        self.owed = {}

    def hand(self, facts: Facts, table: Table) -> dict[str, int]:
        """Play one hand's Kasse; return the money that changed hands."""
        money = dict.fromkeys(table.players, 0)
        changed = self.seated is not None and set(self.seated.players) != set(table.players)
        if self.split and changed:
            self.share_out(money)
        self.seated = table
        if not sum(self.owed.values()):
            self.owed = dict.fromkeys(table.players, self.base)
        for penalty in facts.get("penalties", []):
            player = penalty["player"]
            self.owed[player] = self.owed.get(player, 0) + self.base // 2
        if facts["contract"] == "pass":
            for p in table.players:
                self.owed[p] = self.owed.get(p, 0) + self.base // 2
            return money
        announcer = facts["announced"]["pagat"]
        if announcer is None:
            return money
        k = 2 ** facts["kontra"]["pagat"]
        if (facts["pagat"] or {}).get("result") == "won":
            for p, owes in self.owed.items():
                if p != announcer:
                    money[p] = money.get(p, 0) - k * owes
                    money[announcer] += k * owes
            self.struck += sum(self.owed.values())
            self.owed = dict.fromkeys(table.players, self.base)
        else:
            self.owed[announcer] = self.owed.get(announcer, 0) + k * sum(self.owed.values())
        return money


def nonzero(amounts: Mapping[str, int]) -> dict[str, int]:
    """``amounts`` without the zeros."""
    return {k: v for k, v in amounts.items() if v}


def balance_of(payments: Iterable[Payment]) -> dict[str, int]:
    """Received minus paid per party, zeros left out."""
    out: dict[str, int] = {}
    for p in payments:
        out[p.source] = out.get(p.source, 0) - p.amount
        out[p.target] = out.get(p.target, 0) + p.amount
    return nonzero(out)


# -- each hand ----------------------------------------------------------------------------


@PROPERTY
@given(evenings())
def test_each_hand_is_zero_sum_and_paid_per_opponent(evening: Evening) -> None:
    """Every opponent (the dealer sitting out included) pays R, the soloist gets (n-1)·R;
    lines balance and add up to the deltas; R goes into the soloist's column."""
    before: dict[str, int] = {}
    for result in play(evening).hands:
        facts, table = result.record.facts, result.record.table
        assert sum(result.deltas.values()) == 0
        assert sum(result.money_deltas.values()) == 0
        points: dict[str, int] = {}
        money: dict[str, int] = {}
        for line in result.score.lines:
            assert sum(line.amounts().values()) == 0
            for account, amount in line.amounts().items():
                target = money if line.money else points
                target[account] = target.get(account, 0) + amount
        assert {p: points.get(p, 0) for p in table.players} == result.deltas
        # A player who left still pays their Kasse notes when the Kasse is won; the Kasse
        # itself, paid in and shared out when players change, is no party.
        assert {p: money.get(p, 0) for p in table.players} | nonzero(money) == result.money_deltas
        columns = DOPPEN.columns(result.state)
        if facts["contract"] == "pass":
            assert result.deltas == dict.fromkeys(table.players, 0)
            assert columns == {**before, **{p: before.get(p, 0) for p in table.players}}
        else:
            r, soloist = expected_r(facts), facts["soloist"]
            assert result.deltas == {
                p: r * (table.size - 1) if p == soloist else -r for p in table.players
            }
            assert columns[soloist] - before.get(soloist, 0) == r
        before = columns


@PROPERTY
@given(evenings())
def test_kasse_is_conserved(evening: Evening) -> None:
    """The Kasse after every hand is the seed's sheet; notes written equal what was struck
    out on wins plus what stands; money moves only on a win; the end resolves it exactly."""
    ledger = play(evening)
    base = int(to_fraction(evening.options["kasse_base"]) * 100)
    oracle = KasseOracle(base, {}, split=evening.options["kasse_on_change"] == "split")
    written = 0
    for result in ledger.hands:
        money = oracle.hand(result.record.facts, result.record.table)
        kasse = DOPPEN.kasse_view(result.state)
        assert kasse.owed() == nonzero(oracle.owed)
        assert kasse.contents == sum(oracle.owed.values())
        seated = {p: money.get(p, 0) for p in result.record.table.players}
        assert result.money_deltas == seated | nonzero(money)
        for note in result.score.notes:
            assert note.money
            assert all(t.target == KASSE for t in note.transfers)
            written += note.amounts()[KASSE]
    contents = DOPPEN.kasse_view(ledger.state).contents
    assert written == oracle.struck + contents
    s = settle(DOPPEN, evening.options, ledger, evening.next_table)
    if contents:
        paid_in, shared = (line.amounts() for line in s.closing)
        assert paid_in[KASSE] == contents == -shared[KASSE]
        shares = [shared.get(p, 0) for p in evening.next_table.players]
        assert max(shares) - min(shares) <= 1
        owed = DOPPEN.kasse_view(ledger.state).owed()
        for p in s.money:
            assert s.money[p] == ledger.money.get(p, 0) + shared.get(p, 0) - owed.get(p, 0)
    else:
        assert s.closing == ()
    assert sum(s.money.values()) == 0


# -- the settlement -----------------------------------------------------------------------


@PROPERTY
@given(evenings())
def test_settlement_adds_up(evening: Evening) -> None:
    """Nets are points at the unit value plus the money, sum to zero, are settled by the
    transfers, and the pairwise rows add up to them; settling twice gives the same."""
    ledger = play(evening)
    s = settle(DOPPEN, evening.options, ledger, evening.next_table)
    cents = to_fraction(evening.options["unit_value"]) * 100
    assert s.exact == {p: s.final[p] * cents + s.money[p] for p in s.final}
    assert sum(s.final.values()) == 0
    assert sum(s.net.values()) == 0
    assert balance_of(s.transfers) == nonzero(s.net)
    assert balance_of(s.pairwise) == nonzero(s.net)
    assert settle(DOPPEN, evening.options, ledger, evening.next_table) == s


@PROPERTY
@given(evenings(fixed=True))
def test_pairwise_points_follow_the_columns(evening: Evening) -> None:
    """At a table that stayed the same, j owes i S_i - S_j points, and i's net in points is
    n·S_i - ΣS (docs/doppen.md §10)."""
    ledger = play(evening)
    columns = DOPPEN.columns(ledger.state)
    players = evening.next_table.players
    if not ledger.hands:
        return
    n, total = len(players), sum(columns.values())
    assert ledger.balances == {p: n * columns[p] - total for p in players}
    exact = pairwise_exact(ledger, (), DOPPEN.common_accounts)
    assert exact == {
        (i, j): Fraction(columns[i] - columns[j])
        for i in players
        for j in players
        if columns[i] > columns[j]
    }


@PROPERTY
@given(evenings())
def test_pairwise_within_one_coin(evening: Evening) -> None:
    """Every pairwise amount is within one coin of what the pair exactly owes each other,
    points and Kasse money together."""
    ledger = play(evening)
    s = settle(DOPPEN, evening.options, ledger, evening.next_table)
    unit = to_fraction(evening.options["unit_value"]) * 100
    coin = to_fraction(evening.options["coin"]) * 100
    exact = pairwise_exact(ledger, s.closing, DOPPEN.common_accounts, unit=unit)
    rounded = {(p.target, p.source): p.amount for p in s.pairwise}
    for pair in {frozenset(k) for k in [*exact, *rounded]}:
        a, b = sorted(pair)
        owed = exact.get((a, b), Fraction(0)) - exact.get((b, a), Fraction(0))
        paid = rounded.get((a, b), 0) - rounded.get((b, a), 0)
        assert abs(paid - owed) <= coin, (a, b, paid, owed)


# -- replay -------------------------------------------------------------------------------


@PROPERTY
@given(evenings())
def test_replay_is_deterministic(evening: Evening) -> None:
    """The same facts replayed twice give equal ledgers, Kasse and columns included."""
    first, second = play(evening), play(evening)
    assert first == second
    for a, b in zip(first.hands, second.hands, strict=True):
        assert a.state == b.state
        assert a.score == b.score


@PROPERTY
@given(evenings(max_hands=8), st.data())
def test_stored_facts_replay_to_the_same_ledger(evening: Evening, data: st.DataObject) -> None:
    """What ``to_json`` stores replays to the same ledger; voiding a hand and restoring it
    gives the old ledger back."""
    ledger = play(evening)
    stored = [
        replace(r, facts=DOPPEN.parse_hand(r.facts, r.table, evening.options).to_json())
        for r in evening.records
    ]
    assert replay(DOPPEN, evening.options, stored) == replace(
        ledger, hands=tuple(replace(h, record=s) for h, s in zip(ledger.hands, stored, strict=True))
    )
    if evening.records:
        i = data.draw(st.integers(0, len(evening.records) - 1))
        voided = [*evening.records]
        voided[i] = replace(voided[i], void=True)
        without = replay(DOPPEN, evening.options, voided)
        assert without.hands[i].money_deltas == dict.fromkeys(voided[i].table.players, 0)
        voided[i] = evening.records[i]
        assert replay(DOPPEN, evening.options, voided) == ledger


@PROPERTY
@given(evenings(), st.data())
def test_a_replay_goes_on_from_any_hand(evening: Evening, data: st.DataObject) -> None:
    """``ledger.extend`` from any hand gives the whole evening's ledger (``check_goes_on``)."""
    check_goes_on(DOPPEN, evening.options, evening.records, data)


@given(evenings())
def test_a_hand_parsed_once_plays_as_its_stored_form(evening: Evening) -> None:
    """What a write plays (the hand as parsed when entered) is what a later replay plays
    (the hand parsed from what was stored): ``check_parsed_once``."""
    check_parsed_once(DOPPEN, evening.options, evening.records)
