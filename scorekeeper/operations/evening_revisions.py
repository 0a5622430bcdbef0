"""An evening's settings revisions: every change to its settings keeps what they now are."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from scorekeeper.db.extensions import db
from scorekeeper.db.models import Evening, EveningRevision, utcnow


def evening_settings(evening: Evening) -> dict[str, Any]:
    """The correctable settings of an evening, as kept in its revisions, with the pot it
    took over (``carried_in``, jetons) and the evening its own pot went to
    (``carried_to``), when it is linked to one (docs/troggen.md §8)."""
    seating = evening.seatings[0]
    settings: dict[str, Any] = {
        "title": evening.title,
        "place": evening.place,
        "date": evening.date.isoformat() if evening.date else None,
        "first_dealer": seating.dealer.name if seating.dealer else None,
        "options": dict(evening.options),
        "language": evening.language,
        "closed": evening.closed_at is not None,
    }
    if evening.carried is not None:
        settings["carried_in"] = evening.carried.pot
    if evening.carried_on is not None:
        settings["carried_to"] = evening.carried_on.evening_id
    return settings


def revisions_of(evening_id: int) -> list[EveningRevision]:
    """The evening's settings at every version, oldest first."""
    return list(
        db.session.scalars(
            select(EveningRevision)
            .where(EveningRevision.evening_id == evening_id)
            .order_by(EveningRevision.version)
        )
    )


def add_revision(evening: Evening, *, source: str) -> None:
    """Bump the evening's version and keep its settings as they now are (its first seating
    and its pots read again: this write may have changed them by their own rows)."""
    db.session.flush()
    db.session.expire(evening, ["seatings", "carried", "carried_on"])
    evening.version += 1
    evening.updated_at = utcnow()
    db.session.add(
        EveningRevision(
            evening=evening,
            version=evening.version,
            settings=evening_settings(evening),
            source=source,
        )
    )
    db.session.flush()
