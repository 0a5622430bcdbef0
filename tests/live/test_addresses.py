"""Behind the front, the app sees the tablet's address, never one the tablet made up."""

from __future__ import annotations

import http.client
import socket
import threading

import pytest
from sqlalchemy import create_engine, text

from tests.live.conftest import StartServer, Tablet


def test_checks_by_address_see_the_tablets_own(
    start_server: StartServer, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_ACCESS_PIN", "4711")
    server = start_server(workers=1, threads=1, ready="/openapi.json")
    tablet = Tablet()
    # This machine (loopback): the backup page opens, whatever address the request claims.
    spoofed = {"X-Forwarded-For": "192.168.1.30"}
    assert tablet.call(f"{server.url}/backup", headers=spoofed).status == 200
    # A wrong PIN is counted against the address the connection came from.
    wrong = server.api(tablet, "POST", "/unlock", {"pin": "0000"}, headers=spoofed)
    assert wrong.status == 401, wrong.text
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            remotes = connection.execute(text("SELECT remote FROM login_attempt")).scalars().all()
    finally:
        engine.dispose()
    assert remotes == ["127.0.0.1"]


def raw_status(port: int, request: bytes) -> int:
    """The status the server answers a request written byte by byte (no client library
    would send an empty ``Host`` or an absolute request line beside a local one)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        head = b""
        while b"\r\n" not in head:
            chunk = connection.recv(4096)
            if not chunk:
                break
            head += chunk
    return int(head.split(b" ", 2)[1])


def test_a_request_addressed_to_nobody_or_to_another_site_is_refused(
    start_server: StartServer,
) -> None:
    """Through the front as the hall reaches it: an empty ``Host``, and an absolute request
    line naming a foreign site beside a local ``Host``, are refused as a foreign ``Host``
    is (docs/hall-safety.md "Only our own host names"); the backup is never served."""
    server = start_server(workers=1, threads=1, ready="/openapi.json")
    port = int(server.url.rsplit(":", 1)[1])
    local = f"127.0.0.1:{port}".encode()
    ordinary = b"GET /backup HTTP/1.1\r\nHost: " + local + b"\r\nConnection: close\r\n\r\n"
    assert raw_status(port, ordinary) == 200
    refused = [
        b"GET /backup HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n",
        b"GET /backup HTTP/1.0\r\nConnection: close\r\n\r\n",
        b"GET http://rebind.evil.example/backup HTTP/1.1\r\nHost: "
        + local
        + b"\r\nConnection: close\r\n\r\n",
        b"GET http://rebind.evil.example:" + str(port).encode() + b"/backup/scorekeeper-backup.zip"
        b" HTTP/1.1\r\nHost: " + local + b"\r\nConnection: close\r\n\r\n",
    ]
    for request in refused:
        assert raw_status(port, request) in (400, 421), request


def status_and_retry(port: int, source: str, path: str) -> tuple[int, str | None]:
    """A GET from ``source``: its status and ``Retry-After``."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0)
    )
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        answer.read()
        return answer.status, answer.getheader("Retry-After")
    finally:
        connection.close()


def test_one_address_cannot_crowd_out_the_others(
    start_server: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sixty requests at once from one guest's address: past what the address may send, the
    front refuses them with 429 and ``Retry-After`` (docs/server.md); a tablet at another
    address is answered meanwhile. The limits are set small here (a burst of 5, one a
    second), so the refusals do not depend on how fast a busy machine sends the sixty: with
    the defaults they came only when the requests arrived close enough together."""
    monkeypatch.setenv("SCOREKEEPER_ADDRESS_REQUESTS_PER_SECOND", "1")
    monkeypatch.setenv("SCOREKEEPER_ADDRESS_BURST", "5")
    server = start_server(workers=1, threads=1, ready="/openapi.json")
    port = int(server.url.rsplit(":", 1)[1])
    guest = "127.0.9.9"
    answers: list[tuple[int, str | None]] = []
    barrier = threading.Barrier(60)

    def send() -> None:
        barrier.wait(timeout=30)
        answers.append(status_and_retry(port, guest, "/api/v1/openapi.json"))

    threads = [threading.Thread(target=send) for _ in range(60)]
    for thread in threads:
        thread.start()
    tablet = status_and_retry(port, "127.0.3.1", "/api/v1/evenings")
    for thread in threads:
        thread.join(timeout=60)
    assert tablet[0] == 200
    refused = [retry for status, retry in answers if status == 429]
    assert refused, answers
    assert all(retry == "1" for retry in refused)
    assert {status for status, _ in answers} <= {200, 429}
