"""Numbers in addresses (``/evenings/<int:evening_id>``) as the database can hold them.

PostgreSQL's ``integer`` columns hold up to 2,147,483,647; asked for a larger id, it refuses
the query itself and the request would end in a server error. An address with a larger
number names nothing: it is answered 404 before any view runs, on every database alike
(docs/api.md "Errors"). The check follows the routing rather than narrowing the ``int``
converter: a converter that refuses a number makes Werkzeug answer another method's 405
for the same address.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort

#: The largest id or number an address may carry: PostgreSQL's ``integer``.
LARGEST = 2**31 - 1


def refuse_numbers_too_large(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """404 for an address whose number no row can have."""
    if values and any(isinstance(v, int) and v > LARGEST for v in values.values()):
        abort(404)


def register(app: Flask) -> None:
    """Check every address's numbers before its view."""
    app.url_value_preprocessor(refuse_numbers_too_large)
