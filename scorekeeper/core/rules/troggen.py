"""Troggen as the Historisches Museum Blumenstein, Solothurn, defined it in 2015.

Seed 000 and our reading of it, ``docs/troggen.md``: 4 to 6 players, four contracts with stakes
into a pot that the next winning Bieterin takes (sharing it with her partner at 5-6
players), Pagat or King in the last trick paid directly, and the Misère when all pass.
Amounts are jetons.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scorekeeper.core.rules.base import (
    CARRIED,
    POT,
    ErrorCollector,
    HandScore,
    InvalidHandError,
    Message,
    ScoreLine,
    Table,
    Transfer,
    msg,
    pays,
    receives,
)
from scorekeeper.core.rules.options import OptionSpec, money_options
from scorekeeper.core.rules.parsing import (
    check_sum,
    find_player,
    read_choice,
    read_int,
    read_player,
    read_points_per_player,
    reject_unknown,
)
from scorekeeper.core.rules.variant import Options, Variant


class Contract(StrEnum):
    """The bids, lowest first (docs/troggen.md §3), and the Misère when everybody passes (§7)."""

    EINFACH = "einfach"
    DOPPELT = "doppelt"
    OHNE = "ohne"
    GEGEN = "gegen"
    MISERE = "misere"


class LastTrick(StrEnum):
    """What the Bieterin's own Pagat or King did in the last trick (docs/troggen.md §6, §9)."""

    NONE = "none"
    PAGAT_WON = "pagat_won"
    PAGAT_LOST = "pagat_lost"
    KING_WON = "king_won"
    KING_LOST = "king_lost"


#: Stake multiplier s per contract (docs/troggen.md §3): the Bieterin stakes s per other player.
MULTIPLIER = {Contract.EINFACH: 1, Contract.DOPPELT: 2, Contract.OHNE: 4, Contract.GEGEN: 6}
#: Card points 52 plus one per trick (docs/troggen.md §2).
TOTAL_POINTS = {4: 70, 5: 67, 6: 64}
#: The most card points the unused talon can hold in a Misère (6 or 3 cards of 4 points).
MAX_TALON_POINTS = {4: 24, 5: 12, 6: 24}
FIXED_THRESHOLD = 35
LAST_TRICK_JETONS = 2
MISERE_HIGHEST = 4
MISERE_BETWEEN = 2
#: The fewest points the Bieterin's side has when her Pagat or King won the last trick.
MIN_POINTS_LAST_TRICK_WON = 5

_LAST_TRICK_LABELS = {
    LastTrick.PAGAT_WON: msg("Pagat won in the last trick"),
    LastTrick.PAGAT_LOST: msg("Pagat lost in the last trick"),
    LastTrick.KING_WON: msg("King won in the last trick"),
    LastTrick.KING_LOST: msg("King lost in the last trick"),
}


@dataclass(frozen=True, slots=True)
class BidHand:
    """A hand with a Bieterin: what the table says at its end (docs/troggen.md §9)."""

    contract: Contract
    bidder: str
    partner: str | None
    points: int | None
    won: bool | None
    last_trick: LastTrick = LastTrick.NONE
    kulanz: int = 0
    with_partner_seat: bool = False

    def to_json(self) -> dict[str, Any]:
        """The facts as recorded: points when counted, else the quick won/lost."""
        out: dict[str, Any] = {"contract": self.contract.value, "bidder": self.bidder}
        if self.with_partner_seat:
            out["partner"] = self.partner
        if self.points is not None:
            out["points"] = self.points
        else:
            out["won"] = self.won
        out["last_trick"] = self.last_trick.value
        if self.kulanz:
            out["kulanz"] = self.kulanz
        return out


@dataclass(frozen=True, slots=True)
class MisereHand:
    """All passed: each player's own points, optionally the unused talon's card points."""

    points: tuple[tuple[str, int], ...]
    talon_points: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The facts as recorded."""
        out: dict[str, Any] = {"contract": Contract.MISERE.value, "points": dict(self.points)}
        if self.talon_points is not None:
            out["talon_points"] = self.talon_points
        return out


@dataclass(frozen=True, slots=True)
class PotState:
    """The jetons on the table and who put them in since the pot was last emptied."""

    pot: int = 0
    paid_in: tuple[tuple[str, int], ...] = ()

    def add(self, amounts: Mapping[str, int]) -> PotState:
        """The state after players paid ``amounts`` into the pot."""
        paid = dict(self.paid_in)
        for player, amount in amounts.items():
            paid[player] = paid.get(player, 0) + amount
        return PotState(self.pot + sum(amounts.values()), tuple(paid.items()))


def threshold(options: Options, players: int) -> int:
    """Points the Bieterin's side needs: a fixed 35, or half the total rounded up (§2)."""
    if options["threshold"] == "half-up":
        return -(-TOTAL_POINTS[players] // 2)
    return FIXED_THRESHOLD


def partner_third(carry_over: int, options: Options) -> int:
    """The partner's third of the earlier hands' pot, nearest or floor rounding (§5).

    >>> [partner_third(26, {"partner_rounding": r}) for r in ("nearest", "floor")]
    [9, 8]
    """
    if options["partner_rounding"] == "floor":
        return carry_over // 3
    return (carry_over + 1) // 3


class Troggen(Variant):
    """Troggen, Blumenstein 2015 (seed 000)."""

    game = "troggen"
    key = "blumenstein-2015"
    title = msg("Troggen (Museum Blumenstein, 2015)")
    min_players = 4
    max_players = 6
    unit_name = msg("Jetons")
    unit_word = msg("jetons")
    common_accounts = (POT,)
    end_rule_option = "end_pot"
    carry_choice = "carry"
    option_specs = (
        *money_options(unit_value="0.10"),
        OptionSpec(
            "end_pot",
            "split",
            msg("Pot at the end"),
            msg("What happens to jetons left in the pot when the evening ends."),
            choices=(
                ("split", msg("shared equally among the players at the table")),
                ("refund", msg("paid back to whoever put them in")),
                ("carry", msg("carried over to the next evening")),
            ),
        ),
        OptionSpec(
            "threshold",
            "fixed-35",
            msg("Points to win"),
            msg("What the Bieterin's side needs to win the hand."),
            choices=(
                ("fixed-35", msg("35 points at every table size")),
                ("half-up", msg("half of all points, rounded up (35, 34, 32)")),
            ),
        ),
        OptionSpec(
            "partner_rounding",
            "nearest",
            msg("Partner's third"),
            msg("How the partner's third of the earlier pot is rounded."),
            choices=(("nearest", msg("to the nearest jeton")), ("floor", msg("down"))),
        ),
        OptionSpec(
            "last_trick_payers",
            "all-others",
            msg("Pagat and King payers"),
            msg("Who pays and is paid for a Pagat or King in the last trick."),
            choices=(
                ("all-others", msg("all other players, the partner included")),
                ("defenders", msg("the defenders only")),
            ),
        ),
    )

    def initial_state(self) -> PotState:
        """An empty pot."""
        return PotState()

    def carried_state(self, pot: int) -> PotState:
        """The pot an earlier evening carried in, paid in by whoever keeps it (``CARRIED``):
        a refund at this evening's end gives it back to them, a hand won shares it like
        any earlier hand's stakes (§5, §8)."""
        if pot < 0:
            raise ValueError("a carried pot is never negative")
        return PotState(pot, ((CARRIED, pot),) if pot else ())

    def common_balance(self, state: Any) -> dict[str, int]:
        """The pot's jetons."""
        return {POT: state.pot}

    # -- parsing -------------------------------------------------------------------------

    def parse_hand(
        self, raw: Mapping[str, object], table: Table, options: Options
    ) -> BidHand | MisereHand:
        """Validate a hand's facts (docs/troggen.md §9); every problem is named at once."""
        errors = ErrorCollector()
        contract = read_choice(raw, "contract", Contract, errors)
        if contract is None:
            errors.raise_if_any(InvalidHandError)
        if contract is Contract.MISERE:
            return self._parse_misere(raw, table, errors)
        assert contract is not None
        return self._parse_bid(raw, contract, table, options, errors)

    def _parse_bid(
        self,
        raw: Mapping[str, object],
        contract: Contract,
        table: Table,
        options: Options,
        errors: ErrorCollector,
    ) -> BidHand:
        known = {"contract", "bidder", "partner", "points", "won", "last_trick", "kulanz"}
        reject_unknown(raw, known, errors)
        total = TOTAL_POINTS[table.size]
        bidder = read_player(raw, "bidder", table, errors)
        partner = self._read_partner(raw, table, bidder, errors)
        points: int | None = None
        won: bool | None = None
        if "points" in raw and raw["points"] is not None:
            if raw.get("won") is not None:
                errors.add("won", msg("Give either the points or won/lost, not both."))
            points = read_int(raw, "points", errors, low=0, high=total)
        elif isinstance(raw.get("won"), bool):
            won = bool(raw["won"])
        elif raw.get("won") is not None:
            errors.add("won", msg("Say whether the hand was won: true or false."))
        else:
            errors.add("points", msg("Enter the points of the Bieterin's side."))
        last_trick = read_choice(raw, "last_trick", LastTrick, errors, default=LastTrick.NONE)
        if (
            points is not None
            and points < MIN_POINTS_LAST_TRICK_WON
            and last_trick in (LastTrick.PAGAT_WON, LastTrick.KING_WON)
        ):
            errors.add(
                "points",
                msg(
                    "With the last trick won, the Bieterin's side has at least {low} points.",
                    low=MIN_POINTS_LAST_TRICK_WON,
                ),
            )
        kulanz = 0
        if raw.get("kulanz") is not None:
            kulanz = read_int(raw, "kulanz", errors, low=0, high=10**6) or 0
            if kulanz and partner is None:
                errors.add("kulanz", msg("Kulanz goes to the partner, and this hand has none."))
        errors.raise_if_any(InvalidHandError)
        assert bidder is not None
        assert last_trick is not None
        return BidHand(contract, bidder, partner, points, won, last_trick, kulanz, table.size > 4)

    def _read_partner(
        self, raw: Mapping[str, object], table: Table, bidder: str | None, errors: ErrorCollector
    ) -> str | None:
        if table.size == 4:
            if raw.get("partner") is not None:
                errors.add("partner", msg("At a table of four the Bieterin plays alone."))
            return None
        if "partner" not in raw:
            errors.add(
                "partner",
                msg("Say who held the called king, or none if the Bieterin held it herself."),
            )
            return None
        if raw["partner"] is None or raw["partner"] == "":
            return None
        partner = find_player(raw["partner"], table)
        if partner is None:
            errors.add("partner", msg("{name} is not at the table.", name=str(raw["partner"])))
        elif partner == bidder:
            errors.add(
                "partner",
                msg("The partner is another player; choose none for the Bieterin's own king."),
            )
            return None
        return partner

    def _parse_misere(
        self, raw: Mapping[str, object], table: Table, errors: ErrorCollector
    ) -> MisereHand:
        reject_unknown(raw, {"contract", "points", "talon_points"}, errors)
        total = TOTAL_POINTS[table.size]
        most_in_talon = MAX_TALON_POINTS[table.size]
        points = read_points_per_player(raw, table, errors, high=total)
        talon = None
        if raw.get("talon_points") is not None:
            talon = read_int(raw, "talon_points", errors, low=0, high=most_in_talon)
        if not errors:
            # One point either way for the Excuse (docs/troggen.md §2).
            check_sum(points, errors, low=total - most_in_talon - 1, high=total + 1)
        errors.raise_if_any(InvalidHandError)
        return MisereHand(tuple((p, points[p]) for p in table.players), talon)

    def refusals(self, hand: Any, table: Table, options: Options) -> dict[str, tuple[Message, ...]]:
        """A Pagat or King lost in the last trick leaves the defenders that trick and the
        card, at least 5 points: the mirror of §9's rule for a won one."""
        lost = (LastTrick.PAGAT_LOST, LastTrick.KING_LOST)
        if not isinstance(hand, BidHand) or hand.points is None or hand.last_trick not in lost:
            return {}
        high = TOTAL_POINTS[table.size] - MIN_POINTS_LAST_TRICK_WON
        if hand.points <= high:
            return {}
        return {
            "points": (
                msg(
                    "With the last trick lost to the defenders, they have at least {low} "
                    "points: the Bieterin's side has at most {high}.",
                    low=MIN_POINTS_LAST_TRICK_WON,
                    high=high,
                ),
            )
        }

    def warnings(self, hand: Any, table: Table, options: Options) -> dict[str, tuple[Message, ...]]:
        """A Misère whose points do not match the talon's card points (docs/troggen.md §9)."""
        if isinstance(hand, MisereHand) and hand.talon_points is not None:
            expected = TOTAL_POINTS[table.size] - hand.talon_points
            got = sum(p for _, p in hand.points)
            if got != expected:
                return {
                    "points": (
                        msg(
                            "The players' points add up to {sum}; the talon holds {talon} of "
                            "the {total} points, so they should add up to {expected}. Please "
                            "check the count.",
                            sum=got,
                            talon=hand.talon_points,
                            total=TOTAL_POINTS[table.size],
                            expected=expected,
                        ),
                    )
                }
        return {}

    # -- scoring -------------------------------------------------------------------------

    def score_hand(
        self, hand: Any, table: Table, state: Any, options: Options
    ) -> tuple[HandScore, PotState]:
        """Payments of one hand and the pot after it (docs/troggen.md §3-§7)."""
        if isinstance(hand, MisereHand):
            return self._score_misere(hand, state)
        return self._score_bid(hand, table, state, options)

    def _score_bid(
        self, hand: BidHand, table: Table, state: PotState, options: Options
    ) -> tuple[HandScore, PotState]:
        s = MULTIPLIER[hand.contract]
        others = table.others(hand.bidder)
        stakes = {hand.bidder: s * len(others), **{p: s for p in others}}
        lines = [ScoreLine(msg("Stakes"), tuple(Transfer(p, POT, a) for p, a in stakes.items()))]
        after = state.add(stakes)
        won = hand.won if hand.points is None else hand.points >= threshold(options, table.size)
        if won:
            lines += self._share_pot(hand, s, state.pot, after.pot, options)
            after = PotState()
        elif hand.kulanz:
            raise InvalidHandError.single(
                "kulanz", msg("Kulanz is only given from a pot that was won.")
            )
        lines += self._last_trick(hand, table, options)
        return HandScore(tuple(line for line in lines if line.transfers)), after

    def _share_pot(
        self, hand: BidHand, s: int, carry_over: int, pot: int, options: Options
    ) -> list[ScoreLine]:
        if hand.partner is None:
            return [ScoreLine(msg("Pot won"), (Transfer(POT, hand.bidder, pot),))]
        partner_share = s + partner_third(carry_over, options)
        bidder_share = pot - partner_share
        if hand.kulanz > bidder_share:
            raise InvalidHandError.single(
                "kulanz",
                msg(
                    "Kulanz can be at most {most} jetons, what the Bieterin receives.",
                    most=bidder_share,
                ),
            )
        lines = [
            ScoreLine(msg("Pot won"), (Transfer(POT, hand.bidder, bidder_share),)),
            ScoreLine(msg("Partner's share"), (Transfer(POT, hand.partner, partner_share),)),
        ]
        if hand.kulanz:
            lines.append(
                ScoreLine(msg("Kulanz"), (Transfer(hand.bidder, hand.partner, hand.kulanz),))
            )
        return lines

    def _last_trick(self, hand: BidHand, table: Table, options: Options) -> list[ScoreLine]:
        if hand.last_trick is LastTrick.NONE:
            return []
        payers = table.others(hand.bidder)
        if options["last_trick_payers"] == "defenders":
            payers = tuple(p for p in payers if p != hand.partner)
        label = _LAST_TRICK_LABELS[hand.last_trick]
        if hand.last_trick in (LastTrick.PAGAT_WON, LastTrick.KING_WON):
            return [pays(label, payers, hand.bidder, LAST_TRICK_JETONS)]
        return [receives(label, hand.bidder, payers, LAST_TRICK_JETONS)]

    def _score_misere(self, hand: MisereHand, state: PotState) -> tuple[HandScore, PotState]:
        points = dict(hand.points)
        low, high = min(points.values()), max(points.values())
        if low == high:
            return HandScore((ScoreLine(msg("Misère: all tied, nobody pays"), ()),)), state
        highest = [p for p, v in hand.points if v == high]
        between = [p for p, v in hand.points if low < v < high]
        lines = (
            pays(msg("Misère: most points"), highest, POT, MISERE_HIGHEST),
            pays(msg("Misère: in between"), between, POT, MISERE_BETWEEN),
        )
        paid = {p: MISERE_HIGHEST for p in highest} | {p: MISERE_BETWEEN for p in between}
        return HandScore(tuple(line for line in lines if line.transfers)), state.add(paid)

    # -- end of the evening --------------------------------------------------------------

    def close_evening(
        self, state: Any, table: Table, options: Options, *, rule: str | None = None
    ) -> tuple[ScoreLine, ...]:
        """Split, refund or carry what is left in the pot (docs/troggen.md §8)."""
        rule = rule or options["end_pot"]
        if state.pot == 0 or rule == "carry":
            return ()
        if rule == "refund":
            return (
                ScoreLine(
                    msg("Pot refunded"),
                    tuple(Transfer(POT, p, a) for p, a in state.paid_in if a),
                ),
            )
        share, rest = divmod(state.pot, table.size)
        order = table.order_from(table.forehand)
        amounts = {p: share + (1 if i < rest else 0) for i, p in enumerate(order)}
        return (
            ScoreLine(
                msg("Pot split"),
                tuple(Transfer(POT, p, amounts[p]) for p in table.players if amounts[p]),
            ),
        )


TROGGEN = Troggen()
