"""Every form of every page carries a CSRF token, and a post without one changes nothing.

The pages are crawled from the home page, with evenings of every game in every state
(played, corrected, voided, ticked, closed) and tournaments before the draw, drawn, started
and organised by someone else, so a page or form added later is checked without anyone
remembering to list it here. The crawl must reach every page route and every form target,
or the test says which one it missed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import operations
from scorekeeper.db.extensions import db
from scorekeeper.operations import payments_ticked
from tests.conftest import PLAYERS4, PLAYERS5
from tests.test_security import inline_code
from tests.web.tournaments.support import NAMES, create_tournament, draw, register, start

#: Files, not pages: linked from the pages, but they hold no forms.
DOWNLOAD_SUFFIXES = (".pdf", ".csv", ".json", ".zip", ".ico")


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """The app with CSRF protection on, as at the table."""
    app = make_app()
    assert app.config.get("WTF_CSRF_ENABLED", True)
    return app


#: A ``<meta http-equiv=refresh>``'s content as HTML has it: seconds, then "; url=" and where.
REFRESH = re.compile(r"^\d+(;\s+url=\S+)?$")
#: A fraction of a second with more than the three digits HTML's times allow.
LONG_FRACTION = re.compile(r"\.\d{4,}")


class Page(HTMLParser):
    """The links and forms of one page, and what the Nu Html Checker refused in it."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.links: list[str] = []
        self.forms: list[dict[str, Any]] = []
        self.faults: list[str] = []

    def check(self, tag: str, found: dict[str, str]) -> None:
        """Note a time, a refresh or a name on an element that may not have one."""
        if tag == "time" and LONG_FRACTION.search(found.get("datetime", "")):
            self.faults.append(f"<time datetime={found['datetime']}>")
        if found.get("http-equiv", "").lower() == "refresh" and not REFRESH.match(
            found.get("content", "")
        ):
            self.faults.append(f"<meta refresh content={found.get('content')}>")
        if tag in {"div", "span", "p"} and "aria-label" in found and "role" not in found:
            self.faults.append(f"<{tag} aria-label={found['aria-label']}> without a role")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        self.check(tag, found)
        if tag == "a" and "href" in found:
            self.links.append(urljoin(self.url, found["href"]))
        elif tag == "form":
            action = urljoin(self.url, found.get("action") or self.url)
            targets = [action]
            # The live preview and a paper sheet's check post the same form there.
            for live in ("data-preview", "data-check"):
                if live in found:
                    targets.append(urljoin(self.url, found[live]))
            self.forms.append(
                {"method": found.get("method", "get").lower(), "targets": targets, "fields": {}}
            )
        elif tag in {"input", "select", "textarea", "button"} and self.forms and "name" in found:
            self.forms[-1]["fields"].setdefault(found["name"], found.get("value", ""))


def seed(client: FlaskClient, app: Flask) -> list[str]:
    """Evenings of every game in every state; returns pages reached only after an action."""

    def api(method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = client.open(f"/api/v1{path}", method=method, json=body)
        assert response.status_code < 300, response.json
        return dict(response.json)

    troggen = api("POST", "/evenings", {"game": "troggen", "players": PLAYERS5})["id"]
    api(
        "POST",
        f"/evenings/{troggen}/hands",
        {"contract": "einfach", "bidder": "Anna", "partner": "Dora", "points": 30},
    )
    api(
        "POST",
        f"/evenings/{troggen}/hands",
        {
            "contract": "misere",
            "points": {"Anna": 8, "Bert": 20, "Clara": 12, "Dora": 15, "Emil": 12},
        },
    )
    api("DELETE", f"/evenings/{troggen}/hands/2", {"reason": "falsch gezählt"})
    api("POST", f"/evenings/{troggen}/seating", {"players": PLAYERS4})
    doppen = api("POST", "/evenings", {"game": "doppen", "players": ["Anne", "Bert", "Clara"]})
    api(
        "POST",
        f"/evenings/{doppen['id']}/hands",
        {"contract": "dreier", "soloist": "Anne", "points": 41},
    )
    visp = api("POST", "/evenings", {"game": "troggu", "players": PLAYERS4})["id"]
    api("POST", f"/evenings/{visp}/hands", {"contract": "normal", "declarer": "Anna", "points": 70})
    striche = api(
        "POST", "/evenings", {"game": "troggu", "variant": "eisten-stalden", "players": PLAYERS4}
    )["id"]
    api("POST", f"/evenings/{striche}/hands", {"team": ["Anna", "Bert"], "points": 61})
    group = api("POST", "/groups", {"name": "Donnerstagsrunde"})["id"]
    response = client.put(f"/api/v1/evenings/{troggen}/group", json={"group": group})
    assert response.status_code == 200, response.json
    # A pot carried from one of the group's evenings into the next.
    carry = {"game": "troggen", "players": PLAYERS4, "group": group}
    earlier = api("POST", "/evenings", {**carry, "options": {"end_pot": "carry"}})["id"]
    api(
        "POST",
        f"/evenings/{earlier}/hands",
        {"contract": "einfach", "bidder": "Anna", "points": 20},
    )
    api("POST", "/evenings", {**carry, "carried_from": earlier})
    closed = api("POST", "/evenings", {"game": "troggen", "players": PLAYERS4})["id"]
    api("POST", f"/evenings/{closed}/close", {})
    with app.app_context():
        current = operations.current_view(troggen)
        assert current is not None
        first = current.settlement().transfers[0]
        payments_ticked.tick(current, first.source, first.target, first.amount)
        db.session.commit()
    # The organiser (this client) sees one tournament before its draw, one drawn and one
    # started; a tournament organised by someone else asks for the login.
    for state in ("set up", "drawn", "started"):
        tournament = create_tournament(client, name=f"Turnier {state}")
        register(client, tournament, NAMES[:8])
        if state != "set up":
            draw(client, tournament)
        if state == "started":
            code = start(client, tournament, 1)["tables"][0]["code"]
    create_tournament(app.test_client(), name="Turnier von jemand anderem")
    # The Undo button shows only right after a hand was saved; a table's code is printed
    # on its card, not linked; the PIN's page is where a locked installation sends you; a
    # sheet's parts are listed for an evening of more than a thousand hands.
    return [
        f"/evenings/{troggen}?saved=1",
        f"/evenings/{visp}?saved=1",
        f"/t/{code}",
        "/unlock",
        f"/evenings/{troggen}/sheet",
    ]


def crawl(client: FlaskClient, starts: list[str]) -> dict[str, Page]:
    """Every page reachable from ``starts`` by links, by path."""
    seen: dict[str, Page] = {}
    queue = list(starts)
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        response = client.get(url, headers={"Accept-Language": "de"}, follow_redirects=True)
        assert response.status_code == 200, (url, response.status_code)
        assert response.mimetype == "text/html", url
        page = Page(response.request.path)  # links and forms are relative to where it ended
        page.feed(response.text)
        seen[url] = page
        if response.request.path != urlsplit(url).path:  # a login, a table opened by code
            seen.setdefault(response.request.path, page)
        assert inline_code(response.text) == [], url
        for link in page.links:
            parts = urlsplit(link)
            if parts.netloc not in {"", "localhost"} or parts.path.startswith(
                ("/api/", "/static/")
            ):
                continue
            target = parts.path + (f"?{parts.query}" if parts.query else "")
            if not parts.path.endswith(DOWNLOAD_SUFFIXES) and target not in seen:
                queue.append(target)
    return seen


def endpoint(app: Flask, url: str, method: str) -> str:
    """The view that answers ``url``."""
    adapter = app.url_map.bind("localhost")
    return str(adapter.match(urlsplit(url).path, method=method.upper())[0])


def page_endpoints(app: Flask, method: str) -> set[str]:
    """The endpoints of pages (not the API, static files or downloads) for ``method``."""
    return {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if method in (rule.methods or ())
        and not rule.rule.startswith(("/api/", "/static/"))
        and not rule.rule.endswith(DOWNLOAD_SUFFIXES)
    }


@pytest.fixture
def pages(app: Flask, client: FlaskClient) -> dict[str, Page]:
    """Every page of a well-used installation."""
    return crawl(client, ["/", *seed(client, app)])


def test_every_page_is_reached(app: Flask, pages: dict[str, Page]) -> None:
    reached = {endpoint(app, url, "get") for url in pages}
    assert page_endpoints(app, "GET") - reached == set()


def test_no_page_holds_what_the_html_checker_refused(pages: dict[str, Page]) -> None:
    """Times to the millisecond at most, a refresh written as HTML has it, and no
    ``aria-label`` on an element without a role (it names nothing there)."""
    assert {url: page.faults for url, page in pages.items() if page.faults} == {}


def test_every_post_form_carries_a_token(app: Flask, pages: dict[str, Page]) -> None:
    posted: set[str] = set()
    for url, page in pages.items():
        for form in page.forms:
            if form["method"] != "post":
                continue
            assert form["fields"].get("csrf_token"), (url, form["targets"])
            posted |= {endpoint(app, target, "post") for target in form["targets"]}
    assert page_endpoints(app, "POST") - posted == set()


def test_a_post_without_token_is_refused_and_changes_nothing(
    app: Flask,
    client: FlaskClient,
    pages: dict[str, Page],
    snapshot: Callable[[], dict[str, list[tuple[Any, ...]]]],
) -> None:
    forms = {}
    for page in pages.values():
        for form in page.forms:
            if form["method"] == "post":
                for target in form["targets"]:
                    forms.setdefault(endpoint(app, target, "post"), (target, form["fields"]))
    before = snapshot()
    for name, (target, fields) in sorted(forms.items()):
        data = {k: v for k, v in fields.items() if k != "csrf_token"}
        response = client.post(target, data=data, headers={"Accept-Language": "en"})
        assert response.status_code == 400, name
        assert "Nothing was saved" in response.text, name
    assert snapshot() == before


def test_the_token_on_the_page_is_accepted(client: FlaskClient, pages: dict[str, Page]) -> None:
    form = next(f for f in pages["/"].forms if f["method"] == "post")
    response = client.post(form["targets"][0], data=form["fields"])
    assert response.status_code == 303
