"""The installation PIN's page: asked once per device when the installation sets a PIN."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request
from werkzeug.wrappers import Response

from scorekeeper import access
from scorekeeper.extensions import db
from scorekeeper.redirects import safe_next
from scorekeeper.serialize import text

bp = Blueprint("access_pages", __name__)


@bp.get("/unlock")
def unlock_form() -> str:
    """Enter the PIN."""
    target = safe_next(request.args.get("next"), "")
    return render_template("access/unlock.html", error=None, next=target)


@bp.post("/unlock")
def unlock() -> Response | tuple[str, int]:
    """Check the PIN and go back to where the device wanted to go."""
    target = safe_next(request.form.get("next"))
    try:
        access.unlock_with_pin(request.form.get("pin", ""))
    except access.AccessDeniedError as error:
        page = render_template("access/unlock.html", error=text(error.message), next=target)
        return page, 401
    db.session.commit()
    return redirect(target, 303)
