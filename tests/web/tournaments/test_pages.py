"""The organiser's pages with Flask's test client: set-up, registration and check-in, the
draw, a swap, the start, the board, closing, standings, the projector and the log, with
the forms' errors shown beside their fields.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.tournaments.support import (
    EN,
    NAMES,
    PASSWORD,
    create_tournament,
    draw,
    ok,
    play,
    register,
    seated,
    start,
)

SETUP = {
    "title": "Tarockturnier im Museum",
    "date": "2026-11-21",
    "place": "Blumenstein",
    "rounds": "2",
    "deals_per_player": "1",
    "scoring": "sum",
    "opt_unit_value": "0.10",
    "opt_currency": "CHF",
    "opt_coin": "0.05",
    "opt_end_pot": "split",
    "opt_threshold": "fixed-35",
    "opt_partner_rounding": "nearest",
    "opt_last_trick_payers": "all-others",
    "password": PASSWORD,
}
CREATE = "/tournaments?variant=troggen/blumenstein-2015"


def text(response: Any) -> str:
    """The page's text with entities resolved."""
    return html.unescape(response.get_data(as_text=True))


def field_errors(page: str) -> dict[str, list[str]]:
    """The error messages each field shows beside it: {field name: [messages]}."""
    found: dict[str, list[str]] = {}
    for block in re.split(r'(?=<div class="field)', page):
        name = re.search(r'<(?:input|select|textarea)[^>]*\bname="([^"]+)"', block)
        messages = re.findall(r'class="error"[^>]*>([^<]*)<', block.split("</div>")[0])
        if name and messages:
            found.setdefault(name.group(1), []).extend(m.strip() for m in messages)
    return found


class _Form(HTMLParser):
    """The values a browser would send for the page's form with a ``shown`` field."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.select: str | None = None
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = found.get("method") == "post" and "novalidate" in found
        elif self.inside and tag == "input" and found.get("type") not in ("radio", "checkbox"):
            self.values[found.get("name", "")] = found.get("value", "")
        elif self.inside and tag == "select":
            self.select = found.get("name")
        elif self.inside and tag == "option" and self.select and "selected" in found:
            self.values[self.select] = found.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def form_values(page: str) -> dict[str, str]:
    """What the set-up form on ``page`` sends as it stands."""
    parser = _Form()
    parser.feed(page)
    return parser.values


def follow(client: FlaskClient, response: Any, status: int = 303) -> str:
    """Follow a redirect and return the page it leads to."""
    assert response.status_code == status, (response.status_code, text(response)[:500])
    page = client.get(response.headers["Location"], headers=EN)
    assert page.status_code == 200
    return text(page)


def test_set_up_register_draw_swap_start_close_as_the_organiser(client: FlaskClient) -> None:
    """The whole organiser flow of a round through the pages' forms."""
    new = client.get("/tournaments/new", headers=EN)
    assert new.status_code == 200
    assert 'name="password"' in new.text
    assert "Set up the tournament" in new.text
    # Every table ends with its round: the pot cannot be offered to a next evening.
    end_pot = new.text.split('name="opt_end_pot"')[1].split("</select>")[0]
    assert 'value="split"' in end_pot
    assert 'value="carry"' not in end_pot
    german = client.get("/tournaments/new", headers={"Accept-Language": "de"}).text
    assert 'value="carry"' not in german

    created = client.post(CREATE, data=SETUP, headers=EN)
    assert created.headers["Location"] == "/tournaments/1/players"
    page = follow(client, created)
    assert "The tournament is set up. Register the players next." in page
    assert "0 registered, 0 here" in page
    data = ok(client.get("/api/v1/tournaments/1"))
    assert (data["name"], data["place"], data["date"]) == (
        "Tarockturnier im Museum",
        "Blumenstein",
        "2026-11-21",
    )
    assert (data["rounds"], data["deals_per_player"], data["language"]) == (2, 1, "en")

    for name in NAMES[:8]:
        response = client.post(
            "/tournaments/1/players", data={"name": name, "club": "Thun", "present": "y"}
        )
        assert response.headers["Location"] == "/tournaments/1/players#register"
    page = follow(
        client,
        client.post("/tournaments/1/players", data={"name": "Quirin", "number": "42"}),
    )
    assert "Quirin has start number 42." in page
    assert "9 registered, 8 here" in page  # Quirin was not ticked as here
    assert re.search(r'id="p42">.*?not here', page, re.S)

    page = follow(client, client.post("/tournaments/1/players/42", data={"change": "check_in"}))
    assert "9 registered, 9 here" in page
    page = follow(client, client.post("/tournaments/1/players/42", data={"change": "check_out"}))
    assert "9 registered, 8 here" in page

    board = text(client.get("/tournaments/1", headers=EN))
    assert "8 players are checked in." in board
    meta = " ".join(board.split())
    assert "· 21.11.2026 · Blumenstein · 2 rounds, each player deals once per round" in meta
    assert "Draw round 1" in board

    drawn = client.post("/tournaments/1/rounds")
    assert drawn.headers["Location"] == "/tournaments/1/rounds/1"
    page = follow(client, drawn)
    assert "Round 1 · drawn, not started" in page
    round_ = ok(client.get("/api/v1/tournaments/1/rounds/1"))
    assert f"Seed {round_['seed']}" in page
    first, second = seated(round_["tables"][0]), seated(round_["tables"][1])
    assert 42 not in first + second
    for number in first + second:
        assert f"{number} {NAMES[number - 1]}" in page

    a, b = first[0], second[0]
    page = follow(client, client.post("/tournaments/1/rounds/1/swap", data={"a": a, "b": b}))
    assert f"Start numbers {a} and {b} swapped places." in page
    swapped = ok(client.get("/api/v1/tournaments/1/rounds/1"))
    assert seated(swapped["tables"][0])[0] == b
    assert seated(swapped["tables"][1])[0] == a

    page = follow(client, client.post("/tournaments/1/rounds/1/start"))
    assert "Round 1 has started. Hand out the table cards." in page
    assert "Round 1 · playing" in page
    started = ok(client.get("/api/v1/tournaments/1/rounds/1"))
    for table in started["tables"]:
        assert f"<code>{table['code']}</code>" in page
    assert page.count("0</span> / 4") == 2
    assert "refresh.js" in page  # it follows the tables, not while a form is filled in

    board = text(client.get("/tournaments/1", headers=EN))
    assert "Round 1 · playing" in board
    assert board.count("playing") >= 3  # the round and both tables
    # Just started: nobody is late, and a table without a hand says so, not a time.
    assert board.count("no hand yet") == 2
    assert "last entry" not in board
    assert "late" not in board.split("<tbody>")[1].split("</tbody>")[0]

    # Closing with unfinished tables asks first and changes nothing.
    play(client, started["tables"][0]["evening"], 4)
    board = text(client.get("/tournaments/1", headers=EN))
    assert board.count("no hand yet") == 1
    assert "last entry" in board
    page = follow(client, client.post("/tournaments/1/rounds/1/close"))
    assert "Table 2 has not finished." in page
    assert "Close anyway" in page
    assert ok(client.get("/api/v1/tournaments/1/rounds/1"))["state"] == "started"
    assert "✓ finished" in page

    closed = client.post("/tournaments/1/rounds/1/close", data={"confirm": "yes"})
    assert closed.headers["Location"] == "/tournaments/1"
    board = follow(client, closed)
    assert "Round 1 is closed." in board
    assert "Round 1 · closed" in board
    assert "Draw round 2" in board
    assert ok(client.get("/api/v1/tournaments/1/rounds/1"))["state"] == "closed"

    standings = text(client.get("/tournaments/1/standings", headers=EN))
    assert "The sum of the round results." in standings
    assert "Per hand" in standings
    for name in NAMES[:8]:
        assert name in standings
    assert "Quirin" not in standings  # registered, never here, never played

    log = text(client.get("/tournaments/1/log", headers=EN))
    for kind in ("set up", "registered", "player changed", "round drawn", "swap"):
        assert kind in log, kind
    for kind in ("round started", "round closed"):
        assert kind in log, kind
    assert log.index("round closed") < log.index("round started") < log.index("swap")
    # Each entry is a sentence, never the stored keys.
    assert "Round 1 closed; table 2 had not finished, its hands so far count." in log
    assert f"Round 1: No. {a} ({NAMES[a - 1]}) and No. {b} ({NAMES[b - 1]}) swapped seats." in log
    assert f"Round 1 drawn, from the seed {round_['seed']}." in log
    assert "No. 42 (Quirin): checked in." in log
    assert "No. 42 (Quirin): marked not here." in log
    assert "Quirin registered with start number 42." in log
    assert not re.search(r"\b(round|unfinished|seed|number|name): ", log)
    assert "[]" not in log


def test_the_set_up_form_shows_its_errors_beside_the_fields(
    client: FlaskClient, snapshot: Any
) -> None:
    before = snapshot()
    bad = {**SETUP, "title": "", "rounds": "0", "password": "kurz", "opt_end_pot": "carry"}
    response = client.post(CREATE, data=bad, headers=EN)
    assert response.status_code == 422
    errors = field_errors(text(response))
    assert errors == {
        "title": ["Give the tournament a name."],
        "rounds": ["Enter a number between 1 and 20."],
        "password": ["Choose an organiser password of at least 6 characters."],
        "opt_end_pot": ["Every table ends with its round: share the pot or pay it back."],
    }
    # What was typed stays in the form, the password too (docs/tournaments.md "Shape"),
    # and the browser keeps no copy of the page; what to fix is listed at the top.
    assert 'value="Blumenstein"' in response.text
    assert 'value="kurz"' in response.text
    assert response.headers["Cache-Control"] == "no-store"
    assert 'class="error-summary" id="not-saved"' in response.text
    assert snapshot() == before


def test_registration_errors_are_shown_beside_the_fields(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, ["Anna", "Bert"])
    taken = client.post(
        f"/tournaments/{tournament}/players", data={"name": "Clara", "number": "2"}, headers=EN
    )
    assert taken.status_code == 422
    assert field_errors(text(taken)) == {"number": ["Start number 2 is Bert's already."]}
    assert 'value="Clara"' in taken.text
    empty = client.post(f"/tournaments/{tournament}/players", data={"name": " "}, headers=EN)
    assert empty.status_code == 422
    assert field_errors(text(empty)) == {"name": ["A player's name is empty."]}
    assert len(ok(client.get(f"/api/v1/tournaments/{tournament}/entrants"))["entrants"]) == 2


def test_a_player_can_drop_out_and_come_back(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:5])
    page = follow(
        client, client.post(f"/tournaments/{tournament}/players/3", data={"change": "drop"})
    )
    row = re.search(r'id="p3">(.*?)</tr>', page, re.S)
    assert row is not None
    assert "withdrawn before round 1" in row.group(1)
    assert 'value="return"' in row.group(1)
    assert "Clara drops out: not drawn again. Plays again brings them back." in page
    entrants = ok(client.get(f"/api/v1/tournaments/{tournament}/entrants"))["entrants"]
    assert entrants[2]["left_after"] == 0
    assert sorted(seated(draw(client, tournament)["tables"][0])) == [1, 2, 4, 5]
    page = follow(
        client, client.post(f"/tournaments/{tournament}/players/3", data={"change": "return"})
    )
    assert "Clara plays again." in page
    entrants = ok(client.get(f"/api/v1/tournaments/{tournament}/entrants"))["entrants"]
    assert (entrants[2]["left_after"], entrants[2]["present"]) == (None, True)
    unknown = client.post(f"/tournaments/{tournament}/players/3", data={"change": "fly"})
    assert unknown.status_code == 400
    missing = client.post(f"/tournaments/{tournament}/players/99", data={"change": "drop"})
    assert missing.status_code == 404


@pytest.mark.parametrize("change", ["drop", "check_out"])
def test_a_round_does_not_start_with_a_player_who_left_after_the_draw(
    client: FlaskClient, change: str
) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:8])
    number = seated(draw(client, tournament)["tables"][0])[0]
    name = NAMES[number - 1]
    client.post(f"/tournaments/{tournament}/players/{number}", data={"change": change})
    page = text(client.get(f"/tournaments/{tournament}/rounds/1", headers=EN))
    assert f"Left since the draw: {name}. Draw again before starting the round." in page

    refused = f"Left after round 1 was drawn: {number} {name}. Draw it again before starting it."
    client.post(f"/tournaments/{tournament}/rounds/1/start", headers=EN)
    page = client.get(f"/tournaments/{tournament}/rounds/1", headers=EN).text
    shown = re.search(r'<p class="warning" role="alert">([^<]*)</p>', page)  # not a success
    assert shown is not None
    assert html.unescape(shown.group(1)) == refused
    api = client.post(f"/api/v1/tournaments/{tournament}/rounds/1/start", headers=EN)
    assert (api.status_code, api.json) == (409, {"errors": {"round": [refused]}})
    assert ok(client.get(f"/api/v1/tournaments/{tournament}/rounds/1"))["state"] == "drawn"

    client.post(f"/tournaments/{tournament}/rounds/1/redraw")
    assert "Left since the draw" not in text(client.get(f"/tournaments/{tournament}/rounds/1"))
    tables = start(client, tournament, 1)["tables"]
    assert number not in [n for table in tables for n in seated(table)]


def test_an_impossible_swap_is_shown_beside_the_field(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:8])
    before = draw(client, tournament)
    response = client.post(
        f"/tournaments/{tournament}/rounds/1/swap", data={"a": "1", "b": "1"}, headers=EN
    )
    assert response.status_code == 422
    assert field_errors(text(response)) == {"b": ["Choose two different players to swap."]}
    response = client.post(
        f"/tournaments/{tournament}/rounds/1/swap", data={"a": "77", "b": "1"}, headers=EN
    )
    assert response.status_code == 422
    assert field_errors(text(response)) == {"a": ["Start number 77 is not in this round's draw."]}
    assert (
        ok(client.get(f"/api/v1/tournaments/{tournament}/rounds/1"))["tables"] == before["tables"]
    )


def test_a_draw_without_enough_players_says_why(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:3])
    response = client.post(f"/tournaments/{tournament}/rounds", headers=EN)
    assert response.status_code == 409
    assert "3 players are checked in; a table needs at least 4." in text(response)
    assert ok(client.get(f"/api/v1/tournaments/{tournament}/rounds"))["rounds"] == []


def test_the_set_up_freezes_on_its_page(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:4])
    settings = text(client.get(f"/tournaments/{tournament}/settings", headers=EN))
    assert 'name="rounds"' in settings
    assert "The first round has started" not in settings
    start(client, tournament, draw(client, tournament)["number"])
    settings = text(client.get(f"/tournaments/{tournament}/settings", headers=EN))
    assert "The first round has started" in settings
    assert 'name="rounds"' not in settings
    saved = client.post(
        f"/tournaments/{tournament}/settings",
        data={"title": "Museumscup", "place": "Thun", "version": "1"},
        headers=EN,
    )
    assert "The set-up was saved." in follow(client, saved)
    data = ok(client.get(f"/api/v1/tournaments/{tournament}"))
    assert (data["name"], data["place"], data["rounds"]) == ("Museumscup", "Thun", 3)
    empty = client.post(
        f"/tournaments/{tournament}/settings", data={"title": "", "version": "2"}, headers=EN
    )
    assert empty.status_code == 422
    assert field_errors(text(empty)) == {"title": ["Give the tournament a name."]}
    stale = client.post(
        f"/tournaments/{tournament}/settings", data={"title": "Alt", "version": "1"}, headers=EN
    )
    assert stale.status_code == 422
    assert "Someone changed the set-up meanwhile." in text(stale)
    assert ok(client.get(f"/api/v1/tournaments/{tournament}"))["name"] == "Museumscup"


def test_the_organiser_logs_in_and_out(app: Flask, client: FlaskClient) -> None:
    tournament = create_tournament(client)
    laptop = app.test_client()
    asked = laptop.get(f"/tournaments/{tournament}/players", headers=EN)
    assert asked.status_code == 303
    assert asked.headers["Location"] == (
        f"/tournaments/{tournament}/login?next=/tournaments/{tournament}/players"
    )
    form = text(laptop.get(asked.headers["Location"], headers=EN))
    assert 'value="/tournaments/1/players"' in form
    wrong = laptop.post(
        f"/tournaments/{tournament}/login",
        data={"password": "falsch!", "next": f"/tournaments/{tournament}/players"},
        headers=EN,
    )
    assert wrong.status_code == 401
    assert field_errors(text(wrong)) == {"password": ["That password is not right."]}
    right = laptop.post(
        f"/tournaments/{tournament}/login",
        data={"password": PASSWORD, "next": f"/tournaments/{tournament}/players"},
    )
    assert right.headers["Location"] == f"/tournaments/{tournament}/players"
    assert laptop.get(f"/tournaments/{tournament}/players").status_code == 200
    # Only a local page is a place to go back to.
    away = laptop.post(
        f"/tournaments/{tournament}/login",
        data={"password": PASSWORD, "next": "//evil.example/"},
    )
    assert away.headers["Location"] == f"/tournaments/{tournament}"
    out = laptop.post(f"/tournaments/{tournament}/logout", headers=EN)
    assert "Logged out." in follow(laptop, out)
    assert laptop.get(f"/tournaments/{tournament}").status_code == 303


def test_the_projector_shows_standings_without_controls(app: Flask, client: FlaskClient) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, NAMES[:8])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    play(client, round_["tables"][0]["evening"], 4, seed=3)
    projector = app.test_client()
    screen = projector.get(f"/tournaments/{tournament}/screen", headers=EN)
    assert screen.status_code == 200
    page = text(screen)
    assert re.search(r'<meta http-equiv="refresh" content="\d+', page)
    assert re.search(r"\b1 tables? still playing", page)
    assert "<form" not in page
    assert "<nav" not in page
    assert "screen.css" in page
    assert "<main>" in page  # the page's landmark (axe-core)
    standings = ok(projector.get(f"/api/v1/tournaments/{tournament}/standings"))["standings"]
    rows = re.findall(r'<tr[^>]*>\s*<td class="num">(\d+)</td><td class="num">(\d+)</td>', page)
    assert [(int(p), int(n)) for p, n in rows] == [(s["place"], s["number"]) for s in standings]
    # The organiser's standings page shows each round and the tie breaks.
    full = text(client.get(f"/tournaments/{tournament}/standings", headers=EN))
    assert "Best round" in full
    assert "R1" in full


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_organiser_pages_answer_in_both_languages(client: FlaskClient, lang: str) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:8])
    start(client, tournament, draw(client, tournament)["number"])
    headers = {"Accept-Language": lang}
    for path in ("", "/players", "/rounds/1", "/standings", "/settings", "/log", "/screen"):
        response = client.get(f"/tournaments/{tournament}{path}", headers=headers)
        assert response.status_code == 200, path
        assert f'<html lang="{lang}"' in response.text, path
    assert client.get("/tournaments", headers=headers).status_code == 200


def test_another_game_chosen_in_the_set_up_shows_its_rules_and_sets_up_nothing(
    client: FlaskClient,
) -> None:
    """docs/tournaments.md "Shape": the game shown when the form is sent is the game set up.
    Doppen chosen on a form that still shows Troggen's rules: the page comes back with
    Doppen's, the rest (the password too) kept, and nothing is set up until it is sent
    again."""
    sent = {
        "variant": "doppen/kirchberg",
        "shown": "troggen/blumenstein-2015",
        "title": "Doppen im Museum",
        "rounds": "2",
        "deals_per_player": "1",
        "scoring": "sum",
        "password": PASSWORD,
        "opt_unit_value": "0.10",
    }
    page = client.post("/tournaments", data=sent, headers=EN)
    assert page.status_code == 200
    html = text(page)
    assert "The house rules below are now those of" in html
    assert 'value="doppen/kirchberg" selected' in html
    assert 'value="Doppen im Museum"' in html
    assert f'value="{PASSWORD}"' in html
    assert 'name="shown" value="doppen/kirchberg"' in html
    assert ok(client.get("/api/v1/tournaments"))["tournaments"] == []

    created = client.post("/tournaments", data=form_values(html))
    assert created.status_code == 303
    (tournament,) = ok(client.get("/api/v1/tournaments"))["tournaments"]
    assert (tournament["game"], tournament["name"]) == ("doppen", "Doppen im Museum")


def test_a_name_registered_twice_is_pointed_out(client: FlaskClient) -> None:
    """Names may repeat (two Anna Meier, told apart by number), but a name typed twice by
    mistake must be seen: the page says which number has it already."""
    tournament = create_tournament(client)
    register(client, tournament, ["Anna Meier", "Bert"])
    page = follow(
        client, client.post(f"/tournaments/{tournament}/players", data={"name": "anna meier"})
    )
    assert "anna meier has start number 3." in page
    assert "anna meier was registered already, with start number 1." in page
    other = follow(
        client, client.post(f"/tournaments/{tournament}/players", data={"name": "Clara"})
    )
    assert "registered already" not in other
