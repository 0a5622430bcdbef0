"""Bringing the database to the newest schema: the migrations (``db/schema.py``), then
the data a migration cannot rewrite (``operations.stored_names``)."""

from __future__ import annotations

import sys

from flask import Flask
from flask_migrate import upgrade

from scorekeeper.db.extensions import db
from scorekeeper.db.schema import MIGRATIONS, migration_lock
from scorekeeper.operations.stored_names import normalise_players


def upgrade_schema(app: Flask) -> None:
    """Apply every migration the database lacks, under the migration lock; then bring
    players' names stored before names were folded in line (``operations.stored_names``:
    they are quoted by hands, which a migration does not rewrite), listing every renaming
    on standard error."""
    with app.app_context(), migration_lock(db.engine):
        upgrade(directory=str(MIGRATIONS))
        renamed = normalise_players()
        db.session.commit()
        for old, new in renamed:
            print(
                f"The player {old!r} is now called {new!r}: the name looked like another's.",
                file=sys.stderr,
            )
