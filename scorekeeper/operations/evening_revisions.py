"""An evening's settings revisions: every change to its settings keeps what they now are."""

from __future__ import annotations

from typing import Any

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


def add_revision(evening: Evening, *, source: str) -> None:
    """Bump the evening's version and keep its settings as they now are."""
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
