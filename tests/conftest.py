"""Fixtures: an app on a freshly migrated database per test, a client, and factories.

The tests run on SQLite by default: the schema is migrated once into a template file, and
every test gets its own copy. With ``SCOREKEEPER_TEST_DATABASE_URL`` set (a PostgreSQL URL,
``postgresql+psycopg://ROLE:PASSWORD@127.0.0.1:5432/DB``) they run on that database
instead: it is wiped and migrated once per session, and emptied after every test, which
costs a few milliseconds where a new database would cost a second.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import settings
from sqlalchemy import Engine, MetaData, create_engine, inspect, select, text

from scorekeeper import create_app
from scorekeeper.db.extensions import db

# Property tests check rules, not speed: a busy machine pausing one example for a fifth of
# a second must not fail them (performance is measured under bench/, not asserted here).
settings.register_profile("scorekeeper", deadline=None)
settings.load_profile("scorekeeper")

PLAYERS4 = ["Anna", "Bert", "Clara", "Dora"]
PLAYERS5 = ["Anna", "Bert", "Clara", "Dora", "Emil"]

#: Makes another installation, e.g. to restore a backup into.
Fresh = Callable[[], Flask]
#: A server database to run the suite on instead of SQLite files (PostgreSQL).
SERVER_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL") or None
#: Tests of SQLite files themselves (its backup API, copying or migrating a database file):
#: on a run against the server database there is no such file to act on.
sqlite_only = pytest.mark.skipif(SERVER_URL is not None, reason="acts on SQLite files")


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file brought to the newest schema once, copied for every test."""
    folder = tmp_path_factory.mktemp("template")
    path = folder / "template.sqlite"
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "test"},
        instance_path=str(folder),
    )
    with app.app_context():
        db.engine.dispose()
    return path


@pytest.fixture(scope="session")
def migrated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """The server database, wiped and migrated once; the engine empties it between tests."""
    assert SERVER_URL is not None
    engine = create_engine(SERVER_URL)
    with engine.begin() as connection:
        # Start from nothing, so the migrations themselves are tested on this database.
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    folder = tmp_path_factory.mktemp("server")
    app = create_app(
        {"TESTING": True, "DATABASE_URL": SERVER_URL, "SECRET_KEY": "test"},
        instance_path=str(folder),
    )
    with app.app_context():
        db.engine.dispose()
    yield engine
    engine.dispose()


def empty_tables(engine: Engine) -> None:
    """Remove every row but the schema's version; ids start again at 1, as on a new file.

    A session left open by the test would make TRUNCATE wait for ever: the lock timeout
    turns that into an error naming the test.
    """
    tables = [t for t in inspect(engine).get_table_names() if t != "alembic_version"]
    with engine.begin() as connection:
        connection.execute(text("SET LOCAL lock_timeout = '10s'"))
        quoted = ", ".join(f'"{t}"' for t in tables)
        connection.execute(text(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE"))


@contextmanager
def fresh_database(request: pytest.FixtureRequest, folder: Path) -> Iterator[str]:
    """An empty database at the newest schema, for as long as the block runs."""
    if SERVER_URL is None:
        path = folder / "test.sqlite"
        shutil.copy(request.getfixturevalue("migrated_db"), path)
        yield f"sqlite:///{path}"
        return
    engine: Engine = request.getfixturevalue("migrated_server")
    try:
        yield SERVER_URL
    finally:
        empty_tables(engine)


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """This test's own empty database, at the newest schema."""
    with fresh_database(request, tmp_path) as url:
        yield url


@pytest.fixture
def make_app(tmp_path: Path, database_url: str) -> Iterator[Callable[..., Flask]]:
    """Build apps on this test's database (the start-up migration finds nothing to do)."""
    apps: list[Flask] = []

    def make(**config: Any) -> Flask:
        app = create_app(
            {"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test", **config},
            instance_path=str(tmp_path),
        )
        apps.append(app)
        return app

    yield make
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """The app with its own database, CSRF off for the page tests' plain form posts."""
    return make_app(WTF_CSRF_ENABLED=False)


@pytest.fixture
def fresh(tmp_path: Path, migrated_db: Path) -> Iterator[Fresh]:
    """Make another installation: its own instance folder and empty database."""
    apps: list[Flask] = []

    def make() -> Flask:
        folder = tmp_path / f"fresh-{len(apps)}"
        folder.mkdir()
        shutil.copy(migrated_db, folder / "scorekeeper.sqlite")
        app = create_app(
            {"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False},
            instance_path=str(folder),
        )
        apps.append(app)
        return app

    yield make
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A CLI runner."""
    return app.test_cli_runner()


@pytest.fixture
def create_evening(client: FlaskClient) -> Callable[..., int]:
    """Create an evening through the API and return its id."""

    def create(players: list[str] | None = None, **extra: Any) -> int:
        body = {"game": "troggen", "players": players or PLAYERS4, **extra}
        response = client.post("/api/v1/evenings", json=body)
        assert response.status_code == 201, response.json
        return int(response.json["id"])

    return create


@pytest.fixture
def record_hand(client: FlaskClient) -> Callable[..., dict[str, Any]]:
    """Record a hand through the API and return the answer."""

    def record(evening_id: int, body: dict[str, Any]) -> dict[str, Any]:
        response = client.post(f"/api/v1/evenings/{evening_id}/hands", json=body)
        assert response.status_code == 201, response.json
        return dict(response.json)

    return record


@pytest.fixture
def snapshot(app: Flask) -> Callable[[], dict[str, list[tuple[Any, ...]]]]:
    """Every row of every table, to prove that a refused request changed nothing."""

    def take() -> dict[str, list[tuple[Any, ...]]]:
        with app.app_context():
            meta = MetaData()
            meta.reflect(bind=db.engine)
            with db.engine.connect() as connection:
                # Ordered by key: a server database returns rows in no fixed order.
                return {
                    name: [
                        tuple(row)
                        for row in connection.execute(
                            select(table).order_by(*table.primary_key.columns)
                        )
                    ]
                    for name, table in meta.tables.items()
                }

    return take
