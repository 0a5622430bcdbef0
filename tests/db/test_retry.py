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

#: PostgreSQL's row locks: SQLite's write lock serialises every write, so no deadlock or
#: lost merge can happen there.
postgres_only = pytest.mark.skipif(
    SERVER_URL is None,
    reason="PostgreSQL's row locks: run with SCOREKEEPER_TEST_DATABASE_URL (CI does)",
)


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


@postgres_only
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


@postgres_only
def test_two_merges_of_one_member_at_once_end_as_one_after_the_other(
    make_app: Callable[..., Flask],
) -> None:
    """Anna and Clara sat at one table; Bert never with either. Bert merged into Anna and
    into Clara at once: one merge is done, the other finds Bert merged already (404), as
    one after the other would. Then two members renamed to one name at once: one is."""
    app = make_app()
    client = app.test_client()
    group = client.post("/api/v1/groups", json={"name": "Runde"}).json["id"]
    body = {"game": "troggen", "players": ["Anna", "Clara", "Dora", "Emil"], "group": group}
    assert client.post("/api/v1/evenings", json=body).status_code == 201
    for attempt in range(5):
        bert = f"Bert {attempt}"
        body = {"game": "troggen", "players": [bert, "Fritz", "Gabi", "Hans"], "group": group}
        assert client.post("/api/v1/evenings", json=body).status_code == 201
        members = {
            m["name"]: m["id"] for m in client.get(f"/api/v1/groups/{group}").json["members"]
        }
        answers = at_once(
            app,
            [
                (f"/api/v1/groups/{group}/members/{members['Anna']}/merge", members[bert]),
                (f"/api/v1/groups/{group}/members/{members['Clara']}/merge", members[bert]),
            ],
        )
        assert sorted(answers) == [200, 404], (attempt, answers)
    members = {m["name"]: m["id"] for m in client.get(f"/api/v1/groups/{group}").json["members"]}
    renames = at_once(
        app,
        [
            (f"/api/v1/groups/{group}/members/{members['Dora']}", "Zora"),
            (f"/api/v1/groups/{group}/members/{members['Emil']}", "Zora"),
        ],
        method="PATCH",
    )
    assert sorted(renames) == [200, 422]


def at_once(app: Flask, calls: list[tuple[str, object]], method: str = "POST") -> list[int]:
    """Send each call from its own client and thread at the same moment; the statuses."""
    barrier = threading.Barrier(len(calls))
    statuses: list[int] = []

    def send(path: str, value: object) -> None:
        body = {"other": value} if method == "POST" else {"name": value}
        tablet = app.test_client()
        barrier.wait(timeout=30)
        statuses.append(tablet.open(path, method=method, json=body).status_code)

    threads = [threading.Thread(target=send, args=call) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses
