"""What is stored: players, evenings, seatings and the facts of each hand, with revisions.

Nothing derived (balances, the pot, payments) is stored; the ledger replays the facts.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates
from sqlalchemy.types import DateTime, TypeDecorator

from scorekeeper.core.names import fold
from scorekeeper.db.extensions import db


def utcnow() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Stores UTC timestamps and always hands them back timezone-aware, in UTC.

    SQLite drops the zone; PostgreSQL keeps the instant but answers in the session's time
    zone (the server's own, say Europe/Zurich), which would reach the API as ``+01:00``.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        """Normalise to UTC before storing."""
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        """Re-attach UTC to a naive value; bring an aware one to UTC."""
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A person who has played; names are suggested again in later evenings."""

    __tablename__ = "player"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), nullable=False)
    #: The name folded for comparison: one player per name, whatever its case.
    name_key: Mapped[str] = mapped_column(String(80), nullable=False, unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)


class TableGroup(db.Model):  # type: ignore[name-defined,misc]
    """Regular players who meet again and again (a Stammtisch): their evenings belong to it
    and its members are persons, not only names (docs/club.md)."""

    __tablename__ = "table_group"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), nullable=False)
    #: The name folded for comparison: one group per name, whatever its case.
    name_key: Mapped[str] = mapped_column(String(80), nullable=False, unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)

    members: Mapped[list[Member]] = relationship(
        back_populates="group", order_by="Member.id", cascade="all, delete-orphan"
    )


class Member(db.Model):  # type: ignore[name-defined,misc]
    """A person of a group: the names they were written as at its evenings are theirs, so
    renaming keeps their history and two entries for one person can be merged."""

    __tablename__ = "member"
    #: One member per name in a group, names that look alike being one (``names.fold``):
    #: held by the database, so two renames at once cannot both take a name.
    __table_args__ = (UniqueConstraint("group_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("table_group.id"), nullable=False)
    #: What the group calls them now, on its season table and their page.
    name: Mapped[str] = mapped_column(String(80), nullable=False)
    #: The name folded for comparison, set with the name (``_fold_name``).
    name_key: Mapped[str] = mapped_column(String(80), nullable=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)

    group: Mapped[TableGroup] = relationship(back_populates="members")
    names: Mapped[list[MemberName]] = relationship(
        back_populates="member", order_by="MemberName.player_id", cascade="all, delete-orphan"
    )

    @validates("name")
    def _fold_name(self, _key: str, name: str) -> str:
        """Keep the folded form with every name given."""
        self.name_key = fold(name)
        return name


class MemberName(db.Model):  # type: ignore[name-defined,misc]
    """A name written at the group's evenings, and the member it stands for there. Within a
    group a name is one person; the same name in another group, or at an evening of no
    group (a museum guest), is someone else."""

    __tablename__ = "member_name"
    __table_args__ = (UniqueConstraint("group_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("table_group.id"), nullable=False)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"), nullable=False)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), nullable=False)

    member: Mapped[Member] = relationship(back_populates="names")
    player: Mapped[Player] = relationship()


class GroupEvening(db.Model):  # type: ignore[name-defined,misc]
    """That an evening belongs to a table group (at most one); an evening without a row
    here is an evening of its own, a museum table's. Kept beside the evening rather than
    in its row, so the evening's table and its counting triggers stay as they are."""

    __tablename__ = "group_evening"

    evening_id: Mapped[int] = mapped_column(ForeignKey("evening.id"), primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("table_group.id"), nullable=False, index=True)

    group: Mapped[TableGroup] = relationship()


class Evening(db.Model):  # type: ignore[name-defined,misc]
    """One evening at one table: the game, its house rules and the seating history."""

    __tablename__ = "evening"
    __table_args__ = (CheckConstraint("version >= 1", name="version_positive"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(40), nullable=False)
    variant: Mapped[str] = mapped_column(String(40), nullable=False)
    title: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    place: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    date: Mapped[date | None] = mapped_column(nullable=True)
    #: The complete set of house rules (every key present), as strings.
    options: Mapped[dict[str, str]] = mapped_column(JSON, nullable=False)
    #: Bumped on every settings correction, for the stale-edit check.
    version: Mapped[int] = mapped_column(nullable=False, default=1)
    #: The language its printouts speak ("de", "en"), chosen when it was started.
    language: Mapped[str] = mapped_column(String(5), nullable=False, default="de")
    #: Set once the settlement is signed: the evening is then read-only until reopened.
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: An evening of a fixed length (a tournament table) closes itself after this many
    #: hands; None for an evening that ends when the table says so.
    hands_due: Mapped[int | None] = mapped_column(nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
    #: The evening's hands, and the changes to its hands, seatings and seats: kept by the
    #: database's triggers (migration 0007) in the transaction of each write, never by the
    #: app. With the version and time above they are the evening's stamp
    #: (``operations.facts.Stamp``), read without going through its hands.
    hand_count: Mapped[int] = mapped_column(nullable=False, server_default="0")
    edit_count: Mapped[int] = mapped_column(nullable=False, server_default="0")

    seatings: Mapped[list[Seating]] = relationship(
        back_populates="evening", order_by="(Seating.from_hand, Seating.id)"
    )
    hands: Mapped[list[Hand]] = relationship(back_populates="evening", order_by="Hand.number")
    revisions: Mapped[list[EveningRevision]] = relationship(
        back_populates="evening", order_by="EveningRevision.version"
    )
    #: The pot an earlier evening carried into this one, and the one this evening's pot
    #: went on to (docs/troggen.md §8).
    carried: Mapped[CarriedPot | None] = relationship(
        foreign_keys="CarriedPot.evening_id", viewonly=True
    )
    carried_on: Mapped[CarriedPot | None] = relationship(
        foreign_keys="CarriedPot.from_evening_id", viewonly=True
    )

    @property
    def carried_in(self) -> int:
        """The jetons an earlier evening carried into this one (0: none)."""
        return self.carried.pot if self.carried is not None else 0

    @property
    def carried_from(self) -> int | None:
        """The earlier evening whose pot this one took over, if any (and still here)."""
        return self.carried.from_evening_id if self.carried is not None else None

    @property
    def carried_to(self) -> int | None:
        """The later evening this one's pot was carried into, if any."""
        return self.carried_on.evening_id if self.carried_on is not None else None


class CarriedPot(db.Model):  # type: ignore[name-defined,misc]
    """The pot an earlier evening left for a later one of its group (docs/troggen.md §8).

    A fact of the later evening: its replay opens with ``pot`` jetons, and every change
    to them (a hand of the earlier evening corrected, its end rule changed) is a new
    settings revision of the later evening. An evening carries its pot into one evening
    at most, and takes one in from one at most. ``from_evening_id`` is None for an
    evening imported from an archive whose earlier evening is not in this installation:
    the pot it opened with stays as the archive says.
    """

    __tablename__ = "carried_pot"
    __table_args__ = (CheckConstraint("pot >= 0", name="pot_not_negative"),)

    evening_id: Mapped[int] = mapped_column(ForeignKey("evening.id"), primary_key=True)
    from_evening_id: Mapped[int | None] = mapped_column(
        ForeignKey("evening.id"), nullable=True, unique=True
    )
    pot: Mapped[int] = mapped_column(nullable=False)


class EveningRevision(db.Model):  # type: ignore[name-defined,misc]
    """The settings of an evening as they were at one version."""

    __tablename__ = "evening_revision"
    __table_args__ = (UniqueConstraint("evening_id", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evening.id"), nullable=False)
    version: Mapped[int] = mapped_column(nullable=False)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
    #: Where the change came from ("api", "page"...), for the history.
    source: Mapped[str] = mapped_column(String(40), nullable=False, default="")

    evening: Mapped[Evening] = relationship(back_populates="revisions")


class Seating(db.Model):  # type: ignore[name-defined,misc]
    """The table from hand ``from_hand`` on; earlier hands keep the table they had."""

    __tablename__ = "seating"
    __table_args__ = (
        CheckConstraint("from_hand >= 1", name="from_hand_positive"),
        # Every evening read reads its seatings in order.
        Index("ix_seating_evening", "evening_id", "from_hand"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evening.id"), nullable=False)
    from_hand: Mapped[int] = mapped_column(nullable=False)
    #: Who deals hand ``from_hand``, when the table said so (else the rotation decides).
    dealer_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)

    evening: Mapped[Evening] = relationship(back_populates="seatings")
    dealer: Mapped[Player | None] = relationship()
    seats: Mapped[list[Seat]] = relationship(order_by="Seat.position", cascade="all")

    @property
    def names(self) -> tuple[str, ...]:
        """The players in playing order."""
        return tuple(seat.player.name for seat in self.seats)


class Seat(db.Model):  # type: ignore[name-defined,misc]
    """One chair of a seating, in playing order (counter-clockwise)."""

    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("seating_id", "player_id"),)

    seating_id: Mapped[int] = mapped_column(ForeignKey("seating.id"), primary_key=True)
    position: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), nullable=False)

    player: Mapped[Player] = relationship()


class Hand(db.Model):  # type: ignore[name-defined,misc]
    """A hand as said at the table: its facts (``input``), dealer and current version."""

    __tablename__ = "hand"
    __table_args__ = (
        UniqueConstraint("evening_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
        CheckConstraint("version >= 1", name="version_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evening.id"), nullable=False)
    number: Mapped[int] = mapped_column(nullable=False)
    dealer_id: Mapped[int] = mapped_column(ForeignKey("player.id"), nullable=False)
    #: The facts as the variant normalised them (player names as seated).
    input: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    version: Mapped[int] = mapped_column(nullable=False, default=1)
    #: Set when the hand was voided: it then stays in the record with no effect.
    void_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
    #: Where the hand was recorded (``api``, ``page``...): its first version's source.
    source: Mapped[str | None] = mapped_column(String(40), nullable=True)

    evening: Mapped[Evening] = relationship(back_populates="hands")
    dealer: Mapped[Player] = relationship()
    #: The versions stored: none while the hand is as recorded (its row is its first
    #: version), the first and every later one once it was changed. ``history`` has them all.
    revisions: Mapped[list[HandRevision]] = relationship(
        back_populates="hand", order_by="HandRevision.version"
    )

    @property
    def history(self) -> list[HandRevision]:
        """Every version of the hand, oldest first, the first included.

        A hand as recorded is one row: writing its first version a second time, as a
        revision, doubled the rows every hand writes. The first change stores it
        (``first_version``) before the hand's row is overwritten.
        """
        return list(self.revisions) or [self.first_version()]

    def first_version(self) -> HandRevision:
        """The hand as recorded, as a revision (not added to the database)."""
        return HandRevision(
            version=1,
            input=self.input,
            void_reason=None,
            at=self.created_at,
            source=self.source or "",
            reason=None,
        )


class HandRevision(db.Model):  # type: ignore[name-defined,misc]
    """A hand as it was at one version; a void is a revision too."""

    __tablename__ = "hand_revision"
    __table_args__ = (UniqueConstraint("hand_id", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id"), nullable=False)
    version: Mapped[int] = mapped_column(nullable=False)
    input: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    void_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
    source: Mapped[str] = mapped_column(String(40), nullable=False, default="")
    #: Why a closed tournament table was corrected, as the organiser gave it.
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)

    hand: Mapped[Hand] = relationship(back_populates="revisions")


class IdempotentResponse(db.Model):  # type: ignore[name-defined,misc]
    """The answer given to a request with an ``Idempotency-Key``, replayed on a repeat."""

    __tablename__ = "idempotent_response"
    __table_args__ = (UniqueConstraint("scope", "requester", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    #: What the key is unique within: an evening ("evening:7") or the evening list.
    scope: Mapped[str] = mapped_column(String(40), nullable=False)
    #: Who sent it, by what they had unlocked (``access.requester``): another requester's
    #: key is another key.
    requester: Mapped[str] = mapped_column(String(64), nullable=False, default="")
    #: The key as sent (at most ``idempotency.MAX_KEY_LENGTH``), a page form's after "page:".
    key: Mapped[str] = mapped_column(String(210), nullable=False)
    #: The request the answer belongs to (``idempotency.fingerprint``); none on answers
    #: kept before requests were fingerprinted.
    fingerprint: Mapped[str | None] = mapped_column(String(64), nullable=True)
    status: Mapped[int] = mapped_column(nullable=False)
    body: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    location: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)


class SettlementTick(db.Model):  # type: ignore[name-defined,misc]
    """A payment of the settlement ticked off as paid at the table.

    The tick keeps the amount it was given for: when a later correction changes what
    ``payer`` owes ``payee``, the payment shows as open again and the old tick as stale.
    """

    __tablename__ = "settlement_tick"
    __table_args__ = (
        UniqueConstraint("evening_id", "payer", "payee"),
        CheckConstraint("amount > 0", name="amount_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evening.id"), nullable=False)
    #: A player's name as seated, or a common account ("pot") when the pot is carried.
    payer: Mapped[str] = mapped_column(String(80), nullable=False)
    payee: Mapped[str] = mapped_column(String(80), nullable=False)
    #: The amount ticked, in cents (Rappen).
    amount: Mapped[int] = mapped_column(nullable=False)
    ticked_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)

    evening: Mapped[Evening] = relationship()


class LoginAttempt(db.Model):  # type: ignore[name-defined,misc]
    """A failed password, PIN or table code, counted to slow down guessing.

    Kept in the database so every worker process counts the same attempts. A try is
    stored before it is checked, as failed until it proves right (``access.attempt``).
    """

    __tablename__ = "login_attempt"
    __table_args__ = (Index("ix_login_attempt_scope_at", "scope", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    #: What was tried ("tournament:3", "pin", "table-code") and from where.
    scope: Mapped[str] = mapped_column(String(60), nullable=False)
    remote: Mapped[str] = mapped_column(String(60), nullable=False)
    at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
    #: Forgiven for its address by a right try from there since; the whole installation's
    #: count of wrong tries still holds it.
    cleared: Mapped[bool] = mapped_column(nullable=False, default=False, server_default=false())


class RevokedSession(db.Model):  # type: ignore[name-defined,misc]
    """A session ended by logging out: its cookie and every token issued with it.

    Kept until ``expires_at``, when whatever it granted has expired anyway.
    """

    __tablename__ = "revoked_session"

    session_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False)
