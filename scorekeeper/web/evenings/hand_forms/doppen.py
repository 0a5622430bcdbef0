"""The Doppen hand form, in the two steps the table goes through: before play (contract,
soloist, announcements, Kontra and Re per component) and after play (points or Valat,
Pagat and Uhu, Trull, Könige, revokes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    RadioField,
    SelectMultipleField,
    StringField,
)
from wtforms.widgets import CheckboxInput, ListWidget

from scorekeeper.core.rules.base import Message, Table
from scorekeeper.core.rules.doppen_hand import KONTRA_KEYS, TOTAL_POINTS
from scorekeeper.core.rules.variant import Variant
from scorekeeper.web.evenings.hand_forms.common import (
    NUMERIC,
    HandFormBase,
    instantiate,
    place_errors,
    shell_facts,
)
from scorekeeper.web.forms import choice_list, number_or_text

CONTRACTS = [
    ("dreier", "Dreier"),
    ("unterer", "Unterer"),
    ("zweier", "Zweier"),
    ("einer", "Einer"),
    ("solo", "Solo"),
    ("pass", _l("All passed")),
]
DOUBLINGS = [
    ("0", _l("none")),
    ("1", "Kontra"),
    ("2", "Re"),
    ("3", "Subkontra"),
    ("4", _l("4th doubling (16 times)")),
    ("5", _l("5th doubling (32 times)")),
]
KONTRA_LABELS = {
    "game": _l("Kontra on the game"),
    "valat": _l("Kontra on the Valat"),
    "pagat": _l("Kontra on the Pagat"),
    "uhu": _l("Kontra on the Uhu"),
}
RESULTS = [("won", _l("won")), ("lost", _l("lost"))]
VALAT = [("", _l("no")), ("soloist", _l("the soloist")), ("opponents", _l("the opponents"))]


def active(table: Table) -> list[str]:
    """Who plays: everyone but the dealer when four sit at the table."""
    return [p for p in table.players if table.size == 3 or p != table.dealer]


class DoppenHandForm:
    """Pages' entry of one Doppen hand (docs/doppen.md §1-§8)."""

    template = "hands/doppen.html"
    summary_template = "hands/_doppen_summary.html"

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def build(
        self, table: Table, formdata: Any = None, data: Mapping[str, Any] | None = None
    ) -> FlaskForm:
        """The two-step form; only the active players can be soloist or play Pagat and Uhu."""
        playing = [(p, p) for p in active(table)]
        everyone = [(p, p) for p in table.players]
        nobody = [("", _l("nobody"))]

        def player_buttons(label: Any) -> RadioField:
            # Buttons, not a dropdown: one tap instead of two at the table.
            return RadioField(
                label,
                choices=choice_list([*nobody, *playing]),
                default="",
                validate_choice=False,
            )

        class Form(HandFormBase):
            contract = RadioField(
                _l("Contract"), choices=choice_list(CONTRACTS), validate_choice=False
            )
            soloist = RadioField(_l("Soloist"), choices=choice_list(playing), validate_choice=False)
            announced_pagat = player_buttons(_l("Pagat announced by"))
            announced_uhu = player_buttons(_l("Uhu announced by"))
            announced_valat = BooleanField(_l("The soloist announced Valat"))
            points = StringField(_l("Card points of the soloist (0 to 70)"), render_kw=NUMERIC)
            valat = RadioField(
                _l("Did one side take every trick (Valat)?"),
                choices=choice_list(VALAT),
                default="",
                validate_choice=False,
            )
            pagat_player = player_buttons(_l("Trump I in the last trick: played by"))
            pagat_result = RadioField(
                _l("Pagat"), choices=choice_list(RESULTS), validate_choice=False
            )
            uhu_player = player_buttons(_l("Trump II in the second-to-last trick: played by"))
            uhu_result = RadioField(_l("Uhu"), choices=choice_list(RESULTS), validate_choice=False)
            trull = player_buttons(_l("Trull (I, XXI and Sküs) held by"))
            kings = player_buttons(_l("All four kings held by"))
            revokes = SelectMultipleField(
                _l("Revoked (played a wrong card)"),
                choices=choice_list(everyone),
                widget=ListWidget(prefix_label=False),
                option_widget=CheckboxInput(),
                validate_choice=False,
            )

        for key in KONTRA_KEYS:
            setattr(
                Form,
                f"kontra_{key}",
                RadioField(
                    KONTRA_LABELS[key],
                    choices=choice_list(DOUBLINGS),
                    default="0",
                    validate_choice=False,
                ),
            )
        form = instantiate(Form, table, formdata, data, misere=False)
        form.kontra_fields = [form[f"kontra_{k}"] for k in KONTRA_KEYS]
        return form

    def context(self, table: Table) -> dict[str, Any]:
        """The point total and who sits out."""
        sitting_out = table.dealer if table.size == 4 else None
        return {"total_points": TOTAL_POINTS, "sitting_out": sitting_out}

    def suggest(self, form: FlaskForm, table: Table) -> bool:
        """Doppen's form has nothing to suggest."""
        return False

    def to_facts(self, form: FlaskForm, table: Table) -> dict[str, object]:
        """The API body for this form."""
        penalties = [{"player": p, "kind": "revoke"} for p in form.revokes.data or []]
        facts: dict[str, object]
        if form.contract.data == "pass":
            facts = {"contract": "pass", "penalties": penalties}
        else:
            facts = {
                "contract": form.contract.data or None,
                "soloist": form.soloist.data or None,
                "kontra": {k: _count(form[f"kontra_{k}"].data) for k in KONTRA_KEYS},
                "announced": {
                    "pagat": form.announced_pagat.data or None,
                    "uhu": form.announced_uhu.data or None,
                    "valat": bool(form.announced_valat.data),
                },
                "pagat": _played(form.pagat_player.data, form.pagat_result.data),
                "uhu": _played(form.uhu_player.data, form.uhu_result.data),
                "valat": form.valat.data or None,
                "trull": form.trull.data or None,
                "kings": form.kings.data or None,
                "penalties": penalties,
            }
            points = (form.points.data or "").strip()
            if points:
                facts["points"] = points
        return {**facts, **shell_facts(form)}

    def from_facts(self, facts: Mapping[str, Any], table: Table) -> dict[str, Any]:
        """Form data showing stored facts again."""
        data: dict[str, Any] = {
            "contract": facts.get("contract"),
            "revokes": [p["player"] for p in facts.get("penalties", [])],
        }
        if facts.get("contract") == "pass":
            return data
        announced = facts.get("announced") or {}
        kontra = facts.get("kontra") or {}
        pagat = facts.get("pagat") or {}
        uhu = facts.get("uhu") or {}
        data.update(
            soloist=facts.get("soloist"),
            points=str(facts["points"]) if facts.get("points") is not None else "",
            announced_pagat=announced.get("pagat") or "",
            announced_uhu=announced.get("uhu") or "",
            announced_valat=bool(announced.get("valat")),
            valat=facts.get("valat") or "",
            pagat_player=pagat.get("player", ""),
            pagat_result=pagat.get("result"),
            uhu_player=uhu.get("player", ""),
            uhu_result=uhu.get("result"),
            trull=facts.get("trull") or "",
            kings=facts.get("kings") or "",
            **{f"kontra_{k}": str(kontra.get(k, 0)) for k in KONTRA_KEYS},
        )
        return data

    def place_errors(
        self, form: FlaskForm, errors: Mapping[str, tuple[Message, ...]], render: Any
    ) -> None:
        """Nested body keys (``kontra.pagat``, ``pagat.player``) land on their fields."""
        aliases = {"penalties": "revokes", "pagat": "pagat_player", "uhu": "uhu_player"}
        place_errors(form, errors, render, aliases=aliases)


def _count(value: object) -> object:
    """A doubling count from its buttons (a digit string), or what was sent."""
    return number_or_text(value) if isinstance(value, str) else value


def _played(player: str | None, result: str | None) -> dict[str, object] | None:
    """Who played the card and whether it won, or None when nobody did."""
    if not player and not result:
        return None
    return {"player": player or None, "result": result or None}
