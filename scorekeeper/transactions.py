"""Writes that lose a race to another request are tried again from what is stored now.

Two tablets can save at the same moment: both read the evening, both take the next hand
number (or both change version 3 of a hand, or both send the same ``Idempotency-Key``),
and the database's unique constraints let only one of them commit. The other gets an
``IntegrityError``; rolled back and run again, it reads what the winner stored and decides
anew: the next free number, a 409 for the stale version, the winner's stored answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db

T = TypeVar("T")

#: How often a unit of work runs before a lost race is reported as an error. Each retry
#: follows a commit by another request, so running out takes that many rivals at once.
ATTEMPTS = 5


def retrying(unit: Callable[[bool], T]) -> T:
    """Run ``unit`` (which reads, writes and commits) until it commits.

    ``unit`` is called with ``again=False`` first and ``again=True`` on every retry, when
    whatever it loaded before is stale and must be loaded anew.
    """
    attempt = 1
    while True:
        try:
            return unit(attempt > 1)
        except IntegrityError:
            db.session.rollback()
            if attempt == ATTEMPTS:
                raise
            attempt += 1
