"""The JSON API for tournaments, rounds, tables and standings, in the style of docs/api.md.

Organiser endpoints need the organiser's login (``POST .../login`` gives a session cookie
and a bearer token); a table's device opens its table with the code and then records hands
through the evening endpoints of docs/api.md. Standings are public, like the projector.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, url_for
from flask_babel import gettext
from sqlalchemy import select
from werkzeug.security import check_password_hash

from scorekeeper.core.rules.base import msg
from scorekeeper.db.extensions import db
from scorekeeper.db.tournament_models import Round, Tournament, TournamentTable
from scorekeeper.operations import tournament_rounds as rounds_ops
from scorekeeper.operations import tournament_setup
from scorekeeper.operations.tournament_results import (
    round_states,
    table_states,
    tournament_standings,
)
from scorekeeper.web import access
from scorekeeper.web.answers import reply
from scorekeeper.web.bodies import body
from scorekeeper.web.evenings.api import idempotent
from scorekeeper.web.tournaments import printing
from scorekeeper.web.tournaments.shapes import (
    entrant_json,
    round_json,
    standings_json,
    table_json,
    tournament_json,
)
from scorekeeper.web.writing import Written, write

bp = Blueprint("tournament_api", __name__, url_prefix="/api/v1")


def load(tournament_id: int) -> Tournament:
    """The tournament or 404."""
    tournament = db.session.get(Tournament, tournament_id)
    if tournament is None:
        abort(404, description=gettext("There is no tournament %(id)s.", id=tournament_id))
    return tournament


def load_round(tournament: Tournament, number: int) -> Round:
    """The tournament's round or 404."""
    for round_ in tournament.round_list:
        if round_.number == number:
            return round_
    abort(404, description=gettext("There is no round %(n)s.", n=number))


def check_password(tournament: Tournament, password: object, scope: str) -> None:
    """The organiser's password, counted as wrong until it proves right (``access.attempt``);
    raises ``AccessDeniedError``, or ``TooManyAttemptsError`` while this device must wait."""
    tried = access.attempt(scope)
    if not isinstance(password, str) or not check_password_hash(tournament.password_hash, password):
        raise access.AccessDeniedError(msg("That password is not right."), status=401)
    access.succeeded(tried, scope)


@bp.get("/tournaments")
def index() -> Response:
    """Every tournament, newest first."""
    found = db.session.scalars(select(Tournament).order_by(Tournament.id.desc()))
    return jsonify({"tournaments": [tournament_json(t) for t in found]})


@bp.post("/tournaments")
def create() -> Response:
    """Set up a tournament; its creator is logged in as its organiser."""
    raw = body()

    def handler() -> tuple[dict[str, Any], int, str | None]:
        tournament = tournament_setup.create_tournament(raw)
        token = access.grant_organiser(tournament.id)
        location = url_for("tournament_api.show", tournament_id=tournament.id)
        return {**tournament_json(tournament), "token": token}, 201, location

    return idempotent("tournaments", handler, secrets=("token",))


@bp.post("/tournaments/<int:tournament_id>/login")
def login(tournament_id: int) -> Response:
    """Log in as the organiser: a session cookie, and a token for API clients."""
    tournament = load(tournament_id)
    raw = body()

    def make() -> Written[Response]:
        check_password(
            tournament,
            raw.get("password") if isinstance(raw, dict) else None,
            f"tournament:{tournament.id}",
        )
        return Written(reply({"token": access.grant_organiser(tournament.id)}, 200))

    return write(make)


@bp.get("/tournaments/<int:tournament_id>")
def show(tournament_id: int) -> Response:
    """The set-up."""
    return jsonify(tournament_json(load(tournament_id)))


@bp.patch("/tournaments/<int:tournament_id>")
def update(tournament_id: int) -> Response:
    """Change the set-up (frozen once the first round starts, but for name, place, date).

    A new password ends every organiser login made with the old one; the caller who set it
    stays logged in, with a new token in the answer.
    """
    raw = body()

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        before = tournament.password_hash
        tournament = tournament_setup.update_tournament(tournament, raw)
        answer = tournament_json(tournament)
        if tournament.password_hash != before:
            answer["token"] = access.grant_organiser(tournament.id)
        return Written(jsonify(answer))

    return write(make)


@bp.get("/tournaments/<int:tournament_id>/entrants")
def entrants(tournament_id: int) -> Response:
    """Every registered player by start number."""
    tournament = load(tournament_id)
    return jsonify({"entrants": [entrant_json(e) for e in tournament.entrants]})


@bp.post("/tournaments/<int:tournament_id>/entrants")
def register(tournament_id: int) -> Response:
    """Register a player (checked in unless ``present`` is false)."""
    tournament = load(tournament_id)
    raw = body()

    def handler() -> tuple[dict[str, Any], int, str | None]:
        entrant = tournament_setup.register(tournament, raw)
        return entrant_json(entrant), 201, None

    return idempotent(f"tournament:{tournament.id}", handler)


@bp.patch("/tournaments/<int:tournament_id>/entrants/<int:number>")
def change_entrant(tournament_id: int, number: int) -> Response:
    """Check in or out, drop out or return, correct a name or club."""
    raw = body()

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        entrant = tournament_setup.find_entrant(tournament, number)
        if entrant is None:
            abort(404, description=gettext("There is no start number %(n)s.", n=number))
        tournament_setup.change_entrant(tournament, entrant, raw)
        return Written(jsonify(entrant_json(entrant)))

    return write(make)


@bp.get("/tournaments/<int:tournament_id>/rounds")
def rounds(tournament_id: int) -> Response:
    """Every round with its draw, tables and progress."""
    tournament = load(tournament_id)
    states = round_states(tournament)
    return jsonify(
        {"rounds": [round_json(tournament, r, states.get(r.number)) for r in tournament.round_list]}
    )


@bp.post("/tournaments/<int:tournament_id>/rounds")
def draw(tournament_id: int) -> Response:
    """Draw the next round from a fresh seed (stored with it)."""
    tournament = load(tournament_id)

    def handler() -> tuple[dict[str, Any], int, str | None]:
        round_ = rounds_ops.draw_next(tournament)
        location = url_for(
            "tournament_api.show_round", tournament_id=tournament.id, number=round_.number
        )
        return round_json(tournament, round_), 201, location

    return idempotent(f"tournament:{tournament.id}", handler)


@bp.get("/tournaments/<int:tournament_id>/rounds/<int:number>")
def show_round(tournament_id: int, number: int) -> Response:
    """One round: its draw, and once started its tables with codes and progress."""
    tournament = load(tournament_id)
    round_ = load_round(tournament, number)
    states = table_states(round_) if round_.started_at else None
    return jsonify(round_json(tournament, round_, states))


@bp.post("/tournaments/<int:tournament_id>/rounds/<int:number>/redraw")
def redraw(tournament_id: int, number: int) -> Response:
    """Draw a round again from a new seed, before it starts."""

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        round_ = rounds_ops.redraw(tournament, load_round(tournament, number))
        return Written(jsonify(round_json(tournament, round_)))

    return write(make)


@bp.post("/tournaments/<int:tournament_id>/rounds/<int:number>/swap")
def swap(tournament_id: int, number: int) -> Response:
    """Swap two players, ``{"a": 3, "b": 17}``, before the round starts (logged)."""
    raw = body()

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        round_ = rounds_ops.swap_players(tournament, load_round(tournament, number), raw)
        return Written(jsonify(round_json(tournament, round_)))

    return write(make)


@bp.post("/tournaments/<int:tournament_id>/rounds/<int:number>/start")
def start(tournament_id: int, number: int) -> Response:
    """Start the round: tables become evenings with codes; the set-up freezes."""

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        round_ = rounds_ops.start_round(tournament, load_round(tournament, number))
        return Written(jsonify(round_json(tournament, round_, table_states(round_))))

    response = write(make)
    if response.status_code == 200:
        printing.print_round_ahead(tournament_id, number, closed=False)
    return response


@bp.post("/tournaments/<int:tournament_id>/rounds/<int:number>/close")
def close(tournament_id: int, number: int) -> Response:
    """Close the round; with ``{"confirm": true}`` even while tables are unfinished."""
    confirm = rounds_ops.read_confirm(body())

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        round_ = rounds_ops.close_round(tournament, load_round(tournament, number), confirm=confirm)
        return Written(jsonify(round_json(tournament, round_, table_states(round_))))

    response = write(make)
    if response.status_code == 200:
        printing.print_round_ahead(tournament_id, number, closed=True)
    return response


@bp.get("/tournaments/<int:tournament_id>/standings")
def standings(tournament_id: int) -> Response:
    """The standings as the tables stand now (public, like the projector)."""
    tournament = load(tournament_id)
    return jsonify(standings_json(tournament, tournament_standings(tournament)))


@bp.post("/tables/<code>/open")
def open_table(code: str) -> Response:
    """Bind this caller to the table with that code; answers with a token for API use."""

    def make() -> Written[Response]:
        table = find_table(code)
        return Written(reply({**table_json(table), "token": access.bind_table(table.id)}, 200))

    return write(make)


def find_table(code: str) -> TournamentTable:
    """The table with that code (case and dashes ignored), counting wrong codes (a code is
    counted as wrong until it proves right, ``access.attempt``)."""
    tried = access.attempt("table-code")
    wanted = code.upper().replace("-", "").replace(" ", "")
    table = db.session.scalars(
        select(TournamentTable).where(TournamentTable.code == wanted)
    ).one_or_none()
    if table is None:
        raise access.AccessDeniedError(
            msg("There is no table with the code {code}. Check the table card.", code=code[:12]),
            status=404,
        )
    # A real code: no wrong try, though a closed round's code opens nothing any more.
    open_round = table.round.closed_at is None
    access.succeeded(tried, "table-code", clear=open_round)
    if not open_round:
        raise access.AccessDeniedError(
            msg("Round {n} is over; this table's code no longer opens it.", n=table.round.number),
            status=409,
        )
    return table
