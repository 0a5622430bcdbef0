"""Sessions and tokens end (docs/hall-safety.md "PINs, passwords and tokens").

A logout ends its session's cookie and every token issued in it; a new organiser password
ends every organiser login made before it; a table's code reaches the table while its
round lasts; and every session and token ends after ``SESSION_HOURS``. A cookie is
replayed by sending it again from another client, as whoever had copied it would.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.tournaments.support import (
    EN,
    NAMES,
    PASSWORD,
    close,
    create_tournament,
    draw,
    ok,
    register,
    start,
)

PIN = "482915"


def cookie_of(client: FlaskClient) -> dict[str, str]:
    """The client's session cookie as a header, to send it again after it was replaced."""
    kept = client.get_cookie("session")
    assert kept is not None
    return {"Cookie": f"session={kept.value}"}


def stranger(app: Flask) -> FlaskClient:
    """Another device, which sends what it is given (a copied cookie, a token) and keeps
    nothing."""
    return app.test_client(use_cookies=False)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def later(monkeypatch: pytest.MonkeyPatch, hours: float) -> None:
    """Move the clock that signs and reads cookies and tokens ``hours`` ahead."""
    now = time.time() + hours * 3600
    monkeypatch.setattr(time, "time", lambda: now)


@pytest.fixture
def tournament(client: FlaskClient) -> int:
    return create_tournament(client)


# -- logging out -----------------------------------------------------------------------------


def test_a_logout_ends_the_session_and_its_tokens(
    app: Flask, client: FlaskClient, tournament: int
) -> None:
    laptop = app.test_client()
    login = f"/api/v1/tournaments/{tournament}/login"
    token = ok(laptop.post(login, json={"password": PASSWORD}))["token"]
    copied = cookie_of(laptop)
    rounds = f"/api/v1/tournaments/{tournament}/rounds"
    assert stranger(app).get(rounds, headers=bearer(token)).status_code == 200
    assert stranger(app).get(rounds, headers=copied).status_code == 200

    out = laptop.post(f"/tournaments/{tournament}/logout")
    assert out.status_code == 303
    refused = stranger(app).get(rounds, headers={**bearer(token), **EN})
    assert refused.status_code == 401
    assert refused.json["errors"]["access"] == [
        "This access token has ended (its session was logged out); ask for a new one."
    ]
    assert stranger(app).get(rounds, headers=copied).status_code == 401
    page = stranger(app).get(f"/tournaments/{tournament}", headers=copied)
    assert page.status_code == 303
    assert page.headers["Location"].startswith(f"/tournaments/{tournament}/login")
    assert laptop.get(rounds).status_code == 401
    # Another login on the same device is a new session.
    token = ok(laptop.post(login, json={"password": PASSWORD}))["token"]
    assert stranger(app).get(rounds, headers=bearer(token)).status_code == 200
    # Other sessions of the organiser were not logged out.
    assert client.get(rounds).status_code == 200


def test_a_logout_ends_the_pin_unlocked_in_the_same_session(make_app: Callable[..., Flask]) -> None:
    app = make_app(WTF_CSRF_ENABLED=False, ACCESS_PIN=PIN)
    laptop = app.test_client()
    ok(laptop.post("/api/v1/unlock", json={"pin": PIN}))
    tournament = create_tournament(laptop)
    token = ok(laptop.post(f"/api/v1/tournaments/{tournament}/login", json={"password": PASSWORD}))[
        "token"
    ]
    copied = cookie_of(laptop)
    assert stranger(app).get("/api/v1/evenings", headers=bearer(token)).status_code == 200
    laptop.post(f"/tournaments/{tournament}/logout")
    assert stranger(app).get("/api/v1/evenings", headers=bearer(token)).status_code == 401
    assert stranger(app).get("/api/v1/evenings", headers=copied).status_code == 401
    assert stranger(app).get("/", headers=copied).headers["Location"].startswith("/unlock")


# -- a new organiser password ----------------------------------------------------------------


def test_a_new_password_ends_every_organiser_login_made_before(
    app: Flask, client: FlaskClient, tournament: int
) -> None:
    rounds = f"/api/v1/tournaments/{tournament}/rounds"
    login = f"/api/v1/tournaments/{tournament}/login"
    script = app.test_client(use_cookies=False)
    token = ok(script.post(login, json={"password": PASSWORD}))["token"]
    assistant = app.test_client()
    page_login = f"/tournaments/{tournament}/login"
    assert assistant.post(page_login, data={"password": PASSWORD}).status_code == 303
    assert assistant.get(f"/tournaments/{tournament}").status_code == 200

    version = ok(client.get(f"/api/v1/tournaments/{tournament}"))["version"]
    changed = ok(
        client.patch(
            f"/api/v1/tournaments/{tournament}",
            json={"version": version, "password": "neues-passwort"},
        )
    )
    refused = script.get(rounds, headers={**bearer(token), **EN})
    assert refused.status_code == 401
    assert refused.json["errors"]["access"] == [
        "Only the organiser can do this: log in with the organiser's password."
    ]
    assert assistant.get(f"/tournaments/{tournament}").status_code == 303
    assert assistant.get(rounds).status_code == 401
    assert assistant.post(f"/tournaments/{tournament}/rounds").status_code == 401
    # Whoever set the new password goes on, with the cookie and with the new token.
    assert client.get(rounds).status_code == 200
    assert script.get(rounds, headers=bearer(changed["token"])).status_code == 200
    # The old password opens nothing; the new one does.
    assert script.post(login, json={"password": PASSWORD}).status_code == 401
    token = ok(script.post(login, json={"password": "neues-passwort"}))["token"]
    assert script.get(rounds, headers=bearer(token)).status_code == 200


def test_the_same_password_set_again_ends_the_logins_too(
    app: Flask, client: FlaskClient, tournament: int
) -> None:
    """Whoever had learned the password and logged in is out even if the organiser only
    set it again (each setting is stored with a new salt)."""
    script = app.test_client(use_cookies=False)
    login = f"/api/v1/tournaments/{tournament}/login"
    token = ok(script.post(login, json={"password": PASSWORD}))["token"]
    ok(client.patch(f"/api/v1/tournaments/{tournament}", json={"version": 1, "password": PASSWORD}))
    rounds = f"/api/v1/tournaments/{tournament}/rounds"
    assert script.get(rounds, headers=bearer(token)).status_code == 401


def test_a_change_without_a_password_ends_no_login(
    app: Flask, client: FlaskClient, tournament: int
) -> None:
    script = app.test_client(use_cookies=False)
    token = ok(script.post(f"/api/v1/tournaments/{tournament}/login", json={"password": PASSWORD}))[
        "token"
    ]
    changed = ok(
        client.patch(f"/api/v1/tournaments/{tournament}", json={"version": 1, "place": "Bern"})
    )
    assert "token" not in changed
    rounds = f"/api/v1/tournaments/{tournament}/rounds"
    assert script.get(rounds, headers=bearer(token)).status_code == 200


# -- a table's round -------------------------------------------------------------------------


def test_a_table_token_ends_with_its_round(
    app: Flask, client: FlaskClient, tournament: int
) -> None:
    register(client, tournament, NAMES[:8])
    draw(client, tournament)
    round_ = start(client, tournament, 1)
    table = round_["tables"][0]
    tablet = app.test_client()
    token = ok(tablet.post(f"/api/v1/tables/{table['code']}/open"))["token"]
    evening = f"/api/v1/evenings/{table['evening']}"
    assert stranger(app).get(evening, headers=bearer(token)).status_code == 200
    assert tablet.get(f"/evenings/{table['evening']}").status_code == 200

    ok(close(client, tournament, 1, confirm=True))
    refused = stranger(app).get(evening, headers={**bearer(token), **EN})
    assert refused.status_code == 403
    assert refused.json["errors"]["access"] == [
        "Round 1 is over: this device no longer reaches its table. Open the next table with "
        "the code on its table card."
    ]
    assert tablet.get(evening).status_code == 403
    page = tablet.get(f"/evenings/{table['evening']}")
    assert page.status_code == 303
    assert page.headers["Location"].startswith("/t?next=")
    # The organiser still reaches the table.
    assert client.get(evening).status_code == 200


# -- an evening, or a tournament day ---------------------------------------------------------


def test_tokens_and_cookies_end_after_the_session_hours(
    app: Flask, tournament: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert app.config["SESSION_HOURS"] == 16
    assert app.permanent_session_lifetime == timedelta(hours=16)
    laptop = app.test_client()
    token = ok(laptop.post(f"/api/v1/tournaments/{tournament}/login", json={"password": PASSWORD}))[
        "token"
    ]
    rounds = f"/api/v1/tournaments/{tournament}/rounds"
    later(monkeypatch, 15.9)
    assert stranger(app).get(rounds, headers=bearer(token)).status_code == 200
    # The cookie is signed again with every answer; it still ends with its login.
    assert laptop.get(rounds).status_code == 200
    later(monkeypatch, 16.1)
    refused = stranger(app).get(rounds, headers={**bearer(token), **EN})
    assert refused.status_code == 401
    assert refused.json["errors"]["access"] == [
        "The access token is not valid (or has expired); ask for a new one."
    ]
    assert laptop.get(rounds).status_code == 401
    assert laptop.get(f"/tournaments/{tournament}").status_code == 303


def test_the_session_hours_are_a_setting(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_SESSION_HOURS", "8")
    app = make_app(WTF_CSRF_ENABLED=False)
    assert app.permanent_session_lifetime == timedelta(hours=8)
    laptop = app.test_client()
    tournament = create_tournament(laptop)
    token = ok(laptop.post(f"/api/v1/tournaments/{tournament}/login", json={"password": PASSWORD}))[
        "token"
    ]
    kept = laptop.get_cookie("session")
    assert kept is not None
    assert kept.expires is not None
    assert timedelta(hours=7.9) < kept.expires - datetime.now(UTC) <= timedelta(hours=8)
    later(monkeypatch, 8.1)
    rounds = f"/api/v1/tournaments/{tournament}/rounds"
    assert stranger(app).get(rounds, headers=bearer(token)).status_code == 401


@pytest.mark.parametrize("hours", [0, -1, "x", 10_000])
def test_session_hours_that_never_or_always_end_are_refused(
    make_app: Callable[..., Flask], hours: Any
) -> None:
    with pytest.raises(ValueError, match="SESSION_HOURS"):
        make_app(SESSION_HOURS=hours)


def test_a_cookie_from_before_sessions_had_ids_counts_as_none(app: Flask, tournament: int) -> None:
    """Grants signed by an older version carry no session id: logged in again."""
    from scorekeeper.web import access

    with app.test_request_context():
        old = access._serializer().dumps({"organiser": [tournament]})
    rounds = f"/api/v1/tournaments/{tournament}/rounds"
    assert stranger(app).get(rounds, headers=bearer(old)).status_code == 401
