"""What every game's hand form shares: the dealer, the confirmation of implausible facts,
the one-time token and the version being edited; per-player Misère fields; and putting
the rules core's messages next to the right fields."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, SelectField, StringField

from scorekeeper.core.rules.base import Message, Table
from scorekeeper.web.forms import choice_list

#: The rules' refusal of a value outside a choice, with the keys it allows.
CHOOSE_ONE_OF = "Choose one of: {choices}."

#: Number fields open the tablet's numeric keyboard.
NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}


class HandFormBase(FlaskForm):  # type: ignore[misc]
    """The fields of the shell, beside the game's facts (the dealer is added per table)."""

    confirm = BooleanField(_l("The count is right: save anyway"))
    token = HiddenField()
    #: The number a new hand was entered as, and the seats it was typed for
    #: (``docs/recording.md``, "The table screen").
    number = HiddenField()
    seats = HiddenField()
    version = HiddenField()


def instantiate(
    form_class: type[HandFormBase],
    table: Table,
    formdata: Any,
    data: Mapping[str, Any] | None,
    *,
    misere: bool,
) -> FlaskForm:
    """The form, with the table's players as dealers and, if asked, a points field each.

    ``form_class`` is made afresh for each form (its fields depend on the table), so adding
    fields to it here touches no other form.
    """
    # The rotation's dealer is the default; the table may pick another seated player.
    form_class.dealer = SelectField(
        _l("Dealer"),
        choices=choice_list((p, p) for p in table.players),
        default=table.dealer,
        validate_choice=False,
    )
    if misere:
        for i, player in enumerate(table.players):
            setattr(form_class, f"misere_{i}", StringField(player, render_kw=NUMERIC))
    form = form_class(data=data) if formdata is None else form_class(formdata=formdata)
    form.misere_errors = []
    form.misere_fields = [form[f"misere_{i}"] for i in range(table.size)] if misere else []
    return form


def misere_points(form: FlaskForm, table: Table) -> dict[str, object]:
    """The Misère's points per player as typed (empty ones as None, for the core to name)."""
    return {
        p: (form[f"misere_{i}"].data or "").strip() or None for i, p in enumerate(table.players)
    }


def shell_facts(form: FlaskForm) -> dict[str, object]:
    """The dealer and the confirmation, which the operations take beside the facts."""
    facts: dict[str, object] = {}
    if form.dealer.data:
        facts["dealer"] = form.dealer.data
    if form.confirm.data:
        facts["confirm"] = True
    return facts


def place_errors(
    form: FlaskForm,
    errors: Mapping[str, tuple[Message, ...]],
    render: Any,
    *,
    misere: bool = False,
    aliases: Mapping[str, str] | None = None,
) -> None:
    """Show each message at its field.

    ``points.<name>`` goes to that player's Misère field, ``points`` of a Misère above
    them; nested body keys (``kontra.pagat``) land on ``kontra_pagat``; ``aliases`` maps a
    body key (or the start of one, such as ``penalties``) to the form field that asks it.
    """
    by_player = {f"points.{field.label.text}": field for field in form.misere_fields}
    aliases = aliases or {}
    for key, messages in errors.items():
        texts = [render(m) for m in messages]
        field = getattr(form, key, None)
        if isinstance(field, RadioField) and not field.data:
            # Nothing tapped: the buttons are the choices, and the rules' list of their
            # keys ("einfach, doppelt…") means nothing at the table.
            texts = [
                gettext("Tap one of the buttons.") if m.text == CHOOSE_ONE_OF else t
                for m, t in zip(messages, texts, strict=True)
            ]
        name = next((f for k, f in aliases.items() if key == k or key.startswith(k + ".")), None)
        name = name or key.replace(".", "_")
        if key in by_player:
            # Named: the same message at several players' fields, or in a list of the
            # form's errors, must still say whose points to fix.
            player = by_player[key].label.text
            named = [gettext("%(player)s: %(problem)s", player=player, problem=t) for t in texts]
            by_player[key].errors = [*by_player[key].errors, *named]
        elif key == "points" and misere:
            form.misere_errors.extend(texts)
        elif name in form and name not in ("token", "number", "seats", "version"):
            form[name].errors = [*form[name].errors, *texts]
        else:
            form.form_errors.extend(texts)
