"""The check before every request: PIN, table binding or organiser login (docs/api.md "Access").

One place decides, by the endpoint and its ``evening_id`` or ``tournament_id``, so a new
page cannot forget it. A tournament table's evening refuses everyone but the device bound
to it and the organiser; what a tournament fixes (seating, house rules, closing) is refused
on a table even to them.
"""

from __future__ import annotations

from flask import Flask, abort, request, url_for

from scorekeeper.core.rules.base import msg
from scorekeeper.db.extensions import db
from scorekeeper.db.tournament_models import Round, TournamentTable
from scorekeeper.web import access, hosts, printouts
from scorekeeper.web.managed import MANAGED
from scorekeeper.web.tournament_tables import table_for_evening

#: What the device bound to a table may do there: play, correct, read its own sheet.
TABLE_ENDPOINTS = {
    "evenings.show",
    "evenings.history",
    "hands.create",
    "hands.preview",
    "hands.undo",
    "hands.edit",
    "hands.update",
    "hands.void",
    "settlement.show",
    "exports.sheet_pdf",
    "exports.settlement_pdf",
    "api.show",
    "api.evening_revisions",
    "api.record_hand",
    "api.show_hand",
    "api.replace_hand",
    "api.void_hand",
    "api.hand_revisions",
    "api.settlement",
    "api.highlights",
    "api.sheet_pdf",
}
#: What a tournament decides for its tables, refused on a table to every caller.
FIXED_BY_TOURNAMENT = {
    "evenings.seating",
    "evenings.change_seating",
    "evenings.settings",
    "evenings.update_settings",
    "exports.close",
    "exports.reopen",
    "settlement.tick",
    "api.update",
    "api.seating",
    "api.close",
    "api.reopen",
}
#: Reachable by anyone: unlocking, opening a table by its code, logging in, the projector.
PUBLIC = {
    "static",
    "evenings.favicon",
    "access_pages.unlock",
    "access_pages.unlock_form",
    "api.unlock",
    "api.openapi",
    "evenings.language",
    "tables.enter",
    "tables.open",
    "tables.open_form",
    "tournament_api.open_table",
    "tournament_api.login",
    "tournament_api.standings",
    "tournaments.login",
    "tournaments.login_form",
    "tournaments.screen",
}


def tournament_of(table: TournamentTable) -> int:
    """The tournament a table belongs to."""
    return int(db.session.get_one(Round, table.round_id).tournament_id)


#: The largest id the database can hold (SQLite's signed 64-bit integer): a larger one in
#: an address names nothing, and must not reach a query, which cannot even bind it.
MAX_ID = 2**63 - 1

#: Methods that change something, checked for their origin on the API.
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def check_origin() -> None:
    """Refuse a change sent by a browser from another site: a page's form or the API.

    A browser names the site a write comes from in ``Origin``: it must be this very address
    (http or https, the name and port of ``Host``, which ``scorekeeper.web.hosts`` accepted).
    A write without ``Origin`` passes: clients other than browsers and older browsers send
    none, and pages' forms carry CSRF tokens anyway. The API accepts the session cookie,
    which those tokens do not cover, so there a ``Sec-Fetch-Site`` naming another site is
    refused as well.
    """
    if request.method not in UNSAFE:
        return
    origin = request.headers.get("Origin")
    foreign_origin = origin is not None and not hosts.same_origin(origin, request.host)
    fetched_from = request.headers.get("Sec-Fetch-Site")
    cross_site = request.path.startswith("/api/") and fetched_from in ("cross-site", "same-site")
    if foreign_origin or cross_site:
        raise access.AccessDeniedError(msg("Requests from other sites are refused."), status=403)


def check_request() -> None:
    """Refuse the request unless the caller may make it; raises ``AccessDeniedError``."""
    endpoint = request.endpoint
    if endpoint is None:  # no such page: the 404 says so
        return
    if request.method == "GET" and printouts.asked_ahead():
        return  # the app's own ask for a printout it is about to be asked for
    args = request.view_args or {}
    if any(isinstance(v, int) and v > MAX_ID for v in args.values()):
        abort(404)
    check_origin()
    if request.blueprint in MANAGED:
        # The manager's own pages decide (``installation.refuse_others``), a tournament
        # table's evening included: only they may take it out of a group or a pot link.
        check_pin()
        return
    if "evening_id" in args:
        table = table_for_evening(int(args["evening_id"]))
        if table is not None:
            check_table(table, endpoint)
            return
    if endpoint in PUBLIC:
        return
    if "tournament_id" in args:
        tournament_id = int(args["tournament_id"])
        if not access.may_organise(tournament_id):
            raise access.AccessDeniedError(
                msg("Only the organiser can do this: log in with the organiser's password."),
                status=401,
                login=url_for("tournaments.login_form", tournament_id=tournament_id),
            )
        return
    check_pin()


def check_pin() -> None:
    """Ask for the installation's PIN (401) unless it was given, or none is set."""
    if not access.pin_unlocked():
        raise access.AccessDeniedError(
            msg("Enter this installation's PIN first."),
            status=401,
            login=url_for("access_pages.unlock_form"),
        )


def check_table(table: TournamentTable, endpoint: str) -> None:
    """A tournament table: the organiser, or the device bound to it while its round lasts,
    within its limits."""
    if endpoint in FIXED_BY_TOURNAMENT:
        raise access.AccessDeniedError(
            msg(
                "This table belongs to a tournament: its players, house rules and end are "
                "set by the tournament."
            ),
            status=409,
        )
    if access.may_organise(tournament_of(table)):
        return
    if access.grants().table == table.id and endpoint in TABLE_ENDPOINTS:
        # A table's code binds a device for the table's round: once it is closed, the
        # device reaches it no more (docs/hall-safety.md "PINs, passwords and tokens").
        if table.round.closed_at is None:
            return
        raise access.AccessDeniedError(
            msg(
                "Round {n} is over: this device no longer reaches its table. Open the next "
                "table with the code on its table card.",
                n=table.round.number,
            ),
            status=403,
            login=url_for("tables.open_form"),
        )
    raise access.AccessDeniedError(
        msg("This table belongs to a tournament: open it with the code on its table card."),
        status=403,
        login=url_for("tables.open_form"),
    )


def register(app: Flask) -> None:
    """Run the check before every request."""
    app.before_request(check_request)
