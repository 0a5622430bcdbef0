"""Requests the fuzzing once answered with a 500; each is now refused, changing nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]

HUGE = str(10**30)


@pytest.mark.parametrize(
    "path",
    [
        f"/api/v1/evenings/{HUGE}",
        f"/api/v1/evenings/{2**63}/hands/1",
        f"/api/v1/tournaments/{HUGE}",
        f"/evenings/{HUGE}",
        f"/tournaments/{HUGE}/screen",
    ],
)
def test_an_id_too_large_for_the_database_names_nothing(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    if path.startswith("/api/"):
        assert list(response.json["errors"]) == ["request"]


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"[" * 100_000 + b"]" * 100_000, id="nested-too-deep"),
        pytest.param(b'{"players": ["\\ud800", "Bert", "Clara", "Dora"]}', id="lone-surrogate"),
        pytest.param(b'{"title": "\\udfff"}', id="lone-low-surrogate"),
    ],
)
def test_a_body_that_is_not_json_text_is_refused(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot, body: bytes
) -> None:
    evening = create_evening()
    before = snapshot()
    for path in (f"/api/v1/evenings/{evening}/seating", "/api/v1/evenings"):
        response = client.post(path, data=body, content_type="application/json")
        assert response.status_code == 400
        assert response.json == {"errors": {"body": ["The body is not valid JSON."]}}
    assert snapshot() == before


def test_a_surrogate_pair_is_text_and_accepted(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    body = b'{"players": ["\\ud83d\\ude00", "Bert", "Clara", "Dora"]}'
    response = client.post(
        f"/api/v1/evenings/{evening}/seating", data=body, content_type="application/json"
    )
    assert response.status_code == 200
    assert response.json["players"][0] == "\U0001f600"
