"""Doppen through the pages and the API: the two-step entry, the Kasse, the paper sheet."""

from __future__ import annotations

import io
import re
from decimal import Decimal

from flask.testing import FlaskClient
from pypdf import PdfReader

EN = {"Accept-Language": "en"}
THREE = ["Anne", "Bert", "Clara"]
NO_KONTRA = {f"kontra_{k}": "0" for k in ("game", "valat", "pagat", "uhu")}


def doppen(client: FlaskClient, players: list[str], **extra: object) -> int:
    """Start a Doppen evening."""
    response = client.post("/api/v1/evenings", json={"game": "doppen", "players": players, **extra})
    assert response.status_code == 201, response.json
    return int(response.json["id"])


def errors(html: str) -> list[str]:
    """The error messages a page shows next to its fields."""
    return [m.strip() for m in re.findall(r'class="error"[^>]*>([^<]*)<', html)]


def test_d1_and_d2_entered_on_the_page(client: FlaskClient) -> None:
    evening = doppen(client, THREE)
    d1 = {"contract": "dreier", "soloist": "Anne", "points": "41", **NO_KONTRA, "token": "1"}
    assert client.post(f"/evenings/{evening}/hands", data=d1).status_code == 303
    d2 = {
        "contract": "zweier",
        "soloist": "Bert",
        "points": "33",
        **NO_KONTRA,
        "kontra_game": "1",
        "announced_uhu": "Bert",
        "pagat_player": "Clara",
        "pagat_result": "won",
        "uhu_player": "Bert",
        "uhu_result": "won",
        "token": "2",
    }
    assert client.post(f"/evenings/{evening}/hands", data=d2).status_code == 303
    hands = client.get(f"/api/v1/evenings/{evening}").json["hands"]
    assert hands[0]["deltas"] == {"Anne": 32, "Bert": -16, "Clara": -16}
    assert hands[1]["deltas"] == {"Anne": 28, "Bert": -56, "Clara": 28}


def test_all_pass_and_a_revoke_go_into_the_kasse(client: FlaskClient) -> None:
    evening = doppen(client, THREE)
    data = {"contract": "pass", "revokes": ["Bert"], "token": "p"}
    assert client.post(f"/evenings/{evening}/hands", data=data).status_code == 303
    state = client.get(f"/api/v1/evenings/{evening}").json
    # Refilled with 1.00 each, half the base each for the pass, half for Bert's revoke.
    assert state["kasse"] == {
        "contents": "5.00",
        "owed": {"Anne": "1.50", "Bert": "2.00", "Clara": "1.50"},
    }
    assert state["hands"][0]["kasse"]["contents"] == "5.00"
    page = client.get(f"/evenings/{evening}", headers=EN).text
    assert "Pagatkasse" in page
    settlement = client.get(f"/api/v1/evenings/{evening}/settlement").json
    assert sum(Decimal(v) for v in settlement["net"].values()) == 0
    assert Decimal(settlement["net"]["Bert"]) < 0


def test_kontra_on_a_premium_nobody_announced_is_refused(client: FlaskClient) -> None:
    evening = doppen(client, THREE)
    data = {
        "contract": "dreier",
        "soloist": "Anne",
        "points": "40",
        **NO_KONTRA,
        "kontra_pagat": "1",
        "token": "k",
    }
    response = client.post(f"/evenings/{evening}/hands", data=data, headers=EN)
    assert response.status_code == 422
    assert "Nobody announced the Pagat, so it cannot be doubled." in errors(response.text)


def test_four_players_the_dealer_sits_out(client: FlaskClient) -> None:
    evening = doppen(client, [*THREE, "Dora"], first_dealer="Dora")
    page = client.get(f"/evenings/{evening}", headers=EN).text
    assert "Dora deals and sits out" in page
    assert '<option selected value="Dora">Dora</option>' in page
    assert 'name="soloist" type="radio" value="Dora"' not in page
    data = {"contract": "dreier", "soloist": "Anne", "points": "41", **NO_KONTRA, "token": "4"}
    assert client.post(f"/evenings/{evening}/hands", data=data).status_code == 303
    deltas = client.get(f"/api/v1/evenings/{evening}").json["hands"][0]["deltas"]
    assert deltas == {"Anne": 48, "Bert": -16, "Clara": -16, "Dora": -16}


def test_printouts_and_history_of_a_doppen_evening(client: FlaskClient) -> None:
    evening = doppen(client, THREE)
    data = {"contract": "dreier", "soloist": "Anne", "points": "41", **NO_KONTRA, "token": "x"}
    client.post(f"/evenings/{evening}/hands", data=data)
    assert "Dreier" in client.get(f"/evenings/{evening}/hands", headers=EN).text
    assert client.get(f"/evenings/{evening}/sheet.pdf").status_code == 200
    assert client.get(f"/evenings/{evening}/settlement.pdf").status_code == 200
    edit = client.get(f"/evenings/{evening}/hands/1/edit", headers=EN).text
    assert 'value="41"' in edit


def test_card_point_counter(client: FlaskClient) -> None:
    query = (
        "soloist.fives=4&soloist.fours=2&soloist.threes=2&soloist.twos=3&soloist.ones=9"
        "&soloist.cards=20&opponents.fives=3&opponents.fours=2&opponents.threes=2"
        "&opponents.twos=1&opponents.ones=26&opponents.cards=34"
    )
    page = client.get(f"/tools/count?{query}", headers=EN)
    assert page.status_code == 200
    assert re.findall(r"<strong>(\d+)</strong>", page.text) == ["36", "34"]
    wrong = client.get(
        f"/tools/count?{query.replace('opponents.ones=26', 'opponents.ones=20')}", headers=EN
    )
    assert wrong.status_code == 422
    assert errors(wrong.text)


def test_paper_sheet_columns_and_the_kasse_on_screen_and_in_print(client: FlaskClient) -> None:
    evening = doppen(client, THREE)
    client.post(
        f"/evenings/{evening}/hands",
        data={"contract": "dreier", "soloist": "Anne", "points": "41", **NO_KONTRA, "token": "a"},
    )
    client.post(f"/evenings/{evening}/hands", data={"contract": "pass", "token": "b"})
    page = client.get(f"/evenings/{evening}", headers=EN).text
    table = re.search(r'<table class="aufschreib">.*?</table>', page, re.S)
    assert table is not None
    assert "<strong>+16</strong>" in table.group(0)  # D1 goes into Anne's column only
    assert "EUR 4.50" in table.group(0)  # refill 3.00 and the pass 1.50
    assert client.get(f"/api/v1/evenings/{evening}").json["columns"] == {
        "Anne": 16,
        "Bert": 0,
        "Clara": 0,
    }
    settlement = client.get(f"/evenings/{evening}/settlement", headers=EN).text
    assert "EUR +1.50" in settlement  # the Kasse shared out at the end, as money
    text = "".join(
        p.extract_text()
        for p in PdfReader(io.BytesIO(client.get(f"/evenings/{evening}/sheet.pdf").data)).pages
    )
    assert "Aufschreibsystem" in text
    assert "Eigene Kassennotizen" in text


def test_settlement_json_resolves_the_kasse(client: FlaskClient) -> None:
    evening = doppen(client, THREE)
    client.post(f"/api/v1/evenings/{evening}/hands", json={"contract": "pass", "penalties": []})
    data = client.get(f"/api/v1/evenings/{evening}/settlement").json
    # 3.00 refill and 1.50 for the pass, paid in and shared: everyone even.
    assert data["kasse"]["contents"] == "4.50"
    assert data["kasse"]["money"] == {"Anne": "0.00", "Bert": "0.00", "Clara": "0.00"}
    assert set(data["net"].values()) == {"0.00"}


def test_a_kasse_base_of_odd_cents_is_refused(client: FlaskClient) -> None:
    body = {"game": "doppen", "players": THREE, "options": {"kasse_base": "1.01"}}
    response = client.post("/api/v1/evenings", json=body)
    assert response.status_code == 422
    assert "options.kasse_base" in response.json["errors"]


def test_more_doublings_than_tables_play_are_saved_once_confirmed(client: FlaskClient) -> None:
    evening = doppen(client, THREE)
    body = {"contract": "dreier", "soloist": "Anne", "points": 41, "kontra": {"game": 12}}
    asked = client.post(f"/api/v1/evenings/{evening}/hands", json=body, headers=EN)
    assert asked.status_code == 422
    assert asked.json["warnings"] == {
        "kontra.game": [
            "12 doublings multiply this by 4096. Please check: Kontra is 1, Re 2, Subkontra 3."
        ]
    }
    assert client.get(f"/api/v1/evenings/{evening}").json["hands"] == []
    confirmed = {**body, "confirm": True}
    saved = client.post(f"/api/v1/evenings/{evening}/hands", json=confirmed, headers=EN)
    assert saved.status_code == 201, saved.json
    assert saved.json["hand"]["deltas"] == {
        "Anne": 16 * 4096 * 2,
        "Bert": -16 * 4096,
        "Clara": -16 * 4096,
    }
