"""The unit of work a request reads and writes in: the ORM session, or a plain connection.

Most writes change mapped objects through the ORM session (``db.session``). Recording a
hand into a casual evening, what a hall of tablets does most, needs none: its statements
run on the driver's cursor (``direct``). For it the session's own begin, commit and
close cost about a fourteenth of the request's instructions (``docs/decisions.md``), so it
runs in a ``Plain`` unit of work on a connection of the app's engine instead (``plain``).

Both offer what the writes need: ``connection()``, ``commit()``, ``rollback()`` and
``info``, where the transaction keeps what it holds (the evenings it locked, those to keep
once it commits, SQLite's place in the writers' queue). What must happen when a
transaction commits, rolls back or ends is registered here once (``when_committed``,
``when_rolled_back``, ``when_ended``) and runs for either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from flask import g
from sqlalchemy import Connection, event
from sqlalchemy.orm import Session, SessionTransaction

from scorekeeper.db.extensions import db

#: What runs with a transaction's ``info`` once it has committed, rolled back or ended.
Hook = Callable[[dict[str, Any]], None]

_committed: list[Hook] = []
_rolled_back: list[Hook] = []
_ended: list[Hook] = []

#: Where a request keeps its ``Plain`` unit of work, while it has one.
CURRENT = "scorekeeper_work"


class Work(Protocol):
    """What a unit of work offers: the ORM session has it, and so has ``Plain``."""

    @property
    def info(self) -> dict[str, Any]:
        """What the current transaction holds, forgotten when it ends."""

    def connection(self) -> Connection:
        """The connection of the current transaction, begun if none is."""

    def commit(self) -> None:
        """Commit the current transaction."""

    def rollback(self) -> None:
        """Roll the current transaction back."""


def when_committed(hook: Hook) -> Hook:
    """Run ``hook`` once a transaction has committed."""
    _committed.append(hook)
    return hook


def when_rolled_back(hook: Hook) -> Hook:
    """Run ``hook`` once a transaction has rolled back."""
    _rolled_back.append(hook)
    return hook


def when_ended(hook: Hook) -> Hook:
    """Run ``hook`` once a transaction has ended, committed or not (after the others)."""
    _ended.append(hook)
    return hook


def _run(hooks: list[Hook], info: dict[str, Any]) -> None:
    for hook in hooks:
        hook(info)


class Plain:
    """A unit of work on one connection of an engine, without the ORM session.

    ``each_statement``: every statement commits on its own (the database's autocommit),
    until ``begin`` starts a transaction. Recording a hand on PostgreSQL needs only two
    statements, each safe on its own (``operations.hands.store_hand``): without ``BEGIN``
    and ``COMMIT`` it makes two round trips to the server instead of four.
    """

    def __init__(self, connect: Callable[[], Connection], *, each_statement: bool = False) -> None:
        self._connect = connect
        self._connection: Connection | None = None
        self.each_statement = each_statement
        self.info: dict[str, Any] = {}

    def connection(self) -> Connection:
        """The connection of the current transaction, begun if none is."""
        if self._connection is None:
            self._connection = self._connect()
            if self.each_statement:
                self._connection.execution_options(isolation_level="AUTOCOMMIT")
            else:
                self._connection.begin()
        return self._connection

    def begin(self) -> None:
        """From now on, run the statements in one transaction, as if ``each_statement``
        had never been asked for."""
        if not self.each_statement:
            return
        self.each_statement = False
        if self._connection is not None:
            if self._connection.in_transaction():  # begun by SQLAlchemy, nothing held
                self._connection.commit()
            level = self._connection.default_isolation_level
            self._connection.execution_options(isolation_level=level)
            self._connection.begin()

    def commit(self) -> None:
        """Commit the current transaction (if one was begun) and end it."""
        if self._connection is not None:
            self._connection.commit()
        _run(_committed, self.info)
        self._end()

    def rollback(self) -> None:
        """Roll the current transaction back (if one was begun) and end it."""
        if self._connection is not None:
            self._connection.rollback()
        _run(_rolled_back, self.info)
        self._end()

    @property
    def begun(self) -> bool:
        """Whether a transaction is under way (a connection taken, or anything held)."""
        return self._connection is not None or bool(self.info)

    def _end(self) -> None:
        try:
            _run(_ended, self.info)
        finally:
            self.info.clear()
            if self._connection is not None:
                self._connection.close()
                self._connection = None


def current() -> Work:
    """The request's unit of work: its ``Plain`` one while it has one, else the session."""
    found: Work | None = g.get(CURRENT)
    return db.session if found is None else found


def is_plain() -> bool:
    """Whether the request works on a plain connection rather than the ORM session."""
    return g.get(CURRENT) is not None


def committing_each_statement() -> Plain | None:
    """The request's unit of work if each of its statements commits on its own."""
    found: Plain | None = g.get(CURRENT)
    return found if found is not None and found.each_statement else None


@contextmanager
def plain(*, each_statement: bool = False) -> Iterator[Plain]:
    """Work on a plain connection of the app's engine while the block runs; whatever the
    block did not commit is rolled back when it ends. ``each_statement``: see ``Plain``."""
    work = Plain(db.engine.connect, each_statement=each_statement)
    setattr(g, CURRENT, work)
    try:
        yield work
    finally:
        g.pop(CURRENT, None)
        if work.begun:
            work.rollback()


@event.listens_for(Session, "after_commit")
def _session_committed(session: Session) -> None:
    _run(_committed, session.info)


@event.listens_for(Session, "after_soft_rollback")
def _session_rolled_back(session: Session, previous_transaction: SessionTransaction) -> None:
    _run(_rolled_back, session.info)


@event.listens_for(Session, "after_transaction_end")
def _session_ended(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:
        _run(_ended, session.info)
