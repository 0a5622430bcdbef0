"""A hand acknowledged is a hand kept: the server killed mid-load loses none of them."""

from __future__ import annotations

import http.client
import sqlite3
import threading
import time
from typing import Any

from tests.conftest import PLAYERS4
from tests.live.conftest import StartServer, Tablet

#: Hands recorded before the kill, at the least; the load runs on while the kill comes.
BEFORE_KILL = 40
TABLETS = 3


def test_every_acknowledged_hand_survives_a_kill_mid_load(
    start_server: StartServer, database_url: str
) -> None:
    server = start_server(workers=2, threads=2)
    created = server.api(Tablet(), "POST", "/evenings", {"game": "troggen", "players": PLAYERS4})
    evening = created.json["id"]
    acknowledged: dict[str, dict[str, Any]] = {}  # Idempotency-Key -> the hand answered
    sent: dict[str, dict[str, Any]] = {}  # Idempotency-Key -> the body sent with it
    lock = threading.Lock()
    failures: list[str] = []

    def tablet(name: str) -> None:
        client = Tablet()
        for i in range(10_000):  # bounded; the kill ends it long before
            key = f"{name}-{i}"
            body = {"contract": "einfach", "bidder": PLAYERS4[i % 4], "points": 20 + i % 30}
            try:
                answer = server.api(
                    client,
                    "POST",
                    f"/evenings/{evening}/hands",
                    body,
                    headers={"Idempotency-Key": key},
                )
            except (OSError, http.client.HTTPException):
                return  # the server is gone
            if answer.status != 201:
                failures.append(answer.text)
                return
            with lock:
                acknowledged[key] = answer.json["hand"]
                sent[key] = body

    threads = [threading.Thread(target=tablet, args=(f"t{n}",)) for n in range(TABLETS)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 15
    while len(acknowledged) < BEFORE_KILL and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()
    for thread in threads:
        thread.join(timeout=30)
    assert not failures
    assert len(acknowledged) >= BEFORE_KILL

    if database_url.startswith("sqlite:///"):
        # Opened as the restarted server will open it: the write-ahead log is replayed.
        with sqlite3.connect(database_url.removeprefix("sqlite:///")) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        connection.close()

    restarted = start_server(workers=2, threads=2)
    stored = restarted.api(Tablet(), "GET", f"/evenings/{evening}").json["hands"]
    numbers = [h["number"] for h in stored]
    assert numbers == list(range(1, len(stored) + 1))  # no gap, no number twice
    by_number = {h["number"]: h for h in stored}
    for hand in acknowledged.values():
        kept = by_number[hand["number"]]
        assert (kept["input"], kept["dealer"]) == (hand["input"], hand["dealer"])
    # A key whose answer was kept before the kill still answers the same after it, to the
    # same request; sent with another hand it is refused.
    key, hand = next(iter(acknowledged.items()))
    again = restarted.api(
        Tablet(),
        "POST",
        f"/evenings/{evening}/hands",
        sent[key],
        headers={"Idempotency-Key": key},
    )
    assert again.status == 201
    assert again.json["hand"] == hand
    other = {**sent[key], "points": sent[key]["points"] + 1}
    refused = restarted.api(
        Tablet(), "POST", f"/evenings/{evening}/hands", other, headers={"Idempotency-Key": key}
    )
    assert refused.status == 422
