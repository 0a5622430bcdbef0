"""An evening named in the address, or the page that says there is none."""

from __future__ import annotations

from flask import abort
from flask_babel import gettext

from scorekeeper import operations
from scorekeeper.db.models import Evening


def evening_or_404(evening_id: int) -> Evening:
    """The evening's row, to read or change it; 404 saying so when there is no such one."""
    evening = operations.get_evening(evening_id)
    if evening is None:
        abort(404, description=gettext("There is no evening %(id)s.", id=evening_id))
    return evening
