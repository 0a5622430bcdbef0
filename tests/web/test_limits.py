"""The limits of docs/limits.md through the JSON API and the pages: at the limit accepted,
one over refused with 422 and a message at the field (in the request's language), and
nothing stored.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert, select, update

from scorekeeper.core.rules.doppen_hand import MAX_PENALTIES_PER_PLAYER
from scorekeeper.core.validation import NAME_LENGTH, TEXT_LENGTH, VOID_LENGTH
from scorekeeper.db.extensions import db
from scorekeeper.db.kept import forget_all
from scorekeeper.db.models import Hand, Player
from scorekeeper.db.tournament_models import Tournament
from scorekeeper.operations.evenings import MAX_SEATINGS
from scorekeeper.operations.hands import MAX_HANDS
from scorekeeper.operations.tournament_setup import (
    MAX_ENTRANTS,
    MAX_START_NUMBER,
    NAME_OF_TOURNAMENT_LENGTH,
)
from tests.conftest import PLAYERS4
from tests.web.evenings.test_pages import NEW as PAGE_NEW
from tests.web.tournaments.support import (
    NAMES,
    create_tournament,
    draw,
    ok,
    play,
    register,
    setup_body,
    start,
)

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """The app with every address taking a body as large as an upload: the checks here are
    the ones behind the body limit, which refuses most of these bodies first
    (``test_bodies.py``; docs/limits.md "Bodies")."""
    return make_app(WTF_CSRF_ENABLED=False, BODY_MAX_BYTES=100 * 1024 * 1024)


EN = {"Accept-Language": "en"}
DE = {"Accept-Language": "de"}
BID = {"contract": "einfach", "bidder": "Anna", "won": True}


def test_the_numbers_are_the_documented_ones() -> None:
    """docs/limits.md gives these numbers and why; a change belongs there too."""
    assert (NAME_LENGTH, TEXT_LENGTH, VOID_LENGTH) == (40, 200, 200)
    assert (MAX_HANDS, MAX_PENALTIES_PER_PLAYER, MAX_SEATINGS) == (10_000, 3, 1000)
    assert (MAX_ENTRANTS, NAME_OF_TOURNAMENT_LENGTH) == (1000, 160)


def refused(response: Any, field: str, status: int = 422) -> list[str]:
    """The messages of a refused API request at ``field``."""
    assert response.status_code == status, (response.status_code, response.get_data(True)[:300])
    return list(response.json["errors"][field])


# -- evenings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            {"players": ["Anna", "B" * (NAME_LENGTH + 1), "Clara", "Dora"]},
            "players",
            "Names can be at most 40 characters long.",
        ),
        ({"title": "T" * (TEXT_LENGTH + 1)}, "title", "This can be at most 200 characters long."),
        ({"place": "P" * (TEXT_LENGTH + 1)}, "place", "This can be at most 200 characters long."),
        (
            {"players": [f"Gast {i}" for i in range(10_000)]},
            "players",
            "This game is played by 4 to 6 players, not 10000.",
        ),
    ],
    ids=["name", "title", "place", "players"],
)
def test_a_new_evening_over_a_limit_is_refused_and_nothing_stored(
    client: FlaskClient, snapshot: Snapshot, change: dict[str, Any], field: str, message: str
) -> None:
    before = snapshot()
    body = {"game": "troggen", "players": PLAYERS4, **change}
    assert refused(client.post("/api/v1/evenings", json=body, headers=EN), field) == [message]
    assert snapshot() == before


def test_a_new_evening_at_every_limit_is_stored(client: FlaskClient) -> None:
    name = "B" * NAME_LENGTH
    body = {
        "game": "troggen",
        "players": ["Anna", name, "Clara", "Dora"],
        "title": "T" * TEXT_LENGTH,
        "place": "P" * TEXT_LENGTH,
    }
    created = ok(client.post("/api/v1/evenings", json=body), 201)
    assert created["players"][1] == name
    assert (len(created["title"]), len(created["place"])) == (TEXT_LENGTH, TEXT_LENGTH)


def test_the_refusal_speaks_the_requests_language(client: FlaskClient) -> None:
    body = {"game": "troggen", "players": ["Anna", "B" * 41, "Clara", "Dora"]}
    answer = client.post("/api/v1/evenings", json=body, headers=DE)
    assert refused(answer, "players") == ["Namen dürfen höchstens 40 Zeichen lang sein."]


def test_correcting_an_evenings_title_is_bounded_too(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot
) -> None:
    evening = create_evening()
    before = snapshot()
    for key in ("title", "place"):
        body = {"version": 1, key: "x" * (TEXT_LENGTH + 1)}
        answer = client.patch(f"/api/v1/evenings/{evening}", json=body, headers=EN)
        assert refused(answer, key) == ["This can be at most 200 characters long."]
    assert snapshot() == before
    body = {"version": 1, "title": "x" * TEXT_LENGTH, "place": "y" * TEXT_LENGTH}
    assert ok(client.patch(f"/api/v1/evenings/{evening}", json=body))["version"] == 2


def test_a_seating_over_a_limit_is_refused_and_nothing_stored(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot
) -> None:
    evening = create_evening()
    url = f"/api/v1/evenings/{evening}/seating"
    before = snapshot()
    long_name = {"players": [*PLAYERS4, "E" * (NAME_LENGTH + 1)]}
    assert refused(client.post(url, json=long_name, headers=EN), "players") == [
        "Names can be at most 40 characters long."
    ]
    many = {"players": ["Anna"] * 100_000}
    assert refused(client.post(url, json=many, headers=EN), "players") == [
        "This game is played by 4 to 6 players, not 100000."
    ]
    assert snapshot() == before
    at_limit = {"players": [*PLAYERS4, "E" * NAME_LENGTH]}
    assert ok(client.post(url, json=at_limit))["players"][-1] == "E" * NAME_LENGTH


def test_a_longer_name_stored_before_stays_at_its_table(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    """Names of up to 80 characters were accepted before: their evenings go on."""
    evening = create_evening()
    old = "Anna-Barbara Zurbriggen-Imboden von Stalden-Ried"
    with app.app_context():
        db.session.execute(
            update(Player).where(Player.name == "Anna").values(name=old, name_key=old.casefold())
        )
        db.session.commit()
    forget_all(app)  # the name was stored before this server started
    body = {"players": [old, "Bert", "Clara", "Dora", "Emil"]}
    assert ok(client.post(f"/api/v1/evenings/{evening}/seating", json=body))["players"][0] == old
    elsewhere = client.post(
        "/api/v1/evenings", json={"game": "troggen", "players": [old, "Bert", "Clara", "Dora"]}
    )
    assert refused(elsewhere, "players")


def test_an_evenings_table_changes_at_most_so_often(
    client: FlaskClient,
    create_evening: Callable[..., int],
    snapshot: Snapshot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("scorekeeper.operations.evenings.MAX_SEATINGS", 3)
    evening = create_evening()
    url = f"/api/v1/evenings/{evening}/seating"
    for order in (PLAYERS4[::-1], PLAYERS4):
        ok(client.post(url, json={"players": order}))
    before = snapshot()
    answer = client.post(url, json={"players": PLAYERS4[::-1]}, headers=EN)
    assert refused(answer, "players") == ["An evening's table can change at most 2 times."]
    assert snapshot() == before


# -- hands ---------------------------------------------------------------------------------


@pytest.fixture
def doppen(create_evening: Callable[..., int]) -> int:
    """A Doppen evening of three."""
    return create_evening(["Anne", "Bert", "Clara"], game="doppen")


def revokes(*players: str) -> list[dict[str, str]]:
    """One revoke per name given."""
    return [{"player": p, "kind": "revoke"} for p in players]


def test_three_revokes_of_one_player_are_recorded(client: FlaskClient, doppen: int) -> None:
    body = {"contract": "pass", "penalties": revokes("Bert", "Bert", "Bert")}
    hand = ok(client.post(f"/api/v1/evenings/{doppen}/hands", json=body), 201)["hand"]
    assert hand["input"]["penalties"] == revokes("Bert", "Bert", "Bert")


@pytest.mark.alone  # a time limit
@pytest.mark.parametrize(
    ("count", "message"),
    [
        (4, "Bert can be fined for at most 3 revokes in one hand."),
        (100_000, "Each player can be fined for at most 3 revokes in one hand."),
    ],
)
def test_more_revokes_are_refused_quickly_and_nothing_stored(
    client: FlaskClient, doppen: int, snapshot: Snapshot, count: int, message: str
) -> None:
    """A hundred thousand revokes were once stored, and their score sheet took minutes."""
    before = snapshot()
    body = {"contract": "pass", "penalties": revokes(*["Bert"] * count)}
    started = time.perf_counter()
    answer = client.post(f"/api/v1/evenings/{doppen}/hands", json=body, headers=EN)
    assert time.perf_counter() - started < 5
    assert refused(answer, "penalties") == [message]
    assert snapshot() == before


def fill(app: Flask, evening: int, count: int) -> None:
    """Store hands 1 to ``count`` of a four-player Troggen evening directly, as quickly as
    the database takes them (recording each through the API would take minutes)."""
    with app.app_context():
        ids = {name: id_ for name, id_ in db.session.execute(select(Player.name, Player.id))}
        now = datetime.now(UTC)
        rows = [
            {
                "evening_id": evening,
                "number": n,
                "dealer_id": ids[PLAYERS4[(n - 2) % 4]],
                "input": {"contract": "einfach", "bidder": PLAYERS4[n % 4], "won": n % 3 > 0},
                "version": 1,
                "created_at": now,
                "updated_at": now,
                "source": "api",
            }
            for n in range(1, count + 1)
        ]
        db.session.execute(insert(Hand), rows)
        db.session.commit()


def test_hand_ten_thousand_is_recorded_and_the_next_refused(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot
) -> None:
    evening = create_evening(first_dealer="Dora")
    fill(app, evening, MAX_HANDS - 1)
    url = f"/api/v1/evenings/{evening}/hands"
    assert ok(client.post(url, json=BID), 201)["hand"]["number"] == MAX_HANDS
    before = snapshot()
    assert refused(client.post(url, json=BID, headers=EN), "evening") == [
        "An evening holds at most 10000 hands; start a new one."
    ]
    assert refused(client.post(url, json=BID, headers=DE), "evening") == [
        "Ein Abend fasst höchstens 10000 Runden; beginnen Sie einen neuen."
    ]
    assert snapshot() == before


def test_a_full_evening_says_so_on_its_page(
    client: FlaskClient,
    create_evening: Callable[..., int],
    snapshot: Snapshot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("scorekeeper.operations.hands.MAX_HANDS", 2)
    evening = create_evening(first_dealer="Dora")
    for _ in range(2):
        ok(client.post(f"/api/v1/evenings/{evening}/hands", json=BID), 201)
    before = snapshot()
    form = {"contract": "einfach", "bidder": "Anna", "result": "won", "token": "full"}
    page = client.post(f"/evenings/{evening}/hands", data=form, headers=EN)
    assert page.status_code == 422
    assert "An evening holds at most 2 hands; start a new one." in html.unescape(page.text)
    preview = client.post(f"/evenings/{evening}/hands/preview", data=form, headers=EN)
    assert "An evening holds at most 2 hands; start a new one." in html.unescape(preview.text)
    assert snapshot() == before


def test_a_void_reason_of_two_hundred_characters_is_kept(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    record_hand(evening, BID)
    url = f"/api/v1/evenings/{evening}/hands/1"
    assert refused(client.delete(url, json={"reason": "r" * 201}, headers=EN), "reason") == [
        "This can be at most 200 characters long."
    ]
    assert ok(client.delete(url, json={"reason": "r" * VOID_LENGTH}))["void"] == {
        "reason": "r" * VOID_LENGTH
    }


def test_a_void_reason_too_long_on_the_page_is_said_and_nothing_stored(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    snapshot: Snapshot,
) -> None:
    evening = create_evening()
    record_hand(evening, BID)
    before = snapshot()
    answer = client.post(
        f"/evenings/{evening}/hands/1/void", data={"reason": "r" * 201}, headers=EN
    )
    assert answer.status_code == 303
    page = client.get(answer.headers["Location"], headers=EN).text
    assert "This can be at most 200 characters long." in page
    assert snapshot()["hand"] == before["hand"]


def test_a_correction_reason_is_bounded_like_a_void_reason(
    app: Flask, client: FlaskClient, snapshot: Snapshot
) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, NAMES[:4])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    evening = round_["tables"][0]["evening"]
    play(client, evening, 4, seed=1)
    hand = ok(client.get(f"/api/v1/evenings/{evening}/hands/4"))
    body = {**hand["input"], "won": not hand["input"]["won"], "version": 1}
    url = f"/api/v1/evenings/{evening}/hands/4"
    before = snapshot()
    for reason in ("c" * (VOID_LENGTH + 1), "c" * 100_000):
        answer = client.put(url, json={**body, "correction": reason}, headers=EN)
        assert refused(answer, "correction") == ["This can be at most 200 characters long."]
    assert snapshot() == before
    answer = client.put(url, json={**body, "correction": "c" * VOID_LENGTH})
    assert ok(answer)["version"] == 2


# -- tournaments ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            {"name": "N" * (NAME_OF_TOURNAMENT_LENGTH + 1)},
            "name",
            "This can be at most 160 characters long.",
        ),
        ({"name": "N" * 100_000}, "name", "This can be at most 200 characters long."),
        ({"place": "P" * (TEXT_LENGTH + 1)}, "place", "This can be at most 200 characters long."),
    ],
    ids=["name", "name-huge", "place"],
)
def test_a_tournament_over_a_limit_is_refused_and_nothing_stored(
    client: FlaskClient, snapshot: Snapshot, change: dict[str, Any], field: str, message: str
) -> None:
    before = snapshot()
    answer = client.post("/api/v1/tournaments", json=setup_body(**change), headers=EN)
    assert refused(answer, field) == [message]
    assert snapshot() == before


def test_a_tournament_named_at_the_limit_starts_its_tables(client: FlaskClient) -> None:
    """Each table's evening is titled "<name>: Round 1, table 1": it fits a title."""
    name = "N" * NAME_OF_TOURNAMENT_LENGTH
    tournament = create_tournament(client, name=name, place="P" * TEXT_LENGTH, language="de")
    register(client, tournament, NAMES[:4])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    evening = ok(client.get(f"/api/v1/evenings/{round_['tables'][0]['evening']}"))
    assert evening["title"] == f"{name}: Durchgang 1, Tisch 1"


def test_a_longer_tournament_name_stored_before_stays(app: Flask, client: FlaskClient) -> None:
    tournament = create_tournament(client)
    old = "N" * (NAME_OF_TOURNAMENT_LENGTH + 10)
    with app.app_context():
        db.session.execute(update(Tournament).values(name=old))
        db.session.commit()
    body = {"version": 1, "password": "another-one"}
    assert ok(client.patch(f"/api/v1/tournaments/{tournament}", json=body))["name"] == old
    renamed = {"version": 2, "name": old + "x"}
    assert refused(client.patch(f"/api/v1/tournaments/{tournament}", json=renamed), "name")


def test_an_entrant_over_a_limit_is_refused_and_nothing_stored(
    client: FlaskClient, snapshot: Snapshot
) -> None:
    tournament = create_tournament(client)
    url = f"/api/v1/tournaments/{tournament}/entrants"
    before = snapshot()
    for body, field, message in [
        ({"name": "E" * (NAME_LENGTH + 1)}, "name", "Names can be at most 40 characters long."),
        ({"name": "Nul\x00"}, "name", "Text cannot contain the NUL character."),
        (
            {"name": "Emil", "club": "C" * (TEXT_LENGTH + 1)},
            "club",
            "This can be at most 200 characters long.",
        ),
    ]:
        assert refused(client.post(url, json=body, headers=EN), field) == [message]
    assert snapshot() == before
    entrant = ok(client.post(url, json={"name": "E" * NAME_LENGTH, "club": "C" * 200}), 201)
    assert entrant["name"] == "E" * NAME_LENGTH
    renamed = client.patch(f"{url}/{entrant['number']}", json={"name": "F" * 41}, headers=EN)
    assert refused(renamed, "name") == ["Names can be at most 40 characters long."]


def test_a_tournament_has_at_most_so_many_entrants(
    client: FlaskClient, snapshot: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("scorekeeper.operations.tournament_setup.MAX_ENTRANTS", 3)
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:3])
    before = snapshot()
    url = f"/api/v1/tournaments/{tournament}/entrants"
    answer = client.post(url, json={"name": "Dora"}, headers=EN)
    assert refused(answer, "entrants") == ["A tournament can have at most 3 players."]
    assert snapshot() == before


def test_start_numbers_stay_within_their_four_digits(client: FlaskClient) -> None:
    """Once the highest number is taken, the next entrant gets the lowest free one."""
    tournament = create_tournament(client)
    url = f"/api/v1/tournaments/{tournament}/entrants"
    ok(client.post(url, json={"name": "Anna"}), 201)
    ok(client.post(url, json={"name": "Bert", "number": MAX_START_NUMBER}), 201)
    assert ok(client.post(url, json={"name": "Clara"}), 201)["number"] == 2


# -- pages ---------------------------------------------------------------------------------

NEW = {k: v for k, v in PAGE_NEW.items() if k != "title"}  # the new-evening form


def maxlength(page: str, name: str) -> int:
    """The ``maxlength`` of the input called ``name``."""
    tag = re.search(rf'<input[^>]*\bname="{name}"[^>]*>', page)
    assert tag is not None, name
    found = re.search(r'\bmaxlength="?(\d+)', tag.group(0))
    assert found is not None, tag.group(0)
    return int(found.group(1))


def test_the_forms_say_the_limits_to_the_browser(client: FlaskClient) -> None:
    new = client.get("/evenings/new").text
    assert maxlength(new, "seat_0") == NAME_LENGTH
    assert maxlength(new, "title") == maxlength(new, "place") == TEXT_LENGTH
    setup = client.get("/tournaments/new").text
    assert maxlength(setup, "title") == NAME_OF_TOURNAMENT_LENGTH
    assert maxlength(setup, "place") == TEXT_LENGTH
    tournament = create_tournament(client)
    desk = client.get(f"/tournaments/{tournament}/players").text
    assert maxlength(desk, "name") == NAME_LENGTH
    assert maxlength(desk, "club") == TEXT_LENGTH
    assert maxlength(desk, "number") == len(str(MAX_START_NUMBER))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seat_1": "B" * (NAME_LENGTH + 1)}, "Names can be at most 40 characters long."),
        ({"title": "T" * (TEXT_LENGTH + 1)}, "This can be at most 200 characters long."),
    ],
    ids=["name", "title"],
)
def test_the_new_evening_page_refuses_over_a_limit(
    client: FlaskClient, snapshot: Snapshot, change: dict[str, str], message: str
) -> None:
    before = snapshot()
    answer = client.post("/evenings", data={**NEW, **change}, headers=EN)
    assert answer.status_code == 422
    assert message in html.unescape(answer.text)
    assert snapshot() == before


def test_the_registration_desk_refuses_a_long_name(client: FlaskClient, snapshot: Snapshot) -> None:
    tournament = create_tournament(client)
    before = snapshot()
    answer = client.post(f"/tournaments/{tournament}/players", data={"name": "E" * 41}, headers=EN)
    assert answer.status_code == 422
    assert "Names can be at most 40 characters long." in html.unescape(answer.text)
    assert snapshot() == before


def test_an_archive_of_more_hands_than_an_evening_holds_is_refused(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    snapshot: Snapshot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    evening = create_evening(first_dealer="Dora")
    for _ in range(3):
        record_hand(evening, BID)
    archive = ok(client.get(f"/api/v1/evenings/{evening}/export"))
    monkeypatch.setattr("scorekeeper.operations.archive_checks.MAX_HANDS", 2)
    before = snapshot()
    answer = client.post("/api/v1/evenings/import", json=archive, headers=EN)
    [message] = refused(answer, "file")
    assert message.startswith("The file holds more than 2 hands: too many for one evening.")
    assert snapshot() == before
    monkeypatch.setattr("scorekeeper.operations.archive_checks.MAX_HANDS", 3)
    assert ok(client.post("/api/v1/evenings/import", json=archive), 201)["hands"]
