"""The fuzz tests share one populated installation, put back after every change."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scorekeeper.db.extensions import db
from tests.fuzz.world import World, build


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """Evenings of every game with hands, three tournaments, three callers."""
    built = build(tmp_path_factory.mktemp("fuzz"))
    yield built
    with built.app.app_context():
        db.session.remove()
        db.engine.dispose()
