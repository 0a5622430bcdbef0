"""How long a club's season table and a member's page take, against loading their hands.

A club of 12 players meets 50 evenings a year for 5 years, 60 Troggen hands an evening
(15,000 hands), each evening 4 to 6 of them at the table. The benchmark builds that club
in a SQLite database (through the app's own archive import), then asks the JSON API for:

* the season table of all 5 years and of the last year alone (the growth from 1 to 5
  years: linear is x 5);
* a member's page (every evening, the running result, every figure) over the same ranges;

each cold (no evening replayed yet by this process: what the first visitor after a start
waits for) and warm (asked again), next to the bare cost of loading the same hand inputs:
one query for the inputs of the group's hands and ``json.loads`` of each.

Run from the checkout: ``.venv/bin/python bench/club.py`` (bench/README.md; about a minute).
"""

from __future__ import annotations

import gc
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.db.extensions import db
from scorekeeper.db.kept import forget_all

SEED = 2026
CLUB = ("Anna", "Bert", "Clara", "Dora", "Emil", "Fritz", "Gabi", "Hans", "Ida", "Jonas",
        "Karl", "Lena")  # fmt: skip
YEARS, EVENINGS_A_YEAR, HANDS = 5, 50, 60
FIRST_YEAR = 2022
CONTRACTS = ("einfach", "einfach", "einfach", "doppelt", "doppelt", "ohne", "gegen")
EVENTS = ("none",) * 12 + ("pagat_won", "pagat_lost", "king_won", "king_lost")
#: Card points in a Misère by the table's size, less what the talon may hold (docs/troggen.md).
TOTAL = {4: (70, 24), 5: (67, 12), 6: (64, 24)}
WARM_RUNS = 5
TARGET_WARM_MS, TARGET_COLD_MS = 300.0, 3000.0


def bid(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """A bid hand with counted points; a partner at five and six players."""
    bidder = rng.choice(players)
    facts: dict[str, Any] = {"contract": rng.choice(CONTRACTS), "bidder": bidder}
    if len(players) > 4:
        others = [p for p in players if p != bidder]
        facts["partner"] = rng.choice(others) if rng.random() < 0.8 else None
    event = rng.choice(EVENTS)
    low = 5 if event.endswith("_won") else 0
    facts["points"] = rng.randint(max(low, 15), 55)
    facts["last_trick"] = event
    return facts


def misere(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """A Misère whose points add up exactly (the talon holding some)."""
    total, talon_max = TOTAL[len(players)]
    talon = rng.randint(0, talon_max)
    cuts = sorted(rng.randint(0, total - talon) for _ in players[1:])
    points = [b - a for a, b in zip([0, *cuts], [*cuts, total - talon], strict=True)]
    return {"contract": "misere", "points": dict(zip(players, points, strict=True)),
            "talon_points": talon}  # fmt: skip


def archive(template: dict[str, Any], rng: random.Random, day: date, n: int) -> dict[str, Any]:
    """Evening ``n`` of the club: its table drawn from the club, 60 hands played."""
    players = rng.sample(CLUB, rng.choice((4, 5, 5, 6)))
    at = datetime(day.year, day.month, day.day, 19, tzinfo=UTC)
    stamp = at.isoformat().replace("+00:00", "Z")
    data = json.loads(json.dumps(template))
    data["evening"].update(date=day.isoformat(), title=f"Abend {n}", created_at=stamp)
    settings = data["settings_revisions"][0]
    settings.update(at=stamp)
    settings["settings"].update(date=day.isoformat(), title=f"Abend {n}", first_dealer=players[0])
    data["settings_revisions"] = [settings]
    data["seatings"] = [
        {"from_hand": 1, "players": players, "dealer": players[0], "created_at": stamp}
    ]
    hands = []
    for number in range(1, HANDS + 1):
        facts = misere(rng, players) if rng.random() < 0.1 else bid(rng, players)
        when = (at + timedelta(minutes=3 * number)).isoformat().replace("+00:00", "Z")
        version = {"version": 1, "input": facts, "void_reason": None, "at": when,
                   "source": "page", "correction": None}  # fmt: skip
        dealer = players[(number - 1) % len(players)]
        hands.append({"number": number, "dealer": dealer, "input": facts, "void_reason": None,
                      "created_at": when, "revisions": [version]})  # fmt: skip
    data["hands"] = hands
    data["group"] = {"name": "Donnerstagsrunde", "members": {p: p for p in players}}
    return data


def build(app: Flask) -> tuple[int, int]:
    """The club's 250 evenings, imported; the group's and Anna's member numbers."""
    client = app.test_client()
    first = client.post(
        "/api/v1/evenings",
        json={"game": "troggen", "players": list(CLUB[:4]), "options": {"currency": "CHF"}},
    ).json["id"]
    template = client.get(f"/api/v1/evenings/{first}/export").json
    client.post(f"/api/v1/evenings/{first}/close")
    rng = random.Random(SEED)
    n = 0
    for year in range(FIRST_YEAR, FIRST_YEAR + YEARS):
        day = date(year, 1, 8)
        for _ in range(EVENINGS_A_YEAR):
            n += 1
            answer = client.post("/api/v1/evenings/import", json=archive(template, rng, day, n))
            assert answer.status_code == 201, answer.json
            day += timedelta(days=7)
    (group,) = client.get("/api/v1/groups").json["groups"]
    members = client.get(f"/api/v1/groups/{group['id']}").json["members"]
    anna = next(m["id"] for m in members if m["name"] == "Anna")
    return group["id"], anna


def timed(run: Callable[[], object]) -> float:
    """One run in milliseconds, the collector paused as timeit does."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        run()
        return (time.perf_counter() - start) * 1000
    finally:
        gc.enable()


def bare(app: Flask, group: int, start: date, end: date) -> Callable[[], object]:
    """Loading the inputs of the group's hands in the range, and parsing each."""
    query = text(
        "SELECT hand.input FROM hand JOIN evening ON evening.id = hand.evening_id "
        "JOIN group_evening ON group_evening.evening_id = evening.id "
        "WHERE group_evening.group_id = :group AND evening.date BETWEEN :start AND :end"
    )

    def run() -> object:
        with app.app_context(), db.engine.connect() as connection:
            rows = connection.execute(query, {"group": group, "start": start, "end": end})
            return [json.loads(r[0]) if isinstance(r[0], str) else r[0] for r in rows]

    return run


def asking(app: Flask, path: str) -> Callable[[], object]:
    """A GET of the API as the serving laptop asks it."""
    client = app.test_client()

    def run() -> object:
        answer = client.get(path)
        assert answer.status_code == 200, answer.json
        return answer.json

    return run


def forget(app: Flask) -> None:
    """No evening replayed yet: as a worker just started."""
    forget_all(app)


def main() -> None:
    """Build the club, then print each figure and the growth from 1 to 5 years."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'club.sqlite'}"
        app = create_app({"DATABASE_URL": url}, instance_path=folder)
        started = time.perf_counter()
        group, anna = build(app)
        print(f"built {YEARS * EVENINGS_A_YEAR} evenings of {HANDS} hands "
              f"({YEARS * EVENINGS_A_YEAR * HANDS:,} hands) in "
              f"{time.perf_counter() - started:.0f} s")  # fmt: skip
        last = FIRST_YEAR + YEARS - 1
        ranges = {"1 year": (date(last, 1, 1), date(last, 12, 31)),
                  f"{YEARS} years": (date(FIRST_YEAR, 1, 1), date(last, 12, 31))}  # fmt: skip
        print(f"{'':<22}{'bare':>9}{'cold':>9}{'warm':>9}  ms (warm: best of {WARM_RUNS})")
        figures: dict[tuple[str, str], float] = {}
        for label, (start, end) in ranges.items():
            span = f"?from={start.isoformat()}&to={end.isoformat()}"
            pages = {
                "season table": f"/api/v1/groups/{group}/season{span}",
                "member page": f"/api/v1/groups/{group}/members/{anna}/statistics{span}",
            }
            base = min(timed(bare(app, group, start, end)) for _ in range(WARM_RUNS))
            for name, path in pages.items():
                forget(app)
                cold = timed(asking(app, path))
                warm = min(timed(asking(app, path)) for _ in range(WARM_RUNS))
                figures[name, label] = warm
                figures[name + " cold", label] = cold
                print(f"{name + ', ' + label:<22}{base:>9.1f}{cold:>9.1f}{warm:>9.1f}")
        for name in ("season table", "member page"):
            for kind in ("", " cold"):
                grow = figures[name + kind, f"{YEARS} years"] / figures[name + kind, "1 year"]
                print(f"{name}{kind or ' warm'}: {YEARS} years / 1 year x {grow:.1f} "
                      f"(linear is x {YEARS})")  # fmt: skip
        worst_warm = max(v for (n, _), v in figures.items() if not n.endswith("cold"))
        worst_cold = max(v for (n, _), v in figures.items() if n.endswith("cold"))
        print(f"slowest warm {worst_warm:.0f} ms (target {TARGET_WARM_MS:.0f}), "
              f"slowest cold {worst_cold:.0f} ms (target {TARGET_COLD_MS:.0f})")  # fmt: skip


if __name__ == "__main__":
    main()
