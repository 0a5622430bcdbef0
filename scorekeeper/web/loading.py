"""An evening named in the address, or the page that says there is none."""

from __future__ import annotations

from flask import abort
from flask_babel import gettext

from scorekeeper import operations


def view_or_404(evening_id: int, *, for_writing: bool = False) -> operations.EveningView:
    """The evening as stored now, replayed (``operations.current_view``); 404 saying so
    when there is no such one. ``for_writing``: the request is about to write to it."""
    current = operations.current_view(evening_id, for_writing=for_writing)
    if current is None:
        abort(404, description=gettext("There is no evening %(id)s.", id=evening_id))
    return current
