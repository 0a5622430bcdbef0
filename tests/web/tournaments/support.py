"""Helpers for the tournament tests: set one up, register, draw, start, play and close rounds
through the JSON API, the way the organiser's laptop and the tables' tablets do.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from random import Random
from typing import Any

from flask.testing import FlaskClient

EN = {"Accept-Language": "en"}
PASSWORD = "museum-2026"
NAMES = [
    "Anna",
    "Bert",
    "Clara",
    "Dora",
    "Emil",
    "Frieda",
    "Gustav",
    "Hanna",
    "Ida",
    "Jakob",
    "Klara",
    "Leo",
    "Mia",
    "Noah",
    "Olga",
    "Paul",
]


def setup_body(**extra: Any) -> dict[str, Any]:
    """A valid set-up: Troggen, 3 rounds, each player deals once per round."""
    return {
        "name": "Tarockturnier im Museum",
        "game": "troggen",
        "rounds": 3,
        "deals_per_player": 1,
        "password": PASSWORD,
        **extra,
    }


def ok(response: Any, status: int = 200) -> dict[str, Any]:
    """The JSON of a response that must have ``status``."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    return dict(response.json or {})


def create_tournament(client: FlaskClient, **extra: Any) -> int:
    """Set up a tournament; ``client`` is then its organiser."""
    return int(ok(client.post("/api/v1/tournaments", json=setup_body(**extra)), 201)["id"])


def register(client: FlaskClient, tournament: int, names: Iterable[str]) -> list[int]:
    """Register players (checked in); their start numbers."""
    return [
        int(
            ok(client.post(f"/api/v1/tournaments/{tournament}/entrants", json={"name": n}), 201)[
                "number"
            ]
        )
        for n in names
    ]


def draw(client: FlaskClient, tournament: int) -> dict[str, Any]:
    """Draw the next round."""
    return ok(client.post(f"/api/v1/tournaments/{tournament}/rounds"), 201)


def start(client: FlaskClient, tournament: int, number: int) -> dict[str, Any]:
    """Start a drawn round."""
    return ok(client.post(f"/api/v1/tournaments/{tournament}/rounds/{number}/start"))


def close(client: FlaskClient, tournament: int, number: int, *, confirm: bool = False) -> Any:
    """Close a round (the response, whatever it is)."""
    body = {"confirm": True} if confirm else {}
    return client.post(f"/api/v1/tournaments/{tournament}/rounds/{number}/close", json=body)


def seated(table: dict[str, Any]) -> list[int]:
    """Start numbers of a round's table in seat order."""
    return [p["number"] for p in table["players"]]


def hand_body(players: list[str], index: int, rng: Random) -> dict[str, Any]:
    """A simple bid, different from hand to hand: who bids, what, won or lost."""
    body: dict[str, Any] = {
        "contract": rng.choice(["einfach", "einfach", "doppelt", "ohne"]),
        "bidder": players[(index + rng.randrange(len(players))) % len(players)],
        "won": rng.random() < 0.6,
    }
    if len(players) > 4:
        body["partner"] = None
    return body


def play(client: FlaskClient, evening: int, hands: int, *, seed: int = 0) -> None:
    """Record ``hands`` hands at a table through the API."""
    players = ok(client.get(f"/api/v1/evenings/{evening}"))["players"]
    rng = Random(seed)
    for index in range(hands):
        response = client.post(
            f"/api/v1/evenings/{evening}/hands", json=hand_body(players, index, rng)
        )
        ok(response, 201)


def play_round(client: FlaskClient, round_: dict[str, Any], *, seed: int = 0) -> None:
    """Every table of a started round plays all its hands."""
    for offset, table in enumerate(round_["tables"]):
        play(client, table["evening"], table["hands_due"], seed=seed * 100 + offset)


def ledger_totals(client: FlaskClient, tournament: int) -> dict[int, Fraction]:
    """Each entrant's total replayed by hand from the tables' settlements: the sum of their
    ``final`` amounts, and for a bye the average of the round's seated players."""
    totals: dict[int, Fraction] = {}
    for round_ in ok(client.get(f"/api/v1/tournaments/{tournament}/rounds"))["rounds"]:
        if round_["state"] == "drawn":
            continue
        results: list[int] = []
        for table in round_["tables"]:
            evening = ok(client.get(f"/api/v1/evenings/{table['evening']}"))
            final = ok(client.get(f"/api/v1/evenings/{table['evening']}/settlement"))["final"]
            for number, name in zip(seated(table), evening["players"], strict=True):
                totals[number] = totals.get(number, Fraction(0)) + final[name]
                results.append(final[name])
        for bye in round_["byes"]:
            average = Fraction(sum(results), len(results))
            totals[bye["number"]] = totals.get(bye["number"], Fraction(0)) + average
    return totals


def exact(value: int | str) -> Fraction:
    """An amount as the API writes it: a whole number or "a/b"."""
    return Fraction(value)
