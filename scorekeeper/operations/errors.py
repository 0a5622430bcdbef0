"""Why an operation refuses: a stale version, a missing hand, a voided one, a closed evening."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scorekeeper.core.rules.base import (
    ScorekeeperError,
)
from scorekeeper.db.models import (
    Evening,
)

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


class EveningClosedError(ScorekeeperError):
    """The evening was closed after its settlement was signed: reopen it to change it."""

    def __init__(self, evening_id: int) -> None:
        super().__init__(evening_id)
        self.evening_id = evening_id


def ensure_open(evening: Evening | EveningFacts, *, correction: str | None = None) -> None:
    """Refuse any change to a closed evening, unless it is a correction with its reason.

    Only the shell decides who may correct a closed evening (a tournament's organiser).
    """
    if evening.closed_at is not None and not correction:
        raise EveningClosedError(evening.id)
