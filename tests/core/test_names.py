"""Names that look alike are one name; invisible characters are refused in names and dropped
from titles; names stored before are brought in line by the upgrade (``core/names.py``,
``operations/stored_names.py``, migration 0012; docs/limits.md "Names that look alike")."""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import Callable
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select, text

from scorekeeper import MIGRATIONS
from scorekeeper.core.names import fold, normal
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Hand, Player
from scorekeeper.operations.stored_names import normalise_players
from tests.conftest import sqlite_only

EN = {"Accept-Language": "en"}
#: Bert, and names that look just like it.
LOOK_ALIKES = [
    "Bert\u200b",  # zero-width space
    "Be\u00adrt",  # soft hyphen
    "\u0412\u0435rt",  # Cyrillic capital Ve and small ie
    "B\u0435rt",  # Cyrillic small ie
    "\u0392ert",  # Greek capital beta
    "\uff22\uff45\uff52\uff54",  # fullwidth
    "\U0001d401ert",  # mathematical bold capital B
    "Bert\u202e",  # right-to-left override
    " bert ",
]


@pytest.mark.parametrize("other", LOOK_ALIKES)
def test_look_alikes_fold_alike(other: str) -> None:
    assert fold(other) == fold("Bert")


@pytest.mark.parametrize(
    ("one", "other"),
    [("Müller", "Muller"), ("Gast 10", "Gast lo"), ("Anna", "Anne"), ("Ueli", "Veli")],
)
def test_names_that_differ_to_the_eye_stay_two(one: str, other: str) -> None:
    assert fold(one) != fold(other)


@given(st.text(max_size=30))
def test_folding_is_settled_after_once(name: str) -> None:
    """A folded name folds to itself, and a name folds as its stored spelling does."""
    assert fold(fold(name)) == fold(name)
    assert fold(normal(name)) == fold(name)


def players(*names: str) -> dict[str, Any]:
    return {"game": "troggen", "players": ["Anna", *names, "Dora"]}


@pytest.mark.parametrize("other", ["\u0412\u0435rt", "\uff22\uff45\uff52\uff54", "\u0392ert"])
def test_a_look_alike_at_one_table_is_refused_naming_the_first(
    client: FlaskClient, other: str, snapshot: Callable[[], Any]
) -> None:
    before = snapshot()
    answer = client.post("/api/v1/evenings", json=players("Bert", other), headers=EN)
    assert answer.status_code == 422
    message = answer.json["errors"]["players"][0]
    assert message.startswith(f"{other} looks the same as Bert, listed already")
    assert snapshot() == before


@pytest.mark.parametrize(
    "name", ["Bert\u200b", "Be\u00adrt", "\u202eBert", "Bert\u200e", "Be\u0000rt", "Be\ufeffrt"]
)
def test_an_invisible_character_in_a_name_is_refused(client: FlaskClient, name: str) -> None:
    answer = client.post("/api/v1/evenings", json=players(name, "Clara"), headers=EN)
    assert answer.status_code == 422
    assert "invisible" in answer.json["errors"]["players"][0] or "NUL" in str(answer.json)


@pytest.mark.parametrize("name", ["Einsatz\u200b", "\u0415insatz", "p\u043et", "\u041a\u0430sse"])
def test_the_reserved_words_are_judged_folded(client: FlaskClient, name: str) -> None:
    answer = client.post("/api/v1/evenings", json=players(name, "Clara"), headers=EN)
    assert answer.status_code == 422


def test_a_name_is_stored_composed(client: FlaskClient) -> None:
    decomposed = "Ju\u0308rg"
    evening = client.post("/api/v1/evenings", json=players(decomposed, "Clara")).json
    assert evening["players"][1] == "J\u00fcrg"


def test_titles_and_places_lose_invisible_characters(client: FlaskClient) -> None:
    body = {**players("Bert", "Clara"), "title": "Museum\u200bsabend", "place": "Solo\u00adthurn"}
    evening = client.post("/api/v1/evenings", json=body).json
    assert (evening["title"], evening["place"]) == ("Museumsabend", "Solothurn")


def test_groups_composed_and_decomposed_are_one_name(client: FlaskClient) -> None:
    first = client.post("/api/v1/groups", json={"name": "Z\u00fcrich"})
    assert first.status_code == 201
    second = client.post("/api/v1/groups", json={"name": "Zu\u0308rich"}, headers=EN)
    assert second.status_code == 422
    cyrillic = client.post("/api/v1/groups", json={"name": "Z\u00fcri\u0441h"}, headers=EN)
    assert cyrillic.status_code == 422
    assert "Z\u00fcrich looks the same" in cyrillic.json["errors"]["name"][0]


def test_a_member_is_not_renamed_like_another(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Runde"}).json["id"]
    client.post("/api/v1/evenings", json={**players("Bert", "Clara"), "group": group})
    members = client.get(f"/api/v1/groups/{group}").json["members"]
    anna = next(m for m in members if m["name"] == "Anna")
    answer = client.patch(
        f"/api/v1/groups/{group}/members/{anna['id']}", json={"name": "B\u0435rt"}, headers=EN
    )
    assert answer.status_code == 422
    assert "Another member is called Bert already" in answer.json["errors"]["name"][0]


def test_players_stored_before_are_renamed_everywhere_when_they_look_alike(
    app: Flask, client: FlaskClient
) -> None:
    """As stored before: Bert and Bert with a zero-width space, two players at one table,
    each quoted by a hand. The upgrade renames the later one in its seat and its hands;
    the evening's amounts stay as they were."""
    evening = client.post("/api/v1/evenings", json=players("Bert", "Bertram")).json["id"]
    client.post(
        f"/api/v1/evenings/{evening}/hands",
        json={"contract": "einfach", "bidder": "Bertram", "points": 41},
    )
    before = client.get(f"/api/v1/evenings/{evening}/settlement").json
    with app.app_context():
        hidden = "Bert\u200b"
        db.session.execute(
            text("UPDATE player SET name = :n, name_key = :k WHERE name = 'Bertram'"),
            {"n": hidden, "k": hidden.casefold()},
        )
        for stored in db.session.scalars(select(Hand)):
            stored.input = json.loads(json.dumps(stored.input).replace("Bertram", hidden))
        db.session.commit()
        from scorekeeper.db.kept import forget_all

        forget_all(app)
        assert normalise_players() == [(hidden, "Bert (2)")]
        db.session.commit()
        assert normalise_players() == []
        names = db.session.scalars(select(Player.name).order_by(Player.id)).all()
    assert "Bert (2)" in names
    assert hidden not in names
    shown = client.get(f"/api/v1/evenings/{evening}").json
    assert shown["players"][2] == "Bert (2)"
    assert shown["hands"][0]["input"]["bidder"] == "Bert (2)"
    after = client.get(f"/api/v1/evenings/{evening}/settlement").json
    assert str(after).replace("Bert (2)", "Bertram") == str(before)


@sqlite_only
def test_the_upgrade_renames_groups_and_members_that_look_alike_and_lists_them(
    old_app: Flask, tmp_path: Path
) -> None:
    app, path = old_app, tmp_path / "old.sqlite"
    with app.app_context():
        upgrade(directory=str(MIGRATIONS), revision="0011")
        db.engine.dispose()
    with sqlite3.connect(path) as connection:
        connection.executemany(
            "INSERT INTO table_group (id, name, name_key, created_at) VALUES (?, ?, ?, ?)",
            [
                (1, "Z\u00fcrich", "z\u00fcrich", "2026-01-01 00:00:00"),
                (2, "Zu\u0308rich", "zu\u0308rich", "2026-01-02 00:00:00"),
                (3, "Bern\u200b", "bern\u200b", "2026-01-03 00:00:00"),
            ],
        )
        connection.executemany(
            "INSERT INTO member (id, group_id, name, created_at) VALUES (?, ?, ?, ?)",
            [
                (1, 1, "Bert", "2026-01-01 00:00:00"),
                (2, 1, "\u0412\u0435rt", "2026-01-01 00:00:00"),
                (3, 2, "Bert", "2026-01-01 00:00:00"),
            ],
        )
    connection.close()
    listed = io.StringIO()
    with app.app_context(), redirect_stderr(listed):
        upgrade(directory=str(MIGRATIONS))
        db.engine.dispose()
    with sqlite3.connect(path) as connection:
        groups = connection.execute("SELECT name FROM table_group ORDER BY id").fetchall()
        members = connection.execute("SELECT name, name_key FROM member ORDER BY id").fetchall()
    connection.close()
    assert groups == [("Z\u00fcrich",), ("Z\u00fcrich (2)",), ("Bern",)]
    assert members == [("Bert", "bert"), ("\u0412\u0435rt (2)", "bert (2)"), ("Bert", "bert")]
    assert "is now called 'Z\u00fcrich (2)'" in listed.getvalue()
    assert "(2)'" in listed.getvalue()


def test_an_archive_from_before_imports_with_its_names_stored_composed(
    client: FlaskClient,
) -> None:
    """An archive written before names were checked, with a decomposed name: it imports,
    and its new player is stored composed; the evening replays as exported."""
    evening = client.post("/api/v1/evenings", json=players("Bert", "Clara")).json["id"]
    client.post(
        f"/api/v1/evenings/{evening}/hands",
        json={"contract": "einfach", "bidder": "Clara", "points": 41},
    )
    exported = client.get(f"/api/v1/evenings/{evening}/export").json
    decomposed = json.loads(json.dumps(exported).replace("Clara", "Cla\\u0308ra"))
    answer = client.post("/api/v1/evenings/import", json=decomposed)
    assert answer.status_code == 201, answer.json
    imported = client.get(f"/api/v1/evenings/{answer.json['id']}").json
    assert imported["players"][2] == "Cl\u00e4ra"
    settled = client.get(f"/api/v1/evenings/{answer.json['id']}/settlement").json
    original = client.get(f"/api/v1/evenings/{evening}/settlement").json
    assert str(settled).replace("Cl\u00e4ra", "Clara") == str(original)
