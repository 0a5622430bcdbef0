"""Command-line tools (``flask --app scorekeeper ...``)."""

from __future__ import annotations

import json
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import NoReturn
from zoneinfo import ZoneInfo

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_babel import force_locale
from flask_migrate import upgrade
from sqlalchemy import select

from scorekeeper import operations
from scorekeeper.core.rules.base import InvalidInputError
from scorekeeper.core.validation import LANGUAGES, name_key
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Evening, Player
from scorekeeper.db.schema import MIGRATIONS
from scorekeeper.operations import anonymising, installation_backups
from scorekeeper.operations.schema import upgrade_schema
from scorekeeper.server import front
from scorekeeper.web import bodies, json_shapes
from scorekeeper.web.writing import Answered, Written, write


@click.command("migrate")
@with_appcontext
def migrate() -> None:
    """Bring the database to the current schema, under the lock every process shares.

    The server runs this once before its workers start, with ``SCOREKEEPER_AUTO_MIGRATE``
    false, so that no worker upgrades the schema on its own.
    """
    upgrade_schema(current_app._get_current_object())  # type: ignore[attr-defined]
    click.echo("The database schema is up to date.")


@click.command("front-config")
@click.option("--host", required=True, help="the address the server listens on")
@click.option("--port", type=int, required=True, help="the port the server listens on")
@click.option("--timeout", type=int, required=True, help="the workers' timeout in seconds")
@click.option("--print-timeout", type=int, help="the printouts' workers' (default: --timeout)")
@click.option("--migrate", is_flag=True, help="bring the database to the current schema first")
@with_appcontext
def front_config(
    host: str, port: int, timeout: int, print_timeout: int | None, migrate: bool
) -> None:
    """Write the front's configuration for a server (``scorekeeper/server/front.py``) and print
    its path; the workers' socket path is in the file ``socket`` beside it.

    With ``--migrate`` the schema is brought up to date first, as ``migrate`` does (its
    message on standard error): ``scripts/start`` needs both before its workers start, and
    one process instead of two starts the server a Python start-up sooner (about 1.3 s of
    processor time on 2 cores, paid at every start and by every real-server test).
    """
    app = current_app
    if migrate:
        upgrade_schema(app._get_current_object())  # type: ignore[attr-defined]
        click.echo("The database schema is up to date.", err=True)
    routes = [(rule.rule, rule.methods or ()) for rule in app.url_map.iter_rules()]
    path = front.write(
        Path(app.instance_path),
        host,
        port,
        timeout,
        int(app.config["BODY_MAX_BYTES"]),
        routes,
        print_timeout,
        uploads=bodies.upload_rules(app),
        upload_max=int(app.config["MAX_CONTENT_LENGTH"] or 0),
        per_address=front.PerAddress(
            int(app.config["ADDRESS_CONNECTIONS"]),
            int(app.config["ADDRESS_REQUESTS_PER_SECOND"]),
            int(app.config["ADDRESS_BURST"]),
        ),
        client_seconds=int(app.config["CLIENT_SECONDS"]),
    )
    click.echo(str(path))


@click.command("recompute")
@with_appcontext
def recompute() -> None:
    """Replay every evening and report any stored hand that no longer fits the rules."""
    failures = 0
    # A command runs in a process of its own, which keeps no evening: each is replayed.
    for evening_id in db.session.scalars(select(Evening.id).order_by(Evening.id)):
        try:
            current = operations.current_view(evening_id)
        except ValueError as error:
            failures += 1
            click.echo(f"evening {evening_id}: {error}", err=True)
            continue
        assert current is not None  # listed just now
        click.echo(
            f"evening {evening_id}: {len(current.ledger.hands)} hands, "
            + json.dumps(current.ledger.balances, ensure_ascii=False)
        )
    if failures:
        raise SystemExit(1)


@click.command("show-evening")
@click.argument("evening_id", type=int)
@with_appcontext
def show_evening(evening_id: int) -> None:
    """Print an evening with its ledger as JSON."""
    current = operations.current_view(evening_id)
    if current is None:
        raise click.ClickException(f"There is no evening {evening_id}.")
    click.echo(json.dumps(json_shapes.evening_json(current), indent=2))


def local_now() -> datetime:
    """Now on the clock of the hall (the app's time zone), for file names people read."""
    return datetime.now(ZoneInfo(current_app.config["BABEL_DEFAULT_TIMEZONE"]))


@click.command("backup")
@click.argument("folder", required=False, type=click.Path(file_okay=False, path_type=Path))
@with_appcontext
def backup_command(folder: Path | None) -> None:
    """Write a backup of every evening into FOLDER (default: instance/backups).

    Safe while the server runs: the evenings as JSON and, for SQLite, the database file,
    both from the same moment.
    """
    folder = folder or Path(current_app.instance_path) / "backups"
    now = local_now()
    files = installation_backups.write_backup(folder, now)
    click.echo(f"{files.count} evenings written to {files.evenings}")
    if files.database is not None:
        click.echo(f"The SQLite database copied to {files.database}")
    else:
        click.echo(installation_backups.pg_dump_advice(db.engine.url, folder, now))


@click.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Replace the database without asking.")
@with_appcontext
def restore_command(file: Path, yes: bool) -> None:
    """Restore FILE: a backup's .json or .zip, or its .sqlite database file.

    A .json or .zip adds the evenings that are not here yet; evenings already here stay
    as they are. A .sqlite file replaces the whole database: stop the server first.
    """
    with file.open("rb") as handle:
        head = handle.read(len(installation_backups.SQLITE_MAGIC))
    try:
        if head == installation_backups.SQLITE_MAGIC:
            replace_database(file, yes=yes)
            return
        archives = installation_backups.read_backup(file.read_bytes())
    except InvalidInputError as error:
        raise backup_refused(error) from error

    def make() -> Written[installation_backups.Restored]:
        try:
            return Written(installation_backups.restore_evenings(archives))
        except InvalidInputError as error:
            raise Answered(partial(refuse, error)) from None

    restored = write(make)
    click.echo(
        f"{len(restored.imported)} evenings restored; {restored.already_there} were already "
        "here and stay as they are."
    )


def backup_refused(error: InvalidInputError) -> click.ClickException:
    """What the command says when a backup is refused."""
    problems = [m.render() for messages in error.errors.values() for m in messages]
    said = " ".join(problems)
    # The backup's checks say so themselves; other refusals do not.
    ending = "" if "Nothing was" in said else " Nothing was changed."
    return click.ClickException(said + ending)


def refuse(error: InvalidInputError) -> NoReturn:
    """End the command with what a refused backup is told, once nothing is stored."""
    raise backup_refused(error) from error


def replace_database(file: Path, *, yes: bool) -> None:
    """Replace the SQLite database by a backup's copy, keeping the current one beside it."""
    target = installation_backups.database_file()
    if target is None:
        raise click.ClickException(
            "This installation does not keep its evenings in a SQLite file. Restore the "
            "backup's .json file instead (or a pg_dump copy with pg_restore)."
        )
    if file.resolve() == target.resolve():
        raise click.ClickException("This is the database in use, not a backup of it.")
    revision = installation_backups.check_sqlite_backup(file, MIGRATIONS)
    safety = target.parent / "backups" / f"before-restore-{local_now():%Y-%m-%d-%H%M%S}.sqlite"
    if not yes:
        click.confirm(
            f"Stop the Scorekeeper server first. This replaces every evening in {target} by "
            f"those in {file}; the current database is kept as {safety}. Go on?",
            abort=True,
        )
    installation_backups.replace_sqlite(file, safety)
    upgrade(directory=str(MIGRATIONS))
    click.echo(
        f"The database was replaced by {file} (schema {revision}, brought up to date). The "
        f"previous one is kept as {safety}. Start the server again."
    )


@click.command("anonymise-player")
@click.argument("name")
@click.option(
    "--language",
    type=click.Choice(LANGUAGES),
    default="de",
    show_default=True,
    help="Language of the neutral name (Gast 1, Guest 1).",
)
@click.option("--yes", is_flag=True, help="Do not ask before renaming.")
@with_appcontext
def anonymise_player(name: str, language: str, yes: bool) -> None:
    """Replace the player NAME by a neutral name in every evening; amounts stay the same."""
    player = db.session.scalars(select(Player).where(Player.name_key == name_key(name))).first()
    if player is None:
        raise click.ClickException(f"There is no player called {name}.")
    old = player.name
    if not yes:
        click.confirm(
            f"Replace {old} by a neutral name in every evening? This cannot be undone "
            "(backups taken before keep the name).",
            abort=True,
        )
    player_id = player.id

    def make() -> Written[str]:
        try:
            with force_locale(language):
                return Written(anonymising.anonymise_player(player_id))
        except anonymising.AnonymiseError as error:
            raise Answered(partial(not_anonymised, old, error)) from None

    new = write(make)
    click.echo(f"{old} is now {new} in every evening.")


def not_anonymised(name: str, error: anonymising.AnonymiseError) -> NoReturn:
    """End the command: the player could not be anonymised, and nothing was changed."""
    raise click.ClickException(
        f"{name} could not be anonymised without changing an amount of evening "
        f"{error.args[0]}; nothing was changed."
    ) from error


def register(app: Flask) -> None:
    """Add the commands to ``flask``."""
    app.cli.add_command(migrate)
    app.cli.add_command(front_config)
    app.cli.add_command(recompute)
    app.cli.add_command(show_evening)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
    app.cli.add_command(anonymise_player)
