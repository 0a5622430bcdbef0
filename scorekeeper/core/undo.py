"""Undo at the table: what it may take back (docs/recording.md "Undo").

Undo is a shortcut for "that was a mistake, I just pressed Save". It must never reach
further: a receipt kept in the browser's history (Back, a reload, a bookmark) would
otherwise void a hand with later hands standing after it. So an Undo names the save it
was offered for (the hand's number and its version), and it is taken only while that
save is the last standing hand and at most ``UNDO_SECONDS`` old by the server's clock.
Every other hand is corrected or voided from the list of hands, with a reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from scorekeeper.core.rules.base import Message, msg

#: How long after a save the server still takes its Undo.
UNDO_SECONDS = 30
#: How long the receipt offers it: the rest of ``UNDO_SECONDS`` is for a slow link, so a
#: tap on a button still shown is taken.
OFFERED_SECONDS = 20


@dataclass(frozen=True, slots=True)
class StoredSave:
    """A hand as stored now: its number, version, whether it is void, when it was saved."""

    number: int
    version: int
    void: bool
    saved_at: datetime


class Stored(Protocol):
    """A stored hand as the shell holds it (a row, or the facts read directly)."""

    @property
    def number(self) -> int:
        """Its number in the evening."""

    @property
    def version(self) -> int:
        """Its current version."""

    @property
    def void_reason(self) -> str | None:
        """Why it was voided; None while it stands."""

    @property
    def updated_at(self) -> datetime:
        """When its current version was saved."""


def saves_of(hands: Iterable[Stored]) -> list[StoredSave]:
    """The evening's stored hands as the saves an Undo is checked against."""
    return [StoredSave(h.number, h.version, h.void_reason is not None, h.updated_at) for h in hands]


def last_standing(hands: Iterable[StoredSave]) -> StoredSave | None:
    """The evening's last hand that is not void, if any."""
    standing = [h for h in hands if not h.void]
    return max(standing, key=lambda h: h.number, default=None)


def seconds_offered(hands: Iterable[StoredSave], number: int, now: datetime) -> int:
    """How many seconds a receipt of hand ``number`` shown at ``now`` offers Undo; 0 for
    none (an older hand, a hand changed or voided since, a save too long ago).

    >>> from datetime import timedelta
    >>> t = datetime(2026, 11, 28, 20, 0, 0)
    >>> hands = [StoredSave(1, 1, False, t), StoredSave(2, 1, False, t)]
    >>> seconds_offered(hands, 2, t + timedelta(seconds=5))
    15
    >>> seconds_offered(hands, 1, t + timedelta(seconds=5))
    0
    """
    last = last_standing(hands)
    if last is None or last.number != number:
        return 0
    left = OFFERED_SECONDS - (now - last.saved_at).total_seconds()
    return max(0, int(left))


def undo_refusal(
    hands: Iterable[StoredSave], number: int, version: int, now: datetime
) -> Message | None:
    """Why the Undo of hand ``number`` at ``version``, asked at ``now``, is not taken;
    None when it is."""
    hands = list(hands)
    asked = next((h for h in hands if h.number == number), None)
    if asked is None:
        return msg("There is no hand {number} to take back.", number=number)
    if asked.void:
        return msg("Hand {number} was already taken back.", number=number)
    if asked.version != version:
        return msg(
            "Hand {number} was changed after it was saved, so Undo no longer applies. "
            "Correct or void it in the list of hands.",
            number=number,
        )
    last = last_standing(hands)
    if last is not None and last.number != number:
        return msg(
            "Hand {number} is not the last hand: hands were saved after it, so Undo no "
            "longer applies. Correct or void it in the list of hands.",
            number=number,
        )
    if (now - asked.saved_at).total_seconds() > UNDO_SECONDS:
        return msg(
            "Undo is only possible right after saving. Correct or void hand {number} in "
            "the list of hands.",
            number=number,
        )
    return None
