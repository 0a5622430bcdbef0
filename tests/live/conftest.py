"""The production server (``scripts/start``: gunicorn workers) on this test's database.

These tests talk HTTP to separate worker processes, as the tablets of a museum hall do:
races between processes, a killed server and a session read by another process are what
they are about, and none of those shows in a test client inside one process.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

START = Path(__file__).resolve().parents[2] / "scripts" / "start"
BENCH = START.parents[1] / "bench"
#: How long a server may take to answer after its start (imports, the schema check).
READY_SECONDS = 30


def bench_module(name: str) -> ModuleType:
    """A harness of ``bench/`` (the tests drive the hall as the benchmarks do); the
    benchmarks import each other by name, so their folder goes on the path."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(name)


@dataclass
class Answer:
    """An HTTP answer: status, body text and, for JSON, the data."""

    status: int
    text: str
    headers: dict[str, str]

    @property
    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.text)


@dataclass
class Tablet:
    """An HTTP client with its own cookies, like one tablet at the table."""

    jar: CookieJar = field(default_factory=CookieJar)
    opener: urllib.request.OpenerDirector = field(init=False)

    def __post_init__(self) -> None:
        # No proxy from the environment: the servers are on this machine.
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(self.jar)
        )

    def call(
        self,
        url: str,
        method: str = "GET",
        body: Any = None,
        headers: dict[str, str] | None = None,
        form: dict[str, str] | None = None,
    ) -> Answer:
        """Send one request and read the whole answer (redirects are followed)."""
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            kind = "application/x-www-form-urlencoded"
        else:
            data = None if body is None else json.dumps(body).encode()
            kind = "application/json"
        request = urllib.request.Request(
            url, data=data, method=method, headers={"Content-Type": kind, **(headers or {})}
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return Answer(response.status, response.read().decode(), dict(response.headers))
        except urllib.error.HTTPError as error:
            with error:
                return Answer(error.code, error.read().decode(), dict(error.headers))

    def csrf_token(self, url: str) -> str:
        """The CSRF token of the form on the page at ``url`` (kept in this tablet's session)."""
        found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', self.call(url).text)
        assert found is not None
        return found.group(1)


@dataclass
class Server:
    """``scripts/start`` running in its own process group, logging to a file."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def api(self, tablet: Tablet, method: str, path: str, body: Any = None, **kw: Any) -> Answer:
        """Call the JSON API."""
        return tablet.call(f"{self.url}/api/v1{path}", method, body, **kw)

    def kill(self) -> None:
        """SIGKILL to the master and every worker at once, as a crash or a pulled plug."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Shut down at once (SIGQUIT: no wait for idle connections); killed if it hangs."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGQUIT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def free_port() -> int:
    """A port nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


StartServer = Callable[..., Server]


def wait_until_answering(
    process: subprocess.Popen[bytes], log: Path, answers: Callable[[], bool]
) -> None:
    """Wait until ``answers()`` says the server started as ``process`` answers, for at most
    ``READY_SECONDS``; fail with its log if it stops or stays silent."""
    deadline = time.monotonic() + READY_SECONDS
    while True:
        assert process.poll() is None, f"the server stopped:\n{log.read_text()}"
        try:
            if answers():
                return
        except OSError:
            pass
        assert time.monotonic() < deadline, f"no answer:\n{log.read_text()}"
        time.sleep(0.1)


@contextmanager
def servers(database_url: str, folder: Path) -> Iterator[StartServer]:
    """Start servers on ``database_url``, logging into ``folder``; all stop at the end."""
    started: list[Server] = []

    def start(
        *,
        workers: int = 2,
        threads: int = 2,
        instance: Path | None = None,
        port: int = 0,
        ready: str = "/evenings",
    ) -> Server:
        """A server; ``port``: where to listen (a free one if 0), e.g. a killed one's;
        ``ready``: the API path that answers 200 once it has started."""
        port = port or free_port()
        env = {
            **os.environ,
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "WORKERS": str(workers),
            "THREADS": str(threads),
            "SCOREKEEPER_DATABASE_URL": database_url,
            "SCOREKEEPER_INSTANCE_PATH": str(instance or folder / "instance"),
            "SCOREKEEPER_HOST_NAMES": "tablet.hall",  # the hall's name in test_outbox.py
        }
        env.pop("SCOREKEEPER_SECRET_KEY", None)  # the instance's own key, as in the hall
        env.pop("SCOREKEEPER_PASSWORD_HASH_METHOD", None)  # and the laptop's own hashing
        log = folder / f"server-{port}.log"
        with log.open("wb") as output:
            process = subprocess.Popen(
                [str(START)],
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        server = Server(f"http://127.0.0.1:{port}", process, log)
        started.append(server)
        probe = Tablet()
        wait_until_answering(process, log, lambda: server.api(probe, "GET", ready).status == 200)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.stop()


@pytest.fixture
def start_server(database_url: str, tmp_path: Path) -> Iterator[StartServer]:
    """Start servers on this test's database; all stop when the test ends."""
    with servers(database_url, tmp_path) as start:
        yield start
