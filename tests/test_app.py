"""The app factory: configuration order, the generated secret, the self-migrating schema."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from flask.testing import FlaskCliRunner
from sqlalchemy import inspect

from scorekeeper import create_app
from scorekeeper.extensions import db


def test_secret_key_is_generated_once_into_the_instance(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite'}"
    first = create_app({"DATABASE_URL": url}, instance_path=str(tmp_path))
    second = create_app({"DATABASE_URL": url}, instance_path=str(tmp_path))
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) == 64
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_default_database_is_sqlite_in_the_instance(tmp_path: Path) -> None:
    app = create_app(instance_path=str(tmp_path))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'scorekeeper.sqlite'}"
    assert (tmp_path / "scorekeeper.sqlite").exists()


def test_environment_overrides_the_instance_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.py").write_text(f"DATABASE_URL = 'sqlite:///{tmp_path / 'file.sqlite'}'\n")
    app = create_app(instance_path=str(tmp_path))
    assert app.config["DATABASE_URL"].endswith("file.sqlite")
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    app = create_app(instance_path=str(tmp_path))
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("env.sqlite")


def test_migrations_build_exactly_the_models(tmp_path: Path) -> None:
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{tmp_path / 'm.sqlite'}"}, instance_path=str(tmp_path)
    )
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []
        assert "alembic_version" in inspect(connection).get_table_names()
        db.engine.dispose()


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
