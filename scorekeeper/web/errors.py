"""Errors as JSON under ``/api/`` (docs/api.md "Errors") and as pages elsewhere.

Every refused request is rolled back, so it changes nothing; nothing ever answers with a
bare 500 traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import quote

import flask_babel
from flask import (
    Flask,
    Response,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.core.rules.base import ImplausibleHandError, InvalidInputError, Message
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Evening
from scorekeeper.operations import (
    AlreadyVoidError,
    EveningClosedError,
    HandNumberTakenError,
    NotFoundError,
    StaleVersionError,
)
from scorekeeper.operations.errors import TournamentTableError
from scorekeeper.operations.tournament_rounds import RoundStateError
from scorekeeper.operations.tournament_setup import FrozenError
from scorekeeper.web import guard, json_shapes
from scorekeeper.web.access import AccessDeniedError, TooManyAttemptsError
from scorekeeper.web.answers import json_error, reply, wants_json
from scorekeeper.web.bodies import BadJSONError
from scorekeeper.web.tournament_tables import table_info

#: Flask-Babel ships no type information; its gettext and ngettext return str.
gettext: Callable[..., str] = flask_babel.gettext
ngettext: Callable[..., str] = flask_babel.ngettext

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


def allow(error: HTTPException) -> str:
    """The methods the address takes, in a steady order, for a 405's ``Allow``."""
    return ", ".join(sorted(getattr(error, "valid_methods", None) or []))


def api_words(error: HTTPException) -> str:
    """What the error says to a program calling the API: the page's words point at buttons
    and pages, which a program has none of."""
    if error.code == 405:
        allowed = allow(error)
        return gettext(
            "This address does not take %(method)s; it takes %(allowed)s.",
            method=request.method,
            allowed=allowed,
        )
    if error.description != type(error).description:  # given where it was raised
        return str(error.description)
    if error.code == 404:
        return gettext("There is no such address in the API. Check the address.")
    if error.code == 400:
        return gettext("The request could not be read, so nothing was saved.")
    return plain_words(error)


#: The pages that show a form refused for its expired protection again as typed, by
#: endpoint; each feature names its own (``keeps_expired``).
KEPT_WHEN_EXPIRED: dict[str, Callable[..., tuple[str, int]]] = {}
P = TypeVar("P", bound=Callable[..., tuple[str, int]])


def keeps_expired(endpoint: str) -> Callable[[P], P]:
    """Name ``page`` (called with the address's values) as what shows a form of
    ``endpoint`` again as typed when its protection expired."""

    def register(page: P) -> P:
        KEPT_WHEN_EXPIRED[endpoint] = page
        return page

    return register


def keep_entry() -> tuple[str, int] | None:
    """A form refused for its expired form protection (a hand, a correction), shown
    again as typed, for the caller who may see it (``docs/recording.md``); None for a
    form no page keeps (``keeps_expired``).

    The protection is checked before the access check, which is made here first.
    """
    page = KEPT_WHEN_EXPIRED.get(request.endpoint or "")
    if page is None:
        return None
    try:
        guard.check_request()
        return page(**(request.view_args or {}))
    except (AccessDeniedError, HTTPException):  # not theirs to see, or no such hand
        return None


def refuse(status: int, field: str, message: str) -> Response:
    """A refusal in the caller's form: the API's error shape at ``field``, or the error
    page with ``message``."""
    if wants_json():
        return json_error(status, field, message)
    return make_response(render_template("errors/500.html", message=message), status)


def invalid(error: InvalidInputError) -> Response:
    """Impossible input: 422 with a message per field. A page shows its refusals at their
    fields itself; one that does not still answers with a page saying them, never with
    the API's JSON."""
    if wants_json():
        return reply({"errors": json_shapes.errors_json(error.errors)}, 422)
    return refuse(422, "", in_words(error.errors))


def implausible(error: ImplausibleHandError) -> Response:
    """Implausible input: 422 with warnings, to confirm (on a page, said in words)."""
    if wants_json():
        return reply({"warnings": json_shapes.errors_json(error.warnings)}, 422)
    return refuse(422, "", in_words(error.warnings))


def in_words(found: Mapping[str, Sequence[Message]]) -> str:
    """Every message of a refusal, one after the other."""
    return " ".join(json_shapes.text(m) for messages in found.values() for m in messages)


def bad_json(_error: BadJSONError) -> Response:
    """A body that is not JSON: 400."""
    return json_error(400, "body", gettext("The body is not valid JSON."))


def no_hand(error: NotFoundError) -> Response:
    """No hand of that number: 404."""
    return json_error(404, "number", gettext("There is no hand %(n)s.", n=error.args[0]))


def closed(error: EveningClosedError) -> BaseResponse:
    """A change to a closed evening: 409, or the table screen saying why."""
    evening = db.session.get(Evening, error.evening_id)
    if evening is not None and table_info(evening) is not None:
        message = gettext(
            "This table has played its last hand. The organiser can correct it, giving a reason."
        )
    else:
        message = gettext("This evening is closed. Reopen it to change anything.")
    if wants_json():
        return json_error(409, "evening", message)
    flash(message, "warning")
    return redirect(url_for("evenings.show", evening_id=error.evening_id), 303)


def tournament_table(error: TournamentTableError) -> Response:
    """A tournament table's evening asked to join a group or to carry a pot: 409."""
    return refuse(409, "evening", json_shapes.text(error.message))


def already_void(error: AlreadyVoidError) -> Response:
    """A hand voided twice: 409."""
    return json_error(409, "number", gettext("Hand %(n)s is voided already.", n=error.args[0]))


def denied(error: AccessDeniedError) -> BaseResponse:
    """No access: the status the refusal says, or the login page for a page read."""
    message = json_shapes.text(error.message)
    if wants_json():
        return json_error(error.status, "access", message)
    if error.login and request.method == "GET":
        flash(message, "warning")
        return redirect(f"{error.login}?next={quote(request.full_path.rstrip('?'))}", 303)
    page = render_template("errors/500.html", message=message, login=error.login)
    return make_response(page, error.status)


def too_many(error: TooManyAttemptsError) -> Response:
    """Too many wrong PINs, passwords or codes: 429 with when to try again."""
    message = ngettext(
        "Too many wrong tries from this device. Wait %(num)s minute and try again.",
        "Too many wrong tries from this device. Wait %(num)s minutes and try again.",
        error.minutes,
    )
    response = refuse(429, "access", message)
    if wants_json():
        response.headers["Retry-After"] = str(error.minutes * 60)
    return response


def stale(_error: StaleVersionError) -> Response:
    """A change made to an older version: 409."""
    message = gettext("Someone changed this meanwhile. Reload and enter the change again.")
    return refuse(409, "version", message)


def round_state(error: RoundStateError) -> Response:
    """A round asked for what its state does not allow: 409."""
    return refuse(409, "round", json_shapes.text(error.message))


def frozen(_error: FrozenError) -> Response:
    """A started tournament's fixed settings changed: 409."""
    message = gettext(
        "The tournament has started: its game, house rules, rounds and scoring stay as they are."
    )
    return refuse(409, "tournament", message)


def number_taken(error: HandNumberTakenError) -> Response:
    """A hand sent as a number another hand has taken: 409."""
    message = gettext(
        "Hand %(n)s is recorded already; the next hand is %(m)s. Nothing was recorded: "
        "check the hand and send it again as %(m)s if it is another one.",
        n=error.expected,
        m=error.upcoming,
    )
    return refuse(409, "number", message)


def expired(_error: CSRFError) -> Response | tuple[str, int]:
    """A page's form protection expired: the entry kept, or 400 with what to do."""
    if (kept := keep_entry()) is not None:
        return kept
    message = gettext(
        "This page was open too long or came from elsewhere. Nothing was saved: "
        "go back, reload the page and enter it again."
    )
    return make_response(render_template("errors/500.html", message=message), 400)


def too_large(_error: RequestEntityTooLarge) -> Response:
    """A body over its address's limit (``web.bodies``): 413, with the limit in words."""
    limit = request.max_content_length or current_app.config["MAX_CONTENT_LENGTH"] or 0
    if limit >= 1024 * 1024:
        message = gettext(
            "This file is too large: at most %(mb)s MB can be sent. Nothing was saved.",
            mb=limit // (1024 * 1024),
        )
    else:
        message = gettext(
            "This request is too large: at most %(kb)s KB can be sent here. Nothing was saved.",
            kb=limit // 1024,
        )
    return refuse(413, "body", message)


def http_error(error: HTTPException) -> Response:
    """Any other HTTP error in the caller's form, with ``Allow`` on a 405."""
    status = error.code or 500
    if wants_json():
        response = json_error(status, "request", api_words(error))
    else:
        page = render_template("errors/error.html", status=status, message=plain_words(error))
        response = make_response(page, status)
    if status == 405:  # RFC 9110 requires it
        response.headers["Allow"] = allow(error)
    return response


def unexpected(error: Exception) -> Response | tuple[str, int]:
    """A fault of ours: logged, and 500 in plain words."""
    current_app.logger.exception("unexpected error", exc_info=error)
    message = gettext("Something went wrong on our side; nothing was changed.")
    if wants_json():
        return json_error(500, "server", message)
    try:
        return render_template("errors/500.html", message=message), 500
    except Exception:  # the page itself failed: plain words still reach the table
        return message, 500


#: Each kind of error and what answers it; Flask picks the most specific kind.
HANDLERS: tuple[tuple[type[Exception], Callable[[Any], Any]], ...] = (
    (InvalidInputError, invalid),
    (ImplausibleHandError, implausible),
    (BadJSONError, bad_json),
    (NotFoundError, no_hand),
    (EveningClosedError, closed),
    (TournamentTableError, tournament_table),
    (AlreadyVoidError, already_void),
    (AccessDeniedError, denied),
    (TooManyAttemptsError, too_many),
    (StaleVersionError, stale),
    (RoundStateError, round_state),
    (FrozenError, frozen),
    (HandNumberTakenError, number_taken),
    (CSRFError, expired),
    (RequestEntityTooLarge, too_large),
    (HTTPException, http_error),
    (Exception, unexpected),
)


def rolled_back(handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``handler`` after rolling back whatever the refused request began: a refusal
    changes nothing."""

    def handle(error: Exception) -> Any:
        db.session.rollback()
        return handler(error)

    handle.__name__ = handler.__name__
    return handle


def register(app: Flask) -> None:
    """Install the handlers on the app."""
    for kind, handler in HANDLERS:
        app.register_error_handler(kind, rolled_back(handler))
