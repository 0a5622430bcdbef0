"""Backups of the whole installation, and restoring them.

A backup holds every evening twice over, so whichever part survives can be used:

* ``evenings.json``: every evening as ``evening_archives.py`` writes it (the facts said at the
  table, with every revision and void), for any database. Restoring it imports the
  evenings that are not there yet, into an empty or a used installation.
* for SQLite, the database file itself, copied with SQLite's online backup, which is safe
  while hands are being recorded. Restoring it replaces the whole database, so it is done
  from the command line with the server stopped.

Both parts are taken from one snapshot, so they always agree with each other. Flushes,
never commits: the caller commits once.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import tempfile
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import IO, Any

from alembic.script import ScriptDirectory
from flask import current_app
from sqlalchemy import create_engine, select
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, selectinload

from scorekeeper.core import json_limits
from scorekeeper.core.rules.base import Message, msg
from scorekeeper.db.extensions import db
from scorekeeper.db.kept import forget_all
from scorekeeper.db.models import Evening, Hand, Seat, Seating
from scorekeeper.operations import archive_checks, archive_import, evening_archives

FORMAT = "scorekeeper-backup"
VERSION = 1
#: What a backup document holds besides its evenings' archives (docs/archives.md).
BACKUP_KEYS = {"format", "version", "created_at", "evenings"}
JSON_NAME = "evenings.json"
SQLITE_NAME = "scorekeeper.sqlite"
SQLITE_MAGIC = b"SQLite format 3\x00"
ZIP_MAGIC = b"PK\x03\x04"
#: The largest evenings.json read from a zip (a damaged or hostile zip may claim more).
MAX_JSON_BYTES = 256 * 1024 * 1024


class BackupError(archive_checks.ArchiveError):
    """The file is not a backup this installation can restore; nothing was changed."""


def _fail(message: Message) -> BackupError:
    return BackupError({"file": (message,)})


def database_file() -> Path | None:
    """The database file when the installation keeps its evenings in SQLite, else None."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database)


def copy_sqlite(target: Path) -> None:
    """Copy the live SQLite database to ``target`` in one step of SQLite's backup API.

    One step reads the whole database under one read lock: a consistent snapshot, taken
    while the server keeps recording hands (a hand being saved waits the few milliseconds
    the copy takes, and a copy started during a save waits for it to finish).
    """
    raw = db.engine.raw_connection()
    try:
        destination = sqlite3.connect(target)
        try:
            raw.driver_connection.backup(destination)  # type: ignore[union-attr]
            # A copy of a write-ahead-logged database would need its log files beside it;
            # as a plain file it can be opened read-only, moved and mailed on its own.
            destination.execute("PRAGMA journal_mode=DELETE")
        finally:
            destination.close()
    finally:
        raw.close()


def _load_evenings(session: Session) -> list[Evening]:
    """Every evening with what its archive needs, in a few queries."""
    query = (
        select(Evening)
        .order_by(Evening.id)
        .options(
            selectinload(Evening.revisions),
            selectinload(Evening.carried),
            selectinload(Evening.seatings).selectinload(Seating.seats).selectinload(Seat.player),
            selectinload(Evening.seatings).selectinload(Seating.dealer),
            selectinload(Evening.hands).selectinload(Hand.dealer),
            selectinload(Evening.hands).selectinload(Hand.revisions),
        )
    )
    return list(session.scalars(query))


def export_all(session: Session, now: datetime) -> dict[str, Any]:
    """Every evening the session sees, as one JSON-ready document."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "created_at": evening_archives.stamp(now),
        "evenings": [evening_archives.export_evening(e) for e in _load_evenings(session)],
    }


@contextmanager
def snapshot() -> Iterator[tuple[Session, Path | None]]:
    """A read-only view of every evening as of one moment, and the SQLite copy of it.

    For SQLite the database is copied first and read from the copy; elsewhere one
    repeatable-read transaction sees a single moment (``pg_dump`` copies the rest).
    """
    if db.engine.dialect.name != "sqlite":
        with Session(db.engine.execution_options(isolation_level="REPEATABLE READ")) as session:
            yield session, None
        return
    with tempfile.TemporaryDirectory(prefix="scorekeeper-backup-") as folder:
        copy = Path(folder) / SQLITE_NAME
        copy_sqlite(copy)
        engine = create_engine(f"sqlite:///{copy}")
        try:
            with Session(engine) as session:
                yield session, copy
        finally:
            engine.dispose()


@dataclass(frozen=True, slots=True)
class BackupFiles:
    """What a backup wrote: the evenings as JSON, and the database file when SQLite."""

    evenings: Path
    database: Path | None
    count: int


def _publish(data: bytes | Path, target: Path) -> None:
    """Put ``data`` at ``target`` whole or not at all: a half-written backup is worse than
    none, since it looks like one."""
    draft = target.with_name(f".{target.name}.part")
    if isinstance(data, Path):
        shutil.copyfile(data, draft)
    else:
        draft.write_bytes(data)
    with draft.open("rb") as handle:
        os.fsync(handle.fileno())
    draft.replace(target)


def write_backup(folder: Path, now: datetime) -> BackupFiles:
    """Write ``scorekeeper-<time>.json`` (and ``.sqlite`` for SQLite) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    base = f"scorekeeper-{now.strftime('%Y-%m-%d-%H%M%S')}"
    with snapshot() as (session, copy):
        document = export_all(session, now)
        evenings = folder / f"{base}.json"
        _publish(json.dumps(document, ensure_ascii=False, indent=1).encode(), evenings)
        database = None
        if copy is not None:
            database = folder / f"{base}.sqlite"
            _publish(copy, database)
    return BackupFiles(evenings, database, len(document["evenings"]))


def write_zip(handle: IO[bytes], now: datetime) -> int:
    """A zip of ``evenings.json`` and, for SQLite, the database file; returns the evenings."""
    with snapshot() as (session, copy), zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as z:
        document = export_all(session, now)
        z.writestr(JSON_NAME, json.dumps(document, ensure_ascii=False, indent=1))
        if copy is not None:
            z.write(copy, SQLITE_NAME)
    return len(document["evenings"])


def pg_dump_advice(url: URL, folder: Path, now: datetime) -> str:
    """How to copy a PostgreSQL database completely, without showing its password."""
    plain = URL.create(
        "postgresql",
        username=url.username,
        host=url.host,
        port=url.port,
        database=url.database,
        query=url.query,
    ).render_as_string()
    dump = folder / f"scorekeeper-{now.strftime('%Y-%m-%d-%H%M%S')}.dump"
    return (
        "The database is PostgreSQL: the JSON file holds every evening. For a complete copy "
        "of the database, also run (it asks for the password, or reads ~/.pgpass):\n"
        f"  pg_dump --format=custom --file={dump} '{plain}'\n"
        "and to restore that copy, with the server stopped:\n"
        f"  pg_restore --clean --if-exists --dbname='{plain}' {dump}"
    )


# Restoring --------------------------------------------------------------------------------


def read_backup(data: bytes) -> list[Mapping[str, Any]]:
    """The evening archives in a backup (zip or JSON) or in one evening's archive.

    Raises ``BackupError`` in plain words for anything else, damaged or foreign.
    """
    if data.startswith(SQLITE_MAGIC):
        raise _fail(
            msg(
                "This is a database file. Here you can restore the evenings of a backup "
                "(.zip or .json); a database file is restored on the server itself, as "
                "docs/using.md explains under “Backups”."
            )
        )
    if data.startswith(ZIP_MAGIC):
        data = _json_from_zip(data)
    # Nesting too deep is refused before the parser recurses into it (json_limits).
    json_limits.check_file(data)
    try:
        document = json.loads(data.decode("utf-8"))
        # Lone surrogates ("\ud800") parse, but are no text a database could store.
        json.dumps(document, ensure_ascii=False).encode()
    except (UnicodeError, ValueError, RecursionError):
        # ValueError also covers numbers of thousands of digits; RecursionError deep nesting.
        raise _fail(msg("This file is not a Scorekeeper backup (not JSON).")) from None
    if isinstance(document, Mapping) and document.get("format") == evening_archives.FORMAT:
        return [document]
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise _fail(msg("This file is not a Scorekeeper backup."))
    if document.get("version") != VERSION:
        raise _fail(msg("This backup was written by another version of Scorekeeper."))
    for key in document:
        if key not in BACKUP_KEYS:
            # Refused rather than dropped: what it holds would be lost (docs/archives.md).
            raise _fail(
                msg(
                    "The file is damaged: {where} holds “{key}”, which this version of "
                    "Scorekeeper does not know.",
                    where=msg("the backup"),
                    key=key,
                )
            )
    evenings = document.get("evenings")
    if not isinstance(evenings, list) or not all(isinstance(e, Mapping) for e in evenings):
        raise _fail(msg("The file is damaged: the list of evenings is missing."))
    return evenings


def _json_from_zip(data: bytes) -> bytes:
    """The ``evenings.json`` of a backup zip."""
    try:
        # Read no more than the limit, whatever the zip claims the file's size is.
        with zipfile.ZipFile(io.BytesIO(data)) as z, z.open(JSON_NAME) as member:
            data = member.read(MAX_JSON_BYTES + 1)
    except KeyError:
        raise _fail(
            msg("This zip file holds no evenings: it is not a Scorekeeper backup.")
        ) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, NotImplementedError, OSError):
        raise _fail(msg("The file is damaged: the zip file cannot be read.")) from None
    if len(data) > MAX_JSON_BYTES:
        raise _fail(msg("The file is damaged: its evenings are far too large."))
    return data


@dataclass(frozen=True, slots=True)
class Restored:
    """What a restore did: the evenings imported, and how many were there already."""

    imported: tuple[Evening, ...]
    already_there: int


def restore_evenings(archives: list[Mapping[str, Any]]) -> Restored:
    """Import every evening that is not in the database yet; refuse all if one is damaged.

    Every evening of the file is checked first, those already here too, with the checks
    of an import (``archive_checks.check_archive``, docs/archives.md): one damaged evening refuses
    the whole file, naming it, before anything is stored. An evening already there (same
    game, started at the same moment) is then left as it is, whatever the backup holds for
    it, so restoring twice changes nothing.

    A later evening may come before the evening whose pot it took over: once every
    evening is stored, the pots whose earlier evening was not there yet are linked to it
    (docs/archives.md, "Carried pots").
    """
    checked = []
    for n, data in enumerate(archives, start=1):
        try:
            checked.append(archive_checks.check_archive(data))
        except archive_checks.ArchiveError as error:
            raise _refused(n, data, error.problem) from error
    present = {
        evening_archives.identity(game, variant, at)
        for game, variant, at in db.session.execute(
            select(Evening.game, Evening.variant, Evening.created_at)
        )
    }
    imported: list[tuple[Evening, archive_checks.CheckedArchive]] = []
    skipped = 0
    for n, (data, archive) in enumerate(zip(archives, checked, strict=True), start=1):
        key = evening_archives.identity(
            archive.variant.game, archive.variant.key, archive.created_at
        )
        if key in present:
            skipped += 1
            continue
        stored = archive_import.store(archive, source="restore", refused=partial(_refused, n, data))
        imported.append((stored, archive))
        present.add(key)
    for stored, archive in imported:
        archive_import.link_carried(stored, archive, source="restore")
    return Restored(tuple(stored for stored, _ in imported), skipped)


def _refused(n: int, data: Mapping[str, Any], problem: Message) -> BackupError:
    """The whole file refused for a problem of its ``n``-th evening, named by its title and
    date as far as the file says them."""
    head = data.get("evening")
    title = head.get("title") if isinstance(head, Mapping) else None
    day = head.get("date") if isinstance(head, Mapping) else None
    if not isinstance(day, str) and isinstance(head, Mapping):
        started = head.get("created_at")
        day = started[:10] if isinstance(started, str) else None
    title = title if isinstance(title, str) and title.strip() else None
    day = day if isinstance(day, str) and day.strip() else None
    if title is not None and day is not None:
        which: Message | str | None = msg("“{title}” of {date}", title=title, date=day)
    elif title is not None:
        which = msg("“{title}”", title=title)
    else:
        which = day
    if which is None:
        said = msg("Evening {n} in the file: {problem} Nothing was restored.", n=n, problem=problem)
    else:
        said = msg(
            "Evening {n} in the file ({which}): {problem} Nothing was restored.",
            n=n,
            which=which,
            problem=problem,
        )
    return BackupError({"file": (said,)})


# Replacing the SQLite database -----------------------------------------------------------


def read_only(path: Path) -> str:
    """An SQLite URI opening ``path`` without ever writing to it."""
    return f"{path.resolve().as_uri()}?mode=ro"


def check_sqlite_backup(path: Path, migrations: Path) -> str:
    """The schema revision of a SQLite backup, once it is known to be whole and ours."""
    try:
        connection = sqlite3.connect(read_only(path), uri=True)
    except sqlite3.Error as error:
        raise _fail(
            msg("The database file cannot be opened: {reason}", reason=str(error))
        ) from None
    try:
        try:
            whole = connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        except sqlite3.DatabaseError:
            whole = False
        if not whole:
            raise _fail(msg("The database file is damaged."))
        try:
            rows = connection.execute("SELECT version_num FROM alembic_version").fetchall()
        except sqlite3.DatabaseError:
            raise _fail(msg("This is not a Scorekeeper database.")) from None
    finally:
        connection.close()
    script = ScriptDirectory(str(migrations))
    known = {rev.revision for rev in script.walk_revisions()}
    if len(rows) != 1 or rows[0][0] not in known:
        raise _fail(
            msg("This database was written by another version of Scorekeeper (a newer one?).")
        )
    return str(rows[0][0])


def replace_sqlite(source: Path, safety_copy: Path) -> None:
    """Replace the installation's SQLite database by ``source``, keeping the old one.

    The content is copied page by page with SQLite's backup API into the existing file, so
    its journal or write-ahead log stays consistent; a server still running would keep
    serving from under it, which is why the command asks to stop it first.
    """
    safety_copy.parent.mkdir(parents=True, exist_ok=True)
    copy_sqlite(safety_copy)
    db.session.remove()
    db.engine.dispose()
    target = database_file()
    assert target is not None
    backup = sqlite3.connect(read_only(source), uri=True)
    live = sqlite3.connect(target)
    try:
        backup.backup(live)
    finally:
        live.close()
        backup.close()
    # What this app remembers came from the database just replaced: an id may now name
    # another evening, a casual one a tournament table.
    forget_all(current_app)
