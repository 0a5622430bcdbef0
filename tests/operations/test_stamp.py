"""The evening's stamp as its row holds it (``operations.facts.Stamp``, migration 0007).

The database's triggers count an evening's hands and the edits of its hands, seatings and
seats. Every write must move the stamp, however it is made, or a server process would
go on showing an evening it keeps after the evening changed; and a hand stored must count
exactly one, as a kept evening carries its stamp forward (``EveningFacts.with_hands``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from scorekeeper.db.extensions import db
from scorekeeper.operations import snapshots
from scorekeeper.operations.facts import Stamp, read_head
from tests.conftest import PLAYERS4

HAND = {"contract": "einfach", "bidder": "Anna", "points": 40}


def start(client: FlaskClient, hands: int) -> int:
    """A four-player Troggen evening with ``hands`` hands recorded."""
    answer = client.post("/api/v1/evenings", json={"game": "troggen", "players": PLAYERS4})
    evening = int(answer.json["id"])
    for _ in range(hands):
        assert client.post(f"/api/v1/evenings/{evening}/hands", json=HAND).status_code == 201
    return evening


def stamp(app: Flask, evening: int) -> Stamp:
    """The evening's stamp as stored now."""
    with app.app_context():
        head = read_head(db.session.connection(), evening)
        db.session.remove()
    assert head is not None
    return head.stamp


def run(app: Flask, sql: str, **params: Any) -> None:
    """Run one statement of plain SQL and commit it, as any other program could."""
    with app.app_context():
        db.session.execute(text(sql), params)
        db.session.commit()
        db.session.remove()


def test_hands_recorded_count_one_each_and_the_kept_evening_says_so(app: Flask) -> None:
    client = app.test_client()
    evening = start(client, 0)
    before = stamp(app, evening)
    assert before.hands == 0
    for count in (1, 2, 3):
        assert client.post(f"/api/v1/evenings/{evening}/hands", json=HAND).status_code == 201
        assert stamp(app, evening) == before._replace(hands=count)
    with app.test_request_context():
        kept = snapshots.kept().get(evening)
    assert kept is not None
    assert kept.evening.stamp == stamp(app, evening)


#: Writes made with plain SQL, and how each must move the stamp: (hands, edits).
WRITES: dict[str, tuple[str, tuple[int, int]]] = {
    "hand added": (
        "INSERT INTO hand (evening_id, number, dealer_id, input, version, created_at,"
        " updated_at) SELECT evening_id, 3, dealer_id, input, 1, created_at, updated_at"
        " FROM hand WHERE evening_id = :evening AND number = 1",
        (1, 0),
    ),
    "hand changed": (
        "UPDATE hand SET void_reason = 'misdeal' WHERE evening_id = :evening AND number = 2",
        (0, 1),
    ),
    "hand removed": ("DELETE FROM hand WHERE evening_id = :evening AND number = 2", (-1, 1)),
    "seating added": (
        "INSERT INTO seating (evening_id, from_hand, created_at)"
        " SELECT evening_id, 3, created_at FROM seating WHERE evening_id = :evening",
        (0, 1),
    ),
    "seating changed": ("UPDATE seating SET dealer_id = NULL WHERE evening_id = :evening", (0, 1)),
    "seat changed": (
        "UPDATE seat SET position = position + 10"
        " WHERE seating_id IN (SELECT id FROM seating WHERE evening_id = :evening)",
        (0, 4),
    ),
    "seat removed": (
        "DELETE FROM seat WHERE position = 3"
        " AND seating_id IN (SELECT id FROM seating WHERE evening_id = :evening)",
        (0, 1),
    ),
    "seat added": (  # the fourth chair, emptied first, taken by the same player again
        "INSERT INTO seat (seating_id, position, player_id)"
        " SELECT seating.id, 3, seat.player_id FROM seating JOIN seat ON seat.position = 3"
        " AND seat.seating_id IN (SELECT id FROM seating WHERE evening_id = :other)"
        " WHERE seating.evening_id = :evening",
        (0, 1),
    ),
}


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_every_row_written_moves_the_stamp(app: Flask, write: str) -> None:
    client = app.test_client()
    evening = start(client, 2)
    other = start(client, 2)
    sql, (hands, edits) = WRITES[write]
    if write == "seat added":
        run(app, WRITES["seat removed"][0], evening=evening)
    before, untouched = stamp(app, evening), stamp(app, other)
    run(app, sql, evening=evening, other=other)
    after = stamp(app, evening)
    assert (after.hands - before.hands, after.edits - before.edits) == (hands, edits)
    assert after._replace(hands=before.hands, edits=before.edits) == before
    assert stamp(app, other) == untouched


@pytest.mark.parametrize(
    "change",
    [
        lambda c, e: c.put(f"/api/v1/evenings/{e}/hands/1", json={**HAND, "version": 1}),
        lambda c, e: c.delete(f"/api/v1/evenings/{e}/hands/2", json={"reason": "misdeal"}),
        lambda c, e: c.post(
            f"/api/v1/evenings/{e}/seating", json={"players": ["Anna", "Bert", "Clara", "Emil"]}
        ),
    ],
    ids=["hand replaced", "hand voided", "table changed"],
)
def test_an_edit_through_the_app_moves_the_edits_not_the_hands(
    app: Flask, change: Callable[[FlaskClient, int], Any]
) -> None:
    client = app.test_client()
    evening = start(client, 2)
    before = stamp(app, evening)
    assert change(client, evening).status_code == 200
    after = stamp(app, evening)
    assert after.hands == before.hands
    assert after.edits > before.edits
