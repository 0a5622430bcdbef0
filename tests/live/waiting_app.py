"""A WSGI app for the worker tests: ``/slow?seconds`` answers after that long (a long
printout), every other path at once (a table screen).

Printouts as the app answers them behind the front (``scorekeeper/web/printouts.py``):
``/long.pdf?seconds`` is a long printout, which the print workers hand on to the long
printouts' workers (``X-Accel-Redirect``), where it takes that long; every other ``.pdf``
is a short one, answered at once by the print workers. Each printout says which pool
answered it. Each wait begun is written as a line to ``WAITING_APP_STARTED``, so a test
waits for a slow request to be under way, not for a time.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import Any


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """Answer ``ok`` (after a wait for ``/slow``), or a printout as its pool would."""
    path = environ["PATH_INFO"]
    pool = environ.get("HTTP_X_FRONT_POOL", "")
    if path == "/long.pdf" and pool == "print":
        target = f"/_long{path}?{environ.get('QUERY_STRING', '')}"
        start_response("200 OK", [("X-Accel-Redirect", target), ("Content-Length", "0")])
        return [b""]
    if path == "/slow" or (path == "/long.pdf" and pool == "long"):
        started = os.environ.get("WAITING_APP_STARTED")
        if started:  # a line per wait begun, for the tests to wait for the state
            with open(started, "a", encoding="utf-8") as marks:
                marks.write(f"{path}\n")
        time.sleep(float(environ.get("QUERY_STRING") or 1))
    body = pool.encode() if path.endswith(".pdf") else b"ok"
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
