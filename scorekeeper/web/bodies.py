"""How large a request's body may be, per address (docs/limits.md "Bodies").

A hand is a few hundred bytes, a new evening or a tournament's settings a few more; only an
upload (an evening archive, a backup) is large. With one limit for all, the upload's
100 MB, a body of 300,000 made-up keys reached the API's checks: 15 s of one worker's time
for a single request, and three at once held every worker. So every address takes at most
``BODY_MAX_BYTES`` (64 KB, a hundred times the largest hand), and only the views marked
``takes_upload`` take ``MAX_CONTENT_LENGTH``. A larger body is refused with 413 before it
is read: by the front (scripts/start writes the same limits into its configuration,
``server.front``) and by the app (``Request.max_content_length``, set before the CSRF
check and any view reads the form), so the direct servers hold it as well.

A JSON body is read by ``body`` for every part of the API alike.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from flask import Flask, abort, current_app, request

from scorekeeper.core import json_limits
from scorekeeper.web import json_shapes
from scorekeeper.web.answers import reply

#: Every request but an upload: far more than any hand, evening or setting.
BODY_MAX_BYTES = 64 * 1024

V = TypeVar("V", bound=Callable[..., Any])


def takes_upload(view: V) -> V:
    """Mark ``view`` as one that takes a file: its body may be ``MAX_CONTENT_LENGTH``."""
    view.takes_upload = True  # type: ignore[attr-defined]
    return view


def is_upload(app: Flask, endpoint: str | None) -> bool:
    """Whether the view of ``endpoint`` takes a file."""
    view = app.view_functions.get(endpoint or "")
    return bool(getattr(view, "takes_upload", False))


def upload_rules(app: Flask) -> Iterator[str]:
    """The addresses (rules) that take a file, for the front's configuration."""
    for rule in app.url_map.iter_rules():
        if is_upload(app, rule.endpoint):
            yield rule.rule


def limit_for(app: Flask, endpoint: str | None) -> int:
    """The most bytes a request to ``endpoint`` may send."""
    if is_upload(app, endpoint):
        return int(app.config["MAX_CONTENT_LENGTH"])
    return int(app.config["BODY_MAX_BYTES"])


def set_limit(endpoint: str | None, _values: dict[str, Any] | None) -> None:
    """The request's limit, before anything reads its body."""
    request.max_content_length = limit_for(current_app._get_current_object(), endpoint)  # type: ignore[attr-defined]


def register(app: Flask) -> None:
    """Set each request's body limit once its address is known (URL value preprocessors
    run before every ``before_request``, the CSRF check's included)."""
    app.config.setdefault("BODY_MAX_BYTES", BODY_MAX_BYTES)
    app.url_value_preprocessor(set_limit)


class BadJSONError(Exception):
    """The body is not JSON at all (400)."""


def body() -> Any:
    """The request's JSON body; an empty body is an empty object.

    A body nesting deeper than ``json_limits.MAX_DEPTH`` is refused with 400 before it is
    parsed (``docs/hall-safety.md``). Text that is not Unicode (a lone surrogate such as
    ``"\\ud800"``, which JSON can spell but no database can store) is refused like any
    other body that is not JSON.
    """
    raw = request.get_data(cache=True)
    if not raw:
        return {}
    try:
        json_limits.check_body(raw)
    except json_limits.TooDeepError as error:
        abort(reply({"errors": json_shapes.errors_json(error.errors)}, 400))
    try:
        data = request.get_json(force=True, silent=True)
        if data is not None:
            json.dumps(data, ensure_ascii=False).encode()
    except (RecursionError, UnicodeEncodeError):
        raise BadJSONError from None
    if data is None:
        raise BadJSONError
    return data
