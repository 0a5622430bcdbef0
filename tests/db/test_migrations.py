"""Evenings stored under the first schema survive every migration with the same ledgers.

The facts of evenings of every game are written with plain SQL into a database at
migration 0001, the data that later schemas added (ticks, language, closing) at the step
that added it; then the database is upgraded to the newest schema. Every evening must then
replay to exactly the ledger and settlement the current code computes when the same hands
are recorded through the API into a fresh database.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import downgrade, upgrade
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from scorekeeper import MIGRATIONS
from scorekeeper.db.extensions import db
from tests.conftest import sqlite_only
from tests.played import play, results

pytestmark = sqlite_only

#: The first schema's tables, parents before children.
FIRST_TABLES = [
    "player",
    "evening",
    "evening_revision",
    "seating",
    "seat",
    "hand",
    "hand_revision",
    "idempotent_response",
]


def columns(connection: sqlite3.Connection, table: str) -> list[str]:
    """The columns ``table`` has in the schema ``connection`` is at."""
    return [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]


def copy_rows(source: Path, target: Path, table: str) -> int:
    """Insert every row of ``table`` from ``source`` into ``target``, with SQL only, in the
    columns the target's schema has."""
    with sqlite3.connect(source) as old, sqlite3.connect(target) as new:
        names = columns(new, table)
        rows = old.execute(f"SELECT {', '.join(names)} FROM {table}").fetchall()
        marks = ", ".join("?" for _ in names)
        new.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})", rows)
    old.close()
    new.close()
    return len(rows)


@pytest.fixture
def expected(client: FlaskClient) -> dict[str, dict[str, Any]]:
    """Evenings of every game recorded through the API into a fresh database."""
    play(client)
    return results(client)


def fill_step_by_step(app: Flask, source: Path, target: Path) -> None:
    """Write the facts of ``source`` into ``target`` as each schema version held them."""
    with app.app_context():
        upgrade(directory=str(MIGRATIONS), revision="0001")
        assert sum(copy_rows(source, target, t) for t in FIRST_TABLES) > 0
        upgrade(directory=str(MIGRATIONS), revision="0002")
        assert copy_rows(source, target, "settlement_tick") == 1
        upgrade(directory=str(MIGRATIONS), revision="0003")
        with sqlite3.connect(source) as old, sqlite3.connect(target) as new:
            rows = old.execute("SELECT language, closed_at, id FROM evening").fetchall()
            new.executemany("UPDATE evening SET language = ?, closed_at = ? WHERE id = ?", rows)
        old.close()
        new.close()
        upgrade(directory=str(MIGRATIONS))
        db.engine.dispose()


def without_later_data(found: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Results without what only later schemas store (a downgrade drops it): Doppen's
    ``kasse_on_change`` comes back as ``stays`` (migration 0013), which the evenings
    played here, without a change of players, score alike."""
    out = {}
    for key, value in found.items():
        evening = {k: v for k, v in value["evening"].items() if k not in {"language", "closed"}}
        if "options" in evening:
            options = {k: v for k, v in evening["options"].items() if k != "kasse_on_change"}
            evening["options"] = options
        out[key] = {**value, "evening": evening}
    return out


def test_evenings_from_the_first_schema_replay_the_same_after_every_migration(
    app: Flask, expected: dict[str, Any], old_app: Flask, tmp_path: Path
) -> None:
    source = Path(app.config["DATABASE_URL"].removeprefix("sqlite:///"))
    target = tmp_path / "old.sqlite"
    fill_step_by_step(old_app, source, target)
    assert results(old_app.test_client()) == expected
    with sqlite3.connect(target) as connection:
        assert connection.execute("SELECT count(*) FROM settlement_tick").fetchone() == (1,)
        # The evenings' rows count the hands they already had (migration 0007).
        counts = connection.execute(
            "SELECT hand_count, edit_count,"
            " (SELECT count(*) FROM hand WHERE hand.evening_id = evening.id) FROM evening"
        ).fetchall()
    connection.close()
    assert all(kept == stored and edits == 0 for kept, edits, stored in counts)
    assert any(stored > 0 for _, _, stored in counts)


def test_downgrade_to_the_first_schema_and_back_keeps_every_ledger(
    app: Flask, expected: dict[str, Any], old_app: Flask, tmp_path: Path
) -> None:
    source = Path(app.config["DATABASE_URL"].removeprefix("sqlite:///"))
    fill_step_by_step(old_app, source, tmp_path / "old.sqlite")
    with old_app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="0001")
        upgrade(directory=str(MIGRATIONS))
        db.engine.dispose()
    assert without_later_data(results(old_app.test_client())) == without_later_data(expected)


def test_foreign_keys_are_checked_again_after_the_start_up_migration(app: Flask) -> None:
    """Migrations switch SQLite's foreign keys off; the app's connections need them on."""
    with app.app_context():
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        with pytest.raises(IntegrityError):
            db.session.execute(text("INSERT INTO seat VALUES (99, 0, 99)"))
        db.session.rollback()


def test_going_back_before_hands_kept_their_first_version_writes_it(app: Flask) -> None:
    """Schemas before 0006 kept every hand's first version as a revision: a downgrade writes
    those the hands recorded since left out, so no history is lost."""
    client = app.test_client()
    evening = client.post(
        "/api/v1/evenings", json={"game": "troggen", "players": ["Anna", "Bert", "Clara", "Dora"]}
    ).json["id"]
    body = {"contract": "einfach", "bidder": "Anna", "points": 40}
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=body).status_code == 201
    with app.app_context():
        assert db.session.execute(text("SELECT count(*) FROM hand_revision")).scalar() == 0
        db.session.remove()
        downgrade(directory=str(MIGRATIONS), revision="0005")
        rows = db.session.execute(text("SELECT version, input, source FROM hand_revision")).all()
        db.session.remove()
        upgrade(directory=str(MIGRATIONS))
        db.engine.dispose()
    assert len(rows) == 1
    version, stored, source = rows[0]
    assert (version, source) == (1, "api")
    assert json.loads(stored)["points"] == 40
