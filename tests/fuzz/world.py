"""A populated installation for the fuzz tests, built once and put back after every change.

The world holds evenings of every game and variant with hands (one closed, one with a
voided hand), a tournament whose first round has started (one table has a hand), one whose
first round is drawn but not started, and one whose round is closed. Three callers reach
it: the organiser of every tournament, a device bound to a table, and an anonymous one;
the first two by a bearer token or by their session cookie sent as a header, so that no
answer changes the caller of the next generated request. The page forms are collected
from the rendered pages, so the page fuzzing posts the fields the pages really have.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, url_for
from flask.testing import FlaskClient
from sqlalchemy import MetaData, Table, select

from scorekeeper import create_app
from scorekeeper.db.extensions import db
from scorekeeper.db.kept import forget_all
from scorekeeper.db.models import Player

Snapshot = dict[str, list[tuple[Any, ...]]]

PASSWORD = "museum-2026"
#: The installation PIN, set for the requests that draw it.
PIN = "2468"
#: Counted on purpose even when the request is refused: wrong passwords, PINs and table
#: codes (access.failed commits a row so that guessing slows down on every worker).
COUNTED_ON_PURPOSE = "login_attempt"

#: Evenings of every game and variant: (body to create it, hands to record).
EVENINGS: list[tuple[dict[str, Any], list[dict[str, Any]]]] = [
    (
        {"game": "troggen", "players": ["Anna", "Bert", "Clara", "Dora"], "first_dealer": "Dora"},
        [
            {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"},
            {"contract": "misere", "points": {"Anna": 10, "Bert": 20, "Clara": 21, "Dora": 11}},
            {"contract": "ohne", "bidder": "Clara", "won": True},
        ],
    ),
    (
        {"game": "troggen", "players": ["Anna", "Bert", "Clara", "Dora", "Emil"]},
        [
            {"contract": "doppelt", "bidder": "Anna", "partner": "Dora", "points": 30},
            {"contract": "einfach", "bidder": "Clara", "partner": None, "points": 37},
        ],
    ),
    (
        {
            "game": "doppen",
            "players": ["Anne", "Bert", "Clara"],
            "options": {"unit_value": "0.05", "currency": "EUR"},
        },
        [
            {
                "contract": "dreier",
                "soloist": "Anne",
                "points": 41,
                "kontra": {"game": 0, "valat": 0, "pagat": 0, "uhu": 0},
            },
            {"contract": "pass", "penalties": [{"player": "Bert", "kind": "revoke"}]},
        ],
    ),
    (
        {"game": "doppen", "players": ["Anne", "Bert", "Clara", "Dora"]},
        [{"contract": "zweier", "soloist": "Bert", "points": 30, "kontra": {"game": 1}}],
    ),
    (
        {"game": "troggu", "variant": "visp", "players": ["Anna", "Beat", "Carla", "Dani"]},
        [
            {"contract": "normal", "declarer": "Beat", "points": 62},
            {"contract": "misere", "points": {"Anna": 30, "Beat": 22, "Carla": 20, "Dani": 20}},
        ],
    ),
    (
        {
            "game": "troggu",
            "variant": "visp",
            "players": ["Anna", "Beat", "Carla", "Dani", "Ella", "Fritz", "Gina"],
        },
        [{"contract": "normal", "declarer": "Beat", "partner": "Dani", "points": 62}],
    ),
    (
        {"game": "troggu", "variant": "st-niklaus", "players": ["Anna", "Beat", "Carla"]},
        [{"contract": "solo", "declarer": "Carla", "points": 40, "all_tricks": None}],
    ),
    (
        {"game": "troggu", "variant": "graechen", "players": ["Anna", "Beat", "Carla", "Dani"]},
        [{"contract": "normal", "declarer": "Anna", "points": 70}],
    ),
    (
        {"game": "troggu", "variant": "flat", "players": ["Anna", "Beat", "Carla"]},
        [],
    ),
    (
        {
            "game": "troggu",
            "variant": "eisten-stalden",
            "players": ["Anna", "Beat", "Carla", "Dani"],
        },
        [{"contract": "team", "team": ["Anna", "Beat"], "points": 61}],
    ),
]


@dataclass
class EveningInfo:
    """What the generators need to know of one stored evening."""

    id: int
    game: str
    variant: str
    players: list[str]
    version: int
    #: hand number -> {"input": ..., "version": ..., "dealer": ...}
    hands: dict[int, dict[str, Any]]


@dataclass
class TournamentInfo:
    """What the generators need to know of one stored tournament."""

    id: int
    version: int
    entrants: list[int]
    rounds: list[int]
    codes: list[str]


@dataclass
class FormField:
    """One named control of a page form; ``options`` for radios, selects and checkboxes."""

    name: str
    kind: str
    value: str = ""
    options: list[str] = field(default_factory=list)
    chosen: list[str] = field(default_factory=list)


@dataclass
class PageForm:
    """A POST form as a page renders it."""

    endpoint: str
    action: str
    page: str
    multipart: bool
    fields: list[FormField]


class FormScraper(HTMLParser):
    """Collects the POST forms of a page with their named controls."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms: list[tuple[str, bool, dict[str, FormField]]] = []
        self.current: dict[str, FormField] | None = None
        self.select: FormField | None = None
        self.textarea: FormField | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        given = dict(attrs).get("value")
        if tag == "form":
            if a.get("method", "get").lower() == "post":
                self.current = {}
                action = a.get("action") or self.page
                self.forms.append((action, "multipart" in a.get("enctype", ""), self.current))
            return
        if tag == "option" and self.select is not None:
            self.select.options.append(a.get("value", ""))
            if "selected" in a:
                self.select.chosen.append(a.get("value", ""))
            return
        if self.current is None or not a.get("name"):
            return
        name = a["name"]
        if tag == "input":
            kind = a.get("type", "text").lower()
            value = a.get("value", "")
            if kind in ("radio", "checkbox"):
                # A browser sends "on" for a box without a value attribute.
                sent = "on" if given is None else value
                control = self.current.setdefault(name, FormField(name, kind))
                control.options.append(sent)
                if "checked" in a:
                    control.chosen.append(sent)
            elif kind in ("submit", "button", "image", "reset"):
                control = self.current.setdefault(name, FormField(name, "submit"))
                control.options.append(value)
            else:
                self.current[name] = FormField(name, kind, value)
        elif tag == "select":
            self.select = self.current.setdefault(name, FormField(name, "select"))
        elif tag == "textarea":
            self.textarea = self.current.setdefault(name, FormField(name, "textarea"))
        elif tag == "button":
            control = self.current.setdefault(name, FormField(name, "submit"))
            control.options.append(a.get("value", ""))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.textarea.value += data


@dataclass
class World:
    """The populated app, its database file and what the generators draw from."""

    app: Flask
    path: Path
    template: Path
    evenings: list[EveningInfo] = field(default_factory=list)
    tournaments: list[TournamentInfo] = field(default_factory=list)
    #: The ids of the players (anonymising one is a page of its own).
    players: list[int] = field(default_factory=list)
    #: The table groups and their members (docs/club.md).
    groups: list[int] = field(default_factory=list)
    members: list[int] = field(default_factory=list)
    #: caller -> the headers that make a request theirs
    callers: dict[str, dict[str, str]] = field(default_factory=dict)
    archives: list[dict[str, Any]] = field(default_factory=list)
    forms: list[PageForm] = field(default_factory=list)
    baseline: Snapshot = field(default_factory=dict)
    _tables: list[Table] = field(default_factory=list)

    def client(self) -> FlaskClient:
        """A client without a cookie jar: every request stands alone."""
        return self.app.test_client(use_cookies=False)

    def snapshot(self) -> Snapshot:
        """Every row of every table (as ``tests/conftest.py``'s ``snapshot`` takes it)."""
        with self.app.app_context():
            if not self._tables:
                meta = MetaData()
                meta.reflect(bind=db.engine)
                self._tables = list(meta.tables.values())
            with db.engine.connect() as connection:
                return {
                    table.name: [tuple(row) for row in connection.execute(select(table))]
                    for table in self._tables
                }

    def reset(self) -> None:
        """Put the database back as it was built (after a request that changed it)."""
        with self.app.app_context():
            db.session.remove()
            db.engine.dispose()
            # The database is replaced under the running app, as a restore does.
            forget_all(self.app)
        shutil.copyfile(self.template, self.path)

    def reset_if_changed(self, after: Snapshot) -> None:
        """Reset unless ``after`` is the database as built."""
        if after != self.baseline:
            self.reset()

    @contextmanager
    def configured(self, **changes: Any) -> Iterator[None]:
        """Requests under changed configuration (CSRF on, a PIN set), put back after."""
        saved = {key: self.app.config.get(key) for key in changes}
        self.app.config.update(changes)
        try:
            yield
        finally:
            self.app.config.update(saved)

    def pin(self, on: bool) -> AbstractContextManager[None]:
        """Requests to an installation with the access PIN set (or not)."""
        return self.configured(ACCESS_PIN=PIN if on else None)

    def evening(self, evening_id: int) -> EveningInfo | None:
        """The evening with that id, if the world has it."""
        return next((e for e in self.evenings if e.id == evening_id), None)


def without_counted(snapshot: Snapshot) -> Snapshot:
    """The snapshot less the table that counts wrong tries on purpose."""
    return {name: rows for name, rows in snapshot.items() if name != COUNTED_ON_PURPOSE}


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.get_data(True)[:400])
    return response.json


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _session(client: FlaskClient) -> dict[str, str]:
    """The client's session cookie as a header, so that a client without a cookie jar
    sends it (and no answer can change it for the next request)."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    return {"Cookie": f"session={cookie.value}"}


def _tournament(client: FlaskClient, names: list[str], **extra: Any) -> tuple[int, str]:
    body = {
        "name": "Tarockturnier",
        "game": "troggen",
        "rounds": 3,
        "deals_per_player": 1,
        "password": PASSWORD,
        **extra,
    }
    created = _ok(client.post("/api/v1/tournaments", json=body), 201)
    for name in names:
        _ok(client.post(f"/api/v1/tournaments/{created['id']}/entrants", json={"name": name}), 201)
    _ok(client.post(f"/api/v1/tournaments/{created['id']}/rounds"), 201)
    return int(created["id"]), str(created["token"])


def _carried_chain(client: FlaskClient, headers: dict[str, str]) -> tuple[list[int], int]:
    """Two Troggen evenings of a group, the first carrying its pot into the second
    (docs/troggen.md §8): a write to the first changes the second too. Returns the two
    evenings and their group, whose page offers to open the second without the pot."""
    group = _ok(client.post("/api/v1/groups", json={"name": "Kette"}, headers=headers), 201)
    body = {
        "game": "troggen",
        "players": ["Anna", "Bert", "Clara", "Dora"],
        "group": group["id"],
        "options": {"end_pot": "carry"},
    }
    first = _ok(client.post("/api/v1/evenings", json=body, headers=headers), 201)["id"]
    lost = {"contract": "einfach", "bidder": "Anna", "points": 20}
    _ok(client.post(f"/api/v1/evenings/{first}/hands", json=lost, headers=headers), 201)
    later = {**body, "carried_from": first}
    second = _ok(client.post("/api/v1/evenings", json=later, headers=headers), 201)["id"]
    return [first, second], int(group["id"])


def build(folder: Path) -> World:
    """Create the app on a fresh database in ``folder`` and fill it."""
    path = folder / "fuzz.sqlite"
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{path}",
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "fuzz",
        },
        instance_path=str(folder),
    )
    world = World(app=app, path=path, template=folder / "template.sqlite")
    casual = app.test_client()
    ids = []
    for body, hands in EVENINGS:
        evening = _ok(casual.post("/api/v1/evenings", json=body), 201)["id"]
        for hand in hands:
            _ok(casual.post(f"/api/v1/evenings/{evening}/hands", json=hand), 201)
        ids.append(evening)
    # The first evening: its last hand voided; the second: closed.
    _ok(casual.delete(f"/api/v1/evenings/{ids[0]}/hands/3", json={"reason": "verzählt"}))
    _ok(casual.post(f"/api/v1/evenings/{ids[1]}/close"))

    organiser = app.test_client()
    eight = ["Ida", "Jakob", "Klara", "Leo", "Mia", "Noah", "Olga", "Paul"]
    started, _ = _tournament(organiser, eight)
    round_ = _ok(organiser.post(f"/api/v1/tournaments/{started}/rounds/1/start"))
    _ok(organiser.post(f"/api/v1/tournaments/{started}/entrants", json={"name": "Quirin"}), 201)
    drawn, _ = _tournament(organiser, eight[:5], game="troggu", variant="visp")
    over, token = _tournament(organiser, eight[:4], rounds=2)
    _ok(organiser.post(f"/api/v1/tournaments/{over}/rounds/1/start"))
    _ok(organiser.post(f"/api/v1/tournaments/{over}/rounds/1/close", json={"confirm": True}))
    world.callers = {
        "anonymous": {},
        "organiser": _bearer(token),
        "organiser-cookie": _session(organiser),
    }

    tablet = app.test_client()
    code = round_["tables"][0]["code"]
    table_token = _ok(tablet.post(f"/api/v1/tables/{code}/open"))["token"]
    world.callers["table"] = _bearer(table_token)
    world.callers["table-cookie"] = _session(tablet)
    table_evening = round_["tables"][0]["evening"]
    players = _ok(tablet.get(f"/api/v1/evenings/{table_evening}"))["players"]
    first = {"contract": "einfach", "bidder": players[1], "won": True}
    _ok(tablet.post(f"/api/v1/evenings/{table_evening}/hands", json=first), 201)

    headers = world.callers["organiser"]
    tables = []
    for tournament in (started, over):
        rounds = _ok(organiser.get(f"/api/v1/tournaments/{tournament}/rounds", headers=headers))
        tables += [t["evening"] for r in rounds["rounds"] for t in r["tables"]]
    chain, chain_group = _carried_chain(organiser, headers)
    ids += chain
    for evening in ids + tables:
        data = _ok(organiser.get(f"/api/v1/evenings/{evening}", headers=headers))
        world.evenings.append(
            EveningInfo(
                id=data["id"],
                game=data["game"],
                variant=data["variant"],
                players=data["players"],
                version=data.get("version", 1),
                hands={
                    h["number"]: {
                        "input": h["input"],
                        "version": h["version"],
                        "dealer": h["dealer"],
                    }
                    for h in data["hands"]
                },
            )
        )
    world.evenings.sort(key=lambda e: e.id)
    for tournament in (started, drawn, over):
        data = _ok(organiser.get(f"/api/v1/tournaments/{tournament}", headers=headers))
        entrants = _ok(organiser.get(f"/api/v1/tournaments/{tournament}/entrants", headers=headers))
        rounds = _ok(organiser.get(f"/api/v1/tournaments/{tournament}/rounds", headers=headers))
        world.tournaments.append(
            TournamentInfo(
                id=tournament,
                version=data.get("version", 1),
                entrants=[e["number"] for e in entrants["entrants"]],
                rounds=[r["number"] for r in rounds["rounds"]],
                codes=[t["code"] for r in rounds["rounds"] for t in r["tables"] if t.get("code")],
            )
        )
    for evening in (ids[0], ids[2], ids[9]):
        world.archives.append(
            _ok(organiser.get(f"/api/v1/evenings/{evening}/export", headers=headers))
        )
    group = _ok(organiser.post("/api/v1/groups", json={"name": "Stamm"}, headers=headers), 201)
    for evening in (ids[0], ids[2]):
        _ok(
            organiser.put(
                f"/api/v1/evenings/{evening}/group", json={"group": group["id"]}, headers=headers
            )
        )
    world.groups = [group["id"], chain_group]
    shown = _ok(organiser.get(f"/api/v1/groups/{group['id']}", headers=headers))
    world.members = [m["id"] for m in shown["members"]]
    with app.app_context():
        world.players = list(db.session.scalars(select(Player.id).order_by(Player.id)))
    world.forms = scrape_forms(world)

    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    shutil.copyfile(path, world.template)
    world.baseline = world.snapshot()
    return world


#: Addresses that are downloads, not pages with forms.
NOT_PAGES = re.compile(r"\.(pdf|csv|json|zip)$")


def page_addresses(world: World) -> list[str]:
    """A page of every GET rule (outside the API), for each world object it can show."""
    from scorekeeper.core.rules import VARIANTS

    app = world.app
    addresses: list[str] = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if (
                "GET" not in (rule.methods or ())
                or rule.rule.startswith("/api/")
                or rule.endpoint == "static"
                or NOT_PAGES.search(rule.rule)
            ):
                continue
            for values in _rule_values(world, rule.arguments):
                addresses.append(url_for(rule.endpoint, **values))
                if rule.endpoint == "evenings.show":
                    addresses.append(url_for(rule.endpoint, saved=1, **values))
            if rule.endpoint in ("evenings.new", "tournaments.new"):
                for game, key in VARIANTS:
                    addresses.append(url_for(rule.endpoint, variant=f"{game}/{key}"))
    return addresses


def rule_values(world: World, rule: str) -> list[dict[str, Any]]:
    """Argument values of ``rule`` that name each kind of stored object once."""
    return _rule_values(world, {name for _, name in re.findall(r"<(?:(\w+):)?(\w+)>", rule)})


def _rule_values(world: World, arguments: set[str]) -> list[dict[str, Any]]:
    """Argument values to show each kind of stored object once."""
    if not arguments:
        return [{}]
    if "evening_id" in arguments:
        found = []
        for evening in world.evenings:
            if "number" in arguments:
                numbers = sorted(evening.hands)[:2]
                found += [{"evening_id": evening.id, "number": n} for n in numbers]
            else:
                found.append({"evening_id": evening.id})
        return found
    if "tournament_id" in arguments:
        found = []
        for tournament in world.tournaments:
            if "number" in arguments:
                numbers = tournament.rounds + tournament.entrants[:2]
                found += [{"tournament_id": tournament.id, "number": n} for n in numbers]
            else:
                found.append({"tournament_id": tournament.id})
        return found
    if arguments == {"code"}:
        return [{"code": world.tournaments[0].codes[0]}]
    if arguments == {"lang"}:
        return [{"lang": "de"}]
    if arguments == {"player_id"}:
        return [{"player_id": i} for i in world.players[:2]]
    if arguments == {"group_id"}:
        return [{"group_id": i} for i in world.groups]
    if arguments == {"group_id", "member_id"}:
        return [{"group_id": world.groups[0], "member_id": i} for i in world.members[:2]]
    raise AssertionError(f"no values to show a page with the arguments {sorted(arguments)}")


def scrape_forms(world: World) -> list[PageForm]:
    """Every distinct POST form on the world's pages, read as the organiser sees them."""
    client = world.client()
    adapter = world.app.url_map.bind("localhost")
    forms: dict[tuple[str, tuple[str, ...]], PageForm] = {}
    for address in page_addresses(world):
        response = client.get(address, headers=world.callers["organiser"])
        if response.status_code != 200 or response.mimetype != "text/html":
            continue
        scraper = FormScraper(address)
        scraper.feed(response.get_data(as_text=True))
        for action, multipart, controls in scraper.forms:
            target = urlsplit(action)
            try:
                endpoint, _ = adapter.match(target.path, method="POST", query_args=target.query)
            except Exception:  # a form to another site or a GET-only address: not ours
                continue
            controls.pop("csrf_token", None)  # sent (or not) by each test itself
            key = (action, tuple(sorted(controls)))
            forms.setdefault(
                key, PageForm(endpoint, action, address, multipart, list(controls.values()))
            )
    return list(forms.values())


def url_rules(*, api: bool, method: str | None = None) -> list[tuple[str, str, str]]:
    """``(rule, endpoint, method)`` of every route of the app, read from its ``url_map`` at
    collection time, so that a new endpoint is fuzzed without anyone listing it."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "DATABASE_URL": "sqlite://",
                "AUTO_MIGRATE": False,
                "SECRET_KEY": "x",
            },
            instance_path=folder,
        )
        found = []
        for rule in app.url_map.iter_rules():
            if rule.endpoint == "static" or rule.rule.startswith("/api/") != api:
                continue
            for verb in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                if method is None or verb == method:
                    found.append((rule.rule, rule.endpoint, verb))
        with app.app_context():
            db.engine.dispose()
    return sorted(found)
