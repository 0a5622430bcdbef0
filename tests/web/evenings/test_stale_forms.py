"""Pages: a form token means one entry, a stale form records nothing over or under another
hand, an expired form keeps its entry, the table screen is never cached
(docs/recording.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import writing
from tests.web.evenings.test_pages import BID, EN, NEW
from tests.web.tournaments.support import create_tournament, draw, register, start

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]

OTHER = {"contract": "einfach", "bidder": "Bert", "points": "30", "result": "points"}
OUTBOX = {"X-Scorekeeper-Outbox": "1", **EN}


@pytest.fixture
def evening(client: FlaskClient) -> int:
    """A four-player evening started through the page; Dora deals first."""
    assert client.post("/evenings", data=NEW).status_code == 303
    return 1


def hands(client: FlaskClient, evening: int) -> list[dict[str, Any]]:
    """The evening's hands as the API lists them."""
    return list(client.get(f"/api/v1/evenings/{evening}").json["hands"])


def hidden(html: str, name: str) -> str:
    """The value of the entry form's hidden field ``name``."""
    found = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', html) or re.search(
        rf'type="hidden" name="{name}" value="([^"]*)"', html
    )
    assert found, name
    return found.group(1)


def test_the_table_screen_carries_the_hand_number_and_is_never_cached(
    client: FlaskClient, evening: int
) -> None:
    page = client.get(f"/evenings/{evening}", headers=EN)
    assert page.headers["Cache-Control"] == "no-store"
    assert hidden(page.text, "number") == "1"
    assert 'autocomplete="off"' in page.text
    client.post(f"/evenings/{evening}/hands", data={**BID, "token": "t1", "number": "1"})
    assert hidden(client.get(f"/evenings/{evening}").text, "number") == "2"


def test_a_used_token_with_another_entry_shows_what_was_saved_and_keeps_the_entry(
    client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    first = client.post(f"/evenings/{evening}/hands", data={**BID, "token": "t1", "number": "1"})
    assert first.status_code == 303
    before = snapshot()
    again = client.post(
        f"/evenings/{evening}/hands", data={**OTHER, "token": "t1", "number": "1"}, headers=EN
    )
    assert again.status_code == 409
    assert snapshot() == before
    html = again.text
    assert "Hand 1 was already saved" in html
    assert "This is what was saved as hand 1:" in html
    conflict = html.split('id="conflict"')[1].split("</div>")[0]
    assert "+12" in conflict  # Anna's Doppelt with the Pagat, as saved
    # What was said at the table, so the table sees whether it is the same hand.
    summary = conflict.split('class="summary">')[1].split("</p>")[0]
    assert "Doppelt" in summary
    assert "Anna" in summary
    assert "41" in summary
    assert "Dealer Dora" in summary
    # The entry as typed, ready to save as hand 2 with a new token.
    assert re.search(r'value="einfach"[^>]*checked|checked[^>]*value="einfach"', html)
    assert re.search(r'value="Bert"[^>]*checked|checked[^>]*value="Bert"', html)
    assert 'value="30"' in html
    assert hidden(html, "number") == "2"
    assert hidden(html, "token") not in ("", "t1")
    assert "Save as hand 2" in html
    saved = client.post(
        f"/evenings/{evening}/hands",
        data={**OTHER, "token": hidden(html, "token"), "number": "2"},
    )
    assert saved.status_code == 303
    assert [h["input"]["contract"] for h in hands(client, evening)] == ["doppelt", "einfach"]


def test_the_same_entry_sent_twice_is_one_hand(client: FlaskClient, evening: int) -> None:
    data = {**BID, "token": "t1", "number": "1"}
    first = client.post(f"/evenings/{evening}/hands", data=data)
    again = client.post(f"/evenings/{evening}/hands", data=data)
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    # The outbox's answer to the same entry is the same hand, as JSON.
    repeat = client.post(f"/evenings/{evening}/hands", data=data, headers=OUTBOX)
    assert repeat.status_code == 200
    assert repeat.json == {"saved": 1, "location": first.headers["Location"]}
    assert len(hands(client, evening)) == 1


def test_a_form_for_a_hand_saved_meanwhile_records_nothing(
    client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    """Another tablet saved hand 1 while this form for hand 1 was open."""
    client.post(f"/evenings/{evening}/hands", data={**BID, "token": "other", "number": "1"})
    before = snapshot()
    late = client.post(
        f"/evenings/{evening}/hands", data={**OTHER, "token": "mine", "number": "1"}, headers=EN
    )
    assert late.status_code == 409
    assert snapshot() == before
    assert "Hand 1 was already saved" in late.text
    assert "Save as hand 2" in late.text
    # The dealer left as proposed for hand 1 (Dora) has dealt: hand 2's is proposed.
    assert re.search(r'<option selected value="Anna">|<option value="Anna" selected>', late.text)


def test_a_stale_form_through_the_outbox_is_a_conflict_page(
    client: FlaskClient, evening: int
) -> None:
    client.post(f"/evenings/{evening}/hands", data={**BID, "token": "other", "number": "1"})
    late = client.post(
        f"/evenings/{evening}/hands",
        data={**OTHER, "token": "mine", "number": "1"},
        headers=OUTBOX,
    )
    assert late.status_code == 409
    assert late.mimetype == "text/html"
    assert 'id="entry"' in late.text
    assert 'id="conflict"' in late.text


def test_a_form_without_a_number_records_as_before(client: FlaskClient, evening: int) -> None:
    """Forms of pages rendered before the number was sent still save."""
    assert client.post(f"/evenings/{evening}/hands", data={**BID, "token": "x"}).status_code == 303
    assert len(hands(client, evening)) == 1


def test_an_expired_form_keeps_the_entry_and_saves_with_one_more_tap(
    make_app: Callable[..., Flask], snapshot: Snapshot
) -> None:
    app = make_app()  # CSRF on, as at the table
    client = app.test_client()
    evening = client.post(
        "/api/v1/evenings", json={"game": "troggen", "players": ["Anna", "Bert", "Clara", "Dora"]}
    ).json["id"]
    client.get(f"/evenings/{evening}")
    data = {**OTHER, "token": "t1", "number": "1", "csrf_token": "expired-long-ago"}
    before = snapshot()
    refused = client.post(f"/evenings/{evening}/hands", data=data, headers=EN)
    assert refused.status_code == 400
    assert snapshot() == before
    html = refused.text
    assert "Nothing was saved yet: this page was open a long time." in html
    assert 'value="30"' in html
    assert hidden(html, "token") == "t1"
    fresh = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert fresh
    saved = client.post(
        f"/evenings/{evening}/hands", data={**data, "csrf_token": fresh.group(1)}, headers=EN
    )
    assert saved.status_code == 303
    assert len(client.get(f"/api/v1/evenings/{evening}").json["hands"]) == 1


def test_an_expired_form_on_a_tournament_table_is_not_shown_to_a_stranger(
    make_app: Callable[..., Flask],
) -> None:
    """The entry is shown again only to whoever may see the table."""
    app = make_app()
    organiser = app.test_client()
    tournament = create_tournament(organiser)
    register(organiser, tournament, ["Anna", "Bert", "Clara", "Dora"])
    draw(organiser, tournament)
    tables = start(organiser, tournament, 1)["tables"]
    evening = tables[0]["evening"]
    stranger = app.test_client()
    answer = stranger.post(
        f"/evenings/{evening}/hands", data={**OTHER, "csrf_token": "x"}, headers=EN
    )
    assert answer.status_code == 400
    assert 'id="entry"' not in answer.text


def test_a_stale_correction_is_kept_beside_the_current_version(
    client: FlaskClient, evening: int
) -> None:
    client.post(f"/evenings/{evening}/hands", data={**BID, "token": "t1", "number": "1"})
    first = {**BID, "points": "40", "version": "1"}
    assert client.post(f"/evenings/{evening}/hands/1/edit", data=first).status_code == 303
    mine = {**BID, "points": "33", "version": "1"}
    stale = client.post(f"/evenings/{evening}/hands/1/edit", data=mine, headers=EN)
    assert stale.status_code == 409
    html = stale.text
    assert "Someone else changed this hand meanwhile." in html
    assert "Stored now (version 2):" in html
    assert "40" in html.split('id="conflict"')[1].split("</div>")[0]
    assert 'value="33"' in html
    assert hidden(html, "version") == "2"


def test_a_form_typed_for_another_seating_records_nothing(
    client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    """A Misère's points are typed per seat: after the table changed they would land on
    other players, so the entry is shown again to check instead."""
    page = client.get(f"/evenings/{evening}").text
    seats = hidden(page, "seats").replace("&#34;", '"')
    assert seats == '["Anna", "Bert", "Clara", "Dora"]'
    client.post(
        f"/api/v1/evenings/{evening}/seating", json={"players": ["Bert", "Anna", "Clara", "Dora"]}
    )
    misere = {
        "contract": "misere",
        "misere_0": "5",
        "misere_1": "30",
        "misere_2": "20",
        "misere_3": "15",
        "token": "t1",
        "number": "1",
        "seats": seats,
    }
    before = snapshot()
    late = client.post(f"/evenings/{evening}/hands", data=misere, headers=EN)
    assert late.status_code == 409
    assert snapshot() == before
    assert "The table was changed since this hand was typed" in late.text
    fresh = hidden(late.text, "seats").replace("&#34;", '"')
    assert fresh == '["Bert", "Anna", "Clara", "Dora"]'
    again = client.post(
        f"/evenings/{evening}/hands",
        data={**misere, "token": hidden(late.text, "token"), "seats": fresh},
    )
    assert again.status_code == 303
    assert hands(client, evening)[0]["input"]["points"]["Bert"] == 5


def test_the_same_entry_racing_itself_gets_its_own_answer(
    client: FlaskClient, evening: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sends of one entry at once (two tabs of the outbox): the second looked for its
    key before the first was stored, then found the number taken by it. It is answered
    with that hand, not shown as a conflict."""
    data = {**BID, "token": "t1", "number": "1"}
    first = client.post(f"/evenings/{evening}/hands", data=data)
    real = writing.stored_answer
    calls: list[str] = []

    def late_lookup(scope: str, who: str, key: str) -> Any:
        calls.append(key)
        return None if len(calls) == 1 else real(scope, who, key)

    monkeypatch.setattr(writing, "stored_answer", late_lookup)
    again = client.post(f"/evenings/{evening}/hands", data=data, headers=OUTBOX)
    assert calls == ["page:t1", "page:t1"]
    assert again.status_code == 200
    assert again.json == {"saved": 1, "location": first.headers["Location"]}
    assert len(hands(client, evening)) == 1


@pytest.mark.parametrize(
    "number",
    ["-1", "abc", "1e3", "", " 1", "2147483648", str(2**70), "\u0663", "\uff11", "10001"],
    ids=[
        "negative",
        "letters",
        "exponent",
        "empty",
        "space",
        "past-int",
        "2^70",
        "arabic-indic",
        "fullwidth",
        "past-max",
    ],
)
def test_a_number_the_api_would_refuse_is_refused_with_the_entry_kept(
    client: FlaskClient, evening: int, snapshot: Snapshot, number: str
) -> None:
    """The form's number goes through the API's check: ASCII digits from 1 to the most
    hands an evening holds; the entry comes back ready to save as the next hand."""
    before = snapshot()
    data = {**OTHER, "token": "t1", "number": number}
    refused = client.post(f"/evenings/{evening}/hands", data=data, headers=EN)
    assert refused.status_code == 422
    assert snapshot() == before
    assert "whole number from 1 to 10000" in refused.text
    assert 'value="30"' in refused.text
    assert hidden(refused.text, "number") == "1"
    saved = client.post(
        f"/evenings/{evening}/hands",
        data={**data, "number": hidden(refused.text, "number")},
        headers=EN,
    )
    assert saved.status_code == 303
    assert len(hands(client, evening)) == 1


def test_a_token_longer_than_a_key_is_refused_and_kept_nowhere(
    client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    """The token becomes the entry's request key, which every backup carries: at most the
    200 characters of an ``Idempotency-Key``; the entry comes back with a token of ours."""
    before = snapshot()
    data = {**OTHER, "token": "t" * 201, "number": "1"}
    refused = client.post(f"/evenings/{evening}/hands", data=data, headers=EN)
    assert refused.status_code == 422
    assert snapshot() == before
    assert "longer than 200 characters" in refused.text
    assert 'value="30"' in refused.text
    token = hidden(refused.text, "token")
    assert 0 < len(token) <= 200
    saved = client.post(f"/evenings/{evening}/hands", data={**data, "token": token}, headers=EN)
    assert saved.status_code == 303
    exactly = {**OTHER, "token": "k" * 200, "number": "2"}
    assert client.post(f"/evenings/{evening}/hands", data=exactly).status_code == 303
    assert len(hands(client, evening)) == 2
