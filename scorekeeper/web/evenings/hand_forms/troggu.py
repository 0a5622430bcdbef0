"""The Troggu hand form: normal game, Solo or Misère for the money variants; the declaring
side and its points for Eisten-Stalden, with the team the rules give suggested from who
holds which card."""

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
from scorekeeper.core.rules.eisten_stalden import Holder, Holders, suggest_team, team_rule
from scorekeeper.core.rules.troggu_scoring import BIG_TABLE, TOTAL_POINTS, misere_sum_range
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

CONTRACTS = [
    ("normal", _l("Normal game (Tapp)")),
    ("solo", "Solo"),
    ("misere", "Misère"),
]
ALL_TRICKS = [
    ("", _l("no")),
    ("declarer", _l("the declaring side")),
    ("opponents", _l("the opponents")),
]
HOLDER_LABELS = {
    Holder.FOOL: _l("Who holds the Fool?"),
    Holder.CALLED: _l("Who holds the called card?"),
    Holder.DECLARER: _l("Who went on one (uf eis)?"),
    Holder.MUND: _l("Who holds the Mund (XXI)?"),
    Holder.BAGAT: _l("Who holds the Bagat (I)?"),
}


class TrogguHandForm:
    """Pages' entry of one Troggu hand (docs/troggu.md §2, §3)."""

    template = "hands/troggu.html"
    summary_template = "hands/_troggu_summary.html"

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.teams = variant.key == "eisten-stalden"

    def build(
        self, table: Table, formdata: Any = None, data: Mapping[str, Any] | None = None
    ) -> FlaskForm:
        """The form for the table's size and the variant."""
        players = [(p, p) for p in table.players]
        nobody = [("", _l("nobody / in the Tapp"))]

        class Form(HandFormBase):
            points = StringField(_l("Card points of the declaring side"), render_kw=NUMERIC)

        if self.teams:
            Form.team = SelectMultipleField(
                _l("Declaring side"),
                choices=choice_list(players),
                widget=ListWidget(prefix_label=False),
                option_widget=CheckboxInput(),
                validate_choice=False,
            )
            for holder in team_rule(table.size).asks:
                setattr(
                    Form,
                    f"holder_{holder.value}",
                    # Buttons, not a dropdown: one tap for each card's holder.
                    RadioField(
                        HOLDER_LABELS[holder],
                        choices=choice_list([*nobody, *players]),
                        default="",
                        validate_choice=False,
                    ),
                )
        else:
            Form.contract = RadioField(
                _l("Contract"), choices=choice_list(CONTRACTS), validate_choice=False
            )
            Form.declarer = RadioField(
                _l("Tappist or soloist"), choices=choice_list(players), validate_choice=False
            )
            Form.all_tricks = RadioField(
                _l("Did one side take every trick?"),
                choices=choice_list(ALL_TRICKS),
                default="",
                validate_choice=False,
            )
            Form.tapp_points = StringField(
                _l("Card points in the Tapp (optional)"), render_kw=NUMERIC
            )
            if table.size >= BIG_TABLE:
                Form.partner = RadioField(
                    _l("Partner (holds the called trump)"),
                    choices=choice_list(
                        [("", _l("none: in the Tappist's hand or the Tapp")), *players]
                    ),
                    default="",
                    validate_choice=False,
                )
                Form.fool_and_i_in_tapp = BooleanField(
                    _l("The Fool and trump I both lie in the Tapp")
                )
        form = instantiate(Form, table, formdata, data, misere=not self.teams)
        form.holder_fields = [f for f in form if f.name.startswith("holder_")]
        return form

    def context(self, table: Table) -> dict[str, Any]:
        """The point total for the checksum, what a Misère's points may add up to before the
        Tapp is counted (114 less the most and the fewest the Tapp can hold, as saving
        checks it), and the team rule of this table size."""
        rule = team_rule(table.size) if self.teams else None
        region = getattr(self.variant, "region", None)
        held = misere_sum_range(region, table.size) if region and not self.teams else None
        return {
            "total_points": TOTAL_POINTS,
            "team_rule": rule,
            "big_table": table.size >= BIG_TABLE,
            "held": held,
        }

    def suggest(self, form: FlaskForm, table: Table) -> bool:
        """Fill in the team the rules give from the card holders, when asked to."""
        if not self.teams:
            return False
        holders = {f.name.removeprefix("holder_"): f.data or None for f in form.holder_fields}
        called = holders.get("called")
        form.team.data = list(
            suggest_team(
                table,
                Holders(
                    fool=holders.get("fool"),
                    called=(called,) if called else (),
                    declarer=holders.get("declarer"),
                    mund=holders.get("mund"),
                    bagat=holders.get("bagat"),
                ),
            )
        )
        return True

    def to_facts(self, form: FlaskForm, table: Table) -> dict[str, object]:
        """The API body for this form."""
        points = (form.points.data or "").strip() or None
        if self.teams:
            facts: dict[str, object] = {
                "contract": "team",
                "team": list(form.team.data or []),
                "points": points,
            }
        elif form.contract.data == "misere":
            facts = {
                "contract": "misere",
                "points": misere_points(form, table),
            }
            if (form.tapp_points.data or "").strip():
                facts["tapp_points"] = form.tapp_points.data.strip()
            if table.size >= BIG_TABLE:
                facts["fool_and_i_in_tapp"] = bool(form.fool_and_i_in_tapp.data)
        else:
            facts = {
                "contract": form.contract.data or None,
                "declarer": form.declarer.data or None,
                "points": points,
                "all_tricks": form.all_tricks.data or None,
            }
            if table.size >= BIG_TABLE and form.contract.data != "solo":
                facts["partner"] = form.partner.data or None
        return {**facts, **shell_facts(form)}

    def from_facts(self, facts: Mapping[str, Any], table: Table) -> dict[str, Any]:
        """Form data showing stored facts again."""
        if facts.get("contract") == "team":
            return {"team": list(facts.get("team", [])), "points": str(facts.get("points", ""))}
        if facts.get("contract") == "misere":
            data: dict[str, Any] = {"contract": "misere"}
            points = facts.get("points") or {}
            for i, player in enumerate(table.players):
                data[f"misere_{i}"] = str(points.get(player, ""))
            if facts.get("tapp_points") is not None:
                data["tapp_points"] = str(facts["tapp_points"])
            data["fool_and_i_in_tapp"] = bool(facts.get("fool_and_i_in_tapp"))
            return data
        return {
            "contract": facts.get("contract"),
            "declarer": facts.get("declarer"),
            "partner": facts.get("partner") or "",
            "points": str(facts.get("points", "")),
            "all_tricks": facts.get("all_tricks") or "",
        }

    def place_errors(
        self, form: FlaskForm, errors: Mapping[str, tuple[Message, ...]], render: Any
    ) -> None:
        """Show each message at its field; the Misère's sum problems above its fields."""
        misere = not self.teams and form.contract.data == "misere"
        place_errors(form, errors, render, misere=misere)
