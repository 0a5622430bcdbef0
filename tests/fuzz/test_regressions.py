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
