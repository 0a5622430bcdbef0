"""Writing hands: record the next one, replace one, void one; each checked by a replay."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, literal, select

from scorekeeper.core import ledger as ledger_mod
from scorekeeper.core import undo
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import (
    ErrorCollector,
    HandInput,
    ImplausibleHandError,
    InvalidHandError,
    Table,
    msg,
)
from scorekeeper.core.rules.rotation import seating_for
from scorekeeper.core.validation import VOID_LENGTH, read_member, text_problem
from scorekeeper.db import unit_of_work
from scorekeeper.db.cursor_statements import Direct
from scorekeeper.db.extensions import db
from scorekeeper.db.models import (
    Hand,
    HandRevision,
    utcnow,
)
from scorekeeper.operations.carried_pots import carry_forward
from scorekeeper.operations.errors import (
    AlreadyVoidError,
    HandNumberTakenError,
    NotFoundError,
    SessionNeededError,
    StaleVersionError,
    UndoRefusedError,
    ensure_open,
)
from scorekeeper.operations.evenings import set_closed
from scorekeeper.operations.facts import (
    EVENING,
    EveningFacts,
    HandFact,
    Stamp,
    stamp_params,
    unchanged,
)
from scorekeeper.operations.snapshots import (
    keep_after_commit,
    locked_view,
    stored_view,
    written,
)
from scorekeeper.operations.views import (
    EveningView,
    checked,
    table_after,
    take_lock,
)

#: Keys of a hand body that belong to the shell, not to the variant's facts (``correction``:
#: the organiser's reason for changing a closed tournament table; ``number``: the number a
#: new hand expects to get).
SHELL_KEYS = {"dealer", "confirm", "version", "correction", "number"}
HAND_TABLE = Hand.__table__


def _add_hand(*, locking: bool) -> Direct:
    """The next hand's row, inserted only while the evening's stamp is the one it was
    checked against (``facts.unchanged``): checking and writing in one statement keeps the
    write lock short. ``locking``: the statement takes the evening's row lock itself (for
    a statement that commits on its own, see ``store_hand``)."""
    evening = unchanged(
        EVENING.c.id,
        bindparam("number", type_=HAND_TABLE.c.number.type),
        bindparam("dealer_id", type_=HAND_TABLE.c.dealer_id.type),
        bindparam("input", type_=HAND_TABLE.c.input.type),
        literal(1, HAND_TABLE.c.version.type),
        bindparam("at", type_=HAND_TABLE.c.created_at.type),
        bindparam("at", type_=HAND_TABLE.c.updated_at.type),
        bindparam("source", type_=HAND_TABLE.c.source.type),
    )
    if locking:
        evening = evening.with_for_update(of=EVENING)
    columns = [
        "evening_id",
        "number",
        "dealer_id",
        "input",
        "version",
        "created_at",
        "updated_at",
        "source",
    ]
    return Direct(insert(HAND_TABLE).from_select(columns, evening).returning(HAND_TABLE.c.id))


#: Built once, since building them costs more than running them.
ADD_HAND = _add_hand(locking=False)
ADD_HAND_LOCKING = _add_hand(locking=True)


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
    evening: EveningFacts, facts: Mapping[str, object], table: Table, *, confirm: bool
) -> HandInput:
    """Parse a hand as entered against its table (``Variant.parse_entry``) and ask for
    confirmation of implausible facts."""
    variant = get_variant(evening.game, evening.variant)
    hand = variant.parse_entry(facts, table, evening.options)
    warnings = variant.warnings(hand, table, evening.options)
    if warnings and not confirm:
        raise ImplausibleHandError(warnings)
    return hand


#: Hands in one evening, voided ones included: a long club evening plays a few hundred,
#: and every read of an evening replays its hands (docs/limits.md).
MAX_HANDS = 10_000


def prepare_hand(current: EveningView, raw: object) -> tuple[ledger_mod.HandRecord, EveningView]:
    """The next hand as it would be recorded, and the evening played on with it.

    Shared by recording and the live preview, so the preview shows exactly what saving does.
    Only the new hand is played: the evening's ledger goes on from where ``current`` stands.
    """
    facts, shell = split_body(raw)
    table = current.next_table
    if shell.get("dealer") is not None:
        errors = ErrorCollector()
        dealer = read_member(shell["dealer"], table.players, errors, "dealer")
        errors.raise_if_any(InvalidHandError)
        table = Table(table.players, dealer or table.dealer)
    hand_input = check_hand(current.evening, facts, table, confirm=bool(shell.get("confirm")))
    number = next_number(current.evening)
    if number > MAX_HANDS:
        limit = msg("An evening holds at most {n} hands; start a new one.", n=MAX_HANDS)
        raise InvalidHandError.single("evening", limit)
    check_expected_number(shell.get("number"), number)
    record = ledger_mod.HandRecord(number, table, hand_input.to_json(), parsed=hand_input)
    ledger = ledger_mod.extend(current.ledger, current.variant, current.evening.options, [record])
    upcoming = table_after(current.seatings, (r.record for r in reversed(ledger.hands)))
    return record, replace(current, ledger=ledger, next_table=upcoming)


def next_number(evening: EveningFacts) -> int:
    """The number the evening's next hand gets: one past its last, voided hands
    included, since a number once given is never given again."""
    hands = evening.hands
    return hands[-1].number + 1 if hands else 1  # hands are in order of their numbers


def check_expected_number(expected: object, upcoming: int) -> None:
    """Refuse a hand sent as another number than the one it would get (``number`` in the
    body; none sent: no check). A number no hand can have (below 1, above ``MAX_HANDS``,
    not a whole number) is refused as such, not as a hand that another entry became."""
    if expected is None:
        return
    if (
        isinstance(expected, bool)
        or not isinstance(expected, int)
        or not 1 <= expected <= MAX_HANDS
    ):
        raise InvalidHandError.single(
            "number",
            msg("Send the hand's number as a whole number from 1 to {n}.", n=MAX_HANDS),
        )
    if expected != upcoming:
        raise HandNumberTakenError(expected, upcoming)


@dataclass(frozen=True, slots=True)
class NewHand:
    """A hand checked and ready to store, with the evening as it will stand."""

    hand: HandFact
    #: The evening with the hand, facts and ledger: what the answer shows.
    view: EveningView
    #: The stamp of the evening it was checked against.
    base: Stamp
    #: What was sent, to check it again should the evening change before it is stored.
    raw: object


def prepare_record(current: EveningView, raw: object) -> NewHand:
    """Check the next hand against ``current`` (``snapshots.current_view``): the dealer is
    proposed by the rotation unless given. Nothing is written yet."""
    ensure_open(current.evening)
    record, checked = prepare_hand(current, raw)
    facts = current.evening
    now = utcnow()
    hand = HandFact(
        record.number,
        facts.player_ids[record.table.dealer],
        record.table.dealer,
        dict(record.facts),
        1,
        None,
        now,
        now,
    )
    return NewHand(hand, replace(checked, evening=facts.with_hands((hand,))), facts.stamp, raw)


def store_hand(new: NewHand, *, source: str) -> NewHand:
    """Store a prepared hand; returns it, or the hand checked again if the evening changed.

    The hand was checked before SQLite's lock is taken (``current_view``: PostgreSQL's
    lock of the evening's row may be taken by the read already), so tablets saving to a
    busy server queue only for the write itself (one row and the commit); if another write
    reached the evening meanwhile, the hand's row is not written, and it is checked again
    under the lock: an answer made from ``new`` must then be made again from what is
    returned. The evening with the hand is kept once the transaction commits.

    Where each statement commits on its own (``unit_of_work.Plain``, PostgreSQL), the read took no
    lock and the insert takes it: it waits for any write to the evening under way, then
    compares the stamp with the evening's row as that write left it, and commits the hand
    with the stamp's count of it. Only if the evening changed does a transaction begin,
    for the check under the lock.
    """
    evening_id = new.view.evening.id
    needs_session(new)
    if (plain := unit_of_work.committing_each_statement()) is not None:
        hand_id = add_hand(plain.connection(), new, source=source, query=ADD_HAND_LOCKING)
        if hand_id is not None:
            keep_after_commit(new.view)
            close_when_due(new.view.evening, source=source)
            return new
        plain.begin()
    take_lock(evening_id)
    connection = unit_of_work.current().connection()
    hand_id = add_hand(connection, new, source=source)
    if hand_id is None:
        new = prepare_record(stored_view(evening_id), new.raw)
        needs_session(new)  # linked to a later evening meanwhile
        hand_id = add_hand(connection, new, source=source)
        # Under the lock nothing writes to the evening: the stamp just read is still true.
        assert hand_id is not None, "the evening changed under its lock"
    carry_forward(new.view, source=source)
    keep_after_commit(new.view)
    close_when_due(new.view.evening, source=source)
    return new


def needs_session(new: NewHand) -> None:
    """Refuse a plain connection for a hand of an evening whose pot goes on to a later
    evening, which must change in the same transaction: only the session offers that
    (``web.writing.write`` runs the write again there)."""
    if new.view.evening.carried_to is not None and unit_of_work.is_plain():
        raise SessionNeededError


def add_hand(
    connection: Connection, new: NewHand, *, source: str, query: Direct = ADD_HAND
) -> int | None:
    """Insert the new hand's row unless the evening changed since ``new.base``; its id,
    or None when it was not written. The row is the hand's first version: no revision is
    stored until it is changed (``Hand.history``). ``query``: ``ADD_HAND`` or
    ``ADD_HAND_LOCKING``."""
    hand = new.hand
    rows = query.rows(
        connection,
        {
            "evening": new.view.evening.id,
            **stamp_params(new.base),
            "number": hand.number,
            "dealer_id": hand.dealer_id,
            "input": hand.input,
            "at": hand.updated_at,
            "source": source,
        },
    )
    return int(rows[0][0]) if rows else None


def record_hand(current: EveningView, raw: object, *, source: str) -> tuple[HandFact, EveningView]:
    """Check and store the next hand (``prepare_record``, ``store_hand``): returns the hand
    and the evening with it, which is the evening as it now stands, so an answer is made
    from it rather than from another replay."""
    new = store_hand(prepare_record(current, raw), source=source)
    return new.hand, new.view


def close_when_due(evening: EveningFacts, *, source: str) -> None:
    """Close an evening of a fixed length (a tournament table) once its last hand is in."""
    if hands_left(evening) == 0:
        set_closed(evening.id, True, source=source)


def hands_left(evening: EveningFacts) -> int | None:
    """How many hands an evening of a fixed length still has to play (None: open-ended)."""
    if evening.hands_due is None:
        return None
    played = sum(1 for h in evening.hands if h.void_reason is None)
    return max(evening.hands_due - played, 0)


def find_hand(evening: EveningFacts, number: int) -> HandFact:
    """The evening's hand with that number, as stored."""
    hands = evening.hands
    if 0 < number <= len(hands) and hands[number - 1].number == number:
        return hands[number - 1]  # numbered from 1 without gaps, as recorded
    for hand in hands:
        if hand.number == number:
            return hand
    raise NotFoundError(number)


def hand_row(evening_id: int, number: int) -> Hand:
    """The mapped row of the evening's hand ``number``, to change it (after the evening's
    lock: ``locked``)."""
    row = db.session.scalars(
        select(Hand)
        .where(Hand.evening_id == evening_id, Hand.number == number)
        .execution_options(populate_existing=True)
    ).one_or_none()
    if row is None:
        raise NotFoundError(number)
    return row


def corrected_hands(evening_id: int) -> set[int]:
    """The numbers of the evening's hands whose facts were corrected: more than one of
    their versions stands (a void alone corrects nothing)."""
    standing = (
        select(Hand.number)
        .join(HandRevision, HandRevision.hand_id == Hand.id)
        .where(Hand.evening_id == evening_id, HandRevision.void_reason.is_(None))
        .group_by(Hand.number)
        .having(func.count() > 1)
    )
    return set(db.session.scalars(standing))


def history_of(evening_id: int, number: int) -> list[HandRevision]:
    """Every version of the evening's hand ``number``, oldest first (``Hand.history``)."""
    return hand_row(evening_id, number).history


def check_version(value: object, current: int) -> None:
    """Refuse a change made to an older version than the stored one."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidHandError.single(
            "version", msg("Send the version you read, as a whole number.")
        )
    if value != current:
        raise StaleVersionError(current)


def keep_first_version(hand: Hand) -> None:
    """Store the hand's first version as a revision before its row is first changed: until
    then the row was that version (``Hand.history``)."""
    if not hand.revisions:
        hand.revisions.append(hand.first_version())


def replace_hand(
    evening_id: int, number: int, raw: object, *, source: str, correction: str | None = None
) -> tuple[HandFact, EveningView]:
    """Replace a hand's facts; later hands are recomputed, dealers stay where they were.

    ``correction`` is the reason for changing a closed evening, kept with the revision.
    Returns the hand and the evening as it now stands (see ``record_hand``).
    """
    current = locked_view(evening_id)
    ensure_open(current.evening, correction=correction)
    if correction is not None and (problem := text_problem(correction, VOID_LENGTH)):
        raise InvalidHandError.single("correction", problem)
    hand = find_hand(current.evening, number)
    facts, shell = split_body(raw)
    check_version(shell.get("version"), hand.version)
    table = Table(seating_for(current.seatings, number).players, hand.dealer_name)
    hand_input = check_hand(current.evening, facts, table, confirm=bool(shell.get("confirm")))
    stored = hand_input.to_json()
    change = ledger_mod.HandRecord(number, table, stored, parsed=hand_input)
    return changed(current, change, None, source=source, correction=correction)


def void_hand(
    evening_id: int, number: int, raw: object, *, source: str, correction: str | None = None
) -> tuple[HandFact, EveningView]:
    """Void a hand with a reason: it stays in the record with no effect.

    ``correction`` is the reason for changing a closed evening, kept with the revision.
    Returns the hand and the evening as it now stands, without it (see ``record_hand``).
    """
    current = locked_view(evening_id)
    ensure_open(current.evening, correction=correction)
    hand = find_hand(current.evening, number)
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
    table = Table(seating_for(current.seatings, number).players, hand.dealer_name)
    change = ledger_mod.HandRecord(number, table, hand.input, void=True)
    return changed(current, change, reason.strip(), source=source, correction=correction)


def changed(
    current: EveningView,
    change: ledger_mod.HandRecord,
    void_reason: str | None,
    *,
    source: str,
    correction: str | None,
) -> tuple[HandFact, EveningView]:
    """Replay ``current`` with one of its hands changed to ``change``, then store the
    change as the hand's next version and carry the pot on: the hand and the evening as
    they now stand."""
    records = [change if r.number == change.number else r for r in current.evening.records()]
    replayed = checked(current.evening, records, changed=change.number)
    revise(
        hand_row(current.evening.id, change.number),
        dict(change.facts),
        void_reason,
        source=source,
        correction=correction,
    )
    carry_forward(replayed, source=source)
    now = written(current.evening.id, replayed.ledger)
    return find_hand(now.evening, change.number), now


def undo_hand(evening_id: int, number: int, version: int, *, source: str) -> HandFact:
    """Take back hand ``number`` as saved at ``version``: a void with the reason "undo",
    only while it is the last standing hand, just saved (``core.undo``); otherwise
    ``UndoRefusedError`` and nothing changes."""
    current = locked_view(evening_id)
    ensure_open(current.evening)
    refusal = undo.undo_refusal(undo.saves_of(current.evening.hands), number, version, utcnow())
    if refusal is not None:
        raise UndoRefusedError(refusal)
    hand, _ = void_hand(evening_id, number, {"reason": "undo", "version": version}, source=source)
    return hand


def revise(
    hand: Hand,
    stored: dict[str, Any],
    void_reason: str | None,
    *,
    source: str,
    correction: str | None,
) -> None:
    """Give ``hand`` its next version, with ``stored`` facts (voided for ``void_reason``),
    and keep that version as a revision; the version before is kept first if it was
    never stored apart (a hand as recorded is its row alone)."""
    keep_first_version(hand)
    hand.input = stored
    hand.void_reason = void_reason
    hand.version += 1
    hand.updated_at = utcnow()
    db.session.add(
        HandRevision(
            hand=hand,
            version=hand.version,
            input=stored,
            void_reason=void_reason,
            source=source,
            reason=correction,
        )
    )
    db.session.flush()
