"""A club's five years fit a backup with room to spare (docs/limits.md).

A club playing weekly for five years records about 15,000 hands. The backup of such an
installation, with corrections and voids, is built here in memory through the backup
module's own export and read functions, and must stay far below the limits that guard a
restore: ``MAX_CONTENT_LENGTH`` for the upload and ``installation_backups.MAX_JSON_BYTES`` for the
evenings inside a zip. It must also be read back whole, and its evenings restore.
"""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert, select

from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import Table
from scorekeeper.core.validation import VOID_LENGTH
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Hand, HandRevision, Player
from scorekeeper.operations import installation_backups
from scorekeeper.operations.hands import MAX_HANDS
from tests.conftest import Fresh

#: Fifty evenings a year for five years, sixty hands each.
EVENINGS = 250
HANDS = 60
#: One hand in five corrected, one in twenty voided with the longest reason allowed.
CORRECTED_EVERY = 5
VOIDED_EVERY = 20
#: How far below each limit the backup stays: "with room to spare".
ROOM = 10

GAMES: list[tuple[dict[str, Any], list[dict[str, Any]]]] = [
    (
        {"game": "troggen", "players": ["Anna", "Bert", "Clara", "Dora"]},
        [
            {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"},
            {"contract": "einfach", "bidder": "Bert", "won": False},
            {"contract": "misere", "points": {"Anna": 10, "Bert": 20, "Clara": 21, "Dora": 11}},
        ],
    ),
    (
        {"game": "doppen", "players": ["Anne", "Bert", "Clara"]},
        [
            {"contract": "dreier", "soloist": "Anne", "points": 41, "kontra": {"game": 1}},
            {"contract": "pass", "penalties": [{"player": "Bert", "kind": "revoke"}]},
        ],
    ),
    (
        {"game": "troggu", "variant": "visp", "players": ["Anna", "Beat", "Carla", "Dani"]},
        [
            {"contract": "normal", "declarer": "Beat", "points": 62},
            {"contract": "misere", "points": {"Anna": 30, "Beat": 22, "Carla": 20, "Dani": 20}},
        ],
    ),
]


def stored_inputs(start: dict[str, Any], bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hands as the rules store them (every key present, names as seated)."""
    variant = get_variant(start["game"], start.get("variant"))
    table = Table(tuple(start["players"]), start["players"][-1])
    return [variant.parse_hand(body, table, {}).to_json() for body in bodies]


def hand_rows(evening: int, start: dict[str, Any], ids: dict[str, int]) -> list[dict[str, Any]]:
    """The evening's hands, a week after the one before."""
    inputs = stored_inputs(*next((s, b) for s, b in GAMES if s == start))
    players = start["players"]
    first = datetime(2021, 1, 6, 19, tzinfo=UTC) + timedelta(weeks=evening)
    rows = []
    for n in range(1, HANDS + 1):
        voided = n % VOIDED_EVERY == 0
        at = first + timedelta(minutes=3 * n)
        rows.append(
            {
                "evening_id": evening,
                "number": n,
                "dealer_id": ids[players[n % len(players)]],
                "input": inputs[n % len(inputs)],
                "version": 1 + (n % CORRECTED_EVERY == 0) + voided,
                "void_reason": "v" * VOID_LENGTH if voided else None,
                "created_at": at,
                "updated_at": at,
                "source": "page",
            }
        )
    return rows


def revision_rows(rows: list[dict[str, Any]], ids: dict[int, int]) -> list[dict[str, Any]]:
    """Every version of each changed hand: as first recorded, corrected, voided."""
    revisions = []
    for row in rows:
        if row["version"] == 1:
            continue
        number, at = row["number"], row["created_at"]
        versions = [row["input"]] * (1 + (number % CORRECTED_EVERY == 0))
        for version, facts in enumerate(versions, start=1):
            revisions.append(
                {
                    "hand_id": ids[number],
                    "version": version,
                    "input": facts,
                    "void_reason": None,
                    "at": at + timedelta(minutes=version),
                    "source": "page",
                    "reason": None,
                }
            )
        if row["void_reason"]:
            revisions.append(
                {
                    "hand_id": ids[number],
                    "version": row["version"],
                    "input": row["input"],
                    "void_reason": row["void_reason"],
                    "at": at + timedelta(minutes=9),
                    "source": "page",
                    "reason": None,
                }
            )
    return revisions


def five_years(app: Flask, client: FlaskClient) -> int:
    """Fill the installation with a club's five years; the number of hands stored."""
    count = 0
    for i in range(EVENINGS):
        start, _ = GAMES[i % len(GAMES)]
        body = {**start, "title": f"Clubabend {i + 1}", "place": "Restaurant Sonne"}
        response = client.post("/api/v1/evenings", json=body)
        assert response.status_code == 201, response.json
        evening = int(response.json["id"])
        with app.app_context():
            players = {
                name: id_ for name, id_ in db.session.execute(select(Player.name, Player.id))
            }
            rows = hand_rows(evening, start, players)
            db.session.execute(insert(Hand), rows)
            numbers = select(Hand.number, Hand.id).where(Hand.evening_id == evening)
            hands = {number: id_ for number, id_ in db.session.execute(numbers)}
            db.session.execute(insert(HandRevision), revision_rows(rows, hands))
            db.session.commit()
        count += len(rows)
    return count


def test_a_clubs_five_years_fit_a_backup_with_room_to_spare(
    app: Flask, client: FlaskClient, fresh: Fresh
) -> None:
    assert five_years(app, client) == 15_000
    with app.app_context():
        buffer = io.BytesIO()
        assert installation_backups.write_zip(buffer, datetime(2026, 1, 1, tzinfo=UTC)) == EVENINGS
    data = buffer.getvalue()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        evenings_json = z.getinfo(installation_backups.JSON_NAME).file_size
    upload_limit = app.config["MAX_CONTENT_LENGTH"]
    # About 1 MB zipped (12 MB of JSON, 5 MB of SQLite) when this was written.
    assert len(data) * ROOM < upload_limit, len(data)
    assert evenings_json * ROOM < installation_backups.MAX_JSON_BYTES, evenings_json
    # Even unzipped, the evenings would be a file the restore page takes.
    assert evenings_json * 4 < upload_limit, evenings_json

    archives = installation_backups.read_backup(data)
    assert len(archives) == EVENINGS
    assert sum(len(a["hands"]) for a in archives) == 15_000
    assert max(len(a["hands"]) for a in archives) <= MAX_HANDS
    voids = [h for a in archives for h in a["hands"] if h["void_reason"]]
    assert len(voids) == 15_000 // VOIDED_EVERY
    assert all(len(h["revisions"]) >= 2 for h in voids)

    # A tenth of the evenings, one of each game among them, restores into another
    # installation (each evening replays on import: the data is a real club's).
    elsewhere = fresh()
    with elsewhere.app_context():
        restored = installation_backups.restore_evenings(archives[::10])
        db.session.commit()
        assert len(restored.imported) == EVENINGS // 10
        assert {e.game for e in restored.imported} == {"troggen", "doppen", "troggu"}
