"""Command-line tools (``flask --app scorekeeper ...``)."""

from __future__ import annotations

import json

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import select

from scorekeeper import operations, serialize
from scorekeeper.extensions import db
from scorekeeper.models import Evening
from scorekeeper.schema import upgrade_schema


@click.command("migrate")
@with_appcontext
def migrate() -> None:
    """Bring the database to the current schema, under the lock every process shares.

    The server runs this once before its workers start, with ``SCOREKEEPER_AUTO_MIGRATE``
    false, so that no worker upgrades the schema on its own.
    """
    upgrade_schema(current_app._get_current_object())  # type: ignore[attr-defined]
    click.echo("The database schema is up to date.")


@click.command("recompute")
@with_appcontext
def recompute() -> None:
    """Replay every evening and report any stored hand that no longer fits the rules."""
    failures = 0
    for evening in db.session.scalars(select(Evening).order_by(Evening.id)):
        try:
            current = operations.view(evening)
        except ValueError as error:
            failures += 1
            click.echo(f"evening {evening.id}: {error}", err=True)
            continue
        click.echo(
            f"evening {evening.id}: {len(current.ledger.hands)} hands, "
            + json.dumps(current.ledger.balances, ensure_ascii=False)
        )
    if failures:
        raise SystemExit(1)


@click.command("show-evening")
@click.argument("evening_id", type=int)
@with_appcontext
def show_evening(evening_id: int) -> None:
    """Print an evening with its ledger as JSON."""
    evening = operations.get_evening(evening_id)
    if evening is None:
        raise click.ClickException(f"There is no evening {evening_id}.")
    click.echo(json.dumps(serialize.evening_json(operations.view(evening)), indent=2))


def register(app: Flask) -> None:
    """Add the commands to ``flask``."""
    app.cli.add_command(migrate)
    app.cli.add_command(recompute)
    app.cli.add_command(show_evening)
