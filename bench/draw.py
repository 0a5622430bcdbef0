"""How long the seating draw takes for a large tournament, and how few pairs it repeats.

A museum tournament of 200 players over 6 rounds, Troggen (50 tables of four), the same
every run. Each round's draw is timed (the fastest of several runs), and the pairs that
sit together again are counted, next to a plain random draw from the same seeds (shuffle
and cut into the same table sizes) as the baseline. A last line times one round whose
pairs cannot all be new, where the search runs to its cap.

Run from the checkout: ``.venv/bin/python bench/draw.py`` (see bench/README.md).
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.core.draw import (
    Draw,
    TablePlan,
    count_repeated_pairs,
    draw_round,
    table_plan,
    table_sizes,
)

SEED = 20250
PLAYERS = range(1, 201)
ROUNDS = 6
RUNS = 5
#: Random rounds played before the capped round: every player has met most of the others.
CROWDED_HISTORY = 200
TARGET_S = 1.0


def random_draw(players: range, history: list[Draw], seed: int, plan: TablePlan) -> Draw:
    """The baseline: shuffle with the round's seed and cut into the same table sizes."""
    order = Random(seed).sample(list(players), len(players))
    sizes = table_sizes(len(order), plan)
    assert sizes is not None
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    tables = tuple(tuple(order[s : s + size]) for s, size in zip(starts, sizes, strict=True))
    return Draw(tables, (), seed, count_repeated_pairs(tables, history))


def timed(run: Callable[[], Draw]) -> tuple[Draw, float]:
    """The draw and its time in milliseconds, the collector paused as timeit does."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        result = run()
        return result, (time.perf_counter() - start) * 1000
    finally:
        gc.enable()


def tournament(plan: TablePlan) -> tuple[list[Draw], list[float]]:
    """Our draws for every round and the fastest time of each round over ``RUNS`` runs."""
    best = [float("inf")] * ROUNDS
    draws: list[Draw] = []
    for _ in range(RUNS):
        draws = []
        for r in range(ROUNDS):
            seed = SEED + r
            draw, ms = timed(partial(draw_round, PLAYERS, draws, seed=seed, preference=plan))
            draws.append(draw)
            best[r] = min(best[r], ms)
    return draws, best


def capped_round(plan: TablePlan) -> tuple[Draw, float, Draw]:
    """One round after ``CROWDED_HISTORY`` random rounds, where repeats cannot be avoided:
    our draw, its fastest time of ``RUNS``, and the random draw from the same seed."""
    history = [random_draw(PLAYERS, [], SEED + 1000 + r, plan) for r in range(CROWDED_HISTORY)]
    runs = [
        timed(lambda: draw_round(PLAYERS, history, seed=SEED, preference=plan)) for _ in range(RUNS)
    ]
    draw, ms = min(runs, key=lambda run: run[1])
    return draw, ms, random_draw(PLAYERS, history, SEED, plan)


def main() -> None:
    """Print each round's time and repeated pairs, the totals and the verdict."""
    plan = table_plan("troggen")
    draws, times = tournament(plan)
    baseline: list[Draw] = []
    for r in range(ROUNDS):
        baseline.append(random_draw(PLAYERS, baseline, SEED + r, plan))
    print(
        f"Troggen, {len(PLAYERS)} players, {ROUNDS} rounds, seeds {SEED}+round; best of {RUNS} runs"
    )
    print("round  tables  draw ms  repeated pairs: ours  random  ours/random")
    for r, (ours, chance, ms) in enumerate(zip(draws, baseline, times, strict=True), 1):
        ratio = ours.repeated_pairs / chance.repeated_pairs if chance.repeated_pairs else 0.0
        print(
            f"{r:>5}  {len(ours.tables):>6}  {ms:>7.1f}  {ours.repeated_pairs:>20}  "
            f"{chance.repeated_pairs:>6}  {ratio:>11.2f}"
        )
    ours_total = sum(d.repeated_pairs for d in draws)
    chance_total = sum(d.repeated_pairs for d in baseline)
    total_s = sum(times) / 1000
    print(
        f"total  {'':>6}  {sum(times):>7.1f}  {ours_total:>20}  {chance_total:>6}  "
        f"{ours_total / chance_total if chance_total else 0.0:>11.2f}"
    )
    verdict = "within" if total_s < TARGET_S else "OVER"
    print(f"{ROUNDS} rounds: {total_s:.3f} s, {verdict} the {TARGET_S:.0f} s target")
    draw, ms, chance = capped_round(plan)
    print(
        f"after {CROWDED_HISTORY} random rounds (the search runs to its cap): {ms:.1f} ms, "
        f"repeated pairs {draw.repeated_pairs} ours, {chance.repeated_pairs} random"
    )


if __name__ == "__main__":
    main()
