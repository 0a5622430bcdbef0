"""An address with a number larger than the database holds names nothing: 404, never a
server error, on SQLite and PostgreSQL alike (``scorekeeper/web/addresses.py``)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorekeeper.web.addresses import LARGEST
from tests.conftest import PLAYERS4

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


@pytest.mark.parametrize(
    "digits",
    ["\u0661", "\uff11", "\u0967", "1\u0660", "\U0001d7cf"],
    ids=["arabic-indic", "fullwidth", "devanagari", "mixed", "mathematical"],
)
def test_an_id_in_other_digits_names_nothing(client: FlaskClient, digits: str) -> None:
    """Python's ``int`` reads any script's digits: the address must not, or one row has many
    addresses (``scorekeeper/web/addresses.py``)."""
    evening = client.post("/api/v1/evenings", json={"game": "troggen", "players": PLAYERS4})
    group = client.post("/api/v1/groups", json={"name": "Donnerstag"})
    assert (evening.json["id"], group.json["id"]) == (1, 1)
    assert client.get("/api/v1/evenings/1").status_code == 200
    for path in (
        f"/api/v1/evenings/{digits}",
        f"/api/v1/groups/{digits}",
        f"/api/v1/evenings/{digits}/hands",
        f"/evenings/{digits}",
        f"/evenings/{digits}/sheet.pdf",
    ):
        answer = client.get(path)
        assert answer.status_code == 404, (path, answer.status_code)


def test_a_request_key_sent_again_on_another_spelling_of_an_id_is_no_reuse(
    client: FlaskClient,
) -> None:
    """A fullwidth one is no alias of evening 1: the key's second use is simply a 404,
    not "used for another request"."""
    client.post("/api/v1/evenings", json={"game": "troggen", "players": PLAYERS4})
    key = {"Idempotency-Key": "k-1"}
    hand = {"contract": "einfach", "bidder": "Anna", "points": 41}
    first = client.post("/api/v1/evenings/1/hands", json=hand, headers=key)
    assert first.status_code == 201, first.json
    again = client.post("/api/v1/evenings/\uff11/hands", json=hand, headers=key)
    assert again.status_code == 404
    assert "Idempotency-Key" not in again.json.get("errors", {})
