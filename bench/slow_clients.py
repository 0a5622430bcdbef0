"""Slow clients and a printout against the production server: do ordinary requests wait?

A tablet on a weak Wi-Fi link sends its request a few bytes at a time. This script opens
such connections itself, all to 127.0.0.1 (each from an address of its own in
127.0.4.0/24, as the hall's tablets), bounded in number and time:

- ``--headers N`` connections that send ``GET /api/v1/evenings/1 HTTP/1.1``, ``Host: x``
  and then one more header line every ``--interval`` seconds, never ending the headers;
- ``--bodies M`` connections that send the complete headers of a hand's ``POST`` with a
  ``Content-Length`` of 10,000 and then one byte of the body every ``--interval`` seconds.

A connection the server closes is opened again (a real slow tablet retries too), and
every one is closed when the run ends. Meanwhile a tablet records a hand
(``POST /api/v1/evenings/<id>/hands``) and loads the table screen of a 200-hand evening
(``GET /evenings/<id>``), one request after another, each on a new connection as a tablet
arriving; the script reports how long they took, first with no slow connection open and
then with them.

``--pdf`` measures the printout instead: 8 tablets record hands, each on its kept-alive
connection, while the score sheet of the 200-hand evening is printed again and again
(``GET /api/v1/evenings/<id>/sheet.pdf``); it reports the tablets' waits, first without
the printout, then with it.

It starts the server itself (``scripts/start`` on a temporary instance folder and SQLite
database, or the command given with ``--start``, which reads ``HOST`` and ``PORT`` from the
environment like ``scripts/start``):

    .venv/bin/python bench/slow_clients.py                       # 50 + 50 slow connections
    .venv/bin/python bench/slow_clients.py --pdf                 # the printout
    .venv/bin/python bench/slow_clients.py --start /tmp/other-start --headers 4 --bodies 0

``SlowClients`` is also used by the test ``tests/live/test_slow_clients.py``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Anna", "Bert", "Clara", "Dora", "Emil"]
#: Longest a slow connection is kept open, whatever is asked: the harness always stops.
MAX_SECONDS = 600
#: Most slow connections it opens.
MAX_CONNECTIONS = 1000
#: What a slow body announces; a byte every interval never finishes it within a run.
BODY_LENGTH = 10_000


def hand(i: int) -> dict[str, object]:
    """A bid hand of a five-player table, different for each ``i``."""
    return {
        "contract": ["einfach", "einfach", "doppelt", "ohne"][i % 4],
        "bidder": PLAYERS[i % 5],
        "partner": PLAYERS[(i + 2) % 5],
        "points": 15 + (i * 7) % 45,
        "last_trick": ["none", "none", "none", "pagat_won"][i % 4],
    }


class SlowClients:
    """``headers`` connections trickling header lines and ``bodies`` trickling a body to
    ``host:port``, from one thread, until ``close()`` or ``seconds`` have passed."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        headers: int = 50,
        bodies: int = 50,
        interval: float = 2.0,
        seconds: float = 120.0,
        evening: int = 1,
    ) -> None:
        assert host.startswith("127.") or host == "localhost", "slow clients stay on loopback"
        assert headers + bodies <= MAX_CONNECTIONS
        self.address = (host, port)
        self.kinds = ["headers"] * headers + ["body"] * bodies
        self.interval = interval
        self.deadline = time.monotonic() + min(seconds, MAX_SECONDS)
        self.evening = evening
        self.stopping = threading.Event()
        self.sockets: list[socket.socket | None] = [None] * len(self.kinds)
        #: Connections opened, counting each reopening after the server closed one.
        self.opened = 0
        #: Connections the server closed (or refused) while they trickled.
        self.dropped = 0
        #: Connections the server answered before their request was complete.
        self.answered = 0
        self.thread = threading.Thread(target=self._run, name="slow-clients", daemon=True)

    def _start(self, kind: str, index: int) -> socket.socket | None:
        """A new slow connection with its first bytes sent, from the address of tablet
        ``index`` (127.0.4.x): each slow tablet is a device of its own, as in the hall,
        where the front's per-address limits would otherwise count them as one."""
        source = (f"127.0.4.{index % 250 + 1}", 0)
        try:
            sock = socket.create_connection(self.address, timeout=5, source_address=source)
        except OSError:
            self.dropped += 1
            return None
        self.opened += 1
        if kind == "headers":
            first = f"GET /api/v1/evenings/{self.evening} HTTP/1.1\r\nHost: x\r\n"
        else:
            first = (
                f"POST /api/v1/evenings/{self.evening}/hands HTTP/1.1\r\nHost: x\r\n"
                f"Content-Type: application/json\r\nContent-Length: {BODY_LENGTH}\r\n\r\n{{"
            )
        try:
            sock.sendall(first.encode())
        except OSError:
            sock.close()
            self.dropped += 1
            return None
        sock.setblocking(False)
        return sock

    def _trickle(self, index: int, step: int) -> None:
        """One more line or byte on connection ``index``; reopen it if it was closed."""
        sock = self.sockets[index]
        kind = self.kinds[index]
        if sock is not None:
            try:
                # Anything read means the server answered (an error, a timeout) or closed.
                if sock.recv(4096):
                    self.answered += 1
                closed = True
            except BlockingIOError:
                closed = False  # nothing from the server: it waits for the rest, as it should
            except OSError:
                closed = True
            if closed:
                sock.close()
                self.dropped += 1
                sock = None
        if sock is None:
            self.sockets[index] = self._start(kind, index)
            return
        chunk = f"X-Slow-{step}: {index}\r\n" if kind == "headers" else " "
        try:
            sock.send(chunk.encode())
        except OSError:
            sock.close()
            self.dropped += 1
            self.sockets[index] = None

    def _run(self) -> None:
        for index, kind in enumerate(self.kinds):
            if self.stopping.is_set():
                break
            self.sockets[index] = self._start(kind, index)
        step = 0
        while not self.stopping.wait(self.interval) and time.monotonic() < self.deadline:
            step += 1
            for index in range(len(self.kinds)):
                self._trickle(index, step)
        for sock in self.sockets:
            if sock is not None:
                sock.close()

    def open(self) -> SlowClients:
        """Start trickling; returns once every connection has been opened once."""
        self.thread.start()
        while self.opened + self.dropped < len(self.kinds) and self.thread.is_alive():
            time.sleep(0.05)
        return self

    def close(self) -> None:
        """Stop and close every connection."""
        self.stopping.set()
        self.thread.join(timeout=30)

    def __enter__(self) -> SlowClients:
        return self.open()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


# -- ordinary requests -----------------------------------------------------------------


def timed(
    host: str,
    port: int,
    method: str,
    path: str,
    body: object = None,
    timeout: float = 30,
    source: str | None = None,
) -> tuple[float, int]:
    """One request on a new connection (from ``source``, an address in 127.0.0.0/8, if
    given): seconds it took and the status (0 if it failed)."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection(
        host, port, timeout=timeout, source_address=(source, 0) if source else None
    )
    try:
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        answer.read()
        status = answer.status
    except OSError:
        status = 0
    finally:
        connection.close()
    return time.perf_counter() - start, status


#: How long a tablet waits for an ordinary answer before it counts as not answered.
PATIENCE = 10.0


def ordinary(
    host: str, port: int, hands_evening: int, page_evening: int, count: int
) -> dict[str, list[float]]:
    """``count`` hands recorded and table screens loaded, alternately, each from a tablet
    of its own (an address of 127.0.3.0/24, as the hall's tablets each have theirs); seconds
    each took. A request not answered as it should be counts as ``PATIENCE`` (or longer)."""
    times: dict[str, list[float]] = {"hand": [], "table screen": []}
    path = f"/api/v1/evenings/{hands_evening}/hands"
    for i in range(count):
        tablet = f"127.0.3.{i % 250 + 1}"
        took, status = timed(host, port, "POST", path, hand(i), PATIENCE, tablet)
        times["hand"].append(took if status == 201 else max(took, PATIENCE))
        page = f"/evenings/{page_evening}"
        took, status = timed(host, port, "GET", page, None, PATIENCE, tablet)
        times["table screen"].append(took if status == 200 else max(took, PATIENCE))
    return times


#: The guest's address in the flood: one device of the hall.
GUEST = "127.0.9.9"


class Flood:
    """A guest's flood from one address (``GUEST``): ``connections`` connections, each
    sending ``pipelined`` GETs of ``path`` at once and reading the answers slowly (512
    bytes every ``interval`` s); a connection the server closes is opened again, every one
    is closed at the end (at most ``seconds`` s, and ``MAX_SECONDS``)."""

    def __init__(
        self,
        host: str,
        port: int,
        path: str,
        *,
        connections: int,
        pipelined: int = 50,
        interval: float = 0.05,
        seconds: float = 120,
    ) -> None:
        self.host, self.port, self.path = host, port, path
        self.connections = min(connections, MAX_CONNECTIONS)
        self.pipelined = pipelined
        self.interval = interval
        self.stop = time.monotonic() + min(seconds, MAX_SECONDS)
        self.done = threading.Event()
        self.threads: list[threading.Thread] = []
        #: Answers read, by status line's code (429: refused by the front).
        self.statuses: dict[str, int] = {}
        self.lock = threading.Lock()

    def _flood(self) -> None:
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n\r\n".encode()
            * self.pipelined
        )
        while not self.done.is_set() and time.monotonic() < self.stop:
            try:
                with socket.create_connection(
                    (self.host, self.port), timeout=5, source_address=(GUEST, 0)
                ) as sock:
                    sock.sendall(request)
                    while not self.done.is_set() and time.monotonic() < self.stop:
                        chunk = sock.recv(512)
                        if not chunk:
                            break
                        self._count(chunk)
                        time.sleep(self.interval)
            except OSError:
                time.sleep(self.interval)

    def _count(self, chunk: bytes) -> None:
        for part in chunk.split(b"HTTP/1.1 ")[1:]:
            code = part[:3].decode(errors="replace")
            if code.isdigit():
                with self.lock:
                    self.statuses[code] = self.statuses.get(code, 0) + 1

    def __enter__(self) -> Flood:
        for _ in range(self.connections):
            thread = threading.Thread(target=self._flood, daemon=True)
            thread.start()
            self.threads.append(thread)
        return self

    def __exit__(self, *_: object) -> None:
        self.done.set()
        for thread in self.threads:
            thread.join(timeout=10)


def p99(times: list[float]) -> float:
    """The 99th percentile in milliseconds (of few samples, near the slowest)."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def summary(times: list[float]) -> str:
    """Median and slowest, in milliseconds."""
    return f"median {statistics.median(times) * 1000:7.1f} ms, max {max(times) * 1000:7.1f} ms"


def tablets_while(
    host: str, port: int, evenings: list[int], seconds: float, background: Callable[[], None]
) -> list[float]:
    """Tablets recording a hand every 0.2 s, each on its own kept-alive connection, for
    ``seconds`` while ``background`` runs in a thread of its own; every wait."""
    waits: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def tablet(evening: int) -> None:
        connection = http.client.HTTPConnection(host, port, timeout=60)
        i = 0
        try:
            while time.monotonic() < stop:
                start = time.perf_counter()
                connection.request(
                    "POST",
                    f"/api/v1/evenings/{evening}/hands",
                    body=json.dumps(hand(i)).encode(),
                    headers={"Content-Type": "application/json"},
                )
                answer = connection.getresponse()
                answer.read()
                assert answer.status == 201, answer.status
                with lock:
                    waits.append(time.perf_counter() - start)
                i += 1
                time.sleep(0.2)
        finally:
            connection.close()

    done = threading.Event()

    def loop() -> None:
        while not done.is_set() and time.monotonic() < stop:
            background()

    threads = [threading.Thread(target=tablet, args=(e,)) for e in evenings]
    side = threading.Thread(target=loop)
    side.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    side.join()
    return waits


# -- a server of its own ---------------------------------------------------------------


def free_port() -> int:
    """A port nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(
    command: list[str], folder: Path, workers: int, database: str | None = None
) -> Iterator[int]:
    """The server started as ``command`` (``scripts/start`` by default) on a new SQLite
    database in ``folder`` (or on ``database``, a PostgreSQL URL whose database should be
    empty), until the block ends; yields its port."""
    port = free_port()
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WORKERS": str(workers),
        "SCOREKEEPER_DATABASE_URL": database or f"sqlite:///{folder / 'slow.sqlite'}",
        "SCOREKEEPER_INSTANCE_PATH": str(folder),
    }
    log = folder / "server.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            command,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=ROOT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/evenings", timeout=5):
                    break
            except (OSError, urllib.error.HTTPError):
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def server_options(parser: argparse.ArgumentParser) -> None:
    """``--workers``, ``--start`` and ``--database``: the server ``serving`` starts."""
    parser.add_argument("--workers", type=int, default=(os.cpu_count() or 1) + 1)
    parser.add_argument(
        "--database", help="a PostgreSQL URL (an empty database) instead of a new SQLite file"
    )
    parser.add_argument(
        "--start", default=str(ROOT / "scripts" / "start"), help="the server's start command"
    )


def build(port: int, hands: int) -> int:
    """A five-player evening of ``hands`` hands, recorded through the API; its id."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:

        def call(method: str, path: str, body: object) -> dict[str, Any]:
            connection.request(
                method,
                path,
                body=json.dumps(body).encode(),
                headers={"Content-Type": "application/json"},
            )
            answer = connection.getresponse()
            data: dict[str, Any] = json.loads(answer.read())
            assert answer.status == 201, data
            return data

        evening = int(
            call("POST", "/api/v1/evenings", {"game": "troggen", "players": PLAYERS})["id"]
        )
        for i in range(hands):
            call("POST", f"/api/v1/evenings/{evening}/hands", hand(i))
    finally:
        connection.close()
    return evening


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headers", type=int, default=50, help="connections trickling headers")
    parser.add_argument("--bodies", type=int, default=50, help="connections trickling a body")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between bytes")
    parser.add_argument("--count", type=int, default=20, help="hands and screens timed")
    parser.add_argument("--pdf", action="store_true", help="measure the printout instead")
    parser.add_argument(
        "--flood",
        type=int,
        default=0,
        help="connections of one guest pipelining 50 GETs each and reading slowly, instead",
    )
    server_options(parser)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        serving([args.start], Path(tmp), args.workers, args.database) as port,
    ):
        host = "127.0.0.1"
        page = build(port, 200)
        if args.pdf:
            evenings = [build(port, 0) for _ in range(8)]
            timed(host, port, "GET", f"/api/v1/evenings/{page}/sheet.pdf")  # fonts loaded
            before = tablets_while(host, port, evenings, 10, lambda: time.sleep(0.1))
            renders: list[float] = []

            def printout() -> None:
                took, status = timed(host, port, "GET", f"/api/v1/evenings/{page}/sheet.pdf")
                assert status == 200, status
                renders.append(took)

            during = tablets_while(host, port, evenings, 10, printout)
            print(f"printout of 200 hands: {summary(renders)} ({len(renders)} printed)")
            print(f"8 tablets, no printout:  {summary(before)} ({len(before)} hands)")
            print(f"8 tablets, printing:     {summary(during)} ({len(during)} hands)")
            return
        hands_evening = build(port, 0)
        ordinary(host, port, hands_evening, page, 3)  # warm
        quiet = ordinary(host, port, hands_evening, page, args.count)
        if args.flood:
            with Flood(host, port, f"/evenings/{page}", connections=args.flood) as flood:
                time.sleep(2)  # the flood under way
                flooded = ordinary(host, port, hands_evening, page, args.count)
            print(
                f"a guest's {args.flood} connections from {GUEST}, 50 pipelined GETs each, "
                f"read slowly; {args.count} of each request from other addresses"
            )
            for name in quiet:
                ratio = p99(flooded[name]) / p99(quiet[name])
                print(f"{name:<13} quiet:   {summary(quiet[name])}, p99 {p99(quiet[name]):.1f} ms")
                print(
                    f"{name:<13} flooded: {summary(flooded[name])}, "
                    f"p99 {p99(flooded[name]):.1f} ms ({ratio:.2f}x)"
                )
            print(f"the guest's answers by status: {dict(sorted(flood.statuses.items()))}")
            return
        with SlowClients(
            host,
            port,
            headers=args.headers,
            bodies=args.bodies,
            interval=args.interval,
            seconds=args.count * 3 + 120,
        ) as slow:
            time.sleep(args.interval * 2)  # every slow connection has trickled twice
            loaded = ordinary(host, port, hands_evening, page, args.count)
        print(
            f"{args.headers} trickling headers, {args.bodies} trickling a body, "
            f"a byte or line every {args.interval:g} s; {args.count} of each request"
        )
        for name in quiet:
            print(f"{name:<13} no slow connection: {summary(quiet[name])}")
            print(f"{name:<13} slow connections:   {summary(loaded[name])}")
        print(
            f"slow connections: {slow.opened} opened, {slow.dropped} closed by the server, "
            f"{slow.answered} answered before their request was complete"
        )


if __name__ == "__main__":
    main()
