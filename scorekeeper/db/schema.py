"""Bringing the database to the current schema once, however many processes start at once.

The server's start script upgrades the schema before its workers start (``flask --app
scorekeeper migrate``); an app started on its own upgrades on start (``AUTO_MIGRATE``).
Either way the upgrade runs under a lock that every process shares, so two processes
starting together never both create the same tables: the second waits, then finds
nothing left to do.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, text

#: Alembic's scripts, beside the package in the checkout.
MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
#: The PostgreSQL advisory lock held during an upgrade (any number the app uses nowhere else).
ADVISORY_LOCK = 20151121


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Hold the database's migration lock: a file lock beside a SQLite file, an advisory
    lock on PostgreSQL. A private in-memory SQLite database needs none; other databases
    get none."""
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": ADVISORY_LOCK})
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_LOCK})
        return
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:":
        yield
        return
    path = Path(database)
    with (path.parent / f"{path.name}.migrate-lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
