"""Browser fixtures: Debian's Chromium driven by Playwright against a live server.

The pages are used with one finger on a tablet beside the deck, so these tests drive a real
browser at the tablet's and a phone's sizes, with CSRF on as at the table. Chromium comes
from Debian (``scripts/setup --test``); Playwright never downloads a browser of its own.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from werkzeug.serving import BaseWSGIServer, make_server

from scorekeeper import create_app
from scorekeeper.db.extensions import db

CHROMIUM = Path("/usr/bin/chromium")
#: Without the networking flags Chromium keeps dialling out and is refused.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

#: A 10-inch tablet upright and on its side, and a phone: (width, height) in CSS pixels.
PORTRAIT = (800, 1280)
LANDSCAPE = (1024, 768)
PHONE = (390, 844)
SIZES = [PORTRAIT, LANDSCAPE, PHONE]
SIZE_IDS = ["portrait", "landscape", "phone"]

#: The browser's language; the app picks German or English from it.
LOCALES = {"en": "en-GB", "de": "de-CH"}
LANGS = list(LOCALES)

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"

PLAYERS = ["Anna", "Bert", "Clara", "Dora"]


@dataclass
class LiveServer:
    """The app served over HTTP in a thread, and a test client on the same database."""

    url: str
    app: Flask
    client: FlaskClient = field(init=False)

    def __post_init__(self) -> None:
        self.client = self.app.test_client()

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """Call the JSON API (no CSRF there), to set the table up quickly."""
        response = self.client.open(f"/api/v1{path}", method=method, json=body)
        assert response.status_code < 300, response.json
        return dict(response.json or {})

    def evening(self, players: list[str] | None = None, dealer: str = "Dora") -> int:
        """A Troggen evening; Dora deals first, so Anna deals the second hand."""
        body = {"game": "troggen", "players": players or PLAYERS, "first_dealer": dealer}
        return int(self.api("POST", "/evenings", {**body, "title": "Museumsabend"})["id"])

    def hand(self, evening_id: int, body: dict[str, Any]) -> int:
        """Record a hand and return its number."""
        return int(self.api("POST", f"/evenings/{evening_id}/hands", body)["hand"]["number"])


@pytest.fixture(scope="session")
def driver() -> Iterator[Playwright]:
    """Playwright, once for the whole run: a second one cannot start beside it."""
    # The test command installs it; a missing browser is a failed set-up, not a pass.
    assert CHROMIUM.exists(), "Debian's chromium is missing: run scripts/setup --test"
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(driver: Playwright) -> Iterator[Browser]:
    """One Chromium for the whole run; every test gets fresh contexts of it."""
    chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


def whole_answers(app: Flask) -> Callable[..., Iterable[bytes]]:
    """``app`` answering with its whole body at once, its answer closed before it is sent.

    Werkzeug's test server leaves an answer's open file (a stylesheet, a script) unclosed
    when the browser drops the connection while it is being sent, as Chromium may when it
    leaves a page; the file is then reported as a resource warning. Nothing the app sends
    is streamed, so reading each answer whole changes nothing the browser sees.
    """

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        answer = app(environ, start_response)
        try:
            return [b"".join(answer)]
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()

    return serve


@pytest.fixture(scope="module")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, migrated_db: Path
) -> Iterator[LiveServer]:
    """The app with CSRF on (the real flow) on its own database, on a free local port."""
    folder = tmp_path_factory.mktemp("live")
    path = folder / "live.sqlite"
    shutil.copy(migrated_db, path)
    # As served: not testing, so the secret key is generated into the instance folder.
    # The hall's tablets reach it by a name too (test_outbox.py): one of its own names.
    config = {"DATABASE_URL": f"sqlite:///{path}", "HOST_NAMES": ["tablet.hall"]}
    app = create_app(config, instance_path=str(folder))
    assert app.config.get("WTF_CSRF_ENABLED", True)
    server: BaseWSGIServer = make_server("127.0.0.1", 0, whole_answers(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield LiveServer(f"http://127.0.0.1:{server.server_port}", app)
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


OpenPage = Callable[..., Page]


@pytest.fixture
def open_page(browser: Browser, live_server: LiveServer) -> Iterator[OpenPage]:
    """Open a page in a new context: its own cookies, like another tablet at the table."""
    contexts: list[BrowserContext] = []

    def open_(
        lang: str = "en", size: tuple[int, int] = LANDSCAPE, *, javascript: bool = True
    ) -> Page:
        width, height = size
        context = browser.new_context(
            base_url=live_server.url,
            locale=LOCALES[lang],
            viewport={"width": width, "height": height},
            has_touch=True,
            java_script_enabled=javascript,
        )
        # Generous: a busy two-core machine runs the browser, the server and the tests at
        # once. A missing element still fails, only later.
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


def screenshot(page: Page, lang: str, name: str) -> Path:
    """Save the whole page as test-artifacts/screenshots/<lang>-<name>-<w>x<h>.png."""
    size = page.viewport_size
    assert size is not None
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{lang}-{name}-{size['width']}x{size['height']}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled", caret="hide")
    return path
