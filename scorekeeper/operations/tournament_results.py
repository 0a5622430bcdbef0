"""Each table's result replayed from its hands, the standings, and the organiser's progress.

Nothing here is stored: every table's evening is replayed (as every evening page does) and
the pure ``scorekeeper.core.standings`` ranks the entrants, so a correction shows at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from cachetools import LRUCache
from flask import current_app
from sqlalchemy import select

from scorekeeper import operations
from scorekeeper.core import lateness
from scorekeeper.core.lateness import TableProgress
from scorekeeper.core.standings import RoundScore, Standing, TableResult, standings
from scorekeeper.db.extensions import db
from scorekeeper.db.kept import store
from scorekeeper.db.models import utcnow
from scorekeeper.db.tournament_models import Entrant, Round, Tournament, TournamentTable
from scorekeeper.operations.facts import EVENING, STAMP_COLUMNS, Stamp
from scorekeeper.operations.snapshots import stored_view


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
    #: When its last hand came; None while it has none.
    last_hand_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the standings with the entrant it belongs to."""

    entrant: Entrant
    standing: Standing

    def round(self, number: int) -> RoundScore | None:
        """This line's score in round ``number`` (None: did not play it)."""
        return next((r for r in self.standing.rounds if r.round == number), None)


@dataclass(frozen=True, slots=True)
class Replayed:
    """What a table's replay gives the board and the standings, kept while its facts stay."""

    players: tuple[str, ...]
    hands: int
    results: dict[int, int]
    last_activity: datetime
    #: When the table's last hand was saved or changed; None before its first.
    last_hand_at: datetime | None


#: Tables' results kept per app, by the stamp of their evening: a board or standings page
#: reads only the tables whose evening changed since (a tournament of 200 players has 300
#: tables), and those through the kept evenings (``snapshots.current_view``).
CACHE_SIZE = 4096


def stamps(evening_ids: list[int]) -> dict[int, Stamp]:
    """Each evening's stamp (``facts.Stamp``), which every write to it changes; one query
    for all tables."""
    if not evening_ids:
        return {}
    rows = db.session.execute(
        select(EVENING.c.id, *STAMP_COLUMNS).where(EVENING.c.id.in_(evening_ids))
    ).all()
    return {row[0]: Stamp(*row[1:]) for row in rows}


def _cache() -> LRUCache[tuple[int, Stamp | None], Replayed]:
    results: LRUCache[tuple[int, Stamp | None], Replayed]
    results = store(current_app, "table_results", lambda: LRUCache(CACHE_SIZE))
    return results


def replayed(tables: list[TournamentTable]) -> dict[int, Replayed]:
    """Each table's result (by table id), reading only the tables changed since."""
    cache = _cache()
    now = stamps([t.evening_id for t in tables])
    out: dict[int, Replayed] = {}
    for table in tables:
        key = (table.evening_id, now.get(table.evening_id))
        found = cache.get(key)
        if found is None:
            current = stored_view(table.evening_id)
            found = _result(table, current)
            if current.evening.stamp == key[1]:
                cache[key] = found
        out[table.id] = found
    return out


def _result(table: TournamentTable, current: operations.EveningView) -> Replayed:
    facts = current.evening
    final = current.settlement().final
    names = facts.seatings[0].players
    played = len([h for h in current.ledger.hands if not h.record.void])
    last_hand = max((h.updated_at for h in facts.hands), default=None)
    touched = max(facts.created_at, last_hand) if last_hand else facts.created_at
    results = {n: final.get(name, 0) for n, name in zip(table.seats, names, strict=True)}
    return Replayed(names, played, results, touched, last_hand)


def table_states(
    round_: Round,
    done: dict[int, Replayed] | None = None,
    ends: dict[int, tuple[bool, int]] | None = None,
) -> list[TableState]:
    """Every table of a started round: hands, results so far, finished or late."""
    tables = list(round_.tables)
    done = done if done is not None else replayed(tables)
    ends = ends if ends is not None else table_ends(tables)
    states = []
    for table in tables:
        facts = done[table.id]
        finished, due = ends[table.evening_id]
        states.append(
            TableState(
                table,
                facts.players,
                facts.hands,
                due,
                finished,
                facts.last_activity,
                False,
                facts.results,
                facts.last_hand_at,
            )
        )
    return _flag_late(states, round_.started_at)


def table_ends(tables: list[TournamentTable]) -> dict[int, tuple[bool, int]]:
    """Per evening: whether it has closed, and how many hands it plays; one query."""
    ids = [t.evening_id for t in tables]
    if not ids:
        return {}
    query = select(EVENING.c.id, EVENING.c.closed_at, EVENING.c.hands_due).where(
        EVENING.c.id.in_(ids)
    )
    return {i: (closed is not None, due or 0) for i, closed, due in db.session.execute(query)}


def _flag_late(states: list[TableState], started_at: datetime | None) -> list[TableState]:
    """Each table flagged late or not by the board's rule (``core.lateness``)."""
    progress = [TableProgress(s.hands, s.due, s.finished, s.last_hand_at) for s in states]
    flags = lateness.late(progress, started_at or utcnow(), utcnow())
    return [replace(s, late=flag) for s, flag in zip(states, flags, strict=True)]


def round_states(tournament: Tournament) -> dict[int, list[TableState]]:
    """Every started round's tables, loading all their evenings at once."""
    started = [r for r in tournament.round_list if r.started_at is not None]
    tables = [t for r in started for t in r.tables]
    done = replayed(tables)
    ends = table_ends(tables)
    return {r.number: table_states(r, done, ends) for r in started}


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
