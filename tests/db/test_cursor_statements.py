"""Statements run on the driver's cursor (``scorekeeper.db.cursor_statements``) read and write
exactly what SQLAlchemy's own execution reads and writes, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import bindparam, insert, literal, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError

from scorekeeper.db.cursor_statements import Direct, compile_for
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Hand, Player
from scorekeeper.operations import facts

PLAYER = Player.__table__
HAND = Hand.__table__

ADD_PLAYER = Direct(
    insert(PLAYER)
    .values(
        name=bindparam("name"),
        name_key=bindparam("key"),
        created_at=bindparam("at", type_=PLAYER.c.created_at.type),
    )
    .returning(PLAYER.c.id, PLAYER.c.created_at)
)
#: A statement with a literal of its own and a parameter used twice.
PAIR = select(
    literal(7).label("seven"),
    bindparam("n", type_=HAND.c.number.type).label("first"),
    bindparam("n", type_=HAND.c.number.type).label("again"),
)


def test_positional_drivers_get_the_parameters_in_order_with_the_literals() -> None:
    compiled = compile_for(PAIR, sqlite.dialect())
    assert compiled.sql.count("?") == 3
    assert compiled.parameters({"n": 4}) == (7, 4, 4)


def test_drivers_taking_names_get_a_mapping() -> None:
    compiled = compile_for(PAIR, postgresql.dialect())
    parameters = compiled.parameters({"n": 4})
    assert isinstance(parameters, dict)
    assert sorted(parameters.values()) == [4, 7]


def test_a_statement_without_columns_returns_no_rows(app: Flask) -> None:
    with app.app_context():
        assert Direct(text("SELECT 1 WHERE 1 = 0")).rows(db.session.connection(), {}) == []


@pytest.mark.parametrize("microsecond", [0, 1, 999999])
def test_times_are_written_as_sqlalchemy_writes_them(app: Flask, microsecond: int) -> None:
    # The stamp compares stored times for equality: a time written here must equal the
    # same time bound by SQLAlchemy, to the microsecond, on either database.
    at = datetime(2026, 11, 24, 21, 5, 9, microsecond, tzinfo=UTC)
    with app.app_context():
        connection = db.session.connection()
        [(player_id, read_back)] = ADD_PLAYER.rows(
            connection, {"name": "Anna", "key": "anna", "at": at}
        )
        assert read_back == at
        at_bound = bindparam("at", at, PLAYER.c.created_at.type)
        found = connection.execute(
            select(PLAYER.c.id).where(PLAYER.c.created_at == at_bound)
        ).scalar_one()
        assert found == player_id
        db.session.rollback()


def test_the_news_read_directly_equals_sqlalchemy_s_reading(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., object]
) -> None:
    evening = create_evening()
    for points in (41, 20, 35):
        record_hand(evening, {"contract": "einfach", "bidder": "Anna", "points": points})
    client.delete(f"/api/v1/evenings/{evening}/hands/2", json={"reason": "misdealt"})
    app = client.application
    with app.app_context():
        connection = db.session.connection()
        for after in (0, 1, 3):
            parameters = {"evening": evening, "after": after}
            direct = facts.NEWS.rows(connection, parameters)
            through_sqlalchemy = connection.execute(facts.NEWS.statement, parameters).all()
            assert direct == [tuple(row) for row in through_sqlalchemy]
            assert len(direct) == max(3 - after, 1)  # one row without a hand when none is newer
            if after < 3:
                assert isinstance(direct[0][-5], dict)  # a hand's facts come back as JSON
        db.session.rollback()


def test_driver_errors_become_sqlalchemy_s(app: Flask) -> None:
    at = datetime(2026, 11, 24, tzinfo=UTC)
    with app.app_context():
        connection = db.session.connection()
        ADD_PLAYER.rows(connection, {"name": "Anna", "key": "anna", "at": at})
        with pytest.raises(IntegrityError):  # one player per name
            ADD_PLAYER.rows(connection, {"name": "ANNA", "key": "anna", "at": at})
        db.session.rollback()


def test_a_lost_connection_is_not_handed_out_again(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app.app_context():
        connection = db.session.connection()
        # The driver's error for a statement that fails, taken as the connection lost.
        monkeypatch.setattr(connection.dialect, "is_disconnect", lambda *args: True)
        with pytest.raises(DBAPIError) as raised:
            Direct(text("SELECT * FROM no_such_table")).rows(connection, {})
        assert raised.value.connection_invalidated
        assert connection.invalidated
        db.session.rollback()
