"""How long a large tournament's draws and its standings page take, against baselines.

200 Troggen players over 6 rounds, two deals per player (8 hands at each table of four):
50 tables a round, 300 evenings and 2,400 hands in all, the same every run. Each round is
drawn through the app (``POST /api/v1/tournaments/<id>/rounds``, then four redraws; the
fastest counts) next to the pure ``draw.draw_round`` with the same stored seed and history.
The tables' hands go in through the operations layer, in-process. With every hand in, the
organiser's standings page ``GET /tournaments/<id>/standings`` is timed in-process (the
server's work, no network) next to two baselines from the same run: ``json.loads`` of
every stored hand input, and the same rows rendered by a bare Jinja template.

Run from the checkout: ``.venv/bin/python bench/tournament.py`` (see bench/README.md);
``--profile`` adds where the standings page spends its time.
"""

from __future__ import annotations

import cProfile
import gc
import json
import pstats
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from random import Random
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jinja2
from flask import Flask, render_template
from flask.testing import FlaskClient

from scorekeeper import create_app, operations
from scorekeeper.core.draw import draw_round, table_plan
from scorekeeper.core.standings import TableResult, standings
from scorekeeper.core.standings_texts import scoring_rule
from scorekeeper.db.extensions import db
from scorekeeper.db.kept import KEPT
from scorekeeper.db.models import Evening
from scorekeeper.db.tournament_models import Tournament
from scorekeeper.operations import tournament_rounds as rounds_ops
from scorekeeper.operations import tournament_setup
from scorekeeper.operations.facts import read_facts, read_head
from scorekeeper.operations.tournament_results import round_states, tournament_standings
from scorekeeper.operations.views import checked
from scorekeeper.web.json_shapes import text

SEED = 20250
PLAYERS = 200
ROUNDS = 6
DEALS = 2
RUNS = 5
PASSWORD = "bench-password"
CONTRACTS = ("einfach", "einfach", "einfach", "doppelt", "doppelt", "ohne", "gegen")
EVENTS = ("none",) * 12 + ("pagat_won", "pagat_lost", "king_won", "king_lost")
TARGET_DRAW_S = 1.0
TARGET_PAGE_MS = 100.0
#: Where the app keeps the tables it has replayed (scorekeeper/operations/tournament_results.py).
#: The names under which the app keeps the tables' results and the evenings (``db.kept``).
RESULTS = "table_results"
SNAPSHOTS = "snapshots"

#: The bare baseline: the standings' rows as a plain table, nothing else.
BARE = jinja2.Environment(autoescape=True).from_string(
    "<table>{% for r in rows %}<tr><td>{{ r.place }}</td><td>{{ r.number }}</td>"
    "<td>{{ r.name }}</td>{% for s in r.rounds %}<td>{{ s.score }}</td>{% endfor %}"
    "<td>{{ r.total }}</td><td>{{ r.per_hand }}</td><td>{{ r.best_round }}</td>"
    "<td>{{ r.hands }}</td></tr>{% endfor %}</table>"
)


def best_ms(run: Callable[[], object], runs: int = RUNS) -> float:
    """The fastest of ``runs`` runs in milliseconds, the collector paused as timeit does."""
    times = []
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return min(times) * 1000


def hand(rng: Random, players: list[str]) -> dict[str, Any]:
    """A bid at a table of four: counted points three times in four, else won or lost."""
    facts: dict[str, Any] = {
        "contract": rng.choice(CONTRACTS),
        "bidder": rng.choice(players),
        "last_trick": rng.choice(EVENTS),
    }
    if rng.random() < 0.75:
        facts["points"] = rng.randint(5 if facts["last_trick"].endswith("_won") else 15, 55)
    else:
        facts["won"] = rng.random() < 0.5
    return facts


def fill_round(app: Flask, round_: dict[str, Any], rng: Random) -> None:
    """Every table's hands through the operations layer, one commit per table."""
    with app.app_context():
        for table in round_["tables"]:
            players = [p["name"] for p in table["players"]]
            for _ in range(table["hands_due"]):
                current = operations.current_view(table["evening"])
                assert current is not None
                operations.record_hand(current, hand(rng, players), source="bench")
            db.session.commit()
            evening = db.session.get_one(Evening, table["evening"])
            assert evening.closed_at is not None  # its last hand closed it
        db.session.remove()


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.get_data()[:300])
    return dict(response.json or {})


def run_tournament(app: Flask, client: FlaskClient) -> tuple[int, list[dict[str, float]]]:
    """Set up, register, and play every round; each round's draw timed against the pure
    draw from the same seed and history."""
    rng = Random(SEED)
    # The draw's seeds and the table codes come from this seeded source, so every run
    # draws the same tournament.
    rounds_ops.secrets = SimpleNamespace(  # type: ignore[attr-defined]
        randbits=rng.getrandbits, choice=rng.choice
    )
    body = {
        "name": "Benchmark",
        "game": "troggen",
        "rounds": ROUNDS,
        "deals_per_player": DEALS,
        "password": PASSWORD,
    }
    tid = int(ok(client.post("/api/v1/tournaments", json=body), 201)["id"])
    with app.app_context():
        tournament = db.session.get_one(Tournament, tid)
        for number in range(1, PLAYERS + 1):
            tournament_setup.register(tournament, {"name": f"Spieler {number:03}", "club": "Bern"})
        db.session.commit()
        db.session.remove()
    plan = table_plan("troggen")
    history: list[Any] = []
    figures = []
    base = f"/api/v1/tournaments/{tid}/rounds"
    for number in range(1, ROUNDS + 1):
        times = []
        for attempt in range(RUNS):
            path = base if attempt == 0 else f"{base}/{number}/redraw"
            gc.collect()
            start = time.perf_counter()
            drawn = ok(client.post(path), 201 if attempt == 0 else 200)
            times.append((time.perf_counter() - start) * 1000)
        tables = tuple(tuple(p["number"] for p in t["players"]) for t in drawn["tables"])
        seed = drawn["seed"]
        pure = draw_round(range(1, PLAYERS + 1), history, seed=seed, preference=plan)
        assert pure.tables == tables, "the stored seed does not reproduce the draw"
        pure_ms = best_ms(
            lambda seed=seed: draw_round(range(1, PLAYERS + 1), history, seed=seed, preference=plan)
        )
        history.append(pure)
        started = ok(client.post(f"{base}/{number}/start"))
        fill_round(app, started, rng)
        closed = ok(client.post(f"{base}/{number}/close"))
        assert closed["state"] == "closed"
        figures.append(
            {
                "tables": len(tables),
                "app": min(times),
                "pure": pure_ms,
                "repeated": drawn["repeated_pairs"],
            }
        )
    return tid, figures


def stored_inputs(path: Path) -> list[str]:
    """Every hand's input as the database keeps it, one JSON text per hand."""
    with sqlite3.connect(path) as connection:
        return [row[0] for row in connection.execute("SELECT input FROM hand")]


def forget(app: Flask, evenings: set[int] | None = None) -> None:
    """Drop what the app keeps of the tables (all, or those of ``evenings``): their
    results and their evenings, as after a restart or after those tables recorded a hand."""
    stores = app.extensions.get(KEPT, {})
    results = stores.get(RESULTS)
    if results is not None:
        for key in list(results):
            if evenings is None or key[0] in evenings:
                del results[key]
    # A table that recorded a hand has its kept evening played on by that hand alone: the
    # evenings are forgotten only when everything is (a restart).
    if evenings is None and (kept := stores.get(SNAPSHOTS)) is not None:
        kept.clear()


def replayed(evening_id: int) -> operations.EveningView:
    """The evening replayed from its facts as stored, nothing kept used."""
    connection = db.session.connection()
    head = read_head(connection, evening_id)
    assert head is not None
    return checked(read_facts(connection, head))


def page_figures(app: Flask, client: FlaskClient, tid: int, path: Path) -> dict[str, float]:
    """The standings page (nothing changed, the last round's tables changed, nothing
    remembered), the API's standings, their parts, and the two baselines."""
    url = f"/tournaments/{tid}/standings"
    page = client.get(url)
    assert page.status_code == 200
    assert "Spieler 200" in page.get_data(as_text=True)
    inputs = stored_inputs(path)
    assert len(inputs) == PLAYERS // 4 * 4 * DEALS * ROUNDS
    api = ok(client.get(f"/api/v1/tournaments/{tid}/standings"))["standings"]
    last_round = {
        t["evening"] for t in ok(client.get(f"/api/v1/tournaments/{tid}/rounds/{ROUNDS}"))["tables"]
    }

    def fresh_round() -> None:
        forget(app, last_round)
        client.get(url)

    def cold() -> None:
        forget(app)
        client.get(url)

    figures = {
        "hands": float(len(inputs)),
        "page": best_ms(lambda: client.get(url)),
        "page_round": best_ms(fresh_round),
        "page_cold": best_ms(cold),
        "api": best_ms(lambda: client.get(f"/api/v1/tournaments/{tid}/standings")),
        "json": best_ms(lambda: [json.loads(text) for text in inputs]),
        "bare": best_ms(lambda: BARE.render(rows=api)),
    }
    with app.test_request_context(url, headers={"Accept-Language": "de"}):
        tournament = db.session.get_one(Tournament, tid)
        states = round_states(tournament)
        lines = tournament_standings(tournament, states)
        tables = [
            TableResult(n, s.table.number, s.results, s.hands)
            for n, round_tables in states.items()
            for s in round_tables
        ]
        numbers = [e.number for e in tournament.entrants]

        def render() -> str:
            return render_template(
                "tournaments/standings.html",
                tournament=tournament,
                lines=lines,
                round_numbers=sorted(states),
                rule=text(scoring_rule(tournament.scoring)),
            )

        def states_cold() -> None:
            forget(app)
            round_states(tournament)

        figures["states"] = best_ms(lambda: round_states(tournament))
        figures["states_cold"] = best_ms(states_cold)
        figures["rank"] = best_ms(lambda: standings(numbers, tables, {}))
        figures["render"] = best_ms(render)
        evenings = [s.table.evening_id for r in states.values() for s in r]
        figures["views"] = best_ms(lambda: [replayed(e).settlement() for e in evenings])
        figures["replay"] = best_ms(lambda: [replayed(e) for e in evenings])
        db.session.remove()
    return figures


def profile(app: Flask, client: FlaskClient, tid: int) -> str:
    """Where one request of the standings page spends its time, nothing remembered."""
    forget(app)
    client.get(f"/tournaments/{tid}/standings")
    forget(app)
    profiler = cProfile.Profile()
    profiler.enable()
    client.get(f"/tournaments/{tid}/standings")
    profiler.disable()
    out = StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(r"scorekeeper|jinja2|sqlalchemy", 30)
    stats.sort_stats("tottime").print_stats(15)
    return out.getvalue()


def main() -> None:
    """Print each round's draw, the standings page and the baselines, and the verdicts."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite"
        app = create_app({"DATABASE_URL": f"sqlite:///{path}"}, instance_path=folder)
        client = app.test_client()
        tid, draws = run_tournament(app, client)
        print(
            f"Troggen, {PLAYERS} players, {ROUNDS} rounds, {DEALS} deals per player, "
            f"seed {SEED}; best of {RUNS} runs, milliseconds"
        )
        print("round  tables  app draw  draw_round  app/pure  repeated pairs")
        for number, f in enumerate(draws, 1):
            print(
                f"{number:>5}  {f['tables']:>6}  {f['app']:>8.1f}  {f['pure']:>10.1f}  "
                f"{f['app'] / f['pure']:>8.1f}  {f['repeated']:>14}"
            )
        slowest = max(f["app"] for f in draws) / 1000
        verdict = "within" if slowest < TARGET_DRAW_S else "OVER"
        print(f"slowest draw: {slowest:.3f} s, {verdict} the {TARGET_DRAW_S:.0f} s target")

        f = page_figures(app, client, tid, path)
        print()
        print(f"standings with every hand recorded ({int(f['hands'])} hands, 300 tables)")
        rows = [
            ("GET /tournaments/<id>/standings, no table changed", f["page"]),
            ("  the same after the last round's 50 tables changed", f["page_round"]),
            ("  the same with no table remembered (cold)", f["page_cold"]),
            ("GET /api/v1/tournaments/<id>/standings, no change", f["api"]),
            ("baseline: json.loads of every stored hand input", f["json"]),
            ("baseline: the same rows in a bare Jinja table", f["bare"]),
        ]
        for label, value in rows:
            print(f"  {label:<52} {value:>7.1f}")
        print(
            f"  page / json.loads: x {f['page'] / f['json']:.1f} (cold x "
            f"{f['page_cold'] / f['json']:.1f}); page / bare Jinja: x {f['page'] / f['bare']:.1f}"
        )
        print("  parts, in a request context:")
        parts = [
            ("round_states, no table changed", f["states"]),
            ("round_states, cold: load, replay and settle 300", f["states_cold"]),
            ("  replay and settle alone, from the facts", f["views"]),
            ("    of which the replay", f["replay"]),
            ("standings.standings, the ranking", f["rank"]),
            ("render the standings template", f["render"]),
        ]
        for label, value in parts:
            print(f"    {label:<50} {value:>7.1f}")
        for label, value in (("", f["page"]), (" (cold)", f["page_cold"])):
            verdict = "within" if value < TARGET_PAGE_MS else "OVER"
            print(
                f"standings page{label}: {value:.1f} ms, {verdict} the "
                f"{TARGET_PAGE_MS:.0f} ms target"
            )
        if "--profile" in sys.argv[1:]:
            print()
            print(profile(app, client, tid))
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


if __name__ == "__main__":
    main()
