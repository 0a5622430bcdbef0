"""The PostgreSQL pass leaves out no test that opens a database (tests/conftest.py).

That pass takes the tests that ask for ``database_url``; every run fails a test that takes
a database connection without asking for it (unless it acts on SQLite files of its own,
marked ``sqlite_only``). Shown here on a small suite run with the project's conftest.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SUITE = """
from sqlalchemy import create_engine, text

from tests.conftest import sqlite_only


def connect(url):
    engine = create_engine(url)
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    engine.dispose()


def test_opens_unasked(tmp_path):
    connect(f"sqlite:///{tmp_path / 'own.sqlite'}")


def test_opens_asked(database_url):
    connect(database_url)


@sqlite_only
def test_opens_a_file_of_its_own(tmp_path):
    connect(f"sqlite:///{tmp_path / 'own.sqlite'}")


def test_opens_nothing():
    assert str(text("SELECT 1")) == "SELECT 1"  # a statement, never sent
"""


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """The small suite, with the project's fixtures and hooks."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.delenv("SCOREKEEPER_TEST_DATABASE_URL", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    pytester.makeconftest("from tests.conftest import *  # noqa: F403\n")
    pytester.makepyfile(test_small=SUITE)
    return pytester


def test_a_test_opening_a_database_unasked_fails_and_names_the_fixture(
    suite: pytest.Pytester,
) -> None:
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        ["*test_opens_unasked opened a database without asking for the database_url fixture*"]
    )


def test_the_postgresql_pass_takes_exactly_the_tests_that_ask(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = "postgresql+psycopg://nobody:nothing@127.0.0.1:9/none"  # only collected, never used
    monkeypatch.setenv("SCOREKEEPER_TEST_DATABASE_URL", url)
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:xdist", "--collect-only", "-q"
    )
    listed = [line for line in result.stdout.lines if "::" in line]
    assert listed == ["test_small.py::test_opens_asked"]
    result.stdout.fnmatch_lines(["*1/4 tests collected (3 deselected)*"])
