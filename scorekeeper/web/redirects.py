"""Where a page may send the browser back to: only a path of this application.

After a login, the PIN's page or a language switch the browser goes back to where it came
from, named by a ``next`` parameter or the ``Referer``. Both come from whoever made the
link, so a guest could print a QR code for ``/tournaments/4/login?next=//evil.example/``
and a correct login would land on another site that looks like ours. Browsers read more
than ``//`` as another host: ``/\\evil.example``, a tab or line break inside ``//``
(``/%09/evil.example``), a scheme (``https:evil.example``, ``javascript:``). Rather than
list what is dangerous, ``safe_next`` accepts only what is plainly a path here, raw and
percent-decoded alike, and sends everything else home (``docs/hall-safety.md``).
"""

from __future__ import annotations

import unicodedata
from urllib.parse import unquote, urlsplit

from flask import url_for
from werkzeug.urls import iri_to_uri

#: How often a value is percent-decoded to see what it hides (``%252F`` is ``%2F`` after
#: one round, ``/`` after two); one still changing after that many rounds is refused.
DECODING_ROUNDS = 4


def safe_next(value: str | None, fallback: str | None = None) -> str:
    """``value`` if it is a path of this application, else ``fallback`` (home if None).

    Accepted: ``/`` alone, or ``/`` followed by anything but ``/`` or ``\\``, with no
    backslash, no control character and no whitespace anywhere, no scheme and no host,
    as sent and after each round of percent-decoding.

    >>> from flask import Flask
    >>> app = Flask(__name__)
    >>> with app.test_request_context():
    ...     safe_next("/tournaments/4?x=1"), safe_next("/%09/evil.example/", "/t")
    ('/tournaments/4?x=1', '/t')
    """
    if value is not None and is_local_path(value):
        return iri_to_uri(value)
    return url_for("evenings.index") if fallback is None else fallback


def safe_referrer(referrer: str | None, host: str, fallback: str | None = None) -> str:
    """The page the browser came from if it is one of this application (same ``host``)."""
    parts = urlsplit(referrer or "")
    if parts.scheme not in ("http", "https") or parts.netloc != host:
        return safe_next(None, fallback)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    return safe_next(path, fallback)


def is_local_path(value: str) -> bool:
    """Whether ``value`` and each of its percent-decodings is plainly a local path."""
    for _ in range(DECODING_ROUNDS + 1):
        if not _plain_path(value):
            return False
        decoded = unquote(value)
        if decoded == value:
            return True
        value = decoded
    return False


def _plain_path(value: str) -> bool:
    """One form of the value: ``/`` then no second ``/`` or ``\\``, nothing hidden."""
    if not value.startswith("/") or value[1:2] in ("/", "\\"):
        return False
    if "\\" in value or any(_hidden(c) for c in value):
        return False
    parts = urlsplit(value)
    return not parts.scheme and not parts.netloc


def _hidden(char: str) -> bool:
    """Whitespace or a control, format or other invisible character."""
    return char.isspace() or unicodedata.category(char).startswith("C")
