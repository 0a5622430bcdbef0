"""The settlement page: the end rule, nets, ticking payments off, pairwise and the chart."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.db.extensions import db
from scorekeeper.db.models import SettlementTick
from tests.conftest import PLAYERS5

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
EN = {"Accept-Language": "en"}

LOST_DOPPELT = {"contract": "doppelt", "bidder": "Anna", "partner": "Dora", "points": 30}
MISERE = {
    "contract": "misere",
    "points": {"Anna": 8, "Bert": 20, "Clara": 12, "Dora": 15, "Emil": 12},
}
#: With the pot split (the default) the evening settles with these payments, in cents.
SPLIT = [("Anna", "Clara", 20), ("Anna", "Dora", 10), ("Bert", "Emil", 10)]


@pytest.fixture
def open_pot(create_evening: Callable[..., int], record_hand: Callable[..., Any]) -> int:
    """Two hands of five players with 26 jetons left in the pot."""
    evening = create_evening(PLAYERS5, first_dealer="Emil")
    record_hand(evening, LOST_DOPPELT)
    record_hand(evening, MISERE)
    return evening


def page(client: FlaskClient, evening: int, query: str = "") -> str:
    """The settlement page in English."""
    response = client.get(f"/evenings/{evening}/settlement{query}", headers=EN)
    assert response.status_code == 200
    return response.text


def tick(
    client: FlaskClient, evening: int, payer: str, payee: str, amount: int, **extra: str
) -> Any:
    """Press a payment's tick button."""
    data = {"payer": payer, "payee": payee, "amount": str(amount), "action": "tick", **extra}
    return client.post(f"/evenings/{evening}/settlement/ticks", data=data, headers=EN)


def stored_ticks(app: Flask) -> list[tuple[str, str, int]]:
    """The ticks in the database."""
    with app.app_context():
        rows = db.session.scalars(select(SettlementTick).order_by(SettlementTick.id))
        return [(t.payer, t.payee, t.amount) for t in rows]


def payment_card(html: str, payer: str, payee: str) -> str:
    """The HTML of one payment's card."""
    for card in re.findall(r'<li class="settle-payment.*?</li>', html, re.S):
        if f"{payer} pays {payee}" in card:
            return str(card)
    raise AssertionError(f"no payment {payer} -> {payee}")


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        pytest.param("split", ["Pot split", "Clara <span", "Anna pays Clara"], id="split"),
        pytest.param("refund", ["Pot refunded", "Nobody owes anything."], id="refund"),
        pytest.param("carry", ["carried over to the next evening: it counts", "Pot"], id="carry"),
    ],
)
def test_page_shows_each_end_rule_with_its_effect(
    client: FlaskClient, open_pot: int, rule: str, expected: list[str]
) -> None:
    html = page(client, open_pot, f"?end_pot={rule}")
    for value in ("split", "refund", "carry"):
        assert f'name="end_pot" value="{value}"' in html
    assert re.search(rf'value="{rule}" checked', html)
    assert "Left in the pot: 26 jetons." in html
    for text in expected:
        assert text in html
    if rule != "split":
        assert "another rule than the evening" in html
    if rule == "carry":  # the tick buttons keep the rule shown
        assert '<input type="hidden" name="end_pot" value="carry">' in html


def test_carried_pot_is_paid_like_a_party(client: FlaskClient, open_pot: int) -> None:
    """The pot is a pile on the table, not a person: money goes into it, in either
    language, and the pot's key never shows."""
    html = page(client, open_pot, "?end_pot=carry")
    assert re.search(r'class="pay-pair">\w+ pays into the pot</span>', html)
    assert "pays Pot" not in html
    assert "pays pot" not in html
    german = client.get(
        f"/evenings/{open_pot}/settlement?end_pot=carry", headers={"Accept-Language": "de"}
    ).text
    assert re.search(r'class="pay-pair">\w+ zahlt in den Einsatz</span>', german)
    assert "zahlt an Einsatz" not in german


def test_evening_rule_is_preselected_and_a_bad_query_falls_back(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(PLAYERS5, first_dealer="Emil", options={"end_pot": "refund"})
    record_hand(evening, LOST_DOPPELT)
    for query in ("", "?end_pot=nonsense"):
        html = page(client, evening, query)
        assert re.search(r'value="refund" checked', html)
        assert "(this evening's rule)" in html
        assert "another rule than the evening" not in html


def test_headings_go_from_h1_to_h2_and_every_form_is_named(
    client: FlaskClient, open_pot: int
) -> None:
    html = page(client, open_pot)
    levels = [int(n) for n in re.findall(r"<h([1-6])", html)]
    assert levels[0] == 1
    assert levels.count(1) == 1
    assert all(b - a <= 1 for a, b in pairwise(levels))
    assert "<legend>Pot at the end</legend>" in html
    assert html.count('name="action" value="tick"') == len(SPLIT)
    assert "settlement.css" in html


def test_page_shows_nets_units_and_money(client: FlaskClient, open_pot: int) -> None:
    html = page(client, open_pot)
    results = re.search(r'<table class="settle-results">.*?</table>', html, re.S)
    assert results is not None
    # Anna: -3 jetons, CHF -0.30, written with a real minus sign.
    assert re.search(r"Anna</th>\s*<td class=\"num\">\u22123</td>", results.group(0))
    assert "CHF \u22120.30" in results.group(0)
    assert "CHF +0.20" in results.group(0)
    assert "These payments settle:" in html
    assert "Rounding moved" not in html


def test_rounding_to_the_coin_is_explained(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(PLAYERS5, first_dealer="Emil", options={"unit_value": "0.12"})
    record_hand(evening, LOST_DOPPELT)
    record_hand(evening, MISERE)
    html = page(client, evening)
    assert "Rounded to the smallest coin, CHF 0.05" in html
    assert re.search(r"<li>\w+: CHF [+\u2212]0\.0\d+</li>", html)


def test_tick_is_kept_with_its_time_and_seen_on_another_tablet(
    app: Flask, client: FlaskClient, open_pot: int
) -> None:
    before = datetime.now(UTC)
    response = tick(client, open_pot, "Anna", "Clara", 20)
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/evenings/{open_pot}/settlement#payments")
    with app.app_context():
        stored = db.session.scalars(select(SettlementTick)).one()
        assert (stored.payer, stored.payee, stored.amount) == ("Anna", "Clara", 20)
        assert before <= stored.ticked_at <= datetime.now(UTC)
        # Pages show times on the table's clock (the app's default time zone).
        clock = stored.ticked_at.astimezone(ZoneInfo("Europe/Zurich")).strftime("%H:%M")
    other_tablet = app.test_client()
    html = page(other_tablet, open_pot)
    card = payment_card(html, "Anna", "Clara")
    assert "Paid at <time datetime=" in card
    assert f">{clock}</time>" in card
    assert 'value="untick"' in card
    assert 'value="tick"' not in card
    assert 'value="tick"' in payment_card(html, "Anna", "Dora")
    assert "1 of 3 payments ticked off." in html


def test_ticking_twice_keeps_the_first_time(app: Flask, client: FlaskClient, open_pot: int) -> None:
    tick(client, open_pot, "Anna", "Clara", 20)
    with app.app_context():
        first = db.session.scalars(select(SettlementTick)).one().ticked_at
    assert tick(client, open_pot, "Anna", "Clara", 20).status_code == 302
    with app.app_context():
        assert db.session.scalars(select(SettlementTick)).one().ticked_at == first


def test_every_payment_ticked_says_so(app: Flask, client: FlaskClient, open_pot: int) -> None:
    for payer, payee, amount in SPLIT:
        tick(client, open_pot, payer, payee, amount)
    assert stored_ticks(app) == SPLIT
    assert "All payments are ticked off." in page(client, open_pot)


def test_untick_removes_the_tick(app: Flask, client: FlaskClient, open_pot: int) -> None:
    tick(client, open_pot, "Anna", "Clara", 20)
    data = {"payer": "Anna", "payee": "Clara", "action": "untick"}
    response = client.post(f"/evenings/{open_pot}/settlement/ticks", data=data)
    assert response.status_code == 302
    assert stored_ticks(app) == []
    assert 'value="tick"' in payment_card(page(client, open_pot), "Anna", "Clara")
    # Undone on two tablets at once: the second finds nothing to undo and changes nothing.
    again = client.post(f"/evenings/{open_pot}/settlement/ticks", data=data)
    assert again.status_code == 302


def test_tick_keeps_the_rule_shown_in_the_redirect(
    app: Flask, client: FlaskClient, open_pot: int
) -> None:
    # Carried over, the pot keeps what each put in: Anna's 8 jetons are CHF 0.80.
    response = tick(client, open_pot, "Anna", "pot", 80, end_pot="carry")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/settlement?end_pot=carry#payments")
    assert stored_ticks(app) == [("Anna", "pot", 80)]


@pytest.mark.parametrize(
    ("payer", "payee", "amount", "extra"),
    [
        pytest.param("Anna", "Clara", 25, {}, id="other-amount"),
        pytest.param("Clara", "Anna", 20, {}, id="reversed"),
        pytest.param("Anna", "Zora", 20, {}, id="unknown-player"),
        pytest.param("Anna", "Clara", 20, {"end_pot": "refund"}, id="not-under-rule-shown"),
    ],
)
def test_tick_for_a_payment_not_in_the_settlement_is_refused(
    client: FlaskClient,
    snapshot: Snapshot,
    open_pot: int,
    payer: str,
    payee: str,
    amount: int,
    extra: dict[str, str],
) -> None:
    before = snapshot()
    response = tick(client, open_pot, payer, payee, amount, **extra)
    assert response.status_code == 422
    assert "is not one of the payments of this settlement" in response.text
    assert f"{payer} paying {payee}" in response.text
    assert "Who pays whom" in response.text  # the page itself, with the current payments
    assert snapshot() == before


def test_bad_amount_or_rule_is_refused(
    client: FlaskClient, snapshot: Snapshot, open_pot: int
) -> None:
    before = snapshot()
    bad_amount = tick(client, open_pot, "Anna", "Clara", 0)
    assert bad_amount.status_code == 422
    data = {"payer": "Anna", "payee": "Clara", "amount": "zwanzig", "action": "tick"}
    assert client.post(f"/evenings/{open_pot}/settlement/ticks", data=data).status_code == 422
    bad_rule = tick(client, open_pot, "Anna", "Clara", 20, end_pot="verbrennen")
    assert bad_rule.status_code == 422
    assert "Choose one of: split, refund, carry." in bad_rule.text
    assert snapshot() == before


def test_changed_settlement_shows_the_old_tick_as_stale(
    app: Flask, client: FlaskClient, open_pot: int
) -> None:
    tick(client, open_pot, "Anna", "Clara", 20)
    changed = client.patch(
        f"/api/v1/evenings/{open_pot}", json={"version": 1, "options": {"unit_value": "0.20"}}
    )
    assert changed.status_code == 200, changed.json
    html = page(client, open_pot)
    card = payment_card(html, "Anna", "Clara")
    assert "CHF 0.40" in card
    assert 'value="tick"' in card  # open again: the tick was for another amount
    assert re.search(r"Ticked at <time[^>]*>\d\d:\d\d</time> for CHF 0.20;", card)
    assert "0 of 3 payments ticked off." in html
    tick(client, open_pot, "Anna", "Clara", 40)
    assert stored_ticks(app) == [("Anna", "Clara", 40)]
    assert "the amount has changed since" not in page(client, open_pot)


def test_tick_for_a_payment_no_longer_needed_can_be_removed(
    app: Flask, client: FlaskClient, open_pot: int
) -> None:
    tick(client, open_pot, "Bert", "Emil", 10)
    client.patch(
        f"/api/v1/evenings/{open_pot}", json={"version": 1, "options": {"end_pot": "refund"}}
    )
    html = page(client, open_pot)
    assert "Ticked earlier, but no longer in the list" in html
    assert "Bert pays Emil: CHF 0.10" in html
    data = {"payer": "Bert", "payee": "Emil", "action": "untick"}
    assert client.post(f"/evenings/{open_pot}/settlement/ticks", data=data).status_code == 302
    assert stored_ticks(app) == []


def test_pairwise_is_a_table_grouped_by_payer(client: FlaskClient, open_pot: int) -> None:
    html = page(client, open_pot)
    table = re.search(r'<table class="settle-pairwise">.*?</table>', html, re.S)
    assert table is not None
    payers = re.findall(r'<th scope="row">(\w+)</th>', table.group(0))
    assert payers
    assert payers == sorted(payers, key=PLAYERS5.index)


def test_chart_has_a_line_per_player(client: FlaskClient, open_pot: int) -> None:
    html = page(client, open_pot)
    svg = re.search(r"<svg.*?</svg>", html, re.S)
    assert svg is not None
    assert 'role="img"' in svg.group(0)
    assert "<title" in svg.group(0)
    assert svg.group(0).count("<polyline") == len(PLAYERS5)
    assert ">End</text>" in svg.group(0)  # the pot split, after the last hand


def test_empty_evening_says_no_hands_yet(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    html = page(client, create_evening())
    assert "Nobody owes anything." in html
    assert "No hand recorded yet." in html
    assert "<polyline" not in html


def test_german_page_writes_money_as_swiss_german_does(client: FlaskClient, open_pot: int) -> None:
    html = client.get(f"/evenings/{open_pot}/settlement", headers={"Accept-Language": "de"}).text
    assert "CHF 0.20" in html
    assert not re.search(r"\d,\d\d\s*CHF", html)


def test_unknown_evening_is_a_404(client: FlaskClient) -> None:
    assert client.get("/evenings/99/settlement").status_code == 404
    assert client.post("/evenings/99/settlement/ticks", data={}).status_code == 404


def test_ticks_need_the_csrf_token(make_app: Callable[..., Flask]) -> None:
    app = make_app()
    client = app.test_client()
    created = client.post("/api/v1/evenings", json={"game": "troggen", "players": PLAYERS5})
    evening = created.json["id"]
    client.post(f"/api/v1/evenings/{evening}/hands", json=LOST_DOPPELT)
    data = {"payer": "Dora", "payee": "Bert", "amount": "10", "action": "tick"}
    html = page(client, evening)
    payment = re.search(
        r'name="payer" value="(\w+)">\s*<input type="hidden" name="payee" '
        r'value="(\w+)">\s*<input type="hidden" name="amount" value="(\d+)"',
        html,
    )
    assert payment is not None
    data = dict(zip(("payer", "payee", "amount"), payment.groups(), strict=True))
    url = f"/evenings/{evening}/settlement/ticks"
    assert client.post(url, data={**data, "action": "tick"}).status_code == 400
    assert stored_ticks(app) == []
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert token is not None
    response = client.post(url, data={**data, "action": "tick", "csrf_token": token.group(1)})
    assert response.status_code == 302
    assert len(stored_ticks(app)) == 1


def test_ticks_of_the_evenings_rule_are_not_called_changed_results_under_another(
    client: FlaskClient, open_pot: int
) -> None:
    tick(client, open_pot, "Anna", "Clara", 20)
    html = page(client, open_pot, "?end_pot=carry")
    assert "this page settles with another rule than the evening's" in html
    assert "the results have changed since" not in html
    assert "Anna pays Clara: CHF 0.20" in html
