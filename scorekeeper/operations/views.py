"""An evening replayed from its stored facts: what every page and answer shows.

Nothing derived is stored; every view replays the hands, and every write replays the
evening with the change before keeping it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import selectinload

from scorekeeper.core import ledger as ledger_mod
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import (
    InvalidHandError,
    InvalidInputError,
    Table,
    msg,
)
from scorekeeper.core.rules.rotation import DealtHand, next_table
from scorekeeper.core.rules.rotation import Seating as SeatingFact
from scorekeeper.core.rules.variant import Variant
from scorekeeper.core.settlement import Nets, Settlement, nets, settle
from scorekeeper.db import sqlite, unit_of_work
from scorekeeper.db.extensions import db
from scorekeeper.db.models import (
    Evening,
    Hand,
    Seat,
    Seating,
)
from scorekeeper.db.tournament_models import TournamentTable
from scorekeeper.operations.facts import EveningFacts


@dataclass(frozen=True, slots=True)
class EveningView:
    """An evening with everything derived from its facts: what every page, printout and
    answer about one evening is made from (``snapshots.current_view``).

    ``evening`` holds the facts as stored (``operations.facts``), read with the stamp the
    ledger belongs to; a write changes mapped rows it loads by id, and then reads the
    evening's facts again (``snapshots.written``).
    """

    evening: EveningFacts
    variant: Variant
    seatings: tuple[SeatingFact, ...]
    ledger: ledger_mod.Ledger
    next_table: Table

    @classmethod
    def of(cls, facts: EveningFacts, ledger: ledger_mod.Ledger) -> EveningView:
        """The view of ``facts`` replayed as ``ledger``."""
        return cls(
            facts,
            get_variant(facts.game, facts.variant),
            facts.seatings,
            ledger,
            table_after(facts.seatings, (h.record for h in reversed(ledger.hands))),
        )

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

    def end(self) -> Nets:
        """The evening's end with its own end rule (``settlement.nets``)."""
        return nets(self.variant, self.evening.options, self.ledger, self.next_table)

    def nets(self) -> dict[str, int]:
        """Each party's net in cents with the evening's end rule."""
        return self.end().net

    def ended(self) -> dict[str, int]:
        """Each party's units once the evening's end rule has dealt with the pot: what a
        closed evening's table screen shows, as its settlement and a tournament's
        standings count it."""
        return self.end().final


@dataclass(frozen=True, slots=True)
class EveningSummary:
    """What lists of evenings show, without replaying any of them."""

    evening: Evening
    variant: Variant
    players: tuple[str, ...]
    hands: int
    last_activity: datetime


def summaries() -> list[EveningSummary]:
    """Every casual evening for the lists, most recently active first, in three queries.

    Tournament tables are left out: they belong to their tournament, not to the home page.
    """
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
        select(Evening)
        .where(Evening.id.not_in(select(TournamentTable.evening_id)))
        .options(
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


#: The evening's row, locked until the transaction ends (PostgreSQL); built once.
LOCK_ROW = (
    select(Evening.__table__.c.id)
    .where(Evening.__table__.c.id == bindparam("evening"))
    .with_for_update()
)

#: Where a session keeps the ids of the evenings its transaction has locked.
HELD = "scorekeeper.locked_evenings"


def take_lock(evening_id: int) -> bool:
    """Wait until no other request is writing to the evening, and keep others waiting
    until this transaction ends. False when this transaction holds the lock already (a
    write that makes another, such as the last hand of a tournament table closing it).

    Two tablets saving at once are served one after the other: the second reads the hand
    the first stored and takes the next number, instead of taking the same number and
    losing at the commit, which under steady load can happen to one tablet again and again.
    PostgreSQL locks the evening's row, so other evenings are written in parallel; SQLite
    has one writer at a time anyway, and takes its write lock now rather than at the first
    write, after the reads it would then have to redo (``sqlite.begin_writing``).
    """
    unit = unit_of_work.current()
    held: set[int] = unit.info.setdefault(HELD, set())
    if evening_id in held:
        return False
    if locks_rows():
        unit.connection().execute(LOCK_ROW, {"evening": evening_id})
    else:
        sqlite.begin_writing(unit)
    held.add(evening_id)
    return True


def locks_rows() -> bool:
    """Whether the database locks an evening's row for a write (PostgreSQL), rather than
    the whole database (SQLite, ``sqlite.begin_writing``)."""
    return db.engine.dialect.name != "sqlite"


def note_locked(evening_id: int) -> None:
    """The evening's row was locked by a query of this transaction (``take_lock`` then
    finds it held)."""
    unit_of_work.current().info.setdefault(HELD, set()).add(evening_id)


@unit_of_work.when_ended
def _forget_locks(info: dict[str, Any]) -> None:
    """The locks end with the transaction that took them."""
    info.pop(HELD, None)


def lock_evening(evening_id: int) -> Evening:
    """Take the evening's lock (``take_lock``) and load its row as it is stored now, to
    change it.

    Every write to an evening starts here or at ``take_lock`` (recording a hand checks it
    unlocked first and then compares the evening's stamp, see
    ``operations.hands.record_hand``), so it decides on what no other write can change
    before it commits. Only the row is loaded: what the write reads of the evening's
    seatings and hands it reads as facts (``snapshots.current_view``).
    """
    take_lock(evening_id)
    row = db.session.get(Evening, evening_id, populate_existing=True)
    assert row is not None  # evenings are never deleted; the caller found it
    return row


def evening_row(evening_id: int) -> Evening | None:
    """The evening's mapped row, for a write that changes it or what hangs on it (its
    group, say); None when there is no such evening."""
    return db.session.get(Evening, evening_id)


def table_after(
    seatings: tuple[SeatingFact, ...], newest_first: Iterable[ledger_mod.HandRecord]
) -> Table:
    """The table of the next hand, with the dealer the rotation proposes after these hands
    (given newest first). The rotation goes on from the last hand and the last one that
    stands, so only the hands up to that one are read, however long the evening."""
    dealt = []
    for record in newest_first:
        dealt.append(DealtHand(record.number, record.table.dealer, record.void))
        if not record.void:
            break
    return next_table(seatings, dealt[::-1])


def checked(
    facts: EveningFacts,
    hand_records: list[ledger_mod.HandRecord] | None = None,
    *,
    changed: int | None = None,
) -> EveningView:
    """Replay an evening from its first hand (``hand_records``: its hands as a write would
    leave them), refusing what does not fit.

    A write that changes a hand, the options or the pot carried in replays the whole
    evening before anything is kept. A stored hand that the change makes impossible is
    named in the message (any hand but ``changed``, the one the write itself changes), so
    the table knows which later hand stands in the way.
    """
    variant = get_variant(facts.game, facts.variant)
    hand_records = facts.records() if hand_records is None else hand_records
    try:
        ledger = ledger_mod.replay(
            variant, facts.options, hand_records, carried_in=facts.carried_in
        )
    except InvalidInputError as error:
        if error.hand is None or error.hand == changed:
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
    upcoming = table_after(facts.seatings, reversed(hand_records))
    return EveningView(facts, variant, facts.seatings, ledger, upcoming)
