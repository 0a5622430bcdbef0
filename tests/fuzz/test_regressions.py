"""Requests the fuzzing once answered with a 500; each is now refused, changing nothing."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import sqlite_only

#: The fuzzers' world is a SQLite file of its own, put back after every change (world.py).
pytestmark = sqlite_only

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


def _damaged(archive: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> Any:
    damaged = copy.deepcopy(archive)
    change(damaged)
    return damaged


DAMAGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "seating-not-an-object": lambda a: a["seatings"].__setitem__(0, [a["seatings"][0]]),
    "later-seating-not-an-object": lambda a: a["seatings"].append("Anna"),
    "hand-not-an-object": lambda a: a["hands"].append(True),
    "revision-not-an-object": lambda a: a["hands"][0]["revisions"].append(1),
    "settings-revision-not-an-object": lambda a: a["settings_revisions"].append(["x"]),
    "hand-number-too-large": lambda a: a["hands"][0].__setitem__("number", 10**30),
    "version-too-large": lambda a: a["hands"][0]["revisions"][0].__setitem__("version", 2**63),
    "from-hand-too-large": lambda a: a["seatings"].append({**a["seatings"][0], "from_hand": 2**64}),
}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_archive_is_refused_whole(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    snapshot: Snapshot,
    damage: str,
) -> None:
    evening = create_evening()
    record_hand(evening, {"contract": "doppelt", "bidder": "Anna", "points": 41})
    archive = client.get(f"/api/v1/evenings/{evening}/export").json
    before = snapshot()
    response = client.post("/api/v1/evenings/import", json=_damaged(archive, DAMAGES[damage]))
    assert response.status_code == 422, response.json
    assert list(response.json["errors"]) == ["file"]
    assert snapshot() == before


def test_an_archive_time_without_its_zone_is_read_as_utc(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    hand = {"contract": "doppelt", "bidder": "Anna", "points": 41}
    record_hand(evening, hand)
    corrected = {**hand, "points": 40, "version": 1}
    assert client.put(f"/api/v1/evenings/{evening}/hands/1", json=corrected).status_code == 200
    archive = client.get(f"/api/v1/evenings/{evening}/export").json
    revision = archive["hands"][0]["revisions"][0]
    revision["at"] = revision["at"].removesuffix("Z")
    response = client.post("/api/v1/evenings/import", json=archive)
    assert response.status_code == 201, response.json
    imported = client.get(f"/api/v1/evenings/{response.json['id']}/export").json
    assert imported["hands"][0]["revisions"][0]["at"] == revision["at"] + "Z"


@pytest.mark.parametrize("pin", ["24€8", "Ä", "\uff12\uff14\uff16\uff18"])
def test_a_pin_beyond_ascii_is_just_wrong(app: Flask, client: FlaskClient, pin: str) -> None:
    app.config["ACCESS_PIN"] = "2468"
    response = client.post("/api/v1/unlock", json={"pin": pin})
    assert response.status_code == 401
    assert list(response.json["errors"]) == ["access"]
    assert client.post("/unlock", data={"pin": pin}).status_code == 401
    assert client.post("/api/v1/unlock", json={"pin": "2468"}).status_code == 200


@pytest.mark.parametrize("path", ["/api/v1/evenings", "/api/v1/tournaments"])
def test_the_document_lists_the_401_of_the_lists(
    app: Flask, client: FlaskClient, path: str
) -> None:
    document = client.get("/api/v1/openapi.json").json
    app.config["ACCESS_PIN"] = "2468"
    assert client.get(path).status_code == 401
    assert "401" in document["paths"][path]["get"]["responses"]


def _with_lone_surrogate(archive: dict[str, Any]) -> bytes:
    archive["evening"]["title"] = "@"
    return json.dumps(archive).replace('"@"', '"\\ud800"').encode()


UPLOADS: dict[str, Callable[[dict[str, Any]], bytes]] = {
    "digits": lambda a: (
        json.dumps({**a, "version": 1})
        .replace('"version": 1', '"version": 1' + "0" * 5000, 1)
        .encode()
    ),
    "lone-surrogate": _with_lone_surrogate,
}


@pytest.mark.parametrize("upload", list(UPLOADS))
def test_an_uploaded_file_the_parser_chokes_on_is_not_an_archive(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot, upload: str
) -> None:
    archive = client.get(f"/api/v1/evenings/{create_evening()}/export").json
    content = UPLOADS[upload](archive)
    before = snapshot()
    response = client.post("/import", data={"archive": (io.BytesIO(content), "evening.json")})
    assert response.status_code == 422
    assert "not JSON" in response.get_data(as_text=True)
    assert snapshot() == before
