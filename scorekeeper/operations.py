"""The imperative shell: load rows, call the rules core, write facts. Flushes, never commits.

Every write replays the evening before it is kept, so a change that would make any hand
impossible (a later Kulanz larger than its pot, say) is refused and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from scorekeeper import ledger as ledger_mod
from scorekeeper.extensions import db
from scorekeeper.models import (
    Evening,
    EveningRevision,
    Hand,
    HandRevision,
    Player,
    Seat,
    Seating,
    utcnow,
)
from scorekeeper.rules import get_variant
from scorekeeper.rules.base import (
    ErrorCollector,
    HandInput,
    ImplausibleHandError,
    InvalidHandError,
    InvalidInputError,
    InvalidSettingsError,
    ScorekeeperError,
    Table,
    msg,
)
from scorekeeper.rules.options import parse_options
from scorekeeper.rules.rotation import DealtHand, next_table, seating_for
from scorekeeper.rules.rotation import Seating as SeatingFact
from scorekeeper.rules.variant import Variant
from scorekeeper.settlement import Settlement, settle
from scorekeeper.validation import (
    name_key,
    parse_evening,
    read_date,
    read_member,
    read_players,
    read_text,
    reject_unknown,
)

#: Keys of a hand body that belong to the shell, not to the variant's facts.
SHELL_KEYS = {"dealer", "confirm", "version"}


class StaleVersionError(ScorekeeperError):
    """The record changed since the client read it; the client must reload."""


class NotFoundError(ScorekeeperError):
    """No such hand in this evening."""


class AlreadyVoidError(ScorekeeperError):
    """The hand is voided already."""


class EveningClosedError(ScorekeeperError):
    """The evening was closed after its settlement was signed: reopen it to change it."""

    def __init__(self, evening_id: int) -> None:
        super().__init__(evening_id)
        self.evening_id = evening_id


def ensure_open(evening: Evening) -> None:
    """Refuse any change to a closed evening."""
    if evening.closed_at is not None:
        raise EveningClosedError(evening.id)


@dataclass(frozen=True, slots=True)
class EveningView:
    """An evening with everything derived from its facts."""

    evening: Evening
    variant: Variant
    seatings: tuple[SeatingFact, ...]
    ledger: ledger_mod.Ledger
    next_table: Table

    @property
    def players(self) -> tuple[str, ...]:
        """The table as it plays the next hand."""
        return self.next_table.players

    @property
    def all_players(self) -> tuple[str, ...]:
        """Everyone who played or sits at the table, in order of appearance."""
        seen = list(self.ledger.players)
        return tuple(seen + [p for p in self.players if p not in seen])

    def settlement(self, rule: str | None = None) -> Settlement:
        """The end of the evening in money, with the evening's end rule or ``rule``."""
        return settle(self.variant, self.evening.options, self.ledger, self.next_table, rule=rule)


@dataclass(frozen=True, slots=True)
class EveningSummary:
    """What lists of evenings show, without replaying any of them."""

    evening: Evening
    variant: Variant
    players: tuple[str, ...]
    hands: int
    last_activity: datetime


def summaries() -> list[EveningSummary]:
    """Every evening for the lists, most recently active first, in three queries."""
    counts = dict(
        db.session.execute(
            select(Hand.evening_id, func.count())
            .where(Hand.void_reason.is_(None))
            .group_by(Hand.evening_id)
        ).all()
    )
    latest = dict(
        db.session.execute(
            select(Hand.evening_id, func.max(Hand.updated_at)).group_by(Hand.evening_id)
        ).all()
    )
    evenings = db.session.scalars(
        select(Evening).options(
            selectinload(Evening.seatings).selectinload(Seating.seats).selectinload(Seat.player)
        )
    ).all()
    out = []
    for evening in evenings:
        touched = latest.get(evening.id)
        if touched is not None and touched.tzinfo is None:
            touched = touched.replace(tzinfo=UTC)
        out.append(
            EveningSummary(
                evening,
                get_variant(evening.game, evening.variant),
                evening.seatings[-1].names,
                counts.get(evening.id, 0),
                max(evening.updated_at, touched) if touched else evening.updated_at,
            )
        )
    return sorted(out, key=lambda s: (s.last_activity, s.evening.id), reverse=True)


def get_evening(evening_id: int) -> Evening | None:
    """An evening with its seatings and hands loaded in a few queries."""
    query = (
        select(Evening)
        .where(Evening.id == evening_id)
        .options(
            selectinload(Evening.seatings).selectinload(Seating.seats).selectinload(Seat.player),
            selectinload(Evening.seatings).selectinload(Seating.dealer),
            selectinload(Evening.hands).selectinload(Hand.dealer),
        )
    )
    return db.session.scalars(query).one_or_none()


def seating_facts(evening: Evening) -> tuple[SeatingFact, ...]:
    """The evening's seatings as the rules core sees them."""
    return tuple(
        SeatingFact(s.from_hand, s.names, s.dealer.name if s.dealer else None)
        for s in evening.seatings
    )


def records(evening: Evening, seatings: tuple[SeatingFact, ...]) -> list[ledger_mod.HandRecord]:
    """The stored hands as facts for the replay."""
    return [
        ledger_mod.HandRecord(
            hand.number,
            Table(seating_for(seatings, hand.number).players, hand.dealer.name),
            hand.input,
            hand.void_reason is not None,
        )
        for hand in evening.hands
    ]


def view(evening: Evening, hand_records: list[ledger_mod.HandRecord] | None = None) -> EveningView:
    """Replay an evening (optionally with changed hand records, to test a change)."""
    variant = get_variant(evening.game, evening.variant)
    seatings = seating_facts(evening)
    hand_records = records(evening, seatings) if hand_records is None else hand_records
    replayed = ledger_mod.replay(variant, evening.options, hand_records)
    dealt = [DealtHand(r.number, r.table.dealer, r.void) for r in hand_records]
    return EveningView(evening, variant, seatings, replayed, next_table(seatings, dealt))


def player_named(name: str) -> Player:
    """The player of that name, created on first use."""
    player = db.session.scalars(select(Player).where(Player.name_key == name_key(name))).first()
    if player is None:
        player = Player(name=name.strip(), name_key=name_key(name))
        db.session.add(player)
    return player


def evening_settings(evening: Evening) -> dict[str, Any]:
    """The correctable settings of an evening, as kept in its revisions."""
    seating = evening.seatings[0]
    return {
        "title": evening.title,
        "place": evening.place,
        "date": evening.date.isoformat() if evening.date else None,
        "first_dealer": seating.dealer.name if seating.dealer else None,
        "options": dict(evening.options),
        "language": evening.language,
        "closed": evening.closed_at is not None,
    }


def create_evening(raw: object, *, source: str) -> Evening:
    """Store a new evening with its first seating."""
    settings = parse_evening(raw)
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
    return evening


def split_body(raw: object) -> tuple[dict[str, object], dict[str, object]]:
    """Separate the shell's keys (dealer, confirm, version) from the hand's facts."""
    if not isinstance(raw, Mapping):
        raise InvalidHandError.single("body", msg("Send the hand as a JSON object."))
    facts = {k: v for k, v in raw.items() if k not in SHELL_KEYS}
    shell = {k: v for k, v in raw.items() if k in SHELL_KEYS}
    if "confirm" in shell and not isinstance(shell["confirm"], bool):
        raise InvalidHandError.single("confirm", msg("Confirm with true or false."))
    return facts, shell


def check_hand(
    current: EveningView, facts: Mapping[str, object], table: Table, *, confirm: bool
) -> HandInput:
    """Parse a hand against its table and ask for confirmation of implausible facts."""
    hand = current.variant.parse_hand(facts, table, current.evening.options)
    warnings = current.variant.warnings(hand, table, current.evening.options)
    if warnings and not confirm:
        raise ImplausibleHandError(warnings)
    return hand


def checked_view(evening: Evening, changed: ledger_mod.HandRecord | None = None) -> EveningView:
    """Replay the evening (with one hand added or replaced), refusing what no longer fits.

    A stored hand that the change makes impossible is named in the message, so the table
    knows which later hand stands in the way.
    """
    seatings = seating_facts(evening)
    hand_records = records(evening, seatings)
    if changed is not None:
        hand_records = [r for r in hand_records if r.number != changed.number] + [changed]
        hand_records.sort(key=lambda r: r.number)
    try:
        return view(evening, hand_records)
    except InvalidInputError as error:
        if error.hand is None or (changed is not None and error.hand == changed.number):
            raise
        raise InvalidHandError(
            {
                field: [
                    msg("Hand {n} would no longer fit: {reason}", n=error.hand, reason=m)
                    for m in messages
                ]
                for field, messages in error.errors.items()
            }
        ) from error


def prepare_hand(evening: Evening, raw: object) -> tuple[ledger_mod.HandRecord, EveningView]:
    """The next hand as it would be recorded, and the evening replayed with it.

    Shared by recording and the live preview, so the preview shows exactly what saving does.
    """
    current = view(evening)
    facts, shell = split_body(raw)
    table = current.next_table
    if shell.get("dealer") is not None:
        errors = ErrorCollector()
        dealer = read_member(shell["dealer"], table.players, errors, "dealer")
        errors.raise_if_any(InvalidHandError)
        table = Table(table.players, dealer or table.dealer)
    hand_input = check_hand(current, facts, table, confirm=bool(shell.get("confirm")))
    number = max((h.number for h in evening.hands), default=0) + 1
    record = ledger_mod.HandRecord(number, table, hand_input.to_json())
    return record, checked_view(evening, record)


def record_hand(evening: Evening, raw: object, *, source: str) -> Hand:
    """Record the next hand; the dealer is proposed by the rotation unless given."""
    ensure_open(evening)
    record, _ = prepare_hand(evening, raw)
    stored = dict(record.facts)
    hand = Hand(
        evening=evening,
        number=record.number,
        dealer=player_named(record.table.dealer),
        input=stored,
        version=1,
    )
    db.session.add(hand)
    db.session.add(HandRevision(hand=hand, version=1, input=stored, source=source))
    db.session.flush()
    return hand


def find_hand(evening: Evening, number: int) -> Hand:
    """The evening's hand with that number."""
    for hand in evening.hands:
        if hand.number == number:
            return hand
    raise NotFoundError(number)


def check_version(value: object, current: int) -> None:
    """Refuse a change made to an older version than the stored one."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidHandError.single(
            "version", msg("Send the version you read, as a whole number.")
        )
    if value != current:
        raise StaleVersionError(current)


def replace_hand(evening: Evening, number: int, raw: object, *, source: str) -> Hand:
    """Replace a hand's facts; later hands are recomputed, dealers stay where they were."""
    ensure_open(evening)
    hand = find_hand(evening, number)
    facts, shell = split_body(raw)
    check_version(shell.get("version"), hand.version)
    current = view(evening)
    seatings = seating_facts(evening)
    table = Table(seating_for(seatings, number).players, hand.dealer.name)
    hand_input = check_hand(current, facts, table, confirm=bool(shell.get("confirm")))
    stored = hand_input.to_json()
    checked_view(evening, ledger_mod.HandRecord(number, table, stored))
    hand.input = stored
    hand.void_reason = None
    hand.version += 1
    hand.updated_at = utcnow()
    db.session.add(HandRevision(hand=hand, version=hand.version, input=stored, source=source))
    db.session.flush()
    return hand


def void_hand(evening: Evening, number: int, raw: object, *, source: str) -> Hand:
    """Void a hand with a reason: it stays in the record with no effect."""
    ensure_open(evening)
    hand = find_hand(evening, number)
    if hand.void_reason is not None:
        raise AlreadyVoidError(number)
    errors = ErrorCollector()
    body = raw if isinstance(raw, Mapping) else {}
    reason = body.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        errors.add("reason", msg("Say why the hand is voided."))
    elif len(reason) > 500:
        errors.add("reason", msg("This can be at most {n} characters long.", n=500))
    if "version" in body:
        check_version(body["version"], hand.version)
    errors.raise_if_any(InvalidHandError)
    assert isinstance(reason, str)
    seatings = seating_facts(evening)
    table = Table(seating_for(seatings, number).players, hand.dealer.name)
    checked_view(evening, ledger_mod.HandRecord(number, table, hand.input, void=True))
    hand.void_reason = reason.strip()
    hand.version += 1
    hand.updated_at = utcnow()
    db.session.add(
        HandRevision(
            hand=hand,
            version=hand.version,
            input=hand.input,
            void_reason=hand.void_reason,
            source=source,
        )
    )
    db.session.flush()
    return hand


def change_seating(evening: Evening, raw: object, *, source: str) -> Seating:
    """Change the table from the next hand on (players join, leave or swap seats)."""
    ensure_open(evening)
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("body", msg("Send the seating as a JSON object."))
    errors = ErrorCollector()
    reject_unknown(raw, {"players", "dealer"}, errors)
    variant = get_variant(evening.game, evening.variant)
    names = read_players(raw.get("players"), variant, errors)
    dealer = read_member(raw.get("dealer"), names, errors, "dealer")
    errors.raise_if_any(InvalidSettingsError)
    number = max((h.number for h in evening.hands), default=0) + 1
    players = [player_named(name) for name in names]
    seating = Seating(
        evening=evening,
        from_hand=number,
        dealer=players[names.index(dealer)] if dealer else None,
    )
    seating.seats = [Seat(position=i, player=p) for i, p in enumerate(players)]
    db.session.add(seating)
    db.session.flush()
    db.session.expire(evening, ["seatings"])
    view(evening)
    return seating


def correct_evening(evening: Evening, raw: object, *, source: str) -> Evening:
    """Correct an evening's settings (title, place, date, first dealer, options)."""
    ensure_open(evening)
    if not isinstance(raw, Mapping):
        raise InvalidSettingsError.single("body", msg("Send the changes as a JSON object."))
    errors = ErrorCollector()
    reject_unknown(raw, {"version", "title", "place", "date", "first_dealer", "options"}, errors)
    version = raw.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        errors.add("version", msg("Send the version you read, as a whole number."))
        errors.raise_if_any(InvalidSettingsError)
    if version != evening.version:
        raise StaleVersionError(evening.version)
    variant = get_variant(evening.game, evening.variant)
    first = evening.seatings[0]
    changes: dict[str, Any] = {}
    for key in ("title", "place"):
        if key in raw:
            changes[key] = read_text(raw, key, errors)
    if "date" in raw:
        changes["date"] = read_date(raw, errors)
    if "first_dealer" in raw:
        changes["first_dealer"] = read_member(
            raw["first_dealer"], first.names, errors, "first_dealer"
        )
    if "options" in raw:
        given = raw["options"]
        if not isinstance(given, Mapping):
            errors.add("options", msg("Options must be an object."))
        else:
            try:
                changes["options"] = parse_options(
                    variant.option_specs, {**evening.options, **given}
                )
            except InvalidSettingsError as error:
                for field, messages in error.errors.items():
                    for message in messages:
                        errors.add(field, message)
    errors.raise_if_any(InvalidSettingsError)
    for key in ("title", "place", "date", "options"):
        if key in changes:
            setattr(evening, key, changes[key])
    if changes.get("first_dealer"):
        first.dealer = player_named(changes["first_dealer"])
    checked_view(evening)  # refuse options under which a stored hand would not fit
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
    return evening


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


def set_closed(evening: Evening, closed: bool, *, source: str) -> Evening:
    """Close an evening once its settlement is signed, or reopen it; both leave a trace."""
    if (evening.closed_at is not None) == closed:
        return evening
    evening.closed_at = utcnow() if closed else None
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
    return evening
