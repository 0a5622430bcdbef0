"""Answers kept per request key, so a repeated request (a retry, a double tap, an outbox
sending again after a dropped connection) gets the first answer back instead of recording
twice, and a key reused for another request is refused instead of answered with the first
(``docs/recording.md``, "One key, one request").

A key is unique within its scope (an evening, a tournament, the evening or tournament
list) and its requester (who asks, by what they have unlocked: ``requester``). The answer
is kept with a fingerprint of the request it answers (``fingerprint``): the same key with
another request is not a repeat.

Read and written with plain statements in the request's unit of work (``unit_of_work.current``),
so the answer is kept in the same transaction as the change it answers, through the ORM
session or a plain connection alike.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any, NamedTuple

from sqlalchemy import bindparam, insert, select

from scorekeeper.db import unit_of_work
from scorekeeper.db.models import IdempotentResponse

ANSWERS = IdempotentResponse.__table__
#: An answer kept before keys belonged to a requester (schema 0008): anyone's.
ANYONE = ""
#: The answer to a key within a scope and for a requester (or kept for anyone); built once.
FIND = (
    select(ANSWERS.c.status, ANSWERS.c.body, ANSWERS.c.location, ANSWERS.c.fingerprint)
    .where(
        ANSWERS.c.scope == bindparam("scope"),
        ANSWERS.c.requester.in_([bindparam("requester"), ANYONE]),
        ANSWERS.c.key == bindparam("key"),
    )
    .order_by(ANSWERS.c.requester.desc())
    .limit(1)
)


#: The longest key kept: an API's ``Idempotency-Key``, a page form's token (ours are 22
#: characters). A longer one is refused before anything is read or kept (docs/limits.md).
MAX_KEY_LENGTH = 200


class StoredAnswer(NamedTuple):
    """An answer as it was given, with the fingerprint of the request it answered
    (``None`` for answers kept before fingerprints were)."""

    status: int
    body: dict[str, Any]
    location: str | None
    fingerprint: str | None

    def answers(self, fingerprint: str) -> bool:
        """Whether this is the answer to the request with ``fingerprint``."""
        return self.fingerprint is None or self.fingerprint == fingerprint


def fingerprint(method: str, path: str, body: object) -> str:
    """What makes two requests the same: method, path and the body's content, whatever
    the order of its keys or its spacing.

    >>> a = fingerprint("POST", "/api/v1/evenings/1/hands", {"points": 41, "bidder": "Bert"})
    >>> a == fingerprint("POST", "/api/v1/evenings/1/hands", {"bidder": "Bert", "points": 41})
    True
    >>> a == fingerprint("POST", "/api/v1/evenings/1/hands", {"bidder": "Bert", "points": 40})
    False
    """
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    text = f"{method.upper()} {path}\n{canonical}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def stored_answer(scope: str, requester: str, key: str) -> StoredAnswer | None:
    """The answer already given to ``key`` within ``scope`` for ``requester``, if any."""
    connection = unit_of_work.current().connection()
    row = connection.execute(FIND, {"scope": scope, "requester": requester, "key": key}).first()
    return None if row is None else StoredAnswer(*row)


def keep_answer(
    scope: str,
    requester: str,
    key: str,
    *,
    fingerprint: str,
    status: int,
    body: dict[str, Any],
    location: str | None,
    secrets: Iterable[str] = (),
) -> None:
    """Keep the answer to ``key``; committed with the change it answers.

    ``secrets``: keys of ``body`` that are never kept (an organiser's token), so a repeat
    is answered without them. Two requests with one key at once cannot both keep theirs:
    the table's unique key refuses the second (``IntegrityError``), which then runs again
    and finds the first.
    """
    hidden = set(secrets)
    kept = {k: v for k, v in body.items() if k not in hidden}
    unit_of_work.current().connection().execute(
        insert(ANSWERS).values(
            scope=scope,
            requester=requester,
            key=key,
            fingerprint=fingerprint,
            status=status,
            body=kept,
            location=location,
        )
    )
