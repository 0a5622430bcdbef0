"""Why an operation refuses: a stale version, a missing hand, a voided one, a closed evening."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select

from scorekeeper.core.rules.base import (
    Message,
    ScorekeeperError,
    msg,
)
from scorekeeper.db.extensions import db
from scorekeeper.db.tournament_models import TournamentTable

if TYPE_CHECKING:  # facts.py imports this module
    from scorekeeper.operations.facts import EveningFacts


class StaleVersionError(ScorekeeperError):
    """The record changed since the client read it; the client must reload."""


class HandNumberTakenError(ScorekeeperError):
    """The hand was entered as hand ``expected`` (on a form rendered before another hand
    was saved, or sent from an outbox), but the evening's next hand is ``upcoming``: it is
    not recorded over or under another silently (``docs/recording.md``)."""

    def __init__(self, expected: int, upcoming: int) -> None:
        super().__init__(expected, upcoming)
        self.expected = expected
        self.upcoming = upcoming


class SessionNeededError(ScorekeeperError):
    """A write begun on a plain connection must change mapped rows as well (a hand of an
    evening whose pot goes on to a later one): it is to run again in the ORM session.
    Nothing was written; ``web.writing.write`` catches it."""


class NotFoundError(ScorekeeperError):
    """No such hand in this evening."""


class AlreadyVoidError(ScorekeeperError):
    """The hand is voided already."""


class UndoRefusedError(ScorekeeperError):
    """An Undo that may not be taken: not the save its receipt offered it for, or too late
    (``core.undo``). Nothing was voided; ``message`` says where hands are corrected."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.text)
        self.message = message


class TournamentTableError(ScorekeeperError):
    """A tournament table's evening was to join a table group, or to take or pass on a
    pot: its money is the tournament's alone, for anybody (docs/club.md "Tournament
    tables"). Taking it out of a group or a pot link is always allowed: that repairs an
    installation where it happened before this was refused."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


def is_tournament_table(evening_id: int) -> bool:
    """Whether ``evening_id`` is a tournament table's evening."""
    found = select(TournamentTable.id).where(TournamentTable.evening_id == evening_id)
    return db.session.scalars(found).first() is not None


def refuse_tournament_table(evening_id: int, message: Message) -> None:
    """Raise ``TournamentTableError`` with ``message`` if ``evening_id`` is a table's."""
    if is_tournament_table(evening_id):
        raise TournamentTableError(message)


#: Why a tournament table's evening joins no group.
NO_GROUP_FOR_TABLES = msg(
    "This evening is a table of a tournament: it cannot join a table group. Its players and "
    "money belong to the tournament."
)
#: Why a tournament table's evening takes and passes on no pot.
NO_POT_FOR_TABLES = msg(
    "A tournament table's evening neither takes over a pot nor passes one on: its money "
    "belongs to the tournament."
)


class EveningClosedError(ScorekeeperError):
    """The evening was closed after its settlement was signed: reopen it to change it."""

    def __init__(self, evening_id: int) -> None:
        super().__init__(evening_id)
        self.evening_id = evening_id


def ensure_open(evening: EveningFacts, *, correction: str | None = None) -> None:
    """Refuse any change to a closed evening, unless it is a correction with its reason.

    Only the shell decides who may correct a closed evening (a tournament's organiser).
    """
    if evening.closed_at is not None and not correction:
        raise EveningClosedError(evening.id)
