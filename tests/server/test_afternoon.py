"""A small museum afternoon against the real server: every request is answered as it
should be and every hand is stored once (``bench/afternoon.py``, which also measures how
fast; this test checks only that nothing is lost, refused or left unanswered)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

from tests.server.conftest import StartServer

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 40
ROUNDS = 2
#: A Troggen table of four plays two deals each: 8 hands a table and round.
HANDS = PLAYERS // 4 * 8 * ROUNDS


def harness() -> ModuleType:
    """``bench/afternoon.py``, which plays the afternoon."""
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("afternoon", ROOT / "bench" / "afternoon.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("afternoon", module)
    spec.loader.exec_module(module)
    return module


def test_a_busy_afternoon_answers_everything_and_stores_every_hand_once(
    start_server: StartServer,
) -> None:
    afternoon = harness()
    server = start_server(workers=3, threads=1)
    port = urlsplit(server.url).port
    assert port is not None
    played = afternoon.run_afternoon(port, players=PLAYERS, rounds=ROUNDS, think=(0.05, 0.2))
    assert played.record.errors == []
    assert played.mismatches == []
    assert played.hands_saved == played.hands_stored == HANDS
    waits = played.record.waits
    for kind in (
        "tablet: save a hand",
        "tablet: table screen",
        "projector",
        "organiser's board",
        "printout: seating list",
        "printout: standings",
    ):
        assert waits[kind], kind
    assert len(waits["printout: standings"]) == ROUNDS
