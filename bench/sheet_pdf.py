"""Time the score sheet PDF of long evenings against WeasyPrint alone on a plain table.

For each game and table size, an evening of 200 and 1,000 hands (players named as people
are named) is built in a temporary SQLite database with a fixed seed. Then, alternating
run by run so a busy moment of the machine hits both alike:

- **our sheet**: what ``GET /evenings/<id>/sheet.pdf`` does when the sheet is not kept
  yet: read the evening (its replay kept, as in a worker), lay the sheet out as paper,
  render the template and WeasyPrint with the print styles (the 10,000-hand evening
  whole, although the app prints it in parts);
- **WeasyPrint alone**: an HTML ``<table>`` holding the sheet's own cell texts (every row
  of every table of our sheet, as text), with no stylesheet beyond ``@page`` and 8 pt
  type: the least any printout of those cells can cost.

It prints, per evening: hands, players, pages of our sheet and of the plain table, hands a
page, both times (best of three runs for 200 hands, one run for longer evenings) and
their ratio. The figures and the target (a ratio
of at most 2) are in bench/README.md.

Run from the checkout: ``.venv/bin/python bench/sheet_pdf.py`` (about 7 minutes on two
cores; ``--quick`` for 200 hands only, about 3; ``--long`` adds the 10,000-hand evening).
"""

from __future__ import annotations

import argparse
import io
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import weasyprint
from flask import Flask
from pypdf import PdfReader

from scorekeeper import create_app, operations
from scorekeeper.db.extensions import db
from scorekeeper.web.evenings.exports import sheet_html, sheet_pdf_bytes

RUNS = 3
NAMES = [
    "Annelies",
    "Bartholomäus",
    "Christine",
    "Dorothea",
    "Emmanuel",
    "Friederike",
    "Gottfried",
    "Hildegard",
]
LAST_TRICKS = ["none"] * 6 + ["pagat_won", "pagat_lost", "king_won", "king_lost"]


def troggen_hand(rnd: random.Random, players: list[str]) -> dict[str, Any]:
    """A plausible Troggen hand: a bid (with a partner at five and six) or a Misère."""
    if rnd.random() < 0.1:
        total = {4: 70, 5: 67, 6: 66}.get(len(players), 70)
        points = [rnd.randint(4, total // len(players)) for _ in players[:-1]]
        points.append(max(0, total - 8 - sum(points)))
        return {"contract": "misere", "points": dict(zip(players, points, strict=True))}
    bidder = rnd.choice(players)
    hand: dict[str, Any] = {
        "contract": rnd.choice(["einfach", "einfach", "doppelt", "ohne", "gegen"]),
        "bidder": bidder,
        "points": rnd.randint(15, 55),
        "last_trick": rnd.choice(LAST_TRICKS),
    }
    if len(players) >= 5:
        hand["partner"] = rnd.choice([None, *[p for p in players if p != bidder]])
    return hand


def doppen_hand(rnd: random.Random, players: list[str]) -> dict[str, Any]:
    """A plausible Doppen hand: a game of each kind, now and then everybody passes."""
    if rnd.random() < 0.05:
        return {"contract": "pass", "penalties": []}
    contract = rnd.choice(["dreier", "dreier", "unterer", "zweier", "einer", "solo"])
    return {"contract": contract, "soloist": rnd.choice(players), "points": rnd.randint(20, 55)}


def troggu_hand(rnd: random.Random, players: list[str]) -> dict[str, Any]:
    """A plausible Troggu (Visp) hand at eight: a declarer and the partner called."""
    declarer = rnd.choice(players)
    partner = rnd.choice([p for p in players if p != declarer])
    points = rnd.randint(40, 90)
    return {"contract": "normal", "declarer": declarer, "partner": partner, "points": points}


@dataclass(frozen=True)
class Case:
    """An evening to print."""

    game: str
    variant: str | None
    players: int
    hands: int
    make: Callable[[random.Random, list[str]], dict[str, Any]]

    @property
    def label(self) -> str:
        return f"{self.game}{'/' + self.variant if self.variant else ''}"


def cases(quick: bool, long: bool) -> list[Case]:
    """Troggen at 4 and 6, Doppen at 3 and 4, Troggu Visp at 8; 200 and 1,000 hands each."""
    shapes = [
        ("troggen", None, 4, troggen_hand),
        ("troggen", None, 6, troggen_hand),
        ("doppen", None, 3, doppen_hand),
        ("doppen", None, 4, doppen_hand),
        ("troggu", "visp", 8, troggu_hand),
    ]
    found = [
        Case(game, variant, players, hands, make)
        for hands in ((200,) if quick else (200, 1000))
        for game, variant, players, make in shapes
    ]
    if long:
        found.append(Case("troggen", None, 4, 10_000, troggen_hand))
    return found


def build(app: Flask, case: Case) -> int:
    """The evening of ``case``, through the API."""
    client = app.test_client()
    body: dict[str, Any] = {
        "game": case.game,
        "players": NAMES[: case.players],
        "title": "Benchmark",
        "language": "de",
    }
    if case.variant:
        body["variant"] = case.variant
    response = client.post("/api/v1/evenings", json=body)
    assert response.status_code == 201, response.json
    evening = int(response.json["id"])
    rnd = random.Random(2015 + case.players)
    players: list[str] = body["players"]
    sits_out = case.game == "doppen" and case.players == 4  # the dealer sits out
    for _ in range(case.hands):
        seated = players
        if sits_out:
            dealer = client.get(f"/api/v1/evenings/{evening}").json["next_dealer"]
            seated = [p for p in players if p != dealer]
        answer = client.post(f"/api/v1/evenings/{evening}/hands", json=case.make(rnd, seated))
        assert answer.status_code == 201, answer.json
    return evening


class Cells(HTMLParser):
    """Every row of every table of an HTML page, as the texts of its cells."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th") and self.rows:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def plain_table(html: str) -> str:
    """The sheet's cell texts as one plain table: only ``@page`` and 8 pt type."""
    parser = Cells()
    parser.feed(html)
    width = max(len(row) for row in parser.rows)
    rows = "".join(
        "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row + [""] * (width - len(row))) + "</tr>"
        for row in parser.rows
        if row
    )
    page = "@page { size: A4; margin: 12mm } body { font: 8pt 'DejaVu Sans', sans-serif }"
    return f"<html><head><style>{page}</style></head><body><table>{rows}</table></body></html>"


def best_of(
    fn: Callable[[], bytes], other: Callable[[], bytes], runs: int
) -> tuple[float, float, bytes, bytes]:
    """The best wall time of each, run alternately, and what each printed."""
    times: tuple[list[float], list[float]] = ([], [])
    printed = [b"", b""]
    for _ in range(runs):
        for index, (run, into) in enumerate(((fn, times[0]), (other, times[1]))):
            start = time.perf_counter()
            printed[index] = run()
            into.append(time.perf_counter() - start)
    return min(times[0]), min(times[1]), printed[0], printed[1]


def pages(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def measure(app: Flask, case: Case) -> str:
    """One line of the table for ``case``."""
    evening_id = build(app, case)
    with app.test_request_context():
        current = operations.current_view(evening_id)
        assert current is not None
        html = sheet_html(current)
        plain = plain_table(html)

        def library() -> bytes:
            return bytes(weasyprint.HTML(string=plain).write_pdf())

        def ours() -> bytes:
            # As a print worker asks: the evening as kept, brought up to date by its stamp.
            db.session.expire_all()
            loaded = operations.current_view(evening_id)
            assert loaded is not None
            return sheet_pdf_bytes(loaded)

        # Short evenings: a warm-up of both, then the best of RUNS. Long ones take minutes
        # a run: once each, the fonts and caches warm from the short ones before.
        short = case.hands <= 200
        if short:
            ours(), library()
        our_time, plain_time, ours_pdf, plain_pdf = best_of(ours, library, RUNS if short else 1)
    our_pages = pages(ours_pdf)
    return (
        f"| {case.label} | {case.players} | {case.hands:,} | {our_pages} | "
        f"{case.hands / our_pages:.0f} | {pages(plain_pdf)} | {our_time:.1f} s | "
        f"{plain_time:.1f} s | {our_time / plain_time:.1f} |"
    )


def main() -> None:
    """Build each evening, then time both in the same process."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="200 hands only")
    parser.add_argument("--long", action="store_true", help="also the 10,000-hand evening")
    asked = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="sheet-bench-"))
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite'}"}, instance_path=str(folder)
    )
    print(f"score sheet against WeasyPrint alone on its cells, best of {RUNS} runs each")
    print()
    print("| game | players | hands | pages | hands a page | plain pages | ours | plain | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case in cases(asked.quick, asked.long):
        print(measure(app, case), flush=True)


if __name__ == "__main__":
    main()
