"""Who may reach what (docs/api.md "Access", docs/tournaments.md "Table entry").

Each test client is a separate device with its own cookies: the organiser's laptop, a
tablet bound to one table by its code, a stranger's phone. A refused request changes
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient
from sqlalchemy import MetaData, select

from scorekeeper import create_app
from scorekeeper.db.extensions import db
from scorekeeper.db.tournament_models import Tournament as TournamentRow
from scorekeeper.web import access
from scorekeeper.web.guard import PUBLIC
from tests.web.tournaments.support import (
    EN,
    NAMES,
    PASSWORD,
    close,
    create_tournament,
    draw,
    ok,
    play,
    register,
    start,
)

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
TROGGEN_BID = {"contract": "einfach", "won": True}
PIN = "2468"
#: Endpoints of the tournament blueprints that need no organiser: setting a new one up and
#: listing them (casual-evening rules apply: open, or behind the installation PIN).
OPEN_TO_ALL = {
    "tournaments.index",
    "tournaments.new",
    "tournaments.create",
    "tournament_api.index",
    "tournament_api.create",
}


def without(data: dict[str, list[Any]], *tables: str) -> dict[str, list[Any]]:
    return {name: rows for name, rows in data.items() if name not in tables}


def take_snapshot(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (for an app other than the ``app`` fixture)."""
    with app.app_context():
        meta = MetaData()
        meta.reflect(bind=db.engine)
        with db.engine.connect() as connection:
            return {
                name: [tuple(row) for row in connection.execute(select(table))]
                for name, table in meta.tables.items()
            }


def bid(players: list[str], index: int = 0) -> dict[str, Any]:
    return {**TROGGEN_BID, "bidder": players[index % len(players)]}


class Tournament:
    """A started round of eight players at two tables, set up by the organiser's client."""

    def __init__(self, organiser: FlaskClient) -> None:
        self.organiser = organiser
        self.id = create_tournament(organiser, rounds=2)
        register(organiser, self.id, NAMES[:8])
        draw(organiser, self.id)
        self.round = start(organiser, self.id, 1)
        self.tables = self.round["tables"]
        self.evenings = [t["evening"] for t in self.tables]
        self.codes = [t["code"] for t in self.tables]
        self.players = [[p["name"] for p in t["players"]] for t in self.tables]


@pytest.fixture
def tournament(client: FlaskClient) -> Tournament:
    return Tournament(client)


@pytest.fixture
def device(app: Flask) -> FlaskClient:
    """A second device: a tablet at a table, nobody's organiser."""
    return app.test_client()


def open_table(device: FlaskClient, code: str) -> int:
    """Open a table by the address in its QR code; the evening it leads to."""
    response = device.get(f"/t/{code}")
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/evenings/")
    return int(location.rsplit("/", 1)[1])


# -- a device bound to its table -------------------------------------------------------------


def test_a_device_opened_by_its_code_plays_its_own_table(
    tournament: Tournament, device: FlaskClient
) -> None:
    evening = open_table(device, tournament.codes[0].lower())  # typed in lower case
    assert evening == tournament.evenings[0]
    page = device.get(f"/evenings/{evening}", headers=EN)
    assert page.status_code == 200
    assert "Round 1, table 1" in page.text
    assert "4 hands left" in page.text
    assert ok(device.get(f"/api/v1/evenings/{evening}"))["players"] == tournament.players[0]
    ok(device.post(f"/api/v1/evenings/{evening}/hands", json=bid(tournament.players[0])), 201)
    form = {"contract": "einfach", "bidder": tournament.players[0][1], "result": "won"}
    saved = device.post(f"/evenings/{evening}/hands", data=form)
    assert saved.status_code == 303
    assert len(ok(device.get(f"/api/v1/evenings/{evening}"))["hands"]) == 2
    for path in ("/hands", "/hands/1/edit", "/settlement"):
        assert device.get(f"/evenings/{evening}{path}").status_code == 200, path
    for path in ("/settlement", "/hands/1", "/hands/1/revisions", "/revisions"):
        assert device.get(f"/api/v1/evenings/{evening}{path}").status_code == 200, path
    replaced = device.put(
        f"/api/v1/evenings/{evening}/hands/1",
        json={**bid(tournament.players[0], 2), "version": 1},
    )
    assert ok(replaced)["version"] == 2


def test_the_api_opens_a_table_too(tournament: Tournament, device: FlaskClient) -> None:
    data = ok(device.post(f"/api/v1/tables/{tournament.codes[1]}/open"))
    assert data["evening"] == tournament.evenings[1]
    assert (data["round"], data["table"], data["hands_due"]) == (1, 2, 4)
    assert data["token"]
    assert device.get(f"/api/v1/evenings/{tournament.evenings[1]}").status_code == 200


def test_a_device_cannot_reach_another_table(
    tournament: Tournament, device: FlaskClient, snapshot: Snapshot
) -> None:
    open_table(device, tournament.codes[0])
    other = tournament.evenings[1]
    before = snapshot()
    for path in ("", "/settlement", "/revisions", "/hands/1", "/hands/1/revisions"):
        response = device.get(f"/api/v1/evenings/{other}{path}")
        assert response.status_code == 403, path
        assert set(response.json["errors"]) == {"access"}
    refused = device.post(f"/api/v1/evenings/{other}/hands", json=bid(tournament.players[1]))
    assert refused.status_code == 403
    # A page asks for the table's code instead.
    page = device.get(f"/evenings/{other}", headers=EN)
    assert page.status_code == 303
    assert page.headers["Location"].startswith("/t?next=")
    form = {"contract": "einfach", "bidder": tournament.players[1][0], "result": "won"}
    assert device.post(f"/evenings/{other}/hands", data=form).status_code == 403
    assert device.get(f"/evenings/{other}/sheet.pdf").status_code == 303
    assert snapshot() == before


def test_a_stranger_reaches_no_table(
    tournament: Tournament, device: FlaskClient, snapshot: Snapshot
) -> None:
    before = snapshot()
    for evening in tournament.evenings:
        assert device.get(f"/api/v1/evenings/{evening}").status_code == 403
        refused = device.post(f"/api/v1/evenings/{evening}/hands", json=bid(["Anna"]))
        assert refused.status_code == 403
        assert device.get(f"/evenings/{evening}").status_code == 303
    assert snapshot() == before


def test_opening_another_code_moves_the_device(tournament: Tournament, device: FlaskClient) -> None:
    open_table(device, tournament.codes[0])
    open_table(device, tournament.codes[1])
    assert device.get(f"/api/v1/evenings/{tournament.evenings[1]}").status_code == 200
    assert device.get(f"/api/v1/evenings/{tournament.evenings[0]}").status_code == 403


def test_a_closed_rounds_code_no_longer_opens_its_table(
    tournament: Tournament, device: FlaskClient
) -> None:
    ok(close(tournament.organiser, tournament.id, 1, confirm=True))
    response = device.post(f"/api/v1/tables/{tournament.codes[0]}/open", headers=EN)
    assert response.status_code == 409
    assert response.json["errors"]["access"] == [
        "Round 1 is over; this table's code no longer opens it."
    ]


#: What of the tournament blueprints anyone may reach: opening a table by its code, the
#: organiser's login, and the standings (the projector's page and its JSON).
PUBLIC_TOURNAMENT = {
    "tables.enter",
    "tables.open",
    "tables.open_form",
    "tournament_api.open_table",
    "tournament_api.login",
    "tournament_api.standings",
    "tournaments.login",
    "tournaments.login_form",
    "tournaments.screen",
}


def test_only_the_login_the_table_codes_and_the_standings_are_public(app: Flask) -> None:
    """A new organiser endpoint listed as public by mistake would escape the check below."""
    ours = {
        endpoint
        for endpoint in PUBLIC
        if endpoint.partition(".")[0] in ("tournaments", "tournament_api", "tables")
        or "tournament_id" in next(app.url_map.iter_rules(endpoint)).arguments
    }
    assert ours == PUBLIC_TOURNAMENT


def organiser_calls(app: Flask, tournament: int) -> list[tuple[str, str, str]]:
    """(endpoint, method, url) of every organiser page and API endpoint of the app."""
    calls = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            blueprint = rule.endpoint.partition(".")[0]
            ours = blueprint in ("tournaments", "tournament_api") or "tournament_id" in (
                rule.arguments
            )
            if not ours or rule.endpoint in PUBLIC:
                continue
            if "tournament_id" not in rule.arguments:
                assert rule.endpoint in OPEN_TO_ALL, rule.endpoint
                continue
            values = {"tournament_id": tournament, "number": 1}
            url = url_for(rule.endpoint, **{k: values[k] for k in rule.arguments})
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                calls.append((rule.endpoint, method, url))
    return calls


def test_every_organiser_page_and_endpoint_needs_the_login(
    app: Flask, tournament: Tournament, device: FlaskClient, snapshot: Snapshot
) -> None:
    """Enumerated from the app's routes, so a new organiser page cannot slip through."""
    open_table(device, tournament.codes[0])  # a table's device is no organiser
    stranger = app.test_client()
    calls = organiser_calls(app, tournament.id)
    endpoints = {endpoint for endpoint, _, _ in calls}
    assert {"tournaments.show", "tournaments.close", "tournament_api.draw"} <= endpoints
    assert len(calls) >= 30
    before = snapshot()
    for caller in (device, stranger):
        for endpoint, method, url in calls:
            if url.startswith("/api/"):
                response = caller.open(url, method=method, json={}, headers=EN)
                assert response.status_code == 401, (endpoint, method, response.status_code)
                assert response.json["errors"]["access"] == [
                    "Only the organiser can do this: log in with the organiser's password."
                ]
            elif method == "GET":
                response = caller.get(url)
                assert response.status_code == 303, (endpoint, response.status_code)
                login = f"/tournaments/{tournament.id}/login?next="
                assert response.headers["Location"].startswith(login), endpoint
            else:
                response = caller.open(url, method=method, data={})
                assert response.status_code == 401, (endpoint, method, response.status_code)
    assert snapshot() == before
    # The same pages are the organiser's (the printouts are left out: slow to render).
    for endpoint, method, url in calls:
        if method == "GET" and not url.endswith(".pdf"):
            response = tournament.organiser.get(url)
            assert response.status_code in (200, 404), (endpoint, response.status_code)


def test_the_organiser_of_one_tournament_is_not_the_organiser_of_another(
    app: Flask, tournament: Tournament
) -> None:
    other = app.test_client()
    mine = create_tournament(other)
    assert other.get(f"/api/v1/tournaments/{mine}/rounds").status_code == 200
    assert other.get(f"/api/v1/tournaments/{tournament.id}/rounds").status_code == 401
    assert other.get(f"/api/v1/evenings/{tournament.evenings[0]}").status_code == 403


def test_the_organiser_reaches_every_table(tournament: Tournament) -> None:
    for evening in tournament.evenings:
        assert tournament.organiser.get(f"/evenings/{evening}").status_code == 200
        assert tournament.organiser.get(f"/api/v1/evenings/{evening}").status_code == 200


FIXED = [
    ("GET", "/evenings/{id}/seating"),
    ("POST", "/evenings/{id}/seating"),
    ("GET", "/evenings/{id}/settings"),
    ("POST", "/evenings/{id}/settings"),
    ("POST", "/evenings/{id}/close"),
    ("POST", "/evenings/{id}/reopen"),
    ("POST", "/evenings/{id}/settlement/ticks"),
    ("POST", "/api/v1/evenings/{id}/seating"),
    ("PATCH", "/api/v1/evenings/{id}"),
    ("POST", "/api/v1/evenings/{id}/close"),
    ("POST", "/api/v1/evenings/{id}/reopen"),
]


def test_what_the_tournament_decides_is_refused_on_a_table(
    tournament: Tournament, device: FlaskClient, snapshot: Snapshot
) -> None:
    """Seating, house rules, closing and reopening: 409 to the table and the organiser."""
    evening = tournament.evenings[0]
    open_table(device, tournament.codes[0])
    before = snapshot()
    for caller in (device, tournament.organiser):
        for method, path in FIXED:
            url = path.format(id=evening)
            body: dict[str, Any] = {"json": {"players": tournament.players[0], "version": 1}}
            if not url.startswith("/api/"):
                body = {"data": {"title": "x"}}
            response = caller.open(url, method=method, **body)
            assert response.status_code == 409, (method, url, response.status_code)
    assert snapshot() == before


def test_a_table_cannot_correct_itself_once_closed(
    tournament: Tournament, device: FlaskClient, snapshot: Snapshot
) -> None:
    """Only the organiser corrects a closed table, with a reason."""
    evening = tournament.evenings[0]
    open_table(device, tournament.codes[0])
    play(device, evening, 4)
    before = snapshot()
    body = {**bid(tournament.players[0], 1), "version": 1, "correction": "falsch"}
    assert device.put(f"/api/v1/evenings/{evening}/hands/1", json=body).status_code == 409
    voided = device.delete(f"/api/v1/evenings/{evening}/hands/1", json={"reason": "falsch"})
    assert voided.status_code == 409
    assert device.post(f"/api/v1/evenings/{evening}/hands", json=bid(["x"])).status_code == 409
    assert snapshot() == before
    corrected = tournament.organiser.put(f"/api/v1/evenings/{evening}/hands/1", json=body)
    assert corrected.status_code == 200


def test_the_organiser_correcting_without_a_reason_stays_on_the_correction(
    tournament: Tournament, device: FlaskClient, snapshot: Snapshot
) -> None:
    """The organiser is asked for the reason at its field, the correction kept as typed;
    nothing is saved and the tablets' refusal is not shown."""
    evening = tournament.evenings[0]
    open_table(device, tournament.codes[0])
    play(device, evening, 4)
    before = snapshot()
    bidder = tournament.players[0][2]
    typed = {
        "contract": "doppelt",
        "bidder": bidder,
        "result": "points",
        "points": "44",
        "last_trick": "none",
        "version": "1",
        "correction": "  ",
    }
    url = f"/evenings/{evening}/hands/1/edit"
    page = tournament.organiser.post(url, data=typed, headers=EN)
    assert page.status_code == 422
    assert "Say why this finished table is corrected." in page.text
    # The message sits at the reason's field, which points to it.
    at_field = re.search(
        r'id="correction"[^>]*aria-describedby="correction-error"[^>]*>\s*'
        r'<div id="correction-error">\s*<p class="error"[^>]*>Say why',
        page.text,
    )
    assert at_field is not None
    # The summary at the top links to it, and the field comes first in the form.
    assert '<a href="#correction">Say why this finished table is corrected.</a>' in page.text
    form = page.text.split('class="hand-form', 1)[1]
    assert form.index('id="correction"') < form.index('name="contract"')
    assert "has played its last hand" not in page.text
    assert 'value="44"' in page.text
    assert re.search(rf'<input checked[^>]*name="bidder"[^>]*value="{bidder}"', page.text)
    assert re.search(r'<input checked[^>]*name="contract"[^>]*value="doppelt"', page.text)
    voided = tournament.organiser.post(f"/evenings/{evening}/hands/1/void", data={"reason": ""})
    assert voided.headers["Location"] == url
    follow = tournament.organiser.get(url, headers=EN).text
    assert "Say why this finished table&#39;s hand is voided." in follow
    assert snapshot() == before
    saved = tournament.organiser.post(url, data={**typed, "correction": "Punkte vertauscht"})
    assert saved.status_code == 303
    # A tablet is still refused as before: it may not correct its finished table at all.
    refused = device.post(url, data={**typed, "version": "2"})
    assert refused.headers["Location"] == f"/evenings/{evening}"


# -- bearer tokens ---------------------------------------------------------------------------


def test_a_table_token_works_without_cookies(app: Flask, tournament: Tournament) -> None:
    tablet = app.test_client(use_cookies=False)
    token = ok(tablet.post(f"/api/v1/tables/{tournament.codes[0]}/open"))["token"]
    evening = tournament.evenings[0]
    assert tablet.get(f"/api/v1/evenings/{evening}").status_code == 403  # no cookie kept
    auth = {"Authorization": f"Bearer {token}"}
    assert tablet.get(f"/api/v1/evenings/{evening}", headers=auth).status_code == 200
    recorded = tablet.post(
        f"/api/v1/evenings/{evening}/hands", json=bid(tournament.players[0]), headers=auth
    )
    assert recorded.status_code == 201
    other = tablet.get(f"/api/v1/evenings/{tournament.evenings[1]}", headers=auth)
    assert other.status_code == 403
    rounds = tablet.get(f"/api/v1/tournaments/{tournament.id}/rounds", headers=auth)
    assert rounds.status_code == 401


def test_an_organiser_token_works_without_cookies(app: Flask, tournament: Tournament) -> None:
    laptop = app.test_client(use_cookies=False)
    url = f"/api/v1/tournaments/{tournament.id}/rounds"
    assert laptop.get(url).status_code == 401
    token = ok(
        laptop.post(f"/api/v1/tournaments/{tournament.id}/login", json={"password": PASSWORD})
    )["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert laptop.get(url).status_code == 401
    assert [r["number"] for r in ok(laptop.get(url, headers=auth))["rounds"]] == [1]
    assert laptop.get(f"/api/v1/evenings/{tournament.evenings[0]}", headers=auth).status_code == 200


def test_a_forged_or_garbled_token_is_refused(app: Flask, tournament: Tournament) -> None:
    laptop = app.test_client(use_cookies=False)
    token = ok(
        laptop.post(f"/api/v1/tournaments/{tournament.id}/login", json={"password": PASSWORD})
    )["token"]
    url = f"/api/v1/tournaments/{tournament.id}/rounds"
    for bad in (token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "nonsense", ""):
        response = laptop.get(url, headers={"Authorization": f"Bearer {bad}"})
        assert response.status_code == 401, bad
    other_key = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "another",
            "DATABASE_URL": app.config["DATABASE_URL"],
        },
        instance_path=app.instance_path,
    )
    with other_key.test_request_context():
        forged = access._serializer().dumps({"organiser": [tournament.id]})
        db.session.remove()
        db.engine.dispose()
    response = laptop.get(url, headers={"Authorization": f"Bearer {forged}"})
    assert response.status_code == 401


# -- counting wrong passwords and codes ------------------------------------------------------


@pytest.fixture
def second_instance(app: Flask) -> Iterator[Flask]:
    """Another worker process on the same database."""
    other = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": app.config["DATABASE_URL"],
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "test",
        },
        instance_path=app.instance_path,
    )
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def test_wrong_passwords_are_counted_across_instances(
    app: Flask,
    tournament: Tournament,
    device: FlaskClient,
    second_instance: Flask,
    snapshot: Snapshot,
) -> None:
    login = f"/api/v1/tournaments/{tournament.id}/login"
    limit = app.config["LOGIN_ATTEMPTS"]
    assert limit == 5
    before = snapshot()
    for _ in range(limit):
        response = device.post(login, json={"password": "falsch!"}, headers=EN)
        assert response.status_code == 401
        assert response.json["errors"]["access"] == ["That password is not right."]
    counted = snapshot()
    assert len(counted["login_attempt"]) == len(before["login_attempt"]) + limit
    assert without(counted, "login_attempt") == without(before, "login_attempt")
    # Now even the right password waits, on this instance and on another one.
    refused = device.post(login, json={"password": PASSWORD}, headers=EN)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert "Too many wrong tries" in refused.json["errors"]["access"][0]
    elsewhere = second_instance.test_client()
    assert elsewhere.post(login, json={"password": PASSWORD}).status_code == 429
    page = elsewhere.post(f"/tournaments/{tournament.id}/login", data={"password": PASSWORD})
    assert page.status_code == 429
    assert snapshot() == counted


def test_a_right_password_clears_the_count(tournament: Tournament, device: FlaskClient) -> None:
    login = f"/api/v1/tournaments/{tournament.id}/login"
    for _ in range(4):
        assert device.post(login, json={"password": "falsch!"}).status_code == 401
    assert device.post(login, json={"password": PASSWORD}).status_code == 200
    for _ in range(4):
        assert device.post(login, json={"password": "falsch!"}).status_code == 401
    assert device.post(login, json={"password": PASSWORD}).status_code == 200


def test_wrong_table_codes_are_counted_across_instances(
    tournament: Tournament, device: FlaskClient, second_instance: Flask, snapshot: Snapshot
) -> None:
    for wrong in ("AAAAAA", "CCCCCC", "333333"):
        response = device.post(f"/api/v1/tables/{wrong}/open", headers=EN)
        assert response.status_code == 404
        assert "Check the table card" in response.json["errors"]["access"][0]
    assert device.get("/t/DDDDDD").status_code == 404
    assert device.post("/t", data={"code": "EEEEEE"}).status_code == 404
    counted = snapshot()
    refused = device.post(f"/api/v1/tables/{tournament.codes[0]}/open")
    assert refused.status_code == 429
    assert device.get(f"/t/{tournament.codes[0]}").status_code == 429
    elsewhere = second_instance.test_client()
    assert elsewhere.post(f"/api/v1/tables/{tournament.codes[0]}/open").status_code == 429
    assert snapshot() == counted
    # The organiser's login is counted apart.
    login = f"/api/v1/tournaments/{tournament.id}/login"
    assert device.post(login, json={"password": PASSWORD}).status_code == 200


# -- the installation PIN --------------------------------------------------------------------


@pytest.fixture
def pin_app(make_app: Callable[..., Flask]) -> Flask:
    """The app of an installation that sets an access PIN."""
    return make_app(WTF_CSRF_ENABLED=False, ACCESS_PIN=PIN)


def test_the_pin_guards_casual_evenings_until_unlocked(pin_app: Flask) -> None:
    phone = pin_app.test_client()
    before = take_snapshot(pin_app)
    page = phone.get("/", headers=EN)
    assert page.status_code == 303
    assert page.headers["Location"] == "/unlock?next=/"
    for path in ("/evenings/new", "/tournaments", "/tournaments/new"):
        assert phone.get(path).headers["Location"].startswith("/unlock?next="), path
    assert phone.get("/api/v1/evenings").status_code == 401
    body = {"game": "troggen", "players": NAMES[:4]}
    assert phone.post("/api/v1/evenings", json=body).status_code == 401
    assert phone.post("/api/v1/tournaments", json={"name": "x"}).status_code == 401
    assert phone.get("/unlock").status_code == 200
    wrong = phone.post("/unlock", data={"pin": "1357", "next": "/evenings/new"})
    assert wrong.status_code == 401
    assert without(take_snapshot(pin_app), "login_attempt") == without(before, "login_attempt")
    right = phone.post("/unlock", data={"pin": PIN, "next": "/evenings/new"})
    assert right.status_code == 303
    assert right.headers["Location"] == "/evenings/new"
    assert phone.get("/").status_code == 200
    assert phone.post("/api/v1/evenings", json=body).status_code == 201


def test_the_pin_unlocks_the_api_with_a_token(pin_app: Flask) -> None:
    script = pin_app.test_client(use_cookies=False)
    assert script.post("/api/v1/unlock", json={"pin": "0000"}).status_code == 401
    token = ok(script.post("/api/v1/unlock", json={"pin": PIN}))["token"]
    assert script.get("/api/v1/evenings").status_code == 401
    auth = {"Authorization": f"Bearer {token}"}
    assert script.get("/api/v1/evenings", headers=auth).status_code == 200


def test_a_changed_pin_locks_every_device_out(pin_app: Flask) -> None:
    phone = pin_app.test_client()
    assert phone.post("/api/v1/unlock", json={"pin": PIN}).status_code == 200
    assert phone.get("/api/v1/evenings").status_code == 200
    pin_app.config["ACCESS_PIN"] = "9753"
    assert phone.get("/api/v1/evenings").status_code == 401


def test_wrong_pins_are_counted(pin_app: Flask) -> None:
    phone = pin_app.test_client()
    for _ in range(pin_app.config["LOGIN_ATTEMPTS"]):
        assert phone.post("/api/v1/unlock", json={"pin": "1111"}).status_code == 401
    assert phone.post("/api/v1/unlock", json={"pin": PIN}).status_code == 429
    assert pin_app.test_client().post("/unlock", data={"pin": PIN}).status_code == 429


def test_tournament_tables_and_the_projector_work_without_the_pin(pin_app: Flask) -> None:
    laptop = pin_app.test_client()
    ok(laptop.post("/api/v1/unlock", json={"pin": PIN}))
    data = Tournament(laptop)
    tablet = pin_app.test_client()
    evening = open_table(tablet, data.codes[0])
    assert tablet.get(f"/evenings/{evening}").status_code == 200
    recorded = tablet.post(f"/api/v1/evenings/{evening}/hands", json=bid(data.players[0]))
    assert recorded.status_code == 201
    # Still no casual evening for the tablet.
    assert tablet.get("/api/v1/evenings").status_code == 401
    projector = pin_app.test_client()
    screen = projector.get(f"/tournaments/{data.id}/screen", headers=EN)
    assert screen.status_code == 200
    assert data.players[0][0] in screen.text
    assert projector.get(f"/api/v1/tournaments/{data.id}/standings").status_code == 200
    # The organiser's login page is reachable, and the login is what counts, not the PIN.
    assert projector.get(f"/tournaments/{data.id}/login").status_code == 200
    logged_in = projector.post(f"/tournaments/{data.id}/login", data={"password": PASSWORD})
    assert logged_in.status_code == 303
    assert projector.get(f"/tournaments/{data.id}").status_code == 200


# -- requests from other sites ---------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://localhost.evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
    ids=["origin", "lookalike-origin", "cross-site", "same-site"],
)
def test_a_post_from_another_site_is_refused(
    tournament: Tournament,
    device: FlaskClient,
    snapshot: Snapshot,
    headers: dict[str, str],
) -> None:
    """The API takes the session cookie, so a foreign page must not post with it."""
    open_table(device, tournament.codes[0])
    evening = tournament.evenings[0]
    before = snapshot()
    calls = [
        (device, "POST", f"/api/v1/evenings/{evening}/hands", bid(tournament.players[0])),
        (
            tournament.organiser,
            "POST",
            f"/api/v1/tournaments/{tournament.id}/rounds/1/close",
            {"confirm": True},
        ),
        (tournament.organiser, "PATCH", f"/api/v1/tournaments/{tournament.id}", {"version": 1}),
        (
            tournament.organiser,
            "POST",
            "/api/v1/evenings",
            {"game": "troggen", "players": NAMES[:4]},
        ),
        (
            tournament.organiser,
            "POST",
            f"/api/v1/tournaments/{tournament.id}/entrants",
            {"name": "Mallory"},
        ),
    ]
    for caller, method, url, body in calls:
        response = caller.open(url, method=method, json=body, headers={**headers, **EN})
        assert response.status_code == 403, (url, response.status_code)
        assert response.json["errors"]["access"] == ["Requests from other sites are refused."]
    assert snapshot() == before


def test_a_post_from_the_same_site_is_accepted(tournament: Tournament, device: FlaskClient) -> None:
    open_table(device, tournament.codes[0])
    evening = tournament.evenings[0]
    for headers in (
        {"Origin": "http://localhost"},
        {"Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "none"},
    ):
        response = device.post(
            f"/api/v1/evenings/{evening}/hands", json=bid(tournament.players[0]), headers=headers
        )
        assert response.status_code == 201, headers
    # Reading is allowed whatever the origin.
    foreign = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}
    assert device.get(f"/api/v1/evenings/{evening}", headers=foreign).status_code == 200


def test_a_password_is_stored_with_scrypt_and_checked_by_the_method_it_names(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The laptop's default is scrypt (the suite's apps use a cheap method, tests/conftest.py);
    a hash made under one setting still opens the tournament after the setting changed."""
    monkeypatch.delenv("SCOREKEEPER_PASSWORD_HASH_METHOD")
    laptop = make_app()
    tournament = create_tournament(laptop.test_client())
    with laptop.app_context():
        stored = db.session.get(TournamentRow, tournament)
        assert stored is not None
        assert stored.password_hash.startswith("scrypt:")
    elsewhere = make_app(PASSWORD_HASH_METHOD="pbkdf2:sha256:1").test_client()
    login = f"/api/v1/tournaments/{tournament}/login"
    assert elsewhere.post(login, json={"password": "falsch!"}).status_code == 401
    assert elsewhere.post(login, json={"password": PASSWORD}).status_code == 200
