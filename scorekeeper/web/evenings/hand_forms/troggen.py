"""The Troggen hand form: contract, Bieterin, partner, points, last trick; or the Misère.

The form only collects what was said; the rules core validates it, exactly as for the API,
and its messages are put next to the fields here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import RadioField, StringField

from scorekeeper.core.rules.base import Message, Table
from scorekeeper.core.rules.troggen import TOTAL_POINTS
from scorekeeper.core.rules.variant import Variant
from scorekeeper.web.evenings.hand_forms.common import (
    NUMERIC,
    HandFormBase,
    instantiate,
    misere_points,
    place_errors,
    shell_facts,
)
from scorekeeper.web.forms import choice_list

#: Contract buttons: the German names are the real ones, in every language.
CONTRACTS = [
    ("einfach", "Einfach"),
    ("doppelt", "Doppelt"),
    ("ohne", "Ohne Talon"),
    ("gegen", "Gegen den Talon"),
    ("misere", "Misère"),
]
LAST_TRICK = [
    ("none", _l("nothing special")),
    ("pagat_won", _l("Pagat won")),
    ("pagat_lost", _l("Pagat lost")),
    ("king_won", _l("King won")),
    ("king_lost", _l("King lost")),
]
RESULTS = [("points", _l("counted")), ("won", _l("won")), ("lost", _l("lost"))]


class TroggenHandForm:
    """Pages' entry of one Troggen hand (docs/troggen.md §9)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    template = "hands/troggen.html"
    summary_template = "hands/_troggen_summary.html"

    def build(
        self, table: Table, formdata: Any = None, data: Mapping[str, Any] | None = None
    ) -> FlaskForm:
        """A form with the table's players as buttons; the dealer proposed by rotation."""
        players = [(p, p) for p in table.players]

        class Form(HandFormBase):
            contract = RadioField(
                _l("Contract"), choices=choice_list(CONTRACTS), validate_choice=False
            )
            bidder = RadioField(
                _l("Bieterin (the bidder)"), choices=choice_list(players), validate_choice=False
            )
            points = StringField(_l("Points of the Bieterin's side"), render_kw=NUMERIC)
            result = RadioField(
                _l("Result"), choices=choice_list(RESULTS), default="points", validate_choice=False
            )
            last_trick = RadioField(
                _l("Last trick: the Bieterin's Pagat (trump I) or King"),
                choices=choice_list(LAST_TRICK),
                default="none",
                validate_choice=False,
            )
            talon_points = StringField(
                _l("Card points in the Talon, the cards set aside (optional)"), render_kw=NUMERIC
            )

        if table.size > 4:
            Form.partner = RadioField(
                _l("Partner (held the called king)"),
                choices=choice_list([("", _l("none")), *players]),
                default="",
                validate_choice=False,
            )
            Form.kulanz = StringField(
                _l("Kulanz: extra jetons to the partner"), default="0", render_kw=NUMERIC
            )
        return instantiate(Form, table, formdata, data, misere=True)

    def context(self, table: Table) -> dict[str, Any]:
        """The point total the Misère's checksum is shown against."""
        return {"total_points": TOTAL_POINTS[table.size]}

    def suggest(self, form: FlaskForm, table: Table) -> bool:
        """Troggen's form has nothing to suggest."""
        return False

    def to_facts(self, form: FlaskForm, table: Table) -> dict[str, object]:
        """The API body for this form: the same keys the rules core validates."""
        facts: dict[str, object] = {"contract": form.contract.data or None}
        if form.contract.data == "misere":
            facts["points"] = misere_points(form, table)
            if (form.talon_points.data or "").strip():
                facts["talon_points"] = form.talon_points.data.strip()
        else:
            facts["bidder"] = form.bidder.data or None
            if table.size > 4:
                facts["partner"] = form.partner.data or None
                kulanz = (form.kulanz.data or "").strip()
                if kulanz not in ("", "0"):
                    facts["kulanz"] = kulanz
            if form.result.data in ("won", "lost"):
                facts["won"] = form.result.data == "won"
            else:
                facts["points"] = (form.points.data or "").strip() or None
            facts["last_trick"] = form.last_trick.data or "none"
        return {**facts, **shell_facts(form)}

    def from_facts(self, facts: Mapping[str, Any], table: Table) -> dict[str, Any]:
        """Form data showing stored facts again."""
        data: dict[str, Any] = {"contract": facts.get("contract")}
        if facts.get("contract") == "misere":
            points = facts.get("points") or {}
            for i, player in enumerate(table.players):
                data[f"misere_{i}"] = str(points.get(player, ""))
            if facts.get("talon_points") is not None:
                data["talon_points"] = str(facts["talon_points"])
            return data
        data["bidder"] = facts.get("bidder")
        data["partner"] = facts.get("partner") or ""
        data["kulanz"] = str(facts.get("kulanz", 0))
        if "won" in facts:
            data["result"] = "won" if facts["won"] else "lost"
        else:
            data["result"] = "points"
            data["points"] = str(facts.get("points", ""))
        data["last_trick"] = facts.get("last_trick", "none")
        return data

    def place_errors(
        self, form: FlaskForm, errors: Mapping[str, tuple[Message, ...]], render: Any
    ) -> None:
        """Show each message at its field; the Misère's sum problems above its fields."""
        misere = form.contract.data == "misere"
        place_errors(form, errors, render, misere=misere, aliases={"won": "result"})
