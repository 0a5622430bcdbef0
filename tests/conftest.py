"""Fixtures: an app on a freshly migrated SQLite file per test, a client, and factories."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import MetaData, select

from scorekeeper import create_app
from scorekeeper.extensions import db

PLAYERS4 = ["Anna", "Bert", "Clara", "Dora"]
PLAYERS5 = ["Anna", "Bert", "Clara", "Dora", "Emil"]

#: Makes another installation, e.g. to restore a backup into.
Fresh = Callable[[], Flask]


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file brought to the newest schema once, copied for every test."""
    folder = tmp_path_factory.mktemp("template")
    path = folder / "template.sqlite"
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "test"},
        instance_path=str(folder),
    )
    with app.app_context():
        db.engine.dispose()
    return path


@pytest.fixture
def app(tmp_path: Path, migrated_db: Path) -> Iterator[Flask]:
    """The app with its own database; the start-up migration finds nothing to do."""
    path = tmp_path / "test.sqlite"
    shutil.copy(migrated_db, path)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{path}",
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "test",
        },
        instance_path=str(tmp_path),
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


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
                return {
                    name: [tuple(row) for row in connection.execute(select(table))]
                    for name, table in meta.tables.items()
                }

    return take
