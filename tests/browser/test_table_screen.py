"""The table screen holds a whole hand: the reference hands of every game, at three sizes.

A club player taps the hand in beside the deck; whatever he must scroll to find, or finds
under the Save bar, is a hand recorded wrong. So each reference hand is played here as a
finger would, counting taps (a click or a keypad key) and scrolls (a control out of view
or under the Save bar before its tap), and checking after every tap that nothing of the
form hides under the bar. The figures are written to ``bench/taps.md`` and
``bench/taps.json`` once every hand was played at every size (``taps.py``). With
``PAGE_SCREENSHOTS=1`` the screens are saved to ``test-artifacts/table-screen/`` to look at
(always saving them took a tenth of this file's time).

Every hand is played at every size in German, whose texts are the longer, and on the phone,
the narrowest, in English too: English at the tablets' sizes fitted wherever German did and
took a quarter of the file's time.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from tests.browser import taps
from tests.browser.checks import broken_words, problems_on
from tests.browser.conftest import (
    LANDSCAPE,
    PHONE,
    PORTRAIT,
    SIZE_IDS,
    SIZES,
    LiveServer,
    OpenPage,
)
from tests.browser.taps import Run
from tests.conftest import sqlite_only

#: The live server runs on a SQLite file of its own (conftest.py).
pytestmark = sqlite_only

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
SCREENS = ROOT / "test-artifacts" / "table-screen"
#: A few screens kept with the figures, small: hands 2 and 5 at each size, a refusal.
KEPT = BENCH / "screens"
KEEP = {
    "hand2-portrait-entered",
    "hand2-landscape-entered",
    "hand2-phone-entered",
    "hand5-phone-entered",
    "hand5-landscape-saved",
    "refused-troggen-phone-js",
}

FIVE = ["Anna", "Bert", "Clara", "Dora", "Ernst"]
THREE = ["Anne", "Bert", "Clara"]
SEVEN = ["Anna", "Beat", "Carla", "Dani", "Ella", "Fritz", "Gabi"]

#: A step: ("choose", name, value) taps a button, ("keys", digits) the keypad,
#: ("field", name) taps a field, ("check", name) a checkbox.
Step = tuple[str, ...]


@dataclass(frozen=True)
class Reference:
    """One of the reference hands (bench/taps.md): the evening it is played at and the
    taps."""

    number: int
    title: str
    evening: dict[str, Any]
    steps: tuple[Step, ...]
    #: A Misère may scroll once on the phone; every other hand fits one screen.
    misere: bool = False


def misere_steps(points: list[int]) -> tuple[Step, ...]:
    """Each player's field, then the points on the keypad."""
    steps: list[Step] = []
    for i, value in enumerate(points):
        steps += [("field", f"misere_{i}"), ("keys", str(value))]
    return tuple(steps)


REFERENCES = [
    Reference(
        1,
        "Troggen, 5 players: Einfach, Bieterin, partner, 41 points",
        {"game": "troggen", "players": FIVE},
        (
            ("choose", "contract", "einfach"),
            ("choose", "bidder", "Anna"),
            ("choose", "partner", "Clara"),
            ("keys", "41"),
        ),
    ),
    Reference(
        2,
        "Troggen, 5 players: Doppelt, partner, 38 points, Pagat won in the last trick",
        {"game": "troggen", "players": FIVE},
        (
            ("choose", "contract", "doppelt"),
            ("choose", "bidder", "Bert"),
            ("choose", "partner", "Dora"),
            ("keys", "38"),
            ("choose", "last_trick", "pagat_won"),
        ),
    ),
    Reference(
        3,
        "Troggen Misère, 5 players",
        {"game": "troggen", "players": FIVE},
        (("choose", "contract", "misere"), *misere_steps([10, 20, 15, 12, 8])),
        misere=True,
    ),
    Reference(
        4,
        "Doppen, 3 players: Dreier, 40 points, Kontra on the game",
        {"game": "doppen", "players": THREE},
        (
            ("choose", "contract", "dreier"),
            ("choose", "soloist", "Anne"),
            ("choose", "kontra_game", "1"),
            ("keys", "40"),
        ),
    ),
    Reference(
        5,
        "Doppen, 3 players: Zweier, 38 points, Pagat announced and won, Kontra on the Pagat",
        {"game": "doppen", "players": THREE},
        (
            ("choose", "contract", "zweier"),
            ("choose", "soloist", "Bert"),
            ("choose", "announced_pagat", "Bert"),
            ("choose", "kontra_pagat", "1"),
            ("keys", "38"),
            ("choose", "pagat_player", "Bert"),
            ("choose", "pagat_result", "won"),
        ),
    ),
    Reference(
        6,
        "Troggu Visp, 7 players: normal game, called partner, 64 points",
        {"game": "troggu", "variant": "visp", "players": SEVEN},
        (
            ("choose", "contract", "normal"),
            ("choose", "declarer", "Anna"),
            ("choose", "partner", "Dani"),
            ("keys", "64"),
        ),
    ),
    Reference(
        7,
        "Troggu Visp Misère, 7 players",
        {"game": "troggu", "variant": "visp", "players": SEVEN},
        (
            ("choose", "contract", "misere"),
            ("check", "fool_and_i_in_tapp"),
            *misere_steps([16, 15, 14, 13, 12, 12, 10]),
        ),
        misere=True,
    ),
]

#: In the page: the Save bar's box, and every control, preview or error of the form in
#: the viewport that it covers (a control inside the bar is the bar's own).
UNDER_THE_BAR = r"""
() => {
  const bar = document.querySelector("#entry .save-bar");
  const b = bar.getBoundingClientRect();
  const found = [];
  const items = document.querySelectorAll(
    "#entry .choice span, #entry button, #entry input:not([type=hidden]):not([type=radio]),"
    + " #entry select, #entry summary, #entry .error, #entry .preview, #entry .checksum");
  for (const el of items) {
    if (bar.contains(el) || !el.checkVisibility({visibilityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.bottom <= 0 || r.top >= window.innerHeight) continue;
    if (r.bottom > b.top + 0.5 && r.top < b.bottom - 0.5) {
      found.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.name || "").trim()
        .slice(0, 30)}" ${Math.round(r.top)}-${Math.round(r.bottom)} under ${Math.round(b.top)}`);
    }
  }
  return found;
}
"""

#: In the page: whether an element is wholly in view and not under the Save bar.
IN_VIEW = r"""
(el) => {
  const r = el.getBoundingClientRect();
  const bar = document.querySelector("#entry .save-bar");
  if (r.top < -0.5 || r.bottom > window.innerHeight + 0.5) return false;
  if (!bar || bar.contains(el)) return true;
  return r.bottom <= bar.getBoundingClientRect().top + 0.5;
}
"""

#: Where the table screen shows players' names.
NAMES_SHOWN = (
    ".choice span, .balances .name, .deltas .name, .last-hands th, .turn strong, .misere-grid label"
)

#: In the page: every name on screen cut short (its text wider than its box, not scrolled).
CUT_NAMES = r"""
() => {
  const cut = [];
  const names = document.querySelectorAll(
    ".choice span, .balances .name, .deltas .name, .last-hands th, .turn strong,"
    + " .misere-grid label");
  for (const el of names) {
    if (!el.checkVisibility() || el.getBoundingClientRect().width <= 1) continue;
    const style = getComputedStyle(el);
    const clipped = style.textOverflow === "ellipsis" || style.overflowX !== "visible";
    if (el.scrollWidth > el.clientWidth + 1 && clipped) cut.push(el.textContent.trim());
    const scrolled = el.closest(".scroll-table");
    if (!scrolled && el.getBoundingClientRect().right > window.innerWidth + 0.5) {
      cut.push(el.textContent.trim());
    }
  }
  return cut;
}
"""


def shot(page: Page, name: str) -> None:
    """The viewport as the player sees it, to look at (test-artifacts is git-ignored), with
    ``PAGE_SCREENSHOTS=1``; the few in KEEP also as small JPEGs beside the figures in
    bench/, when asked for with ``SCOREKEEPER_KEEP_SCREENS=1`` (a screen shows the clock, so
    every run would change the files the repository keeps)."""
    keep = name in KEEP and os.environ.get("SCOREKEEPER_KEEP_SCREENS") == "1"
    if not keep and os.environ.get("PAGE_SCREENSHOTS") != "1":
        return
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), animations="disabled", caret="hide")
    if keep:
        KEPT.mkdir(exist_ok=True)
        path = str(KEPT / f"{name}.jpg")
        page.screenshot(path=path, type="jpeg", quality=40, animations="disabled", caret="hide")


def target(page: Page, step: Step) -> Locator:
    """What a finger touches for a step."""
    kind = step[0]
    if kind == "choose":
        return page.locator(f"#entry label.choice:has(input[name='{step[1]}'][value='{step[2]}'])")
    if kind in ("field", "check"):
        return page.locator(f"#entry input[name='{step[1]}']")
    raise AssertionError(step)


def tap(page: Page, run: Run, element: Locator, *, first: bool = False) -> None:
    """One tap; a scroll first if the element is out of view or under the Save bar."""
    if not element.evaluate(IN_VIEW):
        run.scrolls += 1
        if first:
            run.scrolls_before_first += 1
        element.evaluate("(el) => el.scrollIntoView({block: 'center'})")
        assert element.evaluate(IN_VIEW), "one scroll brings it into view"
    element.click()
    run.taps += 1


def play(page: Page, reference: Reference, run: Run) -> None:
    """Tap the hand in, checking the Save bar after every tap once the contract is chosen."""
    for index, step in enumerate(reference.steps):
        if step[0] == "keys":
            keypad = page.locator("#entry .misere-entry .keypad, #entry .points-entry .keypad")
            for digit in step[1]:
                tap(page, run, keypad.locator(f"button[data-key='{digit}']:visible").first)
        else:
            tap(page, run, target(page, step), first=index == 0)
        run.covered += page.evaluate(UNDER_THE_BAR)


#: Where each reference hand is played: every size in German, the phone in English.
READINGS = [
    pytest.param(size, "de", id=f"{name}-de") for size, name in zip(SIZES, SIZE_IDS, strict=True)
] + [pytest.param(PHONE, "en", id="phone-en")]


@pytest.mark.parametrize(("size", "lang"), READINGS)
@pytest.mark.parametrize("reference", REFERENCES, ids=[f"hand{r.number}" for r in REFERENCES])
def test_a_reference_hand_fits_one_screen(
    reference: Reference,
    size: tuple[int, int],
    lang: str,
    open_page: OpenPage,
    live_server: LiveServer,
    request: pytest.FixtureRequest,
) -> None:
    """Every control in view once the first choice is made, nothing under the Save bar, the
    live result in the bar agreeing with the receipt, the next hand's first choice in view
    after the save; in German (the longer texts, whose figures go to bench/) and English."""
    name = SIZE_IDS[SIZES.index(size)]
    evening = int(live_server.api("POST", "/evenings", reference.evening)["id"])
    page = open_page(lang, size)
    page.goto(f"/evenings/{evening}")
    run = Run(reference.number, name)
    play(page, reference, run)
    # The live result is asked for a moment after the last tap: it is busy until the answer
    # for the whole entry is shown.
    expect(page.locator("#preview")).not_to_have_attribute("aria-busy", "true")
    # The contract tapped stays in view: in its row, or named first in the Save bar (on a
    # phone the rest of the hand moves its row out of view).
    chosen = page.locator("#entry label.choice:has(input[name=contract]:checked) span")
    named = page.locator("#preview .preview-contract")
    expect(named).to_have_text(chosen.inner_text())
    assert named.evaluate(IN_VIEW)
    # Points (or Striche), and Doppen's money through the Kasse on a line of its own.
    preview = page.locator("#entry .save-bar .preview .deltas")
    expect(preview.first).to_be_visible()
    live = preview.all_inner_texts()
    screen = f"hand{reference.number}-{name}" + ("" if lang == "de" else f"-{lang}")
    shot(page, f"{screen}-entered")
    assert not run.covered, run.covered
    assert not problems_on(page)
    tap(page, run, page.locator("#entry .save-bar button[type=submit]"))
    expect(page.locator("section.saved")).to_be_visible()
    # The receipt shows before the page's script has run and moved the next hand into view.
    page.wait_for_load_state("domcontentloaded")
    if lang == "de":
        titles = {r.number: r.title for r in REFERENCES}
        sizes = {i: f"{w}\u00d7{h}" for i, (w, h) in zip(SIZE_IDS, SIZES, strict=True)}
        taps.note(request.config, titles, sizes, run)
    assert page.locator("section.saved .deltas").all_inner_texts() == live
    shot(page, f"{screen}-saved")
    first_choice = page.locator("#entry fieldset.contracts, #entry fieldset#contract").first
    for element in (page.locator("section.saved"), first_choice):
        assert element.evaluate(IN_VIEW), "the receipt and the next hand's first choice"
    assert run.scrolls_before_first == 0
    if reference.misere and size == PHONE:
        assert run.scrolls <= 1
    else:
        assert run.scrolls == 0, run


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "plain"])
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("game", ["troggen", "doppen", "troggu"])
def test_a_refused_save_shows_what_to_change_at_the_top(
    game: str,
    size: tuple[int, int],
    javascript: bool,
    open_page: OpenPage,
    live_server: LiveServer,
) -> None:
    """A bid without its points: the summary is in view, its link brings the field."""
    body = {
        "troggen": ({"game": "troggen", "players": FIVE}, "bidder", "Anna"),
        "doppen": ({"game": "doppen", "players": THREE}, "soloist", "Anne"),
        "troggu": ({"game": "troggu", "variant": "visp", "players": SEVEN}, "declarer", "Anna"),
    }
    evening_body, who, player = body[game]
    evening = int(live_server.api("POST", "/evenings", evening_body)["id"])
    page = open_page("de", size, javascript=javascript)
    page.goto(f"/evenings/{evening}")
    contract = {"troggen": "einfach", "doppen": "dreier", "troggu": "normal"}[game]
    target(page, ("choose", "contract", contract)).click()
    target(page, ("choose", who, player)).click()
    page.locator("#entry .save-bar button[type=submit]").click()
    summary = page.locator("#not-saved")
    expect(summary).to_contain_text("Nicht gespeichert")
    expect(summary.locator("a").first).to_be_visible()
    assert summary.evaluate(IN_VIEW)
    shot(page, f"refused-{game}-{SIZE_IDS[SIZES.index(size)]}-{'js' if javascript else 'plain'}")
    link = summary.locator("a[href='#points']")
    link.click()
    points = page.locator("#entry input[name=points]")
    assert points.evaluate(IN_VIEW)
    assert page.locator("#entry label[for=points]").evaluate(IN_VIEW), "its label above it"
    if javascript:
        expect(points).to_be_focused()


LONG = [
    "Anna-Katharina Zurbrigge",
    "Bartholomäus Imboden-Ruf",
    "Claudia Summermatter-Ab",
    "Dorothea Kalbermatten-Z",
    "Ernst-Ulrich Schmidhalte",
    "Franziska Bumann-Heinzm",
    "Gabriel Zimmermann-Imst",
    "Hildegard Furrer-Jossen",
]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("game", ["troggen", "doppen", "troggu"])
def test_names_of_24_letters_are_never_cut(
    game: str, size: tuple[int, int], open_page: OpenPage, live_server: LiveServer
) -> None:
    """Six players (three in Doppen, eight in Troggu) with long names, a hand saved."""
    names = {"troggen": LONG[:6], "doppen": LONG[:3], "troggu": LONG}[game]
    assert all(len(n) <= 24 for n in names)
    body: dict[str, Any] = {"game": game, "players": names}
    hand: dict[str, Any] = {"contract": "dreier", "soloist": names[0], "points": 40}
    if game == "troggu":
        body["variant"] = "visp"
        hand = {"contract": "normal", "declarer": names[0], "partner": names[2], "points": 64}
    elif game == "troggen":
        hand = {"contract": "einfach", "bidder": names[0], "partner": names[2], "points": 41}
    evening = int(live_server.api("POST", "/evenings", body)["id"])
    number = live_server.hand(evening, hand)
    page = open_page("de", size)
    page.goto(f"/evenings/{evening}?saved={number}")
    expect(page.locator("section.saved")).to_be_visible()
    contract = {"troggen": "einfach", "doppen": "dreier", "troggu": "normal"}[game]
    target(page, ("choose", "contract", contract)).click()
    shot(page, f"names-{game}-{SIZE_IDS[SIZES.index(size)]}")
    assert not page.evaluate(CUT_NAMES)
    assert broken_words(page, NAMES_SHOWN) == []
    assert not problems_on(page)


def test_eisten_stalden_preview_gives_what_saving_gives(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """The live result shows each winner's Strich, as the receipt does after saving."""
    body = {"game": "troggu", "variant": "eisten-stalden", "players": SEVEN[:6]}
    evening = int(live_server.api("POST", "/evenings", body)["id"])
    page = open_page("de", LANDSCAPE)
    page.goto(f"/evenings/{evening}")
    for player in ("Anna", "Dani", "Fritz"):
        page.locator(f"#entry label.choice:has(input[name=team][value='{player}'])").click()
    for digit in "60":
        page.locator(f"#entry .keypad button[data-key='{digit}']").click()
    preview = page.locator("#entry .preview .deltas")
    expect(page.locator("#preview")).not_to_have_attribute("aria-busy", "true")
    expect(preview).to_contain_text(re.compile(r"Anna\s*\+1"))
    live = preview.inner_text()
    page.locator("#entry .save-bar button[type=submit]").click()
    expect(page.locator("section.saved")).to_be_visible()
    assert page.locator("section.saved .deltas").inner_text() == live


def test_a_late_answer_for_an_earlier_entry_never_shows_over_the_newest(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """On a slow Wi-Fi the live result for "4" may arrive after "1" was typed, before the
    result for "41" is asked: it is dropped, and the bar stays busy until the answer for
    the whole entry is shown."""
    evening = int(live_server.api("POST", "/evenings", {"game": "troggen", "players": FIVE})["id"])
    page = open_page("en", LANDSCAPE)
    page.goto(f"/evenings/{evening}")
    held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/preview", hold_the_first)
    for step in (("contract", "einfach"), ("bidder", "Anna"), ("partner", "Clara")):
        target(page, ("choose", *step)).click()
    keypad = page.locator("#entry .points-entry .keypad")
    with page.expect_request("**/preview"):
        keypad.locator("button[data-key='4']:visible").click()
    keypad.locator("button[data-key='1']:visible").click()
    late = held[0]
    late.fulfill(response=late.fetch())  # within the 250 ms before "41" is asked
    expect(page.locator("#preview")).not_to_have_attribute("aria-busy", "true")
    live = page.locator("#preview .deltas").all_inner_texts()
    page.locator("#entry .save-bar button[type=submit]").click()
    expect(page.locator("section.saved")).to_be_visible()
    assert page.locator("section.saved .deltas").all_inner_texts() == live


#: In the page: the Save bar's top, whether the form goes on below the screen (the bar is
#: then stuck to the screen's foot, over the form), and the bottom of each control.
ABOVE_THE_BAR = r"""
() => {
  const form = document.querySelector("#entry");
  const bar = form.querySelector(".save-bar");
  const items = [...form.querySelectorAll("input:not([type=hidden]), button, summary")]
    .filter((el) => !bar.contains(el) && el.checkVisibility({visibilityProperty: true}));
  return {
    top: bar.getBoundingClientRect().top,
    stuck: form.getBoundingClientRect().bottom > window.innerHeight + 1,
    bottoms: items.map((el) => el.getBoundingClientRect().bottom),
  };
}
"""


def test_a_live_result_arriving_late_covers_nothing_the_player_sees(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """The first live result makes the Save bar taller. On a slow Wi-Fi it arrives after
    the player moved to a Misère field in the middle of the form: the page moves up as much
    as the bar grew, so whatever stood above the bar stays above it."""
    body = {"game": "troggu", "variant": "visp", "players": SEVEN}
    evening = int(live_server.api("POST", "/evenings", body)["id"])
    page = open_page("de", LANDSCAPE)
    page.goto(f"/evenings/{evening}")
    held: list[Route] = []
    page.route("**/preview", lambda route: held.append(route))
    with page.expect_request("**/preview"):
        target(page, ("choose", "contract", "misere")).click()
    page.locator("#entry input[name='misere_0']").evaluate(
        "(el) => el.scrollIntoView({block: 'center'})"
    )
    before = page.evaluate(ABOVE_THE_BAR)
    assert before["stuck"]  # the case this is about: the bar over the form
    late = held[0]
    late.fulfill(response=late.fetch())
    expect(page.locator("#preview")).not_to_have_attribute("aria-busy", "true")
    after = page.evaluate(ABOVE_THE_BAR)
    assert after["top"] < before["top"]  # the bar grew
    # Seen from the bar's edge, every control stands where it stood: the bar grew over none.
    edge_before = [bottom - before["top"] for bottom in before["bottoms"]]
    edge_after = [bottom - after["top"] for bottom in after["bottoms"]]
    moved = [round(a - b) for a, b in zip(edge_after, edge_before, strict=True) if abs(a - b) > 1]
    assert moved == []


def test_undo_counts_down_and_the_next_hand_says_why_its_number(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """The Undo button shows its seconds; after it, the next hand's heading explains."""
    evening = int(live_server.api("POST", "/evenings", {"game": "troggen", "players": FIVE})["id"])
    live_server.hand(
        evening, {"contract": "einfach", "bidder": "Anna", "partner": "Bert", "points": 41}
    )
    number = live_server.hand(
        evening, {"contract": "einfach", "bidder": "Bert", "partner": "Clara", "points": 30}
    )
    page = open_page("de", PORTRAIT)
    page.goto(f"/evenings/{evening}?saved={number}")
    undo = page.locator("form.undo button")
    expect(undo).to_contain_text(re.compile(r"\(\d+ s\)"))
    first = int(re.findall(r"\((\d+) s\)", undo.inner_text())[0])
    expect(undo).not_to_contain_text(f"({first} s)", timeout=3_000)
    undo.click()
    heading = page.locator("#entry-title")
    expect(heading).to_have_text("Runde 3")
    expect(page.locator("#entry .hint").first).to_contain_text("Runde 2")


def test_the_card_counter_opens_over_a_half_entered_hand(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """Counting keeps the hand typed so far, and its result can go into the points."""
    evening = int(live_server.api("POST", "/evenings", {"game": "doppen", "players": THREE})["id"])
    page = open_page("de", PHONE)
    page.goto(f"/evenings/{evening}")
    target(page, ("choose", "contract", "dreier")).click()
    target(page, ("choose", "soloist", "Anne")).click()
    opener = page.locator("#entry [data-open-dialog=counter]")
    assert page.locator("#entry a[target=_blank]").count() == 0
    opener.click()
    dialog = page.locator("dialog#counter")
    expect(dialog).to_be_visible()
    # The way out is in view on a phone without scrolling the dialog.
    shown = "(el) => el.getBoundingClientRect().bottom <= window.innerHeight"
    assert dialog.locator("[data-close]").evaluate(shown)
    take = dialog.locator("[data-take]")
    dialog.locator("input[name='soloist.fives']").fill("4")
    dialog.locator("button[type=submit]").click()
    expect(dialog.locator(".error").first).to_be_visible()
    expect(take).to_be_hidden()
    soloist = {"fives": 4, "fours": 2, "threes": 2, "twos": 3, "ones": 9, "cards": 20}
    opponents = {"fives": 3, "fours": 2, "threes": 2, "twos": 1, "ones": 26, "cards": 34}
    for side, counts in (("soloist", soloist), ("opponents", opponents)):
        for kind, count in counts.items():
            dialog.locator(f"input[name='{side}.{kind}']").fill(str(count))
    dialog.locator("button[type=submit]").click()
    expect(take).to_be_visible()
    take.click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#entry input[name=soloist][value=Anne]")).to_be_checked()
    expect(page.locator("#entry input[name=points]")).to_have_value("36")
    assert page.url.endswith(f"/evenings/{evening}")


def test_after_a_save_the_next_hands_contracts_stand_above_the_save_bar(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """On a phone, with a long name making the receipt tall, the page moves up until the
    next hand's contracts (both rows) stand above the Save bar. The bar stands lower before
    the page moves (a sticky bar does not rise above its form's top): the move is measured
    against where it ends up."""
    long = "Maximiliane Kalbermatten-Zurbriggen Roth"
    evening = live_server.evening(players=["Anna", long, "Clara", "Dora"])
    number = live_server.hand(evening, {"contract": "einfach", "bidder": "Anna", "points": 40})
    page = open_page("de", PHONE)
    page.goto(f"/evenings/{evening}?saved={number}")
    page.wait_for_load_state("load")
    assert page.locator("section.saved h2").evaluate(IN_VIEW)
    assert page.locator("#entry fieldset#contract").evaluate(IN_VIEW)


def test_a_hand_too_tall_for_the_phone_keeps_the_next_choice_in_view(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """Five players, one with a long name: the hand is taller than a phone. Tapping the
    contract moves the page up, but not past the Bieterin's heading and first names: the
    next tap is in view, the rest follows with a scroll down."""
    long = "Maximiliane Kalbermatten-Zurbriggen Roth"
    evening = live_server.evening(players=["Anna", long, "Clara", "Dora", "Emil"])
    page = open_page("de", PHONE)
    page.goto(f"/evenings/{evening}")
    target(page, ("choose", "contract", "einfach")).click()
    bidders = page.locator("#entry fieldset#bidder")
    expect(bidders).to_be_visible()
    assert bidders.locator("legend").evaluate(IN_VIEW)
    assert target(page, ("choose", "bidder", "Anna")).evaluate(IN_VIEW)
