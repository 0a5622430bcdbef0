"""An evening's stored facts as plain values, read in three queries without ORM objects.

The table screen and every hand recorded start from the evening's facts: its settings, its
seatings and what was said about each hand. Read as plain rows they cost a fraction of
what the same rows cost as mapped objects, which matters when thirty tablets save hands
and reload their screens at once. The objects keep the attribute names of the mapped
``Evening`` and ``Hand`` that the pages and answers read (``id``, ``closed_at``,
``options``, ``hands``, ``number``, ``input``...), so one template serves both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, func, select

from scorekeeper.ledger import HandRecord
from scorekeeper.models import Evening, Hand, Player, Seat, Seating
from scorekeeper.rules.base import Table
from scorekeeper.rules.rotation import Seating as SeatingFact
from scorekeeper.rules.rotation import seating_for

EVENING = Evening.__table__
HAND = Hand.__table__
SEATING = Seating.__table__
SEAT = Seat.__table__
PLAYER = Player.__table__

#: What every write to an evening's facts changes: its settings version and when they were
#: last changed (correcting, closing and anonymising bump both), how many seatings and
#: hands it has, the sum of its hands' versions and when a hand was last written. Seatings
#: and hands are never deleted and versions only grow, so an equal stamp read later means
#: that nothing was written to the evening in between; the times also tell apart two
#: different writes that would leave the same counts (one rolled back, one kept).
Stamp = tuple[int, datetime, int, int, int, datetime | None]


@dataclass(frozen=True, slots=True)
class HandFact:
    """A hand as stored: the facts said at the table, who dealt, its current version."""

    number: int
    dealer_id: int
    dealer_name: str
    input: dict[str, Any]
    version: int
    void_reason: str | None
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class EveningFacts:
    """An evening as stored: settings, seatings and hands, with the ids of its players."""

    id: int
    game: str
    variant: str
    title: str
    place: str
    date: date | None
    options: dict[str, str]
    version: int
    language: str
    closed_at: datetime | None
    hands_due: int | None
    created_at: datetime
    updated_at: datetime
    seatings: tuple[SeatingFact, ...]
    hands: tuple[HandFact, ...]
    #: Every player seated at some time or who dealt, by name: new hands store the id.
    player_ids: Mapping[str, int]

    @property
    def stamp(self) -> Stamp:
        """The stamp of these facts, as ``Head.stamp`` reads it from the database."""
        return (
            self.version,
            self.updated_at,
            len(self.seatings),
            len(self.hands),
            sum(h.version for h in self.hands),
            max((h.updated_at for h in self.hands), default=None),
        )

    def records(self, hands: tuple[HandFact, ...] | None = None) -> list[HandRecord]:
        """The hands (all, or those given) as the replay reads them."""
        return [
            HandRecord(
                h.number,
                Table(seating_for(self.seatings, h.number).players, h.dealer_name),
                h.input,
                h.void_reason is not None,
            )
            for h in (self.hands if hands is None else hands)
        ]

    def with_hand(self, hand: HandFact) -> EveningFacts:
        """The facts once ``hand`` is added at the end."""
        return replace(self, hands=(*self.hands, hand))


@dataclass(frozen=True, slots=True)
class Head:
    """The evening's own row with its stamp, in one query."""

    #: The columns of the evening's row, by name: the settings fields of ``EveningFacts``.
    row: Mapping[str, Any]
    stamp: Stamp

    def facts(
        self,
        seatings: tuple[SeatingFact, ...],
        hands: tuple[HandFact, ...],
        player_ids: Mapping[str, int],
    ) -> EveningFacts:
        """The evening's facts with these seatings and hands."""
        return EveningFacts(**self.row, seatings=seatings, hands=hands, player_ids=player_ids)


def _stamp_columns() -> list[Any]:
    """The stamp's parts (after the evening's version and time) as columns of a query on
    the evening row: seatings, hands, the sum of their versions, the last hand written."""
    evening_id = EVENING.c.id
    hands = HAND.c.evening_id == evening_id
    return [
        select(func.count()).where(SEATING.c.evening_id == evening_id).scalar_subquery(),
        select(func.count()).where(hands).scalar_subquery(),
        select(func.coalesce(func.sum(HAND.c.version), 0)).where(hands).scalar_subquery(),
        select(func.max(HAND.c.updated_at)).where(hands).scalar_subquery(),
    ]


#: The evening's row and its stamp; the statements are built once, since building one
#: costs more than running it.
HEAD = select(EVENING, *_stamp_columns()).where(EVENING.c.id == bindparam("evening"))
#: The stamp alone, as the write of a new hand checks it under the evening's lock.
STAMP = select(EVENING.c.version, EVENING.c.updated_at, *_stamp_columns()).where(
    EVENING.c.id == bindparam("evening")
)


def _seatings_query() -> Any:
    """The query behind ``read_seatings``."""
    dealer = PLAYER.alias("dealer")
    return (
        select(
            SEATING.c.id,
            SEATING.c.from_hand,
            dealer.c.name.label("dealer"),
            PLAYER.c.id.label("player_id"),
            PLAYER.c.name,
        )
        .join(SEAT, SEAT.c.seating_id == SEATING.c.id)
        .join(PLAYER, PLAYER.c.id == SEAT.c.player_id)
        .outerjoin(dealer, dealer.c.id == SEATING.c.dealer_id)
        .where(SEATING.c.evening_id == bindparam("evening"))
        .order_by(SEATING.c.from_hand, SEATING.c.id, SEAT.c.position)
    )


SEATINGS = _seatings_query()

HANDS = (
    select(
        HAND.c.number,
        HAND.c.dealer_id,
        PLAYER.c.name,
        HAND.c.input,
        HAND.c.version,
        HAND.c.void_reason,
        HAND.c.updated_at,
    )
    .join(PLAYER, PLAYER.c.id == HAND.c.dealer_id)
    .where(HAND.c.evening_id == bindparam("evening"), HAND.c.number > bindparam("after"))
    .order_by(HAND.c.number)
)


def read_head(connection: Connection, evening_id: int) -> Head | None:
    """The evening's row and stamp as stored now, or None when there is no such evening."""
    row = connection.execute(HEAD, {"evening": evening_id}).one_or_none()
    if row is None:
        return None
    *columns, seatings, hands, versions, touched = row
    evening = dict(zip(EVENING.c.keys(), columns, strict=True))
    stamp = (evening["version"], evening["updated_at"], seatings, hands, versions, touched)
    return Head(evening, stamp)


def read_stamp(connection: Connection, evening_id: int) -> Stamp | None:
    """The evening's stamp as stored now, or None when there is no such evening."""
    row = connection.execute(STAMP, {"evening": evening_id}).one_or_none()
    return None if row is None else tuple(row)  # type: ignore[return-value]


def read_seatings(
    connection: Connection, evening_id: int
) -> tuple[tuple[SeatingFact, ...], dict[str, int]]:
    """The evening's seatings in order, with the ids of the players seated."""
    rows = connection.execute(SEATINGS, {"evening": evening_id}).all()
    seatings: list[SeatingFact] = []
    ids: dict[str, int] = {}
    current: int | None = None
    for seating_id, from_hand, dealer_name, player_id, name in rows:
        ids[name] = player_id
        if seating_id != current:
            current = seating_id
            seatings.append(SeatingFact(from_hand, (), dealer_name))
        last = seatings[-1]
        seatings[-1] = SeatingFact(last.from_hand, (*last.players, name), last.dealer)
    return tuple(seatings), ids


def read_hands(connection: Connection, evening_id: int, *, after: int = 0) -> tuple[HandFact, ...]:
    """The evening's hands numbered above ``after``, in order."""
    rows = connection.execute(HANDS, {"evening": evening_id, "after": after}).all()
    return tuple(HandFact(*row) for row in rows)


def read_facts(connection: Connection, head: Head) -> EveningFacts:
    """The whole evening as stored, its row taken from ``head``."""
    evening_id = head.row["id"]
    seatings, ids = read_seatings(connection, evening_id)
    hands = read_hands(connection, evening_id)
    for hand in hands:
        ids.setdefault(hand.dealer_name, hand.dealer_id)
    return head.facts(seatings, hands, ids)
