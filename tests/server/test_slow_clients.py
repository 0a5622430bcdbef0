"""Slow clients hold up nobody: the real server (``scripts/start``, as ``scripts/serve``
runs it) with 50 connections trickling their headers and 50 trickling a body still answers
hands and table screens at once (``bench/slow_clients.py``, ``docs/server.md``)."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

from tests.server.conftest import StartServer, Tablet

ROOT = Path(__file__).resolve().parents[2]
#: Slowest answer allowed with the slow connections open. Measured on 2 cores: 0.1 s at
#: most (bench/slow_clients.py); without the front every request waited until it gave up.
BOUND_SECONDS = 2.0


def harness() -> ModuleType:
    """``bench/slow_clients.py``, which opens the slow connections."""
    spec = importlib.util.spec_from_file_location(
        "slow_clients", ROOT / "bench" / "slow_clients.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("slow_clients", module)
    spec.loader.exec_module(module)
    return module


def test_slow_clients_hold_up_no_hand_and_no_table_screen(start_server: StartServer) -> None:
    slow = harness()
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
