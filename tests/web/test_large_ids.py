"""An address with a number larger than the database holds names nothing: 404, never a
server error, on SQLite and PostgreSQL alike (``scorekeeper/web/addresses.py``)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorekeeper.web.addresses import LARGEST

TOO_LARGE = LARGEST + 1


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", f"/api/v1/evenings/{TOO_LARGE}"),
        ("GET", f"/api/v1/evenings/{TOO_LARGE}/settlement"),
        ("GET", f"/api/v1/evenings/1/hands/{TOO_LARGE}"),
        ("PATCH", f"/api/v1/evenings/{TOO_LARGE * 1000}"),
        ("POST", f"/api/v1/tournaments/{TOO_LARGE}/login"),
        ("GET", f"/evenings/{TOO_LARGE}"),
        ("GET", f"/tournaments/{TOO_LARGE}/standings.pdf"),
    ],
)
def test_a_number_larger_than_the_database_holds_is_no_such_thing(
    client: FlaskClient, method: str, path: str
) -> None:
    answer = client.open(path, method=method, json={} if method != "GET" else None)
    assert answer.status_code == 404, answer.text[:200]


def test_the_largest_number_is_still_looked_up(client: FlaskClient) -> None:
    answer = client.get(f"/api/v1/evenings/{LARGEST}")
    assert answer.status_code == 404
    assert answer.json == {"errors": {"request": [f"There is no evening {LARGEST}."]}}
