"""The players page: everyone who has played here, and anonymising a guest on request.

A guest who asks to be forgotten is found in the list; after a confirmation their name is
replaced by a neutral one in every evening, with every amount unchanged.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from scorekeeper.db.extensions import db
from scorekeeper.db.models import Player
from scorekeeper.operations import anonymising
from scorekeeper.web.managed import for_the_installation
from scorekeeper.web.writing import Answered, Written, write

bp = for_the_installation(Blueprint("players", __name__, url_prefix="/players"))


def load(player_id: int) -> Player:
    """The player, or 404."""
    player = db.session.get(Player, player_id)
    if player is None:
        abort(404)
    return player


@bp.get("")
def index() -> str:
    """Every player with their evenings, each with the way to anonymise them."""
    return render_template("players/index.html", players=anonymising.player_summaries())


@bp.get("/<int:player_id>/anonymise")
def confirm(player_id: int) -> str:
    """Say what anonymising will do, and ask once more."""
    player = load(player_id)
    return render_template(
        "players/anonymise.html",
        player=player,
        evenings=len(anonymising.evenings_of(player_id)),
        guest=anonymising.guest_name(anonymising.free_guest_number()),
    )


@bp.post("/<int:player_id>/anonymise")
def anonymise(player_id: int) -> Response:
    """Replace the player's name everywhere; then back to the list."""
    back = url_for("players.index")

    def make() -> Written[Response]:
        old = load(player_id).name
        try:
            new = anonymising.anonymise_player(player_id)
        except anonymising.AnonymiseError:
            raise Answered(lambda: not_anonymised(old, back)) from None
        flash(gettext("%(old)s is now called %(new)s in every evening.", old=old, new=new))
        return Written(redirect(back, 303))

    return write(make)


def not_anonymised(name: str, back: str) -> Response:
    """Back to the list, saying that nothing was changed."""
    flash(
        gettext(
            "%(name)s could not be anonymised without changing an amount, so nothing was "
            "changed. Please report this.",
            name=name,
        ),
        "warning",
    )
    return redirect(back, 303)
