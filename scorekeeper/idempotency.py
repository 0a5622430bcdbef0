"""Answers kept per request key, so a repeated request (a retry, a double tap) gets the
first answer back instead of recording twice."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.models import IdempotentResponse


def stored_answer(scope: str, key: str) -> IdempotentResponse | None:
    """The answer already given to ``key`` within ``scope`` (an evening, the list), if any."""
    return db.session.scalars(
        select(IdempotentResponse).where(
            IdempotentResponse.scope == scope, IdempotentResponse.key == key
        )
    ).first()


def keep_answer(
    scope: str, key: str, *, status: int, body: dict[str, Any], location: str | None
) -> None:
    """Keep the answer to ``key``; committed with the change it answers."""
    db.session.add(
        IdempotentResponse(scope=scope, key=key, status=status, body=body, location=location)
    )
