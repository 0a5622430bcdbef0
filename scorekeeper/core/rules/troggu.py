"""Troggu, the tarock of the Upper Valais, played for money: Visp, St. Niklaus, Grächen, flat.

Seeds 003 (English description, flat stake) and 004 (Visp rules with the St. Niklaus and
Grächen variants), read in ``docs/troggu.md`` §1, §2 and §2b. 62 cards with 114 card points; a
side wins with 58, and 57 : 57 pays nothing. Three contracts:

* **normal**: the Tappist takes the Tapp and plays against all others; with 7-8 players he
  may call a partner (the holder of the trump he calls; none when it lay in his own hand or
  the Tapp);
* **solo**: no exchange, no partner; the Tapp's points belong to the soloist;
* **misère**: everybody passed and each plays alone; the Tapp is not used. With 7-8
  players it is played only when the Fool and trump I both lie in the Tapp (the hand says
  so with ``"fool_and_i_in_tapp": true``; otherwise their holder had to play a normal game).

Amounts are multiples of the base amount B (``unit_value``): a normal game won at single
stake against three opponents is +3 for the Tappist and -1 for each opponent. Every payment
goes directly from player to player, so each hand sums to zero and there is no common
account. The regions differ only in the parameters of a frozen ``Region``
(``troggu_scoring.py``, which also holds the payment scale and the hands' dataclasses).

Hand facts (``parse_hand``; ``to_json`` gives them back as stored):

* ``{"contract": "normal" | "solo", "declarer": name, "partner": name | null,
  "points": 0-114, "all_tricks": "declarer" | "opponents" | null}``: ``points`` are the
  declaring side's card points (partner, discard or Tapp included); ``partner`` is
  required for a normal game at 7-8 players and refused otherwise; ``all_tricks`` says
  which side took every trick (default none).
* ``{"contract": "misere", "points": {name: 0-114, ...}, "tapp_points": int,
  "fool_and_i_in_tapp": true}``: every player's card points; ``tapp_points`` (optional)
  turns the range check into an exact checksum (a mismatch is a warning to confirm, a sum
  no Tapp allows is refused); the flag is required at 7-8 players and ignored below.

Variants: ``TROGGU_VISP`` (the default), ``TROGGU_ST_NIKLAUS``, ``TROGGU_GRAECHEN`` and
``TROGGU_FLAT``, all of the class ``Troggu``; Eisten-Stalden's Striche are in
``eisten_stalden.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.core.rules.base import (
    ErrorCollector,
    HandInput,
    HandScore,
    InvalidHandError,
    Message,
    ScoreLine,
    Table,
    msg,
)
from scorekeeper.core.rules.options import money_options
from scorekeeper.core.rules.parsing import (
    check_sum,
    find_player,
    read_choice,
    read_int,
    read_player,
    read_points_per_player,
    reject_unknown,
)
from scorekeeper.core.rules.troggu_scoring import (
    BIG_TABLE,
    FLAT,
    GRAECHEN,
    LEAST_PER_CARD,
    ST_NIKLAUS,
    TOTAL_POINTS,
    VISP,
    AllTricks,
    Contract,
    GameHand,
    MisereHand,
    Region,
    misere_sum_range,
    score_game,
    score_misere,
    tapp_point_range,
)
from scorekeeper.core.rules.variant import Options, Variant


class Troggu(Variant):
    """Troggu for money in one region (seeds 003, 004)."""

    game = "troggu"
    unit_name = msg("Base amounts")
    unit_word = msg("base amounts")

    def __init__(self, region: Region) -> None:
        self.region = region
        self.key = region.key
        self.title = region.title
        self.min_players = region.min_players
        self.max_players = region.max_players
        self.option_specs = money_options(unit_value=region.unit_value, currency="CHF")

    def initial_state(self) -> None:
        """Nothing is carried from hand to hand."""
        return None

    def has_partner_seat(self, contract: Contract, players: int) -> bool:
        """Whether a normal game at this table asks who held the called trump."""
        return contract is Contract.NORMAL and players >= BIG_TABLE

    # -- parsing -------------------------------------------------------------------------

    def parse_hand(
        self, raw: Mapping[str, object], table: Table, options: Options
    ) -> GameHand | MisereHand:
        """Validate a hand's facts (docs/troggu.md §2); every problem is named at once.

        >>> t = Table(("Anna", "Beat", "Carla", "Dani"), dealer="Dani")
        >>> TROGGU_VISP.parse_hand({"contract": "normal", "declarer": "anna", "points": 62},
        ...                        t, {}).to_json()
        {'contract': 'normal', 'declarer': 'Anna', 'points': 62, 'all_tricks': None}
        """
        errors = ErrorCollector()
        problem = self.player_count_problem(table.size)
        if problem is not None:
            raise InvalidHandError.single("players", problem)
        contract = read_choice(raw, "contract", Contract, errors)
        if contract is None:
            errors.raise_if_any(InvalidHandError)
        if contract is Contract.MISERE:
            return self._parse_misere(raw, table, errors)
        assert contract is not None
        return self._parse_game(raw, contract, table, errors)

    def _parse_game(
        self, raw: Mapping[str, object], contract: Contract, table: Table, errors: ErrorCollector
    ) -> GameHand:
        reject_unknown(raw, {"contract", "declarer", "partner", "points", "all_tricks"}, errors)
        declarer = read_player(raw, "declarer", table, errors)
        partner = self._read_partner(raw, contract, table, declarer, errors)
        points = None
        if raw.get("points") is None:
            errors.add("points", msg("Enter the card points of the declaring side."))
        else:
            points = read_int(raw, "points", errors, low=0, high=TOTAL_POINTS)
        all_tricks = None
        if raw.get("all_tricks") is not None:
            all_tricks = read_choice(raw, "all_tricks", AllTricks, errors)
        if points is not None:
            self._check_all_tricks(points, all_tricks, table, errors)
        errors.raise_if_any(InvalidHandError)
        assert declarer is not None
        assert points is not None
        seat = self.has_partner_seat(contract, table.size)
        return GameHand(contract, declarer, partner, points, all_tricks, seat)

    def _read_partner(
        self,
        raw: Mapping[str, object],
        contract: Contract,
        table: Table,
        declarer: str | None,
        errors: ErrorCollector,
    ) -> str | None:
        given = raw.get("partner")
        if not self.has_partner_seat(contract, table.size):
            if given is not None and given != "":
                if contract is Contract.SOLO:
                    errors.add("partner", msg("A soloist plays alone; leave the partner empty."))
                else:
                    errors.add(
                        "partner",
                        msg(
                            "Only with 7 or 8 players does the Tappist call a partner; "
                            "leave the partner empty."
                        ),
                    )
            return None
        if "partner" not in raw:
            errors.add(
                "partner",
                msg(
                    "Say who held the called trump, or none if it lay in the Tappist's hand "
                    "or in the Tapp."
                ),
            )
            return None
        if given is None or given == "":
            return None
        partner = find_player(given, table)
        if partner is None:
            errors.add("partner", msg("{name} is not at the table.", name=str(given)))
        elif partner == declarer:
            errors.add(
                "partner",
                msg(
                    "The partner is another player; choose none when the called trump was "
                    "the Tappist's own or in the Tapp."
                ),
            )
            return None
        return partner

    def _check_all_tricks(
        self, points: int, all_tricks: AllTricks | None, table: Table, errors: ErrorCollector
    ) -> None:
        """Every trick leaves the winners all 114 points, or the losers only the Tapp's cards."""
        if all_tricks is AllTricks.DECLARER and points != TOTAL_POINTS:
            errors.add(
                "all_tricks",
                msg(
                    "A declaring side that took every trick has all {total} points; correct "
                    "the points or who took every trick.",
                    total=TOTAL_POINTS,
                ),
            )
        elif all_tricks is not AllTricks.DECLARER and points == TOTAL_POINTS:
            errors.add(
                "all_tricks",
                msg(
                    "With all {total} points the declaring side took every trick; say so, "
                    "or correct the points.",
                    total=TOTAL_POINTS,
                ),
            )
        elif all_tricks is AllTricks.OPPONENTS:
            cards = self.region.tapp_cards(table.size)
            low, high = tapp_point_range(self.region, table.size)
            if not low <= points <= high:
                errors.add(
                    "all_tricks",
                    msg(
                        "When the opponents take every trick, the declaring side keeps only "
                        "the {cards} cards of the Tapp or the discard: between {low} and "
                        "{high} points.",
                        cards=cards,
                        low=low,
                        high=high,
                    ),
                )

    def refusals(
        self, hand: HandInput, table: Table, options: Options
    ) -> dict[str, tuple[Message, ...]]:
        """Points no side can hold when neither took every trick: each side took a trick, a
        card from every player worth at least 1 point (docs/troggu.md §1), and the declaring side
        also keeps the Tapp or the discard (§2)."""
        if not isinstance(hand, GameHand) or hand.all_tricks is not None:
            return {}
        trick = LEAST_PER_CARD * table.size
        cards = self.region.tapp_cards(table.size)
        low = tapp_point_range(self.region, table.size)[0] + trick
        high = TOTAL_POINTS - trick
        if hand.points < low:
            return {
                "points": (
                    msg(
                        "A declaring side that took a trick has at least {low} points: the "
                        "{cards} cards of the Tapp or the discard and a trick of {n} cards. "
                        "Correct the points, or say that the opponents took every trick.",
                        low=low,
                        cards=cards,
                        n=table.size,
                    ),
                )
            }
        if hand.points > high:
            return {
                "points": (
                    msg(
                        "A declaring side that lost a trick has at most {high} points: the "
                        "opponents hold at least the {n} cards of that trick. Correct the "
                        "points, or say that the declaring side took every trick.",
                        high=high,
                        n=table.size,
                    ),
                )
            }
        return {}

    def _parse_misere(
        self, raw: Mapping[str, object], table: Table, errors: ErrorCollector
    ) -> MisereHand:
        known = {"contract", "points", "tapp_points", "fool_and_i_in_tapp"}
        reject_unknown(raw, known, errors)
        big = table.size >= BIG_TABLE
        flag = raw.get("fool_and_i_in_tapp")
        if big and flag is not True:
            errors.add(
                "fool_and_i_in_tapp",
                msg(
                    "With 7 or 8 players a Misère is played only when the Fool and trump I "
                    "both lie in the Tapp; otherwise their holder plays a normal game. "
                    "Confirm that both lay in the Tapp, or enter the normal game."
                ),
            )
        elif not big and flag is not None and not isinstance(flag, bool):
            errors.add("fool_and_i_in_tapp", msg("Confirm with true or false."))
        points = read_misere_points(raw, table, errors)
        tapp_low, tapp_high = tapp_point_range(self.region, table.size, fool_and_i=big)
        tapp = None
        if raw.get("tapp_points") is not None:
            tapp = read_int(raw, "tapp_points", errors, low=tapp_low, high=tapp_high)
        if not errors:
            low, high = misere_sum_range(self.region, table.size)
            check_sum(points, errors, low=low, high=high)
        errors.raise_if_any(InvalidHandError)
        return MisereHand(tuple((p, points[p]) for p in table.players), tapp, big)

    def warnings(
        self, hand: HandInput, table: Table, options: Options
    ) -> dict[str, tuple[Message, ...]]:
        """A Misère whose points do not add up to 114 less the given Tapp (docs/troggu.md §2)."""
        if not isinstance(hand, MisereHand) or hand.tapp_points is None:
            return {}
        expected = TOTAL_POINTS - hand.tapp_points
        got = sum(p for _, p in hand.points)
        if got == expected:
            return {}
        return {
            "points": (
                msg(
                    "The points add up to {sum}, but with {tapp} in the Tapp they should add "
                    "up to {expected}. Please check the count.",
                    sum=got,
                    tapp=hand.tapp_points,
                    expected=expected,
                ),
            )
        }

    # -- scoring -------------------------------------------------------------------------

    def score_hand(
        self, hand: HandInput, table: Table, state: Any, options: Options
    ) -> tuple[HandScore, None]:
        """Payments of one hand in base amounts (docs/troggu.md §2, §2b); T1 of docs/troggu.md:

        >>> t = Table(("Anna", "Beat", "Carla", "Dani"), dealer="Dani")
        >>> hand = GameHand(Contract.NORMAL, "Anna", None, 62)
        >>> TROGGU_VISP.score_hand(hand, t, None, {})[0].amounts()
        {'Beat': -1, 'Anna': 3, 'Carla': -1, 'Dani': -1}
        """
        if isinstance(hand, MisereHand):
            return score_misere(hand, self.region.misere), None
        assert isinstance(hand, GameHand)
        return score_game(hand, table, self.region), None

    # -- end of the evening --------------------------------------------------------------

    def close_evening(
        self, state: Any, table: Table, options: Options, *, rule: str | None = None
    ) -> tuple[ScoreLine, ...]:
        """Nothing is left on the table: every payment went directly between players."""
        return ()


def read_misere_points(
    raw: Mapping[str, object], table: Table, errors: ErrorCollector
) -> dict[str, int]:
    """Every seated player's card points, each 0 to 114, named as at the table."""
    return read_points_per_player(raw, table, errors, high=TOTAL_POINTS)


TROGGU_VISP = Troggu(VISP)
TROGGU_ST_NIKLAUS = Troggu(ST_NIKLAUS)
TROGGU_GRAECHEN = Troggu(GRAECHEN)
TROGGU_FLAT = Troggu(FLAT)
#: The money variants, the default (Visp) first.
MONEY_VARIANTS = (TROGGU_VISP, TROGGU_ST_NIKLAUS, TROGGU_GRAECHEN, TROGGU_FLAT)
