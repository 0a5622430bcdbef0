"""Slow clients hold up nobody: the real server (``scripts/start``, as ``scripts/serve``
runs it) with 50 connections trickling their headers and 50 trickling a body still answers
hands and table screens at once (``bench/slow_clients.py``, ``docs/server.md``)."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest

from tests.live.conftest import StartServer, Tablet, bench_module

#: A time limit: it runs after the parallel part, with the machine to itself.
pytestmark = pytest.mark.alone

#: Slowest answer allowed with the slow connections open. Measured on 2 cores: 0.1 s at
#: most (bench/slow_clients.py); without the front every request waited until it gave up.
BOUND_SECONDS = 2.0


def test_slow_clients_hold_up_no_hand_and_no_table_screen(start_server: StartServer) -> None:
    slow = bench_module("slow_clients")
    server = start_server(workers=3, threads=1)
    port = urlsplit(server.url).port
    assert port is not None
    tablet = Tablet()
    created = server.api(tablet, "POST", "/evenings", {"game": "troggen", "players": slow.PLAYERS})
    evening = int(created.json["id"])
    for i in range(20):
        assert server.api(tablet, "POST", f"/evenings/{evening}/hands", slow.hand(i)).status == 201
    with slow.SlowClients(
        "127.0.0.1", port, headers=50, bodies=50, interval=0.5, seconds=60, evening=evening
    ) as clients:
        time.sleep(1.5)  # every slow connection has sent more, and is still unfinished
        times = slow.ordinary("127.0.0.1", port, evening, evening, 10)
    assert clients.opened >= 100
    assert clients.answered == 0  # none was given up on within the run
    for name, waits in times.items():
        assert max(waits) < BOUND_SECONDS, (name, waits)
