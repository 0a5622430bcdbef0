"""Printouts answered once (``web/printouts.py``): kept by what they print, sent again by
their ETag, long ones handed on to their own workers and printed in parts, asked ahead
when an evening closes."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import printouts
from scorekeeper.web.evenings import exports
from scorekeeper.web.printouts import PrintCache

HAND = {"contract": "einfach", "bidder": "Anna", "points": 41}


@pytest.fixture
def evening(create_evening: Callable[..., int], record_hand: Callable[..., Any]) -> int:
    found = create_evening(title="Printouts")
    for _ in range(3):
        record_hand(found, HAND)
    return found


def test_a_printout_asked_again_comes_from_the_disk_with_its_etag(
    client: FlaskClient, evening: int, record_hand: Callable[..., Any]
) -> None:
    first = client.get(f"/evenings/{evening}/sheet.pdf")
    assert (first.status_code, first.headers["X-Printout"]) == (200, "rendered")
    again = client.get(f"/evenings/{evening}/sheet.pdf")
    assert (again.headers["X-Printout"], again.data) == ("kept", first.data)
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Cache-Control"] == "no-cache"
    held = client.get(
        f"/evenings/{evening}/sheet.pdf", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert (held.status_code, held.data) == (304, b"")
    # A new hand is a new sheet.
    record_hand(evening, HAND)
    changed = client.get(
        f"/evenings/{evening}/sheet.pdf", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert (changed.status_code, changed.headers["X-Printout"]) == (200, "rendered")
    assert changed.headers["ETag"] != first.headers["ETag"]


def test_the_key_covers_what_is_printed_beside_the_hands(client: FlaskClient, evening: int) -> None:
    """The language (a settings correction), the end rule asked, a payment ticked: each
    prints another settlement."""
    etags = set()

    def settlement(query: str = "") -> None:
        answer = client.get(f"/api/v1/evenings/{evening}/settlement.pdf{query}")
        assert answer.status_code == 200
        etags.add(answer.headers["ETag"])

    settlement()
    settlement("?end_pot=refund")
    data = client.get(f"/api/v1/evenings/{evening}/settlement").json
    payment = data["transfers"][0]
    cents = int(Decimal(payment["amount"]) * 100)
    ticked = client.post(
        f"/evenings/{evening}/settlement/ticks",
        data={"payer": payment["from"], "payee": payment["to"], "amount": cents},
    )
    assert ticked.status_code == 302
    settlement()
    version = client.get(f"/api/v1/evenings/{evening}").json["version"]
    corrected = client.patch(
        f"/api/v1/evenings/{evening}", json={"version": version, "title": "Another title"}
    )
    assert corrected.status_code == 200, corrected.json
    settlement()
    assert len(etags) == 4


def test_a_long_sheet_is_handed_on_to_the_long_printouts_workers(
    client: FlaskClient, evening: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exports, "LONG_HANDS", 2)
    path = f"/evenings/{evening}/sheet.pdf"
    handed = client.get(path, headers={printouts.POOL_HEADER: "print"})
    assert handed.headers["X-Accel-Redirect"] == f"/_long{path}?"
    assert handed.data == b""
    # Its own workers render it; a settlement is short and stays with the print workers.
    rendered = client.get(path, headers={printouts.POOL_HEADER: "long"})
    assert rendered.headers["X-Printout"] == "rendered"
    short = client.get(
        f"/evenings/{evening}/settlement.pdf", headers={printouts.POOL_HEADER: "print"}
    )
    assert short.headers["X-Printout"] == "rendered"
    # Once kept, the print workers send it themselves.
    kept = client.get(path, headers={printouts.POOL_HEADER: "print"})
    assert kept.headers["X-Printout"] == "kept"


def test_a_sheet_too_long_for_one_printout_is_offered_in_parts(
    client: FlaskClient, evening: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exports, "PART_HANDS", 2)
    whole = client.get(f"/evenings/{evening}/sheet.pdf", headers={"Accept-Language": "en"})
    assert whole.status_code == 303
    page = client.get(whole.headers["Location"], headers={"Accept-Language": "en"}).text
    assert "Score sheet, hands 1 to 2 (PDF)" in page
    assert "Score sheet, hands 3 to 3 (PDF)" in page
    assert f"/evenings/{evening}/sheet.pdf?part=2" in page
    second = client.get(f"/evenings/{evening}/sheet.pdf?part=2")
    assert second.status_code == 200
    assert "sheet-2" in second.headers["Content-Disposition"]
    assert client.get(f"/evenings/{evening}/sheet.pdf?part=3").status_code == 404
    api = client.get(f"/api/v1/evenings/{evening}/sheet.pdf")
    assert api.status_code == 409
    assert [p["first"] for p in api.json["parts"]] == [1, 3]
    settlement = client.get(f"/evenings/{evening}/settlement", headers={"Accept-Language": "en"})
    assert "Score sheet, hands 3 to 3 (PDF)" in settlement.text


def test_the_least_recently_used_printouts_go_first(tmp_path: Path) -> None:
    cache = PrintCache(tmp_path, limit=2500)
    for index, key in enumerate(("a", "b", "c")):
        cache.put(key, b"x" * 1000)
        os.utime(cache.path(key), (100 + index, 100 + index))
    assert not cache.path("a").exists()  # the third made room
    assert cache.get("b") is not None  # used now: "c" is the oldest
    cache.put("d", b"x" * 1000)
    assert [p.stem for p in sorted(tmp_path.glob("*.pdf"))] == ["b", "d"]
    assert not list(tmp_path.glob("*.part"))


def listen(folder: Path, count: int = 2) -> tuple[str, list[bytes], threading.Thread]:
    """A Unix socket standing in for the print workers: what each of ``count``
    connections sent."""
    path = str(folder / "print.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen()
    server.settimeout(10)
    heard: list[bytes] = []

    def take() -> None:
        with server:
            for _ in range(count):
                connection, _ = server.accept()
                with connection:
                    chunks = []
                    while chunk := connection.recv(4096):
                        chunks.append(chunk)
                    heard.append(b"".join(chunks))

    thread = threading.Thread(target=take)
    thread.start()
    return path, heard, thread


def test_a_closed_evening_is_asked_of_the_print_workers(
    make_app: Callable[..., Flask], tmp_path: Path, create_evening: Callable[..., int]
) -> None:
    """The close asks for the sheet and the settlement; the ask passes the PIN, by the
    app's own token, which nobody else can make."""
    short, heard, thread = listen(tmp_path)
    app = make_app(WTF_CSRF_ENABLED=False, ACCESS_PIN="4711", PRINT_SOCKETS=[short, short])
    client = app.test_client()
    assert client.post("/unlock", data={"pin": "4711"}).status_code in (302, 303)
    evening = client.post(
        "/api/v1/evenings", json={"game": "troggen", "players": ["Anna", "Bert", "Clara", "Dora"]}
    ).json["id"]
    client.post(f"/api/v1/evenings/{evening}/hands", json=HAND)
    assert client.post(f"/evenings/{evening}/close").status_code == 303
    thread.join()
    asked = sorted(h.decode() for h in heard)
    assert asked[0].startswith(f"GET /evenings/{evening}/settlement.pdf HTTP/1.1")
    assert asked[1].startswith(f"GET /evenings/{evening}/sheet.pdf HTTP/1.1")
    token = dict(line.split(": ", 1) for line in asked[1].split("\r\n")[1:] if ": " in line)[
        printouts.AHEAD_HEADER
    ]
    stranger = app.test_client()
    path = f"/evenings/{evening}/sheet.pdf"

    def unlock_asked(answer: Any) -> bool:
        return answer.status_code == 303 and "/unlock" in answer.headers["Location"]

    assert unlock_asked(stranger.get(path))
    assert unlock_asked(stranger.get(path, headers={printouts.AHEAD_HEADER: "0" * 64}))
    ahead = stranger.get(path, headers={printouts.AHEAD_HEADER: token})
    assert ahead.status_code == 200
    assert ahead.data.startswith(b"%PDF")
    # The token is for that printout only.
    other = f"/evenings/{evening}/settlement.pdf"
    assert unlock_asked(stranger.get(other, headers={printouts.AHEAD_HEADER: token}))


def test_tournament_printouts_are_kept_by_the_tournaments_state_and_asked_ahead(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    """A round's start asks for its seating list, cards and blank sheets; its close for
    its results and the standings. A hand played at a table is a new standings."""
    short, heard, thread = listen(tmp_path, count=5)
    app = make_app(WTF_CSRF_ENABLED=False, PRINT_SOCKETS=[short, short])
    client = app.test_client()
    body = {
        "name": "Turnier",
        "game": "troggen",
        "rounds": 1,
        "deals_per_player": 1,
        "password": "geheim123",
    }
    tid = client.post("/api/v1/tournaments", json=body).json["id"]
    for name in ("Anna", "Bert", "Clara", "Dora"):
        client.post(f"/api/v1/tournaments/{tid}/entrants", json={"name": name})
    assert client.post(f"/api/v1/tournaments/{tid}/rounds").status_code == 201
    table = client.post(f"/api/v1/tournaments/{tid}/rounds/1/start").json["tables"][0]
    standings = f"/tournaments/{tid}/standings.pdf"
    first = client.get(standings)
    assert client.get(standings).headers["X-Printout"] == "kept"
    bidder = table["players"][0]["name"]
    hand = {"contract": "einfach", "bidder": bidder, "points": 41}
    assert client.post(f"/api/v1/evenings/{table['evening']}/hands", json=hand).status_code == 201
    after = client.get(standings)
    assert after.headers["X-Printout"] == "rendered"
    assert after.headers["ETag"] != first.headers["ETag"]
    closed = client.post(f"/api/v1/tournaments/{tid}/rounds/1/close", json={"confirm": True})
    assert closed.status_code == 200
    thread.join()
    asked = sorted(h.decode().split(" ")[1] for h in heard)
    assert asked == [
        f"/tournaments/{tid}/rounds/1/cards.pdf",
        f"/tournaments/{tid}/rounds/1/results.pdf",
        f"/tournaments/{tid}/rounds/1/seating.pdf",
        f"/tournaments/{tid}/rounds/1/sheets.pdf",
        f"/tournaments/{tid}/standings.pdf",
    ]
