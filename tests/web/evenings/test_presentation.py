"""How pages and printouts write money and clock times (docs/presentation.md): money as
``CHF 0.30`` in both languages, points as points, the Kasse as money; clock times in the
installation's time zone without the zone's name; a paid payment ticked on the printout."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from sqlalchemy import update

from scorekeeper.db.extensions import db
from scorekeeper.db.models import Evening, Hand, HandRevision, SettlementTick
from scorekeeper.db.tournament_models import TournamentEvent
from scorekeeper.web.jinja_filters import money, source, stamp, void_reason
from tests.conftest import PLAYERS4
from tests.web.tournaments.support import NAMES, close, create_tournament, draw, ok, play_round
from tests.web.tournaments.support import register as register_players
from tests.web.tournaments.support import start as start_round

DE = {"Accept-Language": "de-CH"}
EN = {"Accept-Language": "en"}
#: A summer afternoon: 14:42 in UTC is 16:42 in Zurich (and 10:42 in New York).
FIXED = datetime(2026, 7, 4, 14, 42, tzinfo=UTC)
UTC_CLOCK, ZURICH_CLOCK = "14:42", "16:42"


def pdf_text(data: bytes) -> str:
    """All text of a PDF."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def visible(html: str) -> str:
    """A page's text as read, without tags and attributes (the ISO times stay UTC there)."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def at_fixed_instant(app: Flask, *columns: Any) -> None:
    """Move every row's time in ``columns`` to the fixed instant."""
    with app.app_context():
        for column in columns:
            db.session.execute(update(column.class_).values({column.key: FIXED}))
        db.session.commit()


@pytest.mark.parametrize(
    ("language", "cents", "plus", "written"),
    [
        ("de", 30, False, "CHF 0.30"),
        ("en", 30, False, "CHF 0.30"),
        ("de", -30, False, "CHF \u22120.30"),
        ("de", 30, True, "CHF +0.30"),
        ("de", 123450, False, "CHF 1\u2019234.50"),
        ("en", 123450, False, "CHF 1,234.50"),
        ("de", 0, True, "CHF 0.00"),
    ],
)
def test_money_is_written_the_same_in_both_languages(
    app: Flask, language: str, cents: int, plus: bool, written: str
) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        assert money(cents, "CHF", plus=plus) == written


def test_the_apps_own_words_are_translated_and_typed_ones_kept(app: Flask) -> None:
    with app.test_request_context(headers=DE):
        assert void_reason("undo") == "mit «Rückgängig» zurückgenommen"
        assert void_reason("falsch gezählt") == "falsch gezählt"
        assert source("page") == "am Tisch eingegeben"
        assert source("api") == "von einem Programm gesendet"
        assert source("tablet-7") == "tablet-7"  # an archive's own source, shown as written
        assert stamp(FIXED) == f"04.07.2026 {ZURICH_CLOCK}"


@pytest.fixture
def ticked(
    app: Flask,
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
) -> int:
    """A German evening of one lost Doppelt, its first payment ticked, all at 14:42 UTC."""
    evening = create_evening(PLAYERS4, language="de")
    record_hand(evening, {"contract": "doppelt", "bidder": "Anna", "points": 30})
    payment = client.get(f"/api/v1/evenings/{evening}/settlement").json["transfers"][0]
    data = {
        "payer": payment["from"],
        "payee": payment["to"],
        "amount": str(round(float(payment["amount"]) * 100)),
        "action": "tick",
    }
    assert client.post(f"/evenings/{evening}/settlement/ticks", data=data).status_code == 302
    at_fixed_instant(
        app, SettlementTick.ticked_at, Hand.created_at, Hand.updated_at, HandRevision.at
    )
    return evening


def test_settlement_page_and_printout_show_the_zurich_time(
    client: FlaskClient, ticked: int
) -> None:
    html = client.get(f"/evenings/{ticked}/settlement", headers=DE).text
    # No script puts the tablet's own clock (often UTC on a fresh tablet) in its place.
    assert "data-local" not in html
    page = visible(html)
    assert f"Bezahlt um {ZURICH_CLOCK}" in page
    printed = pdf_text(client.get(f"/evenings/{ticked}/settlement.pdf").data)
    assert ZURICH_CLOCK in printed
    for shown in (page, printed):
        assert UTC_CLOCK not in shown
        assert "UTC" not in shown
        assert "Zurich" not in shown


def test_the_hands_show_when_they_were_recorded_and_corrected(
    app: Flask, client: FlaskClient, ticked: int
) -> None:
    body = {"contract": "doppelt", "bidder": "Anna", "points": 40, "version": 1}
    assert client.put(f"/api/v1/evenings/{ticked}/hands/1", json=body).status_code == 200
    at_fixed_instant(app, Hand.created_at, Hand.updated_at)
    history = visible(client.get(f"/evenings/{ticked}/hands", headers=DE).text)
    assert f"Geber Anna · {ZURICH_CLOCK} · korrigiert (Version 2, 04.07.2026 {ZURICH_CLOCK})" in (
        history
    )


def test_an_evening_started_after_midnight_in_zurich_is_listed_on_that_day(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    create_evening(PLAYERS4)
    # 23:30 in UTC on 4 July is 01:30 on 5 July in Zurich.
    with app.app_context():
        late = datetime(2026, 7, 4, 23, 30, tzinfo=UTC)
        db.session.execute(update(Evening).values(created_at=late))
        db.session.commit()
    assert "05.07.2026" in visible(client.get("/", headers=DE).text)


def test_no_page_or_printout_of_the_evening_shows_utc(client: FlaskClient, ticked: int) -> None:
    for path in ("", "/hands", "/settlement", "/sheet.pdf", "/settlement.pdf"):
        response = client.get(f"/evenings/{ticked}{path}", headers=DE)
        shown = pdf_text(response.data) if path.endswith(".pdf") else visible(response.text)
        assert UTC_CLOCK not in shown, path
        assert "UTC" not in shown, path


def test_the_time_zone_is_a_setting(make_app: Callable[..., Flask], ticked: int) -> None:
    other = make_app(WTF_CSRF_ENABLED=False, BABEL_DEFAULT_TIMEZONE="America/New_York")
    page = visible(other.test_client().get(f"/evenings/{ticked}/settlement", headers=EN).text)
    assert "Paid at 10:42" in page


def test_the_printout_ticks_a_paid_payment_and_leaves_the_others_open(
    client: FlaskClient, ticked: int
) -> None:
    printed = pdf_text(client.get(f"/evenings/{ticked}/settlement.pdf").data)
    rows = [line for line in printed.splitlines() if "CHF" in line and "\u2713" in line]
    assert len(rows) == 1
    payment = client.get(f"/api/v1/evenings/{ticked}/settlement").json["transfers"][0]
    assert payment["from"] in rows[0]
    assert f"CHF {payment['amount']}" in rows[0]
    assert printed.count("\u2713") == 1


def test_tournament_pages_and_printouts_show_the_zurich_time(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = create_tournament(client, language="de", rounds=1)
    register_players(client, tournament, NAMES[:8])
    draw(client, tournament)
    start_round(client, tournament, 1)
    play_round(client, ok(client.get(f"/api/v1/tournaments/{tournament}/rounds/1")))
    at_fixed_instant(app, Evening.created_at, Hand.created_at, Hand.updated_at)
    monkeypatch.setattr("scorekeeper.web.tournaments.printouts.utcnow", lambda: FIXED)
    base = f"/tournaments/{tournament}"
    shown = {
        "board": visible(client.get(f"{base}/rounds/1", headers=DE).text),
        "standings": pdf_text(client.get(f"{base}/standings.pdf").data),
    }
    assert close(client, tournament, 1).status_code == 200
    at_fixed_instant(app, TournamentEvent.at)
    shown["log"] = visible(client.get(f"{base}/log", headers=DE).text)
    assert f"letzter Eintrag {ZURICH_CLOCK}" in shown["board"]
    assert f"Gedruckt um {ZURICH_CLOCK}" in shown["standings"]
    assert f"{ZURICH_CLOCK} · Durchgang abgeschlossen" in shown["log"]
    for where, text in shown.items():
        assert UTC_CLOCK not in text, where
        assert "UTC" not in text, where


def test_doppen_kasse_is_money_on_its_own_line(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(["Anne", "Bert", "Clara"], game="doppen", language="de")
    record_hand(evening, {"contract": "pass", "penalties": []})
    pagat = {
        "contract": "zweier",
        "soloist": "Bert",
        "points": 38,
        "announced": {"pagat": "Bert"},
        "pagat": {"player": "Bert", "result": "won"},
    }
    record_hand(evening, pagat)
    history = visible(client.get(f"/evenings/{evening}/hands", headers=DE).text)
    passed = history[history.index("Runde 1") :]
    # The pass changes no points: it shows what went into the Kasse, and the Kasse after it.
    assert "Anne 0 Bert 0 Clara 0" not in passed
    assert "halber Grundbetrag in die Kasse" in passed
    assert "EUR \u22120.50" in passed
    assert "Pagatkasse nach dieser Runde: EUR 4.50" in passed
    won = history[: history.index("Runde 1")]
    # The Kasse won is money, never bare cents beside the card-game points.
    assert "EUR +3.00" in won
    assert "+300" not in won


def test_the_tab_icon_is_served_to_everyone_and_named_by_every_page(
    client: FlaskClient, make_app: Callable[..., Flask]
) -> None:
    home = client.get("/", headers=EN).text
    assert '<link rel="icon" href="/favicon.ico"' in home
    for app in (client.application, make_app(ACCESS_PIN="2468")):
        with app.test_client().get("/favicon.ico") as icon:
            assert icon.status_code == 200
            assert icon.mimetype == "image/vnd.microsoft.icon"
            assert icon.data[:4] == b"\x00\x00\x01\x00"  # an icon file's header
