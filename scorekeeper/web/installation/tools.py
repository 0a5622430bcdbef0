"""Small helpers for the table: counting Doppen card points by the 3-card rule."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from scorekeeper.core.rules.base import InvalidInputError
from scorekeeper.core.rules.counting import count_sides
from scorekeeper.web.json_shapes import text

bp = Blueprint("tools", __name__, url_prefix="/tools")

KINDS = ("fives", "fours", "threes", "twos", "ones", "cards")


@bp.get("/count")
def count() -> tuple[str, int]:
    """Both sides' card points from how many cards of each value they hold (docs/doppen.md §2)."""
    sides = {
        side: {kind: request.args.get(f"{side}.{kind}", "") for kind in KINDS}
        for side in ("soloist", "opponents")
    }
    asked = any(v for values in sides.values() for v in values.values())
    points: tuple[int, int] | None = None
    problems: dict[str, list[str]] = {}
    if asked:
        try:
            points = count_sides(sides["soloist"], sides["opponents"])
        except InvalidInputError as error:
            problems = {k: [text(m) for m in ms] for k, ms in error.errors.items()}
    status = 422 if problems else 200
    return render_template(
        "tools/count.html", sides=sides, kinds=KINDS, points=points, problems=problems
    ), status
