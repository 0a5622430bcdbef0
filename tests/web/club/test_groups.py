"""Table groups and their members (docs/club.md): evenings join a group when they start or
afterwards, each name at a group's evening is a member, members are renamed and merged."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db.extensions import db
from scorekeeper.db.models import Member, Player
from scorekeeper.operations import anonymising

EN = {"Accept-Language": "en"}
FOUR = ["Anna", "Bert", "Clara", "Dora"]


def new_group(client: FlaskClient, name: str = "Donnerstagsrunde") -> dict[str, Any]:
    """A new group through the API."""
    answer = client.post("/api/v1/groups", json={"name": name})
    assert answer.status_code == 201, answer.json
    return dict(answer.json)


def members(client: FlaskClient, group: int) -> dict[str, dict[str, Any]]:
    """The group's members by the name it calls them."""
    found = client.get(f"/api/v1/groups/{group}").json["members"]
    return {m["name"]: m for m in found}


def test_an_evening_started_in_a_group_makes_its_players_members(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client)["id"]
    evening = create_evening(FOUR, group=group)
    shown = client.get(f"/api/v1/groups/{group}").json
    assert [e["id"] for e in shown["evenings"]] == [evening]
    assert sorted(members(client, group)) == FOUR
    assert members(client, group)["Anna"]["written_as"] == ["Anna"]


def test_an_unknown_group_is_refused_at_its_field_and_nothing_is_stored(
    client: FlaskClient,
) -> None:
    body = {"game": "troggen", "players": FOUR, "group": 99}
    answer = client.post("/api/v1/evenings", json=body, headers=EN)
    assert answer.status_code == 422
    assert "group" in answer.json["errors"]
    assert client.get("/api/v1/evenings").json["evenings"] == []
    for wrong in ("drei", True, 0, -1):
        refused = client.post("/api/v1/evenings", json={**body, "group": wrong})
        assert refused.status_code == 422
        assert "group" in refused.json["errors"]


def test_an_evening_joins_a_group_afterwards_and_can_leave_it(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening(FOUR)
    group = new_group(client)["id"]
    assert client.put(f"/api/v1/evenings/{evening}/group", json={"group": group}).json == {
        "evening": evening,
        "group": group,
    }
    assert len(members(client, group)) == 4
    client.put(f"/api/v1/evenings/{evening}/group", json={"group": None})
    assert client.get(f"/api/v1/groups/{group}").json["evenings"] == []
    missing = client.put(f"/api/v1/evenings/{evening}/group", json={"group": 99})
    assert missing.status_code == 404


def test_a_player_joining_the_table_becomes_a_member(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client)["id"]
    evening = create_evening(FOUR, group=group)
    seated = client.post(f"/api/v1/evenings/{evening}/seating", json={"players": [*FOUR, "Emil"]})
    assert seated.status_code == 200, seated.json
    assert "Emil" in members(client, group)


def test_a_renamed_member_keeps_the_names_written_at_the_table(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client)["id"]
    create_evening(FOUR, group=group)
    anna = members(client, group)["Anna"]
    url = f"/api/v1/groups/{group}/members/{anna['id']}"
    renamed = client.patch(url, json={"name": "Anna Muster"})
    assert renamed.json == {"id": anna["id"], "name": "Anna Muster", "written_as": ["Anna"]}
    assert client.patch(url, json={"name": " "}, headers=EN).status_code == 422


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("bert", "Another member is called Bert already."),
        ("Pot", "reserved for the pot"),
        ("Einsatz", "reserved for the pot"),
        ("carried", "reserved for the pot"),
    ],
)
def test_a_member_is_not_renamed_like_another_member_or_the_pot(
    client: FlaskClient, create_evening: Callable[..., int], name: str, problem: str
) -> None:
    group = new_group(client)["id"]
    create_evening(FOUR, group=group)
    anna = members(client, group)["Anna"]
    url = f"/api/v1/groups/{group}/members/{anna['id']}"
    refused = client.patch(url, json={"name": name}, headers=EN)
    assert refused.status_code == 422
    assert problem in refused.json["errors"]["name"][0]
    assert members(client, group)["Anna"]["id"] == anna["id"]
    # Her own name in another spelling is hers to take.
    assert client.patch(url, json={"name": "ANNA"}).status_code == 200


def test_a_new_player_is_not_called_like_the_pot_in_german(client: FlaskClient) -> None:
    body = {"game": "troggen", "players": [*FOUR[:3], "einsatz"]}
    refused = client.post("/api/v1/evenings", json=body, headers=EN)
    assert refused.status_code == 422
    assert "reserved for the pot" in refused.json["errors"]["players"][0]


def test_two_entries_for_one_person_merge_unless_they_sat_at_one_table(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client)["id"]
    create_evening(FOUR, group=group)
    create_evening(["Anna", "Bert", "Clara", "Hansi"], group=group)
    create_evening(["Anna", "Bert", "Clara", "Hans"], group=group)
    people = members(client, group)
    url = f"/api/v1/groups/{group}/members/{people['Hans']['id']}/merge"
    merged = client.post(url, json={"other": people["Hansi"]["id"]})
    assert merged.status_code == 200, merged.json
    assert merged.json["written_as"] == ["Hans", "Hansi"]
    assert "Hansi" not in members(client, group)
    same_table = f"/api/v1/groups/{group}/members/{people['Anna']['id']}/merge"
    refused = client.post(same_table, json={"other": people["Bert"]["id"]}, headers=EN)
    assert refused.status_code == 422
    assert "two people" in refused.json["errors"]["other"][0]
    assert client.post(same_table, json={"other": people["Anna"]["id"]}).status_code == 422


def test_the_same_name_in_two_groups_is_two_people(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    thursday = new_group(client, "Donnerstag")["id"]
    museum = new_group(client, "Museum")["id"]
    create_evening(FOUR, group=thursday)
    create_evening(FOUR, group=museum)
    assert members(client, thursday)["Anna"]["id"] != members(client, museum)["Anna"]["id"]
    assert new_group_refused(client, "donnerstag")


def new_group_refused(client: FlaskClient, name: str) -> bool:
    """Whether a group of that name is refused (another has it, any case)."""
    answer = client.post("/api/v1/groups", json={"name": name}, headers=EN)
    return answer.status_code == 422 and "exists" in answer.json["errors"]["name"][0]


def test_anonymising_a_member_renames_them_in_the_group(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client)["id"]
    create_evening(FOUR, group=group)
    with app.app_context():
        anna = db.session.query(Player).filter_by(name="Anna").one()
        new = anonymising.anonymise_player(anna.id)
        db.session.commit()
        assert db.session.query(Member).filter_by(name="Anna").count() == 0
    assert new in members(client, group)


@pytest.mark.parametrize("path", ["/api/v1/groups", "/api/v1/groups/1"])
def test_groups_are_for_whoever_may_manage_the_installation(app: Flask, path: str) -> None:
    """As the players page: the serving laptop, or a device that gave the PIN; a tablet
    on the network (a tournament table's included) is refused."""
    with app.test_client() as laptop:
        new_group(laptop)
    tablet = app.test_client()
    tablet.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    assert tablet.get(path).status_code == 403
    assert tablet.post("/api/v1/groups", json={"name": "Fremde"}).status_code == 403
    app.config["ACCESS_PIN"] = "4711"
    assert tablet.post("/api/v1/unlock", json={"pin": "4711"}).status_code == 200
    assert tablet.get(path).status_code == 200


def test_a_guests_tablet_starts_no_evening_in_a_group(app: Flask) -> None:
    """A guest in the hall starts evenings of its own: joining a group, or taking over its
    carried pot, is the installation manager's, as the groups are (docs/club.md)."""
    with app.test_client() as laptop:
        group = new_group(laptop)["id"]
    tablet = app.test_client()
    tablet.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    body = {"game": "troggen", "players": FOUR}
    assert tablet.post("/api/v1/evenings", json={**body, "group": group}).status_code == 403
    assert tablet.post("/api/v1/evenings", json={**body, "carried_from": 1}).status_code == 403
    assert tablet.post("/api/v1/evenings", json={**body, "group": None}).status_code == 201
    with app.test_client() as laptop:
        assert laptop.get(f"/api/v1/groups/{group}").json["evenings"] == []
