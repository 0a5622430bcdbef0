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
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=True,
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
