"""How ``scripts/start``'s workers (``scorekeeper.gunicorn_worker``) share the hall's
connections, with its gunicorn settings and a stand-in app whose one page is slow."""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from scorekeeper.gunicorn_worker import DEFAULT_WORKER_DATA_TIMEOUT
from tests.server.conftest import Server, free_port, wait_until_answering

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")
#: How long the slow page takes: far longer than any quick page may wait.
SLOW_SECONDS = 4.0


def get(port: int, path: str) -> float:
    """GET ``path`` on a connection of its own, as a tablet arriving; seconds it took."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        assert (answer.status, answer.read()) == (200, b"ok")
    finally:
        connection.close()
    return time.perf_counter() - start


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    """Two workers of one thread each, with scripts/start's settings, serving the stand-in."""
    port = free_port()
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [
                str(GUNICORN),
                "--config",
                "python:scorekeeper.gunicorn_config",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "--threads",
                "1",
                "--no-control-socket",
                "tests.server.waiting_app:app",
            ],
            cwd=ROOT,
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


def test_tablets_arriving_while_a_worker_prints_are_answered_by_the_free_one(port: int) -> None:
    for _ in range(4):  # both workers have started and answered
        get(port, "/")
    printing = threading.Thread(target=get, args=(port, f"/slow?{SLOW_SECONDS}"))
    printing.start()
    time.sleep(0.5)  # the printout is under way in one worker's only thread
    barrier = threading.Barrier(8)

    def arrive(_: int) -> float:
        barrier.wait()
        return get(port, "/")

    with ThreadPoolExecutor(8) as pool:
        waited = list(pool.map(arrive, range(8)))
    printing.join()
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
    # As a browser opens connections ahead of need: one per worker, nothing sent on them.
    silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
    try:
        time.sleep(0.3)  # both taken by a worker
        assert get(port, "/") < DEFAULT_WORKER_DATA_TIMEOUT / 5
        # Not kept for ever: closed once nothing came within the wait.
        for connection in silent:
            connection.settimeout(DEFAULT_WORKER_DATA_TIMEOUT + 5)
            assert connection.recv(1) == b""
    finally:
        for connection in silent:
            connection.close()
