"""Forty wrong guesses sent at once to the production server: no more are checked than the
limit allows, however the workers and their threads interleave (docs/hall-safety.md "PINs,
passwords and tokens").

Every request comes from this machine's address, so the address's own limit
(``LOGIN_ATTEMPTS``, 5) is the one met first; the installation's limit, met by many
addresses, is tested in ``tests/web/test_attempts.py``.
"""

from __future__ import annotations

import http.client
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from tests.conftest import PLAYERS4
from tests.live.conftest import Answer, Server, StartServer, Tablet
from tests.web.tournaments.support import PASSWORD, setup_body

GUESSES = 40


def at_once(count: int, call: Callable[[int], Answer]) -> Counter[int]:
    """``call(i)`` for every i below ``count``, in threads released together: how many
    answers had each status."""
    barrier = threading.Barrier(count)

    def run(i: int) -> int:
        barrier.wait()
        return call(i).status

    with ThreadPoolExecutor(count) as pool:
        return Counter(pool.map(run, range(count)))


def started_tournament(server: Server) -> tuple[int, str]:
    """A tournament with its first round started: its id and a table's code."""
    organiser = Tablet()
    body = setup_body(name="Herbstturnier", rounds=2)
    created = server.api(organiser, "POST", "/tournaments", body)
    assert created.status == 201, created.text
    tournament = int(created.json["id"])
    for name in PLAYERS4:
        entrant = {"name": name}
        assert server.api(organiser, "POST", f"/tournaments/{tournament}/entrants", entrant).status
    assert server.api(organiser, "POST", f"/tournaments/{tournament}/rounds").status == 201
    started = server.api(organiser, "POST", f"/tournaments/{tournament}/rounds/1/start")
    assert started.status == 200, started.text
    return tournament, str(started.json["tables"][0]["code"])


def test_forty_wrong_passwords_and_codes_at_once_check_only_five(
    start_server: StartServer,
) -> None:
    server = start_server(workers=4, threads=4)
    tournament, code = started_tournament(server)
    login = f"/tournaments/{tournament}/login"

    passwords = at_once(
        GUESSES, lambda i: server.api(Tablet(), "POST", login, {"password": f"falsch-{i}"})
    )
    assert passwords == Counter({401: 5, 429: GUESSES - 5})

    codes = at_once(GUESSES, lambda i: server.api(Tablet(), "POST", f"/tables/ZZZZ{i:02d}/open"))
    assert codes == Counter({404: 5, 429: GUESSES - 5})

    # Even the right ones wait now: the address has used its tries.
    assert server.api(Tablet(), "POST", login, {"password": PASSWORD}).status == 429
    assert server.api(Tablet(), "POST", f"/tables/{code}/open").status == 429


def test_a_hall_opening_its_tables_at_once_is_not_kept_waiting(
    start_server: StartServer,
) -> None:
    # The start of a round: every tablet opens its table the same moment, each from its
    # own address. None is a wrong try, so none may wait, however the workers interleave.
    server = start_server(workers=3, threads=2)
    _, code = started_tournament(server)
    port = urlsplit(server.url).port

    def open_from(device: int) -> Answer:
        connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=(f"127.0.3.{device + 1}", 0)
        )
        try:
            connection.request("POST", f"/api/v1/tables/{code}/open")
            answer = connection.getresponse()
            return Answer(answer.status, answer.read().decode(), dict(answer.headers))
        finally:
            connection.close()

    for _ in range(3):
        assert at_once(GUESSES, open_from) == Counter({200: GUESSES})
