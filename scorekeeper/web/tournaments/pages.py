"""The organiser's pages: set-up, registration, rounds, the progress board, standings.

Every page but the login and the projector needs the organiser's login (checked in
``web/guard.py``). Each POST redirects; refusals show the operations' messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from functools import partial

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext
from sqlalchemy import select
from werkzeug.wrappers import Response

from scorekeeper.core.rules import VARIANTS, get_variant
from scorekeeper.core.rules.base import InvalidInputError, Message
from scorekeeper.core.standings_texts import scoring_rule
from scorekeeper.db.extensions import db
from scorekeeper.db.tournament_models import Tournament, TournamentEvent
from scorekeeper.operations import StaleVersionError, tournament_setup
from scorekeeper.operations import tournament_rounds as rounds_ops
from scorekeeper.operations.tournament_results import (
    round_states,
    table_states,
    tournament_standings,
)
from scorekeeper.operations.tournament_rounds import seat_names
from scorekeeper.web import access
from scorekeeper.web.evenings.presentation import house_rules
from scorekeeper.web.forms import chosen_id, picked_variant, refused_at_fields
from scorekeeper.web.json_shapes import text
from scorekeeper.web.redirects import safe_next
from scorekeeper.web.tournaments import logbook, printing
from scorekeeper.web.tournaments.api import check_password, load, load_round
from scorekeeper.web.tournaments.forms import (
    EntrantForm,
    LoginForm,
    SwapForm,
    game_changed_setup_form,
    setup_body,
    setup_form,
)
from scorekeeper.web.writing import Answered, Written, write

bp = Blueprint("tournaments", __name__, url_prefix="/tournaments")


@bp.after_request
def forms_sent_back_are_not_kept(response: Response) -> Response:
    """A form sent back (an error, another game chosen) holds the password just typed: the
    browser keeps no copy of it, in its cache or its history."""
    if request.method == "POST" and response.status_code not in (301, 302, 303, 307, 308):
        response.headers["Cache-Control"] = "no-store"
    return response


#: Seconds each page of the projector's standings stays up before the next one (or,
#: with one page, before it refreshes).
SCREEN_REFRESH = 20
#: Lines on one page of the projector: readable from the back of a hall.
SCREEN_LINES = 20


def tournament_variants() -> dict[tuple[str, str], object]:
    """The variants a tournament can play: every one that keeps a score."""
    return {key: v for key, v in VARIANTS.items() if not v.keeps_tally}


def chosen_variant() -> tuple[str, str]:
    """The game and variant picked on the page's form (``forms.picked_variant``)."""
    return picked_variant(tournament_variants())


@bp.get("")
def index() -> str:
    """Every tournament, newest first, and a button to set one up."""
    found = db.session.scalars(select(Tournament).order_by(Tournament.id.desc())).all()
    return render_template("tournaments/index.html", tournaments=found)


@bp.get("/new")
def new() -> str:
    """The set-up form."""
    variant = get_variant(*chosen_variant())
    form = setup_form(variant, text)
    form.date.data = datetime.now(UTC).date()
    return render_template(
        "tournaments/setup.html", form=form, variant=variant, games=tournament_variants()
    )


@bp.post("")
def create() -> Response | str | tuple[str, int]:
    """Set up a tournament; whoever sets it up is its organiser on this device. After
    another game was chosen in the form, first show that game's house rules, the rest
    kept."""
    chosen = chosen_variant()
    variant = get_variant(*chosen)
    if request.form.get("shown", "/".join(chosen)) != "/".join(chosen):
        form = game_changed_setup_form(variant, text, request.form)
        return render_template(
            "tournaments/setup.html",
            form=form,
            variant=variant,
            games=tournament_variants(),
            changed=True,
        )
    form = setup_form(variant, text, formdata=request.form)
    form.validate()

    def refused() -> tuple[str, int]:
        page = render_template(
            "tournaments/setup.html", form=form, variant=variant, games=tournament_variants()
        )
        return page, 422

    def make() -> Written[Response | tuple[str, int]]:
        with refused_at_fields(form, refused, _named):
            body = {**setup_body(form, variant, frozen=False), "language": str(get_locale())}
            body["password"] = form.password.data or ""
            tournament = tournament_setup.create_tournament(body)
        access.grant_organiser(tournament.id)
        flash(gettext("The tournament is set up. Register the players next."))
        return Written(redirect(url_for("tournaments.players", tournament_id=tournament.id), 303))

    return write(make)


def _named(errors: Mapping[str, tuple[Message, ...]]) -> dict[str, tuple[Message, ...]]:
    """The set-up's ``name`` is the form's ``title`` field."""
    return {("title" if k == "name" else k): v for k, v in errors.items()}


@bp.get("/<int:tournament_id>/login")
def login_form(tournament_id: int) -> str:
    """The organiser's login."""
    tournament = load(tournament_id)
    form = LoginForm(data={"next": safe_next(request.args.get("next"), fallback="")})
    return render_template("tournaments/login.html", tournament=tournament, form=form)


@bp.post("/<int:tournament_id>/login")
def login(tournament_id: int) -> Response | tuple[str, int]:
    """Check the password; a wrong one is counted, and too many make the device wait."""
    tournament = load(tournament_id)
    form = LoginForm(formdata=request.form)
    if not form.validate():
        return render_template("tournaments/login.html", tournament=tournament, form=form), 400

    def refused(error: access.AccessDeniedError | access.TooManyAttemptsError) -> tuple[str, int]:
        message, status = access.refusal(error)
        form.password.errors = [message]
        return render_template("tournaments/login.html", tournament=tournament, form=form), status

    def make() -> Written[Response | tuple[str, int]]:
        try:
            check_password(tournament, form.password.data, f"tournament:{tournament.id}")
        except (access.AccessDeniedError, access.TooManyAttemptsError) as error:
            raise Answered(partial(refused, error)) from None
        access.grant_organiser(tournament.id)
        target = safe_next(form.next.data, url_for("tournaments.show", tournament_id=tournament.id))
        return Written(redirect(target, 303))

    return write(make)


@bp.post("/<int:tournament_id>/logout")
def logout(tournament_id: int) -> Response:
    """End the login on this device (before handing the laptop to someone else): its
    session, and every token issued in it, on every worker."""

    def make() -> Written[Response]:
        access.log_out()
        flash(gettext("Logged out."))
        return Written(
            redirect(url_for("tournaments.login_form", tournament_id=tournament_id), 303)
        )

    return write(make)


@bp.get("/<int:tournament_id>")
def show(tournament_id: int) -> str:
    """The organiser's board: the round under way, its tables' progress, what to do next."""
    tournament = load(tournament_id)
    current = rounds_ops.current_round(tournament)
    states = table_states(current) if current and current.started_at else []
    present = len(rounds_ops.drawable(tournament, current.number + 1 if current else 1))
    return render_template(
        "tournaments/show.html",
        tournament=tournament,
        current=current,
        states=states,
        present=present,
        names=seat_names(tournament),
        variant=get_variant(tournament.game, tournament.variant),
    )


@bp.get("/<int:tournament_id>/players")
def players(tournament_id: int) -> str:
    """Registration and check-in at the desk."""
    tournament = load(tournament_id)
    return render_template("tournaments/players.html", tournament=tournament, form=EntrantForm())


@bp.post("/<int:tournament_id>/players")
def register(tournament_id: int) -> Response | tuple[str, int]:
    """Register a player; the form stays ready for the next one."""
    form = EntrantForm(formdata=request.form)
    form.validate()
    body = {
        "name": form.name.data or "",
        "club": form.club.data or "",
        "number": (form.number.data or "").strip() or None,
        "present": bool(form.present.data),
    }

    def refused() -> tuple[str, int]:
        page = render_template(
            "tournaments/players.html", tournament=load(tournament_id), form=form
        )
        return page, 422

    def make() -> Written[Response | tuple[str, int]]:
        with refused_at_fields(form, refused):
            entrant = tournament_setup.register(load(tournament_id), body)
        flash(gettext("%(name)s has start number %(n)s.", name=entrant.name, n=entrant.number))
        namesakes = [
            e.number
            for e in entrant.tournament.entrants
            if e is not entrant and e.name.casefold() == entrant.name.casefold()
        ]
        if namesakes:
            # Names may repeat (two Anna Meier); a name typed twice by mistake must be seen.
            flash(
                gettext(
                    "%(name)s was registered already, with start number %(n)s. Two players of "
                    "that name are told apart by their numbers; if it is the same person, let "
                    "the new number drop out.",
                    name=entrant.name,
                    n=", ".join(str(n) for n in sorted(namesakes)),
                ),
                "warning",
            )
        players_page = url_for("tournaments.players", tournament_id=tournament_id)
        return Written(redirect(players_page + "#register", 303))

    return write(make)


#: What each button of the players page changes.
ENTRANT_CHANGES: dict[str, dict[str, bool]] = {
    "check_in": {"present": True},
    "check_out": {"present": False},
    "drop": {"dropped": True},
    "return": {"dropped": False, "present": True},
}


#: What the page says after each button, so a tap is seen to have worked (and a drop-out
#: how to undo it).
ENTRANT_CHANGED: dict[str, Callable[[str], str]] = {
    "check_in": lambda name: gettext("%(name)s is here.", name=name),
    "check_out": lambda name: gettext(
        "%(name)s is not here: not drawn until checked in.", name=name
    ),
    "drop": lambda name: gettext(
        "%(name)s drops out: not drawn again. Plays again brings them back.", name=name
    ),
    "return": lambda name: gettext("%(name)s plays again.", name=name),
}


@bp.post("/<int:tournament_id>/players/<int:number>")
def change_player(tournament_id: int, number: int) -> Response:
    """Check in or out, drop out or return (one button each)."""
    change = request.form.get("change")

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        entrant = tournament_setup.find_entrant(tournament, number)
        if entrant is None:
            abort(404)
        if change not in ENTRANT_CHANGES:
            abort(400)
        tournament_setup.change_entrant(tournament, entrant, ENTRANT_CHANGES[change])
        flash(ENTRANT_CHANGED[change](entrant.name))
        players_page = url_for("tournaments.players", tournament_id=tournament_id)
        return Written(redirect(players_page + f"#p{number}", 303))

    return write(make)


@bp.get("/<int:tournament_id>/settings")
def settings(tournament_id: int) -> str:
    """Correct the set-up (before the first round: everything; after: name, place, date)."""
    tournament = load(tournament_id)
    variant = get_variant(tournament.game, tournament.variant)
    form = setup_form(variant, text, current=tournament)
    return render_template(
        "tournaments/settings.html",
        tournament=tournament,
        form=form,
        variant=variant,
        house_rules=house_rules(variant, tournament.options),
    )


@bp.post("/<int:tournament_id>/settings")
def update_settings(tournament_id: int) -> Response | tuple[str, int]:
    """Save the set-up; a stale form or a frozen field is refused with the reason."""
    tournament = load(tournament_id)
    variant = get_variant(tournament.game, tournament.variant)
    form = setup_form(variant, text, formdata=request.form)
    form.validate()

    def refused() -> tuple[str, int]:
        tournament = load(tournament_id)
        page = render_template(
            "tournaments/settings.html",
            tournament=tournament,
            form=form,
            variant=variant,
            house_rules=house_rules(variant, tournament.options),
        )
        return page, 422

    def stale() -> tuple[str, int]:
        form.form_errors.append(
            gettext("Someone changed the set-up meanwhile. Reload the page and try again.")
        )
        return refused()

    def make() -> Written[Response | tuple[str, int]]:
        tournament = load(tournament_id)
        try:
            with refused_at_fields(form, refused, _named):
                body = setup_body(form, variant, frozen=tournament.frozen_at is not None)
                tournament_setup.update_tournament(tournament, body)
        except StaleVersionError:
            raise Answered(stale) from None
        flash(gettext("The set-up was saved."))
        return Written(redirect(url_for("tournaments.show", tournament_id=tournament_id), 303))

    return write(make)


@bp.post("/<int:tournament_id>/rounds")
def draw(tournament_id: int) -> Response:
    """Draw the next round."""

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        round_ = rounds_ops.draw_next(tournament)
        return Written(redirect(_round_url(tournament, round_.number), 303))

    return write(make)


def _round_url(tournament: Tournament, number: int) -> str:
    return url_for("tournaments.round_page", tournament_id=tournament.id, number=number)


@bp.get("/<int:tournament_id>/rounds/<int:number>")
def round_page(tournament_id: int, number: int) -> str:
    """A round: the draw with swaps and start before it starts, then the table board."""
    tournament = load(tournament_id)
    round_ = load_round(tournament, number)
    states = table_states(round_) if round_.started_at else []
    return render_template(
        "tournaments/round.html",
        tournament=tournament,
        round=round_,
        states=states,
        names=seat_names(tournament),
        form=SwapForm(),
        late=rounds_ops.unfinished(round_) if round_.started_at else [],
        gone=[] if round_.started_at else rounds_ops.gone_since_draw(tournament, round_),
    )


@bp.post("/<int:tournament_id>/rounds/<int:number>/redraw")
def redraw(tournament_id: int, number: int) -> Response:
    """Draw the round again (after late check-ins), before it starts."""

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        rounds_ops.redraw(tournament, load_round(tournament, number))
        flash(gettext("Round %(n)s was drawn again.", n=number))
        return Written(redirect(_round_url(tournament, number), 303))

    return write(make)


@bp.post("/<int:tournament_id>/rounds/<int:number>/swap")
def swap(tournament_id: int, number: int) -> Response | tuple[str, int]:
    """Swap two players before the round starts."""
    form = SwapForm(formdata=request.form)
    form.validate()

    def refused() -> tuple[str, int]:
        tournament = load(tournament_id)
        page = render_template(
            "tournaments/round.html",
            tournament=tournament,
            round=load_round(tournament, number),
            states=[],
            names=seat_names(tournament),
            form=form,
            late=[],
        )
        return page, 422

    def make() -> Written[Response | tuple[str, int]]:
        tournament = load(tournament_id)
        round_ = load_round(tournament, number)
        with refused_at_fields(form, refused):
            rounds_ops.swap_players(tournament, round_, {"a": form.a.data, "b": form.b.data})
        flash(
            gettext("Start numbers %(a)s and %(b)s swapped places.", a=form.a.data, b=form.b.data)
        )
        return Written(redirect(_round_url(tournament, number), 303))

    return write(make)


def _back_to(url: str, warning: str) -> Callable[[], Response]:
    """How to answer a refused round change: back to ``url``, with ``warning``."""

    def answer() -> Response:
        flash(warning, "warning")
        return redirect(url, 303)

    return answer


@bp.post("/<int:tournament_id>/rounds/<int:number>/start")
def start(tournament_id: int, number: int) -> Response:
    """Start the round: the tables get their codes and can play."""

    done: list[bool] = []

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        back = _round_url(tournament, number)
        try:
            rounds_ops.start_round(tournament, load_round(tournament, number))
        except rounds_ops.RoundStateError as error:
            raise Answered(_back_to(back, text(error.message))) from None
        flash(gettext("Round %(n)s has started. Hand out the table cards.", n=number))
        done.append(True)
        return Written(redirect(back, 303))

    response = write(make)
    if done:
        printing.print_round_ahead(tournament_id, number, closed=False)
    return response


@bp.post("/<int:tournament_id>/rounds/<int:number>/close")
def close(tournament_id: int, number: int) -> Response:
    """Close the round; unfinished tables only with the confirmation box ticked."""
    confirm = request.form.get("confirm") == "yes"

    done: list[bool] = []

    def make() -> Written[Response]:
        tournament = load(tournament_id)
        try:
            rounds_ops.close_round(tournament, load_round(tournament, number), confirm=confirm)
        except InvalidInputError as error:
            problems = " ".join(text(m) for ms in error.errors.values() for m in ms)
            raise Answered(_back_to(_round_url(tournament, number), problems)) from None
        flash(gettext("Round %(n)s is closed.", n=number))
        done.append(True)
        return Written(redirect(url_for("tournaments.show", tournament_id=tournament_id), 303))

    response = write(make)
    if done:
        printing.print_round_ahead(tournament_id, number, closed=True)
    return response


@bp.get("/<int:tournament_id>/standings")
def standings(tournament_id: int) -> str:
    """The organiser's standings: every round, the result per hand and the tie breaks."""
    tournament = load(tournament_id)
    states = round_states(tournament)
    return render_template(
        "tournaments/standings.html",
        tournament=tournament,
        lines=tournament_standings(tournament, states),
        round_numbers=sorted(states),
        rule=text(scoring_rule(tournament.scoring)),
    )


@bp.get("/<int:tournament_id>/screen")
def screen(tournament_id: int) -> str:
    """The projector: large standings that refresh themselves; no controls, no login.

    A long list is shown a page at a time, each page moving on to the next by itself.
    """
    tournament = load(tournament_id)
    states = round_states(tournament)
    lines = tournament_standings(tournament, states)
    pages = max(1, -(-len(lines) // SCREEN_LINES))
    asked = request.args.get("page", "1")
    number = chosen_id(asked)
    page = number if number is not None and number <= pages else 1
    return render_template(
        "tournaments/screen.html",
        tournament=tournament,
        lines=lines[(page - 1) * SCREEN_LINES : page * SCREEN_LINES],
        first=(page - 1) * SCREEN_LINES + 1,
        total=len(lines),
        page=page,
        pages=pages,
        next_page=page % pages + 1,
        rule=text(scoring_rule(tournament.scoring)),
        refresh=SCREEN_REFRESH,
        playing=sum(1 for r in states.values() for s in r if not s.finished),
    )


@bp.get("/<int:tournament_id>/log")
def log(tournament_id: int) -> str:
    """Every organiser action, newest first: draws, swaps, check-ins, closes, corrections."""
    tournament = load(tournament_id)
    events = db.session.scalars(
        select(TournamentEvent)
        .where(TournamentEvent.tournament_id == tournament.id)
        .order_by(TournamentEvent.id.desc())
    ).all()
    names = logbook.names_of(tournament)
    entries = [(e, logbook.describe(e, names)) for e in events]
    return render_template("tournaments/log.html", tournament=tournament, entries=entries)
