"""A paper sheet typed back in at a keyboard (``static/paper.js``; docs/recording.md "Back
from paper"): the cursor moves on by itself where a code is complete, each line shows its
hand as it is typed, a refused line says why in place, and "Save all" stores once."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.checks import axe_findings, problems_on
from tests.browser.conftest import LANDSCAPE, PLAYERS, LiveServer, OpenPage, screenshot
from tests.conftest import sqlite_only

#: The live server runs on a SQLite file of its own (conftest.py).
pytestmark = sqlite_only


def focused(page: Page) -> str:
    """The id of the field the cursor is in."""
    return str(page.evaluate("() => document.activeElement.id"))


def test_a_sheet_typed_at_a_keyboard_is_checked_line_by_line_and_saved_once(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    evening = live_server.evening(PLAYERS)
    page = open_page("de", LANDSCAPE)
    page.goto(f"/evenings/{evening}/paper")
    assert focused(page) == "lines-0-contract"
    page.keyboard.type("e")  # complete: on to who played
    assert focused(page) == "lines-0-who"
    page.keyboard.type("a")  # one player at four: on to the points
    page.keyboard.type("41")  # two digits: on to the last trick
    assert focused(page) == "lines-0-extra"
    page.keyboard.press("Enter")
    assert focused(page) == "lines-1-contract"
    page.keyboard.type("gtx")
    page.keyboard.press("Tab")
    page.keyboard.type("30")
    page.keyboard.press("Enter")
    first, second = page.locator("tr.paper-line").nth(0), page.locator("tr.paper-line").nth(1)
    expect(first).to_have_class("paper-line ok")
    expect(first.locator(".paper-result")).to_contain_text("+3")
    expect(second).to_have_class("paper-line refused")
    expect(second.locator(".paper-problems")).to_contain_text("Kürzel")
    expect(page.locator("#lines-1-who")).to_have_attribute("aria-invalid", "true")
    screenshot(page, "de", "paper-typed")
    assert problems_on(page) == []
    assert axe_findings(page, "paper-typed") == []
    page.locator("#lines-1-who").fill("b")
    expect(second).to_have_class("paper-line ok")
    with page.expect_navigation():
        page.locator("button[value=save]").click()
    assert page.url.endswith(f"/evenings/{evening}/hands")
    expect(page.locator("p.flash")).to_contain_text("2 Spiele")
    hands = live_server.api("GET", f"/evenings/{evening}")["hands"]
    assert [h["input"]["bidder"] for h in hands] == ["Anna", "Bert"]
