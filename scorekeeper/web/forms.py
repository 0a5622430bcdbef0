"""Page forms (Flask-WTF, with CSRF) for evenings and the table's seating.

They only collect input; they hand it to the same operations as the JSON API, so a page
and the API refuse the same input with the same messages, shown here next to the fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date
from typing import Any

from flask import request
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, Field, HiddenField, RadioField, SelectField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # 3.3, stubs: 3.2
from wtforms.validators import Optional

from scorekeeper.core.rules.base import InvalidInputError, Message
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.validation import NAME_LENGTH, TEXT_LENGTH
from scorekeeper.operations.facts import EveningFacts
from scorekeeper.web.addresses import LARGEST
from scorekeeper.web.json_shapes import text
from scorekeeper.web.writing import Answered

#: Seats offered on the forms: enough for every game's largest table.
SEATS = 8


def picked_variant(allowed: Iterable[tuple[str, str]]) -> tuple[str, str]:
    """The game and variant picked on a form with a game list (a new evening, a tournament's
    set-up): the form's own choice wins over the address's, so the game shown when the form
    is sent is the game started. Anything not ``allowed`` reads as the first allowed."""
    chosen = request.form.get("variant") or request.args.get("variant") or ""
    game, _, key = chosen.partition("/")
    offered = list(allowed)
    return (game, key) if (game, key) in offered else offered[0]


def choice_list(pairs: Iterable[tuple[str, Any]]) -> list[SelectChoice]:
    """Choices for a select or radio field, in the shape WTForms asks for."""
    return [SelectChoice(value, label) for value, label in pairs]


def seat_fields(form: FlaskForm, count: int) -> list[Field]:
    """The form's seat fields, in playing order."""
    return [form[f"seat_{i}"] for i in range(count)]


def _add_seats(cls: type[FlaskForm], count: int, dealer_label: Any) -> None:
    for i in range(count):
        setattr(
            cls,
            f"seat_{i}",
            StringField(
                _l("Seat %(n)s", n=i + 1),
                render_kw={
                    "autocomplete": "off",
                    "list": "known-players",
                    "maxlength": NAME_LENGTH,
                },
            ),
        )
    cls.dealer_seat = RadioField(
        dealer_label,
        choices=choice_list((str(i), str(i + 1)) for i in range(count)),
        default="0",
        validate_choice=False,
    )


def seated_names(form: FlaskForm, count: int) -> tuple[list[str], str | None]:
    """The names typed in seat order, and the name in the dealer's seat (if any)."""
    names: list[str] = []
    dealer: str | None = None
    for i, field in enumerate(seat_fields(form, count)):
        name = (field.data or "").strip()
        if name:
            names.append(name)
            if form.dealer_seat.data == str(i):
                dealer = name
    return names, dealer


def add_settings(cls: type[FlaskForm], variant: Variant, render: Any, today: date | None) -> None:
    """Title, place, date and every house rule with its one-line explanation."""
    cls.title = StringField(_l("Title"), render_kw={"maxlength": TEXT_LENGTH})
    cls.place = StringField(_l("Place"), render_kw={"maxlength": TEXT_LENGTH})
    cls.date = DateField(_l("Date"), validators=[Optional()], default=today)
    for spec in variant.option_specs:
        label = render(spec.label)
        if spec.choices:
            field: Field = SelectField(
                label,
                choices=choice_list((value, render(m)) for value, m in spec.choices),
                default=spec.default_for({}),
                description=render(spec.help),
                validate_choice=False,
            )
        else:
            field = StringField(label, description=render(spec.help))
        setattr(cls, f"opt_{spec.key}", field)


#: What the new-evening form keeps when another game is chosen: who sits where, who deals
#: first, the title, date and place. The house rules become the new game's defaults.
KEPT_ON_GAME_CHANGE = ("title", "date", "place", "dealer_seat")


def typed_seats(formdata: Any) -> int:
    """How many seats the names typed into ``formdata`` reach (the last filled seat)."""
    filled = [i for i in range(SEATS) if (formdata.get(f"seat_{i}") or "").strip()]
    return filled[-1] + 1 if filled else 0


def new_evening_form(
    variant: Variant,
    render: Any,
    formdata: Any = None,
    today: date | None = None,
    *,
    seats: int = 0,
    groups: Sequence[tuple[str, str]] = (),
    pots: Sequence[tuple[str, str]] = (),
) -> FlaskForm:
    """The new-evening form for ``variant``: seats, first dealer, and every house rule.

    It has a seat for each player the game allows, or ``seats`` when more names were typed
    (for another game): a name is never dropped, and the count is refused with its reason.
    ``groups`` (number, name): the table groups the evening may join, none by default; the
    choice is left out when there are none. ``pots`` (number, label): the evenings whose
    carried pot it may take over (docs/troggen.md §8), likewise.
    """

    class Form(FlaskForm):  # type: ignore[misc]
        pass

    if groups:
        Form.group = SelectField(
            _l("Table group"),
            choices=choice_list([("", _l("No group")), *groups]),
            validate_choice=False,
            description=_l("The evening counts in this group's season table."),
        )

    if pots:
        Form.carried_from = SelectField(
            _l("Pot carried from an earlier evening"),
            choices=choice_list([("", _l("None")), *pots]),
            validate_choice=False,
            description=_l("The evening opens with that pot and joins that evening's group."),
        )

    count = max(min(SEATS, variant.max_players), min(SEATS, seats))
    add_settings(Form, variant, render, today)
    _add_seats(Form, count, _l("Deals first"))
    form = Form(formdata=formdata) if formdata is not None else Form()
    form.seat_count = count
    form.option_keys = [spec.key for spec in variant.option_specs]
    form.players_errors = []
    if formdata is None:
        for spec in variant.option_specs:
            if not spec.choices:
                form[f"opt_{spec.key}"].data = spec.default_for({"currency": "CHF"})
    return form


def game_changed_form(
    variant: Variant,
    render: Any,
    formdata: Any,
    today: date | None = None,
    groups: Sequence[tuple[str, str]] = (),
    pots: Sequence[tuple[str, str]] = (),
) -> FlaskForm:
    """The new-evening form for another game, keeping what was typed for the previous one
    (``KEPT_ON_GAME_CHANGE`` and the names), with the new game's house rules."""
    seats = typed_seats(formdata)
    typed = new_evening_form(
        variant, render, formdata=formdata, seats=seats, groups=groups, pots=pots
    )
    form = new_evening_form(variant, render, today=today, seats=seats, groups=groups, pots=pots)
    kept = (
        *KEPT_ON_GAME_CHANGE,
        *(["group"] if groups else []),
        *(["carried_from"] if pots else []),
    )
    for name in (*kept, *(f"seat_{i}" for i in range(form.seat_count))):
        form[name].data = typed[name].data
    return form


def settings_form(
    variant: Variant, render: Any, current: EveningFacts, formdata: Any = None
) -> FlaskForm:
    """Correct an evening's settings: title, place, date and house rules, at a version
    (``current``: the evening as stored, whose settings the form starts with)."""

    class Form(FlaskForm):  # type: ignore[misc]
        version = HiddenField()

    add_settings(Form, variant, render, None)
    if formdata is not None:
        form = Form(formdata=formdata)
    else:
        data: dict[str, object] = {f"opt_{k}": v for k, v in current.options.items()}
        data |= {
            "title": current.title,
            "place": current.place,
            "date": current.date,
            "version": str(current.version),
        }
        form = Form(data=data)
    form.option_keys = [spec.key for spec in variant.option_specs]
    form.players_errors = []
    return form


def number_or_text(value: str) -> int | str:
    """A form's number as a number when it is written in the digits 0 to 9 alone; anything
    else ("²", another script's digits, letters) as typed, for the operation to refuse in
    words rather than the page failing on it."""
    return int(value) if value.isascii() and value.isdigit() else value


def chosen_id(value: str) -> int | None:
    """The number of a row a form or an address chooses (a member, an evening), when it is
    written in the digits 0 to 9 alone and a database's id column can hold it; else None."""
    number = number_or_text(value)
    return number if isinstance(number, int) and 0 < number <= LARGEST else None


def settings_body(form: FlaskForm) -> dict[str, object]:
    """The form as the API's body for correcting settings."""
    version = form.version.data or ""
    return {
        "version": number_or_text(version),
        "title": form.title.data or "",
        "place": form.place.data or "",
        "date": form.date.data.isoformat() if form.date.data else None,
        "options": {key: form[f"opt_{key}"].data or "" for key in form.option_keys},
    }


def new_evening_body(form: FlaskForm, variant: Variant) -> dict[str, object]:
    """The form as the API's body for a new evening."""
    names, dealer = seated_names(form, form.seat_count)
    return {
        "game": variant.game,
        "variant": variant.key,
        "title": form.title.data or "",
        "place": form.place.data or "",
        "date": form.date.data.isoformat() if form.date.data else None,
        "players": names,
        "first_dealer": dealer or (names[0] if names else None),
        "options": {key: form[f"opt_{key}"].data or None for key in form.option_keys},
        **chosen(form, "group"),
        **chosen(form, "carried_from"),
    }


def chosen(form: FlaskForm, field: str) -> dict[str, object]:
    """The choice of ``field`` (the table group, the carried pot), as the body's key of
    that name (none chosen or none offered: left out); what is not a number is passed on
    as typed, for the operation to refuse."""
    if field not in form or not form[field].data:
        return {}
    value = str(form[field].data)
    return {field: chosen_id(value) or value}


def seating_form(
    players: Sequence[str], dealer: str, count: int, formdata: Any = None
) -> FlaskForm:
    """Change the table: the seats in playing order and who deals next."""

    class Form(FlaskForm):  # type: ignore[misc]
        pass

    _add_seats(Form, count, _l("Deals next"))
    if formdata is not None:
        form = Form(formdata=formdata)
    else:
        data = {f"seat_{i}": name for i, name in enumerate(players)}
        form = Form(data={**data, "dealer_seat": str(players.index(dealer))})
    form.seat_count = count
    form.players_errors = []
    return form


@contextmanager
def refused_at_fields(
    form: FlaskForm,
    refused: Callable[[], Any],
    fields: Callable[[Mapping[str, tuple[Message, ...]]], Mapping[str, tuple[Message, ...]]]
    | None = None,
) -> Iterator[None]:
    """Within a write (``writing.write``), run what the ``with`` block asks of the
    operations; refused, their messages stand next to the form's fields (named by
    ``fields`` where the page names them otherwise) and the write ends, rolled back, with
    ``refused()``: the form again, with what to fix."""
    try:
        yield
    except InvalidInputError as error:
        errors = fields(error.errors) if fields is not None else error.errors
        place_errors(form, errors, text)
        raise Answered(refused) from None


def place_errors(form: FlaskForm, errors: Mapping[str, Iterable[Message]], render: Any) -> None:
    """Put the operations' per-field messages next to the page's fields."""
    for key, messages in errors.items():
        texts = [render(m) for m in messages]
        name = key.replace("options.", "opt_")
        if key == "players":
            form.players_errors.extend(texts)
        elif key in ("first_dealer", "dealer"):
            form.dealer_seat.errors = [*form.dealer_seat.errors, *texts]
        elif name in form:
            form[name].errors = [*form[name].errors, *texts]
        else:
            form.form_errors.extend(texts)
