"""SQLite for a server that several processes share: connection settings, a writers' queue.

- ``foreign_keys=ON``: the schema relies on them, and SQLite leaves them off by default.
- ``journal_mode=WAL``: readers (every page replays its evening) never wait for a writer,
  and a writer does not wait for readers; only writers queue, one commit at a time.
- ``busy_timeout``: a writer that finds another one at work waits up to this long instead
  of failing at once with "database is locked".
- ``synchronous=FULL``: every commit is flushed to the disk before the hand is
  acknowledged. A killed process loses nothing even with NORMAL (the write-ahead log is in
  the operating system's hands by then), but FULL also keeps an acknowledged hand through a
  power cut or a crash of the machine, for about 0.2 ms more per commit here.
"""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import Engine

from scorekeeper.db.cursor_statements import Direct
from scorekeeper.db.unit_of_work import Work, when_ended

#: How long a writer waits for another process's write to finish, in milliseconds.
BUSY_TIMEOUT_MS = 5000

PRAGMAS = (
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
)


def configure(engine: Engine) -> None:
    """Apply :data:`PRAGMAS` to every new SQLite connection of ``engine``."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        for pragma in PRAGMAS:
            cursor.execute(pragma)
        cursor.close()


#: Takes the database's write lock now, rather than at the transaction's first write.
BEGIN_IMMEDIATE = Direct(text("BEGIN IMMEDIATE"))
#: Where a session keeps its place in the writers' queue while its transaction lasts.
QUEUE = "scorekeeper.sqlite.write_queue"


class _QueueFile:
    """A thread's open lock file beside one database, closed when the thread ends.

    Opening the file for every write cost more than the lock itself; a thread serves one
    request at a time, so it keeps its file open and locks and unlocks it. The process id
    is kept too: a forked worker opens its own, since a lock taken through a file the
    parent opened would be the parent's lock as well.
    """

    def __init__(self, database: str) -> None:
        self.database = database
        self.pid = os.getpid()
        path = Path(database)
        path = path.parent / f"{path.name}.write-lock"
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o666)

    def __del__(self) -> None:
        if self.pid == os.getpid():
            os.close(self.fd)


_files = threading.local()


def _queue_file(database: str) -> _QueueFile:
    """This thread's lock file for ``database``: one at a time (a thread writes to one
    database), opened again when the database or the process changes."""
    held: _QueueFile | None = getattr(_files, "queue", None)
    if held is None or held.database != database or held.pid != os.getpid():
        held = _files.queue = _QueueFile(database)
    return held


def begin_writing(unit: Work) -> None:
    """Start ``unit``'s transaction as the database's one writer, after those before it.

    SQLite lets a waiting writer poll: it sleeps 1, 2, 5... up to 100 ms between tries, so
    under load the lock lies idle while writers sleep, and throughput falls as workers are
    added. This app's writers first queue on a file lock beside the database, which the
    kernel hands to the next one the moment it is released; ``BEGIN IMMEDIATE`` then finds
    the database free. The place is left when the transaction ends (commit or rollback).
    A transaction that is writing already goes on as it is.
    """
    if QUEUE in unit.info:
        return
    connection = unit.connection()
    database = connection.engine.url.database
    queue = None
    if database and database != ":memory:":
        queue = _queue_file(database)
        fcntl.flock(queue.fd, fcntl.LOCK_EX)
    unit.info[QUEUE] = queue
    BEGIN_IMMEDIATE.rows(connection, {})


@when_ended
def _leave_queue(info: dict[str, Any]) -> None:
    """Let the next writer in once the transaction that queued has ended."""
    if QUEUE in info:
        queue = info.pop(QUEUE)
        if queue is not None:
            fcntl.flock(queue.fd, fcntl.LOCK_UN)
