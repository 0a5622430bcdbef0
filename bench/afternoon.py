"""A museum afternoon over HTTP: do the tablets stay quick while the hall is busy?

A tournament of ``--players`` (200) Troggen players over ``--rounds`` (3) rounds, played
against the real server (``scripts/start``: nginx before the workers, on a temporary
SQLite database), every request over HTTP on loopback:

- **tablets**, one a table (50 at 200 players), each on its own kept-alive connection with
  its own cookies as a browser has: it opens its table from the table card's address
  (``/t/<code>``), then for every hand the round asks waits 0.5-2 s (the hand being
  played), saves the hand with the table screen's form (CSRF token, request token,
  expected number and seats, all read from the page) and reloads the table screen;
- **3 projectors** showing the hall's board (``/tournaments/<id>/screen``) every 5 s;
- **the organiser's board** (``/tournaments/<id>``, logged in) every 3 s;
- **mid-round printouts**: 3 s into each round the organiser prints the round's seating
  list and the standings (PDFs).

Each round is drawn, started and, once every table has played its hands, closed through
the API with the organiser's token. At the end every hand is read back through the API
and compared with what its tablet saved: each stored once, under its number, with the
points the tablet sent.

It prints, per kind of request, how many were made and the p50/p95/p99/max wait in
milliseconds, and whether the tablets' p99 stays under 500 ms (``docs/server.md``). Any
answer but the expected one counts as an error and is listed; the script exits non-zero
if there was any, or if a hand is missing or doubled.

    .venv/bin/python bench/afternoon.py                   # 200 players, 3 rounds
    .venv/bin/python bench/afternoon.py --players 40 --rounds 1 --think 0.1 0.3

``run_afternoon`` is also used by ``tests/live/test_afternoon.py``, which checks on a
small hall that everything is answered (not how fast).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from slow_clients import server_options, serving  # noqa: E402

PASSWORD = "afternoon-password"
#: Target for the tablets' requests (saving a hand, reloading the table screen).
TARGET_P99_MS = 500.0
#: A request not answered within this long counts as an error.
PATIENCE = 30.0
PROJECTORS = 3
PROJECTOR_SECONDS = 5.0
BOARD_SECONDS = 3.0
PRINT_AFTER_SECONDS = 3.0
CONTRACTS = ("einfach", "einfach", "einfach", "doppelt", "doppelt", "ohne", "gegen")
LAST_TRICK = ("none",) * 12 + ("pagat_won", "pagat_lost", "king_won", "king_lost")
HIDDEN = re.compile(r'<input[^>]*type="hidden"[^>]*>')
NAME = re.compile(r'name="([^"]+)"')
VALUE = re.compile(r'value="([^"]*)"')
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
TABLETS = ("tablet: open the table", "tablet: save a hand", "tablet: table screen")


@dataclass
class Record:
    """Every request's wait by kind, and what went wrong."""

    waits: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.waits[kind].append(seconds)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


class Client:
    """One device: a kept-alive connection and its own cookies, like a browser tab, from
    an address of its own (``device``: 127.0.<device // 250 + 1>.<device % 250 + 1>), as
    the hall's devices each have theirs: the attempt limits count per address."""

    def __init__(self, port: int, record: Record, device: int = -1) -> None:
        self.origin = f"http://127.0.0.1:{port}"
        self.record = record
        self.cookies: dict[str, str] = {}
        source = ("127.0.0.1" if device < 0 else f"127.0.{device // 250 + 1}.{device % 250 + 1}", 0)
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=PATIENCE, source_address=source
        )

    def call(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        body: object = None,
        token: str | None = None,
        expect: int = 200,
    ) -> tuple[int, dict[str, str], bytes]:
        """One request, timed under ``kind``; an unexpected answer is recorded as an error.
        A connection the server closed between requests is opened again once, as a
        browser does (the retry is part of the wait)."""
        headers = {"Origin": self.origin} if method != "GET" else {}
        data = None
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        start = time.perf_counter()
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                answer = self.connection.getresponse()
                content = answer.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.connection.close()
                if attempt == 2:
                    self.record.error(f"{kind}: {method} {path}: connection closed")
                    return 0, {}, b""
            except OSError as error:
                self.connection.close()
                self.record.error(f"{kind}: {method} {path}: {error}")
                return 0, {}, b""
        self.record.add(kind, time.perf_counter() - start)
        for value in answer.headers.get_all("Set-Cookie") or []:
            pair = value.split(";", 1)[0]
            name, _, cookie = pair.partition("=")
            self.cookies[name.strip()] = cookie.strip()
        if answer.status != expect:
            self.record.error(f"{kind}: {method} {path}: {answer.status} {content[:200]!r}")
        return answer.status, dict(answer.headers), content

    def close(self) -> None:
        self.connection.close()


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden fields of the hand form on a table screen (the last of a name wins)."""
    form = page[page.find('class="hand-form"') :]
    fields = {}
    for tag in HIDDEN.findall(form):
        name, value = NAME.search(tag), VALUE.search(tag)
        if name is not None and value is not None:
            fields[name.group(1)] = unescape(value.group(1))
    return fields


def troggen_hand(rng: random.Random, players: list[str]) -> dict[str, str]:
    """A bid with counted points, as the form sends it."""
    last = rng.choice(LAST_TRICK)
    return {
        "contract": rng.choice(CONTRACTS),
        "bidder": rng.choice(players),
        "result": "points",
        "points": str(rng.randint(5 if last.endswith("_won") else 15, 55)),
        "last_trick": last,
    }


@dataclass
class Saved:
    """What a tablet saved: evening, number and the facts it sent."""

    evening: int
    number: int
    facts: dict[str, str]


def tablet(
    port: int,
    record: Record,
    table: dict[str, Any],
    device: int,
    think: tuple[float, float],
    seed: int,
    saved: list[Saved],
) -> None:
    """One table's tablet through a round: open the table, then save and reload."""
    rng = random.Random(seed)
    client = Client(port, record, device)
    players = [p["name"] for p in table["players"]]
    screen = f"/evenings/{table['evening']}"
    try:
        status, _, _ = client.call(
            "tablet: open the table", "GET", f"/t/{table['code']}", expect=303
        )
        if status != 303:
            return
        status, _, page = client.call("tablet: table screen", "GET", screen)
        for _ in range(table["hands_due"]):
            if status != 200:
                return
            time.sleep(rng.uniform(*think))
            fields = hidden_fields(page.decode())
            facts = troggen_hand(rng, players)
            number = int(fields["number"])
            status, _, _ = client.call(
                "tablet: save a hand",
                "POST",
                f"{screen}/hands",
                form={**fields, **facts},
                expect=303,
            )
            if status != 303:
                return
            saved.append(Saved(table["evening"], number, facts))
            status, _, page = client.call("tablet: table screen", "GET", screen)
    finally:
        client.close()


def watch(client: Client, kind: str, path: str, seconds: float, stop: threading.Event) -> None:
    """A screen that reloads ``path`` every ``seconds`` until ``stop``."""
    try:
        while not stop.is_set():
            client.call(kind, "GET", path)
            stop.wait(seconds)
    finally:
        client.close()


@dataclass
class Afternoon:
    """What an afternoon left: the waits, the errors and the hands' check."""

    record: Record
    hands_saved: int
    hands_stored: int
    mismatches: list[str]


def run_afternoon(
    port: int,
    *,
    players: int = 200,
    rounds: int = 3,
    think: tuple[float, float] = (0.5, 2.0),
    seed: int = 20251,
) -> Afternoon:
    """Play the afternoon against the server on ``port`` (see the module's docstring)."""
    record = Record()
    organiser = Client(port, record)
    body = {
        "name": "Museumsnachmittag",
        "game": "troggen",
        "rounds": rounds,
        "deals_per_player": 2,
        "password": PASSWORD,
    }
    _, _, created = organiser.call("setup", "POST", "/api/v1/tournaments", body=body, expect=201)
    tournament = json.loads(created)
    tid, token = int(tournament["id"]), str(tournament["token"])
    api = f"/api/v1/tournaments/{tid}"
    for number in range(1, players + 1):
        entrant = {"name": f"Spielerin {number:03}", "club": "Solothurn"}
        organiser.call("setup", "POST", f"{api}/entrants", body=entrant, token=token, expect=201)
    # The organiser's board in a browser: logged in with the password on the page.
    login = f"/tournaments/{tid}/login"
    _, _, page = organiser.call("setup", "GET", login)
    csrf = CSRF.search(page.decode())
    assert csrf is not None, "the login page has no form"
    organiser.call(
        "setup", "POST", login, form={"csrf_token": csrf.group(1), "password": PASSWORD}, expect=303
    )

    stop = threading.Event()
    board = Client(port, record)
    board.cookies = dict(organiser.cookies)
    watching = [
        *(
            (Client(port, record), "projector", f"/tournaments/{tid}/screen", PROJECTOR_SECONDS)
            for _ in range(PROJECTORS)
        ),
        (board, "organiser's board", f"/tournaments/{tid}", BOARD_SECONDS),
    ]
    watchers = [threading.Thread(target=watch, args=(*w, stop)) for w in watching]
    for watcher in watchers:
        watcher.start()
    saved: list[Saved] = []
    evenings: list[int] = []
    try:
        for number in range(1, rounds + 1):
            organiser.call("draw", "POST", f"{api}/rounds", token=token, expect=201)
            status, _, started = organiser.call(
                "start", "POST", f"{api}/rounds/{number}/start", token=token
            )
            if status != 200:
                break  # recorded as an error: the draw or the start was refused
            tables = json.loads(started)["tables"]
            evenings += [t["evening"] for t in tables]
            threads = [
                threading.Thread(
                    target=tablet,
                    args=(port, record, t, i, think, seed * 1000 + number * 100 + i, saved),
                )
                for i, t in enumerate(tables)
            ]
            for thread in threads:
                thread.start()
            time.sleep(PRINT_AFTER_SECONDS)
            pdfs = f"/tournaments/{tid}"
            organiser.call("printout: seating list", "GET", f"{pdfs}/rounds/{number}/seating.pdf")
            organiser.call("printout: standings", "GET", f"{pdfs}/standings.pdf")
            for thread in threads:
                thread.join()
            organiser.call("close", "POST", f"{api}/rounds/{number}/close", token=token)
    finally:
        stop.set()
        for watcher in watchers:
            watcher.join()
    stored, mismatches = check(organiser, evenings, saved)
    organiser.close()
    return Afternoon(record, len(saved), stored, mismatches)


def check(client: Client, evenings: list[int], saved: list[Saved]) -> tuple[int, list[str]]:
    """Every hand as stored against what its tablet saved: the count and the differences."""
    sent = {(s.evening, s.number): s.facts for s in saved}
    stored = 0
    mismatches = []
    for evening in evenings:
        _, _, content = client.call("check", "GET", f"/api/v1/evenings/{evening}")
        for hand in json.loads(content)["hands"]:
            stored += 1
            facts = sent.get((evening, hand["number"]))
            given = hand["input"]
            if facts is None:
                mismatches.append(f"evening {evening}: hand {hand['number']} was not saved")
            elif any(str(given.get(k)) != v for k, v in facts.items() if k != "result"):
                mismatches.append(f"evening {evening}: hand {hand['number']}: {given} != {facts}")
    if stored != len(saved):
        mismatches.append(f"{len(saved)} hands saved, {stored} stored")
    return stored, mismatches


def percentile(waits: list[float], share: float) -> float:
    """The wait below which ``share`` of them fall (nearest rank), in milliseconds."""
    ordered = sorted(waits)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))] * 1000


def table(record: Record) -> list[str]:
    """The results table: per kind, the count and p50/p95/p99/max in milliseconds."""
    lines = [f"{'request':<28} {'count':>6} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}"]
    for kind, waits in sorted(record.waits.items()):
        if not waits:
            continue
        figures = " ".join(f"{percentile(waits, s):7.0f}" for s in (0.5, 0.95, 0.99, 1.0))
        lines.append(f"{kind:<28} {len(waits):>6} {figures}")
    tablets = [w for kind in TABLETS for w in record.waits.get(kind, [])]
    if tablets:
        p99 = percentile(tablets, 0.99)
        verdict = "within" if p99 < TARGET_P99_MS else "OVER"
        lines.append(
            f"tablets (open, save, screen): p99 {p99:.0f} ms, "
            f"median {statistics.median(tablets) * 1000:.0f} ms, "
            f"{verdict} the {TARGET_P99_MS:.0f} ms target"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 2.0), metavar=("MIN", "MAX"))
    server_options(parser)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        serving([args.start], Path(tmp), args.workers, args.database) as port,
    ):
        began = time.monotonic()
        afternoon = run_afternoon(
            port, players=args.players, rounds=args.rounds, think=tuple(args.think)
        )
        took = time.monotonic() - began
    print(
        f"{args.players} players, {args.rounds} rounds, {args.players // 4} tablets, "
        f"{args.workers} workers, think {args.think[0]:g}-{args.think[1]:g} s; {took:.0f} s"
    )
    for line in table(afternoon.record):
        print(line)
    print(
        f"hands: {afternoon.hands_saved} saved, {afternoon.hands_stored} stored, "
        f"{len(afternoon.mismatches)} differences; {len(afternoon.record.errors)} errors"
    )
    for problem in (afternoon.record.errors + afternoon.mismatches)[:20]:
        print("  " + problem)
    if afternoon.record.errors or afternoon.mismatches:
        sys.exit(1)


if __name__ == "__main__":
    main()
