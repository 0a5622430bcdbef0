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
from scorekeeper.web.blueprints.installation import for_the_installation

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
    old = load(player_id).name
    try:
        new = anonymising.anonymise_player(player_id)
    except anonymising.AnonymiseError:
        db.session.rollback()
        flash(
            gettext(
                "%(name)s could not be anonymised without changing an amount, so nothing was "
                "changed. Please report this.",
                name=old,
            ),
            "warning",
        )
        return redirect(url_for("players.index"), 303)
    db.session.commit()
    flash(gettext("%(old)s is now called %(new)s in every evening.", old=old, new=new))
    return redirect(url_for("players.index"), 303)
