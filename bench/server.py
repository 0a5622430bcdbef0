"""Hand submissions per second and the evening page, on the production server.

Each figure of the app is measured beside its baseline, a bare Flask endpoint served the
same way (``scripts/start`` with ``WSGI_APP``: the front and the workers) on the same
database (``bench/bare.py``), in alternating runs, so a busy moment of the machine hits
both alike:

- recording a hand (``POST /api/v1/evenings/<id>/hands``) into evenings that already hold
  50 hands, against one insert of the same body;
- the table screen of a 200-hand evening (``GET /evenings/<id>``), against one query of its
  200 hands rendered as a Jinja table;
- both again with 50 connections trickling their headers and 50 trickling a body open
  (``bench/slow_clients.py``), against the same runs without them: a hall's weak Wi-Fi
  links must hold up nobody (``docs/server.md``).

Load comes from ``wrk`` (Debian's package) on loopback. Run from the checkout:

    .venv/bin/python bench/server.py                     # SQLite, in a temporary folder
    .venv/bin/python bench/server.py --postgres URL      # and PostgreSQL (the database is wiped)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, func, select, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bare import BARE_HANDS  # noqa: E402
from slow_clients import PLAYERS, SlowClients, hand  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.db.extensions import db  # noqa: E402
from scorekeeper.db.models import Hand  # noqa: E402

#: Evenings the hands are spread over (a hall of tables), each starting with 50 hands.
EVENINGS = 400
BEFORE = 50
PAGE_HANDS = 200
#: Workers as scripts/start runs them.
WORKERS = (os.cpu_count() or 1) + 1
THREADS = 1
WRK = ["wrk", "-t2", "-c8"]
SECONDS = 5
RUNS = 3
#: How long every worker reads the evenings before the runs, and how many are timed cold.
WARM_SECONDS = 15
COLD = 20
#: Slow connections open for the last two lines: trickling headers, trickling a body.
SLOW_HEADERS = 50
SLOW_BODIES = 50


def build(url: str, folder: Path) -> tuple[int, int]:
    """The evenings: ``EVENINGS`` of ``BEFORE`` hands (consecutive ids from the first) and
    one of ``PAGE_HANDS`` hands. Returns the first id and the page evening's id."""
    app = create_app(
        {"DATABASE_URL": url, "SECRET_KEY": "bench-" + "k" * 32, "WTF_CSRF_ENABLED": False},
        instance_path=str(folder),
    )
    client = app.test_client()
    with app.app_context():
        BARE_HANDS.create(db.engine)

    def evening(hands: int) -> int:
        created = client.post("/api/v1/evenings", json={"game": "troggen", "players": PLAYERS})
        evening_id = int(created.json["id"])
        for i in range(hands):
            answer = client.post(f"/api/v1/evenings/{evening_id}/hands", json=hand(i))
            assert answer.status_code == 201, answer.json
        return evening_id

    first = evening(BEFORE)
    archive = client.get(f"/api/v1/evenings/{first}/export").json
    for i in range(1, EVENINGS):
        assert client.post("/api/v1/evenings/import", json=archive).json["id"] == first + i
    page = evening(PAGE_HANDS)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return first, page


def free_port() -> int:
    """A port nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: The process group of each server ``serving`` started, by its URL (``bench/designs.py``
#: adds up the processor time of every process in it).
GROUPS: dict[str, int] = {}


@contextmanager
def serving(command: list[str], env: dict[str, str], port: int, log: Path) -> Iterator[str]:
    """A server in its own process group, until the block ends."""
    with log.open("wb") as output:
        process = subprocess.Popen(
            command,
            env={**os.environ, **env},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=ROOT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"{url}/nothing-here", timeout=5):
                    break
            except urllib.error.HTTPError:
                break  # a 404: it answers
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        GROUPS[url] = process.pid
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def app_server(url: str, folder: Path, start: str) -> tuple[list[str], dict[str, str], int]:
    """How scripts/start serves the app."""
    port = free_port()
    env = {
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WORKERS": str(WORKERS),
        "THREADS": str(THREADS),
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_INSTANCE_PATH": str(folder),
        # wrk's connections stand for a hall's tablets but come from one address: the
        # limits each tablet's address has of its own (docs/server.md) are lifted here.
        "SCOREKEEPER_ADDRESS_REQUESTS_PER_SECOND": "100000",
        "SCOREKEEPER_ADDRESS_BURST": "100000",
        "SCOREKEEPER_ADDRESS_CONNECTIONS": "10000",
    }
    return [start], env, port


def bare_server(url: str, folder: Path, start: str) -> tuple[list[str], dict[str, str], int]:
    """The bare app served the same way, by scripts/start (front and workers)."""
    command, env, port = app_server(url, folder, start)
    env["WSGI_APP"] = "bare:create_app()"
    env["BENCH_DATABASE_URL"] = url
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "bench"), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    return command, env, port


def wrk(*args: str, seconds: int = SECONDS) -> float:
    """Requests per second of one wrk run; any answer but 2xx/3xx stops the benchmark."""
    out = subprocess.run(
        [*WRK, f"-d{seconds}s", *args], capture_output=True, text=True, check=True
    ).stdout
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    assert bad is None, out
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    assert found is not None, out
    return float(found.group(1))


def compare(
    name: str, bare: list[str], ours: list[str], target: float, warm: list[str] | None = None
) -> str:
    """Alternating runs of both; the line of the results table.

    Both servers are warmed up first (templates, connections); ``warm`` is a longer load
    for ours that lets every worker read every evening once, as a server that has been
    running for a while has (``cold`` measures the first time apart).
    """
    wrk(*bare, seconds=1)
    wrk(*ours, seconds=1)
    if warm is not None:
        wrk(*warm, seconds=WARM_SECONDS)
    rates = alternating(lambda: wrk(*bare), lambda: wrk(*ours))
    return ratio_line(name, rates, target, "bare/ours")


def with_slow(name: str, url: str, args: list[str], target: float) -> str:
    """The same wrk runs without and with the slow connections open, alternating; the
    line of the results table (the first column is the run without them)."""
    port = int(url.rsplit(":", 1)[1])
    wrk(*args, seconds=1)

    def slowed() -> float:
        with SlowClients(
            "127.0.0.1",
            port,
            headers=SLOW_HEADERS,
            bodies=SLOW_BODIES,
            interval=1.0,
            seconds=SECONDS * 3,
        ):
            return wrk(*args)

    rates = alternating(lambda: wrk(*args), slowed)
    return ratio_line(name, rates, target, "without/with")


def alternating(
    first: Callable[[], float], second: Callable[[], float]
) -> tuple[list[float], list[float]]:
    """``RUNS`` runs of each, their order swapped every run, so a busy moment of the
    machine hits both alike."""
    rates: tuple[list[float], list[float]] = ([], [])
    for run in range(RUNS):
        order = [(0, first), (1, second)] if run % 2 == 0 else [(1, second), (0, first)]
        for index, measure in order:
            rates[index].append(measure())
    return rates


def ratio_line(name: str, rates: tuple[list[float], list[float]], target: float, pairs: str) -> str:
    """The line of the results table: both medians, the second over the first against
    ``target``, and every run's pair."""
    base, measured = statistics.median(rates[0]), statistics.median(rates[1])
    ratio = measured / base
    verdict = "meets" if ratio >= target else "MISSES"
    runs = " ".join(f"{b:.0f}/{m:.0f}" for b, m in zip(*rates, strict=True))
    return (
        f"{name:<32} {base:>8.0f} {measured:>8.0f} {ratio:>6.0%}  "
        f"{verdict} the {target:.0%} target (runs, {pairs}: {runs})"
    )


def cold(name: str, url: str, first: int) -> str:
    """The first hand each worker records into an evening it has not read yet: ``COLD``
    evenings, one request after another, on a server that has just started."""
    times = []
    for evening_id in range(first, first + COLD):
        request = urllib.request.Request(
            f"{url}/api/v1/evenings/{evening_id}/hands",
            data=json.dumps(hand(evening_id)).encode(),
            headers={"Content-Type": "application/json"},
        )
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 201
        times.append(time.perf_counter() - start)
    return f"{name:<32} {statistics.median(times) * 1000:>8.1f} ms a hand (median of {COLD})"


def measure(label: str, url: str, folder: Path, start: str) -> list[str]:
    """Every figure on one database."""
    print(f"{label}: building {EVENINGS} evenings of {BEFORE} hands ...", file=sys.stderr)
    first, page = build(url, folder)
    lines = []
    with (
        serving(*bare_server(url, folder, start), log=folder / "bare.log") as bare,
        serving(*app_server(url, folder, start), log=folder / "app.log") as ours,
    ):
        script = str(ROOT / "bench" / "hands.lua")
        reading = str(ROOT / "bench" / "evenings.lua")
        span = [str(first), str(EVENINGS)]
        lines.append(cold(f"{label}: cold, first hand", ours, first))
        lines.append(
            compare(
                f"{label}: record a hand (/s)",
                ["-s", script, bare, "--", "/bare/evenings/", "/hands", *span],
                ["-s", script, ours, "--", "/api/v1/evenings/", "/hands", *span],
                0.60,
                warm=["-s", reading, ours, "--", "/api/v1/evenings/", *span],
            )
        )
        lines.append(
            compare(
                f"{label}: evening page, 200 hands",
                [f"{bare}/bare/evenings/{page}"],
                [f"{ours}/evenings/{page}"],
                0.50,
            )
        )
        recording = ["-s", script, ours, "--", "/api/v1/evenings/", "/hands", *span]
        lines.append(with_slow(f"{label}: record, 100 slow open", ours, recording, 0.80))
        lines.append(
            with_slow(f"{label}: page, 100 slow open", ours, [f"{ours}/evenings/{page}"], 0.80)
        )
    engine = create_engine(url)
    with engine.connect() as connection:
        counts = select(func.count()).where(Hand.evening_id < page).group_by(Hand.evening_id)
        sizes = connection.execute(counts).scalars().all()
    engine.dispose()
    lines.append(f"{label}: the evenings held {BEFORE} to {max(sizes)} hands during the runs")
    return lines


def wipe(url: str) -> None:
    """Empty the PostgreSQL database given for the benchmark."""
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL to measure too (wiped first)")
    parser.add_argument(
        "--start", default=str(ROOT / "scripts" / "start"), help="another server's start command"
    )
    args = parser.parse_args()
    assert shutil.which("wrk"), "wrk is missing: apt-get install wrk"
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "sqlite"
        folder.mkdir()
        lines += measure("SQLite", f"sqlite:///{folder / 'bench.sqlite'}", folder, args.start)
        if args.postgres:
            wipe(args.postgres)
            folder = Path(tmp) / "postgres"
            folder.mkdir()
            lines += measure("PostgreSQL", args.postgres, folder, args.start)
    print(f"{args.start}: {WORKERS} workers x {THREADS} threads; wrk -t2 -c8; ", end="")
    print(f"median of {RUNS} runs of {SECONDS} s")
    print(f"{'':<32} {'bare/s':>8} {'ours/s':>8} {'ratio':>6}")
    print(f"('slow open': ours without / with {SLOW_HEADERS} + {SLOW_BODIES} slow connections)")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
