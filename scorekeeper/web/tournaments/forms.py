"""Page forms for tournaments: set-up, login, registration, a swap, closing a round.

Like the evening forms, they only collect input and hand it to the same operations as the
JSON API, whose messages are then shown beside the fields.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectField,
    StringField,
)
from wtforms.validators import Optional
from wtforms.widgets import PasswordInput

from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.validation import NAME_LENGTH, TEXT_LENGTH
from scorekeeper.db.tournament_models import Tournament
from scorekeeper.operations.tournament_setup import (
    MAX_DEALS,
    MAX_ROUNDS,
    MAX_START_NUMBER,
    NAME_OF_TOURNAMENT_LENGTH,
)
from scorekeeper.web.forms import add_settings, choice_list, number_or_text


def setup_form(
    variant: Variant, render: Any, formdata: Any = None, current: Tournament | None = None
) -> FlaskForm:
    """The set-up: name, place, date, house rules, rounds, deals, scoring, password."""

    class Form(FlaskForm):  # type: ignore[misc]
        version = HiddenField()
        rounds = IntegerField(
            _l("Rounds"),
            validators=[Optional()],
            default=4,
            render_kw={"min": 1, "max": MAX_ROUNDS, "inputmode": "numeric"},
        )
        deals_per_player = IntegerField(
            _l("Deals per player per round"),
            validators=[Optional()],
            default=2,
            description=_l(
                "A table of 4 then plays 4 times this many hands, a table of 5, 5 times."
            ),
            render_kw={"min": 1, "max": MAX_DEALS, "inputmode": "numeric"},
        )
        scoring = SelectField(
            _l("Scoring"),
            choices=choice_list(
                [
                    ("sum", _l("Sum of the round results")),
                    ("rank", _l("Table rank points per round")),
                ]
            ),
            validate_choice=False,
        )
        # Kept in the form when it comes back (an error, another game): the organiser
        # typed it on this device a moment ago, and an emptied field is easily missed.
        password = PasswordField(
            _l("Organiser password"),
            description=_l("At least 6 characters. You need it to run the rounds."),
            render_kw={"autocomplete": "new-password"},
            widget=PasswordInput(hide_value=False),
        )

    add_settings(Form, variant, render, None)
    Form.title = StringField(
        _l("Name of the tournament"), render_kw={"maxlength": NAME_OF_TOURNAMENT_LENGTH}
    )
    if formdata is not None:
        form = Form(formdata=formdata)
    elif current is not None:
        data: dict[str, object] = {f"opt_{k}": v for k, v in current.options.items()}
        data |= {
            "title": current.name,
            "place": current.place,
            "date": current.date,
            "rounds": current.rounds,
            "deals_per_player": current.deals_per_player,
            "scoring": current.scoring,
            "version": str(current.version),
        }
        form = Form(data=data)
    else:
        form = Form()
        for spec in variant.option_specs:
            if not spec.choices:
                form[f"opt_{spec.key}"].data = spec.default_for({"currency": "CHF"})
            elif spec.key == variant.end_rule_option:
                form[f"opt_{spec.key}"].data = "split"
    rule = variant.end_rule_option
    if rule is not None:
        # Every table ends with its round: a pot carried on to a next evening is refused
        # (operations.tournament_setup), so it is not offered either.
        field = form[f"opt_{rule}"]
        field.choices = [c for c in field.choices if c.value != "carry"]
    form.option_keys = [spec.key for spec in variant.option_specs]
    form.players_errors = []
    return form


#: What the set-up keeps when another game is chosen in it: all but the house rules.
KEPT_ON_GAME_CHANGE = (
    "title",
    "date",
    "place",
    "rounds",
    "deals_per_player",
    "scoring",
    "password",
)


def game_changed_setup_form(variant: Variant, render: Any, formdata: Any) -> FlaskForm:
    """The set-up for another game: what was typed for the previous one, with the new
    game's house rules (the ones sent were the other game's)."""
    typed = setup_form(variant, render, formdata=formdata)
    form = setup_form(variant, render)
    for name in KEPT_ON_GAME_CHANGE:
        form[name].data = typed[name].data
    return form


def setup_body(form: FlaskForm, variant: Variant, *, frozen: bool) -> dict[str, object]:
    """The form as the API's body; a frozen set-up sends only what may still change."""
    body: dict[str, object] = {
        "name": form.title.data or "",
        "place": form.place.data or "",
        "date": form.date.data.isoformat() if form.date.data else None,
    }
    if not frozen:
        body |= {
            "game": variant.game,
            "variant": variant.key,
            "options": {key: form[f"opt_{key}"].data or None for key in form.option_keys},
            "rounds": form.rounds.raw_data[0] if form.rounds.raw_data else None,
            "deals_per_player": (
                form.deals_per_player.raw_data[0] if form.deals_per_player.raw_data else None
            ),
            "scoring": form.scoring.data,
        }
    if form.password.data:
        body["password"] = form.password.data
    if form.version.data:
        version = form.version.data
        body["version"] = number_or_text(version)
    return body


class LoginForm(FlaskForm):  # type: ignore[misc]
    """The organiser's password."""

    password = PasswordField(
        _l("Organiser password"), render_kw={"autocomplete": "current-password"}
    )
    next = HiddenField()


class EntrantForm(FlaskForm):  # type: ignore[misc]
    """Register a player at the desk."""

    name = StringField(_l("Name"), render_kw={"maxlength": NAME_LENGTH, "autocomplete": "off"})
    club = StringField(_l("Club or town (optional)"), render_kw={"maxlength": TEXT_LENGTH})
    number = StringField(
        _l("Start number (optional)"),
        description=_l("Leave empty for the next free number."),
        render_kw={"inputmode": "numeric", "maxlength": len(str(MAX_START_NUMBER))},
    )
    present = BooleanField(_l("Here now (checked in)"), default=True)


class SwapForm(FlaskForm):  # type: ignore[misc]
    """Swap two players of a drawn round by start number."""

    a = StringField(_l("Start number"), render_kw={"inputmode": "numeric", "maxlength": 5})
    b = StringField(
        _l("swaps with start number"), render_kw={"inputmode": "numeric", "maxlength": 5}
    )
