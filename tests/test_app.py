"""The app factory: configuration order, the generated secret, the self-migrating schema."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import inspect

from scorekeeper import browser_locale, create_app
from scorekeeper.db.extensions import db
from scorekeeper.db.schema import migration_lock
from scorekeeper.web.security import secret_key
from tests.conftest import sqlite_only


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("de", "de"),
        ("de-CH, en;q=0.5", "de"),  # Swiss German is German, even before plain English
        ("fr-CH, de;q=0.7, en;q=0.8", "en"),  # in the browser's order of preference
        ("en-GB,en;q=0.9,de;q=0.8", "en"),
        ("de_AT", "de"),
        ("fr, it", "en"),  # neither: English
        ("", "en"),
        ("de;q=0, en;q=0.1", "en"),  # German refused
        ("fr;q=1, de;q=0", "en"),
        ("*", "de"),
        ("not a header ;;; q=x", "en"),
    ],
)
def test_the_browser_language_is_read_by_its_main_tag(header: str, language: str) -> None:
    assert str(browser_locale(header)) == language


@sqlite_only
def test_secret_key_is_generated_once_into_the_instance(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite'}"
    first = create_app({"DATABASE_URL": url}, instance_path=str(tmp_path))
    second = create_app({"DATABASE_URL": url}, instance_path=str(tmp_path))
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) == 64
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_workers_starting_together_share_one_secret_key(tmp_path: Path) -> None:
    # Every worker of the server generates the key if it finds none; all must end up with
    # the first one written, whole, or a cookie signed by one worker fails in the next.
    barrier = threading.Barrier(8)
    keys: list[str] = []

    def start() -> None:
        barrier.wait()
        keys.append(str(secret_key(None, tmp_path, production=True)))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(keys) == 8
    assert len(set(keys)) == 1
    assert len(keys[0]) == 64
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


@sqlite_only
def test_instance_folder_can_be_named_in_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "hall"))
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite'}"})
    assert app.instance_path == str(tmp_path / "hall")
    assert (tmp_path / "hall" / "secret_key").exists()
    with app.app_context():
        db.engine.dispose()


@sqlite_only
def test_sqlite_connections_are_set_for_several_processes(tmp_path: Path) -> None:
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite'}"}, instance_path=str(tmp_path)
    )
    with app.app_context(), db.engine.connect() as connection:
        pragma = lambda name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()  # noqa: E731
        assert pragma("foreign_keys") == 1
        assert pragma("journal_mode") == "wal"
        assert pragma("busy_timeout") == 5000
        assert pragma("synchronous") == 2  # FULL
    with app.app_context():
        db.engine.dispose()


#: A process that starts the app on a database (migrating it on start) and says when it
#: begins, so the test knows it is waiting for the lock rather than still importing.
START = """
import sys
from scorekeeper import create_app
from scorekeeper.db.extensions import db
print("starting", flush=True)
app = create_app({"DATABASE_URL": sys.argv[1], "SECRET_KEY": "k" * 32}, instance_path=sys.argv[2])
with app.app_context():
    db.engine.dispose()
"""


def start_processes(url: str, instance: Path, count: int) -> list[subprocess.Popen[str]]:
    """``count`` processes starting the app on ``url``, each past its imports."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", START, url, str(instance)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(count)
    ]
    for process in processes:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "starting"
    return processes


def finish(process: subprocess.Popen[str]) -> int:
    """Wait for a started process; its exit code."""
    process.communicate(timeout=60)
    return process.returncode


def test_the_upgrade_on_start_waits_for_the_migration_lock(
    make_app: Callable[..., Flask], database_url: str, tmp_path: Path
) -> None:
    app = make_app()
    with app.app_context(), migration_lock(db.engine):
        processes = start_processes(database_url, tmp_path, 1)
        time.sleep(1.0)  # a start on a migrated database takes a tenth of that
        assert processes[0].poll() is None
    assert finish(processes[0]) == 0


@sqlite_only
def test_processes_starting_on_a_new_database_migrate_it_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite'}"
    app = create_app({"DATABASE_URL": url, "AUTO_MIGRATE": False}, instance_path=str(tmp_path))
    # Held until all three wait, so they then race for it.
    with app.app_context(), migration_lock(db.engine):
        processes = start_processes(url, tmp_path, 3)
        time.sleep(0.5)
    assert [finish(p) for p in processes] == [0, 0, 0]
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []
        db.engine.dispose()


@sqlite_only
def test_migrate_command_brings_the_schema_up_to_date(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite'}"
    app = create_app({"DATABASE_URL": url, "AUTO_MIGRATE": False}, instance_path=str(tmp_path))
    with app.app_context():
        assert "evening" not in inspect(db.engine).get_table_names()
    result = app.test_cli_runner().invoke(args=["migrate"])
    assert result.exit_code == 0, result.output
    assert "The database schema is up to date." in result.output
    with app.app_context():
        assert "evening" in inspect(db.engine).get_table_names()
        db.engine.dispose()


@sqlite_only
def test_the_fronts_configuration_can_bring_the_schema_up_to_date_first(tmp_path: Path) -> None:
    """What ``scripts/start`` runs before its workers: one process for both."""
    url = f"sqlite:///{tmp_path / 'new.sqlite'}"
    app = create_app({"DATABASE_URL": url, "AUTO_MIGRATE": False}, instance_path=str(tmp_path))
    args = ["front-config", "--migrate", "--host", "127.0.0.1", "--port", "5999"]
    result = app.test_cli_runner().invoke(args=[*args, "--timeout", "60"])
    assert result.exit_code == 0, result.output
    assert "The database schema is up to date." in result.stderr
    written = Path(result.stdout.strip())  # the path alone: the script reads it
    assert written.name == "nginx.conf"
    assert written.is_file()
    assert "client_header_timeout 10s;" in written.read_text()
    app.config.update(
        ADDRESS_CONNECTIONS=8, ADDRESS_REQUESTS_PER_SECOND=5, ADDRESS_BURST=9, CLIENT_SECONDS=3
    )
    again = app.test_cli_runner().invoke(args=[*args, "--timeout", "60"])
    text = Path(again.stdout.strip()).read_text()
    assert "limit_conn per_address 8;" in text
    assert "rate=5r/s;" in text
    assert "burst=9 delay=9;" in text
    assert "client_header_timeout 3s;" in text
    assert "location = /import {" in text  # the uploads' own body limit
    with app.app_context():
        assert "evening" in inspect(db.engine).get_table_names()
        db.engine.dispose()


@sqlite_only
def test_default_database_is_sqlite_in_the_instance(tmp_path: Path) -> None:
    app = create_app(instance_path=str(tmp_path))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'scorekeeper.sqlite'}"
    assert (tmp_path / "scorekeeper.sqlite").exists()


@sqlite_only
def test_environment_overrides_the_instance_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.py").write_text(f"DATABASE_URL = 'sqlite:///{tmp_path / 'file.sqlite'}'\n")
    app = create_app(instance_path=str(tmp_path))
    assert app.config["DATABASE_URL"].endswith("file.sqlite")
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    app = create_app(instance_path=str(tmp_path))
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("env.sqlite")


def test_migrations_build_exactly_the_models(make_app: Callable[..., Flask]) -> None:
    app = make_app()
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []
        assert "alembic_version" in inspect(connection).get_table_names()


def test_recompute_replays_every_evening(
    runner: FlaskCliRunner,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
) -> None:
    evening = create_evening()
    record_hand(evening, {"contract": "einfach", "bidder": "Anna", "points": 40})
    result = runner.invoke(args=["recompute"])
    assert result.exit_code == 0
    assert f"evening {evening}: 1 hands" in result.output
    shown = runner.invoke(args=["show-evening", str(evening)])
    assert '"Anna": 3' in shown.output
    missing = runner.invoke(args=["show-evening", "999"])
    assert missing.exit_code != 0
    assert "There is no evening 999." in missing.output
