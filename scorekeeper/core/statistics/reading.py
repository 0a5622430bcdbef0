"""Each standing hand read into sides: who declared, who partnered, who defended, who won.

One reader per game turns a ``HandResult`` (its parsed hand and its score) into a
``Reading``; the statistics count from readings only. Which fact decides "won" for each
game is written in docs/statistics.md, "Who declared and who won".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scorekeeper.core.ledger import HandResult
from scorekeeper.core.rules import doppen, doppen_hand, eisten_stalden, troggen, troggu_scoring
from scorekeeper.core.rules.base import POT
from scorekeeper.core.statistics.evenings import TALLY_UNIT, PlayedEvening

#: The statistics' own name for each kind of evening (docs/statistics.md, "Groups").
TROGGEN, DOPPEN, TROGGU, EISTEN_STALDEN = "troggen", "doppen", "troggu", "eisten-stalden"
KINDS = (TROGGEN, DOPPEN, TROGGU, EISTEN_STALDEN)
#: The contract key of a hand without a declaring side.
MISERE, PASS = "misere", "pass"


@dataclass(frozen=True, slots=True)
class Reading:
    """One standing hand as the statistics read it (docs/statistics.md).

    ``won`` is whether the declaring side won: None when nobody declared (a Misère, all
    passed) or the hand was a tie (57 : 57 in Troggu). ``misere`` holds every player's
    points when each played for themselves.
    """

    number: int
    contract: str
    declarers: tuple[str, ...] = ()
    partners: tuple[str, ...] = ()
    defenders: tuple[str, ...] = ()
    won: bool | None = None
    misere: tuple[tuple[str, int], ...] = ()

    def side_of(self, name: str) -> int:
        """+1 on the declaring side (declarer or partner), -1 defending, 0 neither."""
        if name in self.declarers or name in self.partners:
            return 1
        return -1 if name in self.defenders else 0


def kind_of(evening: PlayedEvening) -> str:
    """Which statistics an evening feeds: its game, or Eisten-Stalden for the Striche."""
    return EISTEN_STALDEN if evening.unit == TALLY_UNIT else evening.game


def read_troggen(result: HandResult) -> Reading:
    """A Troggen hand: the Bieterin declares, her named partner partners (docs/troggen.md §1).

    Won: the quick entry's ``won`` when the table said it; otherwise whether the pot went
    to her side in this hand, the variant's own verdict (the winning line depends on the
    evening's ``threshold`` option, which a ``PlayedEvening`` does not carry).
    """
    hand = result.hand
    number = result.record.number
    if isinstance(hand, troggen.MisereHand):
        return Reading(number, MISERE, misere=hand.points)
    assert isinstance(hand, troggen.BidHand)
    partners = (hand.partner,) if hand.partner else ()
    table = result.record.table
    defenders = tuple(p for p in table.others(hand.bidder) if p not in partners)
    won = hand.won
    if hand.points is not None:
        won = any(t.source == POT for line in result.score.lines for t in line.transfers)
    return Reading(number, hand.contract.value, (hand.bidder,), partners, defenders, won)


def read_doppen(result: HandResult) -> Reading:
    """A Doppen hand: the soloist against everyone else seated (docs/doppen.md §1).

    Won: whether the game (card points, or the Valat that replaces them) went to the
    soloist, as ``doppen.game_item`` scores the facts; premiums aside. The dealer sitting
    out at four pays as an opponent and is counted as a defender.
    """
    hand = result.hand
    number = result.record.number
    if isinstance(hand, doppen_hand.PassHand):
        return Reading(number, PASS)
    assert isinstance(hand, doppen_hand.GameHand)
    defenders = result.record.table.others(hand.soloist)
    won = doppen.game_item(hand)[1] > 0
    return Reading(number, hand.contract.value, (hand.soloist,), (), defenders, won)


def read_troggu(result: HandResult) -> Reading:
    """A Troggu hand for money: the Tappist or soloist, his partner at 7-8 players.

    Won: the declaring side's points against the fixed line (58 wins, 57 : 57 is a tie,
    docs/troggu.md §1), read from the hand's points.
    """
    hand = result.hand
    number = result.record.number
    if isinstance(hand, troggu_scoring.MisereHand):
        return Reading(number, MISERE, misere=hand.points)
    assert isinstance(hand, troggu_scoring.GameHand)
    partners = (hand.partner,) if hand.partner else ()
    table = result.record.table
    defenders = tuple(p for p in table.others(hand.declarer) if p not in partners)
    won = None if hand.points == troggu_scoring.TIE else hand.points >= troggu_scoring.TO_WIN
    return Reading(number, hand.contract.value, (hand.declarer,), partners, defenders, won)


def read_eisten_stalden(result: HandResult) -> Reading:
    """An Eisten-Stalden hand: every member of the declaring side declares (the hand does
    not say who called whom); the rest defend. Won as in ``read_troggu``."""
    hand = result.hand
    assert isinstance(hand, eisten_stalden.TeamHand)
    table = result.record.table
    defenders = tuple(p for p in table.players if p not in hand.team)
    won = None if hand.points == troggu_scoring.TIE else hand.points >= troggu_scoring.TO_WIN
    return Reading(
        result.record.number, eisten_stalden.Contract.TEAM.value, hand.team, (), defenders, won
    )


READERS: dict[str, Callable[[HandResult], Reading]] = {
    TROGGEN: read_troggen,
    DOPPEN: read_doppen,
    TROGGU: read_troggu,
    EISTEN_STALDEN: read_eisten_stalden,
}


def readings(evening: PlayedEvening) -> tuple[tuple[HandResult, Reading], ...]:
    """Every standing hand of the evening with its reading, in the order played."""
    read = READERS[kind_of(evening)]
    return tuple((result, read(result)) for result in evening.hands())
