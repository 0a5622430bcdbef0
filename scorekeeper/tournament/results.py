"""Each table's result replayed from its hands, the standings, and the organiser's progress.

Nothing here is stored: every table's evening is replayed (as every evening page does) and
the pure ``scorekeeper.standings`` ranks the entrants, so a correction shows at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from statistics import median

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper import operations
from scorekeeper.extensions import db
from scorekeeper.models import Evening, Hand, Seat, Seating, utcnow
from scorekeeper.standings import RoundScore, Standing, TableResult, standings
from scorekeeper.tournament.models import Entrant, Round, Tournament, TournamentTable

#: A table with no hand for this long while others play on is flagged as late.
QUIET = timedelta(minutes=15)
#: A table this far behind the round's median progress is flagged as late.
BEHIND = Fraction(1, 4)


@dataclass(frozen=True, slots=True)
class TableState:
    """One table of a round as the organiser's board shows it."""

    table: TournamentTable
    #: The players' names in seat order.
    players: tuple[str, ...]
    hands: int
    due: int
    finished: bool
    last_activity: datetime
    late: bool
    #: Start number → result in the native unit, as it stands.
    results: dict[int, int]


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the standings with the entrant it belongs to."""

    entrant: Entrant
    standing: Standing

    def round(self, number: int) -> RoundScore | None:
        """This line's score in round ``number`` (None: did not play it)."""
        return next((r for r in self.standing.rounds if r.round == number), None)


def load_evenings(tables: list[TournamentTable]) -> dict[int, Evening]:
    """The tables' evenings with seats and hands, in a handful of queries."""
    ids = [t.evening_id for t in tables]
    if not ids:
        return {}
    query = (
        select(Evening)
        .where(Evening.id.in_(ids))
        .options(
            selectinload(Evening.seatings).selectinload(Seating.seats).selectinload(Seat.player),
            selectinload(Evening.seatings).selectinload(Seating.dealer),
            selectinload(Evening.hands).selectinload(Hand.dealer),
        )
    )
    return {e.id: e for e in db.session.scalars(query)}


def table_states(round_: Round, evenings: dict[int, Evening] | None = None) -> list[TableState]:
    """Every table of a started round: hands, results so far, finished or late."""
    evenings = evenings if evenings is not None else load_evenings(list(round_.tables))
    states = []
    for table in round_.tables:
        evening = evenings[table.evening_id]
        current = operations.view(evening)
        final = current.settlement().final
        names = evening.seatings[0].names
        played = len([h for h in current.ledger.hands if not h.record.void])
        touched = max([evening.created_at, *(h.updated_at for h in evening.hands)])
        states.append(
            TableState(
                table,
                names,
                played,
                evening.hands_due or 0,
                evening.closed_at is not None,
                touched,
                False,
                {n: final.get(name, 0) for n, name in zip(table.seats, names, strict=True)},
            )
        )
    return _flag_late(states)


def _flag_late(states: list[TableState]) -> list[TableState]:
    """Late: unfinished and quiet for a while, or well behind the round's median table."""
    if not states:
        return states
    progress = median(Fraction(s.hands, s.due or 1) for s in states)
    now = utcnow()
    out = []
    for s in states:
        behind = Fraction(s.hands, s.due or 1) < progress - BEHIND
        quiet = now - s.last_activity > QUIET
        late = not s.finished and (behind or quiet)
        out.append(
            TableState(
                s.table, s.players, s.hands, s.due, s.finished, s.last_activity, late, s.results
            )
        )
    return out


def round_states(tournament: Tournament) -> dict[int, list[TableState]]:
    """Every started round's tables, loading all their evenings at once."""
    started = [r for r in tournament.round_list if r.started_at is not None]
    evenings = load_evenings([t for r in started for t in r.tables])
    return {r.number: table_states(r, evenings) for r in started}


def tournament_standings(
    tournament: Tournament, states: dict[int, list[TableState]] | None = None
) -> list[Line]:
    """The standings over every started round, as the tables stand now."""
    states = states if states is not None else round_states(tournament)
    tables = [
        TableResult(number, s.table.number, s.results, s.hands)
        for number, round_tables in states.items()
        for s in round_tables
    ]
    byes = {r.number: r.byes for r in tournament.round_list if r.started_at is not None}
    entrants = {e.number: e for e in tournament.entrants}
    rows = standings(entrants, tables, byes, scoring=tournament.scoring)
    # Who never came (registered, never checked in, never played) is left out.
    return [
        Line(entrants[row.number], row)
        for row in rows
        if row.rounds or entrants[row.number].present
    ]
