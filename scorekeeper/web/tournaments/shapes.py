"""Tournaments, entrants, rounds, tables and standings as the JSON API returns them."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flask import url_for

from scorekeeper.core.standings import RoundScore
from scorekeeper.core.standings_texts import scoring_rule
from scorekeeper.db.tournament_models import Entrant, Round, Tournament, TournamentTable
from scorekeeper.operations.tournament_results import Line, TableState
from scorekeeper.operations.tournament_rounds import seat_names
from scorekeeper.operations.tournament_setup import as_body
from scorekeeper.web.json_shapes import text


def number(value: Fraction | None) -> int | str | None:
    """An exact amount: a whole number, or a fraction as text ("7/3")."""
    if value is None:
        return None
    return int(value) if value.denominator == 1 else str(value)


def tournament_json(tournament: Tournament) -> dict[str, Any]:
    """The set-up (never the password) and where to find the rest."""
    return {
        "id": tournament.id,
        **as_body(tournament),
        "version": tournament.version,
        "frozen": tournament.frozen_at is not None,
        "rounds_drawn": len(tournament.round_list),
        "links": {
            "entrants": url_for("tournament_api.entrants", tournament_id=tournament.id),
            "rounds": url_for("tournament_api.rounds", tournament_id=tournament.id),
            "standings": url_for("tournament_api.standings", tournament_id=tournament.id),
        },
    }


def entrant_json(entrant: Entrant) -> dict[str, Any]:
    """A registered player."""
    return {
        "number": entrant.number,
        "name": entrant.name,
        "club": entrant.club,
        "present": entrant.present,
        "joins_round": entrant.joins_round,
        "left_after": entrant.left_after,
    }


def round_json(
    tournament: Tournament, round_: Round, states: list[TableState] | None = None
) -> dict[str, Any]:
    """A round: its seed and draw, its state, and its tables with their progress."""
    names = seat_names(tournament)
    by_number = {s.table.number: s for s in states or []}
    tables = []
    for index, seats in enumerate(round_.drawn_tables, start=1):
        entry: dict[str, Any] = {
            "number": index,
            "players": [{"number": n, "name": names.get(n, "")} for n in seats],
        }
        state = by_number.get(index)
        if state is not None:
            entry.update(table_progress_json(state))
        tables.append(entry)
    return {
        "number": round_.number,
        "seed": round_.seed,
        "state": "closed" if round_.closed_at else "started" if round_.started_at else "drawn",
        "repeated_pairs": round_.repeated_pairs,
        "tables": tables,
        "byes": [{"number": n, "name": names.get(n, "")} for n in round_.byes],
    }


def table_progress_json(state: TableState) -> dict[str, Any]:
    """A started table: its code, its evening and how far it got."""
    table = state.table
    return {
        "code": table.code,
        "evening": table.evening_id,
        "evening_url": url_for("api.show", evening_id=table.evening_id),
        "hands": state.hands,
        "hands_due": state.due,
        "finished": state.finished,
        "late": state.late,
        "last_activity": state.last_activity.isoformat(),
        "results": {str(n): r for n, r in state.results.items()},
    }


def table_json(table: TournamentTable) -> dict[str, Any]:
    """What the device that opened a table learns about it."""
    round_ = table.round
    return {
        "tournament": round_.tournament.name,
        "round": round_.number,
        "table": table.number,
        "evening": table.evening_id,
        "evening_url": url_for("api.show", evening_id=table.evening_id),
        "hands_due": table.evening.hands_due,
    }


def round_score_json(score: RoundScore) -> dict[str, Any]:
    """One player's round."""
    return {
        "round": score.round,
        "table": score.table,
        "bye": score.bye,
        "result": number(score.result),
        "score": number(score.score),
        "hands": score.hands,
    }


def standings_json(tournament: Tournament, lines: list[Line]) -> dict[str, Any]:
    """The standings with the rule that ranks them, stated as on the page."""
    return {
        "scoring": tournament.scoring,
        "rule": text(scoring_rule(tournament.scoring)),
        "standings": [
            {
                "place": line.standing.place,
                "number": line.entrant.number,
                "name": line.entrant.name,
                "club": line.entrant.club,
                "total": number(line.standing.total),
                "result": number(line.standing.result),
                "hands": line.standing.hands,
                "per_hand": number(line.standing.per_hand),
                "best_round": number(line.standing.best_round),
                "rounds": [round_score_json(r) for r in line.standing.rounds],
            }
            for line in lines
        ],
    }
