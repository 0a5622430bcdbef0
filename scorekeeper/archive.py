"""Whole evenings as JSON archives: export everything that was said, import it elsewhere.

An archive holds the facts only (settings with their revisions, seatings, every hand input
with its revisions and voids), never a derived number: importing it replays to exactly the
same ledger. A damaged or foreign file is refused as a whole, with a message that says why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from scorekeeper import operations
from scorekeeper.extensions import db
from scorekeeper.models import (
    Evening,
    EveningRevision,
    Hand,
    HandRevision,
    Player,
    Seat,
    Seating,
)
from scorekeeper.operations.hands import MAX_HANDS
from scorekeeper.rules import get_variant
from scorekeeper.rules.base import InvalidInputError, InvalidSettingsError, Message, msg
from scorekeeper.rules.options import parse_options
from scorekeeper.validation import (
    LANGUAGES,
    TEXT_LENGTH,
    VOID_LENGTH,
    name_key,
    name_problem,
)

#: The largest number a hand, seating or version can have: what an integer column holds
#: on PostgreSQL (SQLite would take more, and fail only past 2**63).
MAX_NUMBER = 2**31 - 1

FORMAT = "scorekeeper-evening"
VERSION = 1
#: How much of a revision's ``source`` is kept (its column's width).
SOURCE_LENGTH = 40


def stamp(value: datetime) -> str:
    """A UTC timestamp as ISO text."""
    return value.isoformat().replace("+00:00", "Z")


def export_evening(evening: Evening) -> dict[str, Any]:
    """Everything said at the table during ``evening``, as JSON-ready data."""
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
                    }
                    for r in h.history
                ],
            }
            for h in evening.hands
        ],
    }


class ArchiveError(InvalidSettingsError):
    """The file is not an archive this installation can read."""


def _fail(message: Message) -> ArchiveError:
    return ArchiveError({"file": (message,)})


#: Numbers (hand numbers, versions) count from 1 and must fit every database's integers
#: (PostgreSQL's are 32 bits).
NUMBER_RANGE = range(1, 2**31)


def _need(data: object, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    # ``data`` comes from the file: a list entry may be anything, not only an object.
    value = data.get(key) if isinstance(data, Mapping) else None
    if (
        not isinstance(value, kind)
        or (isinstance(value, bool) and kind is not bool)
        or (kind is int and value not in NUMBER_RANGE)
    ):
        raise _fail(msg("The file is damaged: {where} has no valid {key}.", where=where, key=key))
    return value


def _number(data: Mapping[str, Any], key: str, where: str) -> int:
    """A hand number, seating start or version: a whole number a database column holds."""
    value = _need(data, key, int, where)
    if not 1 <= value <= MAX_NUMBER:
        raise _fail(msg("The file is damaged: {where} has no valid {key}.", where=where, key=key))
    return int(value)


def _text(value: object, limit: int) -> str:
    """A free text of the archive (title, source, void reason), cut to its length, without
    NUL characters, which PostgreSQL cannot store."""
    return str(value or "").replace("\x00", "")[:limit]


def _time(value: object, where: str) -> datetime:
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            pass
        else:
            # Archives write UTC; a time without its zone is read as UTC, so that it
            # compares with the others.
            return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    raise _fail(msg("The file is damaged: {where} has no valid time.", where=where))


def import_evening(data: object, *, source: str = "import") -> Evening:
    """Store an archived evening as a new one; refuse the whole file if anything is off."""
    with db.session.no_autoflush:
        evening = _build(data, source)
    try:
        db.session.flush()
    except IntegrityError:
        raise _fail(msg("The file is damaged: two hands or seatings share a number.")) from None
    db.session.expire(evening)
    try:
        operations.view(operations.get_evening(evening.id) or evening)
    except InvalidInputError as error:
        raise _fail(
            msg("The file is damaged: hand {n} does not fit the rules.", n=error.hand or "?")
        ) from error
    except ValueError:
        raise _fail(msg("The file is damaged: a dealer is not at the table.")) from None
    return evening


def _build(data: object, source: str) -> Evening:
    """The evening and its rows from an archive, checked piece by piece; not yet flushed."""
    people: dict[str, Player] = {}

    def person(name: str, where: str, field: str) -> Player:
        # Rows are not flushed while the archive is read, so each name is looked up once.
        if not name.strip() or name_problem(name.strip()) is not None:
            raise _fail(
                msg("The file is damaged: {where} has no valid {key}.", where=where, key=field)
            )
        key = name_key(name)
        if key not in people:
            people[key] = operations.player_named(name)
        return people[key]

    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise _fail(msg("This is not a Scorekeeper evening archive."))
    if data.get("version") != VERSION:
        raise _fail(msg("This archive was written by another version of Scorekeeper."))
    head = _need(data, "evening", Mapping, "the evening")
    variant = get_variant(_need(head, "game", str, "the evening"), head.get("variant"))
    options = parse_options(variant.option_specs, _need(head, "options", Mapping, "the evening"))
    day = head.get("date")
    try:
        when = date.fromisoformat(day) if isinstance(day, str) else None
    except ValueError:
        raise _fail(msg("The file is damaged: the evening has no valid date.")) from None
    evening = Evening(
        game=variant.game,
        variant=variant.key,
        title=_text(head.get("title"), TEXT_LENGTH),
        place=_text(head.get("place"), TEXT_LENGTH),
        date=when,
        options=options,
        created_at=_time(head.get("created_at"), "the evening"),
    )
    db.session.add(evening)
    seatings = _need(data, "seatings", list, "the archive")
    first = seatings[0] if seatings else None
    if not isinstance(first, Mapping) or first.get("from_hand") != 1:
        raise _fail(msg("The file is damaged: the first seating is missing."))
    for i, raw in enumerate(seatings, start=1):
        where = f"seating {i}"
        names = _need(raw, "players", list, where)
        if not all(isinstance(n, str) and n.strip() for n in names) or len(
            {name_key(n) for n in names}
        ) != len(names):
            raise _fail(msg("The file is damaged: {where} has no valid players.", where=where))
        if not variant.allows_players(len(names)):
            raise _fail(msg("The file is damaged: {where} has no valid players.", where=where))
        players = [person(n, where, "players") for n in names]
        dealer = raw.get("dealer")
        if dealer is not None and dealer not in names:
            raise _fail(msg("The file is damaged: {where} has no valid dealer.", where=where))
        seating = Seating(
            evening=evening,
            from_hand=_number(raw, "from_hand", where),
            dealer=person(dealer, where, "dealer") if isinstance(dealer, str) else None,
            created_at=_time(raw.get("created_at"), where),
        )
        seating.seats = [Seat(position=p, player=pl) for p, pl in enumerate(players)]
        db.session.add(seating)
    hands = _need(data, "hands", list, "the archive")
    if len(hands) > MAX_HANDS:
        raise _fail(
            msg("The file holds more than {n} hands: too many for one evening.", n=MAX_HANDS)
        )
    for raw in hands:
        _import_hand(evening, raw, person)
    for raw in _need(data, "settings_revisions", list, "the archive"):
        db.session.add(
            EveningRevision(
                evening=evening,
                version=_number(raw, "version", "a settings revision"),
                settings=_need(raw, "settings", Mapping, "a settings revision"),
                at=_time(raw.get("at"), "a settings revision"),
                source=_text(raw.get("source"), SOURCE_LENGTH),
            )
        )
    latest = max(evening.revisions, key=lambda r: r.version, default=None)
    if latest is not None:
        # The archive's head has no language or closing; its newest settings hold both.
        if latest.settings.get("language") in LANGUAGES:
            evening.language = latest.settings["language"]
        if latest.settings.get("closed") is True:
            evening.closed_at = latest.at
    evening.version = max((r.version for r in evening.revisions), default=1)
    evening.revisions.append(
        EveningRevision(
            version=evening.version + 1,
            settings=operations.evening_settings(evening),
            source=source,
        )
    )
    evening.version += 1
    return evening


def _import_hand(evening: Evening, raw: object, person: Callable[[str, str, str], Player]) -> None:
    where = f"hand {raw.get('number', '?') if isinstance(raw, Mapping) else '?'}"
    revisions = _need(raw, "revisions", list, where)
    if not revisions:
        raise _fail(msg("The file is damaged: {where} has no history.", where=where))
    void = raw.get("void_reason")
    hand = Hand(
        evening=evening,
        number=_number(raw, "number", where),
        dealer=person(_need(raw, "dealer", str, where), where, "dealer"),
        input=_need(raw, "input", Mapping, where),
        void_reason=_text(void, VOID_LENGTH) if isinstance(void, str) else None,
        version=len(revisions),
        created_at=_time(raw.get("created_at"), where),
    )
    for rev in revisions:
        hand.revisions.append(
            HandRevision(
                version=_number(rev, "version", where),
                input=_need(rev, "input", Mapping, where),
                void_reason=_text(rev["void_reason"], VOID_LENGTH)
                if isinstance(rev.get("void_reason"), str)
                else None,
                at=_time(rev.get("at"), where),
                source=_text(rev.get("source"), SOURCE_LENGTH),
            )
        )
    hand.version = max(r.version for r in hand.revisions)
    hand.updated_at = max(r.at for r in hand.revisions)
    db.session.add(hand)
