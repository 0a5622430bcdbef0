"""Evenings as last replayed, kept by each server process and brought up to date by stamp.

The ledger is never stored: it is derived from the hands' facts. Deriving it on every
request from scratch (loading every hand, replaying the evening) made a hall of tablets
wait, so each process keeps the evenings it replayed, with the facts they came from:

- a request reads the evening's stamp with any hands newer than the kept ones
  (``facts.read_news``, one query). The same stamp means the same facts: the kept
  evening is used as it is;
- when only hands were added since (another process recorded them), the kept ledger
  plays on through those (``ledger.extend``);
- anything else (a hand corrected or voided, the table or the settings changed) reads
  the whole evening and replays it.

An evening changed by a request is kept only once that request has committed, so no
process ever keeps what the database does not hold. The database must not be replaced
under a running server (restoring a database file says so); when it is all the same,
``db.kept.forget_all`` empties what every part of the app keeps, these evenings included.
"""

from __future__ import annotations

import threading
from typing import Any

from cachetools import LRUCache
from flask import Flask, current_app
from sqlalchemy import event
from sqlalchemy.orm import Session

from scorekeeper.core import ledger as ledger_mod
from scorekeeper.db import unit_of_work
from scorekeeper.db.extensions import db
from scorekeeper.db.kept import store
from scorekeeper.operations.facts import EveningFacts, News, read_facts, read_head, read_news
from scorekeeper.operations.views import (
    HELD,
    EveningView,
    checked,
    locks_rows,
    note_locked,
    take_lock,
)

#: Evenings each process keeps, least recently used first out. A hall's every table fits
#: many times over; an evening of 50 hands takes about 50 KB.
DEFAULT_KEPT = 1000
#: Where a session keeps the evenings its transaction changed until it commits.
STAGED = "scorekeeper.snapshots.staged"
#: Set on a session once its transaction has written anything: what it reads from then on
#: may include its own writes, which count only once they are committed.
WROTE = "scorekeeper.snapshots.wrote"


class Snapshots:
    """The evenings one app in one process keeps, by id."""

    def __init__(self, size: int) -> None:
        self._kept: LRUCache[int, EveningView] = LRUCache(size)
        self._lock = threading.Lock()

    def get(self, evening_id: int) -> EveningView | None:
        """The evening as last kept, if it is."""
        with self._lock:
            return self._kept.get(evening_id)

    def put(self, current: EveningView) -> None:
        """Keep ``current``, whose ``evening`` is an ``EveningFacts``."""
        with self._lock:
            self._kept[current.evening.id] = current

    def clear(self) -> None:
        """Keep nothing (after the database was replaced under the running app)."""
        with self._lock:
            self._kept.clear()


def kept() -> Snapshots:
    """This app's kept evenings."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return store(
        app, "snapshots", lambda: Snapshots(int(app.config.get("SNAPSHOTS_KEPT", DEFAULT_KEPT)))
    )


def only_added(before: EveningFacts, news: News) -> bool:
    """Whether the evening changed since ``before`` only by the hands ``news`` brings:
    settings the same, no edit, and as many hands more as it has."""
    now, then = news.stamp, before.stamp
    added = now.hands - then.hands
    return (
        now.version == then.version
        and now.updated_at == then.updated_at
        and now.edits == then.edits
        and added > 0
        and added == len(news.hands)
    )


def current_view(evening_id: int, *, for_writing: bool = False) -> EveningView | None:
    """The evening as stored now, replayed; None when there is no such evening.

    ``for_writing``: the request is about to write to the evening. Where the database
    locks an evening's row for a write (PostgreSQL), the row is locked by this read,
    which saves the write a round trip, unless each statement commits on its own (the
    insert then takes the lock, ``hands.store_hand``); SQLite's lock is the whole
    database's, taken only for the write itself.
    """
    connection = unit_of_work.current().connection()
    lock = for_writing and locks_rows() and unit_of_work.committing_each_statement() is None
    before = kept().get(evening_id)
    if before is not None:
        last = before.evening.hands[-1].number if before.evening.hands else 0
        news = read_news(connection, evening_id, after=last, lock=lock)
        if news is None:
            return None
        if lock:
            note_locked(evening_id)
        if news.stamp == before.evening.stamp:
            return before
        if only_added(before.evening, news):
            facts = before.evening.with_hands(news.hands)
            added = facts.records(news.hands)
            ledger = ledger_mod.extend(before.ledger, before.variant, facts.options, added)
            current = EveningView.of(facts, ledger)
            remember(current)
            return current
    if lock:
        take_lock(evening_id)
    head = read_head(connection, evening_id)
    if head is None:
        return None
    current = checked(read_facts(connection, head))
    # Each query reads what is committed when it runs: the facts are the stamp's only if
    # it is still the same after them. Else a write came between: read it next time.
    after = read_head(connection, evening_id)
    if after is not None and after.stamp == head.stamp:
        remember(current)
    return current


def stored_view(evening_id: int) -> EveningView:
    """``current_view`` of an evening known to exist (found by the caller, or named by a
    row that refers to it): evenings are never deleted."""
    current = current_view(evening_id)
    assert current is not None, f"evening {evening_id} is gone"
    return current


def locked_view(evening_id: int) -> EveningView:
    """The evening as stored now, read under its lock (``views.take_lock``): what a write
    to it decides on."""
    take_lock(evening_id)
    return stored_view(evening_id)


def written(evening_id: int, ledger: ledger_mod.Ledger | None = None) -> EveningView:
    """The evening as this transaction's writes leave it, kept once the transaction
    commits: what the write's answer and the next page show without another replay.

    ``ledger`` is the replay the write checked its change with, which is the replay of the
    facts it stored (None: the write changed what a replay reads, such as the pot carried
    in, and the evening is replayed now, refusing what no longer fits). The facts are read
    again after the write, in its transaction, so they carry the stamp the commit leaves.
    """
    db.session.flush()
    connection = db.session.connection()
    head = read_head(connection, evening_id)
    assert head is not None  # evenings are never deleted
    facts = read_facts(connection, head)
    current = checked(facts) if ledger is None else EveningView.of(facts, ledger)
    keep_after_commit(current)
    return current


def remember(current: EveningView) -> None:
    """Keep ``current`` now, or once committed if this transaction wrote anything."""
    info = unit_of_work.current().info
    if info.get(WROTE) or info.get(HELD):
        keep_after_commit(current)
    else:
        kept().put(current)


def keep_after_commit(current: EveningView) -> None:
    """Keep ``current`` (the evening as this request's transaction wrote it) once that
    transaction commits; forget it if it rolls back."""
    staged: dict[int, EveningView] = unit_of_work.current().info.setdefault(STAGED, {})
    staged[current.evening.id] = current


@unit_of_work.when_committed
def _publish(info: dict[str, Any]) -> None:
    """The committed evenings are what the database now holds: keep them."""
    staged = info.pop(STAGED, None)
    if staged:
        snapshots = kept()
        for current in staged.values():
            snapshots.put(current)


@event.listens_for(Session, "after_flush")
def _mark_written(session: Session, flush_context: object) -> None:
    """The transaction wrote: what it reads is kept only once it commits."""
    session.info[WROTE] = True


@unit_of_work.when_ended
def _unmark_written(info: dict[str, Any]) -> None:
    """A new transaction starts with nothing written."""
    info.pop(WROTE, None)


@unit_of_work.when_rolled_back
def _discard(info: dict[str, Any]) -> None:
    """Nothing a rolled-back transaction wrote is kept."""
    info.pop(STAGED, None)
