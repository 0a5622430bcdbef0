"""Wrong PINs, passwords and table codes (docs/hall-safety.md "PINs, passwords and tokens").

Each address may try ``LOGIN_ATTEMPTS`` wrong ones in ``LOGIN_WINDOW_SECONDS``; from all
addresses together, past ``LOGIN_DELAY_AFTER`` wrong ones every try waits after the last
wrong one, 1 s and doubling, at most ``LOGIN_DELAY_MAX_SECONDS``. Addresses are set with
``REMOTE_ADDR`` in the test client (no traffic leaves the machine); the clock the counting
reads is stopped and moved by hand, so that no test depends on how fast it runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.db.extensions import db
from scorekeeper.db.models import LoginAttempt
from scorekeeper.web import access
from tests.web.tournaments.support import EN, NAMES, PASSWORD, create_tournament, draw, ok, register

PIN = "4711"
DELAYED_PIN = "Many wrong PINs were tried on this installation"


class Clock:
    """The time ``access`` counts tries by, standing still until moved."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 14, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def move(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    stopped = Clock()
    monkeypatch.setattr(access, "utcnow", stopped)
    return stopped


@pytest.fixture
def pin_app(make_app: Callable[..., Flask]) -> Flask:
    return make_app(WTF_CSRF_ENABLED=False, ACCESS_PIN=PIN)


def address(n: int) -> dict[str, Any]:
    """A device of the hall's network, by its number."""
    return {"environ_base": {"REMOTE_ADDR": f"10.0.{n // 250}.{n % 250 + 1}"}}


def at_once(count: int, call: Callable[[int], Any]) -> list[Any]:
    """``call(i)`` for every i below ``count``, in threads released together."""
    barrier = threading.Barrier(count)

    def run(i: int) -> Any:
        barrier.wait()
        return call(i)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def unlock(app: Flask, pin: str, n: int = 0) -> Any:
    return app.test_client().post("/api/v1/unlock", json={"pin": pin}, headers=EN, **address(n))


def wrong_tries(app: Flask, scope: str) -> int:
    with app.app_context():
        query = select(func.count()).select_from(LoginAttempt).where(LoginAttempt.scope == scope)
        return int(db.session.scalar(query) or 0)


# -- one address -----------------------------------------------------------------------------


def test_a_player_who_mistypes_twice_is_not_slowed(pin_app: Flask, clock: Clock) -> None:
    phone = pin_app.test_client()
    for wrong in ("4771", "7411"):
        assert phone.post("/api/v1/unlock", json={"pin": wrong}).status_code == 401
    assert phone.post("/api/v1/unlock", json={"pin": PIN}).status_code == 200
    assert phone.get("/api/v1/evenings").status_code == 200


def test_forty_wrong_pins_sent_at_once_from_one_address_check_only_five(
    pin_app: Flask, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared = []
    configured = access.configured_pin

    def counting() -> str:
        compared.append(1)
        return configured()

    monkeypatch.setattr(access, "configured_pin", counting)
    answers = at_once(40, lambda i: unlock(pin_app, f"{1000 + i}").status_code)
    assert sorted(answers) == [401] * 5 + [429] * 35
    assert len(compared) == 5
    assert wrong_tries(pin_app, "pin") == 5


def test_forty_table_codes_sent_at_once_check_only_five(
    make_app: Callable[..., Flask], clock: Clock
) -> None:
    app = make_app(WTF_CSRF_ENABLED=False)
    answers = at_once(
        40, lambda i: app.test_client().post(f"/api/v1/tables/WRONG{i:02d}/open").status_code
    )
    assert sorted(answers) == [404] * 5 + [429] * 35


# -- the whole installation ------------------------------------------------------------------


def test_wrong_pins_from_many_addresses_meet_a_growing_delay(pin_app: Flask, clock: Clock) -> None:
    after = pin_app.config["LOGIN_DELAY_AFTER"]
    assert after == 10
    for n in range(after):
        assert unlock(pin_app, "0000", n).status_code == 401
    # The next try waits 1 s after the last wrong one, whatever its address and PIN.
    refused = unlock(pin_app, PIN, after)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "1"
    assert refused.json["errors"]["access"] == [
        "Many wrong PINs were tried on this installation, so every try now waits a while. "
        "Try again in 1 second."
    ]
    # Then 2 s, 4 s... after each further wrong one, and a refused try prolongs nothing.
    for n, wait in enumerate([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300], start=after):
        clock.move(wait - 1)
        assert unlock(pin_app, "0000", n).status_code == 429, wait
        clock.move(1)
        assert unlock(pin_app, "0000", n).status_code == 401, wait
    clock.move(299)
    refused = unlock(pin_app, PIN, 99)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "1"
    clock.move(1)
    assert unlock(pin_app, PIN, 99).status_code == 200


def test_devices_unlocked_before_are_not_slowed(pin_app: Flask, clock: Clock) -> None:
    laptop = pin_app.test_client()
    assert laptop.post("/api/v1/unlock", json={"pin": PIN}).status_code == 200
    for n in range(15):
        unlock(pin_app, "0000", n)
    assert unlock(pin_app, PIN, 20).status_code == 429
    assert laptop.get("/api/v1/evenings").status_code == 200
    assert laptop.get("/", headers=EN).status_code == 200


def test_forty_addresses_at_once_check_only_as_many_as_the_installation_allows(
    pin_app: Flask, clock: Clock
) -> None:
    answers = at_once(40, lambda i: unlock(pin_app, "0000", i).status_code)
    assert sorted(answers) == [401] * 10 + [429] * 30


def test_the_count_of_a_window_past_ends(pin_app: Flask, clock: Clock) -> None:
    for n in range(12):
        unlock(pin_app, "0000", n)
    assert unlock(pin_app, "0000", 50).status_code == 429
    clock.move(pin_app.config["LOGIN_DELAY_WINDOW_SECONDS"])
    for n in range(50, 60):
        assert unlock(pin_app, "0000", n).status_code == 401


def test_a_right_code_does_not_wipe_out_the_installations_count(
    make_app: Callable[..., Flask], clock: Clock
) -> None:
    """A guest knows one real code: entered after each few guesses, it clears their
    address's count, never the installation's."""
    app = make_app(WTF_CSRF_ENABLED=False)
    organiser = app.test_client()
    tournament = create_tournament(organiser)
    register(organiser, tournament, NAMES[:4])
    draw(organiser, tournament)
    started = ok(organiser.post(f"/api/v1/tournaments/{tournament}/rounds/1/start"))
    code = started["tables"][0]["code"]
    guest = app.test_client()
    guesses = 0
    for _ in range(3):
        for _ in range(3):
            assert guest.post("/api/v1/tables/AAAAAA/open").status_code == 404
            guesses += 1
        assert guest.post(f"/api/v1/tables/{code}/open").status_code == 200
    assert wrong_tries(app, "table-code") == guesses == 9
    # The guest's own count starts again; the installation's holds every guess.
    assert guest.post("/api/v1/tables/AAAAAA/open").status_code == 404
    assert guest.post("/api/v1/tables/AAAAAA/open").status_code == 429


def test_each_kind_of_try_is_counted_apart(pin_app: Flask, clock: Clock) -> None:
    for n in range(12):
        unlock(pin_app, "0000", n)
    organiser = pin_app.test_client()
    assert organiser.post("/api/v1/unlock", json={"pin": PIN}).status_code == 429
    assert organiser.post("/api/v1/tables/AAAAAA/open").status_code == 404


def test_the_pages_say_why_they_wait(make_app: Callable[..., Flask], clock: Clock) -> None:
    app = make_app(WTF_CSRF_ENABLED=False)
    organiser = app.test_client()
    tournament = create_tournament(organiser)
    login = f"/tournaments/{tournament}/login"
    for n in range(10):
        device = app.test_client()
        assert device.post(login, data={"password": "falsch!"}, **address(n)).status_code == 401
        assert device.post("/t", data={"code": "AAAAAA"}, **address(n)).status_code == 404
    page = app.test_client().post(login, data={"password": PASSWORD}, headers=EN, **address(30))
    assert page.status_code == 429
    assert page.headers["Retry-After"] == "1"
    assert "Many wrong passwords were tried for this tournament" in page.text
    assert "Try again in 1 second." in page.text
    page = app.test_client().post("/t", data={"code": "AAAAAA"}, headers=EN, **address(30))
    assert page.status_code == 429
    assert "Many wrong table codes were tried on this installation" in page.text
    german = app.test_client().get("/t/AAAAAA", headers={"Accept-Language": "de"}, **address(31))
    assert german.status_code == 429
    assert "Auf dieser Installation wurden viele falsche Tischcodes versucht" in german.text
    # The organiser's laptop, logged in before, goes on.
    assert organiser.get(f"/tournaments/{tournament}").status_code == 200


def test_the_unlock_page_says_why_it_waits(pin_app: Flask, clock: Clock) -> None:
    for n in range(10):
        assert unlock(pin_app, "0000", n).status_code == 401
    page = pin_app.test_client().post("/unlock", data={"pin": PIN}, headers=EN, **address(40))
    assert page.status_code == 429
    assert DELAYED_PIN in page.text
    assert 'role="alert"' in page.text
    # From one device: that device's own wait, in minutes.
    for _ in range(5):
        clock.move(60)
        assert unlock(pin_app, "0000", 41).status_code == 401
    clock.move(60)
    mine = pin_app.test_client().post("/unlock", data={"pin": PIN}, headers=EN, **address(41))
    assert mine.status_code == 429
    assert "Too many wrong tries from this device" in mine.text


# -- longer PINs -----------------------------------------------------------------------------


@pytest.mark.parametrize("pin", ["482915", "83920174655102938475", "Tarock2026"])
def test_a_longer_pin_unlocks(make_app: Callable[..., Flask], pin: str) -> None:
    app = make_app(WTF_CSRF_ENABLED=False, ACCESS_PIN=pin)
    phone = app.test_client()
    form = phone.get("/unlock", headers=EN).text
    assert 'maxlength="32"' in form
    assert f'inputmode="{"numeric" if pin.isdigit() else "text"}"' in form
    assert phone.post("/unlock", data={"pin": pin[:-1]}).status_code == 401
    assert phone.post("/unlock", data={"pin": pin, "next": "/"}).status_code == 303
    assert phone.get("/").status_code == 200


@pytest.mark.parametrize("pin", ["123", "x" * 33])
def test_a_pin_too_short_or_too_long_is_refused_at_start(tmp_path: Any, pin: str) -> None:
    with pytest.raises(ValueError, match="ACCESS_PIN"):
        create_app(
            {
                "TESTING": True,
                "DATABASE_URL": "sqlite://",
                "AUTO_MIGRATE": False,
                "ACCESS_PIN": pin,
            },
            instance_path=str(tmp_path),
        )


def test_a_pin_from_the_environment_may_be_a_number(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_ACCESS_PIN", "482915")
    app = make_app(WTF_CSRF_ENABLED=False)
    assert app.config["ACCESS_PIN"] == 482915  # read as JSON
    assert app.test_client().post("/api/v1/unlock", json={"pin": "482915"}).status_code == 200
