"""Each address takes a body the size of what it takes, and a body it refuses costs next
to nothing: no key of it is read (``web/bodies.py``, docs/limits.md "Bodies").

The work is counted, not timed: how often the evening's checks ran, how many messages the
answer holds, how long it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.core import validation
from scorekeeper.core.rules import parsing
from scorekeeper.web import bodies
from tests.conftest import PLAYERS4

EN = {"Accept-Language": "en"}
EVENING = {"game": "troggen", "players": PLAYERS4}


def made_up_keys(count: int) -> dict[str, Any]:
    """An evening's body with ``count`` keys nobody knows."""
    return {**EVENING, **{f"k{i}": 1 for i in range(count)}}


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the keys the evening's checks were given (one entry a call)."""
    counted: list[int] = []
    real: Callable[..., Any] = validation.parse_evening

    def counting(raw: Any) -> Any:
        counted.append(len(raw))
        return real(raw)

    monkeypatch.setattr(validation, "parse_evening", counting)
    from scorekeeper.operations import evenings

    monkeypatch.setattr(evenings, "parse_evening", counting, raising=False)
    return counted


def test_a_body_over_the_limit_is_refused_unread(
    client: FlaskClient, checks: list[int], snapshot: Callable[[], Any]
) -> None:
    """300,000 made-up keys (4 MB): 413 in words, before any check reads a key."""
    before = snapshot()
    raw = json.dumps(made_up_keys(300_000))
    assert len(raw) > bodies.BODY_MAX_BYTES
    answer = client.post("/api/v1/evenings", data=raw, content_type="application/json", headers=EN)
    assert answer.status_code == 413
    assert answer.json == {
        "errors": {
            "body": [
                "This request is too large: at most 64 KB can be sent here. Nothing was saved."
            ]
        }
    }
    assert checks == []
    assert snapshot() == before


def test_unknown_keys_under_the_limit_are_named_ten_and_counted(
    client: FlaskClient, checks: list[int]
) -> None:
    """As many made-up keys as fit 64 KB: eleven messages, the rest a number."""
    count = 5_000
    answer = client.post("/api/v1/evenings", json=made_up_keys(count), headers=EN)
    assert answer.status_code == 422
    errors = answer.json["errors"]
    named = [k for k in errors if k.startswith("k")]
    assert named == [f"k{i}" for i in range(parsing.MOST_UNKNOWN_NAMED)]
    assert errors["k0"] == ["Unknown field k0."]
    assert errors["body"] == [f"And {count - 10:,} more unknown fields."]
    assert len(answer.data) < 1_000
    assert checks == [count + 2]


def test_a_long_unknown_key_is_named_cut_short(client: FlaskClient) -> None:
    answer = client.post("/api/v1/evenings", json={**EVENING, "x" * 5_000: 1}, headers=EN)
    assert answer.status_code == 422
    (field,) = answer.json["errors"]
    assert len(field) == parsing.LONGEST_KEY_NAMED
    assert field.endswith("…")


def test_nested_unknown_keys_are_bounded_alike(client: FlaskClient) -> None:
    """A Doppen hand's ``kontra`` object with 2,000 made-up keys."""
    evening = client.post(
        "/api/v1/evenings", json={"game": "doppen", "players": ["Anne", "Bert", "Clara"]}
    ).json["id"]
    hand = {
        "contract": "dreier",
        "soloist": "Anne",
        "points": 40,
        "kontra": {f"z{i}": 1 for i in range(2_000)},
    }
    answer = client.post(f"/api/v1/evenings/{evening}/hands", json=hand, headers=EN)
    assert answer.status_code == 422
    errors = answer.json["errors"]
    assert len([k for k in errors if k.startswith("kontra.z")]) == 10
    assert errors["kontra"] == ["And 1,990 more unknown fields."]


@pytest.mark.parametrize(
    ("path", "field"),
    [("/import", "archive"), ("/backup/restore", "backup")],
)
def test_an_upload_takes_more_than_any_other_body(
    client: FlaskClient, path: str, field: str
) -> None:
    """A file of 200 KB reaches the upload's own checks (and is refused there: not an
    archive), where any other address refuses a body of 100 KB. (Below 500 KB the test
    client and the form parser keep a file in memory, with no file to close.)"""
    import io

    data = {field: (io.BytesIO(b"x" * (200 * 1024)), "big.json")}
    answer = client.post(path, data=data, content_type="multipart/form-data", headers=EN)
    assert answer.status_code != 413
    form = client.post("/evenings", data={"title": "x" * (100 * 1024)}, headers=EN)
    assert form.status_code == 413
    assert "at most 64 KB can be sent here" in form.text


def test_the_limits_are_settings(make_app: Callable[..., Flask]) -> None:
    app = make_app(BODY_MAX_BYTES=1024)
    answer = app.test_client().post(
        "/api/v1/evenings", json={**EVENING, "title": "x" * 2_000}, headers=EN
    )
    assert answer.status_code == 413
    assert "at most 1 KB" in answer.json["errors"]["body"][0]
    assert sorted(bodies.upload_rules(app)) == [
        "/api/v1/evenings/import",
        "/backup/restore",
        "/import",
    ]
