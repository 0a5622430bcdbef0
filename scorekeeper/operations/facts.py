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
from typing import Any, NamedTuple

from sqlalchemy import Connection, Select, and_, bindparam, func, select

from scorekeeper.core.ledger import HandRecord
from scorekeeper.core.rules.base import Table
from scorekeeper.core.rules.rotation import Seating as SeatingFact
from scorekeeper.core.rules.rotation import seating_for
from scorekeeper.db.cursor_statements import Direct
from scorekeeper.db.models import CarriedPot, Evening, Hand, Player, Seat, Seating

EVENING = Evening.__table__
HAND = Hand.__table__
SEATING = Seating.__table__
SEAT = Seat.__table__
PLAYER = Player.__table__


class Stamp(NamedTuple):
    """What every write to an evening's facts changes, as the evening's row holds it.

    The app bumps the settings' version and time (correcting, closing and anonymising bump
    both; so does linking a carried pot, in both evenings, and changing it, in the later
    one); the database's triggers count the hands and the edits of hands, seatings and
    seats in the transaction of each write (``Evening.hand_count``). A hand is only ever
    added or edited, so an equal stamp read later means that nothing was written to the
    evening in between, however long the evening: reading it goes through no hand. The
    order is the order of the columns that ``HEAD`` and ``NEWS`` read.
    """

    version: int
    updated_at: datetime
    hands: int
    edits: int


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
    created_at: datetime


@dataclass(frozen=True, slots=True)
class EveningFacts:
    """An evening as stored: settings, seatings and hands, with the ids of its players and
    the stamp they were read with."""

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
    #: The jetons an earlier evening carried into this one (0: none), that evening, and
    #: the later evening this one's pot was carried into (docs/troggen.md §8).
    carried_in: int
    carried_from: int | None
    carried_to: int | None
    seatings: tuple[SeatingFact, ...]
    hands: tuple[HandFact, ...]
    #: Every player seated at some time or who dealt, by name: new hands store the id.
    player_ids: Mapping[str, int]
    stamp: Stamp

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
        """The facts once ``hands`` are added at the end, with the stamp the evening's row
        has once they are stored: each hand stored counts one more, and nothing else."""
        return replace(
            self,
            hands=self.hands + hands,
            stamp=self.stamp._replace(hands=self.stamp.hands + len(hands)),
        )


#: The columns of the evening's row that hold its stamp (``Stamp``'s order), and those
#: that are its settings (``EveningFacts``'s fields).
STAMP_COLUMNS = (
    EVENING.c.version,
    EVENING.c.updated_at,
    EVENING.c.hand_count,
    EVENING.c.edit_count,
)
SETTINGS_COLUMNS = tuple(c for c in EVENING.c if c.name not in ("hand_count", "edit_count"))
CARRIED_IN = CarriedPot.__table__.alias("carried_in")
CARRIED_ON = CarriedPot.__table__.alias("carried_on")
#: The carried pots' columns read with the evening's row (``EveningFacts.carried_in``...).
CARRY_COLUMNS = (
    func.coalesce(CARRIED_IN.c.pot, 0).label("carried_in"),
    CARRIED_IN.c.from_evening_id.label("carried_from"),
    CARRIED_ON.c.evening_id.label("carried_to"),
)


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
        return EveningFacts(
            **self.row, seatings=seatings, hands=hands, player_ids=player_ids, stamp=self.stamp
        )


#: The evening's row, its carried pots and its stamp; the statements are built once, since
#: building one costs more than running it.
HEAD = (
    select(*SETTINGS_COLUMNS, *CARRY_COLUMNS, EVENING.c.hand_count, EVENING.c.edit_count)
    .select_from(
        EVENING.outerjoin(CARRIED_IN, CARRIED_IN.c.evening_id == EVENING.c.id).outerjoin(
            CARRIED_ON, CARRIED_ON.c.from_evening_id == EVENING.c.id
        )
    )
    .where(EVENING.c.id == bindparam("evening"))
)


def unchanged(*columns: Any) -> Select[Any]:
    """A query of ``columns`` from the evening's row that finds it only while its stamp is
    still the one bound by ``stamp_params`` (and its id as ``evening``): a write selecting
    its values from it checks the stamp without a query of its own."""
    return select(*columns).where(
        EVENING.c.id == bindparam("evening"),
        EVENING.c.version == bindparam("stamp_version"),
        EVENING.c.updated_at == bindparam("stamp_updated", type_=EVENING.c.updated_at.type),
        EVENING.c.hand_count == bindparam("stamp_hands"),
        EVENING.c.edit_count == bindparam("stamp_edits"),
    )


def stamp_params(stamp: Stamp) -> dict[str, Any]:
    """``stamp`` as the parameters of ``unchanged``."""
    return {
        "stamp_version": stamp.version,
        "stamp_updated": stamp.updated_at,
        "stamp_hands": stamp.hands,
        "stamp_edits": stamp.edits,
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
        HAND.c.created_at,
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
        select(*STAMP_COLUMNS, *HANDS.selected_columns)
        .select_from(
            EVENING.outerjoin(HAND, newer).outerjoin(PLAYER, PLAYER.c.id == HAND.c.dealer_id)
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
    *columns, hands, edits = row
    names = [c.name for c in SETTINGS_COLUMNS] + [c.name for c in CARRY_COLUMNS]
    evening = dict(zip(names, columns, strict=True))
    return Head(evening, Stamp(evening["version"], evening["updated_at"], hands, edits))


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
