"""Opening a tournament table by its code: scanned from the table card's QR code or typed.

Opening binds this device to that table for the round; it can then record and correct
that table's hands and nothing else of the tournament.
"""

from __future__ import annotations

from functools import partial

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.web import access
from scorekeeper.web.tournaments.api import find_table
from scorekeeper.web.writing import Answered, Written, write

bp = Blueprint("tables", __name__, url_prefix="/t")


@bp.get("")
def open_form() -> str:
    """Type the code from the table card."""
    return render_template("tables/open.html", error=None, code="")


@bp.post("")
def open() -> Response | tuple[str, int]:
    """Open the table whose code was typed."""
    return bind_and_go((request.form.get("code") or "").strip())


@bp.get("/<code>")
def enter(code: str) -> Response | tuple[str, int]:
    """The address in the QR code: bind this device and go to the table."""
    return bind_and_go(code)


def bind_and_go(code: str) -> Response | tuple[str, int]:
    """Bind this device to the table with ``code`` and show it; a wrong code says so, and
    a try that must wait says why and for how long."""

    def make() -> Written[Response | tuple[str, int]]:
        try:
            table = find_table(code)
        except (access.AccessDeniedError, access.TooManyAttemptsError) as error:
            raise Answered(partial(wrong_code, code, error)) from None
        access.bind_table(table.id)
        return Written(redirect(url_for("evenings.show", evening_id=table.evening_id), 303))

    return write(make)


def wrong_code(
    code: str, error: access.AccessDeniedError | access.TooManyAttemptsError
) -> tuple[str, int]:
    """The code's form again, saying why ``code`` opened nothing."""
    message, status = access.refusal(error)
    page = render_template("tables/open.html", error=message, code=code)
    return page, status if status == 429 else 404
