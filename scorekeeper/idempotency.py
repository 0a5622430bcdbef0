"""Answers kept per request key, so a repeated request (a retry, a double tap) gets the
first answer back instead of recording twice.

Read and written with plain statements in the request's unit of work (``work.current``),
so the answer is kept in the same transaction as the change it answers, through the ORM
session or a plain connection alike.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import bindparam, insert, select

from scorekeeper import work
from scorekeeper.models import IdempotentResponse

ANSWERS = IdempotentResponse.__table__
#: The answer to a key within a scope; built once.
FIND = select(ANSWERS.c.status, ANSWERS.c.body, ANSWERS.c.location).where(
    ANSWERS.c.scope == bindparam("scope"), ANSWERS.c.key == bindparam("key")
)


class StoredAnswer(NamedTuple):
    """An answer as it was given."""

    status: int
    body: dict[str, Any]
    location: str | None


def stored_answer(scope: str, key: str) -> StoredAnswer | None:
    """The answer already given to ``key`` within ``scope`` (an evening, the list), if any."""
    connection = work.current().connection()
    row = connection.execute(FIND, {"scope": scope, "key": key}).first()
    return None if row is None else StoredAnswer(*row)


def keep_answer(
    scope: str, key: str, *, status: int, body: dict[str, Any], location: str | None
) -> None:
    """Keep the answer to ``key``; committed with the change it answers. Two requests with
    one key at once cannot both keep theirs: the table's unique key refuses the second
    (``IntegrityError``), which then runs again and finds the first."""
    work.current().connection().execute(
        insert(ANSWERS).values(scope=scope, key=key, status=status, body=body, location=location)
    )
