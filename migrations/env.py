"""Alembic environment: migrates the database of the running Flask app."""

from alembic import context
from flask import current_app

target_metadata = current_app.extensions["migrate"].db.metadata


def run_offline() -> None:
    """Write the SQL instead of running it (``flask db upgrade --sql``)."""
    context.configure(
        url=current_app.config["SQLALCHEMY_DATABASE_URI"],
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Migrate over the app's own engine."""
    engine = current_app.extensions["migrate"].db.engine
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # SQLite alters a table by copying it, dropping the old one and renaming the
            # copy; with foreign keys on, dropping a table that other rows point at fails.
            # So they are off while migrating (they cannot change inside a transaction),
            # and afterwards every reference is checked: a broken one stops the start.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=True,
                compare_type=True,
            )
            with context.begin_transaction():
                context.run_migrations()
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration left broken references: {broken}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
