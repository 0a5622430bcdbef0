"""Writes that lose a race to another request are tried again from what is stored now.

Writes to one evening wait for each other (``operations.lock_evening``), but some races
are left: two new evenings naming the same new player, two requests with one
``Idempotency-Key`` for the evening list, or a write whose lock was not taken. The
database's unique constraints let only one of them commit; the other gets an
``IntegrityError``, and rolled back and run again, it reads what the winner stored and
decides anew: the player found, the winner's stored answer, a 409 for a stale version.

PostgreSQL may also end a transaction that waits in a cycle with another (a deadlock,
SQLSTATE ``40P01``) or that could not be ordered with another (a serialization failure,
``40001``). Rows that several requests change are taken in one order so that no cycle
forms (``access.attempt``, ``access.succeeded``); should one form all the same, the
transaction that lost is run again like a lost race: it never answers 500.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError

from scorekeeper.db import unit_of_work

T = TypeVar("T")

#: How often a unit of work runs before a lost race is reported as an error. Each retry
#: follows a commit by another request, so running out takes that many rivals at once.
ATTEMPTS = 5


#: PostgreSQL's deadlock and serialization failure: the transaction lost, nothing of it
#: was kept, and running it again is what the database asks for.
LOST_TRANSACTIONS = frozenset({"40P01", "40001"})


def lost(error: BaseException) -> bool:
    """Whether ``error`` is a race lost: a unique key taken first, a deadlock, a
    serialization failure."""
    if isinstance(error, IntegrityError):
        return True
    if isinstance(error, DBAPIError):
        return getattr(error.orig, "sqlstate", None) in LOST_TRANSACTIONS
    return False


def retrying(unit: Callable[[], T], rollback: Callable[[], None] | None = None) -> T:
    """Run ``unit`` (which loads what it needs, writes and commits) until it commits;
    ``rollback`` undoes a lost attempt (the current unit of work's, by default)."""
    attempt = 1
    while True:
        try:
            return unit()
        except DBAPIError as error:
            if not lost(error):
                raise
            (rollback or unit_of_work.current().rollback)()
            if attempt == ATTEMPTS:
                raise
            attempt += 1
