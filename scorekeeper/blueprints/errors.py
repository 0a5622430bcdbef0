"""Errors as JSON under ``/api/`` (api.md "Errors") and as pages elsewhere.

Every refused request is rolled back, so it changes nothing; nothing ever answers with a
bare 500 traceback.
"""

from __future__ import annotations

from urllib.parse import quote

from flask import Flask, Response, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from scorekeeper import serialize
from scorekeeper.access import AccessDeniedError, TooManyAttemptsError
from scorekeeper.blueprints.api import BadJSONError
from scorekeeper.extensions import db
from scorekeeper.models import Evening
from scorekeeper.operations import (
    AlreadyVoidError,
    EveningClosedError,
    HandNumberTakenError,
    NotFoundError,
    StaleVersionError,
)
from scorekeeper.rules.base import ImplausibleHandError, InvalidInputError
from scorekeeper.tournament.rounds import RoundStateError
from scorekeeper.tournament.setup import FrozenError
from scorekeeper.tournament.tables import table_info

#: Plain words for HTTP errors raised without a description of their own (an unknown
#: address, a refused page): Werkzeug's default text is English and technical, and says
#: nothing about what to do next.
PLAIN_WORDS = {
    400: _l(
        "The request was incomplete, so nothing was saved. Go back, reload the page and "
        "enter it again."
    ),
    403: _l(
        "This page is open only on the laptop that serves Scorekeeper, or after entering "
        "the installation's PIN."
    ),
    404: _l("There is no such page. Check the address, or start again from the evenings."),
    405: _l("This address cannot be used this way. Go back and use the buttons on the page."),
}


def plain_words(error: HTTPException) -> str:
    """What the error says to the person at the table, in their language."""
    if error.description != type(error).description:  # given where it was raised
        return str(error.description)
    default = PLAIN_WORDS.get(error.code or 500)
    if default is not None:
        return str(default)
    return gettext("This request could not be served (error %(code)s).", code=error.code)


def wants_json() -> bool:
    """API requests get JSON errors; pages get HTML."""
    return request.path.startswith("/api/")


def json_error(status: int, field: str, message: str) -> Response:
    """The API's error shape with one message."""
    response = jsonify({"errors": {field: [message]}})
    response.status_code = status
    return response


def keep_entry() -> tuple[str, int] | None:
    """A hand or a correction refused for its expired form protection, shown again as
    typed, for the caller who may see it (``docs/recording.md``); None for any other form.

    The protection is checked before the access check, which is made here first.
    """
    from scorekeeper.blueprints import guard, hands

    args = request.view_args or {}
    if request.endpoint not in ("hands.create", "hands.update"):
        return None
    try:
        guard.check_request()
        if request.endpoint == "hands.create":
            return hands.keep_expired_entry(int(args["evening_id"]))
        return hands.keep_expired_correction(int(args["evening_id"]), int(args["number"]))
    except (AccessDeniedError, HTTPException):  # not theirs to see, or no such hand
        return None


def register(app: Flask) -> None:
    """Install the handlers on the app."""

    @app.errorhandler(InvalidInputError)
    def invalid(error: InvalidInputError) -> tuple[Response, int] | tuple[str, int]:
        db.session.rollback()
        return jsonify({"errors": serialize.errors_json(error.errors)}), 422

    @app.errorhandler(ImplausibleHandError)
    def implausible(error: ImplausibleHandError) -> tuple[Response, int]:
        db.session.rollback()
        return jsonify({"warnings": serialize.errors_json(error.warnings)}), 422

    @app.errorhandler(BadJSONError)
    def bad_json(_error: BadJSONError) -> Response:
        db.session.rollback()
        return json_error(400, "body", gettext("The body is not valid JSON."))

    @app.errorhandler(NotFoundError)
    def no_hand(error: NotFoundError) -> Response:
        db.session.rollback()
        return json_error(404, "number", gettext("There is no hand %(n)s.", n=error.args[0]))

    @app.errorhandler(EveningClosedError)
    def closed(error: EveningClosedError) -> Response:
        db.session.rollback()
        evening = db.session.get(Evening, error.evening_id)
        if evening is not None and table_info(evening) is not None:
            message = gettext(
                "This table has played its last hand. The organiser can correct it, "
                "giving a reason."
            )
        else:
            message = gettext("This evening is closed. Reopen it to change anything.")
        if wants_json():
            return json_error(409, "evening", message)
        flash(message, "warning")
        return redirect(url_for("evenings.show", evening_id=error.evening_id), 303)

    @app.errorhandler(AlreadyVoidError)
    def already_void(error: AlreadyVoidError) -> Response:
        db.session.rollback()
        return json_error(409, "number", gettext("Hand %(n)s is voided already.", n=error.args[0]))

    @app.errorhandler(AccessDeniedError)
    def denied(error: AccessDeniedError) -> Response | tuple[str, int]:
        db.session.rollback()
        message = serialize.text(error.message)
        if wants_json():
            return json_error(error.status, "access", message)
        if error.login and request.method == "GET":
            flash(message, "warning")
            return redirect(f"{error.login}?next={quote(request.full_path.rstrip('?'))}", 303)
        page = render_template("errors/500.html", message=message, login=error.login)
        return page, error.status

    @app.errorhandler(TooManyAttemptsError)
    def too_many(error: TooManyAttemptsError) -> Response | tuple[str, int]:
        db.session.rollback()
        message = ngettext(
            "Too many wrong tries from this device. Wait %(num)s minute and try again.",
            "Too many wrong tries from this device. Wait %(num)s minutes and try again.",
            error.minutes,
        )
        if wants_json():
            response = json_error(429, "access", message)
            response.headers["Retry-After"] = str(error.minutes * 60)
            return response
        return render_template("errors/500.html", message=message), 429

    @app.errorhandler(StaleVersionError)
    def stale(error: StaleVersionError) -> Response:
        db.session.rollback()
        message = gettext("Someone changed this meanwhile. Reload and enter the change again.")
        return json_error(409, "version", message)

    @app.errorhandler(RoundStateError)
    def round_state(error: RoundStateError) -> Response | tuple[str, int]:
        db.session.rollback()
        message = serialize.text(error.message)
        if wants_json():
            return json_error(409, "round", message)
        return render_template("errors/500.html", message=message), 409

    @app.errorhandler(FrozenError)
    def frozen(_error: FrozenError) -> Response | tuple[str, int]:
        db.session.rollback()
        message = gettext(
            "The tournament has started: its game, house rules, rounds and scoring stay as "
            "they are."
        )
        if wants_json():
            return json_error(409, "tournament", message)
        return render_template("errors/500.html", message=message), 409

    @app.errorhandler(HandNumberTakenError)
    def number_taken(error: HandNumberTakenError) -> Response | tuple[str, int]:
        db.session.rollback()
        message = gettext(
            "Hand %(n)s is recorded already; the next hand is %(m)s. Nothing was recorded: "
            "check the hand and send it again as %(m)s if it is another one.",
            n=error.expected,
            m=error.upcoming,
        )
        if wants_json():
            return json_error(409, "number", message)
        return render_template("errors/500.html", message=message), 409

    @app.errorhandler(CSRFError)
    def expired(_error: CSRFError) -> tuple[str, int]:
        db.session.rollback()
        if (kept := keep_entry()) is not None:
            return kept
        message = gettext(
            "This page was open too long or came from elsewhere. Nothing was saved: "
            "go back, reload the page and enter it again."
        )
        return render_template("errors/500.html", message=message), 400

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(_error: RequestEntityTooLarge) -> Response | tuple[str, int]:
        db.session.rollback()
        limit = (app.config["MAX_CONTENT_LENGTH"] or 0) // (1024 * 1024)
        message = gettext(
            "This file is too large: at most %(mb)s MB can be sent. Nothing was saved.", mb=limit
        )
        if wants_json():
            return json_error(413, "body", message)
        return render_template("errors/500.html", message=message), 413

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response | tuple[str, int]:
        db.session.rollback()
        status = error.code or 500
        message = plain_words(error)
        if wants_json():
            return json_error(status, "request", message)
        return render_template("errors/error.html", status=status, message=message), status

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response | tuple[str, int]:
        db.session.rollback()
        app.logger.exception("unexpected error", exc_info=error)
        message = gettext("Something went wrong on our side; nothing was changed.")
        if wants_json():
            return json_error(500, "server", message)
        try:
            return render_template("errors/500.html", message=message), 500
        except Exception:  # the page itself failed: plain words still reach the table
            return message, 500
