"""Shared vocabulary of the rules core: tables, itemised payments, messages and errors.

Everything here is pure: no I/O, no framework, integers for amounts. A hand's facts go in,
itemised transfers between accounts come out, so that every number on a screen or a
printout can be explained line by line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorekeeper.core.messages import Message, msg

__all__ = ["Message", "msg"]  # at home in core/messages.py, named here with the rest

#: The common account of games that keep jetons on the table (Troggen's pot).
POT = "pot"
#: Doppen's Pagatkasse: a common account that holds money (cents), never native units.
KASSE = "kasse"
#: Whoever keeps the pot an earlier evening carried into this one (docs/troggen.md §8): the
#: settlement's party that paid the carried-in jetons into the pot.
CARRIED = "carried"


class ScorekeeperError(Exception):
    """Base of every error the core raises on purpose."""


class InvalidInputError(ScorekeeperError, ValueError):
    """Facts that cannot be true under the rules: one or more messages per field."""

    def __init__(self, errors: Mapping[str, Iterable[Message]], *, hand: int | None = None) -> None:
        self.errors: dict[str, tuple[Message, ...]] = {k: tuple(v) for k, v in errors.items()}
        #: The number of the stored hand that failed when an evening was replayed.
        self.hand = hand
        super().__init__(
            "; ".join(f"{k}: {m.render()}" for k, ms in self.errors.items() for m in ms)
        )

    @classmethod
    def single(cls, field_name: str, message: Message) -> InvalidInputError:
        """Build the error for one field and one message."""
        return cls({field_name: (message,)})


class InvalidHandError(InvalidInputError):
    """A hand's facts are impossible (out of range, unknown player, wrong shape)."""


class InvalidSettingsError(InvalidInputError):
    """An evening's settings (game, players, options) are impossible."""


class ImplausibleHandError(ScorekeeperError):
    """A hand is possible but unlikely (a checksum that does not add up): ask to confirm."""

    def __init__(self, warnings: Mapping[str, Iterable[Message]]) -> None:
        self.warnings: dict[str, tuple[Message, ...]] = {k: tuple(v) for k, v in warnings.items()}
        super().__init__("; ".join(m.render() for ms in self.warnings.values() for m in ms))


class UnknownVariantError(InvalidSettingsError):
    """No game or variant is registered under the given key."""


class ErrorCollector:
    """Gathers messages per field so one answer can name every problem at once."""

    def __init__(self) -> None:
        self.errors: dict[str, list[Message]] = {}

    def add(self, field_name: str, message: Message) -> None:
        """Record one message for ``field_name``."""
        self.errors.setdefault(field_name, []).append(message)

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_if_any(self, error_type: type[InvalidInputError]) -> None:
        """Raise ``error_type`` with everything gathered, if anything was."""
        if self.errors:
            raise error_type(self.errors)


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits at the table for one hand, in playing order (counter-clockwise), and who deals.

    >>> t = Table(("Anna", "Bert", "Clara", "Dora"), dealer="Dora")
    >>> t.forehand, t.after("Bert")
    ('Anna', 'Clara')
    """

    players: tuple[str, ...]
    dealer: str

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players):
            raise ValueError("players must be unique")
        if self.dealer not in self.players:
            raise ValueError("the dealer must sit at the table")

    @property
    def size(self) -> int:
        """How many players are seated."""
        return len(self.players)

    @property
    def forehand(self) -> str:
        """The player who leads the first trick: the one after the dealer."""
        return self.after(self.dealer)

    def after(self, player: str) -> str:
        """The next player in playing order."""
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def others(self, player: str) -> tuple[str, ...]:
        """Everyone but ``player``, in playing order."""
        return tuple(p for p in self.players if p != player)

    def order_from(self, player: str) -> tuple[str, ...]:
        """All players in playing order, starting with ``player``."""
        i = self.players.index(player)
        return self.players[i:] + self.players[:i]


@dataclass(frozen=True, slots=True)
class Transfer:
    """``amount`` native units move from account ``source`` to account ``target``."""

    source: str
    target: str
    amount: int

    def __post_init__(self) -> None:
        if self.amount <= 0 or self.source == self.target:
            raise ValueError("a transfer moves a positive amount between two accounts")


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One item of a hand's result (stakes, pot won, Pagat...), as the transfers it makes.

    Keeping transfers rather than bare amounts lets the settlement say who paid whom.
    A line with ``money=True`` moves money in cents instead of the game's native unit
    (Doppen's Pagatkasse); the ledger and the settlement keep the two apart.

    >>> line = ScoreLine(msg("Pagat"), (Transfer("Bert", "Anna", 2), Transfer("Clara", "Anna", 2)))
    >>> line.amounts()
    {'Bert': -2, 'Anna': 4, 'Clara': -2}
    """

    label: Message
    transfers: tuple[Transfer, ...]
    money: bool = field(default=False, kw_only=True)

    def amounts(self) -> dict[str, int]:
        """Net amount per account in this line; sums to zero by construction."""
        out: dict[str, int] = {}
        for t in self.transfers:
            out[t.source] = out.get(t.source, 0) - t.amount
            out[t.target] = out.get(t.target, 0) + t.amount
        return out


@dataclass(frozen=True, slots=True)
class HandScore:
    """Everything one hand moves, as itemised lines.

    ``tally`` counts marks kept beside the money (Troggu Eisten-Stalden's Striche) per
    player. They are not transfers: nobody gives them away, so they do not sum to zero.

    ``notes`` are what the hand writes on the sheet without anything changing hands yet,
    as the transfers they will become when settled (Doppen's Kasse notes: a player owes
    the Kasse). They explain the hand; the ledger does not book them.
    """

    lines: tuple[ScoreLine, ...] = field(default=())
    tally: tuple[tuple[str, int], ...] = ()
    notes: tuple[ScoreLine, ...] = ()

    def amounts(self) -> dict[str, int]:
        """Net amount per account over the lines in the native unit (money lines left out)."""
        return _net(line for line in self.lines if not line.money)

    def money_amounts(self) -> dict[str, int]:
        """Net cents per account over the money lines (``ScoreLine.money``)."""
        return _net(line for line in self.lines if line.money)


def _net(lines: Iterable[ScoreLine]) -> dict[str, int]:
    """Net amount per account over ``lines``."""
    out: dict[str, int] = {}
    for line in lines:
        for account, amount in line.amounts().items():
            out[account] = out.get(account, 0) + amount
    return out


class HandInput(Protocol):
    """A variant's parsed, validated facts of one hand."""

    def to_json(self) -> dict[str, Any]:
        """The facts as stored and shown: what was said at the table."""
        ...


def pays(label: Message, payers: Iterable[str], target: str, amount: int) -> ScoreLine:
    """A line where each of ``payers`` pays ``amount`` to ``target`` (zero amounts vanish)."""
    return ScoreLine(
        label, tuple(Transfer(p, target, amount) for p in payers if p != target and amount)
    )


def receives(label: Message, source: str, payees: Iterable[str], amount: int) -> ScoreLine:
    """A line where ``source`` pays ``amount`` to each of ``payees``."""
    return ScoreLine(
        label, tuple(Transfer(source, p, amount) for p in payees if p != source and amount)
    )
