"""Time the score sheet PDF of a 200-hand evening against WeasyPrint alone.

Our export loads the evening, replays it, draws the chart, renders the template and hands
the HTML to WeasyPrint. The baseline is WeasyPrint alone on the same, already rendered HTML
with the same stylesheet: the library's own cost. The difference is our overhead.

Run from the checkout: ``.venv/bin/python bench/sheet_pdf.py``
"""

from __future__ import annotations

import io
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import weasyprint
from flask import render_template
from flask_babel import force_locale
from pypdf import PdfReader

from scorekeeper import create_app, operations
from scorekeeper.core.rules import get_variant
from scorekeeper.db.extensions import db
from scorekeeper.web.blueprints.exports import sheet_pdf_bytes
from scorekeeper.web.hand_forms import hand_form
from scorekeeper.web.presentation import chart

HANDS = 200
RUNS = 5
PLAYERS = ["Anna", "Bert", "Clara", "Dora", "Emil"]
CONTRACTS = ["einfach", "einfach", "doppelt", "ohne", "gegen"]


def hand(rnd: random.Random) -> dict[str, object]:
    """A plausible hand of a five-player table."""
    if rnd.random() < 0.12:
        points = [rnd.randint(6, 20) for _ in PLAYERS[:-1]]
        points.append(max(0, 67 - sum(points)))
        return {"contract": "misere", "points": dict(zip(PLAYERS, points, strict=True))}
    bidder = rnd.choice(PLAYERS)
    partner = rnd.choice([None, *[p for p in PLAYERS if p != bidder]])
    last = rnd.choice(["none"] * 6 + ["pagat_won", "pagat_lost", "king_won", "king_lost"])
    return {
        "contract": rnd.choice(CONTRACTS),
        "bidder": bidder,
        "partner": partner,
        "points": rnd.randint(12, 60),
        "last_trick": last,
    }


def interleaved(
    first: Callable[[], object], second: Callable[[], object], runs: int
) -> tuple[list[float], list[float]]:
    """Wall times of both, alternating, so a busy moment of the machine hits both alike."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for fn, into in ((first, times[0]), (second, times[1])):
            start = time.perf_counter()
            fn()
            into.append(time.perf_counter() - start)
    return times


def main() -> None:
    """Build the evening, then time both in the same process, interleaved."""
    folder = Path(tempfile.mkdtemp(prefix="sheet-bench-"))
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite'}"}, instance_path=str(folder)
    )
    client = app.test_client()
    evening_id = client.post(
        "/api/v1/evenings",
        json={"game": "troggen", "players": PLAYERS, "title": "Benchmark", "language": "de"},
    ).json["id"]
    rnd = random.Random(2015)
    for _ in range(HANDS):
        response = client.post(f"/api/v1/evenings/{evening_id}/hands", json=hand(rnd))
        assert response.status_code == 201, response.json

    with app.test_request_context():
        evening = operations.get_evening(evening_id)
        assert evening is not None
        current = operations.view(evening)
        with force_locale("de"):
            html = render_template(
                "pdf/sheet.html",
                current=current,
                hands={h.number: h for h in evening.hands},
                sheet_macros=hand_form(get_variant(evening.game, evening.variant)).sheet_macros,
                chart=chart(current, current.settlement()),
            )
        css = weasyprint.CSS(filename=Path(app.static_folder or "static") / "print.css")
        static = str(app.static_folder)

        def library() -> bytes:
            return bytes(weasyprint.HTML(string=html, base_url=static).write_pdf(stylesheets=[css]))

        def ours() -> bytes:
            db.session.expire_all()
            loaded = operations.get_evening(evening_id)
            assert loaded is not None
            return sheet_pdf_bytes(loaded)

        library()  # warm up fonts and caches for both
        ours()
        lib_times, our_times = interleaved(library, ours, RUNS)
        pages = len(PdfReader(io.BytesIO(ours())).pages)
    lib_best, lib_median = min(lib_times), statistics.median(lib_times)
    our_best, our_median = min(our_times), statistics.median(our_times)
    overhead = (our_best - lib_best) / lib_best
    print(f"score sheet of {HANDS} hands, {len(PLAYERS)} players, best of {RUNS} runs")
    lib_ms, lib_mid = lib_best * 1000, lib_median * 1000
    our_ms, our_mid = our_best * 1000, our_median * 1000
    print(f"  WeasyPrint alone, same HTML: {lib_ms:8.1f} ms (median {lib_mid:.1f})")
    print(f"  our whole export:            {our_ms:8.1f} ms (median {our_mid:.1f})")
    print(f"  overhead on WeasyPrint:      {overhead * 100:8.1f} %  (target: at most 30 %)")
    print(f"  whole export under 3 s:      {'yes' if our_best < 3 else 'no'}")
    print(f"  PDF pages:                   {pages}")


if __name__ == "__main__":
    main()
