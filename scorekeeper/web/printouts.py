"""A printout answered once: kept on disk by what it prints, sent again by its ETag, rendered
ahead when an evening closes, and long ones sent to print workers of their own
(docs/server.md "Printouts kept, handed on and asked ahead": the measurements behind
each of these).

- **The key** of a printout is a digest of everything it prints, read cheaply: the
  evening's stamp (which every write to it changes), the stamp of the evening its pot came
  from, the names, the group, the language and the options asked, and ``PRINT_VERSION``
  (the code and templates that print it). Equal keys print equal PDFs.
- **The cache** is a folder of PDFs named by their key in the instance folder
  (``printouts/``), shared by every worker; each file is written whole and renamed into
  place. Past ``PRINT_CACHE_MB`` (500 MB) the least recently used go.
- **ETag**: the key. A repeat with ``If-None-Match`` is answered ``304`` without reading
  the file.
- **Long printouts**: behind the front, printouts are answered by the print workers; one
  that is long and not kept yet is handed on (``X-Accel-Redirect``) to the long printouts'
  own workers, so a settlement never waits behind a 10,000-hand sheet.
- **Ahead**: ``print_ahead`` asks the print workers for a printout right after a write
  that makes it wanted (an evening closed), without waiting for it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import socket
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request

from scorekeeper.web.hosts import host_name

#: The header the front sets on a request to each pool of print workers (docs/server.md).
POOL_HEADER = "X-Front-Pool"
#: Where the front takes a printout handed on to the long printouts' workers.
LONG_PREFIX = "/_long"
#: The header that lets a printout asked ahead by the app itself pass the access checks.
AHEAD_HEADER = "X-Print-Ahead"
#: Where the source of everything printed lives: a change there is a new ``PRINT_VERSION``.
PACKAGE = Path(__file__).resolve().parents[1]
PRINTED_FROM = (PACKAGE, PACKAGE.parent / "templates", PACKAGE.parent / "static" / "print.css")


@cache
def print_version() -> str:
    """A digest of the code, templates and print styles: a new version prints anew."""
    digest = hashlib.sha256()
    for root in PRINTED_FROM:
        files = [root] if root.is_file() else sorted(root.rglob("*"))
        for path in files:
            if path.suffix in (".py", ".html", ".css", ".mo") and path.is_file():
                digest.update(str(path.relative_to(PACKAGE.parent)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def key_of(kind: str, parts: dict[str, Any]) -> str:
    """The printout's key: a digest of its kind, what it prints and the print version."""
    text = json.dumps([print_version(), kind, parts], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:40]


@dataclass(frozen=True)
class PrintCache:
    """PDFs on disk by key, the least recently used dropped past ``limit`` bytes."""

    folder: Path
    limit: int

    def path(self, key: str) -> Path:
        """Where the PDF of ``key`` is kept."""
        return self.folder / f"{key}.pdf"

    def get(self, key: str) -> bytes | None:
        """The kept PDF, marked as used now; None when it is not kept."""
        path = self.path(key)
        try:
            data = path.read_bytes()
            os.utime(path)
        except FileNotFoundError:
            return None
        return data

    def put(self, key: str, data: bytes) -> None:
        """Keep ``data`` under ``key`` (written whole, then renamed), then make room."""
        self.folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".part")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, self.path(key))
        self.trim()

    def trim(self) -> None:
        """Drop the least recently used PDFs until the folder holds at most ``limit``."""
        kept = []
        for entry in os.scandir(self.folder):
            if entry.name.endswith(".pdf"):
                stat = entry.stat()
                kept.append((stat.st_mtime, stat.st_size, entry.path))
        total = sum(size for _, size, _ in kept)
        for _, size, path in sorted(kept):
            if total <= self.limit:
                break
            Path(path).unlink(missing_ok=True)
            total -= size


def print_cache(app: Flask) -> PrintCache:
    """The app's cache of printouts, in its instance folder."""
    limit = int(app.config.get("PRINT_CACHE_MB", 500)) * 1024 * 1024
    return PrintCache(Path(app.instance_path) / "printouts", limit)


@dataclass(frozen=True)
class Printout:
    """A printout to answer: its key's parts, its file name, how to make it, whether it is
    long (more than five pages: the long printouts' workers render it)."""

    kind: str
    parts: dict[str, Any]
    name: str
    make: Callable[[], bytes]
    long: bool = False

    @property
    def key(self) -> str:
        """The printout's key (``key_of``): also its ETag."""
        return key_of(self.kind, self.parts)


def answer(printout: Printout) -> Response:
    """The printout: ``304`` for the version the reader holds, the kept PDF, or a new one
    (rendered here, or handed on to the long printouts' workers)."""
    key = printout.key
    if key in request.if_none_match:
        response = Response(status=304)
    else:
        cache_ = print_cache(current_app)
        data = cache_.get(key)
        how = "kept"
        if data is None:
            if printout.long and request.headers.get(POOL_HEADER) == "print":
                return Response(headers={"X-Accel-Redirect": LONG_PREFIX + request.full_path})
            data = printout.make()
            cache_.put(key, data)
            how = "rendered"
        response = Response(data, mimetype="application/pdf")
        response.headers["Content-Disposition"] = f'inline; filename="{printout.name}"'
        response.headers["X-Printout"] = how
    response.set_etag(key)
    response.headers["Cache-Control"] = "no-cache"
    return response


def ahead_token(app: Flask, path: str) -> str:
    """What proves a request for ``path`` was sent by the app itself (``print_ahead``)."""
    secret = str(app.config["SECRET_KEY"]).encode()
    return hmac.new(secret, path.encode(), hashlib.sha256).hexdigest()


def asked_ahead() -> bool:
    """Whether this request is the app's own ask for a printout ahead of time."""
    token = request.headers.get(AHEAD_HEADER)
    wanted = ahead_token(current_app, request.full_path.rstrip("?"))
    return token is not None and hmac.compare_digest(token, wanted)


def print_ahead(paths: Iterable[tuple[str, bool]]) -> None:
    """Ask the print workers for each ``(path, long)`` without waiting: the request is
    written to their socket and the connection closed; the worker renders and keeps it.
    Nothing happens without the front's print sockets (``PRINT_SOCKETS``: the development
    server prints when asked)."""
    sockets = current_app.config.get("PRINT_SOCKETS")
    if not sockets:
        return
    short, long = sockets
    for path, is_long in paths:
        head = (
            f"GET {path} HTTP/1.1\r\nHost: {request.host}\r\n"
            f"X-Front-Host: {host_name(request.host)}\r\n"
            f"X-Forwarded-For: 127.0.0.1\r\n{POOL_HEADER}: {'long' if is_long else 'print'}\r\n"
            f"{AHEAD_HEADER}: {ahead_token(current_app, path)}\r\nConnection: close\r\n\r\n"
        )
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
                connection.settimeout(1)
                connection.connect(long if is_long else short)
                connection.sendall(head.encode())
        except OSError:
            current_app.logger.warning("printing %s ahead: the print workers are not there", path)
