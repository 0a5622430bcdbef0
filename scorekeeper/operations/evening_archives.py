"""Whole evenings as JSON archives: what an archive holds, and exporting one.

An archive holds the facts only (settings with their revisions, seatings, every hand input
with its revisions and voids), never a derived number: importing it replays to exactly the
same ledger. The format, its versions and every check made on import are described in
docs/archives.md; the checks are in ``archive_checks``, the import in ``archive_import``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import object_session

from scorekeeper.db.extensions import db
from scorekeeper.db.models import (
    Evening,
    HandRevision,
    Player,
)
from scorekeeper.operations import table_groups

#: The largest number a hand, seating or version can have: what an integer column holds
#: on PostgreSQL (SQLite would take more, and fail only past 2**63).
MAX_NUMBER = 2**31 - 1

FORMAT = "scorekeeper-evening"
VERSION = 1

#: How long each text of an archive may be: what its column holds (``models``). A longer
#: text is refused, never cut (docs/archives.md, "Nothing is repaired").
TEXT_LENGTH = Evening.__table__.c.title.type.length
NAME_LENGTH = Player.__table__.c.name.type.length
SOURCE_LENGTH = HandRevision.__table__.c.source.type.length
#: Void and correction reasons are kept in unbounded columns; no version ever accepted
#: one longer than this, so a longer one was not written by Scorekeeper.
REASON_LENGTH = 500

#: The keys each part of an archive has (docs/archives.md); any other is refused rather
#: than dropped, since what it holds would be lost.
ARCHIVE_KEYS = {
    "format",
    "version",
    "evening",
    "settings_revisions",
    "seatings",
    "hands",
    "group",
    "carried",
}
#: The table group of an evening that belongs to one (left out otherwise, as in archives
#: written before groups): its name, and the member each name at the table stands for.
GROUP_KEYS = {"name", "members"}
#: The pot an evening took over from an earlier one (left out when it took over none, as
#: in archives written before carried pots), and which evening that was, if known.
CARRIED_KEYS = {"pot", "from"}
CARRIED_FROM_KEYS = {"game", "variant", "created_at"}
EVENING_KEYS = {"game", "variant", "title", "place", "date", "options", "created_at"}
SETTINGS_REVISION_KEYS = {"version", "settings", "at", "source"}
SETTINGS_KEYS = {
    "title",
    "place",
    "date",
    "first_dealer",
    "options",
    "language",
    "closed",
    "carried_in",
    "carried_to",
}
SEATING_KEYS = {"from_hand", "players", "dealer", "created_at"}
HAND_KEYS = {"number", "dealer", "input", "void_reason", "created_at", "revisions"}
REVISION_KEYS = {"version", "input", "void_reason", "at", "source", "correction"}
#: What the evening's head must share with its newest settings revision.
SHARED_SETTINGS = ("title", "place", "date", "options")


def stamp(value: datetime) -> str:
    """A UTC timestamp as ISO text."""
    return value.isoformat().replace("+00:00", "Z")


def identity(game: object, variant: object, created_at: object) -> tuple[str, str, str]:
    """What tells one evening from every other: its game and the moment it was started.

    Names are left out on purpose: an evening whose guest was anonymised after the backup
    is still the same evening, and restoring must not bring the name back.
    """
    when = created_at if isinstance(created_at, datetime) else None
    if isinstance(created_at, str):
        try:
            when = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
        except ValueError:
            when = None
    if when is None or when.tzinfo is None:
        return str(game), str(variant), ""
    return str(game), str(variant), stamp(when.astimezone(UTC))


def archive_of(evening_id: int) -> dict[str, Any] | None:
    """The archive of evening ``evening_id`` (``export_evening``); None when there is none.

    An archive holds every version of every hand and setting: it is read from the stored
    rows themselves, not from the facts an evening is replayed from.
    """
    evening = db.session.get(Evening, evening_id)
    return None if evening is None else export_evening(evening)


def export_evening(evening: Evening) -> dict[str, Any]:
    """Everything said at the table during ``evening``, as JSON-ready data; with its table
    group and who is who in it, when it belongs to one (docs/archives.md, "Groups")."""
    archive = _export(evening)
    if (group := table_groups.group_of(evening.id)) is not None:
        archive["group"] = {"name": group.name, "members": table_groups.members_at(group, evening)}
    if (carried := _export_carried(evening)) is not None:
        archive["carried"] = carried
    return archive


def _export_carried(evening: Evening) -> dict[str, Any] | None:
    """The pot ``evening`` took over, and the earlier evening it came from by what tells
    one evening from every other (``identity``), or None when it took over none."""
    link = evening.carried
    if link is None:
        return None
    earlier = None
    if link.from_evening_id is not None:
        # A backup reads from its own session: the earlier evening is looked up in it.
        session = object_session(evening) or db.session
        earlier = session.get(Evening, link.from_evening_id)
    source = None
    if earlier is not None:
        source = {
            "game": earlier.game,
            "variant": earlier.variant,
            "created_at": stamp(earlier.created_at),
        }
    return {"pot": link.pot, "from": source}


def _export(evening: Evening) -> dict[str, Any]:
    """The archive of ``evening`` without its group."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "evening": {
            "game": evening.game,
            "variant": evening.variant,
            "title": evening.title,
            "place": evening.place,
            "date": evening.date.isoformat() if evening.date else None,
            "options": dict(evening.options),
            "created_at": stamp(evening.created_at),
        },
        "settings_revisions": [
            {"version": r.version, "settings": r.settings, "at": stamp(r.at), "source": r.source}
            for r in evening.revisions
        ],
        "seatings": [
            {
                "from_hand": s.from_hand,
                "players": list(s.names),
                "dealer": s.dealer.name if s.dealer else None,
                "created_at": stamp(s.created_at),
            }
            for s in evening.seatings
        ],
        "hands": [
            {
                "number": h.number,
                "dealer": h.dealer.name,
                "input": h.input,
                "void_reason": h.void_reason,
                "created_at": stamp(h.created_at),
                "revisions": [
                    {
                        "version": r.version,
                        "input": r.input,
                        "void_reason": r.void_reason,
                        "at": stamp(r.at),
                        "source": r.source,
                        "correction": r.reason,
                    }
                    for r in h.history
                ],
            }
            for h in evening.hands
        ],
    }
