"""Every page and printout in German says nothing in English and writes money as every
page does (docs/presentation.md).

A hall of German readers is played through the pages and the API: casual evenings of every
game with an Undo, a void, corrections and a ticked payment, and a tournament with a swap,
a player checked out, a round closed early and an organiser's correction. Then every page
the app serves (found in its URL map, so a new page is checked without being listed here)
and every printout is read in German, looking for the distinctive words of the app's
English texts and for raw keys or lists.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.web.tournaments.support import (
    close,
    create_tournament,
    draw,
    ok,
    play,
    register,
    start,
)

DE = {"Accept-Language": "de-CH"}
GERMAN = Path(__file__).parents[2] / "scorekeeper/translations/de/LC_MESSAGES/messages.po"
#: Players named so that no name is an English word of the app.
PLAYERS = ["Änni", "Bärti", "Chrigi", "Dölf", "Esthi"]
#: Endpoints that are no page to read: files for other programs (CSV, JSON, zip, the icon).
NOT_PAGES = {
    "static",
    "evenings.favicon",
    "exports.hands_csv",
    "exports.settlement_csv",
    "exports.export_json",
    "backups.download",
    "groups.season_csv",
}
_GERMAN_MONEY = re.compile(r"\d,\d\d\s*(?:CHF|EUR)|(?:CHF|EUR)\s*[+\u2212-]?\d+,\d")
_WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{4,}")
_PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")


def english_words() -> set[str]:
    """Words of the app's English texts that none of its German texts uses.

    Only messages whose German differs count (a game's name is the same in both), and only
    words of four letters or more, so "Pagat" or "Solo", German as well, never count.
    """
    with GERMAN.open("rb") as handle:
        catalog = read_po(handle, locale="de")
    english: set[str] = set()
    german: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        if ids[0] == strings[0]:
            continue
        for text in ids:
            english.update(_WORD.findall(_PLACEHOLDER.sub(" ", text)))
        for text in strings:
            german.update(w.lower() for w in _WORD.findall(_PLACEHOLDER.sub(" ", text)))
    return {w for w in english if w.lower() not in german}


def shown(response: Any) -> str:
    """What a reader sees: a PDF's text, or a page's text without tags, scripts and styles."""
    if response.mimetype == "application/pdf":
        return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.data)).pages)
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", response.text, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def post(client: FlaskClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """An API write in German that must succeed."""
    response = client.post(url, json=body, headers=DE)
    assert response.status_code in (200, 201), (url, response.get_data(as_text=True))
    return dict(response.json or {})


def play_casual_evenings(client: FlaskClient) -> None:
    """An evening of each game, as a German table records it."""
    troggen = post(client, "/api/v1/evenings", {"game": "troggen", "players": PLAYERS})["id"]
    bid = {"contract": "einfach", "bidder": "Änni", "partner": "Bärti", "points": 41}
    post(client, f"/api/v1/evenings/{troggen}/hands", bid)
    undone = client.post(f"/evenings/{troggen}/hands/1/undo", data={"version": "1"}, headers=DE)
    assert undone.status_code == 303
    misere = {"contract": "misere", "points": dict(zip(PLAYERS, [10, 20, 17, 12, 8], strict=True))}
    for body in (bid, misere, {**bid, "contract": "doppelt", "points": 30}):
        post(client, f"/api/v1/evenings/{troggen}/hands", body)
    client.delete(f"/api/v1/evenings/{troggen}/hands/3", json={"reason": "falsch gezählt"})
    client.put(f"/api/v1/evenings/{troggen}/hands/2", json={**bid, "points": 44, "version": 1})
    payment = client.get(f"/api/v1/evenings/{troggen}/settlement").json["transfers"][0]
    tick = {"payer": payment["from"], "payee": payment["to"], "action": "tick"}
    tick["amount"] = str(int(payment["amount"].replace(".", "")))
    client.post(f"/evenings/{troggen}/settlement/ticks", data=tick, headers=DE)

    doppen = post(client, "/api/v1/evenings", {"game": "doppen", "players": PLAYERS[:3]})["id"]
    post(client, f"/api/v1/evenings/{doppen}/hands", {"contract": "pass", "penalties": []})
    pagat = {
        "contract": "zweier",
        "soloist": "Bärti",
        "points": 38,
        "announced": {"pagat": "Bärti"},
        "kontra": {"pagat": 1},
        "pagat": {"player": "Bärti", "result": "won"},
    }
    post(client, f"/api/v1/evenings/{doppen}/hands", pagat)

    visp = {"game": "troggu", "variant": "visp", "players": PLAYERS[:4]}
    evening = post(client, "/api/v1/evenings", visp)["id"]
    normal = {"contract": "normal", "declarer": "Änni", "points": 70}
    post(client, f"/api/v1/evenings/{evening}/hands", normal)
    striche = {**visp, "variant": "eisten-stalden"}
    evening = post(client, "/api/v1/evenings", striche)["id"]
    team = {"contract": "team", "team": ["Änni", "Chrigi"], "points": 61}
    post(client, f"/api/v1/evenings/{evening}/hands", team)

    # A table group of every game's evening, for the club's pages.
    group = post(client, "/api/v1/groups", {"name": "Donnschtigsrundi"})["id"]
    for played in (troggen, doppen, evening):
        answer = client.put(f"/api/v1/evenings/{played}/group", json={"group": group}, headers=DE)
        assert answer.status_code == 200, answer.json


def play_tournament(client: FlaskClient) -> int:
    """A German tournament: a swap, a player checked out, a table closed early, a correction."""
    tournament = create_tournament(client, language="de", rounds=2)
    names = ["Anneli", "Bethli", "Chläus", "Dorli", "Ernstli", "Fränzi", "Gritli", "Hansli", "Ueli"]
    register(client, tournament, names)
    base = f"/api/v1/tournaments/{tournament}"
    ok(client.patch(f"{base}/entrants/9", json={"present": False}))
    tables = draw(client, tournament)["tables"]
    a, b = tables[0]["players"][0]["number"], tables[1]["players"][0]["number"]
    ok(client.post(f"{base}/rounds/1/swap", json={"a": a, "b": b}))
    tables = start(client, tournament, 1)["tables"]
    play(client, tables[0]["evening"], tables[0]["hands_due"])
    play(client, tables[1]["evening"], 1)
    ok(close(client, tournament, 1, confirm=True))
    evening = tables[0]["evening"]
    hand = ok(client.get(f"/api/v1/evenings/{evening}/hands/1"))
    correction = {**hand["input"], "version": hand["version"], "correction": "Punkte vertauscht"}
    ok(client.put(f"/api/v1/evenings/{evening}/hands/1", json=correction))
    draw(client, tournament)
    start(client, tournament, 2)
    return tournament


def urls(app: Flask, client: FlaskClient, tournament: int) -> Iterator[str]:
    """Every page and printout the app serves, for every evening and the tournament."""
    evenings = [e["id"] for e in client.get("/api/v1/evenings").json["evenings"]]
    finished = ok(client.get(f"/api/v1/tournaments/{tournament}/rounds/1"))
    evenings.append(finished["tables"][0]["evening"])  # a tournament table, corrected
    playing = ok(client.get(f"/api/v1/tournaments/{tournament}/rounds/2"))
    values: dict[str, list[Any]] = {
        "evening_id": evenings,
        "number": [1],
        "tournament_id": [tournament],
        "player_id": [1],
        "group_id": [1],
        "member_id": [1],
        "code": [playing["tables"][0]["code"]],
    }
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if "GET" not in (rule.methods or ()) or rule.endpoint in NOT_PAGES:
            continue
        if rule.rule.startswith("/api/"):
            continue  # the API's messages follow the same catalogue; its keys are English
        combos: list[dict[str, Any]] = [{}]
        for argument in rule.arguments:
            # Both rounds of the tournament (closed and playing); an evening's first hand.
            given = [1, 2] if argument == "number" and "tournament_id" in rule.arguments else None
            combos = [{**c, argument: v} for c in combos for v in given or values[argument]]
        for combo in combos:
            url = rule.rule
            for key, value in combo.items():
                url = re.sub(rf"<(?:\w+:)?{key}>", str(value), url)
            yield url


@pytest.fixture
def hall(app: Flask, client: FlaskClient) -> tuple[FlaskClient, list[str]]:
    """The organiser's laptop after an evening of every game and a tournament."""
    play_casual_evenings(client)
    tournament = play_tournament(client)
    return client, list(urls(app, client, tournament))


def test_every_page_and_printout_in_german_has_no_english_word(
    hall: tuple[FlaskClient, list[str]],
) -> None:
    client, addresses = hall
    # Besides the catalogue: values the app stores in English and must translate when shown
    # (an Undo's void reason, where a version of a hand came from).
    words = english_words() | {"undo", "page", "import"}
    assert {"Settlement", "Standings", "round", "page"} <= words  # the list is real
    found = {}
    for url in addresses:
        response = client.get(url, headers=DE)
        if response.status_code in (302, 303):
            continue  # an address that only leads elsewhere, which is read itself
        # 409: what a tournament decides for its tables (seating, house rules) is refused
        # there, with a page that is read as well.
        assert response.status_code in (200, 409), (url, response.status_code)
        assert response.mimetype in ("text/html", "application/pdf"), (url, response.mimetype)
        text = shown(response)
        english = sorted({w for w in _WORD.findall(text) if w in words})
        if english:
            found[url] = english
        # Money as everywhere: the currency first, a decimal point (CHF 0.30, not 0,30 CHF).
        assert not _GERMAN_MONEY.search(text), (url, _GERMAN_MONEY.findall(text))
    assert not found, found
    assert len(addresses) > 40  # every game's pages and printouts were read


def test_the_tournament_log_has_no_raw_keys_or_lists(hall: tuple[FlaskClient, list[str]]) -> None:
    client, addresses = hall
    log = next(u for u in addresses if u.endswith("/log"))
    text = shown(client.get(log, headers=DE))
    assert "Durchgang 1: Nr. " in text  # the swap, as a sentence
    assert re.search(r"Durchgang 1 abgeschlossen; Tisch \d war nicht fertig", text)
    assert not re.search(r"\b\w+: (\[|\d|True|False)", text), text
    assert "[" not in text
    assert "]" not in text
