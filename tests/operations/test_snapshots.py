"""Evenings kept replayed by each server process (``operations.snapshots``).

Two apps on one database stand for two server workers: whatever one of them writes, the
other must show exactly as a full replay of the stored facts would, and nothing a
rolled-back transaction wrote may be kept.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from scorekeeper import operations
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Player
from scorekeeper.operations import anonymising, snapshots, views
from scorekeeper.operations.facts import read_facts, read_head
from scorekeeper.operations.views import checked
from scorekeeper.web import json_shapes
from tests.conftest import PLAYERS4, SERVER_URL

G1 = {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"}
LOST = {"contract": "einfach", "bidder": "Bert", "points": 20}


@pytest.fixture
def workers(make_app: Callable[..., Flask]) -> tuple[Flask, Flask]:
    """Two apps on the same database, as two worker processes of one server."""
    return make_app(WTF_CSRF_ENABLED=False), make_app(WTF_CSRF_ENABLED=False)


def start(client: FlaskClient) -> int:
    """A four-player Troggen evening."""
    answer = client.post("/api/v1/evenings", json={"game": "troggen", "players": PLAYERS4})
    assert answer.status_code == 201
    return int(answer.json["id"])


def replayed_from_scratch(app: Flask, evening_id: int) -> dict[str, Any]:
    """The evening as a replay of its stored rows shows it, nothing kept."""
    with app.test_request_context():
        connection = db.session.connection()
        head = read_head(connection, evening_id)
        assert head is not None
        return json_shapes.evening_json(checked(read_facts(connection, head)))


def shown(client: FlaskClient, evening_id: int) -> dict[str, Any]:
    """The evening as the API answers it."""
    answer = client.get(f"/api/v1/evenings/{evening_id}")
    assert answer.status_code == 200
    return dict(answer.json)


def test_hands_recorded_by_another_worker_are_played_on(workers: tuple[Flask, Flask]) -> None:
    first, second = (app.test_client() for app in workers)
    evening = start(first)
    assert first.post(f"/api/v1/evenings/{evening}/hands", json=G1).status_code == 201
    assert shown(first, evening)["pot"] == 0  # the first worker keeps it now
    for body in (LOST, G1, LOST):
        assert second.post(f"/api/v1/evenings/{evening}/hands", json=body).status_code == 201
    seen = shown(first, evening)
    assert [h["number"] for h in seen["hands"]] == [1, 2, 3, 4]
    assert seen == replayed_from_scratch(workers[0], evening)
    answer = first.post(f"/api/v1/evenings/{evening}/hands", json=G1)
    assert answer.json["hand"]["number"] == 5
    assert shown(second, evening) == replayed_from_scratch(workers[1], evening)


CHANGES = pytest.mark.parametrize(
    "change",
    [
        lambda c, e: c.put(f"/api/v1/evenings/{e}/hands/1", json={**LOST, "version": 1}),
        lambda c, e: c.delete(f"/api/v1/evenings/{e}/hands/2", json={"reason": "misdeal"}),
        lambda c, e: c.patch(
            f"/api/v1/evenings/{e}", json={"version": 1, "options": {"threshold": "half-up"}}
        ),
        lambda c, e: c.post(
            f"/api/v1/evenings/{e}/seating", json={"players": ["Anna", "Bert", "Clara", "Emil"]}
        ),
        lambda c, e: c.post(f"/api/v1/evenings/{e}/close"),
    ],
    ids=["hand replaced", "hand voided", "settings corrected", "table changed", "closed"],
)


@CHANGES
def test_any_other_change_by_another_worker_is_seen(
    workers: tuple[Flask, Flask], change: Callable[[FlaskClient, int], Any]
) -> None:
    first, second = (app.test_client() for app in workers)
    evening = start(first)
    for body in (G1, LOST):
        first.post(f"/api/v1/evenings/{evening}/hands", json=body)
    before = shown(first, evening)
    assert change(second, evening).status_code == 200
    after = shown(first, evening)
    assert after != before
    assert after == replayed_from_scratch(workers[0], evening)
    page = first.get(f"/evenings/{evening}")
    assert page.status_code == 200


@CHANGES
def test_a_write_keeps_the_evening_as_it_stored_it(
    workers: tuple[Flask, Flask], change: Callable[[FlaskClient, int], Any]
) -> None:
    """A write keeps the evening it checked, with the facts and stamp it committed: the
    next page of this worker is that evening, replayed from nothing it is the same."""
    app = workers[0]
    client = app.test_client()
    evening = start(client)
    for body in (G1, LOST):
        client.post(f"/api/v1/evenings/{evening}/hands", json=body)
    answer = change(client, evening)
    assert answer.status_code == 200
    with app.test_request_context():
        kept = snapshots.kept().get(evening)
        head = read_head(db.session.connection(), evening)
    assert kept is not None
    assert head is not None
    assert kept.evening.stamp == head.stamp  # kept by the write: no read replays it again
    assert shown(client, evening) == replayed_from_scratch(app, evening)


def test_a_guest_anonymised_by_another_worker_is_renamed_here(
    workers: tuple[Flask, Flask],
) -> None:
    first, _ = (app.test_client() for app in workers)
    evening = start(first)
    first.post(f"/api/v1/evenings/{evening}/hands", json=G1)
    assert "Anna" in shown(first, evening)["players"]
    with workers[1].test_request_context():
        anna = db.session.query(Player).filter_by(name="Anna").one()
        new_name = anonymising.anonymise_player(anna.id)
        db.session.commit()
    seen = shown(first, evening)
    assert "Anna" not in seen["players"]
    assert new_name in seen["players"]
    assert seen == replayed_from_scratch(workers[0], evening)
    assert "Anna" not in first.get(f"/evenings/{evening}").get_data(as_text=True)


def test_what_a_rolled_back_write_read_is_not_kept(workers: tuple[Flask, Flask]) -> None:
    first, second = (app.test_client() for app in workers)
    evening = start(first)
    with workers[0].test_request_context():
        current = operations.current_view(evening)
        assert current is not None
        operations.record_hand(current, G1, source="test")
        # Read inside the writing transaction: the hand is there, but not yet for keeps.
        inside = operations.current_view(evening)
        assert inside is not None
        assert len(inside.ledger.hands) == 1
        db.session.rollback()
        kept = snapshots.kept().get(evening)
        assert kept is None or not kept.evening.hands
    # Another worker records two different hands; the first worker shows those.
    for body in (LOST, LOST):
        second.post(f"/api/v1/evenings/{evening}/hands", json=body)
    seen = shown(first, evening)
    assert [h["input"]["contract"] for h in seen["hands"]] == ["einfach", "einfach"]
    assert seen == replayed_from_scratch(workers[0], evening)


def test_a_committed_hand_is_kept_as_written(workers: tuple[Flask, Flask]) -> None:
    first, _ = (app.test_client() for app in workers)
    evening = start(first)
    assert first.post(f"/api/v1/evenings/{evening}/hands", json=G1).status_code == 201
    with workers[0].test_request_context():
        kept = snapshots.kept().get(evening)
        assert kept is not None
        assert [h.number for h in kept.evening.hands] == [1]
        head = read_head(db.session.connection(), evening)
        assert head is not None
        assert head.stamp == kept.evening.stamp


def without_tokens(page: str) -> str:
    """A page with the values of its tokens left out: the one-time token of the hand form
    and the CSRF tokens, which are signed with the time."""
    return re.sub(r'(name="(?:csrf_token|token)"[^>]*value=")[^"]*', r"\1", page)


def test_the_table_screen_keeps_only_the_blank_form(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening(first_dealer="Dora")
    first = client.get(f"/evenings/{evening}").get_data(as_text=True)
    again = client.get(f"/evenings/{evening}").get_data(as_text=True)
    token = 'name="token" type="hidden" value="'
    assert first.split(token)[1][:22] != again.split(token)[1][:22]  # a new one-time token
    assert without_tokens(first) == without_tokens(again)
    client.post(f"/api/v1/evenings/{evening}/hands", json=G1)
    proposed = client.get(f"/evenings/{evening}").get_data(as_text=True)
    summary = proposed.split('<details class="dealer">')[1].split("</summary>")[0]
    assert "<strong>Anna</strong>" in summary  # the next table's form, not the first one
    assert "<strong>Dora</strong>" in first.split('<details class="dealer">')[1]


def prepared_in(app: Flask, evening: int, body: dict[str, Any]) -> Callable[[], Any]:
    """Check ``body`` as the next hand in ``app`` now; the returned call stores it then,
    with what store_hand returns (as a request whose check and write another worker's
    write falls between)."""
    with app.test_request_context():
        current = operations.current_view(evening)
        assert current is not None
        prepared = operations.prepare_record(current, body)

    def store() -> Any:
        with app.test_request_context():
            stored = operations.store_hand(prepared, source="test")
            db.session.commit()
            return prepared, stored

    return store


def test_a_hand_checked_before_another_write_is_checked_again(
    workers: tuple[Flask, Flask],
) -> None:
    first, second = (app.test_client() for app in workers)
    evening = start(first)
    first.post(f"/api/v1/evenings/{evening}/hands", json=G1)
    store = prepared_in(workers[0], evening, G1)
    second.post(f"/api/v1/evenings/{evening}/hands", json=LOST)
    prepared, stored = store()
    assert prepared.hand.number == 2
    assert stored is not prepared
    assert stored.hand.number == 3
    assert stored.hand.dealer_name == "Clara"  # the rotation after two hands
    seen = shown(first, evening)
    assert [h["number"] for h in seen["hands"]] == [1, 2, 3]
    assert seen == replayed_from_scratch(workers[0], evening)


def test_a_hand_checked_before_a_void_gets_the_dealer_after_it(
    workers: tuple[Flask, Flask],
) -> None:
    first, second = (app.test_client() for app in workers)
    evening = start(first)
    for body in (G1, LOST):
        first.post(f"/api/v1/evenings/{evening}/hands", json=body)
    store = prepared_in(workers[0], evening, G1)
    voided = second.delete(f"/api/v1/evenings/{evening}/hands/2", json={"reason": "misdeal"})
    assert voided.status_code == 200
    prepared, stored = store()
    assert prepared.hand.dealer_name != stored.hand.dealer_name
    assert stored.hand.dealer_name == shown(second, evening)["hands"][1]["dealer"]
    assert shown(first, evening) == replayed_from_scratch(workers[0], evening)


def test_a_hand_checked_before_the_evening_closed_is_refused(
    workers: tuple[Flask, Flask],
) -> None:
    first, second = (app.test_client() for app in workers)
    evening = start(first)
    store = prepared_in(workers[0], evening, G1)
    assert second.post(f"/api/v1/evenings/{evening}/close").status_code == 200
    with pytest.raises(operations.EveningClosedError):
        store()
    assert shown(first, evening)["hands"] == []


def test_a_hand_checked_with_nothing_written_since_is_stored_as_checked(
    workers: tuple[Flask, Flask],
) -> None:
    first, _ = (app.test_client() for app in workers)
    evening = start(first)
    first.post(f"/api/v1/evenings/{evening}/hands", json=G1)
    prepared, stored = prepared_in(workers[0], evening, LOST)()
    assert stored is prepared
    assert shown(first, evening) == replayed_from_scratch(workers[0], evening)


@pytest.mark.skipif(
    SERVER_URL is None, reason="SQLite's read takes no lock: its writers queue for the write"
)
def test_a_tablet_that_waited_while_a_hand_was_corrected_checks_its_hand_against_it(
    workers: tuple[Flask, Flask],
) -> None:
    """On PostgreSQL a tablet that waited for the evening's lock while another tablet
    corrected a hand checks its own hand against the correction, and its answer counts it.
    Its hand was checked against the evening as it stood before (the old hand); the stamp
    compared by the insert, which waited for the lock, tells, and the hand is checked
    again under the lock."""
    first, second = (app.test_client() for app in workers)
    evening = start(first)
    first.post(f"/api/v1/evenings/{evening}/hands", json=G1)
    second.post(f"/api/v1/evenings/{evening}/hands", json=G1)  # the second keeps both hands
    answers: list[Any] = []
    waiting = threading.Thread(
        target=lambda: answers.append(second.post(f"/api/v1/evenings/{evening}/hands", json=G1))
    )
    with workers[0].test_request_context():
        operations.replace_hand(evening, 1, {**LOST, "version": 1}, source="test")
        waiting.start()
        waiting.join(timeout=1.0)
        assert waiting.is_alive()  # held by the row lock
        db.session.commit()
    waiting.join(timeout=30)
    assert not waiting.is_alive()
    assert answers[0].status_code == 201
    assert answers[0].json["hand"]["number"] == 3
    scratch = replayed_from_scratch(workers[1], evening)
    assert scratch["hands"][0]["input"]["bidder"] == "Bert"  # the correction
    assert answers[0].json["balances"] == scratch["balances"]
    assert shown(second, evening) == scratch


def test_a_read_for_writing_locks_the_evening_only_where_rows_are_locked(
    workers: tuple[Flask, Flask],
) -> None:
    """On PostgreSQL the read of a request about to write locks the evening's row (no
    round trip of its own for the lock); on SQLite it takes no lock at all, the database's
    one write lock being taken for the write alone."""
    first, _ = (app.test_client() for app in workers)
    evening = start(first)
    first.post(f"/api/v1/evenings/{evening}/hands", json=G1)  # kept by the first worker
    with workers[0].test_request_context():
        assert operations.current_view(evening, for_writing=True) is not None
        held = db.session.info.get(views.HELD, set())
        if not views.locks_rows():
            assert evening not in held
            return
        assert evening in held
        other = db.engine.connect()
        try:
            with pytest.raises(OperationalError):
                other.execute(
                    text("SELECT id FROM evening WHERE id = :e FOR UPDATE NOWAIT"), {"e": evening}
                )
        finally:
            other.close()
            db.session.rollback()


@pytest.mark.skipif(
    SERVER_URL is None, reason="SQLite's read takes no lock: its writers queue for the write"
)
def test_a_tablet_saving_while_another_holds_the_evening_waits_and_takes_the_next_number(
    workers: tuple[Flask, Flask],
) -> None:
    """On PostgreSQL a request about to record a hand locks the evening's row as it reads
    it: a second tablet saving to the same evening meanwhile waits for the first to commit,
    then reads its hand and records the next one, instead of losing at the commit."""
    first, second = (app.test_client() for app in workers)
    evening = start(first)
    first.post(f"/api/v1/evenings/{evening}/hands", json=G1)
    answers: list[Any] = []
    waiting = threading.Thread(
        target=lambda: answers.append(second.post(f"/api/v1/evenings/{evening}/hands", json=G1))
    )
    with workers[0].test_request_context():
        current = operations.current_view(evening, for_writing=True)
        assert current is not None
        prepared = operations.prepare_record(current, LOST)
        waiting.start()
        waiting.join(timeout=1.0)
        assert waiting.is_alive()  # held by the row lock
        operations.store_hand(prepared, source="test")
        db.session.commit()
    waiting.join(timeout=30)
    assert not waiting.is_alive()
    assert answers[0].status_code == 201
    assert answers[0].json["hand"]["number"] == 3  # after the hand committed while it waited
    assert shown(second, evening) == replayed_from_scratch(workers[1], evening)
    assert [h["number"] for h in shown(first, evening)["hands"]] == [1, 2, 3]
