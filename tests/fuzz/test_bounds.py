"""Over-long input at every write endpoint (docs/limits.md): refused with 422 at its field,
never a server error, and nothing stored.

Each test takes a body the endpoint would accept, makes one list or text longer than its
limit (by one, by a little, or by far: a hundred thousand entries, a hundred thousand
characters) and sends it to the shared fuzz world (``tests/fuzz/world.py``); the
correction of a closed tournament table, which the world lacks, goes to a database of its
own. Every table's rows are compared before and after; the world is put back should
anything change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from scorekeeper.core.rules.doppen_hand import MAX_PENALTIES_PER_PLAYER
from scorekeeper.core.validation import NAME_LENGTH, TEXT_LENGTH, VOID_LENGTH
from scorekeeper.operations.tournament_setup import NAME_OF_TOURNAMENT_LENGTH
from tests.conftest import sqlite_only
from tests.fuzz.world import EveningInfo, World, without_counted
from tests.web.evenings.test_pages import NEW as PAGE_NEW
from tests.web.tournaments.support import NAMES, create_tournament, draw, ok, play, register, start

#: The fuzzers' world is a SQLite file of its own, put back after every change (world.py).
pytestmark = sqlite_only

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]

#: Few examples each: every one sends a request and compares the whole database twice.
BOUNDS = settings(
    max_examples=20,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
EN = {"Accept-Language": "en"}
#: What an over-long text is made of: characters one, two and four bytes wide in UTF-8 (the
#: last two UTF-16 units, as JavaScript counts a maxlength), and a pair.
UNITS = ["x", "Ä", "😀", "ab"]


def over(limit: int) -> st.SearchStrategy[int]:
    """A length over ``limit``: just over it mostly, sometimes far over."""
    return st.one_of(
        st.integers(limit + 1, limit + 3),
        st.integers(limit + 1, 4 * limit + 10),
        st.sampled_from([10_000, 100_000]),
    )


def long_text(limit: int) -> st.SearchStrategy[str]:
    """A text with more characters than ``limit`` (none of them spaces, which are cut)."""
    return st.builds(
        lambda unit, n: (unit * n)[:n] if len(unit) > 1 else unit * n,
        st.sampled_from(UNITS),
        over(limit),
    )


def evening(world: World, game: str, size: int) -> EveningInfo:
    """An open casual evening of ``game`` at ``size`` players: one of the world's first ten,
    but for the second, which is closed."""
    return next(
        e
        for i, e in enumerate(world.evenings[:10])
        if i != 1 and e.game == game and len(e.players) == size and e.variant != "eisten-stalden"
    )


def eisten_stalden(world: World) -> EveningInfo:
    """The world's Eisten-Stalden evening."""
    return next(e for e in world.evenings if e.variant == "eisten-stalden")


def send(
    world: World,
    method: str,
    path: str,
    *,
    json: Any = None,
    data: dict[str, str] | None = None,
    caller: str = "organiser",
) -> TestResponse:
    """Send one request and check it was refused and stored nothing. Every address takes
    a body as large as an upload here: the limits fuzzed are the checks' own, behind the
    body limit, which refuses the largest of these bodies first (docs/limits.md
    "Bodies")."""
    before = world.snapshot()
    client: FlaskClient = world.client()
    headers = {**world.callers[caller], **EN}
    with world.configured(BODY_MAX_BYTES=100 * 1024 * 1024):
        response = client.open(path, method=method, json=json, data=data, headers=headers)
    after = world.snapshot()
    try:
        note(f"{method} {path}: {response.status_code} {response.get_data()[:300]!r}")
        assert response.status_code < 500, response.get_data()[:500]
        assert 400 <= response.status_code < 500, response.status_code
        assert without_counted(after) == without_counted(before), "a refusal changed data"
    finally:
        world.reset_if_changed(after)
    return response


def refused_at(response: TestResponse, *fields: str) -> None:
    """422 with a message at one of ``fields`` (the API's error shape, docs/api.md "Errors")."""
    assert response.status_code == 422, (response.status_code, response.get_data()[:300])
    errors = response.get_json()["errors"]
    assert any(errors.get(f) for f in fields), errors


# -- evenings ------------------------------------------------------------------------------

NEW_EVENING = {"game": "troggen", "players": ["Anna", "Bert", "Clara", "Dora"]}


@BOUNDS
@given(data=st.data())
def test_new_evening(world: World, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["players", "name", "title", "place"]))
    body: dict[str, Any] = dict(NEW_EVENING)
    if kind == "players":
        count = data.draw(over(6))
        body["players"] = [f"Gast {i}" for i in range(count)]
    elif kind == "name":
        body["players"] = ["Anna", data.draw(long_text(NAME_LENGTH)), "Clara", "Dora"]
    else:
        body[kind] = data.draw(long_text(TEXT_LENGTH))
    field = "players" if kind == "name" else kind
    refused_at(send(world, "POST", "/api/v1/evenings", json=body), field)


@BOUNDS
@given(data=st.data())
def test_correct_evening(world: World, data: st.DataObject) -> None:
    info = evening(world, "troggen", 4)
    key = data.draw(st.sampled_from(["title", "place"]))
    body = {"version": info.version, key: data.draw(long_text(TEXT_LENGTH))}
    refused_at(send(world, "PATCH", f"/api/v1/evenings/{info.id}", json=body), key)


@BOUNDS
@given(data=st.data())
def test_seating(world: World, data: st.DataObject) -> None:
    info = evening(world, "troggen", 4)
    if data.draw(st.booleans()):
        players = [*info.players, data.draw(long_text(NAME_LENGTH))]
    else:
        players = [f"Gast {i}" for i in range(data.draw(over(6)))]
    path = f"/api/v1/evenings/{info.id}/seating"
    refused_at(send(world, "POST", path, json={"players": players}), "players")


# -- hands ---------------------------------------------------------------------------------


@st.composite
def long_hand(draw: st.DrawFn, world: World) -> tuple[EveningInfo, dict[str, Any], str]:
    """An evening and a hand with one list longer than its bound; the field refused."""
    kind = draw(st.sampled_from(["revokes", "misere", "team"]))
    if kind == "revokes":
        info = evening(world, "doppen", 3)
        count = draw(st.one_of(st.integers(MAX_PENALTIES_PER_PLAYER + 1, 12), over(9)))
        player = draw(st.sampled_from(info.players))
        penalties = [{"player": player, "kind": "revoke"}] * count
        return info, {"contract": "pass", "penalties": penalties}, "penalties"
    if kind == "misere":
        info = evening(world, "troggen", 4)
        points = {name: 10 for name in info.players}
        for i in range(draw(over(0))):
            points[f"Gast {i}"] = 0
        return info, {"contract": "misere", "points": points}, "points"
    info = eisten_stalden(world)
    team = [*info.players, *(f"Gast {i}" for i in range(draw(over(0))))]
    return info, {"contract": "team", "team": team, "points": 61}, "team"


@BOUNDS
@given(data=st.data())
def test_record_hand(world: World, data: st.DataObject) -> None:
    info, body, field = data.draw(long_hand(world))
    refused_at(send(world, "POST", f"/api/v1/evenings/{info.id}/hands", json=body), field)


@BOUNDS
@given(data=st.data())
def test_replace_hand(world: World, data: st.DataObject) -> None:
    info, body, field = data.draw(long_hand(world))
    number = min(info.hands)
    body = {**body, "version": info.hands[number]["version"]}
    path = f"/api/v1/evenings/{info.id}/hands/{number}"
    refused_at(send(world, "PUT", path, json=body), field)


def test_correction_of_a_closed_table(client: FlaskClient, snapshot: Snapshot) -> None:
    """An organiser's reason for changing a closed tournament table (the world has no
    closed table with a hand: this one is played to its end on a database of its own).
    Its app takes a body as large as an upload, as ``send`` does."""
    client.application.config["BODY_MAX_BYTES"] = 100 * 1024 * 1024
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, NAMES[:4])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    table = round_["tables"][0]["evening"]
    play(client, table, 4, seed=1)
    hand = ok(client.get(f"/api/v1/evenings/{table}/hands/4"))
    body = {**hand["input"], "won": not hand["input"]["won"], "version": hand["version"]}

    @BOUNDS
    @given(reason=long_text(VOID_LENGTH))
    def correct(reason: str) -> None:
        before = snapshot()
        response = client.put(
            f"/api/v1/evenings/{table}/hands/4", json={**body, "correction": reason}, headers=EN
        )
        refused_at(response, "correction")
        assert snapshot() == before

    correct()


@BOUNDS
@given(data=st.data())
def test_void_hand(world: World, data: st.DataObject) -> None:
    info = evening(world, "doppen", 3)
    body = {"reason": data.draw(long_text(VOID_LENGTH))}
    refused_at(send(world, "DELETE", f"/api/v1/evenings/{info.id}/hands/1", json=body), "reason")


# -- tournaments ---------------------------------------------------------------------------

NEW_TOURNAMENT = {
    "name": "Frühlingsturnier",
    "game": "troggen",
    "rounds": 2,
    "deals_per_player": 1,
    "password": "museum-2026",
}


@st.composite
def long_setup(draw: st.DrawFn) -> tuple[str, str]:
    """A set-up field and a text too long for it."""
    key = draw(st.sampled_from(["name", "place"]))
    limit = NAME_OF_TOURNAMENT_LENGTH if key == "name" else TEXT_LENGTH
    return key, draw(long_text(limit))


@BOUNDS
@given(data=st.data())
def test_new_tournament(world: World, data: st.DataObject) -> None:
    key, value = data.draw(long_setup())
    body = {**NEW_TOURNAMENT, key: value}
    refused_at(send(world, "POST", "/api/v1/tournaments", json=body), key)


@BOUNDS
@given(data=st.data())
def test_correct_tournament(world: World, data: st.DataObject) -> None:
    tournament = world.tournaments[1]
    key, value = data.draw(long_setup())
    body = {"version": tournament.version, key: value}
    refused_at(send(world, "PATCH", f"/api/v1/tournaments/{tournament.id}", json=body), key)


@st.composite
def long_entrant(draw: st.DrawFn) -> tuple[dict[str, str], str]:
    """An entrant body with a name or club too long."""
    if draw(st.booleans()):
        return {"name": draw(long_text(NAME_LENGTH))}, "name"
    return {"name": "Zora", "club": draw(long_text(TEXT_LENGTH))}, "club"


@BOUNDS
@given(data=st.data())
def test_register(world: World, data: st.DataObject) -> None:
    tournament = world.tournaments[1]
    body, field = data.draw(long_entrant())
    path = f"/api/v1/tournaments/{tournament.id}/entrants"
    refused_at(send(world, "POST", path, json=body), field)


@BOUNDS
@given(data=st.data())
def test_change_entrant(world: World, data: st.DataObject) -> None:
    tournament = world.tournaments[1]
    body, field = data.draw(long_entrant())
    path = f"/api/v1/tournaments/{tournament.id}/entrants/{tournament.entrants[0]}"
    refused_at(send(world, "PATCH", path, json=body), field)


# -- page forms ----------------------------------------------------------------------------

NEW_EVENING_FORM = {k: v for k, v in PAGE_NEW.items() if k != "title"}  # the new-evening form


@BOUNDS
@given(data=st.data())
def test_new_evening_page(world: World, data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(["seat_1", "title", "place"]))
    limit = NAME_LENGTH if key.startswith("seat") else TEXT_LENGTH
    form = {**NEW_EVENING_FORM, key: data.draw(long_text(limit))}
    response = send(world, "POST", "/evenings", data=form)
    assert response.status_code == 422
    assert "characters long" in response.get_data(as_text=True)


@BOUNDS
@given(data=st.data())
def test_registration_desk(world: World, data: st.DataObject) -> None:
    tournament = world.tournaments[1]
    body, _ = data.draw(long_entrant())
    response = send(
        world,
        "POST",
        f"/tournaments/{tournament.id}/players",
        data=body,
        caller="organiser-cookie",
    )
    assert response.status_code == 422
    assert "characters long" in response.get_data(as_text=True)
