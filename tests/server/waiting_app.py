"""A WSGI app for the worker tests: ``/slow?seconds`` answers after that long (a long
printout), every other path at once (a table screen)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """Answer ``ok``, after a wait for ``/slow``."""
    if environ["PATH_INFO"] == "/slow":
        time.sleep(float(environ.get("QUERY_STRING") or 1))
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
