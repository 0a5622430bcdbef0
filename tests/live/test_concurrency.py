"""Two tablets on one evening at the same moment, through separate worker processes.

Each race is run several times: one round may happen to be served one request after the
other, but a dozen rounds on several workers overlap for real (the retries show it).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import pytest

from tests.conftest import PLAYERS4, fresh_database
from tests.live.conftest import Answer, Server, Tablet, servers


def at_once(*calls: Callable[[], Answer]) -> list[Answer]:
    """Run the calls in threads released together; their answers in the same order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Answer]) -> Answer:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def hand(i: int) -> dict[str, Any]:
    """A valid Troggen hand for four, different for each ``i``."""
    return {"contract": "einfach", "bidder": PLAYERS4[i % 4], "points": 20 + i % 30}


def new_evening(server: Server) -> int:
    """A four-player Troggen evening; its id."""
    answer = server.api(Tablet(), "POST", "/evenings", {"game": "troggen", "players": PLAYERS4})
    assert answer.status == 201, answer.text
    return int(answer.json["id"])


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """Three workers of two threads: six requests at once, in three processes. One server
    for the module (each test has its own evening), as starting one takes seconds."""
    folder = tmp_path_factory.mktemp("concurrency")
    with fresh_database(request, folder) as url, servers(url, folder) as start:
        yield start(workers=3, threads=2)


def test_two_tablets_recording_at_once_lose_no_hand_and_share_no_number(server: Server) -> None:
    evening = new_evening(server)
    tablets = [Tablet(), Tablet()]
    sent: dict[int, dict[str, Any]] = {}  # number -> the hand's input as answered
    for round_ in range(12):
        answers = at_once(
            *(
                partial(server.api, t, "POST", f"/evenings/{evening}/hands", hand(i))
                for i, t in enumerate(tablets, start=2 * round_)
            )
        )
        for answer in answers:
            assert answer.status == 201, answer.text
            number = answer.json["hand"]["number"]
            assert number not in sent
            sent[number] = answer.json["hand"]["input"]
    stored = server.api(Tablet(), "GET", f"/evenings/{evening}").json["hands"]
    assert [h["number"] for h in stored] == list(range(1, 25))
    assert {h["number"]: h["input"] for h in stored} == sent


def test_one_idempotency_key_sent_from_four_tablets_at_once_records_once(
    server: Server,
) -> None:
    evening = new_evening(server)
    for round_ in range(6):
        key = {"Idempotency-Key": f"hall-{round_}"}
        path = f"/evenings/{evening}/hands"
        answers = at_once(
            *(
                partial(server.api, Tablet(), "POST", path, hand(round_), headers=key)
                for _ in "abcd"
            )
        )
        assert {a.status for a in answers} == {201}
        assert len({a.text for a in answers}) == 1  # the first answer, given four times
    stored = server.api(Tablet(), "GET", f"/evenings/{evening}").json["hands"]
    assert [h["number"] for h in stored] == list(range(1, 7))


def test_two_corrections_of_one_version_at_once_keep_one_and_refuse_the_other(
    server: Server,
) -> None:
    evening = new_evening(server)
    for i in range(8):
        server.api(Tablet(), "POST", f"/evenings/{evening}/hands", hand(i))
    for number in range(1, 9):
        url = f"/evenings/{evening}/hands/{number}"
        bodies = [{**hand(number), "points": p, "version": 1} for p in (10, 60)]
        answers = at_once(*(partial(server.api, Tablet(), "PUT", url, b) for b in bodies))
        assert sorted(a.status for a in answers) == [200, 409], [a.text for a in answers]
        kept = next(a.json for a in answers if a.status == 200)
        refused = next(a.json for a in answers if a.status == 409)
        assert kept["version"] == 2
        assert refused == kept  # the 409 carries the hand as it now stands
        assert server.api(Tablet(), "GET", url).json == kept


def test_two_corrections_on_the_page_at_once_tell_the_second_tablet(server: Server) -> None:
    evening = new_evening(server)
    for i in range(4):
        server.api(Tablet(), "POST", f"/evenings/{evening}/hands", hand(i))
    for number in range(1, 5):
        url = f"{server.url}/evenings/{evening}/hands/{number}/edit"
        tablets = [Tablet(), Tablet()]
        forms = [
            {
                "contract": "einfach",
                "bidder": "Bert",
                "result": "points",
                "points": str(points),
                "last_trick": "none",
                "version": "1",
                "csrf_token": tablet.csrf_token(url),
            }
            for tablet, points in zip(tablets, (10, 60), strict=True)
        ]
        answers = at_once(
            *(partial(t.call, url, "POST", form=f) for t, f in zip(tablets, forms, strict=True))
        )
        statuses = sorted(a.status for a in answers)
        # The saved one lands on the history (after its redirect); the other is told.
        assert statuses == [200, 409], [a.text[:300] for a in answers]
        refused = next(a.text for a in answers if a.status == 409)
        assert "Someone else changed this hand meanwhile. Check it and save again." in refused
        assert re.search(r'name="version"[^>]*value="2"', refused)


def test_evenings_started_at_once_with_the_same_new_players_both_start(server: Server) -> None:
    # No evening to wait for here: both create the players, one loses on the unique name
    # and runs again, finding them.
    for round_ in range(6):
        players = [f"{name} {round_}" for name in PLAYERS4]
        body = {"game": "troggen", "players": players}
        answers = at_once(*(partial(server.api, Tablet(), "POST", "/evenings", body) for _ in "ab"))
        assert [a.status for a in answers] == [201, 201], [a.text for a in answers]
        assert answers[0].json["id"] != answers[1].json["id"]


def test_one_key_starting_an_evening_from_four_tablets_starts_one(server: Server) -> None:
    before = len(server.api(Tablet(), "GET", "/evenings").json["evenings"])
    for round_ in range(6):
        body = {"game": "troggen", "players": PLAYERS4, "title": f"Runde {round_}"}
        key = {"Idempotency-Key": f"start-{round_}"}
        answers = at_once(
            *(partial(server.api, Tablet(), "POST", "/evenings", body, headers=key) for _ in "abcd")
        )
        assert {a.status for a in answers} == {201}
        assert len({a.text for a in answers}) == 1
    assert len(server.api(Tablet(), "GET", "/evenings").json["evenings"]) == before + 6


def test_writes_along_a_carried_chain_at_once_keep_every_pot_true(server: Server) -> None:
    """docs/troggen.md §8: hands recorded at once into three evenings whose pots go on
    from one to the next; every later evening ends holding its earlier one's pot, and no
    write waits for ever (the locks are taken along the chain, earliest first)."""
    tablet = Tablet()
    group = server.api(tablet, "POST", "/groups", {"name": "Kette"})
    assert group.status == 201, group.text
    body = {
        "game": "troggen",
        "players": PLAYERS4,
        "group": group.json["id"],
        "options": {"end_pot": "carry"},
    }
    chain: list[int] = []
    for _ in range(3):
        linked = {**body, "carried_from": chain[-1]} if chain else body
        answer = server.api(tablet, "POST", "/evenings", linked)
        assert answer.status == 201, answer.text
        chain.append(int(answer.json["id"]))
    for round_ in range(4):
        calls = [
            partial(server.api, Tablet(), "POST", f"/evenings/{evening}/hands", hand(round_ + i))
            for i, evening in enumerate(chain * 2)
        ]
        for answer in at_once(*calls):
            assert answer.status == 201, answer.text
    shown = [server.api(tablet, "GET", f"/evenings/{e}").json for e in chain]
    assert [e["carried_in"] for e in shown[1:]] == [e["pot"] for e in shown[:-1]]
