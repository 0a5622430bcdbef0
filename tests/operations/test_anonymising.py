"""Anonymising a guest: the name leaves every table, every amount stays where it was."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.db.extensions import db
from scorekeeper.db.models import Player
from scorekeeper.operations import anonymising
from scorekeeper.web import access
from tests.played import play, results

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
DE = {"Accept-Language": "de"}


def renamed(value: Any, old: str, new: str) -> Any:
    """``value`` with every whole-word ``old`` replaced by ``new``, keys included."""
    pattern = re.compile(rf"\b{re.escape(old)}\b")
    if isinstance(value, dict):
        return {renamed(k, old, new): renamed(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    if isinstance(value, str):
        return pattern.sub(new, value)
    return value


def player_id(app: Flask, name: str) -> int:
    """The id of the player called ``name``."""
    with app.app_context():
        return int(db.session.scalars(select(Player.id).where(Player.name == name)).one())


def everything(snapshot: Snapshot) -> str:
    """Every cell of every table as one text, to search for a name."""
    return json.dumps(snapshot(), default=str, ensure_ascii=False)


@pytest.fixture
def played(client: FlaskClient) -> dict[str, Any]:
    """Evenings of every game, Anna in six of them (in a title, a void reason and a tick),
    and an answer kept for a repeated request that names her."""
    play(client)
    kept = client.post(
        "/api/v1/evenings/1/hands",
        json={"contract": "einfach", "bidder": "Anna", "points": 40},
        headers={"Idempotency-Key": "tablet-1"},
    )
    assert kept.status_code == 201
    return results(client)


def test_anonymising_keeps_every_ledger_and_removes_the_name_everywhere(
    app: Flask, client: FlaskClient, played: dict[str, Any], snapshot: Snapshot
) -> None:
    stored = everything(snapshot)
    for where in ['"Anna"', "mit Anna", "Anna hat falsch", '"tablet-1"']:
        assert where in stored  # the places the name must leave
    page = client.get(f"/players/{player_id(app, 'Anna')}/anonymise", headers=DE)
    assert "Anna heisst neu Gast 1 an jedem Abend, an dem sie oder er gespielt hat (6)" in page.text
    response = client.post(f"/players/{player_id(app, 'Anna')}/anonymise", headers=DE)
    assert response.status_code == 303
    assert "Anna heisst jetzt Gast 1 an jedem Abend." in client.get("/players", headers=DE).text
    assert results(client) == renamed(played, "Anna", "Gast 1")
    assert "Anna" not in everything(snapshot)


def test_settlement_per_seat_is_unchanged(app: Flask, client: FlaskClient) -> None:
    play(client)
    before = [
        client.get(f"/api/v1/evenings/{e}/settlement").json["net"] for e in (1, 2, 3, 4, 5, 6)
    ]
    with app.test_request_context(headers=DE):
        anonymising.anonymise_player(player_id(app, "Bert"))
        anonymising.anonymise_player(player_id(app, "Carla"))
        db.session.commit()
    after = [client.get(f"/api/v1/evenings/{e}/settlement").json["net"] for e in (1, 2, 3, 4, 5, 6)]
    for old, new in zip(before, after, strict=True):
        assert list(old.values()) == list(new.values())  # seat by seat
    assert "Gast 1" in after[0]
    assert "Gast 2" in after[2]


def test_neutral_names_are_unique_in_both_languages(app: Flask, client: FlaskClient) -> None:
    client.post(
        "/api/v1/evenings", json={"game": "troggen", "players": ["Guest 1", "gast 3", "A", "B"]}
    )
    with app.test_request_context(headers=DE):
        assert anonymising.anonymise_player(player_id(app, "A")) == "Gast 2"
        db.session.commit()
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert anonymising.anonymise_player(player_id(app, "B")) == "Guest 4"
        db.session.commit()


def test_a_player_called_like_a_rule_word_is_anonymised_safely(
    app: Flask, client: FlaskClient
) -> None:
    start = {"game": "troggu", "variant": "visp", "players": ["solo", "normal", "Cara", "Dani"]}
    evening = client.post("/api/v1/evenings", json=start).json["id"]
    for body in [
        {"contract": "solo", "declarer": "solo", "points": 70},
        {"contract": "normal", "declarer": "normal", "points": 50},
    ]:
        assert client.post(f"/api/v1/evenings/{evening}/hands", json=body).status_code == 201
    (before,) = results(client).values()
    with app.test_request_context():
        anonymising.anonymise_player(player_id(app, "solo"))
        db.session.commit()
    (after,) = results(client).values()
    assert after["evening"]["players"] == ["Guest 1", "normal", "Cara", "Dani"]
    hands = after["evening"]["hands"]
    assert [h["input"]["contract"] for h in hands] == ["solo", "normal"]
    assert [h["input"]["declarer"] for h in hands] == ["Guest 1", "normal"]
    assert [list(h["deltas"].values()) for h in hands] == [
        list(h["deltas"].values()) for h in before["evening"]["hands"]
    ]
    assert list(after["settlement"]["net"].values()) == list(before["settlement"]["net"].values())


def test_a_renaming_that_would_change_an_amount_changes_nothing(
    app: Flask, client: FlaskClient, snapshot: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replay after renaming is the safety net: here the rule words are not protected."""
    start = {"game": "troggu", "variant": "visp", "players": ["normal", "Bea", "Cara", "Dani"]}
    evening = client.post("/api/v1/evenings", json=start).json["id"]
    body = {"contract": "normal", "declarer": "Bea", "points": 70}
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=body).status_code == 201
    monkeypatch.setattr(anonymising, "FIXED", frozenset())
    before = snapshot()
    response = client.post(f"/players/{player_id(app, 'normal')}/anonymise", headers=DE)
    assert response.status_code == 303
    page = client.get("/players", headers=DE).text
    assert "normal konnte nicht anonymisiert werden" in page
    assert snapshot() == before


def test_free_text_mentions_only_the_whole_name() -> None:
    renaming = anonymising.Renaming("Anna", "Gast 1")
    assert renaming.text("Anna-Lena, Annabelle und ANNA") == "Anna-Lena, Annabelle und Gast 1"
    assert renaming.data({"points": {"Anna": 3, "Annabelle": 4}, "contract": "Anna"}) == {
        "points": {"Gast 1": 3, "Annabelle": 4},
        "contract": "Anna",
    }


def test_the_player_list_and_the_way_there(client: FlaskClient) -> None:
    play(client)
    home = client.get("/", headers=DE).text
    assert 'href="/players"' in home
    page = client.get("/players", headers=DE).text
    assert "Anna" in page
    assert "6 Abende" in page
    # The day written as everywhere else, in either language: 27.11.2026.
    assert re.search(r"zuletzt am \d\d\.\d\d\.\d{4}", page)
    english = client.get("/players", headers={"Accept-Language": "en"}).text
    assert re.search(r"last on \d\d\.\d\d\.\d{4}", english)
    assert client.get("/players/999/anonymise").status_code == 404
    assert client.post("/players/999/anonymise").status_code == 404


def test_who_may_manage_players_is_decided_in_one_place(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    play(client)
    monkeypatch.setattr(access, "may_manage_installation", lambda: False)
    assert 'href="/players"' not in client.get("/").text
    anna = player_id(app, "Anna")
    for path in ["/players", f"/players/{anna}/anonymise"]:
        assert client.get(path).status_code == 403, path
    assert client.post(f"/players/{anna}/anonymise").status_code == 403
    assert player_id(app, "Anna") == anna


def test_the_command_asks_first_and_names_the_new_name(
    app: Flask, client: FlaskClient, played: dict[str, Any]
) -> None:
    runner = app.test_cli_runner()
    refused = runner.invoke(args=["anonymise-player", "anna"], input="n\n")
    assert refused.exit_code != 0
    assert results(client) == played
    done = runner.invoke(args=["anonymise-player", "anna", "--language", "en", "--yes"])
    assert done.exit_code == 0, done.output
    assert "Anna is now Guest 1 in every evening." in done.output
    assert results(client) == renamed(played, "Anna", "Guest 1")
    missing = runner.invoke(args=["anonymise-player", "Zora", "--yes"])
    assert missing.exit_code != 0
    assert "There is no player called Zora." in missing.output


def test_a_tournament_entrant_is_anonymised_with_the_standings_unchanged(
    app: Flask, client: FlaskClient, snapshot: Snapshot
) -> None:
    """The entrant seated under the name becomes the guest; a namesake keeps their name."""
    made = client.post(
        "/api/v1/tournaments",
        json={
            "name": "Cup",
            "game": "troggen",
            "rounds": 2,
            "deals_per_player": 1,
            "password": "secret1",
        },
    )
    tid = made.json["id"]
    for name in ["Anna Meier", "Bert", "Clara", "Dora", "Anna Meier", "Emil", "Fritz", "Greta"]:
        assert (
            client.post(f"/api/v1/tournaments/{tid}/entrants", json={"name": name}).status_code
            == 201
        )
    client.post(f"/api/v1/tournaments/{tid}/rounds")
    client.post(f"/api/v1/tournaments/{tid}/rounds/1/start")
    table = client.get(f"/api/v1/tournaments/{tid}/rounds/1").json["tables"][0]
    first = client.get(f"/api/v1/evenings/{table['evening']}").json["players"]
    response = client.post(
        f"/api/v1/evenings/{table['evening']}/hands",
        json={"contract": "einfach", "bidder": first[0], "points": 40},
    )
    assert response.status_code == 201
    before = client.get(f"/api/v1/tournaments/{tid}/standings").json["standings"]
    with app.app_context():
        new = anonymising.anonymise_player(player_id(app, "Anna Meier (5)"))
        db.session.commit()
    entrants = {
        e["number"]: e["name"]
        for e in client.get(f"/api/v1/tournaments/{tid}/entrants").json["entrants"]
    }
    assert entrants[5] == new
    assert entrants[1] == "Anna Meier"
    after = client.get(f"/api/v1/tournaments/{tid}/standings").json["standings"]
    assert [(s["number"], s["total"]) for s in after] == [(s["number"], s["total"]) for s in before]
    assert "Anna Meier (5)" not in everything(snapshot)
