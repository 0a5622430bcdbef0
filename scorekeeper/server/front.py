"""The front ``scripts/start`` puts before the app's workers: nginx, as its child.

A tablet on a weak Wi-Fi link sends its request slowly, and a worker that reads a request
serves nobody else meanwhile: four connections sending a header line every 2 s stopped a
server of three gunicorn workers. nginx reads every request whole (headers and body, a
body above a megabyte into a file of its own) before it hands it to a worker over a Unix
socket in the instance folder, and keeps the tablets' connections open between requests
itself; a worker takes a request only when it is free, so a tablet never waits behind a
printout on a busy worker. ``docs/server.md`` gives the measurements behind the choice.

This module writes nginx's configuration for one server (``write``, run by
``flask --app scorekeeper front-config`` from ``scripts/start``): the app's upload limit,
timeouts that fit gunicorn's, its own errors (a body too large, a request too slow, the
app not answering) as the app's error page or, under ``/api/``, the API's error shape, in
German or English; and it lets the app see the tablet's address behind it
(``TrustedFront``).
"""

from __future__ import annotations

import html
import json
import os
import re
import resource
import socket
import stat
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper.web.hosts import FRONT_HOST
from scorekeeper.web.printouts import LONG_PREFIX

#: Per address (docs/server.md "One address cannot crowd out the others"): connections
#: with a request in hand at once, and requests a second, of which ``BURST`` may come at
#: once (``BURST_AT_ONCE`` of them without waiting, the rest waiting their turn) before
#: more are refused with 429. Sized from ``bench/afternoon.py``: a tablet holds one
#: connection and sends a request every second or two, the organiser's setup registers
#: 200 entrants one after the other, and none of them meets a limit.
CONNECTIONS_PER_ADDRESS = 16
REQUESTS_PER_SECOND = 20
BURST = 200
BURST_AT_ONCE = 20


@dataclass(frozen=True)
class PerAddress:
    """The front's limits per address (the settings ``ADDRESS_CONNECTIONS``,
    ``ADDRESS_REQUESTS_PER_SECOND``, ``ADDRESS_BURST``; the defaults above)."""

    connections: int = CONNECTIONS_PER_ADDRESS
    per_second: int = REQUESTS_PER_SECOND
    burst: int = BURST


#: Seconds a client may take to send its headers, between two reads of its body and
#: between two writes of its answer, before nginx gives up on it (408); the connection
#: takes no worker meanwhile. The setting ``CLIENT_SECONDS``.
CLIENT_SECONDS = 10
#: Seconds a kept-alive connection may stay idle between two requests.
KEEPALIVE_SECONDS = 75
#: Longest path of a Unix socket (108 bytes on Linux, less elsewhere).
SOCKET_PATH_MAX = 100
#: Connections the front holds at most (tablets, slow ones, and its own to the workers).
CONNECTIONS_MAX = 4096

#: What the front says for the errors it answers itself: (status, field of the API's error
#: shape, English, German). 413 speaks as the app's own handler does (``web.errors``).
ERRORS: dict[int, tuple[str, str, str, str]] = {
    400: (
        "Bad Request",
        "request",
        "The request was incomplete, so nothing was saved. Go back, reload the page and "
        "enter it again.",
        "Die Anfrage war unvollständig, deshalb wurde nichts gespeichert. Gehen Sie zurück, "
        "laden Sie die Seite neu und geben Sie es nochmals ein.",
    ),
    408: (
        "Request Timeout",
        "request",
        "The request arrived too slowly and was not read, so nothing was saved. Send it again.",
        "Die Anfrage kam zu langsam an und wurde nicht gelesen, deshalb wurde nichts "
        "gespeichert. Senden Sie sie nochmals.",
    ),
    429: (
        "Too Many Requests",
        "request",
        "This device sent too many requests at once, so this one was not answered. Wait a "
        "moment and try again.",
        "Dieses Gerät hat zu viele Anfragen auf einmal gesendet, deshalb wurde diese nicht "
        "beantwortet. Warten Sie einen Moment und versuchen Sie es nochmals.",
    ),
    413: (
        "Content Too Large",
        "body",
        "This request is too large: at most {kb} KB can be sent here. Nothing was saved.",
        "Diese Anfrage ist zu gross: Höchstens {kb} KB können hier gesendet werden. Es "
        "wurde nichts gespeichert.",
    ),
    405: (
        "Method Not Allowed",
        "request",
        "This address cannot be used this way (the method is not one it takes).",
        "Diese Adresse kann so nicht verwendet werden (sie nimmt diese Anfrageart nicht an).",
    ),
    502: (
        "Bad Gateway",
        "server",
        "Scorekeeper is not answering right now (it may be starting). Wait a moment, check "
        "whether it was saved, and send it again if not.",
        "Scorekeeper antwortet gerade nicht (es startet vielleicht). Warten Sie einen "
        "Moment, prüfen Sie, ob es gespeichert wurde, und senden Sie es sonst nochmals.",
    ),
    504: (
        "Gateway Timeout",
        "server",
        "Scorekeeper took too long to answer. Check whether it was saved, and send it again "
        "if not.",
        "Scorekeeper hat zu lange für die Antwort gebraucht. Prüfen Sie, ob es gespeichert "
        "wurde, und senden Sie es sonst nochmals.",
    ),
}
#: nginx answers these with the page of the status given (494: headers too large).
ALIASES = {494: 400, 503: 502}
#: A printout that took longer than its workers may (a 502 when the worker was stopped, a
#: 504 when the front stopped waiting): its own page, saying what to do instead.
PRINT_TOO_LONG = (
    "server",
    "This printout took too long and was stopped. A very long score sheet prints in parts: "
    "open the evening's settlement and print it part by part. Or ask again in a minute, "
    "when fewer printouts are waiting.",
    "Dieser Ausdruck hat zu lange gedauert und wurde abgebrochen. Ein sehr langes "
    "Punkteblatt wird in Teilen gedruckt: Öffnen Sie die Abrechnung des Abends und drucken "
    "Sie es Teil für Teil. Oder versuchen Sie es in einer Minute nochmals, wenn weniger "
    "Ausdrucke warten.",
)
#: The 413 of an address that takes a file (``web.bodies.takes_upload``): its own page.
UPLOAD_TOO_LARGE = (
    "body",
    "This file is too large: at most {mb} MB can be sent. Nothing was saved.",
    "Diese Datei ist zu gross: Höchstens {mb} MB können gesendet werden. Es wurde nichts "
    "gespeichert.",
)

PAGE = """<!doctype html>
<html lang="de"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Scorekeeper: {status}</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body><header class="top"><a class="brand" href="/">Scorekeeper</a></header>
<main id="main">
<h1>Entschuldigung <span class="muted">({status})</span></h1>
<p>{de}</p>
<p><a href="/">Zurück zu den Abenden</a></p>
<h1 lang="en">Sorry <span class="muted">({status})</span></h1>
<p lang="en">{en}</p>
<p lang="en"><a href="/">Back to the evenings</a></p>
</main></body></html>
"""

#: nginx's configuration, written by ``write``: a template with ``str.format`` fields (its
#: own braces doubled), beside this module.
CONFIG = Path(__file__).with_name("nginx.conf.template").read_text(encoding="utf-8")

#: How the front hands a request on, the same to every pool of workers (a template too).
PROXY = Path(__file__).with_name("nginx-proxy.conf.template").read_text(encoding="utf-8").rstrip()


def connections() -> int:
    """How many connections the front may hold at once: ``CONNECTIONS_MAX``, or as many as
    the open-file limit allows (a proxied request holds two files: the tablet's connection
    and the worker's), leaving some for its own files. ``scripts/start`` raises the limit
    to the most the user may have first; a user's limit is often 1,024."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return CONNECTIONS_MAX
    return max(64, min(CONNECTIONS_MAX, (soft - 32) // 2))


def run_folder(instance: Path, port: int) -> Path:
    """Where one server's front keeps its configuration, socket and files: the instance
    folder's ``front-<port>`` (servers on other ports may share the instance folder)."""
    return instance / f"front-{port}"


#: The pools of workers, each on its own socket ``<pool>.sock``.
POOLS = ("app", "print", "long")


def socket_folder(run: Path) -> Path:
    """Where the pools' Unix sockets go: the run folder, or a private temporary folder when
    a socket's path there would be too long (a deep instance folder).

    The private folder is the one the last start of this server wrote down (in ``socket``)
    while it is still this user's alone, else a new one; ``scripts/start`` removes it when
    the server stops. So a server started again and again uses one folder, not three more
    each time."""
    longest = max(POOLS, key=len)
    if len(os.fsencode(run / f"{longest}.sock")) <= SOCKET_PATH_MAX:
        return run
    written = run / "socket"
    if written.is_file():
        earlier = Path(written.read_text(encoding="utf-8").strip()).parent
        if private(earlier):
            return earlier
    return Path(tempfile.mkdtemp(prefix="scorekeeper-"))


def private(folder: Path) -> bool:
    """Whether ``folder`` is a temporary folder of this user's that nobody else may enter:
    a socket there trusts whoever reaches it (``TrustedFront``)."""
    try:
        status = folder.lstat()
    except OSError:
        return False
    return (
        folder.parent == Path(tempfile.gettempdir())
        and folder.name.startswith("scorekeeper-")
        and stat.S_ISDIR(status.st_mode)
        and status.st_uid == os.geteuid()
        and stat.S_IMODE(status.st_mode) == 0o700
    )


def listen_address(host: str, port: int) -> tuple[str, str]:
    """nginx's ``listen`` address for ``HOST`` and ``PORT``, and the ``ipv6only`` flag an
    IPv6 wildcard needs to take IPv4 too (as gunicorn's did)."""
    if ":" in host:
        flag = " ipv6only=off" if host == "::" else ""
        return f"[{host}]:{port}", flag
    return f"{host}:{port}", ""


def error_files(folder: Path, body_max: int, upload_max: int) -> None:
    """The front's error answers, one file per status, language and kind; the 413 of an
    upload's address as ``413-upload``."""
    folder.mkdir(parents=True, exist_ok=True)
    sizes = {"kb": body_max // 1024, "mb": upload_max // (1024 * 1024)}
    answers: list[tuple[str, int, str, str, str]] = [
        (str(status), status, field, english, german)
        for status, (_, field, english, german) in ERRORS.items()
    ]
    answers.append(("413-upload", 413, *UPLOAD_TOO_LARGE))
    answers.append(("504-print", 504, *PRINT_TOO_LONG))
    for name, status, field, english, german in answers:
        en, de = english.format(**sizes), german.format(**sizes)
        for lang, message in (("en", en), ("de", de)):
            body = json.dumps({"errors": {field: [message]}}, ensure_ascii=False)
            (folder / f"{name}.{lang}.json").write_text(body + "\n", encoding="utf-8")
            page = PAGE.format(status=status, de=html.escape(de), en=html.escape(en))
            (folder / f"{name}.{lang}.html").write_text(page, encoding="utf-8")


def upload_locations(uploads: Iterable[str], upload_max: int, proxy: str, pages: str) -> str:
    """A location for each address that takes a file, with the upload's body limit and
    its 413 (nginx inherits no ``error_page`` into a location that sets one, so each
    names them all)."""
    own = pages.replace("/_front/413.", "/_front/413-upload.")
    blocks = []
    for path in sorted(set(uploads)):
        blocks.append(
            f"        location = {path} {{\n"
            f"            client_max_body_size {upload_max};\n"
            f"{own}"
            f"            proxy_pass http://scorekeeper;\n"
            f"{proxy}\n"
            f"        }}\n"
        )
    return "\n".join(blocks)


def print_pages(pages: Iterable[str]) -> str:
    """The error pages of the printouts' locations: every one of the server's, but a 502
    or 504 (a printout past its time) answered with ``504-print``, in words."""
    own = [p for p in pages if not re.search(r"error_page (502|503|504) ", p)]
    own.append("        error_page 502 503 504 =504 /_front/504-print.$front_lang.$front_kind;")
    return "\n".join("    " + page for page in own)


def allow_map(routes: Iterable[tuple[str, Iterable[str]]]) -> str:
    """The lines of the ``$front_allow`` map: for each of the app's routes (its rule and its
    methods, as Flask's URL map has them), the path it matches and the methods the app
    itself would name in ``Allow``. Rules without variables are matched exactly (nginx
    tries those first); the others as patterns, those with fewer variables first."""
    methods: dict[str, set[str]] = {}
    for rule, taken in routes:
        methods.setdefault(rule, set()).update(taken)
    exact, patterns = [], []
    for rule in sorted(methods, key=lambda r: (r.count("<"), -len(r), r)):
        allowed = ", ".join(sorted(methods[rule]))
        if "<" not in rule:
            exact.append(f'        "{rule}" "{allowed}";')
            continue
        pattern = rule.replace(".", "[.]")
        pattern = re.sub(r"<int:\w+>", "[0-9]+", pattern)
        pattern = re.sub(r"<path:\w+>", ".+", pattern)
        pattern = re.sub(r"<(?:\w+:)?\w+>", "[^/]+", pattern)
        patterns.append(f'        "~^{pattern}$" "{allowed}";')
    return "\n".join(exact + patterns)


def write(
    instance: Path,
    host: str,
    port: int,
    timeout: int,
    body_max: int,
    routes: Iterable[tuple[str, Iterable[str]]] = (),
    print_timeout: int | None = None,
    *,
    uploads: Iterable[str] = (),
    upload_max: int | None = None,
    per_address: PerAddress = PerAddress(),
    client_seconds: int = CLIENT_SECONDS,
) -> Path:
    """Write the front's configuration and error pages for the server on ``host:port``
    whose workers time out after ``timeout`` seconds (the printouts' after
    ``print_timeout``, by default the same) and serve ``routes`` (rules and methods, for
    the ``Allow`` of the front's own 405); returns the configuration file. A body may be
    ``body_max`` bytes, at the addresses in ``uploads`` ``upload_max`` (``web.bodies``);
    a client has ``client_seconds`` for each part of its request and of its answer.
    The workers' socket path is written beside it, in ``socket``, the printouts'
    workers' in ``print-socket``, the long printouts' workers' in ``long-socket``."""
    run = run_folder(instance, port)
    run.mkdir(parents=True, exist_ok=True)
    os.chmod(run, 0o700)  # the socket trusts whoever reaches it (TrustedFront)
    for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (run / name).mkdir(exist_ok=True)
    upload_max = upload_max or body_max
    error_files(run / "errors", body_max, upload_max)
    sockets = socket_folder(run)
    sock, print_sock, long_sock = (sockets / f"{pool}.sock" for pool in POOLS)
    listen, ipv6only = listen_address(host, port)
    pages = []
    for status in [*ERRORS, *ALIASES]:
        shown = ALIASES.get(status, status)
        pages.append(
            f"        error_page {status} ={shown} /_front/{shown}.$front_lang.$front_kind;"
        )
    config = CONFIG.format(
        # As root, nginx would hand its connections to "nobody", who may not reach the socket.
        user="user root;\n" if os.geteuid() == 0 else "",
        run=run,
        socket=sock,
        listen=listen,
        ipv6only=ipv6only,
        body_max=body_max,
        connections=connections(),
        connections_per_address=per_address.connections,
        per_second=per_address.per_second,
        burst=per_address.burst,
        burst_at_once=min(BURST_AT_ONCE, per_address.burst),
        client=client_seconds,
        keepalive=KEEPALIVE_SECONDS,
        print_socket=print_sock,
        long_socket=long_sock,
        long_prefix=LONG_PREFIX,
        # A worker is stopped after ``timeout`` s; nginx waits a little longer to see it.
        proxy=PROXY.format(connect=timeout, upstream=timeout + 5, pool="app"),
        # A printout's workers are stopped a little after ``print_timeout`` s (scripts/start):
        # the front stops waiting first, to answer with its page in words.
        print_proxy=PROXY.format(
            connect=print_timeout or timeout, upstream=print_timeout or timeout, pool="print"
        ),
        long_proxy=PROXY.format(
            connect=print_timeout or timeout, upstream=print_timeout or timeout, pool="long"
        ),
        print_pages=print_pages(pages),
        error_pages="\n".join(pages) + "\n",
        allow=allow_map(routes),
        uploads=upload_locations(
            uploads,
            upload_max,
            PROXY.format(connect=timeout, upstream=timeout + 5, pool="app"),
            "\n".join("    " + page for page in pages) + "\n",
        ),
    )
    path = run / "nginx.conf"
    path.write_text(config, encoding="utf-8")
    (run / "socket").write_text(str(sock) + "\n", encoding="utf-8")
    (run / "print-socket").write_text(str(print_sock) + "\n", encoding="utf-8")
    (run / "long-socket").write_text(str(long_sock) + "\n", encoding="utf-8")
    return path


class TrustedFront:
    """The app as seen through the front: requests that came over the workers' Unix socket
    were sent by the front, which names the tablet's address in ``X-Forwarded-For``
    (replacing whatever the tablet sent); only those take it from there. Anything that
    reaches the app otherwise (a TCP connection, the test client) keeps its own address.

    The front also names the host it read from the request in ``X-Front-Host`` (its
    ``$host``: the name of an absolute request line, which it replaces by a plain path),
    for the host check (``hosts.asked_names``); from anyone else that header is ignored."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.forwarded = ProxyFix(app, x_for=1)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        """Serve one request, its address taken from the front when it came through it."""
        connection = environ.get("gunicorn.socket")
        if (
            connection is not None
            and getattr(connection, "family", None) == socket.AF_UNIX
            and not environ.get("REMOTE_ADDR")
        ):
            environ[FRONT_HOST] = environ.get("HTTP_X_FRONT_HOST", "")
            return self.forwarded(environ, start_response)
        return self.app(environ, start_response)
