"""The backup page for organisers: one download holding everything, one upload to restore.

Whoever uses these pages never opens a terminal, so a refused file is explained in plain
words and changes nothing.
"""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.operations import installation_backups
from scorekeeper.web import access
from tests.conftest import Fresh, sqlite_only
from tests.played import EVENINGS, play, results

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
EN = {"Accept-Language": "en"}


def download(client: FlaskClient) -> bytes:
    """The zip the download button gives."""
    response = client.get("/backup/scorekeeper-backup.zip")
    assert response.status_code == 200
    assert response.mimetype == "application/zip"
    assert response.headers["Content-Disposition"].startswith(
        "attachment; filename=scorekeeper-backup-"
    )
    data = response.data
    response.close()
    return data


def upload(client: FlaskClient, data: bytes, name: str = "backup.zip") -> Any:
    """Send a file to the restore page."""
    return client.post(
        "/backup/restore",
        data={"backup": (io.BytesIO(data), name)},
        content_type="multipart/form-data",
        headers=EN,
    )


def test_home_leads_to_the_backup_page(client: FlaskClient) -> None:
    home = client.get("/", headers=EN).text
    assert 'href="/backup"' in home
    page = client.get("/backup", headers=EN)
    assert page.status_code == 200
    assert "Download the backup (0 evenings)" in page.text
    assert 'href="/backup/restore"' in page.text


@sqlite_only
def test_the_download_holds_every_evening_and_the_database(
    client: FlaskClient, tmp_path: Path
) -> None:
    play(client)
    assert f"Download the backup ({len(EVENINGS)} evenings)" in client.get("/backup").text
    with zipfile.ZipFile(io.BytesIO(download(client))) as z:
        assert sorted(z.namelist()) == ["evenings.json", "scorekeeper.sqlite"]
        document = json.loads(z.read("evenings.json"))
        (tmp_path / "copy.sqlite").write_bytes(z.read("scorekeeper.sqlite"))
    assert len(document["evenings"]) == len(EVENINGS)
    with sqlite3.connect(tmp_path / "copy.sqlite") as connection:
        assert connection.execute("SELECT count(*) FROM evening").fetchone() == (len(EVENINGS),)
    connection.close()


def test_restore_page_brings_every_evening_back(client: FlaskClient, fresh: Fresh) -> None:
    play(client)
    data = download(client)
    other = fresh().test_client()
    response = upload(other, data)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    home = other.get("/", headers=EN).text
    assert f"{len(EVENINGS)} evenings restored." in home
    assert results(other) == results(client)
    again = upload(other, data)
    assert again.status_code == 303
    home = other.get("/", headers=EN).text
    assert f"0 evenings restored. {len(EVENINGS)} were already here and stay as they are." in home


def test_restore_page_takes_the_json_and_one_evenings_archive(
    client: FlaskClient,
    fresh: Fresh,
) -> None:
    play(client)
    with zipfile.ZipFile(io.BytesIO(download(client))) as z:
        evenings = z.read("evenings.json")
    other = fresh().test_client()
    assert upload(other, evenings, "evenings.json").status_code == 303
    assert results(other) == results(client)
    single = client.get("/api/v1/evenings/1/export").data
    third = fresh().test_client()
    assert upload(third, single, "abend.json").status_code == 303
    assert "1 evening restored." in third.get("/", headers=EN).text


def broken_backups(data: bytes) -> list[tuple[str, bytes, str]]:
    """Files people might pick by mistake, and backups broken in transit."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        document = json.loads(z.read("evenings.json"))
        database = z.read("scorekeeper.sqlite")
    for n, evening in enumerate(document["evenings"]):  # not here yet: all would be added
        evening["evening"]["created_at"] = f"2020-01-0{n + 1}T20:00:00Z"
    hand = document["evenings"][1]["hands"][0]
    hand["input"]["points"] = 99
    hand["revisions"][-1]["input"]["points"] = 99
    damaged = io.BytesIO()
    with zipfile.ZipFile(damaged, "w") as z:
        z.writestr("evenings.json", json.dumps(document))
    start = 100  # past the first header: inside the compressed evenings
    garbled = data[:start] + bytes(b ^ 0xFF for b in data[start : start + 64]) + data[start + 64 :]
    no_evenings = io.BytesIO()
    with zipfile.ZipFile(no_evenings, "w") as z:
        z.writestr("notes.txt", "Einkaufsliste")
    return [
        ("a photo", b"\xff\xd8\xff\xe0JFIF", "This file is not a Scorekeeper backup (not JSON)."),
        ("cut short", data[: len(data) // 2], "The file is damaged: the zip file cannot be read."),
        ("garbled", garbled, "The file is damaged: the zip file cannot be read."),
        ("other zip", no_evenings.getvalue(), "This zip file holds no evenings"),
        ("database", database, "This is a database file."),
        ("other JSON", b'{"hello": "world"}', "This file is not a Scorekeeper backup."),
        ("a number of 5000 digits", b'{"version": 1' + b"0" * 5000 + b"}", "(not JSON)"),
        ("a lone surrogate", b'{"format": "\\ud800"}', "(not JSON)"),
        (
            "one evening damaged",
            damaged.getvalue(),
            "Evening 2 in the file (2020-01-02): The file is damaged: hand 1 does not fit the "
            "rules: ",
        ),
    ]


@sqlite_only
def test_a_damaged_file_is_refused_in_plain_words_and_changes_nothing(
    client: FlaskClient,
    fresh: Fresh,
    snapshot: Snapshot,
) -> None:
    play(client)
    data = download(client)
    before = snapshot()
    for name, content, message in broken_backups(data):
        response = upload(client, content)
        assert response.status_code == 422, name
        assert message in response.text, name
    assert snapshot() == before
    missing = client.post("/backup/restore", data={}, headers=EN)
    assert missing.status_code == 422
    assert "Choose the backup file (.zip or .json) to restore." in missing.text
    german = client.post(
        "/backup/restore",
        data={"backup": (io.BytesIO(b"kaputt"), "x.zip")},
        headers={"Accept-Language": "de"},
    )
    assert "keine Scorekeeper-Sicherung" in german.text


def test_a_zip_that_unpacks_to_too_much_is_refused(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    play(client)
    data = download(client)
    monkeypatch.setattr(installation_backups, "MAX_JSON_BYTES", 1000)
    response = upload(client, data)
    assert response.status_code == 422
    assert "The file is damaged: its evenings are far too large." in response.text


def test_a_file_too_large_is_refused_in_plain_words(app: Flask, client: FlaskClient) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 1024 * 1024
    # A raw body: the test client would spool a large file field to a file of its own.
    response = client.post(
        "/backup/restore",
        data=b"x" * (2 * 1024 * 1024),
        content_type="multipart/form-data; boundary=frontier",
        headers=EN,
    )
    assert response.status_code == 413
    assert "This file is too large: at most 1 MB can be sent. Nothing was saved." in response.text


def test_who_may_manage_backups_is_decided_in_one_place(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(access, "may_manage_installation", lambda: False)
    assert 'href="/backup"' not in client.get("/").text
    for path in ["/backup", "/backup/scorekeeper-backup.zip", "/backup/restore"]:
        assert client.get(path).status_code == 403, path
    assert upload(client, b"{}").status_code == 403


def status(client: FlaskClient, path: str) -> int:
    """The status of a GET, the (streamed) body closed."""
    with client.get(path) as response:
        return response.status_code


@pytest.mark.parametrize("path", ["/backup", "/backup/scorekeeper-backup.zip", "/players"])
def test_a_tablet_needs_the_pin_for_backups_and_players(app: Flask, path: str) -> None:
    """Another device on the network: refused without a PIN, let in once it gave the PIN."""
    tablet = app.test_client()
    tablet.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    assert status(tablet, path) == 403
    refused = tablet.get(path, headers=EN).text
    assert "open only on the laptop that serves Scorekeeper, or after entering" in refused
    assert status(app.test_client(), path) == 200  # the laptop itself
    app.config["ACCESS_PIN"] = "4711"
    assert tablet.post("/api/v1/unlock", json={"pin": "4711"}).status_code == 200
    assert status(tablet, path) == 200
