"""API: creating, listing, reading and correcting evenings; seating changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import PLAYERS4, PLAYERS5

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]


def test_create_echoes_the_complete_options_and_location(client: FlaskClient) -> None:
    body = {
        "game": "troggen",
        "variant": "blumenstein-2015",
        "players": PLAYERS4,
        "first_dealer": "Anna",
        "title": "Spielabend im Museum",
        "date": "2026-11-21",
        "options": {"unit_value": "0.10", "currency": "CHF", "end_pot": "split"},
    }
    response = client.post("/api/v1/evenings", json=body)
    assert response.status_code == 201
    data = response.json
    assert response.headers["Location"] == f"/api/v1/evenings/{data['id']}"
    assert data["options"] == {
        "unit_value": "0.10",
        "currency": "CHF",
        "coin": "0.05",
        "end_pot": "split",
        "threshold": "fixed-35",
        "partner_rounding": "nearest",
        "last_trick_payers": "all-others",
    }
    assert data["players"] == PLAYERS4
    assert data["next_dealer"] == "Anna"
    assert data["next_forehand"] == "Bert"
    assert data["hands"] == []
    assert data["pot"] == 0
    assert data["date"] == "2026-11-21"


def test_variant_and_first_dealer_default(client: FlaskClient) -> None:
    data = client.post("/api/v1/evenings", json={"game": "troggen", "players": PLAYERS5}).json
    assert data["variant"] == "blumenstein-2015"
    assert data["next_dealer"] == "Anna"
    assert data["options"]["coin"] == "0.05"


def test_coin_defaults_to_a_cent_outside_switzerland(client: FlaskClient) -> None:
    body = {"game": "troggen", "players": PLAYERS4, "options": {"currency": "EUR"}}
    assert client.post("/api/v1/evenings", json=body).json["options"]["coin"] == "0.01"


def test_list_is_newest_first(client: FlaskClient, create_evening: Callable[..., int]) -> None:
    first, second = create_evening(), create_evening(PLAYERS5)
    listed = client.get("/api/v1/evenings").json["evenings"]
    assert [e["id"] for e in listed] == [second, first]
    assert listed[0]["players"] == PLAYERS5


BAD_EVENINGS = [
    pytest.param({"players": PLAYERS4}, "game", "Choose a game.", id="game-missing"),
    pytest.param(
        {"game": "skat", "players": PLAYERS4}, "game", "Unknown game skat", id="unknown-game"
    ),
    pytest.param(
        {"game": "troggen", "variant": "x", "players": PLAYERS4},
        "variant",
        "Unknown variant x",
        id="unknown-variant",
    ),
    pytest.param(
        {"game": "troggen", "players": "Anna, Bert"},
        "players",
        "List the players' names in playing order.",
        id="players-not-a-list",
    ),
    pytest.param(
        {"game": "troggen", "players": ["Anna", 2, "Clara", "Dora"]},
        "players",
        "List the players' names in playing order.",
        id="player-not-a-string",
    ),
    pytest.param(
        {"game": "troggen", "players": ["Anna", "Bert", "anna ", "Dora"]},
        "players",
        "anna is listed twice.",
        id="duplicate-name-case-insensitive",
    ),
    pytest.param(
        {"game": "troggen", "players": ["Anna", "Bert", "Clara"]},
        "players",
        "This game is played by 4 to 6 players, not 3.",
        id="three-players",
    ),
    pytest.param(
        {"game": "troggen", "players": [*PLAYERS5, "Fritz", "Gina"]},
        "players",
        "This game is played by 4 to 6 players, not 7.",
        id="seven-players",
    ),
    pytest.param(
        {"game": "troggen", "players": ["Anna", "", "Clara", "Dora"]},
        "players",
        "A player's name is empty.",
        id="empty-name",
    ),
    # What SQLite would store but PostgreSQL refuses is refused on both, before the commit.
    pytest.param(
        {"game": "troggen", "players": ["Anna", "B" * 41, "Clara", "Dora"]},
        "players",
        "Names can be at most 40 characters long.",
        id="name-too-long",
    ),
    pytest.param(
        {"game": "troggen", "players": ["Anna", "\ufdfa" * 5, "Clara", "Dora"]},
        "players",
        "Names can be at most 40 characters long.",
        id="name-too-long-once-folded",
    ),
    pytest.param(
        {"game": "troggen", "players": ["Anna", "Be\u0000rt", "Clara", "Dora"]},
        "players",
        "Text cannot contain the NUL character.",
        id="nul-in-name",
    ),
    pytest.param(
        {"game": "troggen", "players": PLAYERS4, "title": "T" * 201},
        "title",
        "This can be at most 200 characters long.",
        id="title-too-long",
    ),
    pytest.param(
        {"game": "troggen", "players": PLAYERS4, "place": "Museum\u0000"},
        "place",
        "Text cannot contain the NUL character.",
        id="nul-in-place",
    ),
    pytest.param(
        {"game": "troggen", "players": PLAYERS4, "first_dealer": "Zora"},
        "first_dealer",
        "Zora is not at the table.",
        id="first-dealer-unknown",
    ),
    pytest.param(
        {"game": "troggen", "players": PLAYERS4, "options": {"stake": "2"}},
        "options.stake",
        "Unknown option stake.",
        id="unknown-option",
    ),
    pytest.param(
        {"game": "troggen", "players": PLAYERS4, "options": {"end_pot": "keep"}},
        "options.end_pot",
        "Choose one of: split, refund, carry.",
        id="bad-end-pot",
    ),
    pytest.param(
        {"game": "troggen", "players": PLAYERS4, "options": {"unit_value": 0.1}},
        "options.unit_value",
        "This option must be given as text.",
        id="unit-value-float",
    ),
    pytest.param(
        {"game": "troggen", "players": PLAYERS4, "options": {"coin": "0.003"}},
        "options.coin",
        "The coin must be a positive amount of whole cents, such as 0.05.",
        id="coin-fraction-of-a-cent",
    ),
    pytest.param(
        {"game": "troggen", "players": PLAYERS4, "options": {"currency": "franks"}},
        "options.currency",
        "Use a three-letter currency code such as CHF or EUR.",
        id="bad-currency",
    ),
    pytest.param(
        {"game": "troggen", "players": PLAYERS4, "date": "21.11.2026"},
        "date",
        "Write the date as year-month-day, such as 2026-11-21.",
        id="bad-date",
    ),
    pytest.param(
        {"game": "troggen", "players": PLAYERS4, "colour": "red"},
        "colour",
        "Unknown field colour.",
        id="unknown-field",
    ),
    pytest.param([1, 2], "body", "Send the evening as a JSON object.", id="not-an-object"),
]


@pytest.mark.parametrize(("body", "field", "message"), BAD_EVENINGS)
def test_bad_evening_is_refused_and_nothing_is_stored(
    client: FlaskClient, snapshot: Snapshot, body: Any, field: str, message: str
) -> None:
    before = snapshot()
    response = client.post("/api/v1/evenings", json=body)
    assert response.status_code == 422
    assert any(message in m for m in response.json["errors"][field]), response.json
    assert snapshot() == before


def test_a_refused_list_of_players_is_the_only_complaint_about_them(client: FlaskClient) -> None:
    # The first dealer stands in the list; blaming them as "not at the table" would send
    # the player looking for a mistake that is not there.
    players = ["Anna", "Bert", "Clara", "Dora", "Emil", "Fritz"]
    body = {"game": "doppen", "players": players, "first_dealer": "Anna"}
    response = client.post("/api/v1/evenings", json=body, headers={"Accept-Language": "en"})
    assert response.status_code == 422
    assert response.json == {
        "errors": {"players": ["This game is played by 3 to 4 players, not 6."]}
    }


def test_malformed_json_is_400(client: FlaskClient, snapshot: Snapshot) -> None:
    before = snapshot()
    response = client.post("/api/v1/evenings", data="{", content_type="application/json")
    assert response.status_code == 400
    assert response.json == {"errors": {"body": ["The body is not valid JSON."]}}
    assert snapshot() == before


def test_unknown_evening_is_404(client: FlaskClient) -> None:
    response = client.get("/api/v1/evenings/99")
    assert response.status_code == 404
    assert response.json == {"errors": {"request": ["There is no evening 99."]}}


def test_repeated_idempotency_key_creates_one_evening(client: FlaskClient) -> None:
    body = {"game": "troggen", "players": PLAYERS4}
    headers = {"Idempotency-Key": "abc-1"}
    first = client.post("/api/v1/evenings", json=body, headers=headers)
    again = client.post("/api/v1/evenings", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    assert again.headers["Location"] == first.headers["Location"]
    assert len(client.get("/api/v1/evenings").json["evenings"]) == 1


def test_patch_corrects_settings_and_keeps_a_revision(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening(title="Erster Abend")
    body = {"version": 1, "title": "Museumsabend", "options": {"unit_value": "0.20"}}
    response = client.patch(f"/api/v1/evenings/{evening}", json=body)
    assert response.status_code == 200
    assert response.json["title"] == "Museumsabend"
    assert response.json["version"] == 2
    assert response.json["options"]["unit_value"] == "0.20"
    assert response.json["options"]["end_pot"] == "split"
    revisions = client.get(f"/api/v1/evenings/{evening}/revisions").json["revisions"]
    assert [r["version"] for r in revisions] == [1, 2]
    assert revisions[0]["settings"]["title"] == "Erster Abend"
    assert revisions[1]["settings"]["options"]["unit_value"] == "0.20"


def test_patch_with_stale_version_is_409_and_changes_nothing(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot
) -> None:
    evening = create_evening()
    client.patch(f"/api/v1/evenings/{evening}", json={"version": 1, "title": "A"})
    before = snapshot()
    response = client.patch(f"/api/v1/evenings/{evening}", json={"version": 1, "title": "B"})
    assert response.status_code == 409
    assert response.json["title"] == "A"
    assert response.json["version"] == 2
    assert snapshot() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"title": "x"}, "version", id="version-missing"),
        pytest.param({"version": 1, "options": {"bogus": "1"}}, "options.bogus", id="option"),
        pytest.param({"version": 1, "first_dealer": "Zora"}, "first_dealer", id="dealer"),
        pytest.param({"version": 1, "players": ["A"]}, "players", id="players-not-patchable"),
    ],
)
def test_bad_patch_is_422_and_changes_nothing(
    client: FlaskClient,
    create_evening: Callable[..., int],
    snapshot: Snapshot,
    body: dict[str, Any],
    field: str,
) -> None:
    evening = create_evening()
    before = snapshot()
    response = client.patch(f"/api/v1/evenings/{evening}", json=body)
    assert response.status_code == 422
    assert field in response.json["errors"]
    assert snapshot() == before


def test_patch_first_dealer_moves_the_proposal_before_the_first_hand(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    response = client.patch(
        f"/api/v1/evenings/{evening}", json={"version": 1, "first_dealer": "clara"}
    )
    assert response.json["next_dealer"] == "Clara"


def test_seating_change_keeps_the_pot_and_every_player(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    record_hand(evening, {"contract": "einfach", "bidder": "Bert", "points": 20})
    response = client.post(
        f"/api/v1/evenings/{evening}/seating",
        json={"players": ["Anna", "Bert", "Clara", "Emil", "Fritz"], "dealer": "Emil"},
    )
    assert response.status_code == 200
    data = response.json
    assert data["players"] == ["Anna", "Bert", "Clara", "Emil", "Fritz"]
    assert data["all_players"] == ["Anna", "Bert", "Clara", "Dora", "Emil", "Fritz"]
    assert data["pot"] == 6
    assert data["next_dealer"] == "Emil"
    assert data["balances"]["Dora"] == -1
    hand = record_hand(
        evening, {"contract": "einfach", "bidder": "Fritz", "partner": None, "points": 40}
    )["hand"]
    assert hand["dealer"] == "Emil"
    assert hand["players"] == ["Anna", "Bert", "Clara", "Emil", "Fritz"]
    after = client.get(f"/api/v1/evenings/{evening}").json
    assert after["pot"] == 0
    assert after["balances"] == {
        "Anna": -2,
        "Bert": -4,
        "Clara": -2,
        "Dora": -1,
        "Emil": -1,
        "Fritz": 10,
    }
    assert sum(after["balances"].values()) == 0
    settlement = client.get(f"/api/v1/evenings/{evening}/settlement").json
    assert set(settlement["net"]) == set(after["all_players"])


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        pytest.param({"players": PLAYERS4[:3]}, "players", "not 3", id="too-few"),
        pytest.param({"players": PLAYERS4, "dealer": "Zora"}, "dealer", "Zora is not", id="dealer"),
        pytest.param({"players": ["Anna", "anna", "B", "C"]}, "players", "twice", id="dup"),
        pytest.param({"players": PLAYERS4, "seat": 1}, "seat", "Unknown field", id="unknown"),
    ],
)
def test_bad_seating_is_refused(
    client: FlaskClient,
    create_evening: Callable[..., int],
    snapshot: Snapshot,
    body: dict[str, Any],
    field: str,
    message: str,
) -> None:
    evening = create_evening()
    before = snapshot()
    response = client.post(f"/api/v1/evenings/{evening}/seating", json=body)
    assert response.status_code == 422
    assert any(message in m for m in response.json["errors"][field])
    assert snapshot() == before


def test_openapi_lists_every_endpoint(client: FlaskClient) -> None:
    paths = client.get("/api/v1/openapi.json").json["paths"]
    assert "/api/v1/evenings/{evening_id}/hands/{number}" in paths
    assert set(paths["/api/v1/evenings/{evening_id}/hands/{number}"]) >= {
        "get",
        "put",
        "delete",
    }


def test_errors_speak_german_when_asked(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/evenings",
        json={"game": "troggen", "players": ["Anna", "Bert", "Clara"]},
        headers={"Accept-Language": "de-CH,de;q=0.9"},
    )
    assert response.json["errors"]["players"] == [
        "Dieses Spiel wird von 4 bis 6 Personen gespielt, nicht von 3."
    ]


def test_a_player_cannot_be_called_like_the_pot(client: FlaskClient, snapshot: Snapshot) -> None:
    before = snapshot()
    body = {"game": "troggen", "players": ["Anna", "Bert", "Clara", "Pot"]}
    response = client.post("/api/v1/evenings", json=body)
    assert response.status_code == 422
    assert response.json["errors"]["players"] == [
        "Pot is reserved for the pot or the Kasse; please choose another name."
    ]
    assert snapshot() == before
