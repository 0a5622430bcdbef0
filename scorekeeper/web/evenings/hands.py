"""Pages that record, preview, undo, edit and void hands.

Every POST redirects (POST-redirect-GET); a new hand carries a one-time token and the
number it is entered as, so a double tap or a resent form records it once, and a stale
form records nothing over or under another hand (``docs/recording.md``).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale, gettext, ngettext
from markupsafe import Markup
from werkzeug.wrappers import Response

from scorekeeper import operations
from scorekeeper.core.ledger import HandResult
from scorekeeper.core.rules.base import ImplausibleHandError, InvalidInputError, Table
from scorekeeper.core.rules.rotation import seating_for
from scorekeeper.core.rules.variant import Variant
from scorekeeper.db.extensions import db
from scorekeeper.db.idempotency import MAX_KEY_LENGTH, StoredAnswer, fingerprint
from scorekeeper.db.kept import store
from scorekeeper.operations import carried_pots
from scorekeeper.web import access
from scorekeeper.web.errors import keeps_expired
from scorekeeper.web.evenings.hand_forms import hand_form
from scorekeeper.web.forms import chosen_id, number_or_text
from scorekeeper.web.jinja_filters import day
from scorekeeper.web.json_shapes import text
from scorekeeper.web.loading import view_or_404
from scorekeeper.web.tournament_tables import (
    correction_reason,
    needs_reason,
    note_correction,
)
from scorekeeper.web.writing import Answered, Key, Written, write

bp = Blueprint("hands", __name__, url_prefix="/evenings/<int:evening_id>/hands")


def new_form(current: operations.EveningView, formdata: object = None) -> object:
    """The entry form for the next hand, with a fresh one-time token and the number the
    hand is entered as (``docs/recording.md``)."""
    form = hand_form(current.variant).build(current.next_table, formdata=formdata)
    if not form.token.data:
        form.token.data = secrets.token_urlsafe(16)
    if not form.number.data:
        form.number.data = str(operations.next_number(current.evening))
    form.seats.data = seats_text(current.next_table)
    return form


#: Blank entry forms each app keeps, by language, game and table.
BLANK_FORMS_KEPT = 256


def blank_entry(current: operations.EveningView, form: object) -> Markup:
    """The fields of the table screen's blank entry form, rendered once per table.

    A blank form is the same HTML for every request at the same table (the players as
    buttons, the dealer the rotation proposes, the page's language): only its tokens
    differ, and they stand outside these fields. Rendering it is most of the table
    screen's work, and every tablet in the hall reloads its screen.
    """
    table = current.next_table
    key = (
        str(get_locale()),
        current.variant.game,
        current.variant.key,
        table.players,
        table.dealer,
    )
    kept: LRUCache[tuple[object, ...], Markup] = store(
        current_app, "blank_forms", lambda: LRUCache(BLANK_FORMS_KEPT)
    )
    if (fields := kept.get(key)) is None:
        fields = Markup(
            render_template(
                "_hand_form_fields.html",
                form=form,
                preview=True,
                submit=gettext("Save hand"),
                warnings=False,
                **form_context(current.variant, table),
            )
        )
        kept[key] = fields
    return fields


def form_context(variant: Variant, table: Table) -> dict[str, object]:
    """What the templates of a game's hand form need."""
    entry = hand_form(variant)
    return {
        "hand_template": entry.template,
        "summary_template": entry.summary_template,
        "hand_context": entry.context(table),
    }


@dataclass(frozen=True, slots=True)
class Conflict:
    """Why an entry sent as a new hand was not recorded: the hand it was entered as is
    stored already, as another entry (``docs/recording.md``, "Stale forms")."""

    #: The hand the entry was meant to be.
    number: int
    #: What is stored as that hand (None if it is not in the evening).
    saved: HandResult | None
    #: The number the entry gets when saved now.
    upcoming: int
    #: The table was changed since the entry was typed: who sits where must be checked.
    reseated: bool = False


def render_table(
    current: operations.EveningView,
    form: object,
    *,
    warnings: bool = False,
    conflict: Conflict | None = None,
    status: int = 200,
) -> tuple[str, int]:
    """The table screen with the given entry form."""
    page = render_template(
        "evenings/show.html",
        current=current,
        form=form,
        warnings=warnings,
        saved=None,
        conflict=conflict,
        refused=status in (400, 409, 422),
        **form_context(current.variant, current.next_table),
    )
    return page, status


#: Sent by the table screen's outbox (``static/table.js``): a saved hand is answered with
#: JSON instead of a redirect, so the outbox knows it is stored before it sends the next.
OUTBOX_HEADER = "X-Scorekeeper-Outbox"


def answer_saved(location: str, number: int) -> Response:
    """The answer to a hand stored (now or by the same entry before): the table screen
    with its receipt, or for the outbox the hand's number and that address."""
    if request.headers.get(OUTBOX_HEADER) == "1":
        return jsonify({"saved": number, "location": location})
    return redirect(location, 303)


#: Form fields that are not the entry: its protection, its key, the number it expects and
#: the seats it was typed for.
NOT_THE_ENTRY = {"csrf_token", "token", "number", "seats"}


def entry_as_sent() -> dict[str, list[str]]:
    """The entry as the form sent it, for its fingerprint: what the player chose, not
    what the evening made of it (a dealer left as proposed is proposed anew once the
    hand is stored, and must not make a double tap another entry)."""
    return {name: request.form.getlist(name) for name in request.form if name not in NOT_THE_ENTRY}


@bp.post("")
def create(evening_id: int) -> Response | tuple[str, int]:
    """Record the next hand from the table screen.

    The form's token is the entry's key: sent again with the same entry (a double tap, a
    reload, the outbox after a dropped answer) it gets the first answer; with another
    entry, or as a hand that another entry has become meanwhile, it gets the table
    screen saying so, with the entry kept (``render_conflict``).
    """
    token = request.form.get("token") or ""
    if len(token) > MAX_KEY_LENGTH:
        return refuse_token(evening_id)
    entry_print = fingerprint("POST", request.path, entry_as_sent())
    key = Key(f"evening:{evening_id}", access.requester(), f"page:{token}", entry_print)

    def repeated(stored: StoredAnswer, same: bool) -> Response | tuple[str, int]:
        saved_as = int(stored.body["hand"])
        if same:
            location = stored.location or url_for("evenings.show", evening_id=evening_id)
            return answer_saved(location, saved_as)
        return render_conflict(evening_id, saved_as)

    return write(
        lambda: record(evening_id),
        key=key if token else None,
        repeated=repeated,
        number_taken=lambda taken: render_conflict(evening_id, taken.expected),
        new_hand_in=evening_id,
    )


def refuse_token(evening_id: int) -> tuple[str, int]:
    """The table screen with the entry as typed, when its token is longer than any key is
    kept (``idempotency.MAX_KEY_LENGTH``, as the API's ``Idempotency-Key``): nothing is
    read into the request keys, and the entry gets a token of its own to save with."""
    current = view_or_404(evening_id)
    form = hand_form(current.variant).build(current.next_table, formdata=request.form)
    form.token.data = secrets.token_urlsafe(16)
    form.form_errors.append(
        gettext(
            "Nothing was saved: this entry's key is longer than %(n)s characters. Check "
            "the hand and tap Save once more.",
            n=MAX_KEY_LENGTH,
        )
    )
    return render_table(current, form, status=422)


def record(evening_id: int) -> Written[Response | tuple[str, int]]:
    """Check and store the entry as the evening's next hand; refused, the table screen
    shows the entry again with what to fix."""
    current = view_or_404(evening_id, for_writing=True)
    table = current.next_table
    entry = hand_form(current.variant)
    form = entry.build(table, formdata=request.form)
    if request.form.get("action") == "suggest" and entry.suggest(form, table):
        raise Answered(lambda: render_table(current, form))
    facts = entry.to_facts(form, table)
    if facts.get("dealer") == table.dealer:
        # The rotation's dealer, left as proposed: should another tablet record a hand
        # first, the rotation proposes anew instead of dealing to the same player twice.
        del facts["dealer"]
    # The number the form was rendered for, checked as the API checks a body's: ASCII
    # digits in range, anything else (an empty one included) refused in words. A form
    # without the field (a page from before it was sent) is not checked, as a body without.
    if "number" in request.form:
        facts["number"] = number_or_text(form.number.data or "")
    if form.seats.data and form.seats.data != seats_text(table):
        # Per-seat fields (a Misère's points) would land on other players.
        raise Answered(lambda: render_conflict(evening_id, None))
    try:
        hand, _ = operations.record_hand(current, facts, source="page")
    except ImplausibleHandError as warning:
        entry.place_errors(form, warning.warnings, text)
        raise Answered(lambda: render_table(current, form, warnings=True, status=422)) from None
    except InvalidInputError as error:
        entry.place_errors(form, error.errors, text)
        if "number" in error.errors:
            # Not the player's to fix: the entry is kept, ready to save as the next hand.
            form.number.data = str(operations.next_number(current.evening))
        raise Answered(lambda: render_table(current, form, status=422)) from None
    location = url_for("evenings.show", evening_id=evening_id, saved=hand.number)
    return Written(answer_saved(location, hand.number), ({"hand": hand.number}, 303, location))


def render_conflict(evening_id: int, number: int | None) -> tuple[str, int]:
    """The table screen after an entry met a hand stored as its number (``None``: the
    table it was typed for has changed): what is stored, and the entry as typed, ready to
    save as the next hand with one tap (a new token)."""
    current = view_or_404(evening_id)
    table = current.next_table
    upcoming = operations.next_number(current.evening)
    saved = next((r for r in current.ledger.hands if r.record.number == number), None)
    form = hand_form(current.variant).build(table, formdata=request.form)
    if saved is not None and form.dealer.data == saved.record.table.dealer:
        form.dealer.data = table.dealer  # that player has dealt: the rotation goes on
    form.token.data = secrets.token_urlsafe(16)
    form.number.data = str(upcoming)
    form.seats.data = seats_text(table)
    conflict = Conflict(number or upcoming, saved, upcoming, reseated=number is None)
    return render_table(current, form, conflict=conflict, status=409)


def seats_text(table: Table) -> str:
    """The table's players in their seats, as the entry form carries them: a form typed
    for other seats is not recorded for these (``docs/recording.md``)."""
    return json.dumps(list(table.players), ensure_ascii=False)


@keeps_expired("hands.create")
def keep_expired_entry(evening_id: int) -> tuple[str, int]:
    """The table screen with the entry as typed, after its page's form protection
    expired (a form left open over dinner) or its cookie was lost: nothing is saved, one
    tap on Save sends it again with a fresh protection (``docs/recording.md``)."""
    current = view_or_404(evening_id)
    form = hand_form(current.variant).build(current.next_table, formdata=request.form)
    if not form.token.data:
        form.token.data = secrets.token_urlsafe(16)
    form.form_errors.append(
        gettext(
            "Nothing was saved yet: this page was open a long time. Check the hand and tap "
            "Save once more."
        )
    )
    return render_table(current, form, status=400)


@bp.post("/preview")
def preview(evening_id: int) -> str:
    """What the hand being entered would pay, as an HTML fragment for the live preview."""
    current = view_or_404(evening_id)
    table = current.next_table
    entry = hand_form(current.variant)
    form = entry.build(table, formdata=request.form)
    problems: list[str] = []
    result = None
    try:
        _, replayed = operations.prepare_hand(current, entry.to_facts(form, table))
        result = replayed.ledger.hands[-1]
    except ImplausibleHandError as warning:
        problems = [text(m) for ms in warning.warnings.values() for m in ms]
    except InvalidInputError as error:
        problems = [text(m) for ms in error.errors.values() for m in ms]
    db.session.rollback()
    return render_template(
        "hands/_preview.html",
        contract=chosen_contract(form),
        result=result,
        problems=problems,
        tally=current.variant.keeps_tally,
        currency=current.evening.options.get("currency", ""),
    )


def chosen_contract(form: Any) -> str | None:
    """The label of the contract chosen in the form, as its button says it: the live result
    names it, so it stays in view in the Save bar when the page has moved the contract's
    row out of view to show the rest of the hand (docs/presentation.md)."""
    if "contract" not in form:  # Eisten-Stalden: a team, no contract to choose
        return None
    field = form["contract"]
    return next((str(c.label) for c in field.choices if c.value == field.data), None)


@bp.post("/<int:number>/undo")
def undo(evening_id: int, number: int) -> Response:
    """Take back the hand just saved, from the receipt that offered it: a void with the
    reason "undo". The receipt names the save (the hand's version); an Undo of any other
    save, or too late, is refused in words and voids nothing (``core.undo``)."""

    back = url_for("evenings.show", evening_id=evening_id)

    def refused(message: str) -> Callable[[], Response]:
        def answer() -> Response:
            flash(message, "warning")
            return redirect(back, 303)

        return answer

    version = chosen_id(request.form.get("version", ""))
    if version is None:
        return refused(
            gettext("This Undo is not from the receipt of a save, so nothing was taken back.")
        )()

    def make() -> Written[Response]:
        try:
            view_or_404(evening_id)
            operations.undo_hand(evening_id, number, version, source="page")
        except operations.UndoRefusedError as error:
            raise Answered(refused(text(error.message))) from None
        flash(gettext("Hand %(n)s was taken back. The deal goes back to its dealer.", n=number))
        return Written(redirect(back, 303))

    return write(make)


def hand_table(current: operations.EveningView, number: int) -> Table:
    """The table a stored hand was played at, with its dealer."""
    hand = operations.find_hand(current.evening, number)
    return Table(seating_for(current.seatings, number).players, hand.dealer_name)


def render_edit(
    current: operations.EveningView,
    number: int,
    form: object,
    *,
    warnings: bool = False,
    stale: bool = False,
    status: int = 200,
    correction_errors: tuple[str, ...] = (),
) -> tuple[str, int]:
    """The edit page of one hand with its revision history; ``stale``: the correction
    typed was made to an older version, shown beside the version stored now;
    ``correction_errors``: what is wrong with the organiser's reason, for its field."""
    evening = current.evening
    page = render_template(
        "hands/edit.html",
        current=current,
        hand=operations.find_hand(evening, number),
        history=operations.history_of(evening.id, number),
        form=form,
        warnings=warnings,
        stale=stale,
        correction_errors=correction_errors,
        # The later evening this one's pot went to: a correction here changes it too.
        carried_into=view_or_404(evening.carried_to).evening if evening.carried_to else None,
        **form_context(current.variant, hand_table(current, number)),
    )
    return page, status


@bp.get("/<int:number>/edit")
def edit(evening_id: int, number: int) -> tuple[str, int]:
    """Correct a hand: the form filled with what is stored, and its history."""
    current = view_or_404(evening_id)
    try:
        hand = operations.find_hand(current.evening, number)
    except operations.NotFoundError:
        abort(404)
    entry = hand_form(current.variant)
    table = hand_table(current, number)
    data = {**entry.from_facts(hand.input, table), "dealer": table.dealer}
    form = entry.build(table, data={**data, "version": str(hand.version)})
    return render_edit(current, number, form)


@bp.post("/<int:number>/edit")
def update(evening_id: int, number: int) -> Response | tuple[str, int]:
    """Save a corrected hand; a stale form shows what changed meanwhile."""
    shown = view_or_404(evening_id)
    evening = shown.evening
    try:
        table = hand_table(shown, number)
    except operations.NotFoundError:
        abort(404)
    entry = hand_form(shown.variant)
    form = entry.build(table, formdata=request.form)
    if request.form.get("action") == "suggest" and entry.suggest(form, table):
        return render_edit(shown, number, form)
    facts = entry.to_facts(form, table)
    facts.pop("dealer", None)  # a hand's dealer never moves
    version = form.version.data or ""
    facts["version"] = number_or_text(version)
    if needs_reason(evening, request.form.get("correction")):
        missing = gettext("Say why this finished table is corrected.")
        form.correction_errors = [missing]  # the summary links it to its field
        return render_edit(shown, number, form, correction_errors=(missing,), status=422)
    correction = correction_reason(evening, request.form.get("correction"))

    def stale() -> tuple[str, int]:
        now = view_or_404(evening_id)
        form.version.data = str(operations.find_hand(now.evening, number).version)
        return render_edit(now, number, form, stale=True, status=409)

    def make() -> Written[Response | tuple[str, int]]:
        # A correction saved by another tablet meanwhile, or while this one waited for the
        # evening's lock, makes the version sent stale, and the form says so.
        was = carried_on(evening_id)
        try:
            operations.replace_hand(evening_id, number, facts, source="page", correction=correction)
        except operations.StaleVersionError:
            raise Answered(stale) from None
        except ImplausibleHandError as warning:
            entry.place_errors(form, warning.warnings, text)
            raise Answered(
                lambda: render_edit(
                    view_or_404(evening_id), number, form, warnings=True, status=422
                )
            ) from None
        except InvalidInputError as error:
            entry.place_errors(form, error.errors, text)
            raise Answered(
                lambda: render_edit(view_or_404(evening_id), number, form, status=422)
            ) from None
        if correction:
            note_correction(evening, number, correction)
        flash(gettext("Hand %(n)s was corrected.", n=number))
        say_carried_change(evening_id, was)
        return Written(redirect(url_for("evenings.history", evening_id=evening_id), 303))

    return write(make)


def carried_on(evening_id: int) -> int | None:
    """The jetons the evening's pot passes to a later evening now (None: it passes none)."""
    link = carried_pots.link_from(evening_id)
    return link.pot if link is not None else None


def say_carried_change(evening_id: int, was: int | None) -> None:
    """Say on the next page when a correction or a void changed the pot a later evening
    took over: that evening's figures changed with it (docs/troggen.md §8)."""
    link = carried_pots.link_from(evening_id)
    if was is None or link is None or link.pot == was:
        return
    later = view_or_404(link.evening_id).evening
    flash(
        ngettext(
            "The pot carried into the evening of %(day)s is now %(num)s jeton; it was %(was)s.",
            "The pot carried into the evening of %(day)s is now %(num)s jetons; it was %(was)s.",
            link.pot,
            day=day(carried_pots.day_of(later)),
            was=was,
        )
    )


@keeps_expired("hands.update")
def keep_expired_correction(evening_id: int, number: int) -> tuple[str, int]:
    """The edit page with the correction as typed, after its form protection expired
    (see ``keep_expired_entry``)."""
    current = view_or_404(evening_id)
    try:
        table = hand_table(current, number)
    except operations.NotFoundError:
        abort(404)
    form = hand_form(current.variant).build(table, formdata=request.form)
    form.form_errors.append(
        gettext(
            "Nothing was saved yet: this page was open a long time. Check the correction and "
            "tap Save once more."
        )
    )
    return render_edit(current, number, form, status=400)


@bp.post("/<int:number>/void")
def void(evening_id: int, number: int) -> Response | tuple[str, int]:
    """Void a hand with a reason; it stays in the history, struck through."""
    reason = request.form.get("reason", "")

    history = url_for("evenings.history", evening_id=evening_id)
    edit_page = url_for("hands.edit", evening_id=evening_id, number=number)

    def back(url: str, warning: str) -> Callable[[], Response]:
        def answer() -> Response:
            flash(warning, "warning")
            return redirect(url, 303)

        return answer

    def make() -> Written[Response]:
        evening = view_or_404(evening_id).evening
        if needs_reason(evening, reason):
            raise Answered(
                back(edit_page, gettext("Say why this finished table's hand is voided."))
            )
        correction = correction_reason(evening, reason)
        was = carried_on(evening_id)
        try:
            operations.void_hand(
                evening_id, number, {"reason": reason}, source="page", correction=correction
            )
        except operations.NotFoundError:
            abort(404)
        except operations.AlreadyVoidError:
            raise Answered(
                back(history, gettext("Hand %(n)s is voided already.", n=number))
            ) from None
        except InvalidInputError as error:
            problems = " ".join(text(m) for ms in error.errors.values() for m in ms)
            raise Answered(back(edit_page, problems)) from None
        if correction:
            note_correction(evening, number, correction)
        flash(gettext("Hand %(n)s was voided.", n=number))
        say_carried_change(evening_id, was)
        return Written(redirect(history, 303))

    return write(make)
