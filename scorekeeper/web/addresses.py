"""Numbers in addresses (``/evenings/<int:evening_id>``): ASCII digits, as the database can
hold them.

Werkzeug's ``int`` converter matches ``\\d``, which in Python is any decimal digit of any
script: ``/api/v1/groups/`` with an Arabic-Indic one, or ``/evenings/`` with a fullwidth
one and two, named ids 1 and 12, so one row had many addresses, and a request key sent
again on such an alias was "used for another request". The converter here takes ASCII
digits only; any other address names nothing and is answered 404 like an unknown one
(docs/api.md "Errors").

PostgreSQL's ``integer`` columns hold up to 2,147,483,647; asked for a larger id, it refuses
the query itself and the request would end in a server error. An address with a larger
number names nothing: it is answered 404 before any view runs, on every database alike.
That check follows the routing rather than narrowing the converter: a converter that
refuses a number it matched makes Werkzeug answer another method's 405 for the same
address. (A converter whose pattern does not match is like a path that does not exist.)
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort
from werkzeug.routing import IntegerConverter

#: The largest id or number an address may carry: PostgreSQL's ``integer``.
LARGEST = 2**31 - 1


class AsciiInteger(IntegerConverter):
    """``<int:…>`` of ASCII digits only."""

    regex = r"[0-9]+"


def refuse_numbers_too_large(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """404 for an address whose number no row can have."""
    if values and any(isinstance(v, int) and v > LARGEST for v in values.values()):
        abort(404)


def register(app: Flask) -> None:
    """ASCII digits in every address's numbers (before any route is added, which binds its
    converter), and their range checked before the view."""
    app.url_map.converters["int"] = AsciiInteger
    app.url_value_preprocessor(refuse_numbers_too_large)
