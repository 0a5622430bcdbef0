"""Hand entry forms per game: each turns a page form into the same facts the API takes.

A game plugs in a ``HandForm``: a WTForms class built for the table at hand, the template
that lays it out, and the two conversions between form data and the variant's facts. The
table screen, the edit page and the preview only talk to this interface.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from flask_wtf import FlaskForm

from scorekeeper.core.rules.base import Message, Table
from scorekeeper.core.rules.variant import Variant
from scorekeeper.web.evenings.hand_forms.doppen import DoppenHandForm
from scorekeeper.web.evenings.hand_forms.troggen import TroggenHandForm
from scorekeeper.web.evenings.hand_forms.troggu import TrogguHandForm


class HandForm(Protocol):
    """What the pages need from a game to record and edit its hands."""

    template: str
    #: A one-line summary of a stored hand (contract, who, points) for lists.
    summary_template: str

    def build(
        self, table: Table, formdata: Any = None, data: Mapping[str, Any] | None = None
    ) -> FlaskForm:
        """The form for a hand at ``table``, filled from the request or from ``data``."""
        ...

    def context(self, table: Table) -> dict[str, Any]:
        """Extra values the game's templates need (a point total, say)."""
        ...

    def suggest(self, form: FlaskForm, table: Table) -> bool:
        """Fill in what the rules suggest (a team, say) when the form asks; True if it did."""
        ...

    def to_facts(self, form: FlaskForm, table: Table) -> dict[str, object]:
        """The facts said at the table, in the API's shape."""
        ...

    def from_facts(self, facts: Mapping[str, Any], table: Table) -> dict[str, Any]:
        """Form data that shows stored facts again (for editing)."""
        ...

    def place_errors(
        self, form: FlaskForm, errors: Mapping[str, tuple[Message, ...]], render: Any
    ) -> None:
        """Put the core's per-field messages next to the form's fields."""
        ...


def hand_form(variant: Variant) -> HandForm:
    """The hand form of ``variant``'s game, set up for that variant."""
    forms: dict[str, Callable[[Variant], HandForm]] = {
        "troggen": TroggenHandForm,
        "doppen": DoppenHandForm,
        "troggu": TrogguHandForm,
    }
    return forms[variant.game](variant)
