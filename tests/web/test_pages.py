"""Pages: the list, a new evening (with its error paths), an evening and its settlement."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import PLAYERS5

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]

FORM = {
    "game": "troggen/blumenstein-2015",
    "title": "Museumsabend",
    "players": "Anna\nBert\nClara\nDora",
    "first_dealer": "",
    "unit_value": "0.10",
    "currency": "CHF",
}


def errors(html: str) -> list[str]:
    """The error messages a page shows next to its fields."""
    return re.findall(r'class="error">([^<]*)<', html)


def test_empty_home_invites_a_new_evening(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "en"})
    assert page.status_code == 200
    assert "No evening yet" in page.text
    assert 'name="players"' in page.text


def test_new_evening_redirects_to_it(client: FlaskClient) -> None:
    response = client.post("/evenings", data=FORM)
    assert response.status_code == 302
    page = client.get(response.headers["Location"], headers={"Accept-Language": "en"})
    assert "Museumsabend" in page.text
    assert "The evening has started." in page.text
    assert "Next dealer" in page.text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(
            {"players": "Anna\nBert\nClara"}, "played by 4 to 6 players, not 3", id="three-players"
        ),
        pytest.param(
            {"players": "Anna\nBert\nanna\nDora"}, "anna is listed twice.", id="duplicate"
        ),
        pytest.param({"first_dealer": "Zora"}, "Zora is not at the table.", id="dealer"),
        pytest.param(
            {"unit_value": "zehn"}, "Write the amount as a decimal number", id="unit-value"
        ),
        pytest.param({"currency": "Franken"}, "three-letter currency code", id="currency"),
        pytest.param({"date": "gestern"}, "Not a valid date value.", id="date"),
    ],
)
def test_new_evening_errors_are_shown_next_to_the_field(
    client: FlaskClient, snapshot: Snapshot, change: dict[str, str], message: str
) -> None:
    before = snapshot()
    response = client.post("/evenings", data={**FORM, **change}, headers={"Accept-Language": "en"})
    assert response.status_code == 422
    assert any(message in e for e in errors(response.text)), errors(response.text)
    assert snapshot() == before


def test_evening_page_shows_hands_balances_and_voids(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(PLAYERS5, title="Abend")
    record_hand(evening, {"contract": "doppelt", "bidder": "Anna", "partner": "Dora", "points": 30})
    record_hand(evening, {"contract": "einfach", "bidder": "Bert", "partner": None, "points": 40})
    client.delete(f"/api/v1/evenings/{evening}/hands/2", json={"reason": "falsch gezählt"})
    page = client.get(f"/evenings/{evening}", headers={"Accept-Language": "en"}).text
    assert "Hand 2" in page
    assert "falsch gezählt" in page
    assert 'class="void"' in page
    assert "\u22128" in page  # Anna's balance, with a real minus sign
    assert "Stakes" in page


def test_settlement_page_lists_payments(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    record_hand(
        evening, {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"}
    )
    page = client.get(f"/evenings/{evening}/settlement", headers={"Accept-Language": "en"})
    assert page.status_code == 200
    assert "Bert pays Anna" in page.text
    assert "CHF 0.40" in page.text
    german = client.get(f"/evenings/{evening}/settlement", headers={"Accept-Language": "de"})
    assert "0,40 CHF" in german.text


def test_language_switch_is_remembered(client: FlaskClient) -> None:
    client.post("/language/de")
    page = client.get("/", headers={"Accept-Language": "en"})
    assert '<html lang="de">' in page.text


def test_unknown_page_is_a_friendly_404(client: FlaskClient) -> None:
    response = client.get("/evenings/77")
    assert response.status_code == 404
    assert "<html" in response.text
