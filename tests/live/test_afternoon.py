"""A small museum afternoon against the real server: every request is answered as it
should be and every hand is stored once (``bench/afternoon.py``, which also measures how
fast; this test checks only that nothing is lost, refused or left unanswered)."""

from __future__ import annotations

from urllib.parse import urlsplit

from tests.live.conftest import StartServer, bench_module

PLAYERS = 40
ROUNDS = 2
#: A Troggen table of four plays two deals each: 8 hands a table and round.
HANDS = PLAYERS // 4 * 8 * ROUNDS


def test_a_busy_afternoon_answers_everything_and_stores_every_hand_once(
    start_server: StartServer,
) -> None:
    afternoon = bench_module("afternoon")
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
