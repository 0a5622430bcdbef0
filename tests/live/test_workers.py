"""How ``scripts/start``'s front and workers share the hall's connections: the real start
script serving a stand-in app whose one page is slow (``WSGI_APP``)."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.live.conftest import START, Server, free_port, wait_until_answering

#: A time limit: it runs after the parallel part, with the machine to itself.
pytestmark = pytest.mark.alone

ROOT = Path(__file__).resolve().parents[2]
#: How long the slow page takes: far longer than any quick page may wait.
SLOW_SECONDS = 4.0
#: How long the front waits for a silent client here (the setting; 10 s by default).
CLIENT_SECONDS = 2
#: How long a printout may take here before the front answers that it took too long.
PRINT_SECONDS = 3


def ask(connection: http.client.HTTPConnection, path: str) -> float:
    """GET ``path`` on ``connection``; seconds it took."""
    start = time.perf_counter()
    connection.request("GET", path)
    answer = connection.getresponse()
    assert (answer.status, answer.read()) == (200, b"ok")
    return time.perf_counter() - start


def get(port: int, path: str) -> float:
    """GET ``path`` on a connection of its own, as a tablet arriving; seconds it took."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        return ask(connection, path)
    finally:
        connection.close()


@pytest.fixture(scope="module")
def marks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the stand-in writes a line for each slow request it begins."""
    return tmp_path_factory.mktemp("marks") / "started"


def begun(marks: Path) -> int:
    """How many slow requests the stand-in has begun."""
    return len(marks.read_text().splitlines()) if marks.exists() else 0


def under_way(marks: Path, before: int) -> None:
    """Wait until the stand-in has begun one slow request more than ``before``."""
    deadline = time.monotonic() + 10
    while begun(marks) <= before:
        assert time.monotonic() < deadline, "the slow request never began"
        time.sleep(0.01)


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory, marks: Path) -> Iterator[int]:
    """Two workers of one thread each behind the front, as scripts/start runs them,
    serving the stand-in; one server for the module, since the stand-in keeps nothing
    and every test waits for its own requests and closes its connections."""
    port = free_port()
    tmp_path = tmp_path_factory.mktemp("workers")
    log = tmp_path / "server.log"
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WORKERS": "2",
        "THREADS": "1",
        "WSGI_APP": "tests.live.waiting_app:app",
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite'}",
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"),
        "SCOREKEEPER_CLIENT_SECONDS": str(CLIENT_SECONDS),
        "PRINT_TIMEOUT": str(PRINT_SECONDS),
        "WAITING_APP_STARTED": str(marks),
    }
    with log.open("wb") as output:
        process = subprocess.Popen(
            [str(START)],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def answers() -> bool:
        get(port, "/")  # a refused connection raises; any answer but "ok" fails the test
        return True

    server = Server(f"http://127.0.0.1:{port}", process, log)
    try:
        wait_until_answering(process, log, answers)
        yield port
    finally:
        server.stop()


def test_tablets_arriving_while_a_worker_prints_are_answered_by_the_free_one(
    port: int, marks: Path
) -> None:
    for _ in range(4):  # both workers have started and answered
        get(port, "/")
    before = begun(marks)
    printing = threading.Thread(target=get, args=(port, f"/slow?{SLOW_SECONDS}"))
    printing.start()
    under_way(marks, before)  # the printout holds one worker's only thread
    barrier = threading.Barrier(8)

    def arrive(_: int) -> float:
        barrier.wait()
        return get(port, "/")

    with ThreadPoolExecutor(8) as pool:
        waited = list(pool.map(arrive, range(8)))
    printing.join()
    assert max(waited) < SLOW_SECONDS / 2, waited


def test_tablets_on_kept_connections_do_not_wait_behind_a_printout(port: int, marks: Path) -> None:
    connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(6)]
    try:
        for connection in connections:  # each has its connection, as a tablet at a table
            ask(connection, "/")
        before = begun(marks)
        printing = threading.Thread(target=get, args=(port, f"/slow?{SLOW_SECONDS}"))
        printing.start()
        under_way(marks, before)
        with ThreadPoolExecutor(len(connections)) as pool:
            waited = list(pool.map(lambda c: ask(c, "/"), connections))
        printing.join()
    finally:
        for connection in connections:
            connection.close()
    assert max(waited) < SLOW_SECONDS / 2, waited


def test_a_tablet_keeps_its_connection_between_requests(port: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sockets = []
        for _ in range(3):
            connection.request("GET", "/")
            answer = connection.getresponse()
            assert answer.read() == b"ok"
            assert answer.getheader("Connection", "").lower() != "close"
            sockets.append(connection.sock)
        assert sockets[0] is not None
        assert sockets.count(sockets[0]) == 3
    finally:
        connection.close()


def test_connections_opened_ahead_and_left_silent_hold_up_no_tablet(port: int) -> None:
    for _ in range(4):  # both workers have started and answered
        get(port, "/")
    # As a browser opens connections ahead of need: more than there are workers.
    silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
    try:
        # The front accepts connections in the order they came: by the time it reads this
        # request, the silent ones are in its hands.
        assert get(port, "/") < 1
        # Not kept for ever: closed once nothing came within the front's wait.
        for connection in silent:
            connection.settimeout(CLIENT_SECONDS + 5)
            assert connection.recv(1) == b""
    finally:
        for connection in silent:
            connection.close()


def fetch(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, str, float]:
    """GET ``path`` on a connection of its own: status, body and seconds it took."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        start = time.perf_counter()
        connection.request("GET", path, headers=headers or {})
        answer = connection.getresponse()
        body = answer.read().decode()
        return answer.status, body, time.perf_counter() - start
    finally:
        connection.close()


def test_a_short_printout_is_answered_while_a_long_one_prints(port: int, marks: Path) -> None:
    """The print workers hand a long printout on to the long printouts' own workers
    (web/printouts.py), so a one-page settlement does not wait behind a long sheet."""
    found: list[tuple[int, str, float]] = []
    before = begun(marks)
    printing = threading.Thread(target=lambda: found.append(fetch(port, "/long.pdf?2.5")))
    printing.start()
    under_way(marks, before)  # the long printout holds the long printouts' worker
    status, pool, took = fetch(port, "/settlement.pdf")
    printing.join()
    assert (status, pool) == (200, "print")
    assert took < 1, took
    assert found[0][:2] == (200, "long")


def test_a_printout_past_its_time_is_answered_in_words(port: int) -> None:
    """Stopped after PRINT_TIMEOUT: the front says what to do instead, never a bare 502."""
    status, body, took = fetch(port, "/long.pdf?30", {"Accept-Language": "de"})
    assert status == 504
    assert "in Teilen gedruckt" in body
    assert "zu lange gedauert" in body
    assert took < 20
