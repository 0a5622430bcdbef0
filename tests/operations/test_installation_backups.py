"""Backups from the command line, and restoring them into a fresh or a used installation.

A backup is only worth what its restore gives back: every test here restores and compares
each evening's ledger and settlement with the original, game by game.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import make_url

from scorekeeper.db.kept import KEPT
from scorekeeper.operations import installation_backups
from tests.conftest import Fresh, sqlite_only
from tests.played import EVENINGS, play, results

pytestmark = sqlite_only

NOW = datetime(2026, 11, 21, 23, 30, tzinfo=UTC)
#: Enough backups to catch the evening at several moments, few enough to restore quickly.
MAX_BACKUPS = 8


@pytest.fixture
def played(client: FlaskClient) -> dict[str, dict[str, Any]]:
    """Evenings of every game with corrections, voids, a tick and a closing; their results."""
    play(client)
    return results(client)


def restore(app: Flask, *args: str) -> Any:
    """Run ``flask restore`` against ``app``."""
    return app.test_cli_runner().invoke(args=["restore", *args])


def backup_files(app: Flask, folder: Path) -> tuple[Path, Path]:
    """Run ``flask backup FOLDER``; the JSON and SQLite files it wrote."""
    result = app.test_cli_runner().invoke(args=["backup", str(folder)])
    assert result.exit_code == 0, result.output
    json_file = next(folder.glob("scorekeeper-*.json"))
    sqlite_file = next(folder.glob("scorekeeper-*.sqlite"))
    return json_file, sqlite_file


def test_backup_writes_every_evening_and_the_database(
    app: Flask, played: dict[str, Any], tmp_path: Path
) -> None:
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "usb")])
    assert result.exit_code == 0, result.output
    assert f"{len(EVENINGS)} evenings written to" in result.output
    json_file = next((tmp_path / "usb").glob("scorekeeper-*.json"))
    document = json.loads(json_file.read_text())
    assert document["format"] == "scorekeeper-backup"
    assert [e["evening"]["game"] for e in document["evenings"]] == [
        start["game"] for start, _ in EVENINGS
    ]
    sqlite_file = next((tmp_path / "usb").glob("scorekeeper-*.sqlite"))
    with sqlite3.connect(sqlite_file) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert connection.execute("SELECT count(*) FROM evening").fetchone() == (len(EVENINGS),)
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    connection.close()
    assert not list((tmp_path / "usb").glob(".*"))  # no half-written drafts left


def test_backup_goes_to_the_instance_folder_by_default(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["backup"])
    assert result.exit_code == 0, result.output
    assert len(list(Path(app.instance_path, "backups").glob("scorekeeper-*"))) == 2


def test_restore_into_a_fresh_installation_gives_every_ledger_back(
    app: Flask, played: dict[str, Any], fresh: Fresh, tmp_path: Path
) -> None:
    json_file, sqlite_file = backup_files(app, tmp_path / "backup")
    from_json = fresh()
    result = restore(from_json, str(json_file))
    assert result.exit_code == 0, result.output
    assert f"{len(EVENINGS)} evenings restored; 0 were already here" in result.output
    assert results(from_json.test_client()) == played
    from_file = fresh()
    result = restore(from_file, str(sqlite_file), "--yes")
    assert result.exit_code == 0, result.output
    assert results(from_file.test_client()) == played
    kept = list(Path(from_file.instance_path, "backups").glob("before-restore-*.sqlite"))
    assert len(kept) == 1  # the database it replaced


def test_restoring_again_or_into_a_used_installation_duplicates_nothing(
    app: Flask, client: FlaskClient, played: dict[str, Any], fresh: Fresh, tmp_path: Path
) -> None:
    json_file, _ = backup_files(app, tmp_path / "backup")
    result = restore(app, str(json_file))
    assert result.exit_code == 0, result.output
    assert f"0 evenings restored; {len(EVENINGS)} were already here" in result.output
    assert results(client) == played
    used = fresh()
    play(used.test_client())  # other evenings, started at other moments
    mine = results(used.test_client())
    assert restore(used, str(json_file)).exit_code == 0
    assert results(used.test_client()) == {**mine, **played}


def test_a_damaged_backup_is_refused_whole(
    app: Flask,
    played: dict[str, Any],
    fresh: Fresh,
    tmp_path: Path,
    snapshot: Callable[[], Any],
) -> None:
    json_file, _ = backup_files(app, tmp_path / "backup")
    document = json.loads(json_file.read_text())
    hand = document["evenings"][3]["hands"][0]
    hand["input"]["points"] = 999
    hand["revisions"][-1]["input"]["points"] = 999
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document))
    target = fresh()
    result = restore(target, str(broken))
    assert result.exit_code != 0
    started = document["evenings"][3]["evening"]["created_at"][:10]
    assert (
        f"Evening 4 in the file ({started}): The file is damaged: hand 1 does not fit the "
        "rules: " in result.output
    )
    assert "Nothing was restored." in result.output
    assert results(target.test_client()) == {}


def test_a_backup_names_the_damaged_evening_by_its_title_and_date(
    app: Flask, played: dict[str, Any], fresh: Fresh, tmp_path: Path
) -> None:
    json_file, _ = backup_files(app, tmp_path / "backup")
    document = json.loads(json_file.read_text())
    del document["evenings"][0]["hands"][1]  # the first evening's hand 2
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document))
    target = fresh()
    result = restore(target, str(broken))
    assert result.exit_code != 0
    assert (
        "Evening 1 in the file (“Museumsabend mit Anna” of 2026-11-21): The file is damaged: "
        "hand 2 is missing (the hands jump from 1 to 3). Nothing was restored."
    ) in result.output
    assert results(target.test_client()) == {}


def test_an_evening_already_here_is_checked_too(
    app: Flask, played: dict[str, Any], tmp_path: Path, snapshot: Callable[[], Any]
) -> None:
    """Restoring into the installation the backup came from adds nothing, yet a damaged
    evening in the file still refuses it whole: the file is not to be trusted."""
    json_file, _ = backup_files(app, tmp_path / "backup")
    document = json.loads(json_file.read_text())
    document["evenings"][1]["hands"][0]["revisions"][0]["version"] = 2
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document))
    before = snapshot()
    result = restore(app, str(broken))
    assert result.exit_code != 0
    assert "Evening 2 in the file (" in result.output
    assert (
        "The file is damaged: version 1 of hand 1 is missing (the versions start at 2)."
        in result.output
    )
    assert snapshot() == before


def test_restoring_the_database_file_asks_first(
    app: Flask, played: dict[str, Any], fresh: Fresh, tmp_path: Path
) -> None:
    _, sqlite_file = backup_files(app, tmp_path / "backup")
    target = fresh()
    result = target.test_cli_runner().invoke(args=["restore", str(sqlite_file)], input="n\n")
    assert "Stop the Scorekeeper server first." in result.output
    assert result.exit_code != 0
    assert results(target.test_client()) == {}


def test_restoring_the_database_file_forgets_what_the_app_kept(
    app: Flask, played: dict[str, Any], fresh: Fresh, tmp_path: Path
) -> None:
    """Evening 1 of the replaced database was a casual one, kept replayed: in the restored
    file evening 1 is another evening, so nothing of the old one may be remembered."""
    _, sqlite_file = backup_files(app, tmp_path / "backup")
    target = fresh()
    client = target.test_client()
    created = client.post("/api/v1/evenings", json={"game": "doppen", "players": ["A", "B", "C"]})
    assert created.status_code == 201
    assert client.get(f"/evenings/{created.json['id']}").status_code == 200
    stores = target.extensions[KEPT]
    assert stores["casual_evenings"] == {1}
    assert stores["snapshots"].get(1) is not None
    result = restore(target, str(sqlite_file), "--yes")
    assert result.exit_code == 0, result.output
    assert stores["casual_evenings"] == set()
    assert stores["snapshots"].get(1) is None
    assert not stores["blank_forms"]
    assert results(target.test_client()) == played


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"SQLite format 3\x00" + b"\x00" * 200, "The database file is damaged"),
        (None, "This is not a Scorekeeper database."),
        ("9999", "written by another version of Scorekeeper"),
    ],
    ids=["damaged", "foreign", "newer"],
)
def test_a_foreign_or_newer_database_file_is_refused(
    app: Flask, tmp_path: Path, content: bytes | str | None, message: str
) -> None:
    path = tmp_path / "other.sqlite"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        with sqlite3.connect(path) as connection:
            if content is None:
                connection.execute("CREATE TABLE notes (text TEXT)")
            else:
                connection.execute("CREATE TABLE alembic_version (version_num TEXT)")
                connection.execute("INSERT INTO alembic_version VALUES (?)", (content,))
        connection.close()
    before = Path(app.config["DATABASE_URL"].removeprefix("sqlite:///")).read_bytes()
    result = restore(app, str(path), "--yes")
    assert result.exit_code != 0
    assert message in result.output
    assert Path(app.config["DATABASE_URL"].removeprefix("sqlite:///")).read_bytes() == before


def test_the_database_in_use_is_not_its_own_backup(app: Flask) -> None:
    live = app.config["DATABASE_URL"].removeprefix("sqlite:///")
    result = restore(app, live, "--yes")
    assert result.exit_code != 0
    assert "This is the database in use" in result.output


def test_backup_while_hands_are_recorded(app: Flask, fresh: Fresh, tmp_path: Path) -> None:
    """Backups taken between the writes of another tablet each hold a moment of the evening.

    Restored, each has the first hands of the evening exactly as they are at the end, both
    from its JSON and from its database file.
    """
    client = app.test_client()
    start = {"game": "troggen", "players": ["Anna", "Bert", "Clara", "Dora"]}
    evening = client.post("/api/v1/evenings", json=start).json["id"]
    hands = [
        {"contract": c, "bidder": b, "points": p}
        for c, b, p in [("einfach", "Anna", 40), ("doppelt", "Bert", 30), ("ohne", "Clara", 36)]
    ] * 12
    problems: list[object] = []
    # A backup takes as long as many hands, and which thread runs faster depends on the
    # machine: the tablet holds back its last hand until a backup begun after its first
    # hand is written, so at least one backup is surely taken mid-evening.
    first_hand, mid_evening = threading.Event(), threading.Event()

    def tablet() -> None:
        writer = app.test_client()
        for number, body in enumerate(hands, start=1):
            if number == len(hands):
                mid_evening.wait(timeout=60)
            response = writer.post(f"/api/v1/evenings/{evening}/hands", json=body)
            if response.status_code != 201:
                problems.append(response.json)
            first_hand.set()

    thread = threading.Thread(target=tablet)
    thread.start()
    folders = []
    with app.app_context():
        while thread.is_alive() and (len(folders) < MAX_BACKUPS or not mid_evening.is_set()):
            begun_mid_evening = first_hand.is_set()
            folder = tmp_path / f"backup-{len(folders)}"
            installation_backups.write_backup(folder, NOW)
            folders.append(folder)
            if begun_mid_evening:
                mid_evening.set()
            time.sleep(0.05)
    thread.join()
    assert problems == []
    final = client.get(f"/api/v1/evenings/{evening}").json["hands"]
    assert len(final) == len(hands)
    seen = set()
    for folder in folders:
        kept = []
        for file, extra in [
            (next(folder.glob("*.json")), ()),
            (next(folder.glob("*.sqlite")), ("--yes",)),
        ]:
            target = fresh()
            assert restore(target, str(file), *extra).exit_code == 0
            (only,) = results(target.test_client()).values()
            kept.append(only["evening"]["hands"])
        assert kept[0] == kept[1]  # the JSON and the database file hold the same moment
        assert kept[0] == final[: len(kept[0])]
        seen.add(len(kept[0]))
    assert any(0 < n < len(hands) for n in seen), seen  # one at least was taken mid-evening


def test_pg_dump_advice_names_the_database_but_not_its_password() -> None:
    url = make_url("postgresql+psycopg://scorer:geheim@db.local:5432/scorekeeper")
    advice = installation_backups.pg_dump_advice(url, Path("/mnt/usb"), NOW)
    assert "geheim" not in advice
    assert "pg_dump --format=custom --file=/mnt/usb/scorekeeper-2026-11-21-233000.dump" in advice
    assert "'postgresql://scorer@db.local:5432/scorekeeper'" in advice
    assert "pg_restore" in advice
