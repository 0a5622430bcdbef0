"""Writing hands: record the next one, replace one, void one; each checked by a replay."""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper import ledger as ledger_mod
from scorekeeper.extensions import db
from scorekeeper.models import (
    Evening,
    Hand,
    HandRevision,
    utcnow,
)
from scorekeeper.operations.errors import (
    AlreadyVoidError,
    NotFoundError,
    StaleVersionError,
    ensure_open,
)
from scorekeeper.operations.evenings import player_named, set_closed
from scorekeeper.operations.views import (
    EveningView,
    checked_view,
    get_evening,
    lock_evening,
    seating_facts,
    stored_stamp,
    take_lock,
    upcoming_table,
    write_stamp,
)
from scorekeeper.rules import get_variant
from scorekeeper.rules.base import (
    ErrorCollector,
    HandInput,
    ImplausibleHandError,
    InvalidHandError,
    Table,
    msg,
)
from scorekeeper.rules.rotation import seating_for
from scorekeeper.validation import VOID_LENGTH, read_member, text_problem

#: Keys of a hand body that belong to the shell, not to the variant's facts (``correction``:
#: the organiser's reason for changing a closed tournament table).
SHELL_KEYS = {"dealer", "confirm", "version", "correction"}


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
    evening: Evening, facts: Mapping[str, object], table: Table, *, confirm: bool
) -> HandInput:
    """Parse a hand against its table and ask for confirmation of implausible facts."""
    variant = get_variant(evening.game, evening.variant)
    hand = variant.parse_hand(facts, table, evening.options)
    warnings = variant.warnings(hand, table, evening.options)
    if warnings and not confirm:
        raise ImplausibleHandError(warnings)
    return hand


def prepare_hand(evening: Evening, raw: object) -> tuple[ledger_mod.HandRecord, EveningView]:
    """The next hand as it would be recorded, and the evening replayed with it.

    Shared by recording and the live preview, so the preview shows exactly what saving does.
    """
    facts, shell = split_body(raw)
    table = upcoming_table(evening)
    if shell.get("dealer") is not None:
        errors = ErrorCollector()
        dealer = read_member(shell["dealer"], table.players, errors, "dealer")
        errors.raise_if_any(InvalidHandError)
        table = Table(table.players, dealer or table.dealer)
    hand_input = check_hand(evening, facts, table, confirm=bool(shell.get("confirm")))
    number = max((h.number for h in evening.hands), default=0) + 1
    record = ledger_mod.HandRecord(number, table, hand_input.to_json())
    return record, checked_view(evening, record)


def record_hand(evening: Evening, raw: object, *, source: str) -> tuple[Hand, EveningView]:
    """Record the next hand; the dealer is proposed by the rotation unless given.

    The hand is checked (a replay of the evening) before the evening's lock is taken, so
    tablets saving to a busy server queue only for the write itself; if another write
    reached the evening meanwhile, it is checked again under the lock. Returns the hand and
    the evening as replayed to check it, which is the evening as it now stands: the answer
    is made from it rather than from a second replay.
    """
    stamp = write_stamp(evening)
    ensure_open(evening)
    record, checked = prepare_hand(evening, raw)
    take_lock(evening.id)
    if stored_stamp(evening.id) != stamp:
        get_evening(evening.id, fresh=True)
        ensure_open(evening)
        record, checked = prepare_hand(evening, raw)
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
    close_when_due(evening, source=source)
    return hand, checked


def close_when_due(evening: Evening, *, source: str) -> None:
    """Close an evening of a fixed length (a tournament table) once its last hand is in."""
    if evening.hands_due is None:
        return
    played = sum(1 for h in evening.hands if h.void_reason is None)
    if played >= evening.hands_due:
        set_closed(evening, True, source=source)


def hands_left(evening: Evening) -> int | None:
    """How many hands an evening of a fixed length still has to play (None: open-ended)."""
    if evening.hands_due is None:
        return None
    played = sum(1 for h in evening.hands if h.void_reason is None)
    return max(evening.hands_due - played, 0)


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


def replace_hand(
    evening: Evening, number: int, raw: object, *, source: str, correction: str | None = None
) -> tuple[Hand, EveningView]:
    """Replace a hand's facts; later hands are recomputed, dealers stay where they were.

    ``correction`` is the reason for changing a closed evening, kept with the revision.
    Returns the hand and the evening replayed with it (see ``record_hand``).
    """
    lock_evening(evening)
    ensure_open(evening, correction=correction)
    hand = find_hand(evening, number)
    facts, shell = split_body(raw)
    check_version(shell.get("version"), hand.version)
    seatings = seating_facts(evening)
    table = Table(seating_for(seatings, number).players, hand.dealer.name)
    hand_input = check_hand(evening, facts, table, confirm=bool(shell.get("confirm")))
    stored = hand_input.to_json()
    checked = checked_view(evening, ledger_mod.HandRecord(number, table, stored))
    hand.input = stored
    hand.void_reason = None
    hand.version += 1
    hand.updated_at = utcnow()
    db.session.add(
        HandRevision(
            hand=hand, version=hand.version, input=stored, source=source, reason=correction
        )
    )
    db.session.flush()
    return hand, checked


def void_hand(
    evening: Evening, number: int, raw: object, *, source: str, correction: str | None = None
) -> tuple[Hand, EveningView]:
    """Void a hand with a reason: it stays in the record with no effect.

    ``correction`` is the reason for changing a closed evening, kept with the revision.
    Returns the hand and the evening replayed without it (see ``record_hand``).
    """
    lock_evening(evening)
    ensure_open(evening, correction=correction)
    hand = find_hand(evening, number)
    if hand.void_reason is not None:
        raise AlreadyVoidError(number)
    errors = ErrorCollector()
    body = raw if isinstance(raw, Mapping) else {}
    reason = body.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        errors.add("reason", msg("Say why the hand is voided."))
    elif (problem := text_problem(reason, VOID_LENGTH)) is not None:
        errors.add("reason", problem)
    if "version" in body:
        check_version(body["version"], hand.version)
    errors.raise_if_any(InvalidHandError)
    assert isinstance(reason, str)
    seatings = seating_facts(evening)
    table = Table(seating_for(seatings, number).players, hand.dealer.name)
    checked = checked_view(evening, ledger_mod.HandRecord(number, table, hand.input, void=True))
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
            reason=correction,
        )
    )
    db.session.flush()
    return hand, checked
