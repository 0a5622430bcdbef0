"""PostgreSQL's connection settings (``scorekeeper.db.postgres``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text

from scorekeeper.db.extensions import db
from tests.conftest import SERVER_URL

pytestmark = pytest.mark.skipif(
    SERVER_URL is None,
    reason="PostgreSQL's connection settings: run with SCOREKEEPER_TEST_DATABASE_URL (CI does)",
)

HAND = {"contract": "einfach", "bidder": "Anna", "points": 41}


def test_every_connection_plans_its_prepared_statements_once(app: Flask) -> None:
    with app.app_context():
        db.engine.dispose()  # connections made from now on
        for _ in range(2):
            mode = db.session.execute(text("SHOW plan_cache_mode")).scalar_one()
            assert mode == "force_generic_plan"
            db.session.rollback()  # the setting is the connection's, not a transaction's


def test_a_hand_s_insert_is_not_planned_again_for_every_hand(
    app: Flask, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    # The driver prepares a statement once it has run five times on a connection, and the
    # pool takes its connections in turn.
    for _ in range(30):
        record_hand(evening, HAND)
    with app.app_context():
        plans = db.session.execute(
            text(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                " WHERE statement LIKE '%INSERT INTO hand %'"
            )
        ).all()
        db.session.rollback()
    assert plans, "the insert of a hand was not prepared"
    assert all(custom == 0 and generic > 0 for generic, custom in plans)
