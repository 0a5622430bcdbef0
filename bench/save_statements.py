"""Where the time of saving a hand goes, on SQLite and on PostgreSQL (docs/decisions.md, "A
museum afternoon on PostgreSQL").

In one process, with nothing else running: a Troggen evening of four, then ``--hands``
hands saved one after another through the table screen's form (the tablets' path), each
timed, with the SQL statements it sends counted and the time spent inside them summed
(SQLAlchemy's cursor events). Then the cost of a commit alone: ``--commits`` one-row
inserts, each committed, on a bare connection of the same database. Printed per
database: a save's median and 99th percentile, its statements and their time, the rest
(the app's own work and the commit), and a commit alone; and the ratios PostgreSQL over
SQLite.

    .venv/bin/python bench/save_statements.py --database postgresql+psycopg://u:p@127.0.0.1/db

The PostgreSQL database named is only used to create a scratch database beside it (the
role needs CREATEDB), which is dropped at the end.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.db.extensions import db  # noqa: E402

PLAYERS = ["Anna", "Bert", "Clara", "Dora"]


@dataclass
class Figures:
    """One database's figures, milliseconds."""

    save_p50: float
    save_p99: float
    statements: float
    in_statements: float
    commit: float


@contextmanager
def scratch_postgres(url: str) -> Iterator[str]:
    """A fresh database beside ``url``'s, dropped afterwards."""
    admin = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    name = f"sk_save_bench_{int(time.time())}"
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            # Not WITH (FORCE): only a superuser may end an autovacuum worker busy on it,
            # which a plain drop stops by itself once the app's own sessions are gone.
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
                    " WHERE datname = :name AND usename = current_user"
                ),
                {"name": name},
            )
            connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        admin.dispose()


def measure(url: str, folder: Path, hands: int, commits: int) -> Figures:
    """Save ``hands`` hands through the page on ``url``; time ``commits`` bare commits."""
    app = create_app(
        {"DATABASE_URL": url, "WTF_CSRF_ENABLED": False},
        instance_path=str(folder),
    )
    counted = {"n": 0, "seconds": 0.0}
    started: dict[int, float] = {}
    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "before_cursor_execute")
    def before(conn: Any, cursor: Any, *_: Any) -> None:
        started[id(cursor)] = time.perf_counter()

    @event.listens_for(engine, "after_cursor_execute")
    def after(conn: Any, cursor: Any, *_: Any) -> None:
        counted["n"] += 1
        counted["seconds"] += time.perf_counter() - started.pop(id(cursor), time.perf_counter())

    client = app.test_client()
    body = {"game": "troggen", "players": PLAYERS, "first_dealer": "Dora"}
    evening = client.post("/api/v1/evenings", json=body).json["id"]
    times, statements, inside = [], [], []
    for number in range(1, hands + 1):
        form = {
            "contract": "einfach",
            "bidder": PLAYERS[number % 4],
            "points": str(30 + number % 20),
            "result": "points",
            "last_trick": "none",
            "token": f"t{number}",
            "number": str(number),
        }
        counted.update(n=0, seconds=0.0)
        start = time.perf_counter()
        answer = client.post(f"/evenings/{evening}/hands", data=form)
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
        statements.append(counted["n"])
        inside.append(counted["seconds"] * 1000)
    with app.app_context():
        db.session.remove()
        # The app's own engine, with its settings (SQLite's journal and sync modes).
        with db.engine.connect() as connection:
            connection.execute(text("CREATE TABLE bench_commit (id INTEGER PRIMARY KEY, v TEXT)"))
            connection.commit()
            took = []
            for i in range(commits):
                start = time.perf_counter()
                insert = text("INSERT INTO bench_commit (id, v) VALUES (:i, 'x')")
                connection.execute(insert, {"i": i})
                connection.commit()
                took.append((time.perf_counter() - start) * 1000)
        db.engine.dispose()
    ordered = sorted(times)
    return Figures(
        statistics.median(times),
        ordered[max(0, int(len(ordered) * 0.99) - 1)],
        statistics.mean(statements),
        statistics.mean(inside),
        statistics.median(took),
    )


def show(name: str, f: Figures) -> None:
    rest = f.save_p50 - f.in_statements
    print(
        f"{name:10} save p50 {f.save_p50:6.1f}  p99 {f.save_p99:6.1f}  "
        f"statements {f.statements:4.1f} taking {f.in_statements:5.1f}  "
        f"rest {rest:5.1f}  a commit alone {f.commit:5.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="a PostgreSQL URL (see above)")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--commits", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        lite = measure(
            f"sqlite:///{folder}/bench.sqlite", Path(folder, "a"), args.hands, args.commits
        )
        with scratch_postgres(args.database) as url:
            server = measure(url, Path(folder, "b"), args.hands, args.commits)
    print("milliseconds; a save is the form's POST, its redirect not followed")
    show("SQLite", lite)
    show("PostgreSQL", server)
    print(
        f"PostgreSQL / SQLite: save p50 {server.save_p50 / lite.save_p50:.2f}x, "
        f"in statements {server.in_statements / max(lite.in_statements, 1e-9):.2f}x, "
        f"a commit {server.commit / max(lite.commit, 1e-9):.2f}x"
    )


if __name__ == "__main__":
    main()
