"""What keeps the pages safe on a shared network: response headers and the secret key.

The app runs on a tablet network in a museum hall, where anyone can bring a phone. Every
answer therefore tells the browser to run only the app's own scripts and styles (no inline
code, so an injected ``<script>`` or ``style=`` does nothing), never to show the app inside
another site's frame, not to guess content types, and not to pass addresses to other sites.

The secret key signs the session cookie, which holds the CSRF token and the chosen language:
a guessable key would let anyone forge forms. So outside tests and debugging the app refuses
to start with a short key, and with an instance key it cannot read or create.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer

#: Only the app's own files: no inline script or style, no plugins, no foreign forms.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    # frame-ancestors for current browsers, X-Frame-Options for older tablet browsers.
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    # The language switch returns to the page it was pressed on, so the app's own pages
    # keep seeing where a request came from; other sites are told nothing.
    "Referrer-Policy": "same-origin",
}

#: Shortest secret accepted in production: 32 characters (128 bits as hex).
MIN_SECRET_LENGTH = 32
SECRET_FILE = "secret_key"


class StartupError(RuntimeError):
    """The app cannot start safely; the message says what to change."""


def add_headers(response: Response) -> Response:
    """Put the safety headers on every answer (a view may set its own stricter one)."""
    present = set(response.headers.keys(lower=True))
    for name, value in HEADERS.items():
        if name.lower() not in present:
            response.headers.add(name, value)
    return response


class SignedCookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with the signer made once per set of keys.

    Flask builds the signer anew for every request, which costs more than opening an empty
    session does otherwise; the keys do not change while the app serves, so it is kept
    (and made again should they change). A request that sends no cookie at all, as API
    clients with a bearer token do, starts an empty session without parsing headers.
    """

    def __init__(self) -> None:
        self._signer: tuple[tuple[str | bytes, ...], URLSafeTimedSerializer] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """The signer for the app's current keys (None without a key: no sessions)."""
        if not app.secret_key:
            return None
        keys = (*(app.config["SECRET_KEY_FALLBACKS"] or ()), app.secret_key)
        kept = self._signer
        if kept is None or kept[0] != keys:
            signer = super().get_signing_serializer(app)
            assert signer is not None
            kept = self._signer = (keys, signer)
        return kept[1]

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The session the request's cookie holds; an empty one when it sent none."""
        if app.secret_key and "HTTP_COOKIE" not in request.environ:
            return self.session_class()
        return super().open_session(app, request)


def register(app: Flask) -> None:
    """Install the headers on every response of ``app``, and its sessions."""
    app.session_interface = SignedCookieSessions()
    app.after_request(add_headers)


def secret_key(given: str | bytes | None, instance: Path, *, production: bool) -> str | bytes:
    """The key that signs sessions: the one given, else the instance's own (made once).

    In production (neither testing nor debugging) a given key shorter than
    ``MIN_SECRET_LENGTH`` is refused, since short keys can be guessed.
    """
    if given:
        if production and len(given) < MIN_SECRET_LENGTH:
            raise StartupError(
                f"The configured SECRET_KEY has {len(given)} characters; at least "
                f"{MIN_SECRET_LENGTH} are needed. Remove it to have one generated in "
                f"{instance / SECRET_FILE}, or set a long random one, e.g. the output of: "
                "python3 -c 'import secrets; print(secrets.token_hex(32))'"
            )
        return given
    path = instance / SECRET_FILE
    try:
        if not path.exists():
            write_secret(path)
        key = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise StartupError(
            f"The secret key in {path} cannot be read or created ({error}). Make the folder "
            f"{instance} writable for the user running Scorekeeper, or set "
            "SCOREKEEPER_SECRET_KEY."
        ) from error
    if production and len(key) < MIN_SECRET_LENGTH:
        raise StartupError(
            f"The secret key in {path} is empty or too short. Delete the file to have a new "
            "one generated (everybody's language choice is forgotten), or set "
            "SCOREKEEPER_SECRET_KEY."
        )
    return key


def write_secret(path: Path) -> None:
    """Create ``path`` holding a new random key, readable by its owner only.

    The key is written to a private file first and then linked into place, so a second
    process starting at the same moment (a server with several workers) never reads a
    half-written key: whoever links first wins, and everybody reads that one.
    """
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(secrets.token_hex(32))
            handle.flush()
            os.fsync(handle.fileno())
        # Another process linked its key first: everybody uses that one.
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
    finally:
        draft.unlink()
