"""The JSON API (``/api/v1``), as docs/api.md specifies it.

Views stay thin: read the body, call one operation, serialise, commit once. Errors become
the shapes of docs/api.md in ``blueprints/errors.py``; a refused request is rolled back whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, url_for
from flask_babel import gettext

from scorekeeper import operations
from scorekeeper.db import unit_of_work
from scorekeeper.db.extensions import db
from scorekeeper.db.idempotency import fingerprint, keep_answer, stored_answer
from scorekeeper.db.models import Evening, Hand
from scorekeeper.db.retry import retrying
from scorekeeper.operations import EveningView, StaleVersionError, evening_archives
from scorekeeper.operations.views import locks_rows
from scorekeeper.web import access, json_shapes
from scorekeeper.web.blueprints import exports
from scorekeeper.web.openapi import spec
from scorekeeper.web.tournament_tables import correction_reason, note_correction, table_for_evening

bp = Blueprint("api", __name__, url_prefix="/api/v1")

MAX_KEY_LENGTH = 200


class BadJSONError(Exception):
    """The body is not JSON at all (400)."""


def body() -> Any:
    """The request's JSON body; an empty body is an empty object.

    A body nesting deeper than ``json_limits.MAX_DEPTH`` is refused with 400 before it is
    parsed (``docs/hall-safety.md``). Text that is not Unicode (a lone surrogate such as
    ``"\\ud800"``, which JSON can spell but no database can store) is refused like any
    other body that is not JSON.
    """
    from scorekeeper.web import json_limits

    raw = request.get_data(cache=True)
    if not raw:
        return {}
    try:
        json_limits.check_body(raw)
    except json_limits.TooDeepError as error:
        abort(reply({"errors": json_shapes.errors_json(error.errors)}, 400))
    try:
        data = request.get_json(force=True, silent=True)
        if data is not None:
            json.dumps(data, ensure_ascii=False).encode()
    except (RecursionError, UnicodeEncodeError):
        raise BadJSONError from None
    if data is None:
        raise BadJSONError
    return data


def load(evening_id: int) -> Evening:
    """The evening or 404."""
    evening = operations.get_evening(evening_id)
    if evening is None:
        abort(404, description=gettext("There is no evening %(id)s.", id=evening_id))
    return evening


def load_current(evening_id: int, *, for_writing: bool = False) -> EveningView:
    """The evening as stored now, replayed, or 404 (``for_writing``: see
    ``operations.current_view``)."""
    current = operations.current_view(evening_id, for_writing=for_writing)
    if current is None:
        abort(404, description=gettext("There is no evening %(id)s.", id=evening_id))
    return current


#: Makes the answer to a write: body, status, Location.
Handler = Callable[[], tuple[dict[str, Any], int, str | None]]


def idempotent(scope: str, handler: Handler, *, secrets: tuple[str, ...] = ()) -> Response:
    """Run ``handler`` once per ``Idempotency-Key``; a repeat gets the first answer back.

    The key belongs to ``scope`` and to the requester (``access.requester``), and means one
    request: sent again with another method, path or body it is refused with 422 and
    nothing runs (``docs/recording.md``). ``secrets``: keys of the answer that a repeat
    never carries (an organiser's token). The answer is kept in the same transaction as
    the change, so two requests with one key at the same moment cannot both commit: the
    loser runs again and finds the answer.
    """
    key = request.headers.get("Idempotency-Key")
    if key is not None and len(key) > MAX_KEY_LENGTH:
        abort(400, description=gettext("The Idempotency-Key is too long."))
    who = access.requester() if key else ""

    def unit() -> Response:
        if key:
            request_print = fingerprint(request.method, request.path, body())
            if (stored := stored_answer(scope, who, key)) is not None:
                if not stored.answers(request_print):
                    unit_of_work.current().rollback()
                    return key_reused()
                return reply(stored.body, stored.status, stored.location)
        try:
            data, status, location = handler()
        except operations.HandNumberTakenError:
            # The same request may have taken the number a moment ago, while this one
            # waited for the evening's lock: then its answer is this one's.
            unit_of_work.current().rollback()
            if key and (stored := stored_answer(scope, who, key)) is not None:
                if not stored.answers(request_print):
                    return key_reused()
                return reply(stored.body, stored.status, stored.location)
            raise
        if key:
            keep_answer(
                scope,
                who,
                key,
                fingerprint=request_print,
                status=status,
                body=data,
                location=location,
                secrets=secrets,
            )
        unit_of_work.current().commit()
        return reply(data, status, location)

    return retrying(unit)


def key_reused() -> Response:
    """The 422 for a key that already belongs to another request."""
    message = gettext(
        "This Idempotency-Key was already used for another request, so nothing was done. "
        "Send every new request with a new key."
    )
    return reply({"errors": {"Idempotency-Key": [message]}}, 422)


def reply(data: dict[str, Any], status: int, location: str | None = None) -> Response:
    """A JSON response with an optional ``Location``."""
    response = jsonify(data)
    response.status_code = status
    if location:
        response.headers["Location"] = location
    return response


@bp.get("/openapi.json")
def openapi() -> Response:
    """The API described as OpenAPI 3.1."""
    return jsonify(spec())


@bp.post("/unlock")
def unlock() -> Response:
    """Give the installation PIN once: a session cookie and a bearer token."""
    raw = body()
    token = access.unlock_with_pin(raw.get("pin") if isinstance(raw, dict) else None)
    db.session.commit()
    return reply({"token": token}, 200)


@bp.get("/evenings")
def index() -> Response:
    """All evenings, the most recently active first."""
    return jsonify({"evenings": [json_shapes.evening_summary(s) for s in operations.summaries()]})


@bp.post("/evenings")
def create() -> Response:
    """Create an evening."""

    def handler() -> tuple[dict[str, Any], int, str | None]:
        evening = operations.create_evening(body(), source="api")
        data = json_shapes.evening_json(operations.view(evening))
        return data, 201, url_for("api.show", evening_id=evening.id)

    return idempotent("evenings", handler)


@bp.get("/evenings/<int:evening_id>")
def show(evening_id: int) -> Response:
    """An evening with its ledger."""
    return jsonify(json_shapes.evening_json(load_current(evening_id)))


@bp.patch("/evenings/<int:evening_id>")
def update(evening_id: int) -> Response:
    """Correct an evening's settings, with the version read."""

    def unit() -> Response:
        evening = load(evening_id)
        try:
            operations.correct_evening(evening, body(), source="api")
        except StaleVersionError:
            db.session.rollback()
            return reply(json_shapes.evening_json(operations.view(load(evening_id))), 409)
        data = json_shapes.evening_json(operations.view(evening))
        db.session.commit()
        return jsonify(data)

    return retrying(unit)


@bp.get("/evenings/<int:evening_id>/revisions")
def evening_revisions(evening_id: int) -> Response:
    """The settings of the evening at every version, oldest first."""
    evening = load(evening_id)
    return jsonify(
        {
            "revisions": [
                {
                    "version": r.version,
                    "settings": r.settings,
                    "at": r.at.isoformat().replace("+00:00", "Z"),
                    "source": r.source,
                }
                for r in evening.revisions
            ]
        }
    )


@bp.post("/evenings/<int:evening_id>/seating")
def seating(evening_id: int) -> Response:
    """Change the table from the next hand on."""

    def handler() -> tuple[dict[str, Any], int, str | None]:
        evening = load(evening_id)
        operations.change_seating(evening, body(), source="api")
        return json_shapes.evening_json(operations.view(evening)), 200, None

    return idempotent(f"evening:{evening_id}", handler)


def hand_reply(current: EveningView, number: int) -> dict[str, Any]:
    """A hand with the evening's balances after it was recorded."""
    # Newest first: the hand just recorded is the last.
    result = next(r for r in reversed(current.ledger.hands) if r.record.number == number)
    hand = operations.find_hand(current.evening, number)
    return {
        "hand": json_shapes.hand_json(current, result, hand),
        "balances": {p: current.ledger.balances.get(p, 0) for p in current.all_players},
        **current.ledger.common,
        "next_dealer": current.next_table.dealer,
    }


@bp.post("/evenings/<int:evening_id>/hands")
def record_hand(evening_id: int) -> Response:
    """Record the next hand."""

    def handler() -> tuple[dict[str, Any], int, str | None]:
        # The answer is made before the hand is stored, so SQLite's lock (the whole
        # database's) is held only for the write; made again if the evening changed
        # before the lock was taken. PostgreSQL locks the evening's row as it is read.
        prepared = operations.prepare_record(load_current(evening_id, for_writing=True), body())
        data = hand_reply(prepared.view, prepared.hand.number)
        stored = operations.store_hand(prepared, source="api")
        if stored is not prepared:
            data = hand_reply(stored.view, stored.hand.number)
        location = url_for("api.show_hand", evening_id=evening_id, number=stored.hand.number)
        return data, 201, location

    if table_for_evening(evening_id) is not None:
        # The last hand of a tournament table closes it, through the mapped evening.
        return idempotent(f"evening:{evening_id}", handler)
    # Without a key to keep an answer for, the hand is one insert that can commit on its
    # own, where the database can lock the evening's row within it (PostgreSQL).
    each_statement = locks_rows() and request.headers.get("Idempotency-Key") is None
    with unit_of_work.plain(each_statement=each_statement):
        return idempotent(f"evening:{evening_id}", handler)


def find_or_404(evening: Evening, number: int) -> None:
    """404 unless the evening has a hand with that number."""
    if not any(h.number == number for h in evening.hands):
        abort(404, description=gettext("There is no hand %(n)s in this evening.", n=number))


@bp.get("/evenings/<int:evening_id>/hands/<int:number>")
def show_hand(evening_id: int, number: int) -> Response:
    """One hand as the evening shows it."""
    evening = load(evening_id)
    find_or_404(evening, number)
    return jsonify(hand_reply(operations.view(evening), number)["hand"])


def change_hand(
    evening_id: int, number: int, change: Callable[..., tuple[Hand, EveningView]]
) -> Response:
    """Apply ``change`` (replace or void) to a hand; a stale version answers 409 with the
    hand as it is now, also when the other change committed while this one was working."""

    def unit() -> Response:
        evening = load(evening_id)
        find_or_404(evening, number)
        raw = body()
        key = "reason" if change is operations.void_hand else "correction"
        correction = correction_reason(evening, raw.get(key)) if isinstance(raw, dict) else None
        try:
            _, current = change(evening, number, raw, source="api", correction=correction)
            if correction:
                note_correction(evening, number, correction)
        except StaleVersionError:
            db.session.rollback()
            return reply(hand_reply(operations.view(load(evening_id)), number)["hand"], 409)
        data = hand_reply(current, number)["hand"]
        db.session.commit()
        return jsonify(data)

    return retrying(unit)


@bp.put("/evenings/<int:evening_id>/hands/<int:number>")
def replace_hand(evening_id: int, number: int) -> Response:
    """Replace a hand's facts, with the version read."""
    return change_hand(evening_id, number, operations.replace_hand)


@bp.delete("/evenings/<int:evening_id>/hands/<int:number>")
def void_hand(evening_id: int, number: int) -> Response:
    """Void a hand with a reason."""
    return change_hand(evening_id, number, operations.void_hand)


@bp.get("/evenings/<int:evening_id>/hands/<int:number>/revisions")
def hand_revisions(evening_id: int, number: int) -> Response:
    """Every version of a hand, oldest first, the void included."""
    evening = load(evening_id)
    find_or_404(evening, number)
    hand = operations.find_hand(evening, number)
    return jsonify({"revisions": [json_shapes.revision_json(r) for r in hand.history]})


@bp.get("/evenings/<int:evening_id>/settlement")
def settlement(evening_id: int) -> Response:
    """The end of the evening in money; ``end_pot`` tries another end rule."""
    current = operations.view(load(evening_id))
    rule = operations.read_end_rule(current, request.args.get("end_pot"))
    return jsonify(json_shapes.settlement_json(current, current.settlement(rule)))


@bp.get("/evenings/<int:evening_id>/sheet.pdf")
def sheet_pdf(evening_id: int) -> Response:
    """The score sheet as PDF."""
    evening = load(evening_id)
    return exports.download(
        exports.sheet_pdf_bytes(evening),
        "application/pdf",
        exports.filename(evening, "sheet", "pdf"),
        inline=True,
    )


@bp.get("/evenings/<int:evening_id>/settlement.pdf")
def settlement_pdf(evening_id: int) -> Response:
    """The settlement as PDF; ``end_pot`` as for the JSON settlement."""
    evening = load(evening_id)
    return exports.download(
        exports.settlement_pdf_bytes(evening, request.args.get("end_pot")),
        "application/pdf",
        exports.filename(evening, "settlement", "pdf"),
        inline=True,
    )


@bp.get("/evenings/<int:evening_id>/export")
def export(evening_id: int) -> Response:
    """The whole evening as a JSON archive."""
    return jsonify(evening_archives.export_evening(load(evening_id)))


@bp.post("/evenings/import")
def import_archive() -> Response:
    """Store an archive (the body) as a new evening."""
    evening = evening_archives.import_evening(body(), source="api")
    data = json_shapes.evening_json(operations.view(evening))
    db.session.commit()
    return reply(data, 201, url_for("api.show", evening_id=evening.id))


def set_closed(evening_id: int, closed: bool) -> Response:
    """Close or reopen; two tablets doing it at once both get the evening as it ends up."""

    def unit() -> Response:
        evening = operations.set_closed(load(evening_id), closed, source="api")
        data = json_shapes.evening_json(operations.view(evening))
        db.session.commit()
        return jsonify(data)

    return retrying(unit)


@bp.post("/evenings/<int:evening_id>/close")
def close(evening_id: int) -> Response:
    """Close the evening once its settlement is signed: it becomes read-only."""
    return set_closed(evening_id, True)


@bp.post("/evenings/<int:evening_id>/reopen")
def reopen(evening_id: int) -> Response:
    """Reopen a closed evening; its revisions keep the trace."""
    return set_closed(evening_id, False)
