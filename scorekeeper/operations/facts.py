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
from functools import cached_property
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, Connection, Select, and_, bindparam, func, select, true

from scorekeeper.direct import Direct
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


class Stamp(NamedTuple):
    """What every write to an evening's facts changes.

    Seatings and hands are never deleted and versions only grow, so an equal stamp read
    later means that nothing was written to the evening in between; the times also tell
    apart two different writes that would leave the same counts (one rolled back, one
    kept). The order is the order of the columns that ``HEAD`` and ``NEWS`` read.
    """

    #: The settings' version and when they were last changed (correcting, closing and
    #: anonymising bump both).
    version: int
    updated_at: datetime
    seatings: int
    hands: int
    #: The sum of the hands' versions.
    versions: int
    #: When a hand was last written; None before the first hand.
    touched: datetime | None


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


@dataclass(frozen=True)
class EveningFacts:
    """An evening as stored: settings, seatings and hands, with the ids of its players.

    Without ``__slots__``, so the stamp is worked out once per evening's facts: every
    request compares it, and a kept evening is asked for it again and again.
    """

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

    @cached_property
    def stamp(self) -> Stamp:
        """The stamp of these facts, as ``Head.stamp`` reads it from the database."""
        return Stamp(
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

    def with_hands(self, hands: tuple[HandFact, ...]) -> EveningFacts:
        """The facts once ``hands`` are added at the end. Their stamp follows from this
        one when it is known, without going through every hand again."""
        added = replace(self, hands=self.hands + hands)
        if "stamp" in self.__dict__:  # worked out already (``cached_property``)
            stamp = self.stamp
            versions, touched = stamp.versions, stamp.touched
            for hand in hands:
                versions += hand.version
                touched = hand.updated_at if touched is None else max(touched, hand.updated_at)
            added.__dict__["stamp"] = stamp._replace(
                hands=stamp.hands + len(hands), versions=versions, touched=touched
            )
        return added


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


@dataclass(frozen=True)
class _Stamped:
    """The evening's row (its id bound as ``evening``) joined to what its stamp counts:
    one pass over its hands, and its seatings by their index.

    Both are worked out once per query, however many rows it returns (``NEWS`` returns
    one per newer hand): the pass over the hands is a materialised ``WITH``, the count of
    seatings asks for the evening by the bound id rather than by each row's. Joined as a
    plain subquery, PostgreSQL went through the evening's hands again for every row.
    """

    source: Any
    seatings: Any
    hands: Any
    versions: Any
    touched: Any

    @classmethod
    def build(cls) -> _Stamped:
        """The join, with the stamp's parts after the evening's version and time."""
        evening = bindparam("evening")
        counted = (
            select(
                func.count().label("hands"),
                func.coalesce(func.sum(HAND.c.version), 0).label("versions"),
                func.max(HAND.c.updated_at).label("touched"),
            )
            .where(HAND.c.evening_id == evening)
            .cte("counted")
            .prefix_with("MATERIALIZED")
        )
        seatings = select(func.count()).where(SEATING.c.evening_id == evening)
        return cls(
            EVENING.join(counted, true()),
            seatings.scalar_subquery(),
            counted.c.hands,
            counted.c.versions,
            counted.c.touched,
        )

    def condition(self) -> ColumnElement[bool]:
        """The evening's row, while its stamp is still the one bound by ``stamp_params``."""
        return and_(
            EVENING.c.id == bindparam("evening"),
            EVENING.c.version == bindparam("stamp_version"),
            EVENING.c.updated_at == bindparam("stamp_updated", type_=EVENING.c.updated_at.type),
            self.seatings == bindparam("stamp_seatings"),
            self.hands == bindparam("stamp_hands"),
            self.versions == bindparam("stamp_versions"),
            self.touched.is_not_distinct_from(
                bindparam("stamp_touched", type_=HAND.c.updated_at.type)
            ),
        )


STAMPED = _Stamped.build()
#: The evening's row and its stamp; the statements are built once, since building one
#: costs more than running it.
HEAD = (
    select(EVENING, STAMPED.seatings, STAMPED.hands, STAMPED.versions, STAMPED.touched)
    .select_from(STAMPED.source)
    .where(EVENING.c.id == bindparam("evening"))
)


def unchanged(*columns: Any) -> Select[Any]:
    """A query of ``columns`` from the evening's row that finds it only while its stamp is
    still the one bound by ``stamp_params`` (and its id as ``evening``): a write selecting
    its values from it checks the stamp without a query of its own."""
    return select(*columns).select_from(STAMPED.source).where(STAMPED.condition())


def stamp_params(stamp: Stamp) -> dict[str, Any]:
    """``stamp`` as the parameters of ``unchanged``."""
    return {
        "stamp_version": stamp.version,
        "stamp_updated": stamp.updated_at,
        "stamp_seatings": stamp.seatings,
        "stamp_hands": stamp.hands,
        "stamp_versions": stamp.versions,
        "stamp_touched": stamp.touched,
    }


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


@dataclass(frozen=True, slots=True)
class News:
    """What a kept evening needs to know to be brought up to date: the stamp now, and the
    hands numbered above the last one it holds."""

    stamp: Stamp
    hands: tuple[HandFact, ...]


def _news_query() -> Any:
    """The query behind ``read_news``: the stamp on every row, a row per newer hand (one
    row with no hand when there is none)."""
    newer = and_(HAND.c.evening_id == EVENING.c.id, HAND.c.number > bindparam("after"))
    return (
        select(
            EVENING.c.version,
            EVENING.c.updated_at,
            STAMPED.seatings,
            STAMPED.hands,
            STAMPED.versions,
            STAMPED.touched,
            *HANDS.selected_columns,
        )
        .select_from(
            STAMPED.source.outerjoin(HAND, newer).outerjoin(PLAYER, PLAYER.c.id == HAND.c.dealer_id)
        )
        .where(EVENING.c.id == bindparam("evening"))
        .order_by(HAND.c.number)
    )


NEWS = Direct(_news_query())
#: ``NEWS`` locking the evening's row until the transaction ends (PostgreSQL's lock for a
#: write, ``views.take_lock``), for a request that is about to write to it.
NEWS_LOCKING = Direct(_news_query().with_for_update(of=EVENING))


def read_news(
    connection: Connection, evening_id: int, *, after: int, lock: bool = False
) -> News | None:
    """The evening's stamp and its hands numbered above ``after``, in one query; None when
    there is no such evening. ``lock``: lock the evening's row as well (PostgreSQL)."""
    query = NEWS_LOCKING if lock else NEWS
    rows = query.rows(connection, {"evening": evening_id, "after": after})
    if not rows:
        return None
    width = len(Stamp._fields)
    stamp = Stamp(*rows[0][:width])
    hands = tuple(HandFact(*row[width:]) for row in rows if row[width] is not None)
    return News(stamp, hands)


def read_head(connection: Connection, evening_id: int) -> Head | None:
    """The evening's row and stamp as stored now, or None when there is no such evening."""
    row = connection.execute(HEAD, {"evening": evening_id}).one_or_none()
    if row is None:
        return None
    *columns, seatings, hands, versions, touched = row
    evening = dict(zip(EVENING.c.keys(), columns, strict=True))
    stamp = Stamp(evening["version"], evening["updated_at"], seatings, hands, versions, touched)
    return Head(evening, stamp)


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
