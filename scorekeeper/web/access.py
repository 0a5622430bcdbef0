"""Who may reach what (docs/api.md "Access"): the installation PIN, table codes, organisers.

* A casual evening is open to the local network, like a paper sheet on the table, unless
  the installation sets ``ACCESS_PIN``: then pages and API need it once (the session
  cookie, or ``Authorization: Bearer <token>`` obtained with it).
* A tournament table is reachable only by the device its code was opened on (bound to that
  table, while its round lasts) and by the tournament's organiser; it refuses every other
  caller.
* Organiser pages and actions need the organiser's login.

What a caller holds (their *grants*) lives in the signed session cookie, or in a signed
token for API clients; both are checked on every request, and both end
(docs/hall-safety.md "PINs, passwords and tokens"): after ``SESSION_HOURS``, when the
session is logged out (its id is then remembered as revoked, in the database, so every
worker process refuses it alike), for an organiser when the tournament's password changes
(the grant holds a stamp of the password it was given for), for a table when its round is
closed.

Wrong passwords, PINs and table codes are counted in the database, per address and for the
whole installation; a try is recorded as wrong before it is checked, in one step with the
counting (``attempt``), so that requests sent at once cannot check more than the limits
allow.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import ipaddress
import json
import math
import secrets
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from flask import Flask, after_this_request, current_app, g, request, session
from flask.wrappers import Response
from flask_babel import ngettext
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import ColumnElement, Connection, and_, delete, insert, or_, select, text, update

from scorekeeper.core.rules.base import Message, ScorekeeperError, msg
from scorekeeper.db import sqlite, unit_of_work
from scorekeeper.db.extensions import db
from scorekeeper.db.models import LoginAttempt, RevokedSession, utcnow
from scorekeeper.db.retry import retrying
from scorekeeper.db.tournament_models import Tournament
from scorekeeper.web.json_shapes import text as render

SESSION_KEY = "access"
#: The PIN's length as the installation may set it, and as the unlock page takes it.
PIN_SHORTEST = 4
PIN_LONGEST = 32
#: The PostgreSQL advisory lock held while a try is counted (any number the app uses
#: nowhere else; ``schema.ADVISORY_LOCK`` is the migrations').
ATTEMPTS_LOCK = 20261126
#: Each further wrong try doubles the wait, up to ``LOGIN_DELAY_MAX_SECONDS``: past this
#: many doublings the wait is at its maximum for any setting that makes sense.
MOST_DOUBLINGS = 40

ATTEMPTS = LoginAttempt.__table__

#: How long this process trusts a session it found not logged out (``revoked``).
REVOKED_CHECK_SECONDS = 2.0
#: At most this many sessions are remembered so; then the list starts again.
NOT_REVOKED_KEPT = 10_000
#: Sessions found not logged out, with when (``time.monotonic``).
_not_revoked: dict[str, float] = {}


class AccessDeniedError(ScorekeeperError):
    """The caller may not reach this: ``status`` 401 (log in first) or 403 (never)."""

    def __init__(self, message: Message, *, status: int = 403, login: str | None = None) -> None:
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


class AttemptsDelayedError(AccessDeniedError):
    """Many wrong tries of one kind on the whole installation: every try waits a moment
    after the last wrong one (429, with ``Retry-After``), whichever address it comes from."""

    def __init__(self, scope: str, seconds: int) -> None:
        super().__init__(delay_message(scope, seconds), status=429)
        self.seconds = seconds


@dataclass
class Grants:
    """What the caller has unlocked, in one session."""

    #: A fingerprint of the PIN the caller gave (so a changed PIN locks everyone out).
    pin: str | None = None
    #: The tournament table this device is bound to.
    table: int | None = None
    #: The tournaments the caller logged in to, each with a stamp of the password it gave
    #: (so a changed password logs everyone out).
    organiser: dict[int, str] = field(default_factory=dict)
    #: The session's id: logging out revokes it, with every token issued in the session.
    sid: str | None = None
    #: When a PIN, password or code was last given in this session (seconds since 1970).
    since: int | None = None

    def holds_anything(self) -> bool:
        """Whether anything is unlocked at all."""
        return self.pin is not None or self.table is not None or bool(self.organiser)

    def as_dict(self) -> dict[str, Any]:
        """The grants as kept in the cookie or token."""
        return {
            "pin": self.pin,
            "table": self.table,
            "organiser": [[t, stamp] for t, stamp in sorted(self.organiser.items())],
            "sid": self.sid,
            "since": self.since,
        }


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="scorekeeper-access")


def session_age() -> timedelta:
    """How long a session and its tokens last: an evening, or a tournament day."""
    return timedelta(hours=float(current_app.config["SESSION_HOURS"]))


def check_settings(app: Flask) -> None:
    """Refuse to start with a PIN shorter than ``PIN_SHORTEST`` (or longer than the page
    takes), or sessions that never or always end."""
    pin = app.config.get("ACCESS_PIN")
    if pin not in (None, "") and not PIN_SHORTEST <= len(str(pin)) <= PIN_LONGEST:
        raise ValueError(
            f"ACCESS_PIN must be {PIN_SHORTEST} to {PIN_LONGEST} characters long; "
            "6 digits or more are recommended (docs/hall-safety.md)."
        )
    hours = app.config["SESSION_HOURS"]
    if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 < hours <= 24 * 31:
        raise ValueError("SESSION_HOURS must be a number of hours above 0, at most 744.")


def grants() -> Grants:
    """The caller's grants, from the bearer token if one is sent, else from the session.

    A token that has ended is refused (401); a cookie that has ended counts as none, and
    is forgotten.
    """
    if "grants" in g:
        return g.grants  # type: ignore[no-any-return]
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        found = _from_token(header.removeprefix("Bearer ").strip())
    else:
        kept = _read(session.get(SESSION_KEY))
        if kept is None:
            session.pop(SESSION_KEY, None)
            kept = Grants()
        found = kept
    g.grants = found
    return found


def _from_token(token: str) -> Grants:
    """The grants of a bearer token; refused when forged, too old or logged out."""
    try:
        # itsdangerous annotates an int, but only compares the age with it: a fraction of an
        # hour (SESSION_HOURS) is kept exact.
        age = session_age().total_seconds()
        data = _serializer().loads(token, max_age=age)  # type: ignore[arg-type]
    except BadSignature:
        raise AccessDeniedError(
            msg("The access token is not valid (or has expired); ask for a new one."),
            status=401,
        ) from None
    found = _read(data)
    if found is None:
        raise AccessDeniedError(
            msg("This access token has ended (its session was logged out); ask for a new one."),
            status=401,
        )
    return found


def _read(data: Any) -> Grants | None:
    """Grants as kept in a cookie or token; None once they have ended (too old, logged
    out, or from before sessions had ids)."""
    if not isinstance(data, dict) or not data:
        return Grants()
    sid, since = data.get("sid"), data.get("since")
    if not isinstance(sid, str) or isinstance(since, bool) or not isinstance(since, int):
        return None
    if since + session_age().total_seconds() < time.time():
        return None
    pairs = data.get("organiser")
    found = Grants(
        pin=data.get("pin") if isinstance(data.get("pin"), str) else None,
        table=data.get("table") if isinstance(data.get("table"), int) else None,
        organiser={
            pair[0]: pair[1]
            for pair in (pairs if isinstance(pairs, list) else [])
            if isinstance(pair, list)
            and len(pair) == 2
            and isinstance(pair[0], int)
            and isinstance(pair[1], str)
        },
        sid=sid,
        since=since,
    )
    if found.holds_anything() and revoked(sid):
        return None
    return found


def revoked(sid: str) -> bool:
    """Whether the session ``sid`` was logged out.

    A session found not logged out is trusted for ``REVOKED_CHECK_SECONDS`` by this
    process: a tablet's every request would otherwise open a database transaction for the
    look-up alone (0.15 ms of a 0.4 ms request). A logout here counts at once; one on
    another worker process within that time.
    """
    now = time.monotonic()
    if now - _not_revoked.get(sid, -REVOKED_CHECK_SECONDS) < REVOKED_CHECK_SECONDS:
        return False
    query = select(RevokedSession.session_id).where(RevokedSession.session_id == sid)
    if db.session.scalar(query) is not None:
        return True
    if len(_not_revoked) >= NOT_REVOKED_KEPT:
        _not_revoked.clear()
    _not_revoked[sid] = now
    return False


def keep(updated: Grants) -> str:
    """Store changed grants in the session; the token an API client can send instead.

    Called when a PIN, password or code was given: the session's time starts again.
    """
    if updated.sid is None:
        updated.sid = secrets.token_hex(16)
    updated.since = int(time.time())
    g.grants = updated
    session[SESSION_KEY] = updated.as_dict()
    session.permanent = True
    return _serializer().dumps(updated.as_dict())


def requester() -> str:
    """Who is asking, by what they have unlocked: the scope of their request keys
    (``idempotency``, ``docs/recording.md``).

    Not the device, its session or its token: a tablet whose token expired while its
    outbox waited, and that was unlocked again, is the same requester and must find its
    answers. Two devices holding the same rights (the PIN, one table's code, one
    tournament's organiser login) are one requester, as they could act for each other
    anyway.
    """
    held = grants()
    rights = {"pin": held.pin, "table": held.table, "organiser": sorted(set(held.organiser))}
    described = json.dumps(rights, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(described.encode()).hexdigest()[:32]


def _stamp(purpose: str, value: str) -> str:
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, (purpose + value).encode(), hashlib.sha256).hexdigest()[:32]


def pin_fingerprint(pin: str) -> str:
    """A keyed digest of the PIN: the cookie proves the PIN without holding it."""
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, pin.encode(), hashlib.sha256).hexdigest()[:32]


def password_stamp(password_hash: str) -> str:
    """A keyed digest of a tournament's stored password hash, kept in the organiser's
    grant: a new password is stored with a new salt, so every earlier grant stops
    matching, even one for the same password set again."""
    return _stamp("organiser:", password_hash)


def configured_pin() -> str:
    """The installation's PIN as text ("" when none is set; a PIN from the environment
    may arrive as a number)."""
    pin = current_app.config.get("ACCESS_PIN")
    return "" if pin is None or pin is False else str(pin)


def pin_required() -> bool:
    """Whether the installation has set an access PIN."""
    return bool(configured_pin())


def pin_unlocked() -> bool:
    """Whether the caller gave the current PIN (always true without a PIN)."""
    if not pin_required():
        return True
    given = grants().pin
    return given is not None and hmac.compare_digest(given, pin_fingerprint(configured_pin()))


def pin_is_digits() -> bool:
    """Whether the PIN is made of digits only (the unlock page then offers a number pad)."""
    return configured_pin().isdigit()


def unlock_with_pin(pin: object) -> str:
    """Check a PIN (counting wrong ones) and remember it for this caller."""
    tried = attempt("pin")
    expected = configured_pin()
    # Compared as bytes: compare_digest refuses str with characters beyond ASCII.
    if (
        not isinstance(pin, str)
        or not expected
        or not hmac.compare_digest(pin.encode("utf-8", "replace"), expected.encode())
    ):
        raise AccessDeniedError(msg("That PIN is not right."), status=401)
    succeeded(tried, "pin")
    updated = grants()
    updated.pin = pin_fingerprint(expected)
    return keep(updated)


def may_organise(tournament_id: int) -> bool:
    """Whether the caller logged in as this tournament's organiser, with its current
    password."""
    stamp = grants().organiser.get(tournament_id)
    if stamp is None:
        return False
    tournament = db.session.get(Tournament, tournament_id)
    return tournament is not None and hmac.compare_digest(
        stamp, password_stamp(tournament.password_hash)
    )


def grant_organiser(tournament_id: int) -> str:
    """Remember the organiser's login for this caller, for the tournament's password as
    it is stored now."""
    tournament = db.session.get_one(Tournament, tournament_id)
    updated = grants()
    updated.organiser = {
        **updated.organiser,
        tournament_id: password_stamp(tournament.password_hash),
    }
    return keep(updated)


def bind_table(table_id: int) -> str:
    """Bind this device to one tournament table (replacing any earlier one)."""
    updated = grants()
    updated.table = table_id
    return keep(updated)


def log_out() -> None:
    """End this caller's session: every grant of it, in its cookie and in every token
    issued with it, on every worker. The caller commits."""
    ended = set()
    with contextlib.suppress(AccessDeniedError):  # a token that had ended already
        ended.add(grants().sid)
    kept = session.get(SESSION_KEY)
    if isinstance(kept, dict):
        ended.add(kept.get("sid"))
    for sid in ended:
        if isinstance(sid, str):
            revoke(sid)
    g.grants = Grants()
    session.pop(SESSION_KEY, None)


def revoke(sid: str) -> None:
    """Remember ``sid`` as logged out for as long as its grants could last (and forget
    sessions whose grants have expired anyway)."""
    now = utcnow()
    _not_revoked.pop(sid, None)
    db.session.execute(delete(RevokedSession).where(RevokedSession.expires_at < now))
    db.session.merge(RevokedSession(session_id=sid, expires_at=now + session_age()))


# -- counting wrong attempts, across every worker ----------------------------------------


def _remote() -> str:
    return (request.remote_addr or "unknown")[:60]


def installation_delay(wrong: int) -> float:
    """How long every try waits after the last wrong one, in seconds, when ``wrong`` tries
    from all addresses together were wrong within ``LOGIN_DELAY_WINDOW_SECONDS``: none up
    to ``LOGIN_DELAY_AFTER``, then 1 s, doubling with each further wrong try, at most
    ``LOGIN_DELAY_MAX_SECONDS``."""
    config = current_app.config
    beyond = wrong - int(config["LOGIN_DELAY_AFTER"])
    if beyond < 0:
        return 0.0
    return float(min(config["LOGIN_DELAY_MAX_SECONDS"], 2 ** min(beyond, MOST_DOUBLINGS)))


def _serialise(unit: unit_of_work.Work) -> None:
    """Make the counting transaction wait for any other one: PostgreSQL's advisory lock,
    SQLite's write lock (taken at once, in the app's queue of writers)."""
    if db.engine.dialect.name == "postgresql":
        unit.connection().execute(
            text("SELECT pg_advisory_xact_lock(:key)"), {"key": ATTEMPTS_LOCK}
        )
    elif db.engine.dialect.name == "sqlite":
        sqlite.begin_writing(unit)


def attempt(scope: str) -> int:
    """Count a try of ``scope`` before it is checked: refuse it while this address, or
    the whole installation, must wait; else record it as wrong and return its id.

    Counting and recording are one transaction of their own, which waits for any other
    such transaction and commits before the PIN, password or code is compared: of tries
    sent at once, each one sees every earlier one, still recorded as wrong until proven
    right (``succeeded``), so no more are compared than the limits allow. A refused try
    records nothing: waiting is never prolonged by trying. Call it before the request
    writes anything (on SQLite the request would hold the write lock this waits for).
    """
    config = current_app.config
    remote = _remote()
    own_window = timedelta(seconds=config["LOGIN_WINDOW_SECONDS"])
    shared_window = timedelta(seconds=config["LOGIN_DELAY_WINDOW_SECONDS"])

    def count() -> int:
        unit = unit_of_work.Plain(db.engine.connect)
        try:
            _serialise(unit)
            # The time once the lock is held: taken before, a try that waited for the lock
            # would be older than the one recorded just before it, and would wait for it.
            now = utcnow()
            oldest = now - max(own_window, shared_window)
            connection = unit.connection()
            rows = connection.execute(
                select(ATTEMPTS.c.remote, ATTEMPTS.c.at, ATTEMPTS.c.cleared).where(
                    ATTEMPTS.c.scope == scope, ATTEMPTS.c.at > oldest
                )
            ).all()
            mine = [
                row.at
                for row in rows
                if row.remote == remote and not row.cleared and row.at > now - own_window
            ]
            if len(mine) >= config["LOGIN_ATTEMPTS"]:
                wait = min(mine) + own_window - now
                _retry_after(max(60, math.ceil(wait.total_seconds())))
                raise TooManyAttemptsError(max(1, math.ceil(wait.total_seconds() / 60)))
            everyone = [row.at for row in rows if row.at > now - shared_window]
            delay = installation_delay(len(everyone))
            if delay:
                free_at = max(everyone) + timedelta(seconds=delay)
                if free_at > now:
                    seconds = max(1, math.ceil((free_at - now).total_seconds()))
                    _retry_after(seconds)
                    raise AttemptsDelayedError(scope, seconds)
            old = _lock_in_order(
                connection, and_(ATTEMPTS.c.scope == scope, ATTEMPTS.c.at <= oldest)
            )
            if old:
                connection.execute(delete(ATTEMPTS).where(ATTEMPTS.c.id.in_(old)))
            tried = connection.execute(
                insert(ATTEMPTS).values(scope=scope, remote=remote, at=now, cleared=False)
            ).inserted_primary_key
            unit.commit()
        finally:
            if unit.begun:
                unit.rollback()
        assert tried is not None
        return int(tried[0])

    return retrying(count, rollback=_rolled_back_already)


def _rolled_back_already() -> None:
    """A lost ``Plain`` unit here was rolled back by its own ``finally``."""


def _lock_in_order(connection: Connection, condition: ColumnElement[bool]) -> list[int]:
    """Lock the rows of ``login_attempt`` that ``condition`` selects, in the order of their
    ids, and return those ids. Every transaction that changes rows of the table takes them
    so: two of them never each hold a row the other waits for (a deadlock, on PostgreSQL,
    which ended a tablet's opening with a 500 when two tablets of one address opened their
    tables at once). SQLite's write lock holds the whole table anyway."""
    found = connection.execute(
        select(ATTEMPTS.c.id).where(condition).order_by(ATTEMPTS.c.id).with_for_update()
    )
    return list(found.scalars())


def succeeded(tried: int, scope: str, *, clear: bool = True) -> None:
    """The try ``tried`` was right: it is no wrong try, and (``clear``) this address's
    earlier wrong tries of ``scope`` no longer count against it. The installation's count
    keeps them: a guest who knows one table's code cannot wipe out their guesses."""
    remote = _remote()

    def clear_tries() -> None:
        unit = unit_of_work.Plain(db.engine.connect)
        try:
            if db.engine.dialect.name == "sqlite":
                sqlite.begin_writing(unit)
            connection = unit.connection()
            earlier = and_(
                ATTEMPTS.c.scope == scope,
                ATTEMPTS.c.remote == remote,
                ATTEMPTS.c.cleared.is_(False),
            )
            locked = _lock_in_order(
                connection,
                or_(ATTEMPTS.c.id == tried, earlier) if clear else ATTEMPTS.c.id == tried,
            )
            connection.execute(delete(ATTEMPTS).where(ATTEMPTS.c.id == tried))
            others = [i for i in locked if i != tried]
            if others:
                connection.execute(
                    update(ATTEMPTS).where(ATTEMPTS.c.id.in_(others)).values(cleared=True)
                )
            unit.commit()
        finally:
            if unit.begun:
                unit.rollback()

    retrying(clear_tries, rollback=_rolled_back_already)


def _retry_after(seconds: int) -> None:
    """Tell the client, whatever answers the refusal, when to try again."""

    @after_this_request
    def _header(response: Response) -> Response:
        response.headers["Retry-After"] = str(seconds)
        return response


def _seconds(n: int) -> Message:
    return msg("1 second") if n == 1 else msg("{n} seconds", n=n)


def delay_message(scope: str, seconds: int) -> Message:
    """Why a try waits though this device has tried little: many wrong ones elsewhere."""
    wait = _seconds(seconds)
    if scope == "pin":
        return msg(
            "Many wrong PINs were tried on this installation, so every try now waits a "
            "while. Try again in {wait}.",
            wait=wait,
        )
    if scope == "table-code":
        return msg(
            "Many wrong table codes were tried on this installation, so every try now waits "
            "a while. Try again in {wait}.",
            wait=wait,
        )
    return msg(
        "Many wrong passwords were tried for this tournament, so every try now waits a "
        "while. Try again in {wait}.",
        wait=wait,
    )


def refusal(error: AccessDeniedError | TooManyAttemptsError) -> tuple[str, int]:
    """What a login, unlock or table page says when a try is refused, and its status."""
    if isinstance(error, TooManyAttemptsError):
        message = ngettext(
            "Too many wrong tries from this device. Wait %(num)s minute and try again.",
            "Too many wrong tries from this device. Wait %(num)s minutes and try again.",
            error.minutes,
        )
        return message, 429
    return render(error.message), error.status


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
