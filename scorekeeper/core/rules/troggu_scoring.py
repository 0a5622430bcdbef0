"""Troggu's payments: the regions, the payment scale and who pays whom (docs/troggu.md §1, §2, §2b).

Seeds 003 (English description, flat stake) and 004 (Visp with the St. Niklaus and Grächen
variants). A region is a frozen ``Region``; the facts of a hand are a ``GameHand`` (normal
game or Solo) or a ``MisereHand``; ``score_game`` and ``score_misere`` turn them into
direct transfers between players, in multiples of the base amount B. Parsing and
validation live in ``troggu.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scorekeeper.core.rules.base import (
    HandScore,
    Message,
    ScoreLine,
    Table,
    Transfer,
    msg,
    pays,
    receives,
)

#: Card points in the deck (docs/troggu.md §1).
TOTAL_POINTS = 114
#: A side with at least this many card points wins; 57 : 57 is a tie (docs/troggu.md §1).
TO_WIN = 58
TIE = 57
#: From this many players on the Tappist may call a partner, and a Misère needs the Fool
#: and trump I in the Tapp (docs/troggu.md §2).
BIG_TABLE = 7
#: The partner receives or pays twice what one opponent does (docs/troggu.md §2).
PARTNER_SHARE = 2
#: Every card is worth 1 to 5 points; the Fool and trump I are worth 5 each (docs/troggu.md §1).
LEAST_PER_CARD = 1
MOST_PER_CARD = 5
FOOL_AND_I = 2


class Contract(StrEnum):
    """What the bidding ended in (docs/troggu.md §2)."""

    NORMAL = "normal"
    SOLO = "solo"
    MISERE = "misere"


class AllTricks(StrEnum):
    """The side that took every trick, which pays triple in the scaled regions."""

    DECLARER = "declarer"
    OPPONENTS = "opponents"


class MisereRule(StrEnum):
    """Who pays in a Misère: the most points pays everyone, or the fewest is paid by all."""

    MOST_PAYS = "most-pays"
    FEWEST_RECEIVES = "fewest-receives"


@dataclass(frozen=True, slots=True)
class Region:
    """What a region's Troggu decides for the score (docs/troggu.md "Variants at a glance").

    ``double_at``: the losers pay double with at most this many points; None is the flat
    stake (no scale, no triple, no doubled Solo). ``tapp``: the Tapp's cards per table size.
    Every money region lets the Tappist call a partner at 7-8 players it allows.
    """

    key: str
    title: Message
    min_players: int
    max_players: int
    unit_value: str
    double_at: int | None
    misere: MisereRule
    tapp: tuple[tuple[int, int], ...]

    def tapp_cards(self, players: int) -> int:
        """How many cards lie in the Tapp at a table of ``players``."""
        return dict(self.tapp)[players]

    @property
    def scaled(self) -> bool:
        """Whether payments follow the point scale and a Solo pays double."""
        return self.double_at is not None


#: Visp, St. Niklaus and the flat stake: 3p 8, 4p 10, 5p 7, 6p 8, 7-8p 6 cards (docs/troggu.md §1).
STANDARD_TAPP = ((3, 8), (4, 10), (5, 7), (6, 8), (7, 6), (8, 6))
#: Grächen deals 7 + Tapp + 7 at four players, so 6 cards (docs/troggu.md §2).
GRAECHEN_TAPP = ((3, 8), (4, 6), (5, 7), (6, 8), (7, 6), (8, 6))

VISP = Region(
    key="visp",
    title=msg("Troggu (Visp)"),
    min_players=4,
    max_players=8,
    unit_value="0.10",
    double_at=30,
    misere=MisereRule.MOST_PAYS,
    tapp=STANDARD_TAPP,
)
ST_NIKLAUS = Region(
    key="st-niklaus",
    title=msg("Troggu (St. Niklaus)"),
    min_players=3,
    max_players=7,
    unit_value="0.05",
    double_at=31,
    misere=MisereRule.FEWEST_RECEIVES,
    tapp=STANDARD_TAPP,
)
GRAECHEN = Region(
    key="graechen",
    title=msg("Troggu (Grächen)"),
    min_players=3,
    max_players=8,
    unit_value="0.05",
    double_at=20,
    misere=MisereRule.MOST_PAYS,
    tapp=GRAECHEN_TAPP,
)
FLAT = Region(
    key="flat",
    title=msg("Troggu (flat stake)"),
    min_players=3,
    max_players=6,
    unit_value="0.10",
    double_at=None,
    misere=MisereRule.MOST_PAYS,
    tapp=STANDARD_TAPP,
)


@dataclass(frozen=True, slots=True)
class GameHand:
    """A normal game or a Solo: the declaring side's card points and who took every trick.

    ``points`` count for the Tappist (or soloist) and his partner together, the discard or
    the Tapp included. ``with_partner_seat`` records that the table was asked for a partner
    (a normal game at 7-8 players), so that ``to_json`` keeps a ``null`` answer.
    """

    contract: Contract
    declarer: str
    partner: str | None
    points: int
    all_tricks: AllTricks | None = None
    with_partner_seat: bool = False

    def to_json(self) -> dict[str, Any]:
        """The facts as recorded; ``partner`` only where the table asks for one."""
        out: dict[str, Any] = {"contract": self.contract.value, "declarer": self.declarer}
        if self.with_partner_seat:
            out["partner"] = self.partner
        out["points"] = self.points
        out["all_tricks"] = self.all_tricks.value if self.all_tricks else None
        return out


@dataclass(frozen=True, slots=True)
class MisereHand:
    """Everybody passed: each player's card points in playing order, optionally the Tapp's."""

    points: tuple[tuple[str, int], ...]
    tapp_points: int | None = None
    fool_and_i_in_tapp: bool = False

    def to_json(self) -> dict[str, Any]:
        """The facts as recorded, in playing order."""
        out: dict[str, Any] = {"contract": Contract.MISERE.value, "points": dict(self.points)}
        if self.tapp_points is not None:
            out["tapp_points"] = self.tapp_points
        if self.fool_and_i_in_tapp:
            out["fool_and_i_in_tapp"] = True
        return out


def multiplier(region: Region, *, losers: int, all_tricks: bool, solo: bool) -> int:
    """How many base amounts each opponent pays or receives (docs/troggu.md §2 payment scale).

    Every trick taken pays triple before the points are looked at; otherwise the losing
    side's points decide between double and single; a Solo doubles. The flat stake is 1.

    >>> multiplier(VISP, losers=52, all_tricks=False, solo=False)
    1
    >>> [multiplier(r, losers=31, all_tricks=False, solo=False) for r in (VISP, ST_NIKLAUS)]
    [1, 2]
    >>> multiplier(GRAECHEN, losers=12, all_tricks=True, solo=True)
    6
    """
    if region.double_at is None:
        return 1
    factor = 3 if all_tricks else 2 if losers <= region.double_at else 1
    return factor * (2 if solo else 1)


def tapp_point_range(region: Region, players: int, *, fool_and_i: bool = False) -> tuple[int, int]:
    """The fewest and most card points the Tapp's cards can hold, 1 to 5 a card (§2).

    With ``fool_and_i`` (a Misère at 7-8 players) two of them are worth 5 each.

    >>> tapp_point_range(VISP, 5), tapp_point_range(VISP, 7, fool_and_i=True)
    ((7, 35), (14, 30))
    """
    cards = region.tapp_cards(players)
    low = LEAST_PER_CARD * cards
    if fool_and_i:
        low += FOOL_AND_I * (MOST_PER_CARD - LEAST_PER_CARD)
    return low, MOST_PER_CARD * cards


def misere_sum_range(region: Region, players: int) -> tuple[int, int]:
    """What a Misère's card points may add up to before the Tapp is counted: the pack's
    114 less the most and the fewest the unused Tapp can hold (§2; at 7-8 players the Fool
    and trump I lie in it).

    >>> misere_sum_range(VISP, 5), misere_sum_range(VISP, 7)
    ((79, 107), (84, 100))
    """
    low, high = tapp_point_range(region, players, fool_and_i=players >= BIG_TABLE)
    return TOTAL_POINTS - high, TOTAL_POINTS - low


def game_label(region: Region, *, won: bool, solo: bool, losers: int, every_trick: bool) -> Message:
    """The line explaining a normal game's or Solo's payments, with the reason for its size.

    >>> game_label(VISP, won=True, solo=False, losers=25, every_trick=False).render()
    'Tappist wins: 2 from each opponent (losers 25 points, 30 or fewer: double)'
    """
    f = multiplier(region, losers=losers, all_tricks=every_trick, solo=solo)
    why: Message
    if region.double_at is None:
        why = msg("flat stake")
    elif every_trick:
        why = msg("every trick taken: triple")
    elif losers <= region.double_at:
        why = msg(
            "losers {points} points, {limit} or fewer: double",
            points=losers,
            limit=region.double_at,
        )
    else:
        why = msg("losers {points} points", points=losers)
    if solo and region.scaled:
        why = msg("{reason}, doubled for the Solo", reason=why)
    if solo and won:
        return msg("Soloist wins: {factor} from each opponent ({reason})", factor=f, reason=why)
    if solo:
        return msg("Soloist loses: {factor} to each opponent ({reason})", factor=f, reason=why)
    if won:
        return msg("Tappist wins: {factor} from each opponent ({reason})", factor=f, reason=why)
    return msg("Tappist loses: {factor} to each opponent ({reason})", factor=f, reason=why)


def score_game(hand: GameHand, table: Table, region: Region) -> HandScore:
    """Payments of a normal game or Solo, in base amounts (docs/troggu.md §2 "Who pays whom").

    Each opponent pays the declarer u, or receives u from him. With a partner (7-8 players)
    the Tappist passes 2u on to the partner, or the partner pays him 2u: each opponent u,
    the partner 2u, the Tappist the rest. 57 : 57 pays nothing.

    >>> t = Table(("A", "B", "C", "D", "E", "F", "G"), dealer="G")
    >>> lost = GameHand(Contract.NORMAL, "A", "B", 50, with_partner_seat=True)
    >>> score_game(lost, t, VISP).amounts()
    {'A': -3, 'C': 1, 'D': 1, 'E': 1, 'F': 1, 'G': 1, 'B': -2}
    """
    if hand.points == TIE:
        return HandScore((ScoreLine(msg("57 : 57, nobody pays"), ()),))
    won = hand.points >= TO_WIN
    losers = TOTAL_POINTS - hand.points if won else hand.points
    every_trick = hand.all_tricks is not None
    solo = hand.contract is Contract.SOLO
    unit = multiplier(region, losers=losers, all_tricks=every_trick, solo=solo)
    label = game_label(region, won=won, solo=solo, losers=losers, every_trick=every_trick)
    opponents = [p for p in table.others(hand.declarer) if p != hand.partner]
    if won:
        lines = [pays(label, opponents, hand.declarer, unit)]
    else:
        lines = [receives(label, hand.declarer, opponents, unit)]
    if hand.partner is not None:
        share = PARTNER_SHARE * unit
        source, target = (hand.declarer, hand.partner) if won else (hand.partner, hand.declarer)
        lines.append(ScoreLine(msg("Partner's share"), (Transfer(source, target, share),)))
    return HandScore(tuple(lines))


def score_misere(hand: MisereHand, rule: MisereRule) -> HandScore:
    """The most points pays B to each other player, or the fewest receives B from each.

    Tied players neither pay nor receive between themselves; if all tie, nobody pays
    (docs/troggu.md §2 [R]). T10 of docs/troggu.md:

    >>> hand = MisereHand((("A", 30), ("B", 22), ("C", 30), ("D", 20), ("E", 5)))
    >>> score_misere(hand, MisereRule.MOST_PAYS).amounts()
    {'A': -3, 'B': 2, 'D': 2, 'E': 2, 'C': -3}
    >>> score_misere(hand, MisereRule.FEWEST_RECEIVES).amounts()
    {'A': -1, 'E': 4, 'B': -1, 'C': -1, 'D': -1}
    """
    values = [v for _, v in hand.points]
    if min(values) == max(values):
        return HandScore((ScoreLine(msg("Misère: all tied, nobody pays"), ()),))
    if rule is MisereRule.MOST_PAYS:
        payers = [p for p, v in hand.points if v == max(values)]
        payees = [p for p, _ in hand.points if p not in payers]
        label = msg("Misère: the most points pays each other player")
    else:
        payees = [p for p, v in hand.points if v == min(values)]
        payers = [p for p, _ in hand.points if p not in payees]
        label = msg("Misère: the fewest points is paid by each other player")
    return HandScore((ScoreLine(label, tuple(Transfer(a, b, 1) for a in payers for b in payees)),))
