"""The JSON API described as OpenAPI 3.1, served at ``/api/v1/openapi.json``.

The document is data: ``openapi.json`` beside this module, edited by hand together with
the API (docs/api.md, docs/development.md "Change the API"). Every figure in it that the
code also holds (the games and variants, the sizes of a table, the lengths of names and
texts, the tournament's limits) is checked against the code by
``tests/web/test_openapi_document.py``, and every route against the app's.

Bodies of hands differ per game (docs/api.md "Hands"); they are described loosely there and
validated by each variant, which answers 422 with a message per field. A ``422`` whose
rules span fields is marked ``x-across-fields``: a request that fits the schema can still
be refused for those reasons, and for no other.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DOCUMENT = Path(__file__).with_name("openapi.json")


@cache
def document_text() -> str:
    """The document as shipped, read once per process."""
    return DOCUMENT.read_text(encoding="utf-8")


def spec() -> dict[str, Any]:
    """The OpenAPI document, a fresh copy for each caller to read or change."""
    found: dict[str, Any] = json.loads(document_text())
    return found
