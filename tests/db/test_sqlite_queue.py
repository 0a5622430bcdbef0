"""SQLite's writers' queue (``scorekeeper.db.sqlite``): one writer at a time, in order, with
each thread's lock file opened once."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.db import sqlite
from scorekeeper.db.extensions import db
from tests.conftest import sqlite_only

#: The queue is SQLite's: these tests make a file of their own.
pytestmark = sqlite_only


@pytest.fixture
def on_sqlite(tmp_path: Path) -> Iterator[Flask]:
    """An app on a SQLite file of its own (the queue is SQLite's, whatever the suite runs on)."""
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'q.sqlite'}"},
        instance_path=str(tmp_path),
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def write(app: Flask, hold: float = 0.0, log: list[str] | None = None, name: str = "") -> None:
    """Queue as a writer, hold the place ``hold`` seconds, commit."""
    with app.app_context():
        sqlite.begin_writing(db.session())
        if log is not None:
            log.append(f"{name} in")
        time.sleep(hold)
        if log is not None:
            log.append(f"{name} out")
        db.session.commit()


def test_writers_in_two_threads_take_turns(on_sqlite: Flask) -> None:
    log: list[str] = []
    first = threading.Thread(target=write, args=(on_sqlite, 0.3, log, "first"))
    first.start()
    while not log:
        time.sleep(0.01)
    second = threading.Thread(target=write, args=(on_sqlite, 0.0, log, "second"))
    second.start()
    first.join()
    second.join()
    assert log == ["first in", "first out", "second in", "second out"]


def test_a_thread_opens_its_lock_file_once(on_sqlite: Flask) -> None:
    files: list[tuple[int, int]] = []

    def writes() -> None:
        for _ in range(3):
            write(on_sqlite)
            queue = sqlite._files.queue
            files.append((id(queue), queue.fd))

    worker = threading.Thread(target=writes)
    worker.start()
    worker.join()
    assert len(set(files)) == 1
    fd = files[0][1]
    with pytest.raises(OSError, match="Bad file descriptor"):  # closed with its thread
        os.fstat(fd)


def test_the_lock_is_left_when_the_transaction_rolls_back(on_sqlite: Flask) -> None:
    with on_sqlite.app_context():
        sqlite.begin_writing(db.session())
        db.session.rollback()
    done = threading.Event()
    other = threading.Thread(target=lambda: (write(on_sqlite), done.set()), daemon=True)
    other.start()
    other.join(timeout=10)
    assert done.is_set()
