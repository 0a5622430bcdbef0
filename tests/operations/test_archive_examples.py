"""Archives and backups written by earlier versions still import, to the same ledgers.

Every file under ``tests/data/archives/`` and ``tests/data/backups/`` was written by the
version its name says (``tests/data/README.md`` tells how), and beside it lies what that
version showed of each evening: its players, every hand's dealer and deltas, the balances
and common accounts, the next dealer and the settlement. Importing the file today must
show exactly that again; a check added since must not refuse what an earlier version wrote.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.core.rules import get_variant
from tests.conftest import Fresh, sqlite_only

DATA = Path(__file__).parents[1] / "data"
ARCHIVES = sorted(p for p in (DATA / "archives").glob("*.json") if ".expected" not in p.name)
BACKUPS = sorted(
    p
    for p in (DATA / "backups").iterdir()
    if p.suffix in (".json", ".zip") and ".expected" not in p.name
)
EN = {"Accept-Language": "en"}


def expected_for(path: Path) -> Any:
    """What the version that wrote ``path`` showed, stored beside it."""
    stem = path.name.removesuffix(path.suffix)
    return json.loads((path.parent / f"{stem}.expected.json").read_text(encoding="utf-8"))


def shown(client: FlaskClient, evening: int) -> dict[str, Any]:
    """The evening as this version shows it, in the shape the expected files hold."""
    data = client.get(f"/api/v1/evenings/{evening}").json
    settlement = client.get(f"/api/v1/evenings/{evening}/settlement")
    return {
        "data": data,
        "settlement": settlement.json if settlement.status_code == 200 else None,
    }


def assert_same(now: dict[str, Any], then: dict[str, Any], where: str) -> None:
    """Everything the old version showed is shown the same today."""
    data = now["data"]
    assert data["players"] == then["players"], where
    assert data["closed"] == then["closed"], where
    assert data["language"] == then["language"], where
    hands = [
        {"number": h["number"], "dealer": h["dealer"], "deltas": h.get("deltas")}
        for h in data["hands"]
    ]
    assert hands == then["hands"], where
    for key, value in then["results"].items():
        assert data.get(key) == value, (where, key)
    if then["settlement"] is not None:
        for key, value in then["settlement"].items():
            assert now["settlement"].get(key) == value, (where, key)


@pytest.mark.parametrize("path", ARCHIVES, ids=[p.stem for p in ARCHIVES])
def test_an_archive_of_an_earlier_version_imports_to_its_ledger(
    client: FlaskClient, path: Path
) -> None:
    archive = json.loads(path.read_text(encoding="utf-8"))
    response = client.post("/api/v1/evenings/import", json=archive, headers=EN)
    assert response.status_code == 201, response.json
    assert_same(shown(client, response.json["id"]), expected_for(path), path.name)


@pytest.mark.parametrize("path", ARCHIVES, ids=[p.stem for p in ARCHIVES])
def test_an_archive_of_an_earlier_version_keeps_every_fact(client: FlaskClient, path: Path) -> None:
    """Exported again, the imported evening says all the file said, nothing cut or lost:
    only the import's own settings revision is new, and a revision of a version that knew
    no corrections of closed tables says it had none."""
    archive = json.loads(path.read_text(encoding="utf-8"))
    evening = client.post("/api/v1/evenings/import", json=archive).json["id"]
    again = client.get(f"/api/v1/evenings/{evening}/export").json
    for hand in archive["hands"]:
        for revision in hand["revisions"]:
            revision.setdefault("correction", None)
    # A house rule added since is said as the archive was scored (OptionSpec.earlier).
    written = archive["evening"]["options"]
    specs = get_variant(archive["evening"]["game"], archive["evening"]["variant"]).option_specs
    added = {k: v for k, v in again["evening"]["options"].items() if k not in written}
    assert added == {s.key: s.earlier for s in specs if s.key in added}
    assert all(value is not None for value in added.values())
    written.update(added)
    assert again["evening"] == archive["evening"]
    assert again["seatings"] == archive["seatings"]
    assert again["hands"] == archive["hands"]
    assert again["settings_revisions"][:-1] == archive["settings_revisions"]


@pytest.mark.parametrize("path", BACKUPS, ids=[p.name for p in BACKUPS])
def test_a_backup_of_an_earlier_version_restores_every_ledger(
    app: Flask, client: FlaskClient, path: Path
) -> None:
    result = app.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    expected = expected_for(path)
    assert f"{len(expected)} evenings restored; 0 were already here" in result.output
    evenings = client.get("/api/v1/evenings").json["evenings"]
    assert len(evenings) == len(expected)
    by_start = {}
    for summary in evenings:
        archive = client.get(f"/api/v1/evenings/{summary['id']}/export").json
        by_start[archive["evening"]["created_at"]] = summary["id"]
    assert sorted(by_start) == sorted(expected)
    for created_at, then in expected.items():
        assert_same(shown(client, by_start[created_at]), then, f"{path.name} {created_at}")


@sqlite_only
@pytest.mark.parametrize("path", BACKUPS, ids=[p.name for p in BACKUPS])
def test_a_backup_of_an_earlier_version_restores_from_the_page(fresh: Fresh, path: Path) -> None:
    client = fresh().test_client()
    response = client.post(
        "/backup/restore",
        data={"backup": (io.BytesIO(path.read_bytes()), path.name)},
        content_type="multipart/form-data",
        headers=EN,
    )
    assert response.status_code == 303, response.text
    assert len(client.get("/api/v1/evenings").json["evenings"]) == len(expected_for(path))
