"""How long replaying and settling a long Troggen evening takes, against loading its facts.

The ledger is never stored: every page that shows balances replays the evening from its
hand inputs, and the settlement page settles it too. This measures that cost for a
deterministic 5-player evening of 1,000 and of 10,000 hands, next to the least that
loading the same stored inputs costs (``json.loads`` of each), measured in the same run.

Run from the checkout: ``.venv/bin/python bench/replay_troggen.py`` (see bench/README.md).
"""

from __future__ import annotations

import gc
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.core.ledger import HandRecord, replay
from scorekeeper.core.rules import get_variant
from scorekeeper.core.rules.base import Table
from scorekeeper.core.rules.options import parse_options
from scorekeeper.core.settlement import settle

SEED = 20151
PLAYERS = ("Anna", "Bert", "Clara", "Dora", "Emil")
CONTRACTS = ("einfach", "einfach", "einfach", "doppelt", "doppelt", "ohne", "gegen")
EVENTS = ("none",) * 12 + ("pagat_won", "pagat_lost", "king_won", "king_lost")
#: Five players: 67 points in all, the talon's 3 cards hold at most 12 (docs/troggen.md §2, §7).
TOTAL, MOST_IN_TALON = 67, 12
SIZES = ((1_000, 9), (10_000, 3))  # hands, best of how many runs
TARGET_MS = 50.0


def misere(rng: random.Random) -> dict[str, Any]:
    """A Misère whose points add up to a possible sum."""
    target = rng.randint(TOTAL - MOST_IN_TALON - 1, TOTAL + 1)
    cuts = sorted(rng.randint(0, target) for _ in PLAYERS[1:])
    points = [b - a for a, b in zip([0, *cuts], [*cuts, target], strict=True)]
    return {"contract": "misere", "points": dict(zip(PLAYERS, points, strict=True))}


def bid(rng: random.Random) -> dict[str, Any]:
    """A bid hand: a partner four times in five, counted points three times in four."""
    bidder = rng.choice(PLAYERS)
    partner = rng.choice([p for p in PLAYERS if p != bidder]) if rng.random() < 0.8 else None
    event = rng.choice(EVENTS)
    facts: dict[str, Any] = {"contract": rng.choice(CONTRACTS), "bidder": bidder}
    facts["partner"] = partner
    if rng.random() < 0.75:
        low = 5 if event.endswith("_won") else 0
        facts["points"] = rng.randint(max(low, 15), 55)
        won = facts["points"] >= 35
    else:
        won = facts["won"] = rng.random() < 0.5
    facts["last_trick"] = event
    # The Bieterin's share is at least the 7 stakes of the others minus her partner's.
    if won and partner and rng.random() < 0.1:
        facts["kulanz"] = rng.randint(1, 7)
    return facts


def stored_inputs(count: int) -> list[str]:
    """The evening's hand inputs as the database keeps them: one JSON text per hand."""
    rng = random.Random(SEED)
    return [json.dumps(misere(rng) if rng.random() < 0.12 else bid(rng)) for _ in range(count)]


def records(inputs: list[str]) -> list[HandRecord]:
    """The stored hands with their tables, the deal passing round."""
    return [
        HandRecord(i + 1, Table(PLAYERS, PLAYERS[i % len(PLAYERS)]), json.loads(text))
        for i, text in enumerate(inputs)
    ]


def best_ms(run: Callable[[], object], runs: int) -> float:
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


def measure(count: int, runs: int) -> dict[str, float]:
    """Baseline, replay, settle and their sum for an evening of ``count`` hands."""
    troggen = get_variant("troggen")
    options = parse_options(troggen.option_specs, {})
    inputs = stored_inputs(count)
    hands = records(inputs)
    next_table = Table(PLAYERS, PLAYERS[count % len(PLAYERS)])
    ledger = replay(troggen, options, hands)
    figures = {
        "baseline": best_ms(lambda: [json.loads(text) for text in inputs], runs),
        "replay": best_ms(lambda: replay(troggen, options, hands), runs),
        "settle": best_ms(lambda: settle(troggen, options, ledger, next_table), runs),
        "both": best_ms(
            lambda: settle(troggen, options, replay(troggen, options, hands), next_table), runs
        ),
    }
    return figures


def main() -> None:
    """Print the figures for both sizes and how the time grows with the evening."""
    print(f"Troggen, {len(PLAYERS)} players, seed {SEED}; best of n runs, milliseconds")
    header = "hands  runs  json.loads  replay  settle  replay+settle  µs/hand  x baseline"
    print(header)
    results = {}
    for count, runs in SIZES:
        f = measure(count, runs)
        results[count] = f
        print(
            f"{count:>5}  {runs:>4}  {f['baseline']:>10.2f}  {f['replay']:>6.2f}  "
            f"{f['settle']:>6.2f}  {f['both']:>13.2f}  {f['both'] * 1000 / count:>7.1f}  "
            f"{f['both'] / f['baseline']:>10.1f}"
        )
    small, large = results[SIZES[0][0]], results[SIZES[1][0]]
    growth = large["both"] / small["both"]
    print(f"10,000 / 1,000 hands: replay+settle x {growth:.1f} (linear growth is x 10)")
    verdict = "within" if small["both"] < TARGET_MS else "OVER"
    print(f"1,000 hands: {small['both']:.1f} ms, {verdict} the {TARGET_MS:.0f} ms target")


if __name__ == "__main__":
    main()
