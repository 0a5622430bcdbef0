"""A WSGI app for the worker tests: ``/slow?seconds`` answers after that long (a long
printout), every other path at once (a table screen).

Printouts as the app answers them behind the front (``scorekeeper/web/printouts.py``):
``/long.pdf?seconds`` is a long printout, which the print workers hand on to the long
printouts' workers (``X-Accel-Redirect``), where it takes that long; every other ``.pdf``
is a short one, answered at once by the print workers. Each printout says which pool
answered it.
"""

from __future__ import annotations

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
        time.sleep(float(environ.get("QUERY_STRING") or 1))
    body = pool.encode() if path.endswith(".pdf") else b"ok"
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
