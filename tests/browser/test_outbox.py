"""Nothing entered at the table is lost or misfiled (docs/recording.md), in a real browser.

The tablets of a hall reach the app by a name on plain HTTP, which the browser does not
treat as a secure context, and keep pages in their back/forward cache: so does this
browser (Chromium's host-resolver rules map the name to this machine; Playwright's
switch that turns the cache off is left out).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    Route,
    expect,
)

from tests.browser.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    PLAYERS,
    PORTRAIT,
    LiveServer,
    screenshot,
)
from tests.conftest import sqlite_only
from tests.live.conftest import Tablet, servers

#: The live server runs on a SQLite file of its own (conftest.py).
pytestmark = sqlite_only

HALL_NAME = "tablet.hall"
BID = {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"}


@pytest.fixture(scope="module")
def hall_browser(driver: Playwright) -> Iterator[Browser]:
    """Chromium as a tablet in the hall runs it: an ordinary host name, the back/forward
    cache on."""
    chromium = driver.chromium.launch(
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HALL_NAME} 127.0.0.1"],
        ignore_default_args=["--disable-back-forward-cache"],
    )
    yield chromium
    chromium.close()


class Hall:
    """Tablets (browser contexts) on the live server, under the hall's host name."""

    def __init__(self, browser: Browser, server: LiveServer) -> None:
        self.browser = browser
        self.server = server
        self.contexts: list[BrowserContext] = []
        port = server.url.rsplit(":", 1)[1]
        self.url = f"http://{HALL_NAME}:{port}"

    def tablet(self, size: tuple[int, int] = PORTRAIT, *, javascript: bool = True) -> Page:
        """A new tablet (its own cookies and storage) on an English page."""
        width, height = size
        context = self.browser.new_context(
            base_url=self.url,
            locale="en-GB",
            viewport={"width": width, "height": height},
            has_touch=True,
            java_script_enabled=javascript,
        )
        context.set_default_timeout(15_000)
        self.contexts.append(context)
        return context.new_page()

    def hands(self, evening: int) -> list[dict[str, Any]]:
        """The evening's hands as the API lists them."""
        return list(self.server.api("GET", f"/evenings/{evening}")["hands"])


@pytest.fixture
def hall(hall_browser: Browser, live_server: LiveServer) -> Iterator[Hall]:
    """The hall; every tablet is put away at the end."""
    made = Hall(hall_browser, live_server)
    yield made
    for context in made.contexts:
        context.close()


def choose(page: Page, name: str, value: str) -> None:
    """Tap the big button of one radio choice."""
    page.locator(f"label.choice:has(input[name='{name}'][value='{value}'])").tap()


def enter_bid(page: Page, contract: str, bidder: str, points: str) -> None:
    """A bid with its points, typed on the keypad."""
    choose(page, "contract", contract)
    choose(page, "bidder", bidder)
    keypad = page.locator("form.hand-form .points-entry")
    if not keypad.locator(".keypad").is_visible():  # without JavaScript: the field itself
        page.locator("input[name=points]").fill(points)
        return
    keypad.locator(".keypad button[data-key='clear']").tap()
    for digit in points:
        keypad.locator(f".keypad button[data-key='{digit}']").tap()


def save(page: Page) -> None:
    """Tap Save."""
    page.locator("form.hand-form button.save").tap()


def inputs(hands: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """Contract, bidder and points of each hand."""
    return [(h["input"]["contract"], h["input"]["bidder"], h["input"]["points"]) for h in hands]


@pytest.mark.parametrize("size", [PORTRAIT, PHONE], ids=["portrait", "phone"])
def test_back_twice_gives_a_fresh_form_and_a_new_hand_is_recorded(
    hall: Hall, size: tuple[int, int]
) -> None:
    evening = hall.server.evening()
    page = hall.tablet(size)
    page.goto(f"/evenings/{evening}")
    for points in ("41", "30"):
        enter_bid(page, "einfach", "Bert", points)
        save(page)
        expect(page.locator("section.saved h2")).to_be_visible()
    expect(page).to_have_url(re.compile(r"\?saved=2$"))
    page.go_back()
    page.go_back()
    expect(page.locator("#entry-title")).to_have_text("Hand 3")
    expect(page.locator("input[name=contract]:checked")).to_have_count(0)
    expect(page.locator("input[name=bidder]:checked")).to_have_count(0)
    enter_bid(page, "doppelt", "Clara", "50")
    save(page)
    expect(page.locator("section.saved h2")).to_have_text("Hand 3 saved")
    assert inputs(hall.hands(evening)) == [
        ("einfach", "Bert", 41),
        ("einfach", "Bert", 30),
        ("doppelt", "Clara", 50),
    ]


@pytest.mark.parametrize("javascript", [True, False], ids=["outbox", "plain"])
def test_a_form_for_a_hand_saved_elsewhere_keeps_the_entry(hall: Hall, javascript: bool) -> None:
    """Two tablets had the form for hand 1 open; the second one's entry is not recorded
    over the first: it is shown beside what was saved, and saved as hand 2 with one tap."""
    evening = hall.server.evening()
    late = hall.tablet(javascript=javascript)
    late.goto(f"/evenings/{evening}")
    hall.server.hand(evening, BID)  # the other tablet was quicker
    enter_bid(late, "einfach", "Bert", "40")
    save(late)
    conflict = late.locator("#conflict")
    expect(conflict).to_contain_text("Hand 1 was already saved")
    expect(conflict.locator(".deltas li").first).to_have_text("Anna +12")
    expect(late.locator("input[name=contract][value=einfach]")).to_be_checked()
    expect(late.locator("input[name=bidder][value=Bert]")).to_be_checked()
    expect(late.locator("input[name=points]")).to_have_value("40")
    assert len(hall.hands(evening)) == 1
    screenshot(late, "en", f"stale-form-{'outbox' if javascript else 'plain'}")
    button = late.locator("form.hand-form button.save")
    expect(button).to_have_text("Save as hand 2")
    button.tap()
    expect(late.locator("section.saved h2")).to_have_text("Hand 2 saved")
    assert inputs(hall.hands(evening)) == [("doppelt", "Anna", 41), ("einfach", "Bert", 40)]


def test_a_double_tap_records_one_hand(hall: Hall) -> None:
    evening = hall.server.evening()
    page = hall.tablet()
    page.goto(f"/evenings/{evening}")
    enter_bid(page, "einfach", "Bert", "40")
    page.locator("form.hand-form button.save").dblclick()
    expect(page.locator("section.saved h2")).to_have_text("Hand 1 saved")
    expect(page.locator("#outbox")).to_be_hidden()
    assert len(hall.hands(evening)) == 1


@pytest.mark.parametrize("javascript", [True, False], ids=["outbox", "plain"])
def test_an_expired_form_keeps_its_entry(hall: Hall, javascript: bool) -> None:
    """The form's protection ran out over dinner: the hand is still saved, at most with one
    more tap, and never lost."""
    evening = hall.server.evening()
    page = hall.tablet(javascript=javascript)
    page.goto(f"/evenings/{evening}")
    enter_bid(page, "einfach", "Bert", "40")
    page.locator("form.hand-form input[name=csrf_token]").evaluate(
        "input => input.value = 'expired'"
    )
    save(page)
    if not javascript:
        expect(page.locator(".error").first).to_contain_text("Nothing was saved yet")
        expect(page.locator("input[name=points]")).to_have_value("40")
        save(page)
    expect(page.locator("section.saved h2")).to_have_text("Hand 1 saved")
    assert inputs(hall.hands(evening)) == [("einfach", "Bert", 40)]


def test_three_hands_saved_offline_are_sent_in_order_after_the_tab_was_closed(
    hall: Hall,
) -> None:
    evening = hall.server.evening()
    page = hall.tablet()
    page.goto(f"/evenings/{evening}")
    page.context.set_offline(True)
    for bidder, points in (("Anna", "41"), ("Bert", "30"), ("Clara", "50")):
        enter_bid(page, "einfach", bidder, points)
        save(page)
    band = page.locator("#outbox")
    expect(band).to_contain_text("3 hands wait to be sent")
    expect(band.locator("li")).to_have_count(3)
    expect(band.locator("li").first).to_contain_text("Hand 1")
    expect(page.locator("#entry-title")).to_have_text("Hand 4")
    # The table's state above says what it does not count yet, and names the entry's dealer.
    state = page.locator("section.state")
    expect(state.locator(".pending-note")).to_have_text(
        "Pot and balances: 3 hands waiting to be sent are not counted yet."
    )
    expect(state.locator(".turn strong")).to_have_text(["Clara", "Dora"])
    expect(page.locator("#entry details.dealer summary strong")).to_have_text("Clara")
    screenshot(page, "en", "outbox-offline")
    assert hall.hands(evening) == []
    page.close()

    page.context.set_offline(False)
    again = page.context.new_page()
    again.goto(f"/evenings/{evening}")
    expect(again).to_have_url(re.compile(r"\?saved=3$"))
    expect(again.locator("#outbox")).to_be_hidden()
    assert inputs(hall.hands(evening)) == [
        ("einfach", "Anna", 41),
        ("einfach", "Bert", 30),
        ("einfach", "Clara", 50),
    ]


def test_a_refused_hand_comes_back_and_holds_the_queue(hall: Hall) -> None:
    evening = hall.server.evening()
    page = hall.tablet()
    page.goto(f"/evenings/{evening}")
    page.context.set_offline(True)
    for bidder, points in (("Anna", "41"), ("Bert", "99"), ("Clara", "50")):
        enter_bid(page, "einfach", bidder, points)
        save(page)
    page.context.set_offline(False)  # the browser says it is online: the outbox sends

    band = page.locator("#outbox")
    expect(band).to_contain_text("Hand 2 was not saved")
    expect(page.locator("#entry .error").first).to_contain_text("between 0 and 70")
    expect(page.locator("input[name=points]")).to_have_value("99")
    expect(page.locator("input[name=bidder][value=Bert]")).to_be_checked()
    # Said once, at the field; the band stays where it is, over nothing of the form; the
    # hand given back is being corrected, not counted as waiting.
    expect(band).not_to_contain_text("between 0 and 70")
    assert band.evaluate("(el) => getComputedStyle(el).position") == "static"
    expect(page.locator(".pending-note")).to_have_text(
        "Pot and balances: 1 hand waiting to be sent is not counted yet."
    )
    screenshot(page, "en", "outbox-refused")
    assert inputs(hall.hands(evening)) == [("einfach", "Anna", 41)]

    enter_bid(page, "einfach", "Bert", "39")
    save(page)
    expect(band).to_contain_text("1 hand waits for you to send it on")
    assert inputs(hall.hands(evening)) == [("einfach", "Anna", 41), ("einfach", "Bert", 39)]
    band.locator("button", has_text="Send them now").tap()
    expect(page).to_have_url(re.compile(r"\?saved=3$"))
    assert inputs(hall.hands(evening)) == [
        ("einfach", "Anna", 41),
        ("einfach", "Bert", 39),
        ("einfach", "Clara", 50),
    ]


@pytest.mark.parametrize("stored", [True, False], ids=["answer-lost", "never-arrived"])
def test_a_hand_in_flight_when_the_server_dies_is_recorded_once(
    hall_browser: Browser, database_url: str, tmp_path: Path, stored: bool
) -> None:
    """The server is killed (as a pulled plug) while the hand is on its way, and started
    again: the outbox sends the hand again with its key, and it is stored once, whether
    the server had stored it and its answer was lost, or it never arrived."""
    with servers(database_url, tmp_path) as start:
        server = start(workers=1, threads=2)
        port = int(server.url.rsplit(":", 1)[1])
        created = server.api(Tablet(), "POST", "/evenings", {"game": "troggen", "players": PLAYERS})
        evening = created.json["id"]
        context = hall_browser.new_context(
            base_url=f"http://{HALL_NAME}:{port}", locale="en-GB", has_touch=True
        )
        context.set_default_timeout(15_000)
        try:
            page = context.new_page()
            page.goto(f"/evenings/{evening}")
            killed: list[bool] = []

            def kill_in_flight(route: Route) -> None:
                if route.request.method != "POST" or killed:
                    route.continue_()
                    return
                if stored:  # the server stores the hand; its answer is dropped
                    lost = route.fetch(
                        url=route.request.url.replace(HALL_NAME, "127.0.0.1"),
                        headers={**route.request.all_headers(), "host": f"{HALL_NAME}:{port}"},
                    )
                    assert lost.json()["saved"] == 1
                server.kill()
                killed.append(True)
                route.abort("connectionreset")

            page.route("**/evenings/*/hands", kill_in_flight)
            enter_bid(page, "einfach", "Bert", "40")
            save(page)
            for _ in range(150):  # the route's handler runs while the page is waited on
                if killed:
                    break
                page.wait_for_timeout(100)
            assert killed
            expect(page.locator("#outbox")).to_contain_text("Not sent yet: no answer")
            start(workers=1, threads=2, port=port)
            expect(page).to_have_url(re.compile(r"\?saved=1$"), timeout=45_000)
            hands = server.api(Tablet(), "GET", f"/evenings/{evening}").json["hands"]
            assert inputs(hands) == [("einfach", "Bert", 40)]
        finally:
            context.close()


def test_a_stale_correction_is_kept_beside_the_version_stored_now(hall: Hall) -> None:
    evening = hall.server.evening()
    hall.server.hand(evening, BID)
    first, second = hall.tablet(), hall.tablet(PHONE)
    for page in (first, second):
        page.goto(f"/evenings/{evening}/hands/1/edit")
    enter_bid(first, "doppelt", "Anna", "40")
    save(first)
    expect(first.locator(".flash")).to_contain_text("Hand 1 was corrected.")
    enter_bid(second, "doppelt", "Anna", "44")
    save(second)
    conflict = second.locator("#conflict")
    expect(conflict).to_contain_text("Someone else changed this hand meanwhile.")
    expect(conflict).to_contain_text("Stored now (version 2)")
    expect(conflict).to_contain_text("40")
    expect(second.locator("input[name=points]")).to_have_value("44")
    screenshot(second, "en", "stale-correction")
    save(second)
    expect(second.locator(".flash")).to_contain_text("Hand 1 was corrected.")
    assert inputs(hall.hands(evening)) == [("doppelt", "Anna", 44)]


def test_eisten_stalden_suggests_and_saves_through_the_outbox(hall: Hall) -> None:
    """Eisten-Stalden's form has a Suggest button of its own: the suggestion is asked
    without leaving the page, and the hand is saved to the evening."""
    players = ["Anna", "Beat", "Carla", "Dani", "Ella", "Fritz"]
    body = {"game": "troggu", "variant": "eisten-stalden", "players": players}
    evening = int(hall.server.api("POST", "/evenings", body)["id"])
    page = hall.tablet()
    page.goto(f"/evenings/{evening}")
    choose(page, "holder_mund", "Dani")
    choose(page, "holder_bagat", "Fritz")
    page.get_by_role("button", name="Suggest the team").tap()
    expect(page.locator("input[name=team]:checked")).to_have_count(3)
    expect(page).to_have_url(re.compile(rf"/evenings/{evening}$"))
    keypad = page.locator("form.hand-form .points-entry")
    for digit in "60":
        keypad.locator(f".keypad button[data-key='{digit}']").tap()
    save(page)
    expect(page.locator("section.saved h2")).to_have_text("Hand 1 saved")
    [hand] = hall.hands(evening)
    assert sorted(hand["input"]["team"]) == ["Anna", "Dani", "Fritz"]


def test_a_dealer_chosen_by_hand_stays_when_a_refused_hand_is_saved_again(hall: Hall) -> None:
    evening = hall.server.evening()  # Dora is proposed to deal the first hand
    page = hall.tablet()
    page.goto(f"/evenings/{evening}")
    page.locator("details.dealer summary").tap()
    page.locator("select[name=dealer]").select_option("Clara")
    enter_bid(page, "einfach", "Bert", "99")
    save(page)
    expect(page.locator("#outbox")).to_contain_text("Hand 1 was not saved")
    expect(page.locator("select[name=dealer]")).to_have_value("Clara")
    enter_bid(page, "einfach", "Bert", "40")
    save(page)
    expect(page.locator("section.saved h2")).to_have_text("Hand 1 saved")
    assert [h["dealer"] for h in hall.hands(evening)] == ["Clara"]


def test_hands_waiting_for_a_closed_evening_stay_in_view(hall: Hall) -> None:
    evening = hall.server.evening()
    page = hall.tablet()
    page.goto(f"/evenings/{evening}")
    page.context.set_offline(True)
    enter_bid(page, "einfach", "Bert", "40")
    save(page)
    hall.server.api("POST", f"/evenings/{evening}/close")
    page.context.set_offline(False)
    band = page.locator("#outbox")
    expect(band).to_contain_text("Hand 1 was not saved")
    page.reload()
    expect(band).to_contain_text("This evening is closed: these hands were not saved.")
    expect(band.locator("li")).to_contain_text("Hand 1: Einfach · Bert · 40")
    page.once("dialog", lambda dialog: dialog.accept())
    band.get_by_role("button", name="Do not save it").tap()
    expect(band).to_be_hidden()
    assert hall.hands(evening) == []


def test_a_wifi_login_page_is_no_refusal(hall: Hall) -> None:
    """A guest Wi-Fi that answers with its own page is treated as no answer at all."""
    evening = hall.server.evening()
    page = hall.tablet()
    page.goto(f"/evenings/{evening}")
    answered: list[bool] = []

    def portal(route: Route) -> None:
        if route.request.method == "POST" and not answered:
            answered.append(True)
            route.fulfill(status=200, content_type="text/html", body="<p>Welcome, guest</p>")
        else:
            route.continue_()

    page.route("**/evenings/*/hands", portal)
    enter_bid(page, "einfach", "Bert", "40")
    save(page)
    expect(page).to_have_url(re.compile(r"\?saved=1$"), timeout=30_000)
    assert answered
    assert inputs(hall.hands(evening)) == [("einfach", "Bert", 40)]
