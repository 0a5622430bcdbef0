"""Replayed evenings as the statistics read them: who is who, in what order, in which unit.

A ``PlayedEvening`` holds the core's own values (the replayed ``Ledger``, the settlement's
nets); nothing here is stored. docs/statistics.md, "What goes in", says how an evening is
read: the evening order, who took part, and which game, unit and currency it is summed
with.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date

from scorekeeper.core.ledger import HandResult, Ledger
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import CARRIED

#: What the game's native unit is called in a group's key (docs/statistics.md, "Groups").
UNITS = {"troggen": "jetons", "doppen": "points", "troggu": "base-amounts"}
#: The unit of a variant that keeps a tally beside zero money (Eisten-Stalden's Striche).
TALLY_UNIT = "striche"


@dataclass(frozen=True, slots=True)
class PlayedEvening:
    """One evening as replayed, for statistics (docs/statistics.md, "What goes in").

    ``money`` is each player's net of the settlement in cents, players by name (a common
    account such as the pot carried on is left out). ``person`` maps a player's name at
    this evening to a person key; a name not in it is its own person.
    """

    evening_id: int
    day: date | None
    game: str
    variant: str
    currency: str
    ledger: Ledger
    money: Mapping[str, int]
    person: Mapping[str, str]

    def person_of(self, name: str) -> str:
        """The person key of the player called ``name`` at this evening."""
        return self.person.get(name, name)

    def names_of(self, person: str) -> tuple[str, ...]:
        """The names ``person`` played under at this evening, in the order they first sat."""
        return tuple(name for name in self.players() if self.person_of(name) == person)

    def players(self) -> tuple[str, ...]:
        """Every player of the evening: seated at a hand (standing or voided) or settled.

        Common accounts that the settlement lists beside the players (the pot carried on,
        whoever keeps a pot carried in) are not players.
        """
        commons = {*get_variant(self.game, self.variant).common_accounts, CARRIED}
        seen = list(self.ledger.players)
        seen += [n for n in self.money if n not in seen and n not in commons]
        return tuple(seen)

    @property
    def unit(self) -> str:
        """The unit the evening's results are kept in: jetons, points, base amounts, Striche."""
        if get_variant(self.game, self.variant).keeps_tally:
            return TALLY_UNIT
        return UNITS.get(self.game, self.game)

    @property
    def group(self) -> tuple[str, str, str]:
        """The evening's group: game, unit and currency, never summed with another group."""
        return (self.game, self.unit, self.currency)

    def units_of(self, name: str) -> int:
        """The player's result in the game's unit: the tally where the variant keeps one
        (Striche), else the ledger's balance after the last hand (before the end rule)."""
        if self.unit == TALLY_UNIT:
            return self.ledger.tally.get(name, 0)
        return self.ledger.balances.get(name, 0)

    def hands(self) -> Iterator[HandResult]:
        """The hands that stand: voided hands count nowhere (docs/statistics.md)."""
        return (result for result in self.ledger.hands if not result.record.void)

    def hands_seated(self, name: str) -> int:
        """How many standing hands ``name`` was seated at (the dealer sitting out included)."""
        return sum(1 for result in self.hands() if name in result.record.table.players)

    def took_part(self, name: str) -> bool:
        """Whether ``name`` played this evening: seated at a standing hand, or a money or
        unit result other than zero (a pot shared at the end to a newcomer, say)."""
        return bool(self.hands_seated(name) or self.money.get(name, 0) or self.units_of(name))


def evening_order(evening: PlayedEvening) -> tuple[date, int]:
    """Sort key of the season: day, then evening id; an evening without a day comes first."""
    return (evening.day or date.min, evening.evening_id)


def in_order(evenings: Iterable[PlayedEvening]) -> tuple[PlayedEvening, ...]:
    """The evenings in season order (``evening_order``)."""
    return tuple(sorted(evenings, key=evening_order))
