"""A tournament table as its evening's pages show it: where it belongs, what is left.

The evening pages are the same for a casual evening and a tournament table; these facts
let them show the round's banner, hide what the tournament decides, and offer the
organiser corrections with a reason once the table has closed.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper import access, operations
from scorekeeper.extensions import db
from scorekeeper.models import Evening
from scorekeeper.tournament.models import Round, Tournament, TournamentTable
from scorekeeper.tournament.setup import log


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A tournament table's place in its tournament, and who is looking at it."""

    tournament: Tournament
    round: Round
    table: TournamentTable
    hands_left: int
    #: Whether the caller is the tournament's organiser (who may correct a closed table).
    organiser: bool


def table_info(evening: Evening) -> TableInfo | None:
    """The tournament facts of an evening, or None for a casual evening."""
    table = db.session.query(TournamentTable).filter_by(evening_id=evening.id).one_or_none()
    if table is None:
        return None
    round_ = table.round
    return TableInfo(
        round_.tournament,
        round_,
        table,
        operations.hands_left(evening) or 0,
        access.may_organise(round_.tournament_id),
    )


def correction_reason(evening: Evening, given: object) -> str | None:
    """The reason an organiser gave for changing a closed tournament table, if it applies.

    Only a tournament's organiser corrects a closed table; anyone else (and every open
    evening) goes through the normal checks, which refuse a closed evening.
    """
    if evening.closed_at is None or not isinstance(given, str) or not given.strip():
        return None
    info = table_info(evening)
    if info is None or not info.organiser:
        return None
    return given.strip()[:500]


def note_correction(evening: Evening, number: int, reason: str) -> None:
    """Keep the organiser's correction of a closed table in the tournament's log."""
    info = table_info(evening)
    if info is not None:
        log(
            info.tournament,
            "correction",
            reason=reason,
            round=info.round.number,
            table=info.table.number,
            hand=number,
        )
