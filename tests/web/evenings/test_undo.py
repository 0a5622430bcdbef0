"""Undo on the table screen takes back only the save its receipt offered it for, right
after it (docs/recording.md "Undo"); any other is refused in words and voids nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper.db.extensions import db
from scorekeeper.db.models import Hand, utcnow
from tests.web.evenings.test_pages import BID, EN, NEW

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]


@pytest.fixture
def evening(client: FlaskClient) -> int:
    """A four-player evening started through the page."""
    assert client.post("/evenings", data=NEW).status_code == 303
    return 1


def save(client: FlaskClient, evening: int, token: str) -> str:
    """Save a hand through the page; its receipt."""
    saved = client.post(f"/evenings/{evening}/hands", data={**BID, "token": token}, headers=EN)
    assert saved.status_code == 303
    return client.get(saved.headers["Location"], headers=EN).text


def undo_form(receipt: str) -> tuple[str, dict[str, str]]:
    """The receipt's Undo: where it posts and what it sends."""
    form = re.search(
        r'<form method="post" action="([^"]+)" class="undo"[^>]*>(.*?)</form>', receipt, re.S
    )
    assert form is not None, "the receipt offers Undo"
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(2)))
    return form.group(1), fields


def said(client: FlaskClient, answer: Any) -> str:
    """The page an Undo's answer leads to."""
    assert answer.status_code == 303
    return str(client.get(answer.headers["Location"], headers=EN).text)


def saved_ago(app: Flask, number: int, seconds: int) -> None:
    """Move hand ``number``'s save ``seconds`` into the past."""
    with app.app_context():
        db.session.execute(
            update(Hand)
            .where(Hand.number == number)
            .values(updated_at=utcnow() - timedelta(seconds=seconds))
        )
        db.session.commit()


def test_the_last_hands_undo_takes_it_back(client: FlaskClient, evening: int) -> None:
    save(client, evening, "a")
    action, fields = undo_form(save(client, evening, "b"))
    assert fields["version"] == "1"
    page = said(client, client.post(action, data=fields, headers=EN))
    assert "Hand 2 was taken back" in page
    hands = client.get(f"/api/v1/evenings/{evening}").json["hands"]
    assert [h.get("void") for h in hands] == [None, {"reason": "undo"}]


def test_a_kept_receipts_undo_after_later_hands_voids_nothing(
    client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    action, fields = undo_form(save(client, evening, "a"))
    for token in ("b", "c", "d"):
        save(client, evening, token)
    before = snapshot()
    page = said(client, client.post(action, data=fields, headers=EN))
    assert "Hand 1 is not the last hand" in page
    assert "Correct or void it in the list of hands." in page
    assert snapshot() == before


def test_an_undo_too_late_voids_nothing(
    app: Flask, client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    action, fields = undo_form(save(client, evening, "a"))
    saved_ago(app, 1, 31)
    before = snapshot()
    page = said(client, client.post(action, data=fields, headers=EN))
    assert "Undo is only possible right after saving." in page
    assert snapshot() == before


def test_an_undo_of_a_hand_changed_since_voids_nothing(
    client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    action, fields = undo_form(save(client, evening, "a"))
    changed = client.put(
        f"/api/v1/evenings/{evening}/hands/1",
        json={"contract": "einfach", "bidder": "Anna", "points": 40, "version": 1},
    )
    assert changed.status_code == 200, changed.json
    before = snapshot()
    page = said(client, client.post(action, data=fields, headers=EN))
    assert "Hand 1 was changed after it was saved" in page
    assert snapshot() == before


@pytest.mark.parametrize("version", [None, "", "x", "\u0661", "9" * 12])
def test_an_undo_without_its_receipts_save_voids_nothing(
    client: FlaskClient, evening: int, snapshot: Snapshot, version: str | None
) -> None:
    save(client, evening, "a")
    before = snapshot()
    data = {} if version is None else {"version": version}
    page = said(client, client.post(f"/evenings/{evening}/hands/1/undo", data=data, headers=EN))
    assert "nothing was taken back" in page
    assert snapshot() == before


def test_the_same_undo_twice_takes_back_once(client: FlaskClient, evening: int) -> None:
    action, fields = undo_form(save(client, evening, "a"))
    said(client, client.post(action, data=fields, headers=EN))
    page = said(client, client.post(action, data=fields, headers=EN))
    assert "Hand 1 was already taken back." in page


def test_a_receipt_reached_again_offers_undo_only_for_what_is_left_of_its_time(
    app: Flask, client: FlaskClient, evening: int
) -> None:
    save(client, evening, "a")
    saved_ago(app, 1, 5)
    again = client.get(f"/evenings/{evening}?saved=1", headers=EN).text
    undo_form(again)
    seconds = re.search(r'class="undo" data-seconds="(\d+)"', again)
    assert seconds is not None
    assert 13 <= int(seconds.group(1)) <= 15
    assert "(15 s)" in again or "(14 s)" in again or "(13 s)" in again
    saved_ago(app, 1, 21)
    late = client.get(f"/evenings/{evening}?saved=1", headers=EN).text
    assert 'class="undo"' not in late
    assert "Saved earlier. A new entry below becomes hand 2" in late


def test_an_older_hands_receipt_offers_no_undo_and_says_where_hands_are_corrected(
    client: FlaskClient, evening: int
) -> None:
    save(client, evening, "a")
    save(client, evening, "b")
    page = client.get(f"/evenings/{evening}?saved=1", headers=EN).text
    assert "Hand 1 saved" in page
    assert 'class="undo"' not in page
    assert "A new entry below becomes hand 3; to correct hand 1, open the" in page
    assert f'href="/evenings/{evening}/hands#hand-1"' in page
    history = client.get(f"/evenings/{evening}/hands", headers=EN).text
    assert 'id="hand-1"' in history


def test_the_next_hand_says_why_a_number_is_skipped(client: FlaskClient, evening: int) -> None:
    """The hand after a void says whether it was taken back with Undo or voided for a
    reason (docs/recording.md: numbers stay as stored)."""
    save(client, evening, "a")
    client.post(f"/evenings/{evening}/hands/1/void", data={"reason": "falsch gezählt"})
    page = client.get(f"/evenings/{evening}", headers=EN).text
    assert "Hand 1 was voided (falsch gezählt): this hand is saved as hand 2." in page
    assert "taken back" not in page
    action, fields = undo_form(save(client, evening, "b"))
    client.post(action, data=fields, headers=EN)
    page = client.get(f"/evenings/{evening}", headers=EN).text
    assert "Hand 2 was taken back: this hand is saved as hand 3." in page
