"""The unit of work of a request (``scorekeeper.db.unit_of_work``): a plain connection for
recording a hand into a casual evening, the ORM session for everything else, ending alike."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, text
from sqlalchemy.orm import Session

from scorekeeper.db import sqlite, unit_of_work
from scorekeeper.db.extensions import db
from scorekeeper.operations import snapshots
from tests.conftest import PLAYERS4, SERVER_URL, sqlite_only

HAND = {"contract": "einfach", "bidder": "Anna", "points": 40}


def start(client: FlaskClient) -> int:
    """A four-player Troggen evening."""
    answer = client.post("/api/v1/evenings", json={"game": "troggen", "players": PLAYERS4})
    return int(answer.json["id"])


@pytest.fixture
def sessions_begun() -> Iterator[list[Session]]:
    """Every ORM session transaction begun while the test runs."""
    begun: list[Session] = []

    def note(session: Session, _transaction: object, _connection: object) -> None:
        begun.append(session)

    event.listen(Session, "after_begin", note)
    yield begun
    event.remove(Session, "after_begin", note)


def hands_stored(app: Flask, evening: int) -> int:
    """How many hands the evening has in the database."""
    with app.app_context():
        found = db.session.execute(
            text("SELECT count(*) FROM hand WHERE evening_id = :e"), {"e": evening}
        ).scalar_one()
        db.session.remove()
    return int(found)


@pytest.mark.parametrize("via", ["api", "page"])
def test_a_hand_of_a_casual_evening_is_recorded_without_the_orm_session(
    app: Flask, sessions_begun: list[Session], via: str
) -> None:
    client = app.test_client()
    evening = start(client)
    client.get(f"/api/v1/evenings/{evening}")  # the guard knows the evening is casual
    sessions_begun.clear()
    if via == "api":
        answer = client.post(f"/api/v1/evenings/{evening}/hands", json=HAND)
        assert answer.status_code == 201
    else:
        page = client.get(f"/evenings/{evening}")
        assert page.status_code == 200
        sessions_begun.clear()
        form = {"contract": "einfach", "bidder": "Anna", "points": "40"}
        answer = client.post(f"/evenings/{evening}/hands", data=form)
        assert answer.status_code == 303
    assert sessions_begun == []
    assert hands_stored(app, evening) == 1
    with app.test_request_context():
        kept = snapshots.kept().get(evening)
    assert kept is not None
    assert [h.number for h in kept.evening.hands] == [1]


def test_a_repeated_key_gets_the_first_answer_on_a_plain_connection(app: Flask) -> None:
    client = app.test_client()
    evening = start(client)
    headers = {"Idempotency-Key": "tap-1"}
    first = client.post(f"/api/v1/evenings/{evening}/hands", json=HAND, headers=headers)
    again = client.post(f"/api/v1/evenings/{evening}/hands", json=HAND, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    assert again.headers["Location"] == first.headers["Location"]
    assert hands_stored(app, evening) == 1


def test_what_the_block_did_not_commit_is_rolled_back(app: Flask) -> None:
    client = app.test_client()
    evening = start(client)
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=HAND).status_code == 201
    with app.test_request_context(), unit_of_work.plain() as unit:
        assert unit_of_work.current() is unit
        unit.connection().execute(
            text("UPDATE hand SET void_reason = 'misdeal' WHERE evening_id = :e"), {"e": evening}
        )
    with app.app_context():
        reason = db.session.execute(text("SELECT void_reason FROM hand")).scalar_one()
        db.session.remove()
    assert reason is None


def test_hooks_run_for_a_plain_unit_as_for_the_session(app: Flask) -> None:
    seen: list[tuple[str, dict[str, object]]] = []
    hooks = [
        unit_of_work.when_committed(lambda info: seen.append(("committed", dict(info)))),
        unit_of_work.when_rolled_back(lambda info: seen.append(("rolled back", dict(info)))),
        unit_of_work.when_ended(lambda info: seen.append(("ended", dict(info)))),
    ]
    try:
        with app.test_request_context():
            with unit_of_work.plain() as unit:
                unit.info["mark"] = 1
                unit.connection().execute(text("SELECT 1"))
                unit.commit()
            with unit_of_work.plain() as unit:
                unit.info["mark"] = 2
                unit.connection().execute(text("SELECT 1"))
            assert unit_of_work.current() is db.session
            db.session.info["mark"] = 3
            db.session.execute(text("SELECT 1"))
            db.session.commit()
    finally:
        for registered in (unit_of_work._committed, unit_of_work._rolled_back, unit_of_work._ended):
            for hook in hooks:
                if hook in registered:
                    registered.remove(hook)
    assert seen == [
        ("committed", {"mark": 1}),
        ("ended", {"mark": 1}),
        ("rolled back", {"mark": 2}),
        ("ended", {"mark": 2}),
        ("committed", {"mark": 3}),
        ("ended", {"mark": 3}),
    ]


@sqlite_only
def test_a_plain_unit_leaves_sqlites_queue_when_it_rolls_back(app: Flask) -> None:
    with app.test_request_context(), unit_of_work.plain() as unit:
        sqlite.begin_writing(unit)
        assert sqlite.QUEUE in unit.info
    done = threading.Event()

    def other_writer() -> None:
        with app.app_context():
            sqlite.begin_writing(db.session())
            db.session.commit()
            done.set()

    writer = threading.Thread(target=other_writer, daemon=True)
    writer.start()
    writer.join(timeout=10)
    assert done.is_set()


def stored_reasons(app: Flask) -> list[str | None]:
    """Every hand's void reason, as committed."""
    with app.app_context():
        found = db.session.execute(text("SELECT void_reason FROM hand ORDER BY id")).scalars()
        reasons = list(found)
        db.session.remove()
    return reasons


def test_each_statement_commits_on_its_own_until_a_transaction_begins(app: Flask) -> None:
    client = app.test_client()
    evening = start(client)
    for _ in range(2):
        assert client.post(f"/api/v1/evenings/{evening}/hands", json=HAND).status_code == 201
    void = "UPDATE hand SET void_reason = :reason WHERE number = :number"
    with app.test_request_context(), unit_of_work.plain(each_statement=True) as unit:
        assert unit_of_work.committing_each_statement() is unit
        unit.connection().execute(text(void), {"reason": "misdeal", "number": 1})
        assert stored_reasons(app) == ["misdeal", None]  # committed already
        unit.begin()
        assert unit_of_work.committing_each_statement() is None
        unit.connection().execute(text(void), {"reason": "undo", "number": 2})
    assert stored_reasons(app) == ["misdeal", None]  # the transaction was rolled back


@pytest.fixture
def transactions_begun(app: Flask) -> Iterator[list[object]]:
    """Every transaction SQLAlchemy begins on the app's engine while the test runs."""
    begun: list[object] = []

    def note(connection: object) -> None:
        begun.append(connection)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "begin", note)
    yield begun
    event.remove(engine, "begin", note)


def test_a_hand_without_a_key_commits_on_its_own_on_postgresql_and_in_a_transaction_on_sqlite(
    app: Flask, transactions_begun: list[object]
) -> None:
    """SQLite's writers queue for the database's lock, which only a transaction holds:
    there the hand keeps its transaction."""
    client = app.test_client()
    evening = start(client)
    client.get(f"/api/v1/evenings/{evening}")  # the evening is kept and known as casual
    transactions_begun.clear()
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=HAND).status_code == 201
    assert len(transactions_begun) == (0 if SERVER_URL is not None else 1)
    transactions_begun.clear()
    # With a key, the answer is kept in the hand's transaction.
    headers = {"Idempotency-Key": "tap-2"}
    answer = client.post(f"/api/v1/evenings/{evening}/hands", json=HAND, headers=headers)
    assert answer.status_code == 201
    assert len(transactions_begun) == 1
    assert hands_stored(app, evening) == 2
