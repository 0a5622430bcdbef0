"""A transaction PostgreSQL ends for a deadlock or a serialization failure is run again like
a lost race, and the rows of wrong tries are taken in one order so that no deadlock forms
(``db/retry.py``, ``web/access.py``; docs/hall-safety.md "Counting cannot be overrun")."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy.exc import IntegrityError, OperationalError

from scorekeeper.db import retry
from scorekeeper.web import access
from tests.conftest import SERVER_URL


class Refusal(Exception):
    """A driver's error with the SQLSTATE PostgreSQL gave."""

    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def failing(times: int, error: Exception) -> tuple[Callable[[], str], list[int]]:
    """A unit that fails ``times`` times with ``error``, then commits; and its runs."""
    runs: list[int] = []

    def unit() -> str:
        runs.append(1)
        if len(runs) <= times:
            raise error
        return "committed"

    return unit, runs


@pytest.mark.parametrize("sqlstate", ["40P01", "40001"], ids=["deadlock", "serialization"])
def test_a_lost_transaction_runs_again(sqlstate: str) -> None:
    unit, runs = failing(2, OperationalError("UPDATE", {}, Refusal(sqlstate)))
    rollbacks: list[int] = []
    assert retry.retrying(unit, rollback=lambda: rollbacks.append(1)) == "committed"
    assert (len(runs), len(rollbacks)) == (3, 2)


def test_a_lost_unique_key_runs_again_as_before() -> None:
    unit, runs = failing(1, IntegrityError("INSERT", {}, Refusal("23505")))
    assert retry.retrying(unit, rollback=lambda: None) == "committed"
    assert len(runs) == 2


def test_any_other_database_error_is_no_lost_race() -> None:
    """A connection lost, a syntax error: raised at once, not run again."""
    unit, runs = failing(1, OperationalError("SELECT", {}, Refusal("08006")))
    with pytest.raises(OperationalError):
        retry.retrying(unit, rollback=lambda: None)
    assert len(runs) == 1


def test_a_transaction_that_keeps_losing_is_reported() -> None:
    unit, runs = failing(99, OperationalError("UPDATE", {}, Refusal("40P01")))
    with pytest.raises(OperationalError):
        retry.retrying(unit, rollback=lambda: None)
    assert len(runs) == retry.ATTEMPTS


@pytest.mark.skipif(
    SERVER_URL is None,
    reason="PostgreSQL's row locks: run with SCOREKEEPER_TEST_DATABASE_URL (CI does); "
    "SQLite's write lock holds the whole table",
)
def test_tablets_of_one_address_opening_their_tables_at_once_never_deadlock(
    make_app: Callable[..., Flask],
) -> None:
    """Two tablets behind one address (a hall's router) with right codes, sent at once
    round after round: each clears the address's earlier tries, the other's among them.
    Deleting its own try and then updating the rest, each held a row the other waited for;
    taken in the order of their ids, they wait in turn."""
    app = make_app()
    rounds = 40
    barrier = threading.Barrier(2)
    failures: list[BaseException] = []

    def tablet() -> None:
        for _ in range(rounds):
            with app.test_request_context(environ_base={"REMOTE_ADDR": "192.168.1.40"}):
                try:
                    # Three wrong tries stay uncleared, as a table code mistyped before.
                    for _ in range(2):
                        access.attempt("code")
                    tried = access.attempt("code")
                    barrier.wait(timeout=30)
                    access.succeeded(tried, "code")
                except BaseException as error:
                    failures.append(error)
                    barrier.abort()
                    return

    app.config["LOGIN_ATTEMPTS"] = 10_000
    app.config["LOGIN_DELAY_AFTER"] = 10_000
    threads = [threading.Thread(target=tablet) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert failures == []
