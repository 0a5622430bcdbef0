"""The API document tells the truth: schemathesis, with every check it has, against the
real server (``scripts/start``) on a database with evenings of every game and a
tournament under way (docs/api.md).

Every request the document allows must be accepted, except where the document itself
marks a ``422`` for rules that span fields or depend on what is stored
(``x-across-fields``): the check is told so for those operations, from the document, and
for no other. A wrong password, PIN or table code is meant to be refused, and the
per-address limits then answer 429 (``docs/hall-safety.md``); schemathesis expects both.
The ids in the paths are the seeded ones (docs/api.md), so the requests reach the
operations behind them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.web.openapi import spec
from tests.live.conftest import Server, StartServer, Tablet
from tests.web.tournaments.support import setup_body

#: Cases per operation and phase; the seed makes the cases repeatable.
EXAMPLES = 15
SEED = 20251
#: Operations checked at once: one. schemathesis's coverage phase walks schemas that its
#: workers share, and with two it once crashed inside itself ("internal error" in
#: ``cover_schema_iter``). The test runs beside another in the suite's parallel part, so a
#: second client won little time anyway.
CLIENTS = 1
#: What a request fitting its schema may be answered with anywhere: done, or refused for
#: a reason outside the request (access, a missing or changed thing, a wait).
ACCEPTED = ["2xx", "3xx", 401, 403, 404, 409, 429]
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


def across_fields(document: dict[str, Any]) -> list[tuple[str, str]]:
    """The operations whose ``422`` the document marks as rules across fields."""
    return sorted(
        (path, method.upper())
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if method != "parameters"
        and operation["responses"].get("422", {}).get("x-across-fields") is True
    )


def contract_config(document: dict[str, Any], ids: dict[str, int]) -> str:
    """schemathesis's configuration: the 422 allowed exactly where documented, and the
    path's ids those of the seeded evening and tournament (``number`` the first hand,
    player and round), so that requests reach the operations instead of a 404; random
    ids had left nine operations answering nothing but 404."""
    given = "".join(f'"path.{name}" = {value}\n' for name, value in ids.items())
    accepted = ", ".join(f'"{s}"' if isinstance(s, str) else str(s) for s in ACCEPTED)
    blocks = [
        f'[[operations]]\ninclude-path = "{path}"\ninclude-method = "{method}"\n'
        f"checks.positive_data_acceptance.expected-statuses = [{accepted}, 422]\n"
        for path, method in across_fields(document)
    ]
    return (
        f"[parameters]\n{given}\n"
        f"[checks.positive_data_acceptance]\nexpected-statuses = [{accepted}]\n\n"
        + "\n".join(blocks)
    )


def seed(server: Server) -> tuple[str, dict[str, int]]:
    """Evenings of every game with hands, and a tournament whose first round is under
    way; the organiser's bearer token, and the ids of the first evening and the
    tournament."""
    tablet = Tablet()
    evenings = [
        (
            {"game": "troggen", "players": ["Anna", "Bert", "Clara", "Dora", "Emil"]},
            {
                "contract": "einfach",
                "bidder": "Anna",
                "partner": "Clara",
                "points": 40,
                "last_trick": "none",
            },
        ),
        (
            {"game": "doppen", "players": ["Anna", "Bert", "Clara"]},
            {"contract": "dreier", "declarer": "Anna", "points": 40},
        ),
        ({"game": "troggu", "players": ["Anna", "Bert", "Clara", "Dora"]}, None),
    ]
    ids: dict[str, int] = {}
    for body, hand in evenings:
        created = server.api(tablet, "POST", "/evenings", body)
        assert created.status == 201, created.text
        ids.setdefault("evening_id", created.json["id"])
        if hand is not None:
            recorded = server.api(tablet, "POST", f"/evenings/{created.json['id']}/hands", hand)
            assert recorded.status in (201, 422), recorded.text
    created = server.api(tablet, "POST", "/tournaments", setup_body(rounds=3))
    assert created.status == 201, created.text
    tournament, token = created.json["id"], created.json["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    for number in range(8):
        entrant = {"name": f"Spielerin {number}"}
        answer = server.api(
            tablet, "POST", f"/tournaments/{tournament}/entrants", entrant, headers=bearer
        )
        assert answer.status == 201, answer.text
    for step in ("rounds", "rounds/1/start"):
        answer = server.api(tablet, "POST", f"/tournaments/{tournament}/{step}", headers=bearer)
        assert answer.status in (200, 201), answer.text
    return str(token), {**ids, "tournament_id": tournament, "number": 1}


def test_the_api_answers_as_its_document_says(
    start_server: StartServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The document is checked here, not the front's limit per address: its clients send
    # as fast as the server answers, from one address (docs/server.md).
    monkeypatch.setenv("SCOREKEEPER_ADDRESS_REQUESTS_PER_SECOND", "10000")
    monkeypatch.setenv("SCOREKEEPER_ADDRESS_BURST", "10000")
    server = start_server(workers=3, threads=1)
    token, ids = seed(server)
    config = tmp_path / "schemathesis.toml"
    config.write_text(contract_config(spec(), ids))
    run = subprocess.run(
        [
            str(SCHEMATHESIS),
            "--config-file",
            str(config),
            "run",
            f"{server.url}/api/v1/openapi.json",
            "--checks",
            "all",
            "--header",
            f"Authorization: Bearer {token}",
            "--max-examples",
            str(EXAMPLES),
            "--seed",
            str(SEED),
            "--workers",
            str(CLIENTS),
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout[-12000:] + run.stderr[-2000:]
