"""A tournament table as its evening's pages show it: where it belongs, what is left.

The evening pages are the same for a casual evening and a tournament table; these facts
let them show the round's banner, hide what the tournament decides, and offer the
organiser corrections with a reason once the table has closed.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, g
from flask_babel import gettext
from sqlalchemy import select

from scorekeeper import operations
from scorekeeper.db.extensions import db
from scorekeeper.db.kept import store
from scorekeeper.db.models import Evening
from scorekeeper.db.tournament_models import Round, Tournament, TournamentTable
from scorekeeper.operations.facts import EveningFacts
from scorekeeper.operations.tournament_setup import log
from scorekeeper.web import access


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A tournament table's place in its tournament, and who is looking at it."""

    tournament: Tournament
    round: Round
    table: TournamentTable
    hands_left: int
    #: Whether the caller is the tournament's organiser (who may correct a closed table).
    organiser: bool


#: The name of the store (``db.kept``) of the ids of the evenings known to be casual ones.
CASUAL = "casual_evenings"
#: At most this many are remembered; then the set starts again.
CASUAL_KEPT = 100_000


def table_for_evening(evening_id: int) -> TournamentTable | None:
    """The tournament table an evening is, if it is one.

    An evening is a table from the moment it exists (a round's start stores both in one
    transaction) or never, so an evening once found to be casual is remembered as such:
    the check before every request then costs no query. A table found is kept for the
    rest of the request: its page asks several times (the banner, the heading, the notes).
    """
    casual: set[int] = store(current_app, CASUAL, set)
    if evening_id in casual:
        return None
    tables: dict[int, TournamentTable] = g.setdefault("tournament_tables", {})
    if evening_id in tables:
        return tables[evening_id]
    row = db.session.execute(
        select(Evening.id, TournamentTable)
        .outerjoin(TournamentTable, TournamentTable.evening_id == Evening.id)
        .where(Evening.id == evening_id)
    ).one_or_none()
    if row is None:  # no such evening (yet): the page answers 404
        return None
    if row[1] is None:
        if len(casual) >= CASUAL_KEPT:
            casual.clear()
        casual.add(evening_id)
    else:
        tables[evening_id] = row[1]
    return row[1]


def table_info(evening: EveningFacts) -> TableInfo | None:
    """The tournament facts of an evening, or None for a casual evening."""
    table = table_for_evening(evening.id)
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


def evening_title(evening: EveningFacts, variant_title: str) -> str:
    """An evening's title as the reader reads it: a tournament table's in the reader's
    language (its stored title is in the tournament's, for its printouts), any other its
    own title, or the game's name when it has none."""
    info = table_info(evening)
    if info is None:
        return evening.title or variant_title
    where = gettext("Round %(r)s, table %(t)s", r=info.round.number, t=info.table.number)
    return f"{info.tournament.name}: {where}"


def correction_reason(evening: EveningFacts, given: object) -> str | None:
    """The reason an organiser gave for changing a closed tournament table, if it applies.

    Only a tournament's organiser corrects a closed table; anyone else (and every open
    evening) goes through the normal checks, which refuse a closed evening.
    """
    if evening.closed_at is None or not isinstance(given, str) or not given.strip():
        return None
    info = table_info(evening)
    if info is None or not info.organiser:
        return None
    return given.strip()  # checked against its limit where it is stored, never cut


def needs_reason(evening: EveningFacts, given: object) -> bool:
    """Whether the organiser is changing a closed table without saying why: the page then
    asks for the reason at its field, keeping the correction typed, instead of refusing
    the change as it refuses the tablets."""
    if evening.closed_at is None or correction_reason(evening, given) is not None:
        return False
    info = table_info(evening)
    return info is not None and info.organiser


def note_correction(evening: EveningFacts, number: int, reason: str) -> None:
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
