"""SQLite connection settings: foreign keys on, as the schema relies on them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine


def enable_foreign_keys(engine: Engine) -> None:
    """Turn on foreign key checks for every new SQLite connection of ``engine``."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()
