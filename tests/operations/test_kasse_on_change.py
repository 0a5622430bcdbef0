"""Doppen's ``kasse_on_change`` through the shell (docs/doppen.md §8, "A player joins or
leaves"): new evenings share the Kasse out at a change of players; evenings and archives
stored before the rule keep the notes, so no amount already stored changes."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import downgrade, upgrade

from scorekeeper import MIGRATIONS
from scorekeeper.db.extensions import db
from tests.conftest import sqlite_only

THREE = ["Anne", "Bert", "Clara"]
PASS_WITH_BERTS_REVOKE = {"contract": "pass", "penalties": [{"player": "Bert"}]}


def doppen_with_a_newcomer(client: FlaskClient, **options: str) -> int:
    """Hand 1 at three, Dora sits down, hand 2: the evening's id."""
    body = {"game": "doppen", "players": THREE, "first_dealer": "Clara", "options": options}
    evening = client.post("/api/v1/evenings", json=body)
    assert evening.status_code == 201, evening.json
    number = evening.json["id"]
    for step in (
        ("hands", PASS_WITH_BERTS_REVOKE),
        ("seating", {"players": [*THREE, "Dora"], "dealer": "Anne"}),
        ("hands", {"contract": "pass"}),
    ):
        answer = client.post(f"/api/v1/evenings/{number}/{step[0]}", json=step[1])
        assert answer.status_code in (200, 201), answer.json
    return int(number)


def second_hand(client: FlaskClient, evening: int) -> dict[str, Any]:
    return dict(client.get(f"/api/v1/evenings/{evening}").json["hands"][1])


def test_a_new_evening_shares_the_kasse_out_at_the_hand_after_the_change(
    client: FlaskClient,
) -> None:
    evening = doppen_with_a_newcomer(client)
    shown = client.get(f"/api/v1/evenings/{evening}").json
    assert shown["options"]["kasse_on_change"] == "split"
    hand = second_hand(client, evening)
    assert hand["kasse_deltas"] == {
        "Anne": "0.16",
        "Bert": "-0.33",
        "Clara": "0.17",
        "Dora": "0.00",
    }
    page = client.get(f"/evenings/{evening}/hands", headers={"Accept-Language": "en"}).text
    assert "Players changed: the Kasse is shared out among those seated before" in page


def test_an_archive_written_before_the_rule_keeps_the_notes(client: FlaskClient) -> None:
    evening = doppen_with_a_newcomer(client, kasse_on_change="stays")
    exported = client.get(f"/api/v1/evenings/{evening}/export").json
    older = copy.deepcopy(exported)
    del older["evening"]["options"]["kasse_on_change"]
    for revision in older["settings_revisions"]:
        revision["settings"]["options"].pop("kasse_on_change", None)
    answer = client.post("/api/v1/evenings/import", json=older)
    assert answer.status_code == 201, answer.json
    imported = answer.json["id"]
    assert client.get(f"/api/v1/evenings/{imported}").json["options"]["kasse_on_change"] == "stays"
    assert (
        second_hand(client, imported)["kasse_deltas"]
        == second_hand(client, evening)["kasse_deltas"]
    )
    settled = client.get(f"/api/v1/evenings/{imported}/settlement").json
    assert settled == client.get(f"/api/v1/evenings/{evening}/settlement").json


@sqlite_only
def test_the_upgrade_gives_stored_doppen_evenings_the_notes_staying(
    old_app: Flask, tmp_path: Path
) -> None:
    """Migration 0013: stored without the key, read as ``stays``; going back removes it."""
    with old_app.app_context():
        upgrade(directory=str(MIGRATIONS))
    client = old_app.test_client()
    evening = doppen_with_a_newcomer(client, kasse_on_change="stays")
    before = client.get(f"/api/v1/evenings/{evening}/settlement").json
    with old_app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="0012")
        options = db.session.execute(db.text("SELECT options FROM evening")).scalar_one()
        assert "kasse_on_change" not in options
        upgrade(directory=str(MIGRATIONS))
        db.session.remove()
    assert client.get(f"/api/v1/evenings/{evening}").json["options"]["kasse_on_change"] == "stays"
    assert client.get(f"/api/v1/evenings/{evening}/settlement").json == before
