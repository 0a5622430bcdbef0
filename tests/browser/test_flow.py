"""The evening as the table plays it, in a real browser, in English and in German.

Each test taps through one part of the evening the way a player does with one finger:
start it, record a bid with the keypad, a Misère, take a hand back, correct one, void one,
and tick the settlement off on one tablet and see it on another.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import LANDSCAPE, LANGS, PHONE, PORTRAIT, LiveServer, OpenPage
from tests.conftest import sqlite_only

#: In both languages; the live server runs on a SQLite file of its own (conftest.py).
pytestmark = [pytest.mark.parametrize("lang", LANGS), sqlite_only]

MINUS = "\u2212"
BID = {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"}
OHNE = {"contract": "ohne", "bidder": "Bert", "points": 40, "last_trick": "none"}

#: What the pages say. None where the German catalogue has no entry yet: then only the
#: element is checked, not its words.
SAY: dict[str, dict[str, str | None]] = {
    "en": {
        "new_evening": "New evening",
        "start": "Start the evening",
        "started": "The evening has started. Good luck!",
        "hand_1": "Hand 1",
        "hand_2": "Hand 2",
        "save": "Save hand",
        "preview": "This hand pays",
        "pagat_line": "Pagat won in the last trick",
        "saved": "Hand 1 saved",
        "undo": "Undo",
        "sum": "Sum: 62",
        "misere_line": "Misère: most points",
        "taken_back": "Hand 1 was taken back. The deal goes back to its dealer.",
        "void": "void",
        "voided_undo": "voided: taken back with Undo",
        "correct_title": "Correct hand 1",
        "corrected": "Hand 1 was corrected.",
        "corrected_meta": "corrected (version 2, ",
        "thirty": "30 points",
        "voided_reason": "voided: falsch gezählt",
        "void_done": "Hand 2 was voided.",
        "settlement": "Settlement",
        "who_pays": "Who pays whom",
        "none_ticked": "0 of 3 payments ticked off.",
        "one_ticked": "1 of 3 payments ticked off.",
        "paid_at": "Paid at",
    },
    "de": {
        "new_evening": "Neuer Abend",
        "start": "Abend beginnen",
        "started": "Der Abend hat begonnen. Viel Glück!",
        "hand_1": "Runde 1",
        "hand_2": "Runde 2",
        "save": "Runde speichern",
        "preview": "Ergebnis dieser Runde",
        "pagat_line": "Pagat im letzten Stich gewonnen",
        "saved": "Runde 1 gespeichert",
        "undo": "Rückgängig",
        "sum": "Summe: 62",
        "misere_line": "Misère: meiste Punkte",
        "taken_back": "Runde 1 wurde rückgängig gemacht. Der gleiche Geber gibt noch einmal.",
        "void": "gestrichen",
        "voided_undo": "gestrichen: mit «Rückgängig» zurückgenommen",
        "correct_title": "Runde 1 korrigieren",
        "corrected": "Runde 1 wurde korrigiert.",
        "corrected_meta": "korrigiert (Version 2, ",
        "thirty": "30 Punkte",
        "voided_reason": "gestrichen: falsch gezählt",
        "void_done": "Runde 2 wurde gestrichen.",
        "settlement": "Abrechnung",
        "who_pays": "Wer zahlt wem",
        "none_ticked": "0 von 3 Zahlungen abgehakt.",
        "one_ticked": "1 von 3 Zahlungen abgehakt.",
        "paid_at": "Bezahlt um",
    },
}


def shows(locator: Locator, text: str | None, *, pattern: str | None = None) -> None:
    """The element is on screen with its words; where German has none yet, its shape only.

    ``pattern`` is a language-free check (a number, a sign) made in every language.
    """
    expect(locator).to_be_visible()
    if text is not None:
        expect(locator).to_contain_text(text)
    if pattern is not None:
        expect(locator).to_contain_text(re.compile(pattern))


def choose(page: Page, name: str, value: str) -> None:
    """Tap the big button of one radio choice, as a finger does."""
    page.locator(f"label.choice:has(input[name='{name}'][value='{value}'])").tap()


def keypad(scope: Locator, digits: str) -> None:
    """Tap digits (or C for clear) on the on-screen keypad of ``scope``."""
    for digit in digits:
        key = "clear" if digit == "C" else digit
        scope.locator(f".keypad button[data-key='{key}']").tap()


def deltas(scope: Locator) -> Locator:
    """The per-player amounts of a hand: "Anna +12", and losses with a real minus sign."""
    return scope.locator(".deltas li")


def test_another_game_shows_its_seats_and_rules_at_once_and_starts_with_one_tap(
    lang: str, open_page: OpenPage
) -> None:
    """Choosing Doppen re-draws the form for three or four players with Doppen's house
    rules, the names typed kept; one tap on Start then starts it."""
    page = open_page(lang, PHONE)
    page.goto("/evenings/new")
    for seat, name in enumerate(["Anne", "Bert", "Clara"]):
        page.locator(f"input[name=seat_{seat}]").fill(name)
    page.select_option("#variant", "doppen/kirchberg")
    expect(page.locator("input[name=opt_kasse_base]")).to_be_visible()
    expect(page.locator("#seats legend")).to_contain_text(re.compile(r"\(3 \w+ 4\)"))
    assert page.locator("input[name^=seat_]").count() == 4
    expect(page.locator("input[name=seat_1]")).to_have_value("Bert")
    page.get_by_role("button", name=str(SAY[lang]["start"])).tap()
    expect(page).to_have_url(re.compile(r"/evenings/\d+$"))
    expect(page.locator("h1")).to_contain_text("Doppen")


def test_start_an_evening_and_record_a_bid_with_the_keypad(lang: str, open_page: OpenPage) -> None:
    """The first minutes at the table: seats, first dealer, then a Doppelt with Pagat."""
    say = SAY[lang]
    page = open_page(lang, PORTRAIT)
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.locator("main a.button.primary[href$='/evenings/new']").tap()
    expect(page.locator("h1")).to_have_text(str(say["new_evening"]))

    for seat, name in enumerate(["Anna", "Bert", "Clara", "Dora"]):
        page.locator(f"input[name=seat_{seat}]").fill(name)
    page.locator(".seat").nth(3).locator(".dealer-choice").tap()
    page.locator("input[name=title]").fill("Museumsabend")
    page.get_by_role("button", name=str(say["start"])).tap()

    expect(page).to_have_url(re.compile(r"/evenings/\d+$"))
    shows(page.locator(".flash"), say["started"])
    expect(page.locator("h1")).to_have_text("Museumsabend")
    expect(page.locator(".turn strong").first).to_have_text("Dora")
    expect(page.locator("#entry-title")).to_have_text(str(say["hand_1"]))

    form = page.locator("form.hand-form")
    choose(page, "contract", "doppelt")
    choose(page, "bidder", "Anna")
    points = form.locator(".points-entry")
    keypad(points, "4")
    keypad(points, "1")
    expect(form.locator("input[name=points]")).to_have_value("41")
    expect(form.locator("input[name=result][value=points]")).to_be_checked()
    choose(page, "last_trick", "pagat_won")
    expect(form.locator(".misere-entry")).to_be_hidden()

    preview = page.locator("#preview")
    shows(preview.locator(".preview-title"), say["preview"])
    expect(deltas(preview)).to_have_text(
        ["Anna +12", f"Bert {MINUS}4", f"Clara {MINUS}4", f"Dora {MINUS}4"]
    )

    save = form.locator("button.save")
    shows(save, say["save"])
    save.tap()
    expect(page).to_have_url(re.compile(r"/evenings/\d+\?saved=1$"))
    banner = page.locator("section.saved")
    shows(banner.locator("h2"), say["saved"], pattern=r"\b1\b")
    expect(deltas(banner)).to_have_text(
        ["Anna +12", f"Bert {MINUS}4", f"Clara {MINUS}4", f"Dora {MINUS}4"]
    )
    shows(banner.locator("form.undo button"), say["undo"])
    # The items behind the one-line result, one tap away.
    banner.locator("details.why summary").tap()
    shows(banner.locator(".lines"), say["pagat_line"])
    expect(page.locator(".balances li").first).to_have_text("Anna +12")
    expect(page.locator(".turn strong").first).to_have_text("Anna")
    expect(page.locator("#entry-title")).to_have_text(str(say["hand_2"]))


def test_misere_checksum_follows_every_digit(
    lang: str, open_page: OpenPage, live_server: LiveServer
) -> None:
    """A Misère is entered player by player; the running sum catches a miscount early."""
    say = SAY[lang]
    evening = live_server.evening()
    page = open_page(lang, LANDSCAPE)
    page.goto(f"/evenings/{evening}")
    form = page.locator("form.hand-form")
    choose(page, "contract", "misere")
    misere = form.locator(".misere-entry")
    expect(misere).to_be_visible()
    expect(form.locator(".bid-only")).to_be_hidden()

    checksum = misere.locator("[data-checksum]")
    running = 0
    for seat, points in enumerate(["10", "20", "21", "11"]):
        misere.locator(f"input[name=misere_{seat}]").tap()
        keypad(misere, points)
        running += int(points)
        expect(misere.locator(f"input[name=misere_{seat}]")).to_have_value(points)
        expect(checksum).to_have_text(re.compile(rf":\s*{running}$"))
    shows(checksum, say["sum"])
    expect(misere.locator(".checksum")).to_contain_text("/ 70")

    preview = page.locator("#preview")
    expect(deltas(preview)).to_have_text(
        ["Anna 0", f"Bert {MINUS}2", f"Clara {MINUS}4", f"Dora {MINUS}2"]
    )
    # With the talon counted the players should hold the rest: the sum is checked
    # against that, as the warning on saving counts it.
    misere.locator("input[name=talon_points]").fill("8")
    expect(misere.locator(".checksum")).to_contain_text("62 / 62")
    misere.locator("input[name=talon_points]").fill("")  # back to the pack's total
    expect(misere.locator(".checksum")).to_contain_text("62 / 70")
    misere.locator("input[name=talon_points]").fill("8")
    form.locator("button.save").tap()
    banner = page.locator("section.saved")
    shows(banner.locator("h2"), say["saved"], pattern=r"\b1\b")
    banner.locator("details.why summary").tap()
    shows(banner.locator(".lines"), say["misere_line"])
    expect(page.locator(".pot strong")).to_have_text("8")


def test_undo_takes_the_hand_back_and_the_deal_with_it(
    lang: str, open_page: OpenPage, live_server: LiveServer
) -> None:
    """A wrong save is undone in one tap; the same dealer deals again."""
    say = SAY[lang]
    evening = live_server.evening()
    live_server.hand(evening, BID)
    page = open_page(lang, PHONE)
    page.goto(f"/evenings/{evening}?saved=1")
    expect(page.locator(".turn strong").first).to_have_text("Anna")
    undo = page.locator("section.saved form.undo button")
    shows(undo, say["undo"])
    undo.tap()

    expect(page).to_have_url(re.compile(rf"/evenings/{evening}$"))
    shows(page.locator(".flash"), say["taken_back"], pattern=r"\b1\b")
    expect(page.locator("section.saved")).to_have_count(0)
    expect(page.locator(".turn strong").first).to_have_text("Dora")
    expect(page.locator(".balances li").first).to_have_text("Anna 0")
    row = page.locator("table.last-hands tbody tr").first
    expect(row).to_have_class(re.compile(r"\bvoid\b"))
    shows(row.locator(".tag"), say["void"])

    page.locator("nav.tabs a").nth(1).tap()
    hand = page.locator(".history .hand").first
    expect(hand).to_have_class(re.compile(r"\bvoid\b"))
    shows(hand.locator("h2 .tag"), say["voided_undo"], pattern=r": \S")


def test_correct_a_hand_from_the_history(
    lang: str, open_page: OpenPage, live_server: LiveServer
) -> None:
    """A miscounted hand is fixed later; the history says it was corrected."""
    say = SAY[lang]
    evening = live_server.evening()
    live_server.hand(evening, BID)
    page = open_page(lang, LANDSCAPE)
    page.goto(f"/evenings/{evening}/hands")
    hand = page.locator(".history .hand").first
    expect(hand.locator("h2")).to_contain_text(str(say["hand_1"]))
    hand.locator(".actions a.button").tap()

    expect(page).to_have_url(re.compile(rf"/evenings/{evening}/hands/1/edit$"))
    shows(page.locator("h1"), say["correct_title"], pattern=r"\b1\b")
    points = page.locator("input[name=points]")
    expect(points).to_have_value("41")
    points.tap()
    keypad(page.locator(".points-entry"), "C30")
    expect(points).to_have_value("30")
    page.locator("form.hand-form button.save").tap()

    expect(page).to_have_url(re.compile(rf"/evenings/{evening}/hands$"))
    shows(page.locator(".flash"), say["corrected"], pattern=r"\b1\b")
    hand = page.locator(".history .hand").first
    shows(hand.locator(".meta"), say["corrected_meta"], pattern=r"\b2\b")
    shows(hand.locator(".summary"), say["thirty"], pattern=r"\b30\b")
    data = live_server.api("GET", f"/evenings/{evening}")
    assert data["hands"][0]["version"] == 2
    assert data["hands"][0]["input"]["points"] == 30


def test_void_a_hand_with_a_reason(lang: str, open_page: OpenPage, live_server: LiveServer) -> None:
    """A hand that should not count is voided, and stays visible struck through."""
    say = SAY[lang]
    evening = live_server.evening()
    live_server.hand(evening, BID)
    live_server.hand(evening, OHNE)
    page = open_page(lang, PORTRAIT)
    page.goto(f"/evenings/{evening}/hands")
    page.locator(".history .hand").first.locator(".actions a.button").tap()  # newest first
    expect(page).to_have_url(re.compile(rf"/evenings/{evening}/hands/2/edit$"))
    reason = page.locator("input[name=reason]")
    reason.tap()
    page.keyboard.type("falsch gezählt")
    page.locator("button.danger").tap()

    expect(page).to_have_url(re.compile(rf"/evenings/{evening}/hands$"))
    shows(page.locator(".flash"), say["void_done"], pattern=r"\b2\b")
    voided = page.locator(".history .hand.void")
    expect(voided).to_have_count(1)
    expect(voided.locator("h2")).to_contain_text(str(say["hand_2"]))
    shows(voided.locator("h2 .tag"), say["voided_reason"], pattern="falsch gezählt")
    struck = voided.locator(".struck")
    expect(struck).to_have_css("text-decoration-line", "line-through")
    expect(voided.locator(".deltas")).to_have_count(0)

    page.locator("nav.tabs a").first.tap()
    expect(page.locator(".balances li").first).to_have_text("Anna +12")


def test_tick_a_payment_and_see_it_on_another_tablet(
    lang: str, open_page: OpenPage, live_server: LiveServer
) -> None:
    """Money changes hands at the end; any tablet at the table shows what is paid."""
    say = SAY[lang]
    evening = live_server.evening()
    live_server.hand(evening, BID)
    page = open_page(lang, LANDSCAPE)
    page.goto(f"/evenings/{evening}")
    page.locator("nav.tabs a").nth(2).tap()
    expect(page).to_have_url(re.compile(rf"/evenings/{evening}/settlement$"))
    expect(page.locator("h1")).to_have_text(str(say["settlement"]))
    expect(page.locator("#payments-heading")).to_have_text(str(say["who_pays"]))
    payments = page.locator(".settle-payment")
    expect(payments).to_have_count(3)
    shows(page.locator(".settle-progress"), say["none_ticked"], pattern=r"\b0\b.*\b3\b")

    first = payments.first
    expect(first).to_contain_text("Anna")
    tick_form = first.locator("form[action$='/settlement/ticks']")
    tick_form.locator("button[type=submit]").tap()

    expect(page).to_have_url(re.compile(rf"/evenings/{evening}/settlement#payments$"))
    first = page.locator(".settle-payment").first
    expect(first).to_have_class(re.compile(r"\bpaid\b"))
    shows(first.locator(".paid-at"), say["paid_at"], pattern=r"\d\d:\d\d")
    shows(page.locator(".settle-progress"), say["one_ticked"], pattern=r"\b1\b.*\b3\b")

    other = open_page(lang, PHONE)
    other.goto(f"/evenings/{evening}/settlement")
    rows = other.locator(".settle-payment")
    expect(rows).to_have_count(3)
    expect(rows.first).to_have_class(re.compile(r"\bpaid\b"))
    expect(rows.first.locator("button[name=action][value=untick]")).to_be_visible()
    expect(rows.nth(1)).not_to_have_class(re.compile(r"\bpaid\b"))
    expect(rows.nth(1).locator("button[name=action][value=tick]")).to_be_visible()
    shows(other.locator(".settle-progress"), say["one_ticked"], pattern=r"\b1\b.*\b3\b")


def test_the_misere_keypad_moves_on_and_never_skips_a_player(
    lang: str, open_page: OpenPage, live_server: LiveServer
) -> None:
    """docs/presentation.md "The table screen on a phone": two digits move on to the next
    player; "Next player" right after that is the same step; after the last player the keypad
    stays, and a digit on a full field starts it over. One field is marked at a time."""
    evening = live_server.evening()
    page = open_page(lang, PHONE)
    page.goto(f"/evenings/{evening}")
    choose(page, "contract", "misere")
    misere = page.locator(".misere-entry")
    field = [misere.locator(f"input[name=misere_{seat}]") for seat in range(4)]
    marked = misere.locator(".keypad-target")
    next_key = misere.locator(".keypad button[data-key='next']")

    field[0].tap()  # the system keyboard's field; the keypad takes over from here
    keypad(misere, "10")
    expect(marked).to_have_attribute("name", "misere_1")
    assert page.evaluate("document.activeElement.name") != "misere_0"  # one mark, not two
    next_key.tap()  # taken as the same step
    expect(marked).to_have_attribute("name", "misere_1")
    keypad(misere, "5")
    next_key.tap()
    expect(marked).to_have_attribute("name", "misere_2")
    keypad(misere, "25")
    keypad(misere, "30")
    expect(marked).to_have_attribute("name", "misere_3")  # the last stays marked
    keypad(misere, "4")
    assert [f.input_value() for f in field] == ["10", "5", "25", "4"]
    next_key.tap()
    expect(marked).to_have_attribute("name", "misere_0")  # asked for: round to the first


def test_a_seat_field_on_a_phone_shows_a_long_name(lang: str, open_page: OpenPage) -> None:
    """docs/presentation.md "The new-evening form": on a phone each seat's name field takes
    the whole width, the arrows and the dealer's button on the line below it, so a name of
    40 characters reads nearly whole."""
    page = open_page(lang, PHONE)
    page.goto("/evenings/new")
    seat = page.locator(".seat").first
    field = seat.locator(".seat-name").bounding_box()
    whole = seat.bounding_box()
    dealer = seat.locator(".dealer-choice").bounding_box()
    assert field is not None
    assert whole is not None
    assert dealer is not None
    assert field["width"] >= whole["width"] - 2
    assert dealer["y"] >= field["y"] + field["height"]
