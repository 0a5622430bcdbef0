"""Writing evenings: creating them, changing the table, correcting settings, closing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import select

from scorekeeper.core.names import clean_text
from scorekeeper.core.rules.base import (
    ErrorCollector,
    InvalidSettingsError,
    msg,
)
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.rules.parsing import reject_unknown
from scorekeeper.core.validation import (
    name_key,
    parse_evening,
    read_date,
    read_member,
    read_players,
    read_text,
)
from scorekeeper.db import unit_of_work
from scorekeeper.db.extensions import db
from scorekeeper.db.models import (
    Evening,
    EveningRevision,
    Player,
    Seat,
    Seating,
    TableGroup,
    utcnow,
)
from scorekeeper.operations.carried_pots import carry_forward, carry_into
from scorekeeper.operations.errors import StaleVersionError, ensure_open
from scorekeeper.operations.evening_revisions import add_revision, evening_settings
from scorekeeper.operations.snapshots import stored_view, written
from scorekeeper.operations.table_groups import ensure_members, group_of, put_in_group
from scorekeeper.operations.views import EveningView, checked, lock_evening, take_lock

#: Seatings of one evening, the first included. Every read of an evening goes through its
#: seatings; tables change a handful of times in an evening, and once per hand at most
#: makes sense, so a thousand is far beyond any evening while keeping its reads quick
#: (docs/limits.md).
MAX_SEATINGS = 1000


def player_named(name: str) -> Player:
    """The player of that name (or of one that looks the same, ``name_key``), created on
    first use with the name as stored: composed, without invisible characters (a name from
    an archive written before names were checked so, docs/limits.md "Names that look
    alike")."""
    player = db.session.scalars(select(Player).where(Player.name_key == name_key(name))).first()
    if player is None:
        player = Player(name=clean_text(name), name_key=name_key(name))
        db.session.add(player)
    return player


def create_evening(raw: object, *, source: str) -> Evening:
    """Store a new evening with its first seating."""
    settings = parse_evening(raw)
    if settings.carried_from is not None:
        # The earlier evening's pot is read under its lock, taken before anything is
        # written (as every write to an evening does), so no hand slips in between.
        take_lock(settings.carried_from)
    evening = Evening(
        game=settings.variant.game,
        variant=settings.variant.key,
        language=settings.language,
        title=settings.title,
        place=settings.place,
        date=settings.date,
        options=settings.options,
    )
    db.session.add(evening)
    players = [player_named(name) for name in settings.players]
    dealer = players[settings.players.index(settings.first_dealer)]
    seating = Seating(evening=evening, from_hand=1, dealer=dealer)
    seating.seats = [Seat(position=i, player=p) for i, p in enumerate(players)]
    db.session.add(seating)
    db.session.flush()
    db.session.add(
        EveningRevision(
            evening=evening, version=1, settings=evening_settings(evening), source=source
        )
    )
    db.session.flush()
    if settings.group is not None:
        put_in_group(evening, group_for_evening(settings.group))
    if settings.carried_from is not None:
        if settings.group is None:
            put_in_group(evening, group_of_earlier(settings.carried_from))
        carry_into(evening.id, settings.carried_from, source=source)
    return evening


def group_of_earlier(evening_id: int) -> TableGroup | None:
    """The group of the evening whose pot a new evening takes over: the new evening joins
    it when no group was chosen (``carry_into`` refuses when there is none)."""
    return group_of(evening_id)


def group_for_evening(group_id: int) -> TableGroup:
    """The group a new evening is to join; an unknown one is refused at its field."""
    group = db.session.get(TableGroup, group_id)
    if group is None:
        refusal = msg("There is no group {n}; choose one from the list, or none.", n=group_id)
        raise InvalidSettingsError.single("group", refusal)
    return group


def locked(evening_id: int) -> tuple[Evening, EveningView]:
    """The evening's row to change, and the evening as stored now, under its lock."""
    return lock_evening(evening_id), stored_view(evening_id)


def change_seating(evening_id: int, raw: object, *, source: str) -> EveningView:
    """Change the table from the next hand on (players join, leave or swap seats); the
    evening as it now stands."""
    row, current = locked(evening_id)
    ensure_open(current.evening)
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("body", msg("Send the seating as a JSON object."))
    if len(current.seatings) >= MAX_SEATINGS:
        raise InvalidSettingsError.single(
            "players",
            msg("An evening's table can change at most {n} times.", n=MAX_SEATINGS - 1),
        )
    errors = ErrorCollector()
    reject_unknown(raw, {"players", "dealer"}, errors)
    seated = [name for seating in current.seatings for name in seating.players]
    names = read_players(raw.get("players"), current.variant, errors, seated=seated)
    dealer = read_member(raw.get("dealer"), names, errors, "dealer")
    errors.raise_if_any(InvalidSettingsError)
    players = [player_named(name) for name in names]
    seating = Seating(
        evening=row,
        from_hand=max((h.number for h in current.evening.hands), default=0) + 1,
        dealer=players[names.index(dealer)] if dealer else None,
    )
    seating.seats = [Seat(position=i, player=p) for i, p in enumerate(players)]
    db.session.add(seating)
    db.session.flush()
    if (group := group_of(evening_id)) is not None:
        ensure_members(group, players)
    return written(evening_id, current.ledger)


def correct_evening(evening_id: int, raw: object, *, source: str) -> EveningView:
    """Correct an evening's settings (title, place, date, first dealer, options); the
    evening as it now stands."""
    row, current = locked(evening_id)
    facts = current.evening
    ensure_open(facts)
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("body", msg("Send the changes as a JSON object."))
    errors = ErrorCollector()
    reject_unknown(raw, {"version", "title", "place", "date", "first_dealer", "options"}, errors)
    version = raw.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        errors.add("version", msg("Send the version you read, as a whole number."))
        errors.raise_if_any(InvalidSettingsError)
    if version != facts.version:
        raise StaleVersionError(facts.version)
    changes = read_setting_changes(current, raw, current.seatings[0].players, errors)
    errors.raise_if_any(InvalidSettingsError)
    for key in ("title", "place", "date", "options"):
        if key in changes:
            setattr(row, key, changes[key])
    # Refuse options under which a stored hand would not fit; the first dealer changes no
    # stored hand (each keeps who dealt it).
    replayed = checked(replace(facts, options=changes.get("options", facts.options)))
    if changes.get("first_dealer"):
        first = db.session.scalars(
            select(Seating).where(Seating.evening_id == evening_id).order_by(Seating.from_hand)
        ).first()
        assert first is not None  # every evening starts with a seating
        first.dealer = player_named(changes["first_dealer"])
    add_revision(row, source=source)
    carry_forward(replayed, source=source)
    return written(evening_id, replayed.ledger)


def read_setting_changes(
    current: EveningView, raw: Mapping[str, Any], names: Sequence[str], errors: ErrorCollector
) -> dict[str, Any]:
    """The settings a correction changes, read and checked; problems go to ``errors``.
    Options are checked merged with the evening's, as they will be stored."""
    changes: dict[str, Any] = {}
    for key in ("title", "place"):
        if key in raw:
            changes[key] = read_text(raw, key, errors)
    if "date" in raw:
        changes["date"] = read_date(raw, errors)
    if "first_dealer" in raw:
        changes["first_dealer"] = read_member(raw["first_dealer"], names, errors, "first_dealer")
    if "options" in raw:
        given = raw["options"]
        if not isinstance(given, Mapping):
            errors.add("options", msg("Options must be an object."))
            return changes
        try:
            changes["options"] = parse_options(
                current.variant.option_specs, {**current.evening.options, **given}
            )
        except InvalidSettingsError as error:
            for field, messages in error.errors.items():
                for message in messages:
                    errors.add(field, message)
    return changes


def read_end_rule(current: EveningView, value: str | None) -> str | None:
    """An end-of-evening rule asked for on the settlement page or API (None: the evening's)."""
    if value is None or value == "":
        return None
    key = current.variant.end_rule_option
    spec = next((s for s in current.variant.option_specs if s.key == key), None)
    if spec is None or spec.problem(value) is not None:
        problem = spec.problem(value) if spec is not None else None
        raise InvalidSettingsError.single(
            key or "end_pot", problem or msg("This game has no end-of-evening rule to choose.")
        )
    return value


#: Where a unit of work notes the evenings it closed (by id): once it commits, the shell
#: asks for their printouts ahead (``web/evenings/exports.py``).
CLOSED = "closed_evenings"


def set_closed(evening_id: int, closed: bool, *, source: str) -> EveningView:
    """Close an evening once its settlement is signed, or reopen it; both leave a trace.
    A close is noted in the unit of work (``CLOSED``). The evening as it now stands."""
    row, current = locked(evening_id)
    if (row.closed_at is not None) == closed:
        return current
    row.closed_at = utcnow() if closed else None
    add_revision(row, source=source)
    if closed:
        unit_of_work.current().info.setdefault(CLOSED, set()).add(evening_id)
    return written(evening_id, current.ledger)
