"""Opening a tournament table by its code: scanned from the table card's QR code or typed.

Opening binds this device to that table for the round; it can then record and correct
that table's hands and nothing else of the tournament.
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.db.extensions import db
from scorekeeper.web import access
from scorekeeper.web.blueprints.tournament_api import find_table

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
    try:
        table = find_table(code)
    except (access.AccessDeniedError, access.TooManyAttemptsError) as error:
        message, status = access.refusal(error)
        page = render_template("tables/open.html", error=message, code=code)
        return page, status if status == 429 else 404
    access.bind_table(table.id)
    db.session.commit()
    return redirect(url_for("evenings.show", evening_id=table.evening_id), 303)
