"""Carried pots travel in archives and backups (docs/archives.md, "Carried pots"): the
later evening's archive says the pot it took over and from which evening; imported, it
opens with that pot whether the earlier evening is there or not, and is linked to it when
it is."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import Fresh
from tests.web.club.test_groups import new_group

EN = {"Accept-Language": "en"}
FOUR = ["Anna", "Bert", "Clara", "Dora"]
FIVE = [*FOUR, "Emil"]
CARRY = {"end_pot": "carry"}
#: Anna bids Einfach and loses: 6 jetons stay in the pot.
LOST = {"contract": "einfach", "bidder": "Anna", "points": 20}
#: Bert bids Einfach and wins: he takes the whole pot.
WON = {"contract": "einfach", "bidder": "Bert", "points": 50}
ARCHIVES = Path(__file__).parents[2] / "data" / "archives"


@pytest.fixture
def chain(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> tuple[int, int]:
    """A group's evening that carries a pot of 6 on, and the next evening taking it over
    and winning it."""
    group = new_group(client)["id"]
    first = create_evening(FOUR, group=group, options=CARRY, title="Erster", date="2026-11-14")
    record_hand(first, LOST)
    second = create_evening(
        FOUR, group=group, options=CARRY, title="Zweiter", date="2026-11-21", carried_from=first
    )
    record_hand(second, LOST)
    record_hand(second, WON)
    return first, second


def export(client: FlaskClient, evening_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/v1/evenings/{evening_id}/export")
    assert answer.status_code == 200
    return dict(answer.json)


def imported(client: FlaskClient, archive: dict[str, Any]) -> int:
    answer = client.post("/api/v1/evenings/import", json=archive, headers=EN)
    assert answer.status_code == 201, answer.json
    return int(answer.json["id"])


def refused(client: FlaskClient, archive: dict[str, Any]) -> str:
    answer = client.post("/api/v1/evenings/import", json=archive, headers=EN)
    assert answer.status_code == 422, answer.json
    return str(answer.json["errors"]["file"][0])


def evening(client: FlaskClient, evening_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/v1/evenings/{evening_id}")
    assert answer.status_code == 200
    return dict(answer.json)


def settlement(client: FlaskClient, evening_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/v1/evenings/{evening_id}/settlement")
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def by_title(client: FlaskClient) -> dict[str, int]:
    """The installation's evenings by title."""
    listed = client.get("/api/v1/evenings").json["evenings"]
    return {e["title"]: e["id"] for e in listed}


def test_the_later_evening_names_its_pot_and_the_evening_it_came_from(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    earlier = export(client, first)
    assert "carried" not in earlier
    later = export(client, second)
    assert later["carried"] == {
        "pot": 6,
        "from": {
            "game": "troggen",
            "variant": earlier["evening"]["variant"],
            "created_at": earlier["evening"]["created_at"],
        },
    }
    assert later["settings_revisions"][-1]["settings"]["carried_in"] == 6
    assert earlier["settings_revisions"][-1]["settings"]["carried_to"] == second


def test_a_chain_comes_back_linked_with_the_same_settlement(
    client: FlaskClient, chain: tuple[int, int], fresh: Fresh
) -> None:
    first, second = chain
    other = fresh().test_client()
    new_first = imported(other, export(client, first))
    new_second = imported(other, export(client, second))
    assert evening(other, new_second)["carried_from"] == new_first
    assert evening(other, new_second)["carried_in"] == 6
    assert evening(other, new_first)["carried_to"] == new_second
    for old, new in ((first, new_first), (second, new_second)):
        assert settlement(other, new) == settlement(client, old)
    # The earlier evening keeps a revision saying where its pot went.
    again = export(other, new_first)
    assert again["settings_revisions"][-1]["settings"]["carried_to"] == new_second
    assert again["settings_revisions"][-1]["source"] == "api"
    # And the chain exports as it was imported.
    assert export(other, new_second)["carried"] == export(client, second)["carried"]
    # A correction in the earlier evening flows on to the later one, as at the table.
    answer = other.delete(f"/api/v1/evenings/{new_first}/hands/1", json={"reason": "misdealt"})
    assert answer.status_code == 200, answer.json
    assert evening(other, new_second)["carried_in"] == 0


def test_without_its_earlier_evening_the_pot_stays_as_the_archive_says(
    client: FlaskClient, chain: tuple[int, int], fresh: Fresh
) -> None:
    _, second = chain
    archive = export(client, second)
    other = fresh().test_client()
    new_second = imported(other, archive)
    shown = evening(other, new_second)
    assert (shown["carried_in"], shown["carried_from"]) == (6, None)
    assert settlement(other, new_second) == settlement(client, second)
    # Its copy says the pot, and no longer which evening it came from: none here.
    assert export(other, new_second)["carried"] == {"pot": 6, "from": None}
    # Imported again, the copy passes its checks too.
    assert evening(other, imported(other, export(other, new_second)))["carried_in"] == 6
    # Its settlement cannot name the day the pot came from, and still says who is paid.
    page = other.get(f"/evenings/{new_second}/settlement?end_pot=split", headers=EN).text
    assert "From the pot carried in to Bert" in page


def test_a_pot_taken_over_already_is_not_linked_twice(
    client: FlaskClient, chain: tuple[int, int], fresh: Fresh
) -> None:
    first, second = chain
    other = fresh().test_client()
    new_first = imported(other, export(client, first))
    linked = imported(other, export(client, second))
    copy_of_it = imported(other, export(client, second))
    assert evening(other, linked)["carried_from"] == new_first
    assert evening(other, copy_of_it)["carried_from"] is None
    assert evening(other, copy_of_it)["carried_in"] == 6
    assert evening(other, new_first)["carried_to"] == linked


def test_the_archives_pot_stands_even_where_the_earlier_evening_differs(
    client: FlaskClient, chain: tuple[int, int], fresh: Fresh
) -> None:
    first, second = chain
    earlier = export(client, first)
    later = export(client, second)
    other = fresh().test_client()
    new_first = imported(other, earlier)
    other.delete(f"/api/v1/evenings/{new_first}/hands/1", json={"reason": "misdealt"})
    new_second = imported(other, later)
    assert evening(other, new_second)["carried_from"] == new_first
    assert evening(other, new_second)["carried_in"] == 6


def test_hands_that_need_the_carried_pot_fit_on_import(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    fresh: Fresh,
) -> None:
    group = new_group(client)["id"]
    first = create_evening(FIVE, group=group, options=CARRY)
    record_hand(first, {"contract": "doppelt", "bidder": "Clara", "partner": None, "points": 0})
    second = create_evening(FIVE, group=group, options=CARRY, carried_from=first)
    assert evening(client, second)["carried_in"] == 16
    # A Kulanz of 14 is more than Anna's share of an empty pot: it needs the 16 carried in.
    kulanz = {"contract": "einfach", "bidder": "Anna", "partner": "Bert", "points": 40}
    record_hand(second, {**kulanz, "kulanz": 14})
    archive = export(client, second)
    other = fresh().test_client()
    assert settlement(other, imported(other, archive)) == settlement(client, second)
    # Without the pot the hand does not fit: the replay is checked with the pot.
    stripped = copy.deepcopy(archive)
    del stripped["carried"]
    for revision in stripped["settings_revisions"]:
        revision["settings"].pop("carried_in", None)
    assert "hand 1 does not fit the rules" in refused(other, stripped)


def _settings(archive: dict[str, Any], key: str, value: object) -> None:
    archive["settings_revisions"][0]["settings"][key] = value


def _from(archive: dict[str, Any], key: str, value: object) -> None:
    archive["carried"]["from"][key] = value


#: Ways to damage an archive's carried pot, by name.
DAMAGE: dict[str, Callable[[dict[str, Any]], None]] = {
    "pot negative": lambda a: a["carried"].update(pot=-1),
    "pot true": lambda a: a["carried"].update(pot=True),
    "pot text": lambda a: a["carried"].update(pot="6"),
    "pot huge": lambda a: a["carried"].update(pot=2**31),
    "pot missing": lambda a: a["carried"].pop("pot"),
    "from missing": lambda a: a["carried"].pop("from"),
    "from empty": lambda a: a["carried"].update({"from": {}}),
    "from extra": lambda a: _from(a, "title", "Erster"),
    "from text": lambda a: a["carried"].update({"from": "Erster"}),
    "from other game": lambda a: _from(a, "game", "doppen"),
    "from no time": lambda a: _from(a, "created_at", "yesterday"),
    "from itself": lambda a: _from(a, "created_at", a["evening"]["created_at"]),
    "extra key": lambda a: a["carried"].update(note="x"),
    "not an object": lambda a: a.update(carried=6),
    "pot differs": lambda a: a["carried"].update(pot=7),
    "pot dropped": lambda a: a.pop("carried"),
    "settings carried_in text": lambda a: _settings(a, "carried_in", "6"),
    "settings carried_in negative": lambda a: _settings(a, "carried_in", -2),
    "settings carried_to bool": lambda a: _settings(a, "carried_to", True),
    "settings carried_to zero": lambda a: _settings(a, "carried_to", 0),
}


def damaged(archive: dict[str, Any], change: str) -> dict[str, Any]:
    """``archive`` with its carried pot changed as ``change`` says."""
    out = copy.deepcopy(archive)
    DAMAGE[change](out)
    return out


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ("pot negative", "the evening's carried pot has no valid pot"),
        ("pot true", "the evening's carried pot has no valid pot"),
        ("pot text", "the evening's carried pot has no valid pot"),
        ("pot huge", "the evening's carried pot has no valid pot"),
        ("pot missing", "the evening's carried pot has no valid pot"),
        ("from missing", "the evening's carried pot has no valid from"),
        ("from empty", "the evening the pot was carried from has no valid game"),
        ("from extra", "holds “title”, which this version"),
        ("from text", "the evening the pot was carried from is not a valid entry"),
        ("from other game", "carried from an evening of another game"),
        ("from no time", "the evening the pot was carried from has no valid time"),
        ("from itself", "the evening's pot is carried from itself"),
        ("extra key", "holds “note”, which this version"),
        ("not an object", "the evening's carried pot is not a valid entry"),
        ("pot differs", "the evening's carried_in is not the one of its last settings"),
        ("pot dropped", "the evening's carried_in is not the one of its last settings"),
        ("settings carried_in text", "settings version 1 has no valid carried_in"),
        ("settings carried_in negative", "settings version 1 has no valid carried_in"),
        ("settings carried_to bool", "settings version 1 has no valid carried_to"),
        ("settings carried_to zero", "settings version 1 has no valid carried_to"),
    ],
)
def test_a_damaged_carried_pot_is_refused_and_nothing_is_imported(
    client: FlaskClient, chain: tuple[int, int], fresh: Fresh, change: str, problem: str
) -> None:
    _, second = chain
    other = fresh().test_client()
    said = refused(other, damaged(export(client, second), change))
    assert said.startswith("The file is damaged: "), said
    assert problem in said
    assert said.endswith("Nothing was imported.")
    assert other.get("/api/v1/evenings").json["evenings"] == []


def test_only_a_game_that_carries_its_pot_on_may_take_one_in(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    doppen = create_evening(["Anna", "Bert", "Clara"], game="doppen")
    archive = export(client, doppen)
    archive["carried"] = {"pot": 0, "from": None}
    assert "carries no pot over to another evening" in refused(client, archive)


def upload(client: FlaskClient, document: dict[str, Any]) -> None:
    answer = client.post(
        "/backup/restore",
        data={"backup": (io.BytesIO(json.dumps(document).encode()), "backup.json")},
        content_type="multipart/form-data",
        headers=EN,
    )
    assert answer.status_code == 303, answer.text


def test_a_backup_listing_the_later_evening_first_links_both(
    client: FlaskClient, chain: tuple[int, int], fresh: Fresh
) -> None:
    first, second = chain
    backup = {
        "format": "scorekeeper-backup",
        "version": 1,
        "created_at": "2026-11-28T20:00:00Z",
        "evenings": [export(client, second), export(client, first)],
    }
    other = fresh().test_client()
    upload(other, backup)
    found = by_title(other)
    assert evening(other, found["Zweiter"])["carried_from"] == found["Erster"]
    assert evening(other, found["Erster"])["carried_to"] == found["Zweiter"]
    assert settlement(other, found["Zweiter"]) == settlement(client, second)
    shown = {e: evening(other, e) for e in found.values()}
    upload(other, backup)
    assert by_title(other) == found
    assert {e: evening(other, e) for e in found.values()} == shown


def test_a_backup_of_the_installation_brings_the_chain_back(
    client: FlaskClient, chain: tuple[int, int], fresh: Fresh
) -> None:
    _, second = chain
    with client.get("/backup/scorekeeper-backup.zip") as response:
        data = response.data
    other = fresh().test_client()
    answer = other.post(
        "/backup/restore",
        data={"backup": (io.BytesIO(data), "backup.zip")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 303
    found = by_title(other)
    assert evening(other, found["Zweiter"])["carried_from"] == found["Erster"]
    assert settlement(other, found["Zweiter"]) == settlement(client, second)


def test_an_archive_of_an_earlier_version_imports_as_before(client: FlaskClient) -> None:
    archive = json.loads((ARCHIVES / "v1-2026-11-22-023e6f9-troggen.json").read_text())
    assert "carried" not in archive
    new = imported(client, archive)
    assert evening(client, new)["carried_in"] == 0
    assert "carried" not in export(client, new)


def test_an_evening_of_no_group_keeps_its_pot_unlinked(
    client: FlaskClient, chain: tuple[int, int], fresh: Fresh
) -> None:
    """As at the table, only an evening of the earlier one's group takes its pot over."""
    first, second = chain
    other = fresh().test_client()
    new_first = imported(other, export(client, first))
    alone = {k: v for k, v in export(client, second).items() if k != "group"}
    new_second = imported(other, alone)
    assert evening(other, new_second)["carried_from"] is None
    assert evening(other, new_second)["carried_in"] == 6
    assert evening(other, new_first)["carried_to"] is None
    assert settlement(other, new_second)["net"] == settlement(client, second)["net"]
