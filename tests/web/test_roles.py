"""Every write address, with each of the five callers, against the table of who may do what
in docs/hall-safety.md ("Who may do what"), which this test reads.

The callers: a guest, a table device (opened by its code), the tournament's organiser
(logged in), a PIN device, each from the hall's network, and the laptop (loopback), which
gave the PIN as well. Bodies are empty: an answer that is not a refusal of the caller
(401, 403, or 409 "belongs to a tournament") counts as allowed, whatever else it says.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.guard import FIXED_BY_TOURNAMENT, PUBLIC, TABLE_ENDPOINTS
from scorekeeper.web.managed import MANAGED
from tests.web.tournaments.support import PASSWORD, create_tournament, draw, register, start

ROOT = Path(__file__).resolve().parents[2]
PIN = "246810"
ROLES = ["guest", "table", "organiser", "PIN", "laptop"]
HALL = "192.168.1.30"
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
#: Open to all who may start a casual evening (tournament_api.create, tournaments.create).
NEW_THINGS = {"tournaments.create", "tournament_api.create", "api.create", "evenings.create"}


def table_of_roles() -> dict[str, dict[str, bool]]:
    """The table in docs/hall-safety.md: for each kind of write, who may."""
    text = (ROOT / "docs" / "hall-safety.md").read_text(encoding="utf-8")
    section = text[text.index("## Who may do what") :]
    section = section[: section.index("\n## ", 3)]
    rows = re.findall(r"^\| (?!Writes|---)(.+?) \| (.+) \|$", section, re.M)
    found = {}
    for kind, cells in rows:
        answers = [c.strip() for c in cells.split("|")]
        found[kind] = dict(zip(ROLES, [a == "yes" for a in answers], strict=True))
    return found


#: Open to everyone: a wrong PIN, password or code is answered 401 there, which is the
#: answer to the try, not a refusal of the caller.
PUBLIC_KIND = "unlocking, logging in, opening a table, the language"


def kind_of(endpoint: str, blueprint: str, at_table: bool | None) -> str:
    """Which row of the table a write belongs to; ``at_table``: whether its evening is a
    tournament table's (None: no evening in the address)."""
    if endpoint in PUBLIC:
        return PUBLIC_KIND
    if blueprint in MANAGED:
        return "groups, members, carried pots, backups, players"
    if at_table:
        if endpoint in FIXED_BY_TOURNAMENT:
            return "a tournament table: what the tournament fixes"
        if endpoint in TABLE_ENDPOINTS:
            return "a tournament table: playing and correcting"
        return "a tournament table: the rest of its evening"
    if blueprint in ("tournaments", "tournament_api", "tournament_pdfs") and (
        endpoint not in NEW_THINGS
    ):
        return "a tournament"
    return "a casual evening, a new evening or tournament, an archive"


class Installation:
    """A PIN set; a casual evening in a group, a started tournament round, set up by the
    laptop."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        laptop = app.test_client()
        assert laptop.post("/api/v1/unlock", json={"pin": PIN}).status_code == 200
        players = ["Anna", "Bert", "Clara", "Dora"]
        evening = laptop.post("/api/v1/evenings", json={"game": "troggen", "players": players})
        self.evening = int(evening.json["id"])
        hand = {"contract": "einfach", "bidder": "Anna", "points": 41}
        assert laptop.post(f"/api/v1/evenings/{self.evening}/hands", json=hand).status_code == 201
        self.group = int(laptop.post("/api/v1/groups", json={"name": "Runde"}).json["id"])
        laptop.put(f"/api/v1/evenings/{self.evening}/group", json={"group": self.group})
        self.member = laptop.get(f"/api/v1/groups/{self.group}").json["members"][0]["id"]
        self.tournament = create_tournament(laptop, rounds=2)
        from tests.web.tournaments.support import NAMES

        register(laptop, self.tournament, NAMES[:8])
        draw(laptop, self.tournament)
        table = start(laptop, self.tournament, 1)["tables"][0]
        self.table_evening, self.code = int(table["evening"]), str(table["code"])
        self.player = 1

    def caller(self, role: str) -> FlaskClient:
        """A device of ``role``."""
        client = self.app.test_client()
        if role != "laptop":
            client.environ_base["REMOTE_ADDR"] = HALL
        if role in ("PIN", "laptop"):
            assert client.post("/api/v1/unlock", json={"pin": PIN}).status_code == 200
        elif role == "table":
            assert client.post(f"/api/v1/tables/{self.code}/open").status_code == 200
        elif role == "organiser":
            login = {"password": PASSWORD}
            answer = client.post(f"/api/v1/tournaments/{self.tournament}/login", json=login)
            assert answer.status_code == 200
        return client

    def addresses(self, rule: str) -> list[tuple[str, bool | None]]:
        """``rule`` with its numbers filled in; an evening's rule once for the casual
        evening and once for the table's."""
        values: dict[str, Any] = {
            "tournament_id": self.tournament,
            "group_id": self.group,
            "member_id": self.member,
            "player_id": self.player,
            "number": 1,
            "code": self.code,
            "lang": "de",
        }

        def fill(evening: int | None) -> str:
            found = dict(values, evening_id=evening)
            return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(found[m.group(1)]), rule)

        if "<int:evening_id>" in rule:
            return [(fill(self.evening), False), (fill(self.table_evening), True)]
        return [(fill(None), None)]


def refused(answer: Any, kind: str) -> bool:
    """Whether the caller was refused: 401 (but at the public addresses, where it answers
    a wrong PIN, password or code), 403, or 409 for what a tournament fixes."""
    if answer.status_code == 403 or (answer.status_code == 401 and kind != PUBLIC_KIND):
        return True
    return answer.status_code == 409 and b"belongs to a tournament" in answer.get_data()


@pytest.mark.parametrize("role", ROLES)
def test_every_write_is_answered_as_the_table_of_roles_says(
    make_app: Callable[..., Flask], role: str
) -> None:
    expected = table_of_roles()
    app = make_app(ACCESS_PIN=PIN, WTF_CSRF_ENABLED=False)
    installation = Installation(app)
    caller = installation.caller(role)
    rules = [r for r in app.url_map.iter_rules() if (r.methods or set()) & WRITES]
    # Logging out last: it ends the organiser's login for the rest.
    rules.sort(key=lambda r: (r.endpoint == "tournaments.logout", r.rule))
    wrong = []
    for rule in rules:
        blueprint = rule.endpoint.split(".", 1)[0]
        for method in sorted((rule.methods or set()) & WRITES):
            for path, at_table in installation.addresses(rule.rule):
                kind = kind_of(rule.endpoint, blueprint, at_table)
                api = path.startswith("/api/")
                # Opening a table by its code (in the address) binds whoever sends it: sent
                # from a device of the same kind, so that the caller stays what it is.
                sender = installation.caller(role) if kind == PUBLIC_KIND else caller
                answer = sender.open(
                    path, method=method, json={} if api else None, data=None if api else {}
                )
                allowed = not refused(answer, kind)
                if allowed != expected[kind][role]:
                    wrong.append(f"{method} {path} ({kind}): {answer.status_code}")
    assert not wrong, "\n".join(wrong)
