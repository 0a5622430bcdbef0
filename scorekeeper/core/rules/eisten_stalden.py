"""Troggu as Eisten-Stalden plays it (Georg Burgener, Swiss Jassverzeichnis): Striche, no money.

Seed 002, read in ``docs/troggu.md`` §3. 3 to 8 players; the teams depend on the table size
(``TEAM_RULES``). A side with at least 58 of the 114 card points wins and every member of
the winning side gets one Strich; 57 : 57 gives nothing. Whoever has the most Striche at the
end is the Tagessieger, shared on a tie (``leaders``).

No money changes hands: hands have no transfers, the deltas stay zero, the evening has no
money options (``option_specs == ()``) and the settlement is all zeros. The Striche are the
hand's ``HandScore.tally``, which the ledger sums into ``HandResult.tally`` (this hand) and
``Ledger.tally`` (the evening, every player listed).

Hand facts (``parse_hand``; ``to_json`` gives them back as stored, the team in playing
order): ``{"contract": "team", "team": [name, ...], "points": 0-114}``, the declaring
side's members and their card points (Schgart and Tappi points included: the Schgart
belongs to the dealer's side, the Tappi to the Fool holder's). ``contract`` may be left
out. The team's size must be one the rules give for the table (``TEAM_SIZES``).

The entry form suggests the declaring side from the card holders it asks about:
``team_rule(n).asks`` names the questions for ``n`` players and ``suggest_team(table,
Holders(...))`` answers with the team.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
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
from scorekeeper.core.rules.parsing import find_player, read_choice, read_int, reject_unknown
from scorekeeper.core.rules.troggu_scoring import TIE, TO_WIN, TOTAL_POINTS
from scorekeeper.core.rules.variant import Options, Variant

#: Table sizes at which the dealer always plays on the declaring side (docs/troggu.md §3, "Teams":
#: at 4 he calls a king, at 6 he plays with the holders of XXI and I).
DEALER_DECLARES = (4, 6)
#: How many players the declaring side may have, per table size (docs/troggu.md §3).
TEAM_SIZES: dict[int, tuple[int, ...]] = {
    3: (1,),
    4: (2,),
    5: (1, 2),
    6: (2, 3),
    7: (1, 2),
    8: (1, 2),
}


class Contract(StrEnum):
    """Eisten-Stalden knows one kind of hand: a declaring side against the rest."""

    TEAM = "team"


class Holder(StrEnum):
    """A card holder the entry form asks about to suggest the declaring side."""

    #: Who holds the Fool (none: it lay in the Tappi).
    FOOL = "fool"
    #: Who holds the called card: king (4 players; queen with all four kings), helper trump
    #: (5, 7, 8 players), or the kings the dealer calls at 6 (none: no partner).
    CALLED = "called"
    #: Five players: who went "uf eis" and plays the game.
    DECLARER = "declarer"
    #: Six players: who holds the Mund (trump XXI) and the Bagat (trump I).
    MUND = "mund"
    BAGAT = "bagat"


@dataclass(frozen=True, slots=True)
class TeamRule:
    """How the declaring side is formed at one table size (docs/troggu.md §3, "Teams")."""

    players: int
    name: str
    asks: tuple[Holder, ...]
    explanation: Message


TEAM_RULES: dict[int, TeamRule] = {
    3: TeamRule(
        3,
        "Narru",
        (Holder.FOOL,),
        msg(
            "The Fool holder takes the Tappi and plays alone; if the Fool lies in the Tappi, "
            "the player after the dealer does."
        ),
    ),
    4: TeamRule(
        4,
        "Chinigu",
        (Holder.CALLED,),
        msg("The dealer and the holder of the king he calls (a queen if he has all four kings)."),
    ),
    5: TeamRule(
        5,
        "uf eis ga",
        (Holder.DECLARER, Holder.CALLED),
        msg("The player who goes on one and the holder of the trump called as partner, if any."),
    ),
    6: TeamRule(
        6,
        "Mund, Bagat und Ausgeber",
        (Holder.MUND, Holder.BAGAT, Holder.CALLED),
        msg(
            "The dealer with the holders of XXI and I, and the holders of the kings he calls "
            "when he holds XXI himself or one player holds both."
        ),
    ),
    **{
        n: TeamRule(
            n,
            "Narru",
            (Holder.FOOL, Holder.CALLED),
            msg(
                "The Fool holder and the holder of the helper trump he calls; alone if the "
                "helper lies in the Tappi. If the Fool lies in the Tappi, the player after the "
                "dealer plays alone."
            ),
        )
        for n in (7, 8)
    },
}


@dataclass(frozen=True, slots=True)
class Holders:
    """The form's answers: who holds which card (None or () for the Tappi or nobody)."""

    fool: str | None = None
    called: tuple[str, ...] = ()
    declarer: str | None = None
    mund: str | None = None
    bagat: str | None = None


def team_rule(players: int) -> TeamRule:
    """How the declaring side is formed with ``players`` at the table.

    >>> team_rule(6).asks
    (<Holder.MUND: 'mund'>, <Holder.BAGAT: 'bagat'>, <Holder.CALLED: 'called'>)
    """
    return TEAM_RULES[players]


def suggest_team(table: Table, holders: Holders) -> tuple[str, ...]:
    """The declaring side the rules give for this table and these card holders (§3).

    The dealer's side at 4 and 6 players, the Fool holder's at 3, 7 and 8, the player who
    went "uf eis" at 5, with whoever holds the called card; in playing order.

    >>> t = Table(("Anna", "Beat", "Carla", "Dani", "Ella", "Fritz"), dealer="Anna")
    >>> suggest_team(t, Holders(mund="Dani", bagat="Fritz"))
    ('Anna', 'Dani', 'Fritz')
    >>> suggest_team(t, Holders(mund="Anna", bagat="Carla", called=("Ella",)))
    ('Anna', 'Carla', 'Ella')
    """
    n = table.size
    members: list[str | None]
    if n == 3:
        members = [holders.fool or table.forehand]
    elif n == 4:
        members = [table.dealer, *holders.called[:1]]
    elif n == 5:
        members = [holders.declarer or table.forehand, *holders.called[:1]]
    elif n == 6:
        members = [table.dealer, holders.mund, holders.bagat, *holders.called]
    elif holders.fool is None:
        members = [table.forehand]
    else:
        members = [holders.fool, *holders.called[:1]]
    chosen = {m for m in members if m is not None}
    return tuple(p for p in table.players if p in chosen)


def leaders(tally: Mapping[str, int]) -> tuple[str, ...]:
    """The Tagessieger: whoever has the most Striche, shared on a tie (docs/troggu.md §3 [R]).

    Nobody leads before the first Strich is given.

    >>> leaders({"Anna": 1, "Beat": 2, "Carla": 0, "Dani": 2})
    ('Beat', 'Dani')
    >>> leaders({"Anna": 0, "Beat": 0})
    ()
    """
    most = max(tally.values(), default=0)
    return tuple(p for p, count in tally.items() if count == most) if most > 0 else ()


@dataclass(frozen=True, slots=True)
class TeamHand:
    """The declaring side's members, in playing order, and their card points."""

    team: tuple[str, ...]
    points: int

    def to_json(self) -> dict[str, Any]:
        """The facts as recorded."""
        return {"contract": Contract.TEAM.value, "team": list(self.team), "points": self.points}


def size_text(sizes: Sequence[int]) -> Message | int:
    """``2``, or ``1 or 2``, as the team size message writes it."""
    if len(sizes) == 1:
        return sizes[0]
    return msg("{a} or {b}", a=sizes[0], b=sizes[-1])


class EistenStalden(Variant):
    """Troggu in Eisten-Stalden (seed 002): one Strich per member of the winning side."""

    game = "troggu"
    key = "eisten-stalden"
    title = msg("Troggu (Eisten-Stalden)")
    min_players = 3
    max_players = 8
    option_specs = ()
    unit_name = msg("Striche")
    unit_word = msg("Striche")
    keeps_tally = True

    def initial_state(self) -> None:
        """Nothing is carried from hand to hand; the Striche are summed by the ledger."""
        return None

    def parse_hand(self, raw: Mapping[str, object], table: Table, options: Options) -> TeamHand:
        """Validate the declaring side and its points (docs/troggu.md §3); every problem at once.

        >>> t = Table(("Anna", "Beat", "Carla", "Dani"), dealer="Anna")
        >>> EISTEN_STALDEN.parse_hand({"team": ["beat", "Anna"], "points": 61}, t, {})
        TeamHand(team=('Anna', 'Beat'), points=61)
        """
        errors = ErrorCollector()
        problem = self.player_count_problem(table.size)
        if problem is not None:
            raise InvalidHandError.single("players", problem)
        reject_unknown(raw, {"contract", "team", "points"}, errors)
        read_choice(raw, "contract", Contract, errors, default=Contract.TEAM)
        team = read_team(raw.get("team"), table, errors)
        points = None
        if raw.get("points") is None:
            errors.add("points", msg("Enter the card points of the declaring side."))
        else:
            points = read_int(raw, "points", errors, low=0, high=TOTAL_POINTS)
        errors.raise_if_any(InvalidHandError)
        assert points is not None
        return TeamHand(team, points)

    def refusals(
        self, hand: HandInput, table: Table, options: Options
    ) -> dict[str, tuple[Message, ...]]:
        """A declaring side without the dealer where he always plays on it (docs/troggu.md §3)."""
        assert isinstance(hand, TeamHand)
        if table.size in DEALER_DECLARES and table.dealer not in hand.team:
            return {
                "team": (
                    msg(
                        "At {n} players the dealer, {dealer}, always plays on the declaring side.",
                        n=table.size,
                        dealer=table.dealer,
                    ),
                )
            }
        return {}

    def score_hand(
        self, hand: HandInput, table: Table, state: Any, options: Options
    ) -> tuple[HandScore, None]:
        """One Strich for each member of the winning side; none at 57 : 57 (docs/troggu.md §3).

        T11 of docs/troggu.md, hand 3: Carla and Anna lose 40 : 74.

        >>> t = Table(("Anna", "Beat", "Carla", "Dani"), dealer="Carla")
        >>> EISTEN_STALDEN.score_hand(TeamHand(("Anna", "Carla"), 40), t, None, {})[0].tally
        (('Beat', 1), ('Dani', 1))
        """
        assert isinstance(hand, TeamHand)
        others = TOTAL_POINTS - hand.points
        if hand.points == TIE:
            return HandScore((ScoreLine(msg("57 : 57, no Strich"), ()),)), None
        if hand.points >= TO_WIN:
            winners = hand.team
            label = msg(
                "The declaring side wins {points} : {others}: one Strich each",
                points=hand.points,
                others=others,
            )
        else:
            winners = tuple(p for p in table.players if p not in hand.team)
            label = msg(
                "The opponents win {others} : {points}: one Strich each",
                points=hand.points,
                others=others,
            )
        return HandScore((ScoreLine(label, ()),), tally=tuple((p, 1) for p in winners)), None

    def close_evening(
        self, state: Any, table: Table, options: Options, *, rule: str | None = None
    ) -> tuple[ScoreLine, ...]:
        """No money and no common account: nothing to resolve."""
        return ()


def read_team(value: object, table: Table, errors: ErrorCollector) -> tuple[str, ...]:
    """The declaring side: seated players, each once, as many as the rules give (§3).

    A list longer than the largest side is refused with one message, without reading its
    names: the answer stays short however long the list.
    """
    if not isinstance(value, list | tuple) or not value:
        errors.add("team", msg("Choose the players of the declaring side."))
        return ()
    if len(value) > max(TEAM_SIZES[table.size]):
        errors.add(
            "team",
            msg(
                "The declaring side at {n} players has {sizes}, not {count}.",
                n=table.size,
                sizes=size_text(TEAM_SIZES[table.size]),
                count=len(value),
            ),
        )
        return ()
    members: set[str] = set()
    for name in value:
        player = find_player(name, table)
        if player is None:
            errors.add("team", msg("{name} is not at the table.", name=str(name)))
        elif player in members:
            errors.add("team", msg("{name} is given more than once.", name=player))
        else:
            members.add(player)
    sizes = TEAM_SIZES[table.size]
    if len(members) == len(value) and len(members) not in sizes:
        errors.add(
            "team",
            msg(
                "The declaring side at {n} players has {sizes}, not {count}.",
                n=table.size,
                sizes=size_text(sizes),
                count=len(members),
            ),
        )
    return tuple(p for p in table.players if p in members)


EISTEN_STALDEN = EistenStalden()
