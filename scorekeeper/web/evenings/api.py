"""The JSON API (``/api/v1``), as docs/api.md specifies it.

Views stay thin: read the body, call one operation, serialise, commit once. Errors become
the shapes of docs/api.md in ``web/errors.py``; a refused request is rolled back whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, jsonify, make_response, request, url_for
from flask_babel import gettext

from scorekeeper import operations
from scorekeeper.db.idempotency import MAX_KEY_LENGTH, StoredAnswer, fingerprint
from scorekeeper.operations import EveningView, StaleVersionError, archive_import, evening_archives
from scorekeeper.operations.club_statistics import evening_highlights
from scorekeeper.operations.facts import EveningFacts, HandFact
from scorekeeper.web import access, json_shapes, printouts
from scorekeeper.web.answers import reply
from scorekeeper.web.bodies import body, takes_upload
from scorekeeper.web.evenings import exports
from scorekeeper.web.loading import view_or_404
from scorekeeper.web.managed import refuse_others
from scorekeeper.web.openapi import spec
from scorekeeper.web.tournament_tables import correction_reason, note_correction
from scorekeeper.web.writing import Answered, Kept, Key, Written, write

bp = Blueprint("api", __name__, url_prefix="/api/v1")


#: Makes the answer to a write: body, status, Location.
Handler = Callable[[], Kept]


def request_key(scope: str) -> Key | None:
    """The request's ``Idempotency-Key`` within ``scope``, for its requester
    (``access.requester``) and standing for this method, path and body; none sent, none."""
    name = request.headers.get("Idempotency-Key")
    if name is not None and len(name) > MAX_KEY_LENGTH:
        abort(400, description=gettext("The Idempotency-Key is too long."))
    if not name:
        return None
    request_print = fingerprint(request.method, request.path, body())
    return Key(scope, access.requester(), name, request_print)


def repeat(stored: StoredAnswer, same: bool) -> Response:
    """The answer to a key already used: the first answer, or the 422 for a key that
    belongs to another request (``docs/recording.md``)."""
    return reply(stored.body, stored.status, stored.location) if same else key_reused()


def idempotent(
    scope: str,
    handler: Handler,
    *,
    secrets: tuple[str, ...] = (),
    new_hand_in: int | None = None,
) -> Response:
    """Run ``handler`` once per ``Idempotency-Key``; a repeat gets the first answer back.

    The key belongs to ``scope`` and to the requester, and means one request: sent again
    with another method, path or body it is refused with 422 and nothing runs.
    ``secrets``: keys of the answer that a repeat never carries (an organiser's token).
    ``writing.write`` keeps the answer in the same transaction as the change.
    """

    def make() -> Written[Response]:
        kept = handler()
        return Written(reply(*kept), kept)

    return write(
        make, key=request_key(scope), repeated=repeat, secrets=secrets, new_hand_in=new_hand_in
    )


def key_reused() -> Response:
    """The 422 for a key that already belongs to another request."""
    message = gettext(
        "This Idempotency-Key was already used for another request, so nothing was done. "
        "Send every new request with a new key."
    )
    return reply({"errors": {"Idempotency-Key": [message]}}, 422)


@bp.get("/openapi.json")
def openapi() -> Response:
    """The API described as OpenAPI 3.1."""
    return jsonify(spec())


@bp.post("/unlock")
def unlock() -> Response:
    """Give the installation PIN once: a session cookie and a bearer token."""
    raw = body()

    def make() -> Written[Response]:
        token = access.unlock_with_pin(raw.get("pin") if isinstance(raw, dict) else None)
        return Written(reply({"token": token}, 200))

    return write(make)


@bp.get("/evenings")
def index() -> Response:
    """All evenings, the most recently active first."""
    return jsonify({"evenings": [json_shapes.evening_summary(s) for s in operations.summaries()]})


#: What a new evening's body may say about the club's memory (docs/club.md).
CLUB_KEYS = ("group", "carried_from")


@bp.post("/evenings")
def create() -> Response:
    """Create an evening. Joining a table group or taking over its carried pot is for
    whoever may manage the installation, as the groups themselves (docs/club.md): a guest's
    tablet starts evenings of its own."""
    raw = body()
    if isinstance(raw, dict) and any(raw.get(key) is not None for key in CLUB_KEYS):
        refuse_others()

    def handler() -> tuple[dict[str, Any], int, str | None]:
        evening = operations.create_evening(body(), source="api")
        data = json_shapes.evening_json(view_or_404(evening.id))
        return data, 201, url_for("api.show", evening_id=evening.id)

    return idempotent("evenings", handler)


@bp.get("/evenings/<int:evening_id>")
def show(evening_id: int) -> Response:
    """An evening with its ledger."""
    return jsonify(json_shapes.evening_json(view_or_404(evening_id)))


@bp.patch("/evenings/<int:evening_id>")
def update(evening_id: int) -> Response:
    """Correct an evening's settings, with the version read."""

    def make() -> Written[Response]:
        view_or_404(evening_id)
        try:
            current = operations.correct_evening(evening_id, body(), source="api")
        except StaleVersionError:
            raise Answered(
                lambda: reply(json_shapes.evening_json(view_or_404(evening_id)), 409)
            ) from None
        return Written(jsonify(json_shapes.evening_json(current)))

    return write(make)


@bp.get("/evenings/<int:evening_id>/revisions")
def evening_revisions(evening_id: int) -> Response:
    """The settings of the evening at every version, oldest first."""
    view_or_404(evening_id)
    return jsonify(
        {
            "revisions": [
                {
                    "version": r.version,
                    "settings": r.settings,
                    "at": r.at.isoformat().replace("+00:00", "Z"),
                    "source": r.source,
                }
                for r in operations.revisions_of(evening_id)
            ]
        }
    )


@bp.post("/evenings/<int:evening_id>/seating")
def seating(evening_id: int) -> Response:
    """Change the table from the next hand on."""

    def handler() -> tuple[dict[str, Any], int, str | None]:
        view_or_404(evening_id)
        current = operations.change_seating(evening_id, body(), source="api")
        return json_shapes.evening_json(current), 200, None

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
        prepared = operations.prepare_record(view_or_404(evening_id, for_writing=True), body())
        data = hand_reply(prepared.view, prepared.hand.number)
        stored = operations.store_hand(prepared, source="api")
        if stored is not prepared:
            data = hand_reply(stored.view, stored.hand.number)
        location = url_for("api.show_hand", evening_id=evening_id, number=stored.hand.number)
        return data, 201, location

    return idempotent(f"evening:{evening_id}", handler, new_hand_in=evening_id)


def find_or_404(evening: EveningFacts, number: int) -> None:
    """404 unless the evening has a hand with that number."""
    if not any(h.number == number for h in evening.hands):
        abort(404, description=gettext("There is no hand %(n)s in this evening.", n=number))


@bp.get("/evenings/<int:evening_id>/hands/<int:number>")
def show_hand(evening_id: int, number: int) -> Response:
    """One hand as the evening shows it."""
    current = view_or_404(evening_id)
    find_or_404(current.evening, number)
    return jsonify(hand_reply(current, number)["hand"])


def change_hand(
    evening_id: int, number: int, change: Callable[..., tuple[HandFact, EveningView]]
) -> Response:
    """Apply ``change`` (replace or void) to a hand; a stale version answers 409 with the
    hand as it is now, also when the other change committed while this one was working."""

    def make() -> Written[Response]:
        evening = view_or_404(evening_id).evening
        find_or_404(evening, number)
        raw = body()
        key = "reason" if change is operations.void_hand else "correction"
        correction = correction_reason(evening, raw.get(key)) if isinstance(raw, dict) else None
        try:
            _, current = change(evening_id, number, raw, source="api", correction=correction)
        except StaleVersionError:
            raise Answered(
                lambda: reply(hand_reply(view_or_404(evening_id), number)["hand"], 409)
            ) from None
        if correction:
            note_correction(evening, number, correction)
        return Written(jsonify(hand_reply(current, number)["hand"]))

    return write(make)


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
    find_or_404(view_or_404(evening_id).evening, number)
    history = operations.history_of(evening_id, number)
    return jsonify({"revisions": [json_shapes.revision_json(r) for r in history]})


@bp.get("/evenings/<int:evening_id>/settlement")
def settlement(evening_id: int) -> Response:
    """The end of the evening in money; ``end_pot`` tries another end rule."""
    current = view_or_404(evening_id)
    rule = operations.read_end_rule(current, request.args.get("end_pot"))
    return jsonify(json_shapes.settlement_json(current, current.settlement(rule)))


@bp.get("/evenings/<int:evening_id>/highlights")
def highlights(evening_id: int) -> Response:
    """The evening's highlights: the biggest pot won, the longest run of pots carried, the
    best hand, who bid most (docs/statistics.md)."""
    return jsonify(json_shapes.highlights_json(evening_highlights(view_or_404(evening_id))))


@bp.get("/evenings/<int:evening_id>/sheet.pdf")
def sheet_pdf(evening_id: int) -> Response:
    """The score sheet as PDF; a long evening's part by part (``?part=``): asked without
    one, it answers 409 with the parts' addresses."""
    found = exports.sheet_printout(evening_id)
    if isinstance(found, list):
        parts = [
            {
                "first": first,
                "last": last,
                "url": url_for("api.sheet_pdf", evening_id=evening_id, part=n),
            }
            for n, (first, last) in enumerate(found, start=1)
        ]
        problem = gettext("This score sheet is too long for one printout: print it in parts.")
        return make_response(jsonify({"errors": {"part": [problem]}, "parts": parts}), 409)
    return printouts.answer(found)


@bp.get("/evenings/<int:evening_id>/settlement.pdf")
def settlement_pdf(evening_id: int) -> Response:
    """The settlement as PDF; ``end_pot`` as for the JSON settlement."""
    return printouts.answer(exports.settlement_printout(evening_id))


@bp.get("/evenings/<int:evening_id>/export")
def export(evening_id: int) -> Response:
    """The whole evening as a JSON archive."""
    archive = evening_archives.archive_of(evening_id)
    if archive is None:
        view_or_404(evening_id)  # says there is no such evening
    return jsonify(archive)


@bp.post("/evenings/import")
@takes_upload
def import_archive() -> Response:
    """Store an archive (the body) as a new evening."""
    raw = body()

    def make() -> Written[Response]:
        evening = archive_import.import_evening(raw, source="api")
        data = json_shapes.evening_json(view_or_404(evening.id))
        return Written(reply(data, 201, url_for("api.show", evening_id=evening.id)))

    return write(make)


def set_closed(evening_id: int, closed: bool) -> Response:
    """Close or reopen; two tablets doing it at once both get the evening as it ends up."""

    def make() -> Written[Response]:
        view_or_404(evening_id)
        current = operations.set_closed(evening_id, closed, source="api")
        return Written(jsonify(json_shapes.evening_json(current)))

    return write(make)


@bp.post("/evenings/<int:evening_id>/close")
def close(evening_id: int) -> Response:
    """Close the evening once its settlement is signed: it becomes read-only."""
    return set_closed(evening_id, True)


@bp.post("/evenings/<int:evening_id>/reopen")
def reopen(evening_id: int) -> Response:
    """Reopen a closed evening; its revisions keep the trace."""
    return set_closed(evening_id, False)
