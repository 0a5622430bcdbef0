"""The content security policy as a real browser applies it: it blocks injected inline
code, the table screen's own script runs under it, and no tournament page trips over it.
Every page of the layout gate's walk is checked under it too (test_accessibility.py)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.checks import listen
from tests.browser.conftest import LANDSCAPE, LiveServer, OpenPage
from tests.conftest import sqlite_only

#: The live server runs on a SQLite file of its own (conftest.py).
pytestmark = sqlite_only


def test_the_policy_blocks_inline_code_but_not_the_table_screens_script(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    page = open_page("de", LANDSCAPE)
    refused = listen(page)
    page.goto("/")
    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.injected = true";
          document.body.append(script);
        }"""
    )
    assert page.evaluate("() => window.injected === undefined")
    assert len(refused) == 1, refused  # the policy is on, and this listener hears it
    refused.clear()

    page.goto(f"/evenings/{live_server.evening()}")
    expect(page.locator("html")).to_have_class("js")  # the table's own script ran
    page.locator("label.choice:has(input[name=contract][value=doppelt])").tap()
    page.locator("label.choice:has(input[name=bidder][value=Anna])").tap()
    page.locator(".points-entry .keypad button[data-key='4']").tap()
    expect(page.locator("#preview .preview-title")).to_be_visible()  # fetched by the script
    assert refused == []


def test_no_tournament_page_trips_over_the_policy(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    body = {
        "name": "Turnier",
        "game": "troggen",
        "rounds": 2,
        "deals_per_player": 1,
        "password": "museum-2026",
    }
    tournament = int(live_server.api("POST", "/tournaments", body)["id"])
    for name in ["Anna", "Bert", "Clara", "Dora", "Emil", "Frieda", "Gustav", "Hanna"]:
        live_server.api("POST", f"/tournaments/{tournament}/entrants", {"name": name})
    live_server.api("POST", f"/tournaments/{tournament}/rounds")
    code = live_server.api("POST", f"/tournaments/{tournament}/rounds/1/start")["tables"][0]["code"]
    laptop = open_page("de", LANDSCAPE)
    refused = listen(laptop)
    base = f"/tournaments/{tournament}"
    laptop.goto(base)
    laptop.locator("input[name=password]").fill("museum-2026")
    laptop.locator("form button[type=submit].primary").tap()
    expect(laptop).to_have_url(re.compile(rf"{base}$"))
    for path in [
        "/tournaments",
        "/tournaments/new",
        base,
        f"{base}/players",
        f"{base}/rounds/1",
        f"{base}/standings",
        f"{base}/screen",
        f"{base}/log",
        f"{base}/settings",
        "/t",
    ]:
        laptop.goto(path)
        laptop.wait_for_load_state("networkidle")
    tablet = open_page("de", LANDSCAPE)
    refused_at_table = listen(tablet)
    tablet.goto(f"/t/{code}")
    expect(tablet.locator("html")).to_have_class("js")
    assert refused == []
    assert refused_at_table == []
