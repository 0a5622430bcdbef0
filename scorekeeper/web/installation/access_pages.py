"""The installation PIN's page: asked once per device when the installation sets a PIN."""

from __future__ import annotations

from functools import partial

from flask import Blueprint, redirect, render_template, request
from werkzeug.wrappers import Response

from scorekeeper.web import access
from scorekeeper.web.redirects import safe_next
from scorekeeper.web.writing import Answered, Written, write

bp = Blueprint("access_pages", __name__)


@bp.get("/unlock")
def unlock_form() -> str:
    """Enter the PIN."""
    target = safe_next(request.args.get("next"), "")
    return unlock_page(None, target)


@bp.post("/unlock")
def unlock() -> Response | tuple[str, int]:
    """Check the PIN and go back to where the device wanted to go."""
    target = safe_next(request.form.get("next"))
    pin = request.form.get("pin", "")

    def refused(error: access.AccessDeniedError | access.TooManyAttemptsError) -> tuple[str, int]:
        message, status = access.refusal(error)
        return unlock_page(message, target), status

    def make() -> Written[Response | tuple[str, int]]:
        try:
            access.unlock_with_pin(pin)
        except (access.AccessDeniedError, access.TooManyAttemptsError) as error:
            raise Answered(partial(refused, error)) from None
        return Written(redirect(target, 303))

    return write(make)


def unlock_page(error: str | None, target: str) -> str:
    """The PIN's form: any length the installation chose, a number pad for digits."""
    return render_template(
        "access/unlock.html",
        error=error,
        next=target,
        digits=access.pin_is_digits(),
        longest=access.PIN_LONGEST,
    )
