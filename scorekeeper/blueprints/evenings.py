"""Pages for evenings: the list, a new evening, an evening with its hands and settlement."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext
from sqlalchemy import select
from werkzeug.wrappers import Response

from scorekeeper import LANGUAGES, operations
from scorekeeper.extensions import db
from scorekeeper.forms import NewEveningForm
from scorekeeper.models import Evening
from scorekeeper.rules.base import InvalidInputError
from scorekeeper.serialize import text

bp = Blueprint("evenings", __name__)


def load_view(evening_id: int) -> operations.EveningView:
    """The evening replayed, or 404."""
    evening = operations.get_evening(evening_id)
    if evening is None:
        abort(404)
    return operations.view(evening)


@bp.get("/")
def index() -> str:
    """All evenings, newest first, and the form for a new one."""
    evenings = db.session.scalars(select(Evening).order_by(Evening.id.desc())).all()
    return render_template(
        "evenings/index.html",
        evenings=[operations.view(e) for e in evenings],
        form=NewEveningForm(),
    )


@bp.post("/evenings")
def create() -> Response | tuple[str, int]:
    """Create an evening from the form."""
    form = NewEveningForm()
    if form.validate_on_submit():
        try:
            evening = operations.create_evening(form.to_body(), source="page")
        except InvalidInputError as error:
            db.session.rollback()
            for field, messages in error.errors.items():
                target = getattr(form, field.removeprefix("options."), None)
                errors = target.errors if target is not None else form.form_errors
                errors.extend(text(m) for m in messages)
        else:
            db.session.commit()
            flash(gettext("The evening has started."))
            return redirect(url_for("evenings.show", evening_id=evening.id))
    evenings = db.session.scalars(select(Evening).order_by(Evening.id.desc())).all()
    page = render_template(
        "evenings/index.html", evenings=[operations.view(e) for e in evenings], form=form
    )
    return page, 422


@bp.get("/evenings/<int:evening_id>")
def show(evening_id: int) -> str:
    """An evening: the table, the pot, balances and every hand with its lines."""
    return render_template("evenings/show.html", current=load_view(evening_id))


@bp.get("/evenings/<int:evening_id>/settlement")
def settlement(evening_id: int) -> str:
    """Nets, who pays whom, and the pairwise table."""
    current = load_view(evening_id)
    try:
        rule = operations.read_end_rule(current, request.args.get("end_pot"))
    except InvalidInputError:
        rule = None
    return render_template(
        "evenings/settlement.html", current=current, result=current.settlement(rule)
    )


@bp.post("/language/<lang>")
def language(lang: str) -> Response:
    """Switch the pages' language and remember it."""
    if lang in LANGUAGES:
        session["lang"] = lang
    return redirect(request.referrer or url_for("evenings.index"))
