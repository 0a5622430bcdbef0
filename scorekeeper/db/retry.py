"""Writes that lose a race to another request are tried again from what is stored now.

Writes to one evening wait for each other (``operations.lock_evening``), but some races
are left: two new evenings naming the same new player, two requests with one
``Idempotency-Key`` for the evening list, or a write whose lock was not taken. The
database's unique constraints let only one of them commit; the other gets an
``IntegrityError``, and rolled back and run again, it reads what the winner stored and
decides anew: the player found, the winner's stored answer, a 409 for a stale version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import IntegrityError

from scorekeeper.db import unit_of_work

T = TypeVar("T")

#: How often a unit of work runs before a lost race is reported as an error. Each retry
#: follows a commit by another request, so running out takes that many rivals at once.
ATTEMPTS = 5


def retrying(unit: Callable[[], T]) -> T:
    """Run ``unit`` (which loads what it needs, writes and commits) until it commits."""
    attempt = 1
    while True:
        try:
            return unit()
        except IntegrityError:
            unit_of_work.current().rollback()
            if attempt == ATTEMPTS:
                raise
            attempt += 1
