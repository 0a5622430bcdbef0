"""Pages for evenings: home, a new evening, the table screen, the history, the seating."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from flask import (
    Blueprint,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale, gettext, ngettext, to_user_timezone
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.wrappers import Response

from scorekeeper import operations
from scorekeeper.core import undo
from scorekeeper.core.rules import VARIANTS, get_variant
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.validation import LANGUAGES
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Player, utcnow
from scorekeeper.operations import carried_pots, table_groups
from scorekeeper.operations.facts import EveningFacts
from scorekeeper.web import access
from scorekeeper.web.evenings.hands import blank_entry, form_context, new_form
from scorekeeper.web.forms import (
    SEATS,
    chosen_id,
    game_changed_form,
    new_evening_body,
    new_evening_form,
    picked_variant,
    refused_at_fields,
    seated_names,
    seating_form,
    settings_body,
    settings_form,
    typed_seats,
)
from scorekeeper.web.jinja_filters import day
from scorekeeper.web.json_shapes import text
from scorekeeper.web.loading import view_or_404
from scorekeeper.web.redirects import safe_referrer
from scorekeeper.web.writing import Answered, Written, write

bp = Blueprint("evenings", __name__)


@bp.get("/")
def index() -> str:
    """Open evenings first, most recently played on top; closed ones below."""
    summaries = operations.summaries()
    open_ = [s for s in summaries if s.evening.closed_at is None]
    closed = [s for s in summaries if s.evening.closed_at is not None]
    return render_template("evenings/index.html", recent=open_, past=closed)


def known_players() -> list[str]:
    """Names from earlier evenings, suggested while typing."""
    return list(db.session.scalars(select(Player.name).order_by(Player.name)))


def chosen_variant() -> tuple[str, str]:
    """The game and variant picked on the page's form (``forms.picked_variant``)."""
    return picked_variant(VARIANTS)


def local_today() -> date:
    """Today in the installation's time zone: the evening's date as the table sees it."""
    now: datetime = to_user_timezone(datetime.now(UTC))
    return now.date()


def group_choices() -> list[tuple[str, str]]:
    """The table groups a new evening may join: only for whoever may manage the
    installation, as the groups themselves (docs/club.md)."""
    if not access.may_manage_installation():
        return []
    return [(str(g.id), g.name) for g in table_groups.all_groups()]


def pot_choices(variant: Variant) -> list[tuple[str, str]]:
    """The carried pots a new evening of ``variant`` may take over (docs/troggen.md §8):
    for whoever may manage the groups, of games that carry pots on, newest first."""
    if not variant.carry_choice or not access.may_manage_installation():
        return []
    return [
        (str(open_pot.evening.id), pot_label(open_pot))
        for open_pot in carried_pots.open_pots()
        if (open_pot.evening.game, open_pot.evening.variant) == (variant.game, variant.key)
    ]


def pot_label(open_pot: carried_pots.OpenPot) -> str:
    """An open pot as the choice names it: group, day, title and jetons."""
    evening = open_pot.evening
    group = table_groups.group_of(evening.id)
    parts = [group.name if group else "", day(carried_pots.day_of(evening)), evening.title]
    jetons = ngettext("%(num)s jeton", "%(num)s jetons", open_pot.pot)
    return " · ".join([*(part for part in parts if part), jetons])


def prefilled(form: FlaskForm, pots: list[tuple[str, str]]) -> None:
    """Start the next evening of a group from the address ``?carried_from=12`` (the group
    page's link): that pot chosen, the group, the table and the house rules of the
    evening it comes from, which the table corrects where tonight differs."""
    wanted = request.args.get("carried_from", "")
    if wanted not in dict(pots):
        return
    earlier = view_or_404(int(wanted)).evening  # one of the open pots
    form.carried_from.data = wanted
    group = table_groups.group_of(earlier.id)
    if group is not None and "group" in form:
        form.group.data = str(group.id)
    names = earlier.seatings[-1].players
    for i, name in enumerate(names[: form.seat_count]):
        form[f"seat_{i}"].data = name
    for key, value in earlier.options.items():
        if f"opt_{key}" in form:
            form[f"opt_{key}"].data = value


@bp.get("/evenings/new")
def new() -> str:
    """The new-evening form."""
    variant = get_variant(*chosen_variant())
    pots = pot_choices(variant)
    groups = group_choices()
    form = new_evening_form(variant, text, today=local_today(), groups=groups, pots=pots)
    # The group page's "Start an evening in this group" names its group: ?group=3.
    if request.args.get("group", "") in dict(groups):
        form.group.data = request.args["group"]
    prefilled(form, pots)
    return render_template(
        "evenings/new.html",
        form=form,
        variant=variant,
        games=VARIANTS,
        known=known_players(),
        taken_by=taken_by(pots),
    )


def taken_by(pots: list[tuple[str, str]]) -> EveningFacts | None:
    """The evening that took over the pot ``?carried_from=`` asks for, when another evening
    did already: Back after starting the next evening must not start a second one."""
    wanted = request.args.get("carried_from", "")
    if not access.may_manage_installation():
        return None  # pots are offered to whoever may manage the installation alone
    number = chosen_id(wanted)
    if number is None or wanted in dict(pots):
        return None
    link = carried_pots.link_from(number)
    return view_or_404(link.evening_id).evening if link is not None else None


@bp.post("/evenings")
def create() -> Response | str | tuple[str, int]:
    """Start an evening from the form; after another game was chosen in it, first show
    that game's house rules (the ones on the page were the other game's), names kept."""
    chosen = chosen_variant()
    variant = get_variant(*chosen)
    if request.form.get("shown", "/".join(chosen)) != "/".join(chosen):
        form = game_changed_form(
            variant,
            text,
            request.form,
            today=local_today(),
            groups=group_choices(),
            pots=pot_choices(variant),
        )
        return render_template(
            "evenings/new.html",
            form=form,
            variant=variant,
            games=VARIANTS,
            known=known_players(),
            changed=True,
        )
    form = new_evening_form(
        variant,
        text,
        formdata=request.form,
        seats=typed_seats(request.form),
        groups=group_choices(),
        pots=pot_choices(variant),
    )
    form.validate()

    def refused() -> tuple[str, int]:
        page = render_template(
            "evenings/new.html", form=form, variant=variant, games=VARIANTS, known=known_players()
        )
        return page, 422

    if form.date.errors:
        form.date.errors = [gettext("Choose a date from the calendar, or leave it empty.")]
        return refused()

    def make() -> Written[Response | tuple[str, int]]:
        with refused_at_fields(form, refused):
            body = {**new_evening_body(form, variant), "language": str(get_locale())}
            evening = operations.create_evening(body, source="page")
        flash(gettext("The evening has started. Good luck!"))
        return Written(redirect(url_for("evenings.show", evening_id=evening.id), 303))

    return write(make)


@bp.get("/evenings/<int:evening_id>")
def show(evening_id: int) -> Response:
    """The table screen: who deals, the pot, balances, the hand entry, the last hands.

    Never kept by the browser: Back and reload fetch it anew, so the entry form comes
    with a fresh token and the hand it is for, never pre-ticked with the last hand
    (``docs/recording.md``).
    """
    current = view_or_404(evening_id)
    saved = request.args.get("saved", type=int)
    saved_result = next(
        (r for r in current.ledger.hands if r.record.number == saved and not r.record.void),
        None,
    )
    form = new_form(current)
    saves = undo.saves_of(current.evening.hands)
    closed = current.evening.closed_at is not None and not current.variant.keeps_tally
    page = render_template(
        "evenings/show.html",
        ended=current.ended() if closed else None,
        current=current,
        form=form,
        entry_fields=blank_entry(current, form) if current.evening.closed_at is None else None,
        warnings=False,
        saved=saved_result,
        undo_seconds=(
            undo.seconds_offered(saves, saved, utcnow())
            if saved is not None and saved_result
            else 0
        ),
        saved_version=next((h.version for h in saves if h.number == saved), None),
        **form_context(current.variant, current.next_table),
    )
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/evenings/<int:evening_id>/hands")
def history(evening_id: int) -> str:
    """Every hand with its lines; edit and void from here."""
    current = view_or_404(evening_id)
    return render_template(
        "evenings/history.html",
        current=current,
        corrected=operations.corrected_hands(evening_id),
        **form_context(current.variant, current.next_table),
    )


@bp.get("/evenings/<int:evening_id>/seating")
def seating(evening_id: int) -> str:
    """Change the table between hands: players join or leave, seats swap."""
    current = view_or_404(evening_id)
    count = min(SEATS, current.variant.max_players)
    form = seating_form(current.players, current.next_table.dealer, count)
    return render_template(
        "evenings/seating.html", current=current, form=form, known=known_players()
    )


@bp.post("/evenings/<int:evening_id>/seating")
def change_seating(evening_id: int) -> Response | tuple[str, int]:
    """Save the new table; it plays from the next hand on."""
    current = view_or_404(evening_id)
    count = min(SEATS, current.variant.max_players)
    form = seating_form(current.players, current.next_table.dealer, count, request.form)
    names, dealer = seated_names(form, count)

    def refused() -> tuple[str, int]:
        page = render_template(
            "evenings/seating.html",
            current=view_or_404(evening_id),
            form=form,
            known=known_players(),
        )
        return page, 422

    def make() -> Written[Response]:
        with refused_at_fields(form, refused):
            operations.change_seating(
                evening_id, {"players": names, "dealer": dealer}, source="page"
            )
        flash(gettext("The table has changed. It plays like this from the next hand on."))
        return Written(redirect(url_for("evenings.show", evening_id=evening_id), 303))

    return write(make)


@bp.get("/evenings/<int:evening_id>/settings")
def settings(evening_id: int) -> str:
    """Correct the title, place, date or house rules; every change is kept as a revision."""
    current = view_or_404(evening_id)
    form = settings_form(current.variant, text, current.evening)
    return render_template("evenings/settings.html", current=current, form=form)


@bp.post("/evenings/<int:evening_id>/settings")
def update_settings(evening_id: int) -> Response | tuple[str, int]:
    """Save corrected settings; the ledger replays with them."""
    current = view_or_404(evening_id)
    form = settings_form(current.variant, text, current.evening, formdata=request.form)
    form.validate()

    def refused() -> tuple[str, int]:
        page = render_template("evenings/settings.html", current=view_or_404(evening_id), form=form)
        return page, 422

    def stale() -> tuple[str, int]:
        form.form_errors.append(
            gettext("Someone else changed the settings meanwhile. Check them and save again.")
        )
        form.version.data = str(view_or_404(evening_id).evening.version)
        return refused()

    if form.date.errors:
        form.date.errors = [gettext("Choose a date from the calendar, or leave it empty.")]
        return refused()

    def make() -> Written[Response]:
        try:
            with refused_at_fields(form, refused):
                operations.correct_evening(evening_id, settings_body(form), source="page")
        except operations.StaleVersionError:
            raise Answered(stale) from None
        flash(gettext("The settings were corrected."))
        return Written(redirect(url_for("evenings.show", evening_id=evening_id), 303))

    return write(make)


@bp.post("/language/<lang>")
def language(lang: str) -> Response:
    """Switch the pages' language and remember it."""
    if lang in LANGUAGES:
        session["lang"] = lang
    return redirect(safe_referrer(request.referrer, request.host), 303)


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The tab's icon, at the address browsers ask for whatever the page names; public,
    like the static files it is one of. A kilobyte and a half, sent from memory: no file
    stays open behind the answer."""
    folder = current_app.static_folder
    assert folder is not None  # the factory sets it
    response = Response(
        (Path(folder) / "favicon.ico").read_bytes(), mimetype="image/vnd.microsoft.icon"
    )
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response
