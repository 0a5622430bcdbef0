"""Troggu through the pages and the API: the money variants and Eisten-Stalden's Striche."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient
from pypdf import PdfReader

EN = {"Accept-Language": "en"}
SEVEN = ["Anna", "Beat", "Carla", "Dani", "Ella", "Fritz", "Gabi"]
SIX = SEVEN[:6]


def troggu(client: FlaskClient, variant: str, players: list[str]) -> int:
    """Start a Troggu evening of ``variant``."""
    response = client.post(
        "/api/v1/evenings", json={"game": "troggu", "variant": variant, "players": players}
    )
    assert response.status_code == 201, response.json
    return int(response.json["id"])


def errors(html: str) -> list[str]:
    """The error messages a page shows next to its fields."""
    return [m.strip() for m in re.findall(r'class="error"[^>]*>([^<]*)<', html)]


def test_visp_defaults_and_variants_on_the_new_evening_page(client: FlaskClient) -> None:
    page = client.get("/evenings/new?variant=troggu/visp", headers=EN).text
    assert "Troggu (Visp)" in page
    assert 'name="seat_7"' in page  # up to eight players
    data = client.post("/api/v1/evenings", json={"game": "troggu", "players": SEVEN}).json
    assert data["variant"] == "visp"
    assert data["options"]["unit_value"] == "0.10"


def test_normal_game_with_a_partner_at_seven(client: FlaskClient) -> None:
    evening = troggu(client, "visp", SEVEN)
    page = client.get(f"/evenings/{evening}", headers=EN).text
    assert "Partner (holds the called trump)" in page
    data = {
        "contract": "normal",
        "declarer": "Anna",
        "partner": "Dani",
        "points": "62",
        "all_tricks": "",
        "token": "a",
    }
    assert client.post(f"/evenings/{evening}/hands", data=data).status_code == 303
    hand = client.get(f"/api/v1/evenings/{evening}").json["hands"][0]
    assert hand["deltas"] == {
        "Anna": 3,
        "Beat": -1,
        "Carla": -1,
        "Dani": 2,
        "Ella": -1,
        "Fritz": -1,
        "Gabi": -1,
    }


def test_misere_at_seven_needs_the_fool_and_i_in_the_tapp(client: FlaskClient) -> None:
    evening = troggu(client, "visp", SEVEN)
    points = {f"misere_{i}": v for i, v in enumerate(["20", "20", "20", "10", "10", "10", "10"])}
    refused = client.post(
        f"/evenings/{evening}/hands",
        data={"contract": "misere", **points, "token": "m"},
        headers=EN,
    )
    assert refused.status_code == 422
    assert any("Fool and trump I" in e for e in errors(refused.text))
    saved = client.post(
        f"/evenings/{evening}/hands",
        data={"contract": "misere", **points, "fool_and_i_in_tapp": "y", "token": "n"},
    )
    assert saved.status_code == 303
    deltas = client.get(f"/api/v1/evenings/{evening}").json["hands"][0]["deltas"]
    assert sum(deltas.values()) == 0
    assert deltas["Anna"] < 0


def test_the_misere_sum_says_what_it_may_add_up_to_before_the_tapp_is_counted(
    client: FlaskClient,
) -> None:
    """docs/troggu.md §2: the players hold 114 less the Tapp; before the Tapp is counted the
    checksum names the range saving accepts (the Tapp's fewest and most points), not "114 minus
    Tapp", which a sum of 114 seemed to match."""
    five = client.get(f"/evenings/{troggu(client, 'visp', SEVEN[:5])}", headers=EN).text
    assert "79 to 107 (114 less the Tapp)" in five
    seven = client.get(f"/evenings/{troggu(client, 'visp', SEVEN)}", headers=EN).text
    assert "84 to 100 (114 less the Tapp)" in seven


def test_bad_troggu_hand_is_shown_next_to_the_field(client: FlaskClient) -> None:
    evening = troggu(client, "st-niklaus", SEVEN[:4])
    data = {"contract": "normal", "declarer": "Anna", "points": "120", "token": "x"}
    response = client.post(f"/evenings/{evening}/hands", data=data, headers=EN)
    assert response.status_code == 422
    assert "Enter a number between 0 and 114." in errors(response.text)


def test_eisten_stalden_suggests_the_team_and_counts_striche(
    client: FlaskClient, snapshot: Callable[[], dict[str, list[tuple[Any, ...]]]]
) -> None:
    evening = troggu(client, "eisten-stalden", SIX)
    page = client.get(f"/evenings/{evening}", headers=EN).text
    assert "Mund, Bagat und Ausgeber" in page
    before = snapshot()
    suggested = client.post(
        f"/evenings/{evening}/hands",
        data={
            "holder_mund": "Dani",
            "holder_bagat": "Fritz",
            "holder_called": "",
            "action": "suggest",
            "token": "s",
        },
        headers=EN,
    )
    assert suggested.status_code == 200
    # The team's boxes ticked (the holders' buttons stay as chosen).
    checked = re.findall(r'<input checked[^>]*name="team"[^>]*value="(\w+)"', suggested.text)
    assert checked == ["Anna", "Dani", "Fritz"]  # Anna deals the first hand
    assert snapshot() == before  # a suggestion saves nothing
    saved = client.post(
        f"/evenings/{evening}/hands", data={"team": checked, "points": "60", "token": "t"}
    )
    assert saved.status_code == 303
    data = client.get(f"/api/v1/evenings/{evening}").json
    assert data["striche"] == {"Anna": 1, "Beat": 0, "Carla": 0, "Dani": 1, "Ella": 0, "Fritz": 1}
    assert data["leaders"] == ["Anna", "Dani", "Fritz"]
    assert data["hands"][0]["striche"]["Dani"] == 1
    assert client.get(f"/api/v1/evenings/{evening}/settlement").json == {
        "striche": data["striche"],
        "leaders": data["leaders"],
    }
    settlement = client.get(f"/evenings/{evening}/settlement", headers=EN).text
    assert "Tagessieger" in settlement
    assert "Mark as paid" not in settlement
    pdf = client.get(f"/evenings/{evening}/settlement.pdf").data
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Striche" in text
    assert "Tagessieger" in text
    assert client.get(f"/evenings/{evening}/sheet.pdf").status_code == 200


def test_eisten_stalden_has_no_money_options(client: FlaskClient) -> None:
    page = client.get("/evenings/new?variant=troggu/eisten-stalden", headers=EN).text
    assert 'name="opt_unit_value"' not in page
    body = {
        "game": "troggu",
        "variant": "eisten-stalden",
        "players": SIX,
        "options": {"unit_value": "0.10"},
    }
    response = client.post("/api/v1/evenings", json=body)
    assert response.status_code == 422
    assert "options.unit_value" in response.json["errors"]
