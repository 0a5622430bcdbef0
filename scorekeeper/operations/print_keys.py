"""What an evening's (or a tournament's) printouts print, read cheaply: the parts of their cache key
(``web/printouts.py``; docs/server.md "Printouts kept, handed on and asked ahead").

Every write to an evening's facts changes its stamp (``facts.Stamp``); the rest of what a
printout shows comes from elsewhere and is read here too: the stamp of the evening its pot
came from, the names as seated, the group's name and the payments ticked. A few small
queries, none through the evening's hands.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from scorekeeper.db import unit_of_work
from scorekeeper.db.models import Evening, GroupEvening, Hand, SettlementTick, TableGroup
from scorekeeper.db.tournament_models import Entrant, Round, Tournament, TournamentTable
from scorekeeper.operations.facts import read_head, read_seatings


def evening_print_parts(evening_id: int) -> dict[str, Any] | None:
    """The parts of the evening's printouts' key; None when there is no such evening."""
    connection = unit_of_work.current().connection()
    head = read_head(connection, evening_id)
    if head is None:
        return None
    seatings, _ = read_seatings(connection, evening_id)
    came_from = head.row["carried_from"]
    before = read_head(connection, came_from) if came_from is not None else None
    group = connection.execute(
        select(TableGroup.name)
        .join(GroupEvening, GroupEvening.group_id == TableGroup.id)
        .where(GroupEvening.evening_id == evening_id)
    ).scalar_one_or_none()
    last = connection.execute(
        select(func.max(Hand.number)).where(Hand.evening_id == evening_id)
    ).scalar_one()
    ticks = connection.execute(
        select(
            SettlementTick.payer,
            SettlementTick.payee,
            SettlementTick.amount,
            SettlementTick.ticked_at,
        )
        .where(SettlementTick.evening_id == evening_id)
        .order_by(SettlementTick.payer, SettlementTick.payee)
    ).all()
    return {
        "evening": evening_id,
        "stamp": list(head.stamp),
        "carried_from": list(before.stamp) if before is not None else None,
        "carried_to": head.row["carried_to"],
        "seated": [[s.from_hand, list(s.players), s.dealer] for s in seatings],
        "group": group,
        "ticks": [list(t) for t in ticks],
        "last_hand": last or 0,
        # The day the printout's file is named by (its date, or the day it was started).
        "day": (head.row["date"] or head.row["created_at"].date()).isoformat(),
    }


def hand_count(parts: dict[str, Any]) -> int:
    """How many hands the evening holds, as its key's stamp counts them."""
    return int(parts["stamp"][2])


def last_hand(parts: dict[str, Any]) -> int:
    """The number of the evening's last hand (0 before the first)."""
    return int(parts["last_hand"])


def tournament_print_parts(tournament_id: int) -> dict[str, Any] | None:
    """The parts of a tournament's printouts' key: its settings, its entrants, its rounds
    and their tables, and the stamp of each table's evening (every hand played there).
    None when there is no such tournament."""
    connection = unit_of_work.current().connection()
    found = connection.execute(
        select(
            Tournament.name,
            Tournament.place,
            Tournament.date,
            Tournament.options,
            Tournament.rounds,
            Tournament.deals_per_player,
            Tournament.scoring,
            Tournament.language,
            Tournament.version,
            Tournament.frozen_at,
        ).where(Tournament.id == tournament_id)
    ).one_or_none()
    if found is None:
        return None
    entrants = connection.execute(
        select(
            Entrant.number,
            Entrant.name,
            Entrant.club,
            Entrant.present,
            Entrant.joins_round,
            Entrant.left_after,
        )
        .where(Entrant.tournament_id == tournament_id)
        .order_by(Entrant.number)
    ).all()
    rounds = connection.execute(
        select(Round.number, Round.draw, Round.started_at, Round.closed_at)
        .where(Round.tournament_id == tournament_id)
        .order_by(Round.number)
    ).all()
    tables = connection.execute(
        select(
            Round.number,
            TournamentTable.number,
            TournamentTable.code,
            TournamentTable.seats,
            Evening.version,
            Evening.updated_at,
            Evening.hand_count,
            Evening.edit_count,
        )
        .join(Round, Round.id == TournamentTable.round_id)
        .join(Evening, Evening.id == TournamentTable.evening_id)
        .where(Round.tournament_id == tournament_id)
        .order_by(Round.number, TournamentTable.number)
    ).all()
    return {
        "tournament": tournament_id,
        "settings": list(found),
        "entrants": [list(e) for e in entrants],
        "rounds": [list(r) for r in rounds],
        "tables": [list(t) for t in tables],
    }
