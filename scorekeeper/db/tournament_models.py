"""What a tournament stores: its set-up, entrants, rounds with their draw, tables, a log.

A table of a round is an ordinary evening (``Evening``) linked here; its hands are stored
and replayed like any other evening's. Standings are never stored: they are computed from
the tables' hands (docs/tournaments.md, "Standings").
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.db.extensions import db
from scorekeeper.db.models import Evening, UTCDateTime, utcnow


class Tournament(db.Model):  # type: ignore[name-defined,misc]
    """A museum or club tournament: one game, several rounds, many tables."""

    __tablename__ = "tournament"
    __table_args__ = (
        CheckConstraint("rounds >= 1", name="rounds_positive"),
        CheckConstraint("deals_per_player >= 1", name="deals_positive"),
        CheckConstraint("version >= 1", name="version_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    place: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    date: Mapped[date | None] = mapped_column(nullable=True)
    game: Mapped[str] = mapped_column(String(40), nullable=False)
    variant: Mapped[str] = mapped_column(String(40), nullable=False)
    #: The house rules every table plays, frozen when the first round starts.
    options: Mapped[dict[str, str]] = mapped_column(JSON, nullable=False)
    rounds: Mapped[int] = mapped_column(nullable=False)
    #: k: a table of s players plays k·s hands, so everyone deals k times.
    deals_per_player: Mapped[int] = mapped_column(nullable=False)
    #: "sum" (of the round results) or "rank" (table rank points).
    scoring: Mapped[str] = mapped_column(String(10), nullable=False, default="sum")
    language: Mapped[str] = mapped_column(String(5), nullable=False, default="de")
    #: The organiser's password, hashed by werkzeug (``PASSWORD_HASH_METHOD``, scrypt).
    password_hash: Mapped[str] = mapped_column(String(200), nullable=False)
    #: Bumped on every change of the set-up, for the stale-edit check.
    version: Mapped[int] = mapped_column(nullable=False, default=1)
    #: When the first round started; the set-up cannot change after it.
    frozen_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)

    entrants: Mapped[list[Entrant]] = relationship(
        back_populates="tournament", order_by="Entrant.number"
    )
    round_list: Mapped[list[Round]] = relationship(
        back_populates="tournament", order_by="Round.number"
    )


class Entrant(db.Model):  # type: ignore[name-defined,misc]
    """A registered player with a start number kept for the whole tournament."""

    __tablename__ = "entrant"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
        CheckConstraint("joins_round >= 1", name="joins_round_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), nullable=False)
    number: Mapped[int] = mapped_column(nullable=False)
    name: Mapped[str] = mapped_column(String(80), nullable=False)
    club: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    #: Checked in at the desk: only present players are drawn.
    present: Mapped[bool] = mapped_column(nullable=False, default=False)
    #: The first round this player can be drawn for (a late arrival: the next one).
    joins_round: Mapped[int] = mapped_column(nullable=False, default=1)
    #: The last round this player played before dropping out; None while still in.
    left_after: Mapped[int | None] = mapped_column(nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)

    tournament: Mapped[Tournament] = relationship(back_populates="entrants")

    def plays_in(self, round_number: int) -> bool:
        """Whether the draw of that round includes this player (when present)."""
        return self.joins_round <= round_number and (
            self.left_after is None or round_number <= self.left_after
        )


class Round(db.Model):  # type: ignore[name-defined,misc]
    """One round: its stored seed and draw, then its tables once it has started."""

    __tablename__ = "tournament_round"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), nullable=False)
    number: Mapped[int] = mapped_column(nullable=False)
    seed: Mapped[int] = mapped_column(BigInteger, nullable=False)
    #: ``{"tables": [[start numbers in seat order], ...], "byes": [...]}``, swaps applied.
    draw: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False)
    repeated_pairs: Mapped[int] = mapped_column(nullable=False, default=0)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)

    tournament: Mapped[Tournament] = relationship(back_populates="round_list")
    tables: Mapped[list[TournamentTable]] = relationship(
        back_populates="round", order_by="TournamentTable.number"
    )

    @property
    def byes(self) -> list[int]:
        """Start numbers sitting out this round."""
        return list(self.draw.get("byes", []))

    @property
    def drawn_tables(self) -> list[list[int]]:
        """Start numbers per table in seat order, as drawn (and swapped)."""
        return [list(t) for t in self.draw.get("tables", [])]


class TournamentTable(db.Model):  # type: ignore[name-defined,misc]
    """A table of a started round: its evening and the code that opens it."""

    __tablename__ = "tournament_table"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("tournament_round.id"), nullable=False)
    number: Mapped[int] = mapped_column(nullable=False)
    #: The short code printed on the table card; opening it binds a device to this table.
    code: Mapped[str] = mapped_column(String(12), nullable=False, unique=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evening.id"), nullable=False, unique=True)
    #: Start numbers in seat order: seat i of the evening's seating is entrant ``seats[i]``.
    seats: Mapped[list[int]] = mapped_column(JSON, nullable=False)

    round: Mapped[Round] = relationship(back_populates="tables")
    evening: Mapped[Evening] = relationship()


class TournamentEvent(db.Model):  # type: ignore[name-defined,misc]
    """The trace of an organiser's action: a swap, a check-in, a closed round, a correction."""

    __tablename__ = "tournament_event"
    __table_args__ = (Index("ix_tournament_event_tournament", "tournament_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournament.id"), nullable=False)
    kind: Mapped[str] = mapped_column(String(40), nullable=False)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, nullable=False, default=dict)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, nullable=False, default=utcnow)
