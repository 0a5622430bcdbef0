"""Fixtures: a database per worker process, apps kept per worker and reset for every test.

The suite runs in worker processes side by side (``scripts/pytest``, docs/development.md
"Tests"); every worker has a database of its own:

- on SQLite (the default) a file copied from a template migrated once per worker, put back
  from the template before every test that asks for a database (``database_url``);
- with ``SCOREKEEPER_TEST_DATABASE_URL`` set (a PostgreSQL URL,
  ``postgresql+psycopg://ROLE:PASSWORD@127.0.0.1:5432/DB``, whose role may create
  databases) the named database is wiped and migrated once per run, each worker clones it
  (``CREATE DATABASE … TEMPLATE``) and empties its clone before every test. That run takes
  only the tests that open a database (``pytest_collection_modifyitems``): the rules and
  the rest do not change with it.

Building an app costs more than most tests (Werkzeug compiles every route): so the apps a
test makes are kept by the worker, one for each configuration asked for, and reset before
the next test takes them. A reset gives back a database as new (ids start at 1 again), the
configuration as built, an empty instance folder and empty in-memory stores
(``scorekeeper.db.kept``), so no test sees another's evenings, settings or files. A test
that changes the app itself (adds a route) asks for ``new_app`` instead.
"""

from __future__ import annotations

import copy
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import settings
from sqlalchemy import Connection, Engine, create_engine, event, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import Pool

from scorekeeper import create_app
from scorekeeper.db.extensions import db
from scorekeeper.db.kept import forget_all
from tests.browser import taps

# Property tests check rules, not speed: a busy machine pausing one example for a fifth of
# a second must not fail them (performance is measured under bench/, not asserted here).
settings.register_profile("scorekeeper", deadline=None)
settings.load_profile("scorekeeper")

#: Organisers' passwords stored by a cheap method in every app the tests build: scrypt's
#: tenth of a second for each tournament made and each login was 45 s of the suite's
#: processor time. The real servers of tests/live/ hash as the laptop does (their
#: environment drops it), and tests/web/tournaments/test_access.py checks the default.
CHEAP_PASSWORD_HASH = "pbkdf2:sha256:1"
os.environ["SCOREKEEPER_PASSWORD_HASH_METHOD"] = CHEAP_PASSWORD_HASH

PLAYERS4 = ["Anna", "Bert", "Clara", "Dora"]
PLAYERS5 = ["Anna", "Bert", "Clara", "Dora", "Emil"]

#: Makes another installation, e.g. to restore a backup into.
Fresh = Callable[[], Flask]


#: A server database to run the suite on instead of SQLite files (PostgreSQL).
class ClosingClient(FlaskClient):
    """The test client, closing the body it sent once the answer is in.

    Werkzeug's test builder writes a multipart body of more than 500 KB (an upload) to a
    temporary file and leaves it open; the garbage collector then reports it as a
    resource warning in whichever later test it runs in, which fails that test. Every
    answer of the test client is read whole, so the body is no longer needed.
    """

    def open(self, *args: Any, **kwargs: Any) -> Any:
        """The answer, with the request's body closed."""
        response = super().open(*args, **kwargs)
        sent = getattr(response, "request", None)
        body = sent.environ.get("wsgi.input") if sent is not None else None
        if body is not None and not getattr(body, "closed", True):
            body.close()
        return response


Flask.test_client_class = ClosingClient

SERVER_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL") or None
#: This process's name among the workers (``gw0``, ``gw1``…; ``main`` when run alone).
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
#: Tests of SQLite files themselves (its backup API, copying or migrating a database file,
#: a server on a file of its own): a run on the server database leaves them out.
sqlite_only = pytest.mark.sqlite_only
#: The fixture through which a test opens this run's database: the PostgreSQL pass takes
#: exactly the tests that ask for it, and a test that opens a database without it fails.
DATABASE_FIXTURE = "database_url"


def pytest_configure(config: pytest.Config) -> None:
    """On a PostgreSQL run, the template the workers clone: migrated once, by the process
    that starts them (or by the only one)."""
    starter = not hasattr(config, "workerinput")
    if SERVER_URL is not None and starter and not config.option.collectonly:
        migrate_template(SERVER_URL)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a PostgreSQL run, only the tests that open the database."""
    if SERVER_URL is None:
        return
    kept, left = [], []
    for item in items:
        opens = DATABASE_FIXTURE in getattr(item, "fixturenames", ())
        (kept if opens and not item.get_closest_marker("sqlite_only") else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The table screen's figures (``browser/taps.py``): a worker hands them to the process
    that started it; that process, or one running alone, writes them. Here, not in the
    browser tests' conftest: the starting process collects nothing, so it loads only this
    one."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        taps.hand_over(session.config, output)
    else:
        taps.write(session.config)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """A worker ended: take the figures it sent back."""
    taps.take_over(node.config, getattr(node, "workeroutput", {}))


# -- The guard: every test that opens a database says so ---------------------------------


@dataclass
class Running:
    """Whether the test running in this process took a database connection."""

    connected: bool = False


RUNNING = Running()


@event.listens_for(Pool, "checkout")
def _note_checkout(*_: Any) -> None:
    """Any connection taken from any pool, in this process, while a test runs."""
    RUNNING.connected = True


def may_connect(item: pytest.Item) -> bool:
    """Whether ``item`` declared the database it opens (or acts on SQLite files only)."""
    fixtures = getattr(item, "fixturenames", ())
    return DATABASE_FIXTURE in fixtures or item.get_closest_marker("sqlite_only") is not None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Any:
    """Watch the test from its set-up (the fixtures it asks for) to the end of its call."""
    RUNNING.connected = False
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """Fail a test that took a database connection without asking for ``database_url``
    (or being marked ``sqlite_only``): the PostgreSQL pass would leave it out unseen."""
    result = yield
    if RUNNING.connected and not may_connect(item):
        pytest.fail(
            f"{item.nodeid} opened a database without asking for the {DATABASE_FIXTURE}"
            " fixture: ask for it (the PostgreSQL pass then runs it too), or mark the test"
            " sqlite_only if it acts on SQLite files of its own",
            pytrace=False,
        )
    return result


# -- The worker's database -----------------------------------------------------------------


def migrate(url: str, folder: Path) -> None:
    """Bring the database at ``url`` to the newest schema, as an app starting on it does."""
    app = create_app(
        {"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test"}, instance_path=str(folder)
    )
    with app.app_context():
        db.engine.dispose()


def admin_url(url: str) -> str:
    """The same server's maintenance database, to create and drop the workers' clones."""
    return make_url(url).set(database="postgres").render_as_string(hide_password=False)


def migrate_template(url: str) -> None:
    """Wipe the database at ``url`` and migrate it from nothing: the migrations themselves
    are tested on this server, and the workers clone what they made."""
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    with tempfile.TemporaryDirectory() as folder:
        migrate(url, Path(folder))


def clone(url: str, worker: str) -> str:
    """A database of ``worker``'s own, cloned from the migrated one at ``url``, with the
    settings the database was given (such as its time zone): a clone does not copy them."""
    template = make_url(url).database
    name = f"{template}_{worker}"
    admin = create_engine(admin_url(url), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        drop_database(connection, name)
        connection.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
        given = connection.execute(
            text(
                "SELECT unnest(setconfig) FROM pg_db_role_setting s"
                " JOIN pg_database d ON d.oid = s.setdatabase"
                " WHERE d.datname = :template AND s.setrole = 0"
            ),
            {"template": template},
        ).scalars()
        for setting in list(given):
            key, value = setting.split("=", 1)
            connection.execute(text(f"ALTER DATABASE \"{name}\" SET {key} TO '{value}'"))
    admin.dispose()
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def drop(url: str) -> None:
    """Drop the clone at ``url``."""
    name = make_url(url).database
    admin = create_engine(admin_url(url), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        drop_database(connection, name)
    admin.dispose()


def drop_database(connection: Connection, name: str) -> None:
    """Drop the database ``name``, ending this role's own sessions on it first.

    Not ``DROP … WITH (FORCE)``: that also ends an autovacuum worker busy on the clone, which
    only a superuser may (the worker belongs to no role), and failed a test's teardown when
    one happened to run. A plain drop stops such a worker itself and waits for it.
    """
    connection.execute(
        text(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
            " WHERE datname = :name AND usename = current_user AND pid <> pg_backend_pid()"
        ),
        {"name": name},
    )
    connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))


def empty_tables(engine: Engine) -> None:
    """Remove every row but the schema's version; ids start again at 1, as on a new file.

    Deleted child tables first, in one round trip: a handful of rows go in a millisecond,
    where TRUNCATE makes every table's files anew (a tenth of a second for each test).
    A session left open by a test would make this wait for ever: the lock timeout turns
    that into an error naming the test.
    """
    deletes = "; ".join(f'DELETE FROM "{t.name}"' for t in reversed(db.metadata.sorted_tables))
    restart = (
        "SELECT setval(quote_ident(sequencename)::regclass, 1, false) FROM pg_sequences"
        " WHERE schemaname = 'public' AND last_value IS NOT NULL"
    )
    with engine.begin() as connection:
        connection.exec_driver_sql(f"SET LOCAL lock_timeout = '10s'; {deletes}; {restart}")


@dataclass
class WorkerDatabase:
    """This worker's database, and how to make it as new."""

    url: str
    #: SQLite: the migrated file it is copied from. PostgreSQL: None.
    template: Path | None
    engine: Engine | None = None

    def put_back(self) -> None:
        """Empty, at the newest schema (even after a test migrated it down)."""
        if self.template is None:
            assert self.engine is not None
            empty_tables(self.engine)
            return
        path = Path(make_url(self.url).database or "")
        for leftover in (Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
        staged = path.with_suffix(".staged")
        shutil.copyfile(self.template, staged)
        staged.replace(path)  # a new file: a connection still open keeps the old one


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file brought to the newest schema once per worker: the template of every
    SQLite database the tests use."""
    folder = tmp_path_factory.mktemp("template")
    path = folder / "template.sqlite"
    migrate(f"sqlite:///{path}", folder)
    return path


@pytest.fixture(scope="session")
def worker_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[WorkerDatabase]:
    """This worker's database (made on first use)."""
    if SERVER_URL is None:
        path = tmp_path_factory.mktemp("database") / "worker.sqlite"
        yield WorkerDatabase(f"sqlite:///{path}", request.getfixturevalue("migrated_db"))
        return
    url = clone(SERVER_URL, WORKER)
    engine = create_engine(url)
    yield WorkerDatabase(url, None, engine)
    engine.dispose()
    drop(url)


# -- Apps kept by the worker -----------------------------------------------------------------


@dataclass
class KeptApp:
    """An app kept for the next test asking for the same configuration."""

    app: Flask
    config: dict[str, Any]

    def put_back(self) -> None:
        """The configuration as built, nothing kept in memory."""
        self.app.config.clear()
        self.app.config.update(copy.deepcopy(self.config))
        forget_all(self.app)


@dataclass
class KeptApps:
    """The apps of this worker, by configuration; a test asking twice for one configuration
    (two server processes of one installation) gets two apps."""

    database: WorkerDatabase
    instance: Path
    kept: dict[str, list[KeptApp]] = field(default_factory=dict)
    #: How many of each configuration the running test has taken.
    taken: dict[str, int] = field(default_factory=dict)

    def release(self) -> None:
        """Before the next test: no session left open (on SQLite no connection either, as
        the file is replaced), the instance folder emptied."""
        self.close_sessions(dispose=self.database.template is not None)
        self.taken.clear()
        shutil.rmtree(self.instance, ignore_errors=True)
        self.instance.mkdir()

    def take(self, config: dict[str, Any]) -> Flask:
        """An app built with ``config`` on the worker's database, as new. The app factory
        also reads ``SCOREKEEPER_*`` from the environment (a test may set them): they are
        part of what the app was built with."""
        environment = {k: v for k, v in os.environ.items() if k.startswith("SCOREKEEPER_")}
        key = repr((sorted(config.items()), sorted(environment.items())))
        index = self.taken.get(key, 0)
        self.taken[key] = index + 1
        apps = self.kept.setdefault(key, [])
        if index == len(apps):
            full = {"DATABASE_URL": self.database.url, "AUTO_MIGRATE": False, **config}
            app = create_app(full, instance_path=str(self.instance))
            apps.append(KeptApp(app, copy.deepcopy(dict(app.config))))
        kept = apps[index]
        kept.put_back()
        return kept.app

    def close_sessions(self, *, dispose: bool) -> None:
        """Every app's session removed; with ``dispose`` its connections closed too."""
        for apps in self.kept.values():
            for kept in apps:
                with kept.app.app_context():
                    db.session.remove()
                    if dispose:
                        db.engine.dispose()

    def close(self) -> None:
        """At the end of the run: every connection closed."""
        self.close_sessions(dispose=True)
        self.kept.clear()


@pytest.fixture(scope="session")
def kept_apps(
    worker_database: WorkerDatabase, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[KeptApps]:
    """This worker's apps."""
    apps = KeptApps(worker_database, tmp_path_factory.mktemp("instance"))
    yield apps
    apps.close()


@pytest.fixture
def database_url(worker_database: WorkerDatabase, kept_apps: KeptApps) -> str:
    """This test's database: the worker's, empty, at the newest schema."""
    kept_apps.release()
    worker_database.put_back()
    return worker_database.url


@contextmanager
def fresh_database(request: pytest.FixtureRequest, folder: Path) -> Iterator[str]:
    """An empty database at the newest schema for a longer-lived fixture (a server kept for
    a module): on SQLite a file of its own in ``folder``, else the worker's database."""
    if SERVER_URL is None:
        path = folder / "test.sqlite"
        shutil.copy(request.getfixturevalue("migrated_db"), path)
        yield f"sqlite:///{path}"
        return
    database: WorkerDatabase = request.getfixturevalue("worker_database")
    database.put_back()
    try:
        yield database.url
    finally:
        database.put_back()


@pytest.fixture
def make_app(database_url: str, kept_apps: KeptApps) -> Callable[..., Flask]:
    """Apps on this test's database, built with the configuration given (the worker keeps
    them; the database is migrated already). Their instance folder is one, emptied for
    every test."""

    def make(**config: Any) -> Flask:
        return kept_apps.take({"TESTING": True, "SECRET_KEY": "test", **config})

    return make


@pytest.fixture
def new_app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """An app of this test's alone, thrown away after it: for a test that changes the app
    itself (adds a route), which no later test may see."""
    config = {"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False}
    app = create_app(
        {**config, "DATABASE_URL": database_url, "AUTO_MIGRATE": False},
        instance_path=str(tmp_path),
    )
    yield app
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
        with app.app_context(), db.engine.connect() as connection:
            # The models' tables (what the schema holds: tests/db/test_migrations.py), ordered
            # by key, as a server database returns rows in no fixed order.
            return {
                table.name: [
                    tuple(row)
                    for row in connection.execute(
                        select(table).order_by(*table.primary_key.columns)
                    )
                ]
                for table in db.metadata.sorted_tables
            }

    return take


@pytest.fixture
def old_app(tmp_path: Path) -> Iterator[Flask]:
    """An app on an empty database that migrates only when told to."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'old.sqlite'}",
            "AUTO_MIGRATE": False,
        },
        instance_path=str(tmp_path / "old"),
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
