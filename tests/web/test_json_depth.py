"""Every JSON body and upload nesting deeper than ``json_limits.MAX_DEPTH`` is refused
before it is parsed: 400, the API's error shape or the error page, German or English,
nothing stored, never 500 (docs/hall-safety.md "JSON nesting")."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.core.json_limits import MAX_DEPTH
from tests.web.tournaments.support import create_tournament, ok


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """The app with every address taking a body as large as an upload: the checks here are
    the ones behind the body limit, which refuses most of these bodies first
    (``test_bodies.py``; docs/limits.md "Bodies")."""
    return make_app(WTF_CSRF_ENABLED=False, BODY_MAX_BYTES=100 * 1024 * 1024)


Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
EN = {"Accept-Language": "en"}
DE = {"Accept-Language": "de"}
BODY_EN = (
    f"The body nests lists and objects more than {MAX_DEPTH} levels deep; no request to "
    "Scorekeeper nests nearly that deep. Nothing was changed."
)
BODY_DE = (
    f"Der Inhalt verschachtelt Listen und Objekte mehr als {MAX_DEPTH} Ebenen tief; keine "
    "Anfrage an Scorekeeper ist auch nur annähernd so tief verschachtelt. Es wurde nichts "
    "geändert."
)
FILE_EN = (
    f"This file nests lists and objects more than {MAX_DEPTH} levels deep; no Scorekeeper "
    "archive or backup nests nearly that deep. Nothing was changed."
)
FILE_DE = f"Diese Datei verschachtelt Listen und Objekte mehr als {MAX_DEPTH} Ebenen tief"


def arrays(n: int) -> bytes:
    """An object whose ``players`` nest ``n`` deep in all (the object is one level)."""
    return b'{"players": ' + b"[" * (n - 1) + b"]" * (n - 1) + b"}"


def objects(n: int) -> bytes:
    """Objects ``n`` deep, with brackets and escaped quotes in their strings."""
    return b'{"s": "[[\\"[[", "a": ' * (n - 1) + b'{"b": "}}}]]]"}' + b"}" * (n - 1)


SHAPES = {"arrays": arrays, "objects": objects}


def api_paths(client: FlaskClient) -> list[tuple[str, str]]:
    """A write of each kind that reads a body: evenings, hands, imports, tournaments."""
    made = client.post("/api/v1/evenings", json={"game": "troggen", "players": list("ABCD")})
    evening = ok(made, 201)["id"]
    tournament = create_tournament(client)
    return [
        ("POST", "/api/v1/evenings"),
        ("PATCH", f"/api/v1/evenings/{evening}"),
        ("POST", f"/api/v1/evenings/{evening}/hands"),
        ("POST", f"/api/v1/evenings/{evening}/seating"),
        ("POST", "/api/v1/evenings/import"),
        ("POST", "/api/v1/unlock"),
        ("POST", "/api/v1/tournaments"),
        ("PATCH", f"/api/v1/tournaments/{tournament}"),
        ("POST", f"/api/v1/tournaments/{tournament}/entrants"),
        ("POST", f"/api/v1/tournaments/{tournament}/login"),
    ]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_api_refuses_a_body_nesting_too_deep(
    client: FlaskClient, snapshot: Snapshot, shape: str
) -> None:
    make = SHAPES[shape]
    paths = api_paths(client)
    before = snapshot()
    for method, path in paths:
        for key in ({}, {"Idempotency-Key": f"deep-{method}-{path}"}):
            for data, language, message in (
                (make(MAX_DEPTH + 1), EN, BODY_EN),
                (make(100_000), DE, BODY_DE),
            ):
                response = client.open(
                    path,
                    method=method,
                    data=data,
                    content_type="application/json",
                    headers={**language, **key},
                )
                assert response.status_code == 400, (method, path)
                assert response.json == {"errors": {"body": [message]}}, (method, path)
    assert snapshot() == before


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_api_reads_a_body_at_the_limit(
    client: FlaskClient, snapshot: Snapshot, shape: str
) -> None:
    paths = api_paths(client)
    before = snapshot()
    for method, path in paths:
        response = client.open(
            path,
            method=method,
            data=SHAPES[shape](MAX_DEPTH),
            content_type="application/json",
            headers=EN,
        )
        # Parsed and refused by the usual checks (no such fields, not a list of names).
        assert 400 <= response.status_code < 500, (method, path, response.json)
        assert "body" not in (response.json or {})["errors"], (method, path)
    # Nothing stored but the wrong tries of the PIN and the password the bodies lack.
    after = snapshot()
    assert {**after, "login_attempt": []} == {**before, "login_attempt": []}


def test_a_body_nesting_too_deep_in_utf16_is_refused(client: FlaskClient) -> None:
    data = arrays(MAX_DEPTH + 1).decode().encode("utf-16")
    response = client.post("/api/v1/evenings", data=data, content_type="application/json")
    assert response.status_code == 400
    assert response.json == {"errors": {"body": [BODY_EN]}}


def upload_archive(client: FlaskClient, data: bytes, headers: dict[str, str]) -> Any:
    return client.post(
        "/import", data={"archive": (io.BytesIO(data), "evening.json")}, headers=headers
    )


def upload_backup(client: FlaskClient, data: bytes, name: str, headers: dict[str, str]) -> Any:
    return client.post(
        "/backup/restore", data={"backup": (io.BytesIO(data), name)}, headers=headers
    )


def zipped(data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("evenings.json", data)
    return out.getvalue()


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_import_and_restore_pages_refuse_a_file_nesting_too_deep(
    client: FlaskClient, snapshot: Snapshot, shape: str
) -> None:
    make = SHAPES[shape]
    before = snapshot()
    # Under 500 kB: the test client leaves larger uploads' temporary files open.
    for data in (make(MAX_DEPTH + 1), make(20_000)):
        for language, message in ((EN, FILE_EN), (DE, FILE_DE)):
            refused = [
                upload_archive(client, data, language),
                upload_backup(client, data, "backup.json", language),
                upload_backup(client, zipped(data), "backup.zip", language),
            ]
            for response in refused:
                assert response.status_code == 400
                assert response.mimetype == "text/html"
                assert message in response.get_data(as_text=True)
    assert snapshot() == before


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_import_and_restore_pages_read_a_file_at_the_limit(
    client: FlaskClient, snapshot: Snapshot, shape: str
) -> None:
    data = SHAPES[shape](MAX_DEPTH)
    before = snapshot()
    for response in (
        upload_archive(client, data, EN),
        upload_backup(client, data, "backup.json", EN),
        upload_backup(client, zipped(data), "backup.zip", EN),
    ):
        # Read, and refused as no archive or backup: the page says so, as for any other.
        assert response.status_code == 422
        assert "levels deep" not in response.get_data(as_text=True)
    assert snapshot() == before


def test_the_restore_command_refuses_a_file_nesting_too_deep(
    app: Flask, tmp_path: Path, snapshot: Snapshot
) -> None:
    before = snapshot()
    for name, data in (
        ("deep.json", arrays(MAX_DEPTH + 1)),
        ("deep.zip", zipped(arrays(100_000))),
    ):
        path = tmp_path / name
        path.write_bytes(data)
        result = app.test_cli_runner().invoke(args=["restore", str(path)])
        assert result.exit_code == 1
        assert FILE_EN in result.output
    assert snapshot() == before
