"""A tournament table's evening never joins a table group and never takes or passes on a
pot, for anybody; an installation where it happened before is repaired by its manager
(docs/club.md "Tournament tables", docs/hall-safety.md "Who may do what")."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db.extensions import db
from scorekeeper.db.kept import forget_all
from scorekeeper.db.models import CarriedPot, GroupEvening
from tests.web.club.test_carried_pot import CARRY, FOUR, LOST
from tests.web.club.test_groups import new_group
from tests.web.tournaments.support import close, ok, play
from tests.web.tournaments.test_access import Tournament

EN = {"Accept-Language": "en"}
NO_GROUP = "is a table of a tournament: it cannot join a table group"
NO_POT = "neither takes over a pot nor passes one on"


@pytest.fixture
def club(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> tuple[int, int]:
    """A group, and its evening carrying a pot of 6 on."""
    group = new_group(client)["id"]
    evening = create_evening(FOUR, group=group, options=CARRY, date="2026-11-14")
    record_hand(evening, LOST)
    return group, evening


def test_the_manager_cannot_put_a_table_into_a_group(
    client: FlaskClient, club: tuple[int, int], snapshot: Callable[[], Any]
) -> None:
    """The laptop (manager and organiser at once): 409 in words, on the API and the page."""
    group, _ = club
    table = Tournament(client).evenings[0]
    before = snapshot()
    answer = client.put(f"/api/v1/evenings/{table}/group", json={"group": group}, headers=EN)
    assert answer.status_code == 409
    assert NO_GROUP in answer.json["errors"]["evening"][0]
    page = client.post(f"/groups/{group}/evenings", data={"evening": str(table)}, headers=EN)
    assert page.status_code in (409, 422)
    assert snapshot() == before
    page_text = client.get(f"/groups/{group}", headers=EN).text
    offered = re.search(r'<select[^>]*name="evening"[^>]*>.*?</select>', page_text, re.S)
    assert offered is None or f'value="{table}"' not in offered.group(0)


def test_no_pot_goes_into_or_out_of_a_table(
    client: FlaskClient,
    club: tuple[int, int],
    create_evening: Callable[..., int],
    snapshot: Callable[[], Any],
) -> None:
    group, evening = club
    table = Tournament(client).evenings[0]
    later = create_evening(FOUR, group=group, options=CARRY, date="2026-11-21")
    before = snapshot()
    into = client.put(
        f"/api/v1/evenings/{table}/carried-pot", json={"carried_from": evening}, headers=EN
    )
    assert into.status_code == 409
    assert NO_POT in into.json["errors"]["evening"][0]
    out_of = client.put(
        f"/api/v1/evenings/{later}/carried-pot", json={"carried_from": table}, headers=EN
    )
    assert out_of.status_code == 409
    assert NO_POT in out_of.json["errors"]["evening"][0]
    assert snapshot() == before


def test_an_organiser_from_the_hall_reaches_no_group_and_no_pot(
    app: Flask, client: FlaskClient, club: tuple[int, int]
) -> None:
    """With only the organiser's login, from a tablet in the hall: refused, and a group
    that exists is refused exactly as one that does not (nothing to count)."""
    group, evening = club
    tournament = Tournament(client)
    table = tournament.evenings[0]
    organiser = app.test_client()
    organiser.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    login = {"password": "museum-2026"}
    from tests.web.tournaments.support import PASSWORD

    login = {"password": PASSWORD}
    token = ok(organiser.post(f"/api/v1/tournaments/{tournament.id}/login", json=login))
    bearer = {"Authorization": f"Bearer {token['token']}", **EN}
    answers = []
    for wanted in (group, 99):
        answers.append(
            organiser.put(f"/api/v1/evenings/{table}/group", json={"group": wanted}, headers=bearer)
        )
    for source in (evening, 999):
        answers.append(
            organiser.put(
                f"/api/v1/evenings/{table}/carried-pot",
                json={"carried_from": source},
                headers=bearer,
            )
        )
    answers.append(organiser.get(f"/api/v1/groups/{group}", headers=bearer))
    answers.append(organiser.get("/api/v1/groups/99", headers=bearer))
    assert {a.status_code for a in answers} == {403}
    assert len({a.get_data() for a in answers}) == 1
    assert ok(client.get(f"/api/v1/groups/{group}"))["members"]  # the club's, untouched
    names = {m["name"] for m in ok(client.get(f"/api/v1/groups/{group}"))["members"]}
    assert names == set(FOUR)


def test_a_table_caught_in_a_group_and_a_pot_is_repaired_by_the_manager(
    app: Flask, client: FlaskClient, club: tuple[int, int]
) -> None:
    """Before the refusals, a table could be put into a group and take a club evening's
    pot; closing its round then froze the club evening for good. The manager takes the
    table out of both, and the club evening can be corrected again."""
    group, evening = club
    tournament = Tournament(client)
    table = tournament.evenings[0]
    with app.app_context():
        db.session.add(GroupEvening(evening_id=table, group_id=group))
        db.session.add(CarriedPot(evening_id=table, from_evening_id=evening, pot=6))
        db.session.commit()
    forget_all(app)  # as written by the app back then: nothing kept from before
    for other in tournament.evenings:
        play(client, other, tournament.tables[tournament.evenings.index(other)]["hands_due"])
    assert close(client, tournament.id, 1, confirm=True).status_code == 200
    # A hand more at the club evening changes the pot it passed to the closed table.
    hands = f"/api/v1/evenings/{evening}/hands"
    frozen = client.post(hands, json=LOST, headers=EN)
    assert frozen.status_code == 422
    assert "closed: reopen that evening first" in str(frozen.json)
    out = client.put(
        f"/api/v1/evenings/{table}/carried-pot", json={"carried_from": None}, headers=EN
    )
    assert out.status_code == 200, out.json
    assert out.json["carried_from"] is None
    alone = client.put(f"/api/v1/evenings/{table}/group", json={"group": None}, headers=EN)
    assert alone.status_code == 200, alone.json
    assert client.post(hands, json=LOST).status_code == 201
