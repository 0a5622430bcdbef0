"""Typing a paper sheet back in (``web/evenings/paper.py``; docs/recording.md "Back from
paper"): the grid, its check, "Save all", a double press, a tablet that came back, and
the same evening typed from paper and at the table."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.core.sheet_codes import CODERS, player_codes
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Hand
from tests.conftest import PLAYERS4
from tests.web.tournaments.support import NAMES, create_tournament, draw, register, start

EN = {"Accept-Language": "en"}
FIVE = ["Anna", "Bert", "Clara", "Dora", "Emil"]
Line = tuple[str, str, str, str, str]


def lines_form(
    lines: Sequence[Line], *, first: int, token: str = "t1", action: str = "save"
) -> dict[str, str]:
    """The grid's form with ``lines`` (dealer, game, who, points, extra), as posted."""
    form = {"token": token, "first": str(first), "action": action}
    for i, line in enumerate(lines):
        for name, value in zip(("dealer", "contract", "who", "points", "extra"), line, strict=True):
            form[f"lines-{i}-{name}"] = value
    return form


def stored(app: Flask, evening: int) -> list[tuple[int, str]]:
    """The evening's hands as stored: number and source."""
    with app.app_context():
        found = db.session.query(Hand.number, Hand.source).filter_by(evening_id=evening)
        return sorted((n, s) for n, s in found)


def test_the_grid_starts_after_the_last_hand_with_its_codes(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    record_hand(evening, {"contract": "einfach", "bidder": "Anna", "points": 41})
    page = client.get(f"/evenings/{evening}/paper", headers=EN)
    assert page.status_code == 200
    assert 'name="first" type="hidden" value="2"' in page.text
    assert "Carried from the hands stored" in page.text
    for code, meaning in (("OT", "Ohne Talon"), ("P+ P\u2212", "Pagat won, lost")):
        assert code in page.text
        assert meaning in page.text
    assert re.search(r"<strong>A</strong>&nbsp;Anna", page.text)


def test_check_shows_each_lines_payments_and_stores_nothing(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    lines = [("", "e", "a", "41", ""), ("", "d", "b", "20", "p-")]
    page = client.post(
        f"/evenings/{evening}/paper", data=lines_form(lines, first=1, action="check"), headers=EN
    )
    assert page.status_code == 200
    assert page.text.count('class="paper-line ok"') == 2
    assert stored(app, evening) == []
    answer = client.post(f"/evenings/{evening}/paper/check", data=lines_form(lines, first=1))
    found = answer.json
    assert [line["state"] for line in found["lines"]] == ["ok", "ok"]
    assert [line["number"] for line in found["lines"]] == [1, 2]
    assert found["lines"][0]["deltas"] == {"Anna": 3, "Bert": -1, "Clara": -1, "Dora": -1}
    assert stored(app, evening) == []


def test_save_all_stores_the_lines_before_the_first_refused_and_keeps_the_rest(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    lines = [
        ("", "e", "a", "41", ""),
        ("", "d", "b", "20", "p-"),
        ("", "e", "xaver", "41", ""),  # nobody's code
        ("", "e", "c", "50", ""),
    ]
    page = client.post(f"/evenings/{evening}/paper", data=lines_form(lines, first=1), headers=EN)
    assert page.status_code == 200
    assert "2 hands were saved" in page.text
    assert stored(app, evening) == [(1, "paper"), (2, "paper")]
    assert 'value="xaver"' in page.text  # the refused line stays, as typed
    assert 'value="50"' in page.text
    assert "Write who played by the codes" in page.text
    assert 'name="first" type="hidden" value="3"' in page.text


def test_a_kulanz_typed_in_the_last_column_pays_as_the_table_records_it(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    at_table = create_evening(players=FIVE)
    hand = {"contract": "doppelt", "bidder": "Anna", "partner": "Clara", "points": 41}
    record_hand(at_table, {**hand, "kulanz": 2})
    from_paper = create_evening(players=FIVE)
    check = f"/evenings/{from_paper}/paper/check"
    found = client.post(check, data=lines_form([("", "d", "ac", "41", "k2")], first=1)).json
    [line] = found["lines"]
    [recorded] = client.get(f"/api/v1/evenings/{at_table}").json["hands"]
    assert (line["state"], line["deltas"]) == ("ok", recorded["deltas"])
    twice = [("", "d", "a/c k2", "41", "k3")]
    refused = client.post(check, data=lines_form(twice, first=1), headers={"Accept-Language": "de"})
    assert refused.json["lines"][0]["refused"] == {
        "extra": ["Schreiben Sie die Kulanz nur einmal: in der Spalte «Wer» oder in der letzten."]
    }


def test_a_double_press_stores_once(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    form = lines_form([("", "e", "a", "41", ""), ("", "e", "b", "30", "")], first=1)
    first = client.post(f"/evenings/{evening}/paper", data=form)
    again = client.post(f"/evenings/{evening}/paper", data=form)
    assert first.status_code == again.status_code == 303
    assert stored(app, evening) == [(1, "paper"), (2, "paper")]


def test_a_hand_stored_meanwhile_stores_nothing_and_keeps_the_lines(
    app: Flask,
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
) -> None:
    evening = create_evening()
    record_hand(evening, {"contract": "einfach", "bidder": "Dora", "points": 40})  # a tablet
    page = client.post(
        f"/evenings/{evening}/paper",
        data=lines_form([("", "e", "a", "41", "")], first=1),
        headers=EN,
    )
    assert page.status_code == 409
    assert "nothing was saved" in page.text
    assert stored(app, evening) == [(1, "api")]
    assert 'value="41"' in page.text
    assert 'name="first" type="hidden" value="2"' in page.text


def test_an_implausible_line_is_stored_once_confirmed(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    misere = [("", "m", "10 20 21 11 5", "", "")]  # with the Talon's 5 they make 67, not 70
    page = client.post(f"/evenings/{evening}/paper", data=lines_form(misere, first=1), headers=EN)
    assert page.status_code == 422
    assert 'class="paper-line confirm"' in page.text
    form = {**lines_form(misere, first=1, token="t2"), "lines-0-confirm": "y"}
    assert client.post(f"/evenings/{evening}/paper", data=form).status_code == 303
    assert stored(app, evening) == [(1, "paper")]


def test_a_closed_evening_takes_no_paper(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    client.post(f"/api/v1/evenings/{evening}/close")
    assert client.get(f"/evenings/{evening}/paper").status_code == 303


def troggen_hand(rnd: random.Random, players: list[str]) -> dict[str, Any]:
    """A hand as the benchmarks draw them: a bid (a partner at five), one in ten a Misère."""
    if rnd.random() < 0.1:
        points = [rnd.randint(4, 13) for _ in players[:-1]]
        points.append(62 - sum(points))
        return {"contract": "misere", "points": dict(zip(players, points, strict=True))}
    bidder = rnd.choice(players)
    hand: dict[str, Any] = {
        "contract": rnd.choice(["einfach", "einfach", "doppelt", "ohne", "gegen"]),
        "bidder": bidder,
        "points": rnd.randint(15, 55),
        "last_trick": rnd.choice(["none"] * 6 + ["pagat_won", "king_lost"]),
    }
    if len(players) >= 5:
        hand["partner"] = rnd.choice([None, *[p for p in players if p != bidder]])
    return hand


def ledger_of(client: FlaskClient, evening: int) -> tuple[Any, ...]:
    """What an evening pays, hand by hand, and its balances, pot and settlement."""
    shown = client.get(f"/api/v1/evenings/{evening}").json
    hands = [(h["number"], h["dealer"], h["deltas"]) for h in shown["hands"]]
    settled = client.get(f"/api/v1/evenings/{evening}/settlement").json
    kept = {key: shown[key] for key in ("balances", "pot", "kasse", "money") if key in shown}
    return hands, kept, settled["net"], settled["transfers"]


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_club_evening_of_forty_hands_comes_back_from_paper_as_the_table_stores_it(
    client: FlaskClient, language: str
) -> None:
    body = {"game": "troggen", "players": FIVE, "language": language, "first_dealer": "Emil"}
    at_table = client.post("/api/v1/evenings", json=body).json["id"]
    from_paper = client.post("/api/v1/evenings", json=body).json["id"]
    rnd = random.Random(40)
    hands = [troggen_hand(rnd, FIVE) for _ in range(40)]
    codes = player_codes(FIVE)
    lines: list[Line] = []
    for hand in hands:
        assert client.post(f"/api/v1/evenings/{at_table}/hands", json=hand).status_code == 201
        written = CODERS["troggen"](hand, codes)
        lines.append(("", written.contract, written.who, written.points, written.extra))
    headers = {"Accept-Language": language}
    saved = client.post(
        f"/evenings/{from_paper}/paper", data=lines_form(lines, first=1), headers=headers
    )
    assert saved.status_code == 303, saved.text
    assert ledger_of(client, from_paper) == ledger_of(client, at_table)


def test_a_table_change_between_lines_plays_on_at_the_new_table(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    lines = [
        ("", "e", "a", "41", ""),
        ("C", "=", "a, b, c, d, Fritz", "", ""),
        ("", "d", "f/b", "38", ""),  # Fritz is new: his code is F now
    ]
    page = client.post(f"/evenings/{evening}/paper", data=lines_form(lines, first=1), headers=EN)
    assert page.status_code == 303, page.text
    shown = client.get(f"/api/v1/evenings/{evening}").json
    assert shown["players"] == [*PLAYERS4, "Fritz"]
    second = shown["hands"][1]
    assert (second["dealer"], second["input"]["bidder"], second["input"]["partner"]) == (
        "Clara",
        "Fritz",
        "Bert",
    )
    assert stored(app, evening) == [(1, "paper"), (2, "paper")]


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_tournament_tables_eight_hands_come_back_from_paper_as_the_table_stores_them(
    client: FlaskClient, language: str
) -> None:
    tournament = create_tournament(client, deals_per_player=2, rounds=1)
    register(client, tournament, NAMES[:8])
    draw(client, tournament)
    started = start(client, tournament, 1)
    evening = started["tables"][0]["evening"]
    shown = client.get(f"/api/v1/evenings/{evening}").json
    players, dealer = shown["players"], shown["next_dealer"]
    rnd = random.Random(8)
    hands = [troggen_hand(rnd, players) for _ in range(8)]
    codes = player_codes(players)
    lines: list[Line] = []
    for hand in hands:
        written = CODERS["troggen"](hand, codes)
        lines.append(("", written.contract, written.who, written.points, written.extra))
    lines.append(("", "e", "a", "41", ""))  # one too many
    headers = {"Accept-Language": language}
    page = client.post(
        f"/evenings/{evening}/paper", data=lines_form(lines, first=1), headers=headers
    )
    assert page.status_code == 200
    saved, too_many = {
        "en": ("8 hands were saved", "one too many"),
        "de": ("8 Spiele wurden gespeichert", "eine zu viel"),
    }[language]
    assert saved in page.text
    assert too_many in page.text
    assert client.get(f"/api/v1/evenings/{evening}").json["closed"]
    table_change = lines_form([("", "=", "a, b, c, d", "", "")], first=9, action="check")
    refused = client.post(f"/evenings/{evening}/paper/check", data=table_change).json
    assert refused["lines"][0]["state"] == "refused"
    assert "set by the tournament" in refused["lines"][0]["refused"]["contract"][0]
    # The same hands at a table of the same players and rules, saved hand by hand.
    options = client.get(f"/api/v1/evenings/{evening}").json["options"]
    body = {"game": "troggen", "players": players, "first_dealer": dealer, "options": options}
    at_table = client.post("/api/v1/evenings", json=body).json["id"]
    for hand in hands:
        assert client.post(f"/api/v1/evenings/{at_table}/hands", json=hand).status_code == 201
    paid = client.get(f"/api/v1/evenings/{evening}").json
    expected = client.get(f"/api/v1/evenings/{at_table}").json
    assert [h["deltas"] for h in paid["hands"]] == [h["deltas"] for h in expected["hands"]]
    assert [h["dealer"] for h in paid["hands"]] == [h["dealer"] for h in expected["hands"]]
    assert paid["balances"] == expected["balances"]


DOPPEN = ["Anne", "Bert", "Clara", "Dieter"]
TROGGU = ["Anna", "Beat", "Carla", "Dani", "Ella", "Fritz", "Gabi", "Hans"]


def doppen_hand(rnd: random.Random, seated: list[str]) -> dict[str, Any]:
    """A Doppen hand of each kind, now and then a Kontra, a premium or a pass."""
    if rnd.random() < 0.1:
        return {"contract": "pass", "penalties": []}
    hand: dict[str, Any] = {
        "contract": rnd.choice(["dreier", "unterer", "zweier", "einer", "solo"]),
        "soloist": rnd.choice(seated),
        "points": rnd.randint(20, 55),
        "penalties": [],
    }
    if rnd.random() < 0.3:
        hand["kontra"] = {"game": 1}
    if rnd.random() < 0.3:
        hand["pagat"] = {"player": rnd.choice(seated), "result": rnd.choice(["won", "lost"])}
    return hand


def troggu_hand(rnd: random.Random, seated: list[str]) -> dict[str, Any]:
    """A Troggu (Visp) hand at eight: a called partner, now and then a Solo."""
    declarer = rnd.choice(seated)
    if rnd.random() < 0.2:
        return {"contract": "solo", "declarer": declarer, "points": rnd.randint(40, 90)}
    partner = rnd.choice([p for p in seated if p != declarer])
    return {
        "contract": "normal",
        "declarer": declarer,
        "partner": partner,
        "points": rnd.randint(40, 90),
    }


@pytest.mark.parametrize(
    ("game", "players", "make"),
    [("doppen", DOPPEN, doppen_hand), ("troggu", TROGGU, troggu_hand)],
    ids=["doppen", "troggu"],
)
def test_every_game_comes_back_from_paper_as_the_table_stores_it(
    client: FlaskClient,
    game: str,
    players: list[str],
    make: Callable[[random.Random, list[str]], dict[str, Any]],
) -> None:
    body: dict[str, Any] = {"game": game, "players": players}
    if game == "troggu":
        body["variant"] = "visp"
    at_table = client.post("/api/v1/evenings", json=body).json["id"]
    from_paper = client.post("/api/v1/evenings", json=body).json["id"]
    rnd = random.Random(12)
    codes = player_codes(players)
    lines: list[Line] = []
    for _ in range(12):
        seated = players
        if game == "doppen":  # at four the dealer sits out
            dealer = client.get(f"/api/v1/evenings/{at_table}").json["next_dealer"]
            seated = [p for p in players if p != dealer]
        hand = make(rnd, seated)
        assert client.post(f"/api/v1/evenings/{at_table}/hands", json=hand).status_code == 201
        written = CODERS[game](hand, codes)
        lines.append(("", written.contract, written.who, written.points, written.extra))
    saved = client.post(f"/evenings/{from_paper}/paper", data=lines_form(lines, first=1))
    assert saved.status_code == 303, saved.text
    assert ledger_of(client, from_paper) == ledger_of(client, at_table)
