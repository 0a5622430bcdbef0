"""Pieces both halves of the OpenAPI document use (``openapi.py`` for evenings,
``tournament/openapi.py`` for tournaments): answers, the 422 of rules across fields, and
the schemas of texts, names and ids as the app checks them (docs/limits.md, docs/api.md).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.core.validation import TEXT_LENGTH
from scorekeeper.web.addresses import LARGEST

#: No NUL character anywhere (PostgreSQL refuses it in text).
NO_NUL = r"^[^\x00]*$"
#: Not blank: something besides spaces, and no NUL.
NOT_BLANK = {"type": "string", "minLength": 1, "pattern": r"^[^\x00]*[^\s\x00][^\x00]*$"}
#: A text such as a title, a place or a club: at most 200 characters, no NUL.
TEXT = {"type": "string", "maxLength": TEXT_LENGTH, "pattern": NO_NUL}
#: An id or number in an address: what the database holds (``scorekeeper/web/addresses.py``).
STORED = {"type": "integer", "minimum": 0, "maximum": LARGEST}


def json_answer(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """An answer with a JSON body of ``schema``."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def across_fields(rules: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The ``422`` of an operation whose body can fit its schema and still break a rule
    that spans fields or depends on what is stored (``x-across-fields`` marks it, so that
    a client generating requests from the document knows to expect it; the CI check
    ``tests/server/test_api_contract.py`` allows a 422 there and nowhere else)."""
    return {
        **json_answer(schema, f"Rules that span fields or depend on what is stored: {rules}"),
        "x-across-fields": True,
    }
