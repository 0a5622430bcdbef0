"""The test world the page crawl walks through, and the walk itself (docs/presentation.md,
"The layout gate").

One of everything a person meets: an evening of each game with every kind of hand (bid,
Misère, corrected, voided, a payment ticked), a table group with its season, a member and
a comparison, a tournament under way with its board, standings, projector and a table
opened by its code, and every form sent back with its errors. A player of each evening is
called by a name of 40 characters, the longest the app takes: a name must wrap between its
words, not inside them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import Page, expect

from scorekeeper import operations
from scorekeeper.core.validation import NAME_LENGTH
from scorekeeper.db.extensions import db
from scorekeeper.operations import payments_ticked
from tests.browser.conftest import LiveServer
from tests.web.tournaments.support import PASSWORD, setup_body

#: The longest name the app takes, of words a phone's column can hold.
LONG = "Maximiliane Kalbermatten-Zurbriggen Roth"
assert len(LONG) == NAME_LENGTH

PLAYERS = ["Anna", LONG, "Clara", "Dora"]
BID = {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"}
OHNE = {"contract": "ohne", "bidder": LONG, "points": 40, "last_trick": "none"}
MISERE = {"contract": "misere", "points": {"Anna": 10, LONG: 20, "Clara": 21, "Dora": 11}}
EINFACH = {"contract": "einfach", "bidder": "Clara", "points": 38, "last_trick": "king_lost"}
SEVEN = [LONG, "Beat", "Carla", "Dani", "Ella", "Fritz", "Gabi"]
ENTRANTS = [LONG, "Bert", "Clara", "Dora", "Emil", "Frieda", "Gustav", "Hanna"]


@dataclass(frozen=True)
class World:
    """What the walk visits, by id."""

    evening: int
    saved: int
    doppen: int
    #: The Doppen evening's last hand: everybody passed.
    passed: int
    troggu: int
    striche: int
    group: int
    member: int
    tournament: int
    code: str


def build(live_server: LiveServer) -> World:
    """Set the world up once, through the API and, for the tick, the operations."""
    # The walk sends wrong passwords and PINs at every size: none of them may make the
    # next one wait (docs/hall-safety.md counts them per address and for everyone).
    live_server.app.config.update(LOGIN_ATTEMPTS=1000, LOGIN_DELAY_AFTER=1000)
    group = int(live_server.api("POST", "/groups", {"name": "Donnerstagsrunde"})["id"])
    evening = int(
        live_server.api(
            "POST",
            "/evenings",
            {"game": "troggen", "players": PLAYERS, "first_dealer": "Dora", "group": group},
        )["id"]
    )
    for hand in (BID, OHNE, MISERE):
        live_server.hand(evening, hand)
    saved = live_server.hand(evening, EINFACH)
    live_server.api("PUT", f"/evenings/{evening}/hands/1", {**BID, "points": 44, "version": 1})
    live_server.api("DELETE", f"/evenings/{evening}/hands/2", {"reason": "falsch gezählt"})
    tick_first_payment(live_server, evening)
    game = {"game": "doppen", "players": PLAYERS, "first_dealer": "Dora", "group": group}
    doppen = int(live_server.api("POST", "/evenings", game)["id"])
    live_server.hand(doppen, {"contract": "dreier", "soloist": LONG, "points": 41})
    passed = live_server.hand(doppen, {"contract": "pass", "penalties": []})
    game = {"game": "troggu", "variant": "visp", "players": SEVEN}
    troggu = int(live_server.api("POST", "/evenings", game)["id"])
    live_server.hand(
        troggu, {"contract": "normal", "declarer": LONG, "partner": "Dani", "points": 62}
    )
    game = {"game": "troggu", "variant": "eisten-stalden", "players": SEVEN[:6]}
    striche = int(live_server.api("POST", "/evenings", game)["id"])
    live_server.hand(striche, {"contract": "team", "team": [LONG, "Dani", "Fritz"], "points": 60})
    members = live_server.api("GET", f"/groups/{group}")["members"]
    member = next(m["id"] for m in members if m["name"] == LONG)
    tournament, code = tournament_under_way(live_server)
    return World(evening, saved, doppen, passed, troggu, striche, group, member, tournament, code)


def tick_first_payment(live_server: LiveServer, evening: int) -> None:
    """Tick the settlement's first payment, as the person settling up does."""
    with live_server.app.app_context():
        current = operations.current_view(evening)
        assert current is not None
        first = current.settlement(operations.read_end_rule(current, None)).transfers[0]
        payments_ticked.tick(current, first.source, first.target, first.amount)
        db.session.commit()
        db.session.remove()


def tournament_under_way(live_server: LiveServer) -> tuple[int, str]:
    """A tournament of eight in its first round, a hand recorded at its first table: its id
    and that table's code."""
    body = setup_body(name="Museumsturnier", rounds=2, language="de")
    tournament = int(live_server.api("POST", "/tournaments", body)["id"])
    for name in ENTRANTS:
        live_server.api("POST", f"/tournaments/{tournament}/entrants", {"name": name})
    live_server.api("POST", f"/tournaments/{tournament}/rounds")
    started = live_server.api("POST", f"/tournaments/{tournament}/rounds/1/start")
    first = started["tables"][0]
    seated = live_server.api("GET", f"/evenings/{first['evening']}")["players"]
    live_server.hand(first["evening"], {"contract": "einfach", "bidder": seated[0], "points": 40})
    return tournament, str(first["code"])


Act = Callable[[Page], None]


@dataclass(frozen=True)
class Visit:
    """A page of the walk: where it is, and what a person does there before it is looked
    at (sends a form with its errors, taps a choice)."""

    name: str
    path: str
    act: Act | None = None

    def go(self, page: Page) -> None:
        """Open the page and do what the visit does there."""
        response = page.goto(self.path)
        assert response is not None
        assert response.status == 200, (self.name, response.status)
        if self.act is not None:
            self.act(page)


def refused(button: str, fill: dict[str, str] | None = None) -> Act:
    """Fill the fields (a selector each), send the form by ``button`` with the browser's
    own checks off, as an old browser sends it, and land on the page that names what to
    fix."""

    def act(page: Page) -> None:
        page.evaluate("() => document.querySelectorAll('form').forEach((f) => f.noValidate = true)")
        for selector, value in (fill or {}).items():
            page.locator(selector).fill(value)
        with page.expect_navigation() as sent:
            page.locator(button).tap()
        answer = sent.value
        assert answer is not None
        assert 400 <= answer.status < 500, answer.status
        expect(page.locator(".error, .errors, [role=alert]").first).to_be_visible()

    return act


def refused_hand(page: Page) -> None:
    """Save a hand with nothing chosen: the server sends it back into the form."""
    page.locator("#entry button.save").tap()
    expect(page.locator("#entry .error, #not-saved").first).to_be_visible()


def misere(page: Page) -> None:
    """Tap Misère: the points of every player are asked for."""
    page.locator("label.choice:has(input[name=contract][value=misere])").tap()
    expect(page.locator(".misere-entry")).to_be_visible()


def explained(page: Page) -> None:
    """Open the receipt's "how it is computed": every line of the hand."""
    page.locator("section.saved details.why summary").tap()
    expect(page.locator("section.saved details.why .lines")).to_be_visible()


def logged_in(page: Page) -> None:
    """Log in as the tournament's organiser, landing on the page asked for."""
    page.locator("input[name=password]").fill(PASSWORD)
    with page.expect_navigation():
        page.locator("main button.primary").tap()
    expect(page.locator("input[name=password]")).to_have_count(0)


def walk(world: World) -> list[Visit]:
    """Every page of the app, in an order a person could take (the organiser logs in before
    the board), by the name its screenshot gets."""
    base = f"/evenings/{world.evening}"
    group = f"/groups/{world.group}"
    tournament = f"/tournaments/{world.tournament}"
    primary = "main button.primary"
    return [
        Visit("home", "/"),
        Visit("new-evening", "/evenings/new"),
        Visit("new-evening-refused", "/evenings/new", refused(primary)),
        Visit("table", base),
        Visit("table-misere", base, misere),
        Visit("table-saved", f"{base}?saved={world.saved}"),
        Visit("table-saved-explained", f"{base}?saved={world.saved}", explained),
        Visit("history", f"{base}/hands"),
        Visit("edit", f"{base}/hands/1/edit"),
        Visit(
            "edit-refused",
            f"{base}/hands/1/edit",
            refused("form.hand-form button.save", {"input[name=points]": "200"}),
        ),
        Visit("seating", f"{base}/seating"),
        Visit("seating-refused", f"{base}/seating", refused(primary, {"#seat_1": "Anna"})),
        Visit("settlement", f"{base}/settlement"),
        Visit("sheet-parts", f"{base}/sheet"),
        # Its lines as typed, one refused, are checked in test_paper.py (axe included).
        Visit("paper", f"{base}/paper"),
        Visit("settings", f"{base}/settings"),
        Visit(
            "settings-refused", f"{base}/settings", refused(primary, {"#opt_unit_value": "zehn"})
        ),
        Visit("doppen-table", f"/evenings/{world.doppen}"),
        Visit("doppen-saved", f"/evenings/{world.doppen}?saved={world.passed}", explained),
        Visit("doppen-settlement", f"/evenings/{world.doppen}/settlement"),
        Visit("troggu-table", f"/evenings/{world.troggu}"),
        Visit("striche-table", f"/evenings/{world.striche}"),
        Visit("striche-settlement", f"/evenings/{world.striche}/settlement"),
        Visit("count", "/tools/count"),
        Visit("groups", "/groups"),
        Visit("groups-refused", "/groups", refused(primary)),
        Visit("group", group),
        Visit("season", f"{group}/season"),
        Visit("member", f"{group}/members/{world.member}"),
        Visit("compare", f"{group}/compare?a={world.member}"),
        Visit("tournaments", "/tournaments"),
        Visit("tournament-new", "/tournaments/new"),
        Visit("tournament-new-refused", "/tournaments/new", refused(f"{primary}.big")),
        Visit("tournament", tournament),
        Visit("standings", f"{tournament}/standings"),
        Visit("projector", f"{tournament}/screen"),
        Visit("login", f"{tournament}/login"),
        Visit("login-refused", f"{tournament}/login", refused(primary, {"#password": "falsch"})),
        Visit("board", f"{tournament}/login?next={tournament}/rounds/1", logged_in),
        Visit("entrants", f"{tournament}/players"),
        Visit("entrants-refused", f"{tournament}/players", refused(f"{primary}.big")),
        Visit("tournament-settings", f"{tournament}/settings"),
        Visit(
            "tournament-settings-refused",
            f"{tournament}/settings",
            refused(f"{primary}.big", {"#title": ""}),
        ),
        Visit("logbook", f"{tournament}/log"),
        Visit("open-table", "/t"),
        Visit("open-table-refused", "/t", refused(primary, {"#code": "ZZZZ"})),
        Visit("tournament-table", f"/t/{world.code}"),
        Visit("unlock", "/unlock"),
        Visit("unlock-refused", "/unlock", refused(primary, {"#pin": "0000"})),
        Visit("backup", "/backup"),
        Visit("restore", "/backup/restore"),
        Visit("restore-refused", "/backup/restore", refused(primary)),
        Visit("import", "/import"),
        Visit("import-refused", "/import", refused(primary)),
        Visit("players", "/players"),
        Visit("anonymise", "/players/1/anonymise"),
        # Last: a hand sent back stays in the tablet's queue, on every later page.
        Visit("table-refused", base, refused_hand),
        Visit("troggu-refused", f"/evenings/{world.troggu}", refused_hand),
    ]
