"""The front ``scripts/start`` runs before the workers (``scorekeeper.server.front``): its
configuration, its own error answers, and the addresses the app sees behind it."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.server import front

LIMIT = 64 * 1024
SOCKET_FILES = ("socket", "print-socket", "long-socket")
UPLOADS = 100 * 1024 * 1024


def test_the_configuration_is_one_nginx_accepts(tmp_path: Path) -> None:
    config = front.write(
        tmp_path, "0.0.0.0", 5000, 60, LIMIT, uploads=["/import"], upload_max=UPLOADS
    )
    text = config.read_text()
    assert "    client_max_body_size 65536;" in text
    upload = text[text.index("location = /import {") :]
    upload = upload[: upload.index("}")]
    assert "client_max_body_size 104857600;" in upload
    assert "error_page 413 =413 /_front/413-upload.$front_lang.$front_kind;" in upload
    assert "error_page 502 =502 /_front/502.$front_lang.$front_kind;" in upload
    assert "proxy_set_header X-Front-Host $host;" in upload
    # One address cannot crowd out the others (docs/server.md).
    assert "limit_conn per_address 16;" in text
    assert "limit_req zone=requests burst=200 delay=20;" in text
    assert "rate=20r/s;" in text
    assert "limit_req_status 429;" in text
    assert "add_header Retry-After 1 always;" in text
    assert "proxy_request_buffering on;" in text
    assert "listen 0.0.0.0:5000 default_server;" in text
    assert "proxy_read_timeout 65s;" in text
    sock = Path((config.parent / "socket").read_text().strip())
    assert f"server unix:{sock};" in text
    assert sock.parent == config.parent  # in the instance folder's front-5000
    # Printouts go to their own workers (scripts/start runs them at a lower priority).
    printouts = Path((config.parent / "print-socket").read_text().strip())
    assert printouts != sock
    assert f"upstream printouts {{\n        server unix:{printouts};" in text
    pdfs = text[text.index("location ~ \\.pdf$ {") :]
    pdfs = pdfs[: pdfs.index("}")]
    assert "proxy_pass http://printouts;" in pdfs
    assert "proxy_set_header X-Front-Pool print;" in pdfs
    # A printout past its time is answered in words, not with the 502 or 504 page.
    assert "error_page 502 503 504 =504 /_front/504-print.$front_lang.$front_kind;" in pdfs
    assert "/_front/502." not in pdfs
    assert (config.parent / "errors" / "504-print.de.html").is_file()
    # Long ones are handed on to workers of their own (web/printouts.py).
    long = Path((config.parent / "long-socket").read_text().strip())
    assert f"upstream long_printouts {{\n        server unix:{long};" in text
    handed = text[text.index("location ^~ /_long/ {") :]
    handed = handed[: handed.index("}")]
    assert "internal;" in handed
    assert "proxy_pass http://long_printouts;" in handed
    assert "proxy_set_header X-Front-Pool long;" in handed
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    checked = subprocess.run(
        [nginx, "-t", "-p", str(config.parent), "-c", str(config), "-e", "stderr"],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr


def test_printouts_may_take_longer_than_the_tablets_requests(tmp_path: Path) -> None:
    text = front.write(tmp_path, "0.0.0.0", 5000, 60, LIMIT, print_timeout=300).read_text()
    tablets, printouts = text.split("location ~ \\.pdf$")
    assert "proxy_read_timeout 65s;" in tablets
    assert "proxy_read_timeout 300s;" in printouts
    assert "proxy_read_timeout 65s;" not in printouts


def test_an_ipv6_wildcard_takes_ipv4_too(tmp_path: Path) -> None:
    assert front.listen_address("::", 5000) == ("[::]:5000", " ipv6only=off")
    assert front.listen_address("::1", 80) == ("[::1]:80", "")


def test_a_socket_path_too_long_goes_to_a_private_folder(tmp_path: Path) -> None:
    deep = tmp_path / ("x" * 120)
    config = front.write(deep, "127.0.0.1", 5001, 60, LIMIT)
    sockets = [Path((config.parent / name).read_text().strip()) for name in SOCKET_FILES]
    folder = sockets[0].parent
    try:
        assert {sock.parent for sock in sockets} == {folder}
        assert all(len(str(sock)) <= front.SOCKET_PATH_MAX for sock in sockets)
        assert oct(folder.stat().st_mode & 0o777) == "0o700"
    finally:
        folder.rmdir()


def test_a_server_started_again_keeps_its_private_folder(tmp_path: Path) -> None:
    deep = tmp_path / ("x" * 120)
    config = front.write(deep, "127.0.0.1", 5001, 60, LIMIT)
    first = Path((config.parent / "socket").read_text().strip()).parent
    front.write(deep, "127.0.0.1", 5001, 60, LIMIT)
    again = Path((config.parent / "socket").read_text().strip()).parent
    try:
        assert again == first
        first.chmod(0o755)  # someone else may enter it now: not reused
        front.write(deep, "127.0.0.1", 5001, 60, LIMIT)
        other = Path((config.parent / "socket").read_text().strip()).parent
        assert other != first
        assert oct(other.stat().st_mode & 0o777) == "0o700"
        other.rmdir()
    finally:
        first.rmdir()


def test_its_own_errors_speak_as_the_app_does(tmp_path: Path) -> None:
    config = front.write(tmp_path, "127.0.0.1", 5001, 60, LIMIT, upload_max=UPLOADS)
    errors = config.parent / "errors"
    small = json.loads((errors / "413.en.json").read_text())
    assert small == {
        "errors": {
            "body": [
                "This request is too large: at most 64 KB can be sent here. Nothing was saved."
            ]
        }
    }
    german = json.loads((errors / "413-upload.de.json").read_text())
    assert german == {
        "errors": {
            "body": [
                "Diese Datei ist zu gross: Höchstens 100 MB können gesendet werden. "
                "Es wurde nichts gespeichert."
            ]
        }
    }
    english = json.loads((errors / "504.en.json").read_text())
    assert list(english["errors"]) == ["server"]
    page = (errors / "413-upload.en.html").read_text()
    assert "at most 100 MB can be sent" in page
    assert "Höchstens 100 MB" in page
    for status in (400, 408, 413, 502, 504):
        for name in (f"{status}.de.html", f"{status}.en.html", f"{status}.en.json"):
            assert (errors / name).is_file()
    assert "error_page 494 =400 /_front/400.$front_lang.$front_kind;" in config.read_text()


@pytest.fixture
def unix_socket() -> Iterator[socket.socket]:
    """A socket as gunicorn hands a request that came over its Unix socket."""
    with socket.socket(socket.AF_UNIX) as sock:
        yield sock


def backup_status(
    app: Flask, environ: dict[str, object], forwarded: str, front_host: str = "localhost"
) -> int:
    """The status of the backup page (this machine only) for a request so made."""
    client = app.test_client()
    client.environ_base.update(environ)
    headers = {"X-Forwarded-For": forwarded, "X-Front-Host": front_host}
    with client.get("/backup", headers=headers) as response:
        return response.status_code


def test_the_address_the_front_names_is_the_tablets(app: Flask, unix_socket: socket.socket) -> None:
    from_front = {"REMOTE_ADDR": "", "gunicorn.socket": unix_socket}
    assert backup_status(app, from_front, "192.168.1.30") == 403
    assert backup_status(app, from_front, "127.0.0.1") == 200


def test_a_forwarded_address_from_anyone_else_is_not_taken(app: Flask) -> None:
    with socket.socket() as tcp:
        tablet = {"REMOTE_ADDR": "192.168.1.30", "gunicorn.socket": tcp}
        assert backup_status(app, tablet, "127.0.0.1") == 403
    assert backup_status(app, {"REMOTE_ADDR": "192.168.1.30"}, "127.0.0.1") == 403


def test_the_host_the_front_read_is_checked_and_nobody_else_can_name_one(
    app: Flask, unix_socket: socket.socket
) -> None:
    """The front's ``$host`` is an absolute request line's name: a foreign one is refused;
    the same header from a TCP client is not the front's word and is ignored."""
    from_front = {"REMOTE_ADDR": "", "gunicorn.socket": unix_socket}
    assert backup_status(app, from_front, "127.0.0.1", "rebind.evil.example") == 421
    assert backup_status(app, from_front, "127.0.0.1", "") == 421
    with socket.socket() as tcp:
        local = {"REMOTE_ADDR": "127.0.0.1", "gunicorn.socket": tcp}
        assert backup_status(app, local, "127.0.0.1", "rebind.evil.example") == 200


def test_the_front_holds_no_more_connections_than_it_may_open_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limits = {"soft": 1024}
    monkeypatch.setattr(front.resource, "getrlimit", lambda _: (limits["soft"], 1 << 20))
    assert front.connections() == 496  # a user's usual limit: two files a connection
    limits["soft"] = 1 << 20
    assert front.connections() == front.CONNECTIONS_MAX
    limits["soft"] = 64
    assert front.connections() == 64  # never fewer than a small hall needs to start


def test_the_fronts_own_405_names_the_methods_the_app_takes() -> None:
    # A TRACE never reaches the app: the front answers it, with the Allow the app would send.
    routes = [
        ("/api/v1/evenings", {"GET", "HEAD", "OPTIONS"}),
        ("/api/v1/evenings", {"POST", "OPTIONS"}),
        ("/api/v1/evenings/<int:evening_id>/sheet.pdf", {"GET", "HEAD", "OPTIONS"}),
        ("/t/<code>", {"GET", "HEAD", "OPTIONS"}),
        ("/static/<path:filename>", {"GET", "HEAD", "OPTIONS"}),
    ]
    assert front.allow_map(routes).splitlines() == [
        '        "/api/v1/evenings" "GET, HEAD, OPTIONS, POST";',
        '        "~^/api/v1/evenings/[0-9]+/sheet[.]pdf$" "GET, HEAD, OPTIONS";',
        '        "~^/static/.+$" "GET, HEAD, OPTIONS";',
        '        "~^/t/[^/]+$" "GET, HEAD, OPTIONS";',
    ]
