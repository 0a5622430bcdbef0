"""Keys a paper score sheet takes to type back in, counted in a real browser.

For each game at its usual tables, 40 hands are drawn as ``sheet_pdf.py`` draws them
(Misères included: one in ten of Troggen's) and written as the printed sheet writes them
(``core/sheet_codes.py``). A script then types each line into the page for typing a paper
sheet back in (``/evenings/<id>/paper``, Debian's Chromium, ``static/paper.js``) the way
a person reading the paper would: each column's code as printed (its dots and spaces left
out, two players' codes one after the other, a Misère's points in seat order), Tab where
the cursor did not move on by itself, Enter to end the line. Every keystroke is counted.
Then "Save all" stores the 40 lines in one save, and the evening must hold exactly the
hands drawn, paying the same as the same hands recorded at the table (docs/recording.md
"Back from paper"). Target: at most 10 keys a hand on average, at most 8 for the hands
that are not a Misère.

    .venv/bin/python bench/sheet_entry_keys.py
"""

from __future__ import annotations

import logging
import random
import statistics
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from sheet_pdf import NAMES, doppen_hand, troggen_hand, troggu_hand  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.core.sheet_codes import CODERS, player_codes  # noqa: E402
from scorekeeper.core.sheet_entry import plain  # noqa: E402

HANDS = 40
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
COLUMNS = ("contract", "who", "points", "extra")


@dataclass(frozen=True)
class Case:
    """A game at a table size, and how its hands are drawn."""

    game: str
    variant: str | None
    players: int
    make: Callable[[random.Random, list[str]], dict[str, Any]]


CASES = [
    Case("troggen", None, 4, troggen_hand),
    Case("troggen", None, 6, troggen_hand),
    Case("doppen", None, 3, doppen_hand),
    Case("doppen", None, 4, doppen_hand),
    Case("troggu", "visp", 8, troggu_hand),
]


def typed(text: str) -> str:
    """A column's printed code as a hand types it: no dots or spaces, a keyboard's signs,
    two players' codes one after the other (``A/C`` as ``ac``, which the page reads so)."""
    return plain(text).replace(" ", "").replace("/", "")


def line_of(game: str, facts: dict[str, Any], known: list[str], seated: list[str]) -> list[str]:
    """What a person types in each fact column for ``facts``."""
    codes = CODERS[game](facts, player_codes(known))
    if codes.spread:  # a Misère: the points in seat order, the Talon's after them
        said = facts["points"]
        numbers = [str(said[p]) for p in seated]
        aside = facts.get("talon_points", facts.get("tapp_points"))
        return [
            typed(codes.contract),
            " ".join([*numbers, *([str(aside)] if aside else [])]),
            "",
            "",
        ]
    return [typed(codes.contract), typed(codes.who), typed(codes.points), typed(codes.extra)]


def focused(page: Page) -> tuple[int, str] | None:
    """The line and column the cursor is in."""
    found = page.evaluate(
        """() => { const input = document.activeElement;
        const row = input && input.closest("tr.paper-line");
        const cell = input && input.closest("td");
        return row && cell ? [parseInt(row.dataset.line, 10), cell.className] : null; }"""
    )
    if not found:
        return None
    return found[0], found[1].removeprefix("paper-")


def type_line(page: Page, index: int, line: list[str]) -> int:
    """Type one line from its game column on; the keys pressed."""
    keys = 0
    last = max(i for i, text in enumerate(line) if text)
    for at, text in enumerate(line[: last + 1]):
        while focused(page) != (index, COLUMNS[at]):
            page.keyboard.press("Tab")
            keys += 1
            assert keys < 40, f"the cursor is lost at line {index}"
        if text:
            page.keyboard.type(text)
            keys += len(text)
    if focused(page) != (index + 1, "contract"):
        page.keyboard.press("Enter")
        keys += 1
    assert focused(page) == (index + 1, "contract"), f"line {index} did not end"
    return keys


def measure(page: Page, base: str, client: Any, case: Case) -> tuple[list[int], list[int], bool]:
    """Type ``HANDS`` drawn hands into a new evening; keys per hand (all, not Misère),
    and whether the evening then pays as the same hands at the table."""
    body: dict[str, Any] = {"game": case.game, "players": NAMES[: case.players]}
    if case.variant:
        body["variant"] = case.variant
    paper = client.post("/api/v1/evenings", json=body).json["id"]
    table = client.post("/api/v1/evenings", json=body).json["id"]
    rnd = random.Random(2015 + case.players)
    players: list[str] = body["players"]
    lines = []
    misere = []
    for _ in range(HANDS):
        seated = players
        if case.game == "doppen" and case.players == 4:
            dealer = client.get(f"/api/v1/evenings/{table}").json["next_dealer"]
            seated = [p for p in players if p != dealer]
        facts = case.make(rnd, seated)
        answer = client.post(f"/api/v1/evenings/{table}/hands", json=facts)
        assert answer.status_code == 201, answer.json
        lines.append(line_of(case.game, facts, players, players))
        misere.append(facts.get("contract") == "misere")
    page.goto(f"{base}/evenings/{paper}/paper")
    keys = [type_line(page, i, line) for i, line in enumerate(lines)]
    with page.expect_navigation():
        page.click("button[value=save]")
    shown = client.get(f"/api/v1/evenings/{paper}").json
    at_table = client.get(f"/api/v1/evenings/{table}").json
    same = [h["deltas"] for h in shown["hands"]] == [h["deltas"] for h in at_table["hands"]]
    plain_keys = [k for k, m in zip(keys, misere, strict=True) if not m]
    return keys, plain_keys, same and len(shown["hands"]) == HANDS


def main() -> None:
    """Serve the app on this machine, type every case, print the keys per hand."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    folder = tempfile.mkdtemp(prefix="paper-keys-")
    app = create_app({"DATABASE_URL": f"sqlite:///{folder}/keys.sqlite"}, instance_path=folder)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    client = app.test_client()
    print(f"{HANDS} hands a game, typed into the paper page; keys per hand")
    print()
    print("| game | players | all hands | not a Misère | Misères | stored as at the table |")
    print("|---|---|---|---|---|---|")
    totals: list[int] = []
    plain_totals: list[int] = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1024, "height": 768}, locale="de-CH")
        for case in CASES:
            keys, plain_keys, same = measure(page, base, client, case)
            totals += keys
            plain_totals += plain_keys
            label = f"{case.game}{'/' + case.variant if case.variant else ''}"
            print(
                f"| {label} | {case.players} | {statistics.mean(keys):.1f} | "
                f"{statistics.mean(plain_keys):.1f} | {len(keys) - len(plain_keys)} | "
                f"{'yes' if same else 'NO'} |",
                flush=True,
            )
        browser.close()
    server.shutdown()
    print()
    print(
        f"all: {statistics.mean(totals):.1f} keys a hand (target 10), "
        f"{statistics.mean(plain_totals):.1f} without the Misères (target 8)"
    )


if __name__ == "__main__":
    main()
