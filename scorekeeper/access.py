"""Who may reach what (api.md "Access"): the installation PIN, table codes, organisers.

* A casual evening is open to the local network, like a paper sheet on the table, unless
  the installation sets ``ACCESS_PIN``: then pages and API need it once (the session
  cookie, or ``Authorization: Bearer <token>`` obtained with it).
* A tournament table is reachable only by the device its code was opened on (bound to that
  table) and by the tournament's organiser; it refuses every other caller.
* Organiser pages and actions need the organiser's login.

What a caller holds (their *grants*) lives in the signed session cookie, or in a signed
token for API clients; both are checked on every request. Wrong passwords, PINs and table
codes are counted in the database, so every worker process slows guessing down alike.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from flask import current_app, g, request, session
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import delete, select

from scorekeeper.extensions import db
from scorekeeper.models import LoginAttempt, utcnow
from scorekeeper.rules.base import ScorekeeperError, msg

#: How long a token stays valid: an afternoon's tournament or an evening, with room.
TOKEN_AGE = timedelta(days=2)
SESSION_KEY = "access"


class AccessDeniedError(ScorekeeperError):
    """The caller may not reach this: ``status`` 401 (log in first) or 403 (never)."""

    def __init__(self, message: object, *, status: int = 403, login: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        #: Where to log in, when logging in would help.
        self.login = login


class TooManyAttemptsError(ScorekeeperError):
    """Too many wrong passwords, PINs or codes from this address: wait."""

    def __init__(self, minutes: int) -> None:
        super().__init__(minutes)
        self.minutes = minutes


@dataclass
class Grants:
    """What the caller has unlocked."""

    #: A fingerprint of the PIN the caller gave (so a changed PIN locks everyone out).
    pin: str | None = None
    #: The tournament table this device is bound to.
    table: int | None = None
    organiser: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The grants as kept in the cookie or token."""
        return {"pin": self.pin, "table": self.table, "organiser": list(self.organiser)}


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="scorekeeper-access")


def grants() -> Grants:
    """The caller's grants, from the bearer token if one is sent, else from the session."""
    if "grants" in g:
        return g.grants  # type: ignore[no-any-return]
    data: Any = session.get(SESSION_KEY) or {}
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        try:
            data = _serializer().loads(
                header.removeprefix("Bearer ").strip(), max_age=TOKEN_AGE.total_seconds()
            )
        except BadSignature:
            raise AccessDeniedError(
                msg("The access token is not valid (or has expired); ask for a new one."),
                status=401,
            ) from None
    found = Grants(
        pin=data.get("pin") if isinstance(data.get("pin"), str) else None,
        table=data.get("table") if isinstance(data.get("table"), int) else None,
        organiser=[t for t in data.get("organiser", []) if isinstance(t, int)],
    )
    g.grants = found
    return found


def keep(updated: Grants) -> str:
    """Store changed grants in the session; the token an API client can send instead."""
    g.grants = updated
    session[SESSION_KEY] = updated.as_dict()
    session.permanent = True
    return _serializer().dumps(updated.as_dict())


def requester() -> str:
    """Who is asking, by what they have unlocked: the scope of their request keys
    (``idempotency``, ``docs/recording.md``).

    Not the device or its token: a tablet whose token expired while its outbox waited, and
    that was unlocked again, is the same requester and must find its answers. Two devices
    holding the same rights (the PIN, one table's code, one tournament's organiser login)
    are one requester, as they could act for each other anyway.
    """
    held = grants()
    rights = {"pin": held.pin, "table": held.table, "organiser": sorted(set(held.organiser))}
    text = json.dumps(rights, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def pin_fingerprint(pin: str) -> str:
    """A keyed digest of the PIN: the cookie proves the PIN without holding it."""
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, pin.encode(), hashlib.sha256).hexdigest()[:32]


def pin_required() -> bool:
    """Whether the installation has set an access PIN."""
    return bool(current_app.config.get("ACCESS_PIN"))


def pin_unlocked() -> bool:
    """Whether the caller gave the current PIN (always true without a PIN)."""
    if not pin_required():
        return True
    given = grants().pin
    return given is not None and hmac.compare_digest(
        given, pin_fingerprint(str(current_app.config["ACCESS_PIN"]))
    )


def unlock_with_pin(pin: object) -> str:
    """Check a PIN (counting wrong ones) and remember it for this caller."""
    check_attempts("pin")
    expected = str(current_app.config.get("ACCESS_PIN") or "")
    # Compared as bytes: compare_digest refuses str with characters beyond ASCII.
    if (
        not isinstance(pin, str)
        or not expected
        or not hmac.compare_digest(pin.encode("utf-8", "replace"), expected.encode())
    ):
        failed("pin")
        raise AccessDeniedError(msg("That PIN is not right."), status=401)
    cleared("pin")
    updated = grants()
    updated.pin = pin_fingerprint(expected)
    return keep(updated)


def may_organise(tournament_id: int) -> bool:
    """Whether the caller logged in as this tournament's organiser."""
    return tournament_id in grants().organiser


def grant_organiser(tournament_id: int) -> str:
    """Remember the organiser's login for this caller."""
    updated = grants()
    if tournament_id not in updated.organiser:
        updated.organiser = [*updated.organiser, tournament_id]
    return keep(updated)


def bind_table(table_id: int) -> str:
    """Bind this device to one tournament table (replacing any earlier one)."""
    updated = grants()
    updated.table = table_id
    return keep(updated)


def log_out() -> None:
    """Forget every grant of this caller."""
    g.grants = Grants()
    session.pop(SESSION_KEY, None)


# -- counting wrong attempts, across every worker ----------------------------------------


def _remote() -> str:
    return (request.remote_addr or "unknown")[:60]


def check_attempts(scope: str) -> None:
    """Refuse a try while this address has too many recent wrong ones for ``scope``."""
    window = timedelta(seconds=current_app.config["LOGIN_WINDOW_SECONDS"])
    since = utcnow() - window
    recent = db.session.scalars(
        select(LoginAttempt.at).where(
            LoginAttempt.scope == scope, LoginAttempt.remote == _remote(), LoginAttempt.at > since
        )
    ).all()
    limit = current_app.config["LOGIN_ATTEMPTS"]
    if len(recent) >= limit:
        oldest = min(recent)
        if oldest.tzinfo is None:
            oldest = oldest.replace(tzinfo=utcnow().tzinfo)
        wait = oldest + window - utcnow()
        raise TooManyAttemptsError(max(1, -(-int(wait.total_seconds()) // 60)))


def failed(scope: str) -> None:
    """Count a wrong try; it is kept even though the request is refused."""
    db.session.rollback()
    db.session.add(LoginAttempt(scope=scope, remote=_remote()))
    db.session.commit()


def cleared(scope: str) -> None:
    """Forget this address's wrong tries after a right one."""
    db.session.execute(
        delete(LoginAttempt).where(LoginAttempt.scope == scope, LoginAttempt.remote == _remote())
    )


def on_this_machine() -> bool:
    """Whether the request comes from the computer serving the app (the organiser's laptop)."""
    return ip_address_is_loopback(request.remote_addr)


def ip_address_is_loopback(address: str | None) -> bool:
    """Whether ``address`` names this machine itself (127.x, ::1)."""
    try:
        return address is not None and ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def may_manage_installation() -> bool:
    """Who may download or restore every evening, and anonymise players.

    A backup holds every name, every tournament's table codes and password hashes, and a
    restore adds evenings: without a PIN only the laptop serving the app may do it; with a
    PIN, whoever gave it (the check before every request has asked for it already).
    """
    return on_this_machine() or (pin_required() and pin_unlocked())
