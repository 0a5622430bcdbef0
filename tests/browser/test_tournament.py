"""A small tournament end to end in a real browser: 12 players, 2 rounds, three tables of
four recording at the same time on three tablets, the organiser's laptop closing, drawing
and starting rounds, and the projector showing the final standings.

Each table plays k·s = 1·4 = 4 hands a round, entered through the table page's form with
the quick "won/lost" result. The tablets take turns hand by hand, so the three tables are
open and recording side by side, as in the hall.
"""

from __future__ import annotations

import re
from fractions import Fraction

from playwright.sync_api import Page, expect

from tests.browser.checks import misaligned
from tests.browser.conftest import (
    LANDSCAPE,
    PHONE,
    PORTRAIT,
    LiveServer,
    OpenPage,
    screenshot,
)
from tests.browser.test_flow import choose
from tests.browser.test_table_screen import IN_VIEW
from tests.conftest import sqlite_only
from tests.web.tournaments.support import NAMES as ALL_NAMES
from tests.web.tournaments.support import (
    PASSWORD,
    create_tournament,
    draw,
    register,
    setup_body,
    start,
)

#: The live server runs on a SQLite file of its own (conftest.py).
pytestmark = sqlite_only

LANG = "de"
#: Twelve players: three tables of four.
NAMES = ALL_NAMES[:12]
MINUS = "\u2212"


def amount(cell: str) -> Fraction:
    """A total as a page writes it: "+12", "0", "+7.5", a loss with a real minus sign."""
    cleaned = cell.strip().replace(MINUS, "-").replace("+", "").replace("\u2019", "")
    return Fraction(cleaned.replace(",", "."))


def record_hand(page: Page, players: list[str], index: int) -> None:
    """Enter one simple bid with the finger: Einfach, a bidder, won or lost; save."""
    form = page.locator("form.hand-form")
    expect(page.locator("#entry-title")).to_contain_text(str(index + 1))
    choose(page, "contract", "einfach")
    choose(page, "bidder", players[index % len(players)])
    choose(page, "result", "won" if index % 3 != 2 else "lost")
    expect(form.locator("input[name=result][value=won]")).to_be_checked(checked=index % 3 != 2)
    form.locator("button.save").tap()
    expect(page).to_have_url(re.compile(r"/evenings/\d+\?saved=\d+$"))
    expect(page.locator("section.saved h2")).to_contain_text(str(index + 1))


def open_tables(open_page: OpenPage, codes: list[str]) -> list[Page]:
    """Three tablets, each opening its table by the address in the QR code."""
    tablets = []
    for code in codes:
        tablet = open_page(LANG, PORTRAIT)
        tablet.goto(f"/t/{code}")
        expect(tablet).to_have_url(re.compile(r"/evenings/\d+$"))
        expect(tablet.locator(".tournament-banner")).to_be_visible()
        tablets.append(tablet)
    return tablets


def play_round(tablets: list[Page], number: int) -> None:
    """Every table plays its 4 hands, the tablets taking turns hand by hand."""
    players = []
    for tablet in tablets:
        banner = tablet.locator(".tournament-banner")
        expect(banner).to_contain_text(re.compile(rf"\b{number}\b"))
        expect(banner.locator(".left-count")).to_contain_text("4")
        players.append(tablet.locator(".balances .name").all_inner_texts())
        assert len(players[-1]) == 4
    for index in range(4):
        for tablet, seated in zip(tablets, players, strict=True):
            record_hand(tablet, seated, index)
    for tablet in tablets:
        # The last hand closes the table: no form any more, the banner says it is done.
        expect(tablet.locator("form.hand-form")).to_have_count(0)
        expect(tablet.locator(".tournament-banner .left-count")).to_contain_text("✓")


def board_codes(page: Page) -> list[str]:
    """The table codes on the organiser's board, table by table."""
    codes = page.locator("table.board code").all_inner_texts()
    assert len(codes) == 3
    return codes


def test_a_tournament_of_twelve_over_two_rounds(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    body = setup_body(name="Museumsturnier", rounds=2, language=LANG)
    tournament = int(live_server.api("POST", "/tournaments", body)["id"])
    for name in NAMES:
        live_server.api("POST", f"/tournaments/{tournament}/entrants", {"name": name})
    live_server.api("POST", f"/tournaments/{tournament}/rounds")
    live_server.api("POST", f"/tournaments/{tournament}/rounds/1/start")

    # The organiser logs in on the laptop and sees the round's board.
    laptop = open_page(LANG, LANDSCAPE)
    laptop.goto(f"/tournaments/{tournament}/rounds/1")
    expect(laptop).to_have_url(re.compile(rf"/tournaments/{tournament}/login\?next="))
    laptop.locator("input[name=password]").fill(PASSWORD)
    laptop.locator("form button[type=submit].primary").tap()
    expect(laptop).to_have_url(re.compile(rf"/tournaments/{tournament}/rounds/1$"))
    codes = board_codes(laptop)
    api_round = live_server.api("GET", f"/tournaments/{tournament}/rounds/1")
    assert codes == [t["code"] for t in api_round["tables"]]

    # Round 1: three tablets at once.
    tablets = open_tables(open_page, codes)
    for index in range(2):
        for tablet in tablets:
            players = tablet.locator(".balances .name").all_inner_texts()
            record_hand(tablet, players, index)
    screenshot(tablets[0], LANG, "tournament-table")
    laptop.reload()
    expect(laptop.locator("table.board .count")).to_have_text(["2", "2", "2"])
    screenshot(laptop, LANG, "tournament-board")
    # The tables' links on the board are finger targets (they were 13x21 px).
    for link in laptop.locator("table.board th a").all():
        box = link.bounding_box()
        assert box is not None
        assert box["width"] >= 44, box
        assert box["height"] >= 44, box
    for tablet in tablets:
        players = tablet.locator(".balances .name").all_inner_texts()
        for index in (2, 3):
            record_hand(tablet, players, index)
        expect(tablet.locator("form.hand-form")).to_have_count(0)
    screenshot(tablets[0], LANG, "tournament-table-finished")

    laptop.reload()
    expect(laptop.locator("table.board .count")).to_have_text(["4", "4", "4"])
    expect(laptop.locator("table.board tbody tr.done")).to_have_count(3)
    laptop.locator("form[action$='/rounds/1/close'] button[type=submit]").tap()
    expect(laptop).to_have_url(re.compile(rf"/tournaments/{tournament}$"))
    laptop.locator(f"form[action$='/tournaments/{tournament}/rounds'] button").tap()
    expect(laptop).to_have_url(re.compile(rf"/tournaments/{tournament}/rounds/2$"))
    laptop.locator("form[action$='/rounds/2/start'] button").tap()
    expect(laptop).to_have_url(re.compile(rf"/tournaments/{tournament}/rounds/2$"))
    second = board_codes(laptop)
    assert not set(second) & set(codes)

    # Last round's codes no longer open anything; this round's do.
    tablets = open_tables(open_page, second)
    play_round(tablets, 2)
    laptop.reload()
    expect(laptop.locator("table.board tbody tr.done")).to_have_count(3)
    laptop.locator("form[action$='/rounds/2/close'] button[type=submit]").tap()
    expect(laptop).to_have_url(re.compile(rf"/tournaments/{tournament}$"))
    expect(laptop.locator("a[href$='/standings']").first).to_be_visible()
    # The standings on the laptop (1024 by 768): every cell under its column's head, the
    # first place's row too.
    laptop.goto(f"/tournaments/{tournament}/standings")
    expect(laptop.locator("table.standings tbody tr.first-place").first).to_be_visible()
    assert misaligned(laptop) == []
    screenshot(laptop, LANG, "tournament-standings")

    # The projector: no login, the final standings as the API computes them.
    standings = live_server.api("GET", f"/tournaments/{tournament}/standings")["standings"]
    assert [line["hands"] for line in standings] == [8] * 12
    assert sum(Fraction(line["total"]) for line in standings) == 0
    projector = open_page(LANG, LANDSCAPE)
    projector.goto(f"/tournaments/{tournament}/screen")
    expect(projector.locator("html")).to_have_attribute("lang", LANG)
    expect(projector.locator("form")).to_have_count(0)
    rows = projector.locator("table.standings tbody tr")
    expect(rows).to_have_count(12)
    shown = []
    for row in rows.all():
        cells = row.locator("td").all_inner_texts()
        shown.append((int(cells[0]), int(cells[1]), cells[2].strip(), amount(cells[3])))
    assert shown == [
        (line["place"], line["number"], line["name"], Fraction(line["total"])) for line in standings
    ]
    screenshot(projector, LANG, "tournament-screen")


def test_a_tournament_table_on_a_phone_shows_the_contracts_above_the_save_bar(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """The banner (tournament, round and table, hands left) and the table fit with the
    first choice of the hand above the Save bar, without scrolling, in German."""
    client = live_server.client
    tournament = create_tournament(client, name="Tarockturnier im Museum Blumenstein")
    register(client, tournament, ALL_NAMES[:4])
    draw(client, tournament)
    code = start(client, tournament, 1)["tables"][0]["code"]
    phone = open_page(LANG, PHONE)
    phone.goto(f"/t/{code}")
    expect(phone.locator(".tournament-banner")).to_be_visible()
    for choice in ("contract", "bidder"):
        row = phone.locator(f"#entry label.choice:has(input[name='{choice}'])").last
        assert row.evaluate(IN_VIEW), f"the {choice} row above the Save bar"
    assert phone.evaluate("window.scrollY") == 0
    screenshot(phone, LANG, "tournament-table")


def test_the_board_follows_the_tables_but_not_while_a_form_is_filled_in(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """docs/tournaments.md "Standings": the board of a round under way loads itself again
    every 60 seconds; once the organiser has started filling in a form it no longer does,
    and says so."""
    client = live_server.client
    tournament = create_tournament(client)
    register(client, tournament, ALL_NAMES[:4])
    draw(client, tournament)
    start(client, tournament, 1)
    laptop = open_page(LANG, LANDSCAPE)
    laptop.clock.install()
    laptop.goto(f"/tournaments/{tournament}/login?next=/tournaments/{tournament}/rounds/1")
    laptop.locator("input[name=password]").fill(PASSWORD)
    laptop.locator("main button.primary").tap()
    expect(laptop).to_have_url(re.compile(rf"/tournaments/{tournament}/rounds/1$"))
    laptop.evaluate("window.marked = true")
    laptop.clock.run_for(61_000)
    laptop.wait_for_function("window.marked === undefined")  # loaded again
    expect(laptop.locator(".refresh-held")).to_have_count(0)

    laptop.locator("input[name=confirm]").check()
    laptop.evaluate("window.marked = true")
    laptop.clock.run_for(121_000)
    expect(laptop.locator(".refresh-held")).to_be_visible()
    assert laptop.evaluate("window.marked") is True
    assert laptop.locator("input[name=confirm]").is_checked()


def test_choosing_another_game_in_the_set_up_shows_its_rules_at_once(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """docs/tournaments.md "Shape": one tap on the game list shows Doppen's house rules,
    the name and password typed kept; the next tap sets up a Doppen tournament."""
    page = open_page(LANG, PORTRAIT)
    page.goto("/tournaments/new")
    page.locator("#title").fill("Doppen im Museum")
    page.locator("#password").fill(PASSWORD)
    with page.expect_navigation():
        page.locator("#variant").select_option("doppen/kirchberg")
    expect(page.locator("p.warning[role=status]")).to_contain_text("Doppen")
    expect(page.locator("#title")).to_have_value("Doppen im Museum")
    expect(page.locator("#password")).to_have_value(PASSWORD)
    page.locator("main button.primary.big").tap()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/players$"))
    listed = live_server.api("GET", "/tournaments")["tournaments"]
    assert [t["game"] for t in listed if t["name"] == "Doppen im Museum"] == ["doppen"]


def test_a_page_of_the_projector_fits_its_screen(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """The projector cannot be scrolled: a page of 20 places, its title, status and tie rule
    fit the screen's height whole, at full HD and on a 4:3 projector."""
    client = live_server.client
    name = "Grosses Tarockturnier im Museum Blumenstein zum Jubiläum 2026"  # two lines long
    tournament = create_tournament(client, name=name)
    names = [f"Maximiliane Kalbermatten {n}" if n % 4 == 0 else f"Spielerin {n}" for n in range(24)]
    register(client, tournament, names)
    draw(client, tournament)
    start(client, tournament, 1)
    for size in ((1920, 1080), (1024, 768)):
        screen = open_page(LANG, size)
        screen.goto(f"/tournaments/{tournament}/screen")
        expect(screen.locator("table.standings tbody tr")).to_have_count(20)
        height = screen.evaluate("[document.documentElement.scrollHeight, window.innerHeight]")
        assert height[0] <= height[1], (size, height)
