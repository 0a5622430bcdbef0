"""The club's pages in a real browser at a tablet's and a phone's sizes (docs/club.md,
"Pages"): the season table and a member's season are read without sideways scrolling,
no cell cut, the running result's chart in view, and without JavaScript."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.browser.checks import axe_findings, broken_words, problems_on
from tests.browser.conftest import PHONE, PORTRAIT, LiveServer, OpenPage
from tests.conftest import sqlite_only

#: The live server runs on a SQLite file of its own (conftest.py).
pytestmark = sqlite_only

#: Where the screenshots go to be looked at: outside the repository.
SHOTS = Path(os.environ.get("CLUB_SHOTS", "/tmp/club-shots"))

SEVEN = ["Anna", "Beat", "Carla", "Dani", "Ella", "Fritz", "Gabi"]
LONG = "Maximiliane Oberholzer-Zurbriggen"

#: Whether any cell of the season tables shows less than its content.
CUT_CELLS = r"""
() => Array.from(document.querySelectorAll(
    "table.season th, table.season td, table.figures th, table.figures td"))
  .filter((el) => el.checkVisibility() && el.scrollWidth > el.clientWidth + 1)
  .map((el) => `${el.tagName} "${el.textContent.trim().slice(0, 30)}" `
    + `${el.scrollWidth}>${el.clientWidth}`)
"""


def axe_of(open_page: OpenPage, size: tuple[int, int], url: str, name: str) -> list[str]:
    """axe-core's serious findings on ``url``, read in a tablet with JavaScript (axe runs
    in the page; the pages here are also read without it)."""
    page = open_page("de", size)
    page.goto(url)
    return axe_findings(page, name)


@dataclass(frozen=True)
class Club:
    """A group with a Troggen evening in CHF, two Eisten-Stalden evenings and a Doppen one."""

    group: int
    member: int


@pytest.fixture(scope="module")
def club(live_server: LiveServer) -> Club:
    """Set up once through the API, every evening started today (this season)."""
    group = int(live_server.api("POST", "/groups", {"name": "Donnerstagsrunde"})["id"])
    four = [LONG, "Bert", "Clara", "Dora"]
    body = {"game": "troggen", "players": four, "first_dealer": "Dora", "group": group}
    troggen = int(
        live_server.api("POST", "/evenings", {**body, "options": {"currency": "CHF"}})["id"]
    )
    for bidder, points in ((LONG, 44), ("Bert", 20), ("Clara", 50), (LONG, 61)):
        live_server.hand(troggen, {"contract": "doppelt", "bidder": bidder, "points": points})
    doppen = {
        "game": "doppen",
        "players": four,
        "first_dealer": "Dora",
        "group": group,
        "options": {"currency": "CHF"},
    }
    evening = int(live_server.api("POST", "/evenings", doppen)["id"])
    live_server.hand(evening, {"contract": "dreier", "soloist": LONG, "points": 41})
    for _ in range(2):
        game = {"game": "troggu", "variant": "eisten-stalden", "players": [LONG, *SEVEN[1:6]]}
        striche = int(live_server.api("POST", "/evenings", {**game, "group": group})["id"])
        live_server.hand(
            striche, {"contract": "team", "team": [LONG, "Dani", "Fritz"], "points": 60}
        )
    found = live_server.api("GET", f"/groups/{group}")["members"]
    member = next(m["id"] for m in found if m["name"] == LONG)
    return Club(group, member)


def look(page: Page, name: str) -> None:
    """Save the whole page for a person to look at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    assert size is not None
    path = SHOTS / f"{name}-{size['width']}x{size['height']}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled", caret="hide")


@pytest.mark.parametrize("size", [PORTRAIT, PHONE], ids=["portrait", "phone"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_season_and_a_members_page_read_at_every_size(
    open_page: OpenPage, club: Club, size: tuple[int, int], lang: str
) -> None:
    page = open_page(lang, size, javascript=False)
    answer = page.goto(f"/groups/{club.group}/season")
    assert answer is not None
    assert answer.status == 200
    assert problems_on(page) == []
    if lang == "de":
        assert axe_of(open_page, size, page.url, "season") == []
    assert page.evaluate(CUT_CELLS) == []
    assert page.locator("table.season").count() == 3  # Troggen CHF, Doppen, Striche
    look(page, f"{lang}-season")
    page.get_by_role("link", name=LONG).first.click()
    page.wait_for_url(f"**/groups/{club.group}/members/{club.member}*")
    page.wait_for_load_state("load")
    assert problems_on(page) == []
    assert page.evaluate(CUT_CELLS) == []
    charts = page.locator("svg.chart")
    look(page, f"{lang}-member")
    assert charts.count() == 2  # Troggen and Doppen in CHF, and the Striche
    for i in range(charts.count()):
        box = charts.nth(i).bounding_box()
        assert box is not None
        assert box["width"] > 250
        assert box["height"] > 100
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= size[0]


def test_a_column_heading_sorts_the_season(open_page: OpenPage, club: Club) -> None:
    page = open_page("en", PORTRAIT, javascript=False)
    page.goto(f"/groups/{club.group}/season")
    page.get_by_role("link", name="Member").first.click()
    page.wait_for_url("**sort=person*")
    names = page.locator("table.season").first.locator("tbody th").all_inner_texts()
    assert names == sorted(names, key=str.casefold)
    assert page.locator('th[aria-sort="ascending"]').count() == 3


def test_the_variant_list_follows_the_chosen_game(open_page: OpenPage, club: Club) -> None:
    """Choosing Troggu leaves Troggu's variants; choosing Doppen then clears a Troggu
    variant and leaves Doppen's alone."""
    page = open_page("en", PORTRAIT)
    page.goto(f"/groups/{club.group}/season")
    shown = (
        "(s) => Array.from(s.querySelectorAll('option'))"
        ".filter((o) => o.value && !o.parentElement.disabled).map((o) => o.value)"
    )
    variant = page.locator("#variant")
    assert len(variant.evaluate(shown)) == 7  # every game's, before a game is chosen
    page.select_option("#game", "troggu")
    assert variant.evaluate(shown) == ["visp", "st-niklaus", "graechen", "flat", "eisten-stalden"]
    page.select_option("#variant", "visp")
    page.select_option("#game", "doppen")
    assert variant.evaluate(shown) == ["kirchberg"]
    assert variant.input_value() == ""


@pytest.mark.parametrize("size", [PORTRAIT, PHONE], ids=["portrait", "phone"])
def test_the_group_and_a_comparison_read_at_every_size(
    open_page: OpenPage, club: Club, size: tuple[int, int]
) -> None:
    page = open_page("de", size, javascript=False)
    page.goto(f"/groups/{club.group}")
    assert problems_on(page) == []
    assert axe_of(open_page, size, page.url, "group") == []
    look(page, "de-group")
    page.get_by_role("link", name="Zwei Mitglieder vergleichen").click()
    page.wait_for_url("**/compare")
    page.get_by_label("Zweites Mitglied").select_option(label="Bert")
    page.get_by_role("button", name="Vergleichen").click()
    page.wait_for_url("**/compare?*b=*")
    page.wait_for_load_state("load")
    assert problems_on(page) == []
    assert axe_of(open_page, size, page.url, "compare") == []
    assert broken_words(page, "table.figures th, h1") == []  # a name's heads wrap whole
    assert page.evaluate(CUT_CELLS) == []
    assert page.get_by_role("heading", name=f"{LONG} und Bert").is_visible()
    assert "Eisten-Stalden: Geld" not in page.inner_text("main")  # no money kept there
    look(page, "de-compare")


@pytest.mark.parametrize("size", [PORTRAIT, PHONE], ids=["portrait", "phone"])
def test_the_next_evening_starts_with_the_pot_carried_on(
    open_page: OpenPage, live_server: LiveServer, size: tuple[int, int]
) -> None:
    """docs/troggen.md §8: the group page offers the open pot, the form comes filled in,
    and the new evening's settlement says where its pot came from."""
    group = int(live_server.api("POST", "/groups", {"name": f"Freitag {size[0]}"})["id"])
    body = {
        "game": "troggen",
        "players": ["Anna", "Bert", "Clara", "Dora"],
        "first_dealer": "Dora",
        "group": group,
        "date": "2026-11-14",
        "options": {"currency": "CHF", "end_pot": "carry"},
    }
    earlier = int(live_server.api("POST", "/evenings", body)["id"])
    live_server.hand(earlier, {"contract": "einfach", "bidder": "Anna", "points": 20})
    page = open_page("en", size, javascript=False)
    page.goto(f"/groups/{group}")
    assert problems_on(page) == []
    look(page, "en-group-open-pot")
    page.get_by_role("link", name="Start the next evening with this pot").click()
    page.wait_for_url("**/evenings/new?**")
    assert page.get_by_label("Pot carried from an earlier evening").input_value() == str(earlier)
    assert page.get_by_role("combobox", name="Seat 1").input_value() == "Anna"
    assert problems_on(page) == []
    look(page, "en-new-with-pot")
    page.get_by_role("button", name="Start the evening").click()
    page.wait_for_url("**/evenings/*")
    assert "opened with 6 jetons carried in" in page.inner_text("main")
    later = page.url.rstrip("/").rsplit("/", 1)[-1]
    page.goto(f"/evenings/{later}/settlement")
    assert problems_on(page) == []
    assert "Pot carried from the evening of 14.11.2026: 6 jetons." in page.inner_text("main")
    look(page, "en-settlement-carried-in")
