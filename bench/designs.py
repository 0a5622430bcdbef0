"""``bench/server.py``'s figures for several ways of serving, measured in the same runs.

On a machine that is busy with other work, two runs of ``bench/server.py`` minutes apart
are not comparable. This builds the evenings once and starts, for each start command given,
the app and the bare endpoint (``WSGI_APP``, as ``scripts/start`` reads it), then takes
every wrk run of every server in turn, round after round, in a rotating order:

    .venv/bin/python bench/designs.py front=scripts/start waitress=bench/start_waitress

Every start command reads ``HOST``, ``PORT``, ``WORKERS``, ``THREADS`` and ``WSGI_APP``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import server  # noqa: E402

ROUNDS = 4
TICKS = os.sysconf("SC_CLK_TCK")


def processor_seconds(group: int) -> float:
    """Processor time (user and system) so far of every live process in ``group``."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def measured(url: str, args: list[str]) -> tuple[float, float]:
    """One wrk run: requests a second, and the server's processor milliseconds a request."""
    group = server.GROUPS[url]
    before = processor_seconds(group)
    rate = server.wrk(*args)
    spent = processor_seconds(group) - before
    return rate, spent * 1000 / (rate * server.SECONDS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("starts", nargs="+", help="NAME=START-COMMAND")
    args = parser.parse_args()
    assert shutil.which("wrk"), "wrk is missing: apt-get install wrk"
    starts = [tuple(given.split("=", 1)) for given in args.starts]
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        folder = Path(tmp)
        url = f"sqlite:///{folder / 'bench.sqlite'}"
        print(f"building {server.EVENINGS} evenings of {server.BEFORE} hands ...", file=sys.stderr)
        first, page = server.build(url, folder)
        urls = {}
        for name, start in starts:
            urls[name] = (
                stack.enter_context(
                    server.serving(
                        *server.bare_server(url, folder, str(ROOT / start)),
                        log=folder / f"{name}-bare.log",
                    )
                ),
                stack.enter_context(
                    server.serving(
                        *server.app_server(url, folder, str(ROOT / start)),
                        log=folder / f"{name}-app.log",
                    )
                ),
            )
        script = str(ROOT / "bench" / "hands.lua")
        reading = str(ROOT / "bench" / "evenings.lua")
        # Each server records into evenings of its own: a hand one server records makes
        # every other server replay that evening again (its kept copy is stale).
        share = server.EVENINGS // len(urls)
        spans = {name: [str(first + i * share), str(share)] for i, name in enumerate(urls)}
        kinds = {
            "record a hand": (
                lambda bare, span: ["-s", script, bare, "--", "/bare/evenings/", "/hands", *span],
                lambda ours, span: ["-s", script, ours, "--", "/api/v1/evenings/", "/hands", *span],
                0.60,
            ),
            "evening page, 200 hands": (
                lambda bare, span: [f"{bare}/bare/evenings/{page}"],
                lambda ours, span: [f"{ours}/evenings/{page}"],
                0.50,
            ),
        }
        for name, (bare, ours) in urls.items():
            span = spans[name]
            server.wrk(*kinds["record a hand"][0](bare, span), seconds=1)
            server.wrk(*kinds["evening page, 200 hands"][0](bare, span), seconds=1)
            server.wrk("-s", reading, ours, "--", "/api/v1/evenings/", *span, seconds=15)
        lines = []
        for kind, (bare_args, our_args, target) in kinds.items():
            runs: dict[tuple[str, str], list[float]] = {}
            costs: dict[tuple[str, str], list[float]] = {}
            jobs = []
            for name, (bare, ours) in urls.items():
                jobs.append(((name, "bare"), bare, bare_args(bare, spans[name])))
                jobs.append(((name, "ours"), ours, our_args(ours, spans[name])))
            for round_ in range(ROUNDS):
                shift = round_ % len(jobs)
                for key, url, job in jobs[shift:] + jobs[:shift]:
                    rate, cost = measured(url, job)
                    runs.setdefault(key, []).append(rate)
                    costs.setdefault(key, []).append(cost)
            for name in urls:
                bare_rate = statistics.median(runs[(name, "bare")])
                our_rate = statistics.median(runs[(name, "ours")])
                ratios = [
                    o / b for b, o in zip(runs[(name, "bare")], runs[(name, "ours")], strict=True)
                ]
                bare_cost = statistics.median(costs[(name, "bare")])
                our_cost = statistics.median(costs[(name, "ours")])
                lines.append(
                    f"{name:<10} {kind:<24} {bare_rate:>7.0f} {our_rate:>7.0f} "
                    f"{our_rate / bare_rate:>6.0%} {bare_cost:>7.2f} {our_cost:>7.2f} "
                    f"{bare_cost / our_cost:>6.0%} (target {target:.0%}; each round: "
                    + " ".join(f"{r:.0%}" for r in ratios)
                    + ")"
                )
    print(
        f"{server.WORKERS} workers x {server.THREADS} threads; wrk -t2 -c8; "
        f"median of {ROUNDS} rounds of {server.SECONDS} s, all servers in turn"
    )
    print("processor ms a request, of every process of the server (front included)")
    print(
        f"{'':<10} {'':<24} {'bare/s':>7} {'ours/s':>7} {'ratio':>6} "
        f"{'bare ms':>6} {'ours ms':>6} {'ratio':>6}"
    )
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
