"""Groups and who is who travel in archives and backups (docs/archives.md, "Groups"):
an imported evening joins its group and its names stand for the members they stood for;
archives written before groups import as before."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.conftest import Fresh

FOUR = ["Anna", "Bert", "Clara", "Dora"]
HAND = {"contract": "einfach", "bidder": "Anna", "points": 41}


def grouped_evening(client: FlaskClient, create_evening: Callable[..., int]) -> tuple[int, int]:
    """An evening of the group "Donnerstag", Anna called "Anna Muster" there."""
    group = client.post("/api/v1/groups", json={"name": "Donnerstag"}).json["id"]
    evening = create_evening(FOUR, group=group)
    client.post(f"/api/v1/evenings/{evening}/hands", json=HAND)
    anna = next(
        m for m in client.get(f"/api/v1/groups/{group}").json["members"] if m["name"] == "Anna"
    )
    client.patch(f"/api/v1/groups/{group}/members/{anna['id']}", json={"name": "Anna Muster"})
    return group, evening


def members(client: FlaskClient) -> dict[str, list[str]]:
    """The only group's members: name -> names written at the table."""
    (group,) = client.get("/api/v1/groups").json["groups"]
    found = client.get(f"/api/v1/groups/{group['id']}").json["members"]
    return {m["name"]: m["written_as"] for m in found}


def test_an_archive_names_its_group_and_who_is_who(
    client: FlaskClient, create_evening: Callable[..., int], fresh: Fresh
) -> None:
    _, evening = grouped_evening(client, create_evening)
    archive = client.get(f"/api/v1/evenings/{evening}/export").json
    assert archive["group"]["name"] == "Donnerstag"
    assert archive["group"]["members"]["Anna"] == "Anna Muster"
    other = fresh().test_client()
    imported = other.post("/api/v1/evenings/import", json=archive)
    assert imported.status_code == 201, imported.json
    assert members(other)["Anna Muster"] == ["Anna"]
    again = other.post("/api/v1/evenings/import", json=archive)
    assert again.status_code == 201
    assert members(other)["Anna Muster"] == ["Anna"]  # the same person, not a second one
    (group,) = other.get("/api/v1/groups").json["groups"]
    assert len(other.get(f"/api/v1/groups/{group['id']}").json["evenings"]) == 2


def test_an_archive_without_a_group_imports_as_before(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening(FOUR)
    archive = client.get(f"/api/v1/evenings/{evening}/export").json
    assert "group" not in archive
    assert client.post("/api/v1/evenings/import", json=archive).status_code == 201
    assert client.get("/api/v1/groups").json["groups"] == []


def test_a_damaged_group_is_refused_and_nothing_is_imported(
    client: FlaskClient, create_evening: Callable[..., int], fresh: Fresh
) -> None:
    _, evening = grouped_evening(client, create_evening)
    archive: dict[str, Any] = client.get(f"/api/v1/evenings/{evening}/export").json
    other = fresh().test_client()
    for group in (
        {"name": "", "members": {}},
        {"name": "Donnerstag", "members": {"Zora": "Zora"}},
        {"name": "Donnerstag", "members": {"Anna": 7}},
        {"name": "Donnerstag"},
        {"name": "Donnerstag", "members": {}, "extra": 1},
    ):
        refused = other.post(
            "/api/v1/evenings/import",
            json={**archive, "group": group},
            headers={"Accept-Language": "en"},
        )
        assert refused.status_code == 422, group
    assert other.get("/api/v1/evenings").json["evenings"] == []
    assert other.get("/api/v1/groups").json["groups"] == []


def test_a_backup_brings_groups_back(
    client: FlaskClient, create_evening: Callable[..., int], fresh: Fresh
) -> None:
    grouped_evening(client, create_evening)
    with client.get("/backup/scorekeeper-backup.zip") as response:
        data = response.data
    other = fresh().test_client()
    restored = other.post(
        "/backup/restore",
        data={"backup": (io.BytesIO(data), "backup.zip")},
        content_type="multipart/form-data",
    )
    assert restored.status_code == 303
    assert members(other)["Anna Muster"] == ["Anna"]
