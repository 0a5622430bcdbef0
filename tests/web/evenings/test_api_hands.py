"""API: recording, replacing and voiding hands; revisions; idempotency; dealer rotation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.db.extensions import db
from scorekeeper.db.models import HandRevision
from tests.conftest import PLAYERS4, PLAYERS5, SERVER_URL

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]

G1 = {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"}
G2 = {"contract": "ohne", "bidder": "Anna", "points": 33, "last_trick": "king_lost"}
G5 = [
    {"contract": "doppelt", "bidder": "Anna", "partner": "Dora", "points": 30},
    {"contract": "misere", "points": {"Anna": 8, "Bert": 20, "Clara": 12, "Dora": 15, "Emil": 12}},
    {"contract": "einfach", "bidder": "Clara", "partner": "Emil", "points": 37},
]


def test_g1_g2_through_the_api(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(first_dealer="Dora")
    first = record_hand(evening, G1)
    assert first["hand"]["deltas"] == {"Anna": 12, "Bert": -4, "Clara": -4, "Dora": -4}
    assert first["hand"]["dealer"] == "Dora"
    assert first["hand"]["forehand"] == "Anna"
    assert first["hand"]["input"] == G1
    assert first["pot"] == 0
    second = record_hand(evening, G2)
    assert second["hand"]["dealer"] == "Anna"
    assert second["balances"] == {"Anna": -6, "Bert": -6, "Clara": -6, "Dora": -6}
    assert second["pot"] == 24
    for line_total in (first["hand"], second["hand"]):
        summed: dict[str, int] = {}
        for line in line_total["lines"]:
            for account, amount in line["amounts"].items():
                summed[account] = summed.get(account, 0) + amount
        assert {p: summed.get(p, 0) for p in PLAYERS4} == line_total["deltas"]


def test_g5_through_the_api(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(PLAYERS5)
    answers = [record_hand(evening, body) for body in G5]
    assert [a["pot"] for a in answers] == [16, 26, 0]
    assert answers[-1]["balances"] == {"Anna": -9, "Bert": -7, "Clara": 16, "Dora": -5, "Emil": 5}


BAD_HANDS_4 = [
    pytest.param(
        {"contract": "doppelt", "bidder": "Zora", "points": 40},
        "bidder",
        "Zora is not at the table.",
        id="unknown-bidder",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": 3, "points": 40},
        "bidder",
        "3 is not at the table.",
        id="bidder-not-a-string",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "points": 71},
        "points",
        "Enter a number between 0 and 70.",
        id="points-above-total",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "points": -1},
        "points",
        "Enter a number between 0 and 70.",
        id="points-negative",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "points": "viele"},
        "points",
        "Enter a whole number.",
        id="points-not-a-number",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "points": 40.5},
        "points",
        "Enter a whole number.",
        id="points-float",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "points": True},
        "points",
        "Enter a whole number.",
        id="points-bool",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "partner": "Bert", "points": 40},
        "partner",
        "At a table of four the Bieterin plays alone.",
        id="partner-at-4",
    ),
    pytest.param(
        {"contract": "fünffach", "bidder": "Anna", "points": 40},
        "contract",
        "Choose one of: einfach, doppelt, ohne, gegen, misere.",
        id="bad-contract",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "points": 40, "trumps": 9},
        "trumps",
        "Unknown field trumps.",
        id="unknown-field",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna"},
        "points",
        "Enter the points of the Bieterin's side.",
        id="points-missing",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "won": "yes"},
        "won",
        "Say whether the hand was won: true or false.",
        id="won-not-bool",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "points": 3, "last_trick": "pagat_won"},
        "points",
        "at least 5 points",
        id="pagat-won-3",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "points": 40, "kulanz": 2},
        "kulanz",
        "Kulanz goes to the partner",
        id="kulanz-without-partner",
    ),
    pytest.param(
        {"contract": "misere", "points": {"Anna": 10, "Bert": 20, "Clara": 30}},
        "points",
        "Enter the points of every player: Dora.",
        id="misere-missing",
    ),
    pytest.param(
        {
            "contract": "misere",
            "points": {"Anna": 10, "Bert": 20, "Clara": 30, "Dora": 10, "Zora": 1},
        },
        "points",
        "Zora is not at the table.",
        id="misere-unknown-player",
    ),
    pytest.param(
        {"contract": "misere", "points": {"Anna": 71, "Bert": 0, "Clara": 0, "Dora": 0}},
        "points.Anna",
        "Enter a number between 0 and 70.",
        id="misere-point-range",
    ),
    pytest.param(
        {"contract": "misere", "points": {"Anna": 10, "Bert": 10, "Clara": 10, "Dora": 10}},
        "points",
        "between 45 and 71",
        id="misere-sum-too-low",
    ),
    pytest.param(
        {"contract": "misere", "points": [10, 20, 20, 20]},
        "points",
        "Enter the points of every player.",
        id="misere-points-not-object",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "points": 40, "dealer": "Zora"},
        "dealer",
        "Zora is not at the table.",
        id="unknown-dealer",
    ),
    pytest.param(
        {"contract": "doppelt", "bidder": "Anna", "points": 40, "confirm": "ja"},
        "confirm",
        "Confirm with true or false.",
        id="confirm-not-bool",
    ),
]


@pytest.mark.parametrize(("body", "field", "message"), BAD_HANDS_4)
def test_bad_hand_at_four_is_refused_and_nothing_is_stored(
    client: FlaskClient,
    create_evening: Callable[..., int],
    snapshot: Snapshot,
    body: Any,
    field: str,
    message: str,
) -> None:
    evening = create_evening()
    before = snapshot()
    response = client.post(f"/api/v1/evenings/{evening}/hands", json=body)
    assert response.status_code == 422
    assert any(message in m for m in response.json["errors"][field]), response.json
    assert snapshot() == before


BAD_HANDS_5 = [
    pytest.param(
        {"contract": "einfach", "bidder": "Anna", "points": 40},
        "partner",
        "Say who held the called king",
        id="partner-missing",
    ),
    pytest.param(
        {"contract": "einfach", "bidder": "Anna", "partner": "Anna", "points": 40},
        "partner",
        "The partner is another player",
        id="partner-is-bidder",
    ),
    pytest.param(
        {"contract": "einfach", "bidder": "Anna", "partner": "Zora", "points": 40},
        "partner",
        "Zora is not at the table.",
        id="partner-unknown",
    ),
    pytest.param(
        {"contract": "einfach", "bidder": "Anna", "partner": "Bert", "points": 68},
        "points",
        "Enter a number between 0 and 67.",
        id="points-above-67",
    ),
    pytest.param(
        {"contract": "einfach", "bidder": "Anna", "partner": "Bert", "points": 40, "kulanz": 8},
        "kulanz",
        "at most 7 jetons",
        id="kulanz-too-large",
    ),
    pytest.param(
        {"contract": "einfach", "bidder": "Anna", "partner": "Bert", "points": 20, "kulanz": 1},
        "kulanz",
        "only given from a pot that was won",
        id="kulanz-on-a-lost-hand",
    ),
]


@pytest.mark.parametrize(("body", "field", "message"), BAD_HANDS_5)
def test_bad_hand_at_five_is_refused_and_nothing_is_stored(
    client: FlaskClient,
    create_evening: Callable[..., int],
    snapshot: Snapshot,
    body: Any,
    field: str,
    message: str,
) -> None:
    evening = create_evening(PLAYERS5)
    before = snapshot()
    response = client.post(f"/api/v1/evenings/{evening}/hands", json=body)
    assert response.status_code == 422
    assert any(message in m for m in response.json["errors"][field]), response.json
    assert snapshot() == before


def test_misere_checksum_asks_for_confirmation(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot
) -> None:
    evening = create_evening()
    body = {
        "contract": "misere",
        "points": {"Anna": 10, "Bert": 20, "Clara": 21, "Dora": 11},
        "talon_points": 4,
    }
    before = snapshot()
    response = client.post(f"/api/v1/evenings/{evening}/hands", json=body)
    assert response.status_code == 422
    assert "errors" not in response.json
    assert "should add up to 66" in response.json["warnings"]["points"][0]
    assert snapshot() == before
    confirmed = client.post(f"/api/v1/evenings/{evening}/hands", json={**body, "confirm": True})
    assert confirmed.status_code == 201
    assert confirmed.json["hand"]["input"] == body
    assert confirmed.json["pot"] == 8


def test_quick_won_entry_is_recorded_as_said(
    create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    answer = record_hand(evening, {"contract": "einfach", "bidder": "Bert", "won": True})
    assert answer["hand"]["input"] == {
        "contract": "einfach",
        "bidder": "Bert",
        "won": True,
        "last_trick": "none",
    }
    assert answer["hand"]["deltas"]["Bert"] == 3


def test_names_are_matched_whatever_their_case(
    create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    answer = record_hand(evening, {"contract": "einfach", "bidder": " bert ", "points": 40})
    assert answer["hand"]["input"]["bidder"] == "Bert"


def test_dealer_rotates_and_can_be_corrected(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    hand = {"contract": "einfach", "bidder": "Bert", "points": 40}
    assert record_hand(evening, hand)["hand"]["dealer"] == "Anna"
    assert record_hand(evening, {**hand, "dealer": "Dora"})["hand"]["dealer"] == "Dora"
    assert record_hand(evening, hand)["hand"]["dealer"] == "Anna"
    assert client.get(f"/api/v1/evenings/{evening}").json["next_dealer"] == "Bert"


def test_repeated_idempotency_key_records_one_hand(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    url = f"/api/v1/evenings/{evening}/hands"
    headers = {"Idempotency-Key": "tablet-1-hand-1"}
    first = client.post(url, json=G1, headers=headers)
    again = client.post(url, json=G1, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    hands = client.get(f"/api/v1/evenings/{evening}").json["hands"]
    assert len(hands) == 1
    other = create_evening()
    elsewhere = client.post(f"/api/v1/evenings/{other}/hands", json=G1, headers=headers)
    assert elsewhere.status_code == 201  # keys are unique per evening


def test_refused_hand_does_not_use_up_its_idempotency_key(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    url = f"/api/v1/evenings/{evening}/hands"
    headers = {"Idempotency-Key": "k"}
    assert client.post(url, json={**G1, "points": 99}, headers=headers).status_code == 422
    assert client.post(url, json=G1, headers=headers).status_code == 201


def test_replace_recomputes_later_hands_and_keeps_dealers(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(PLAYERS5)
    for body in G5:
        record_hand(evening, body)
    before = client.get(f"/api/v1/evenings/{evening}").json
    dealers = [h["dealer"] for h in before["hands"]]
    won_first = {**G5[0], "points": 36, "version": 1}
    response = client.put(f"/api/v1/evenings/{evening}/hands/1", json=won_first)
    assert response.status_code == 200
    assert response.json["version"] == 2
    assert response.json["deltas"] == {"Anna": 6, "Bert": -2, "Clara": -2, "Dora": 0, "Emil": -2}
    after = client.get(f"/api/v1/evenings/{evening}").json
    assert [h["dealer"] for h in after["hands"]] == dealers
    # Hand 2's misère now starts from an empty pot, hand 3's carry-over is 10, not 26.
    assert [h["pot"] for h in after["hands"]] == [0, 10, 0]
    # Emil: stake 1 back plus round(10 / 3) = 3; Clara takes the other 14 of 18.
    assert after["hands"][2]["deltas"] == {
        "Anna": -1,
        "Bert": -1,
        "Clara": 10,
        "Dora": -1,
        "Emil": 3,
    }
    assert after["balances"] == {"Anna": 5, "Bert": -7, "Clara": 6, "Dora": -3, "Emil": -1}
    settlement = client.get(f"/api/v1/evenings/{evening}/settlement").json
    assert settlement["net"] == {
        "Anna": "0.50",
        "Bert": "-0.70",
        "Clara": "0.60",
        "Dora": "-0.30",
        "Emil": "-0.10",
    }
    restored = client.put(f"/api/v1/evenings/{evening}/hands/1", json={**G5[0], "version": 2})
    assert restored.status_code == 200
    again = client.get(f"/api/v1/evenings/{evening}").json
    assert again["balances"] == before["balances"]
    assert [h["deltas"] for h in again["hands"]] == [h["deltas"] for h in before["hands"]]


def test_replace_with_stale_version_is_409_with_the_current_hand(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    snapshot: Snapshot,
) -> None:
    evening = create_evening()
    record_hand(evening, G1)
    url = f"/api/v1/evenings/{evening}/hands/1"
    assert client.put(url, json={**G1, "points": 40, "version": 1}).status_code == 200
    before = snapshot()
    stale = client.put(url, json={**G1, "points": 20, "version": 1})
    assert stale.status_code == 409
    assert stale.json["version"] == 2
    assert stale.json["input"]["points"] == 40
    assert snapshot() == before


def test_replace_needs_a_version(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    record_hand(evening, G1)
    response = client.put(f"/api/v1/evenings/{evening}/hands/1", json=G1)
    assert response.status_code == 422
    assert response.json["errors"]["version"] == ["Send the version you read, as a whole number."]


def test_edit_that_breaks_a_later_kulanz_is_refused(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    snapshot: Snapshot,
) -> None:
    evening = create_evening(PLAYERS5)
    record_hand(evening, {**G5[0]})  # lost: 16 stay in the pot
    record_hand(
        evening,
        {"contract": "einfach", "bidder": "Clara", "partner": "Emil", "points": 40, "kulanz": 15},
    )
    before = snapshot()
    response = client.put(
        f"/api/v1/evenings/{evening}/hands/1", json={**G5[0], "points": 40, "version": 1}
    )
    assert response.status_code == 422
    assert response.json["errors"]["kulanz"] == [
        "Hand 2 would no longer fit: Kulanz can be at most 7 jetons, what the Bieterin receives."
    ]
    assert snapshot() == before


def test_void_keeps_the_hand_and_gives_the_deal_back(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(first_dealer="Dora")
    record_hand(evening, G1)
    record_hand(evening, G2)
    url = f"/api/v1/evenings/{evening}/hands/2"
    response = client.delete(url, json={"reason": "undo"})
    assert response.status_code == 200
    assert response.json["void"] == {"reason": "undo"}
    assert response.json["deltas"] == {p: 0 for p in PLAYERS4}
    data = client.get(f"/api/v1/evenings/{evening}").json
    assert len(data["hands"]) == 2
    assert data["balances"] == {"Anna": 12, "Bert": -4, "Clara": -4, "Dora": -4}
    assert data["pot"] == 0
    assert data["next_dealer"] == "Anna"
    revisions = client.get(f"{url}/revisions").json["revisions"]
    assert [r["version"] for r in revisions] == [1, 2]
    assert revisions[1]["void"] == {"reason": "undo"}
    assert revisions[0]["input"] == G2
    assert revisions[0]["at"].endswith("Z")
    third = record_hand(evening, G1)["hand"]
    assert third["number"] == 3
    assert third["dealer"] == "Anna"


def test_void_needs_a_reason_and_happens_once(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    snapshot: Snapshot,
) -> None:
    evening = create_evening()
    record_hand(evening, G1)
    url = f"/api/v1/evenings/{evening}/hands/1"
    before = snapshot()
    response = client.delete(url, json={"reason": "  "})
    assert response.status_code == 422
    assert response.json["errors"]["reason"] == ["Say why the hand is voided."]
    for reason, message in [
        ("x" * 201, "This can be at most 200 characters long."),
        ("mis\u0000dealt", "Text cannot contain the NUL character."),
    ]:
        response = client.delete(url, json={"reason": reason})
        assert response.status_code == 422
        assert response.json["errors"]["reason"] == [message]
    assert snapshot() == before
    assert client.delete(url, json={"reason": "wrong table"}).status_code == 200
    twice = client.delete(url, json={"reason": "again"})
    assert twice.status_code == 409
    assert twice.json["errors"]["number"] == ["Hand 1 is voided already."]


def test_voided_hand_can_be_restored_by_replacing_it(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    record_hand(evening, G1)
    url = f"/api/v1/evenings/{evening}/hands/1"
    client.delete(url, json={"reason": "undo"})
    response = client.put(url, json={**G1, "version": 2})
    assert response.status_code == 200
    assert "void" not in response.json
    assert response.json["deltas"]["Anna"] == 12


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/api/v1/evenings/{e}/hands/9"),
        ("put", "/api/v1/evenings/{e}/hands/9"),
        ("delete", "/api/v1/evenings/{e}/hands/9"),
        ("get", "/api/v1/evenings/{e}/hands/9/revisions"),
        ("post", "/api/v1/evenings/99/hands"),
    ],
)
def test_unknown_hand_or_evening_is_404(
    client: FlaskClient, create_evening: Callable[..., int], method: str, url: str
) -> None:
    evening = create_evening()
    response = getattr(client, method)(url.format(e=evening), json={"reason": "x", **G1})
    assert response.status_code == 404
    assert "errors" in response.json


def test_get_one_hand(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening()
    record_hand(evening, G1)
    hand = client.get(f"/api/v1/evenings/{evening}/hands/1").json
    assert hand["number"] == 1
    assert hand["lines"][0]["label"] == "Stakes"
    assert hand["lines"][0]["amounts"] == {
        "Anna": -6,
        "Bert": -2,
        "Clara": -2,
        "Dora": -2,
        "pot": 12,
    }


def test_wrong_method_is_json_405(client: FlaskClient) -> None:
    response = client.delete("/api/v1/evenings")
    assert response.status_code == 405
    assert "errors" in response.json


def interleave(monkeypatch: pytest.MonkeyPatch, other: Callable[[], object]) -> None:
    """Run ``other`` (a request to another app on the same database) once, at the moment a
    hand being recorded has been checked and its evening's lock is about to be taken."""
    from scorekeeper.operations import hands

    take_lock = hands.take_lock
    pending = [other]

    def interleaved(evening_id: int) -> None:
        while pending:
            pending.pop()()
        take_lock(evening_id)

    monkeypatch.setattr(hands, "take_lock", interleaved)


@pytest.mark.skipif(
    SERVER_URL is not None,
    reason="PostgreSQL locks the evening's row as a write reads it: nothing comes between",
)
def test_a_hand_checked_before_another_write_is_checked_again(
    client: FlaskClient,
    make_app: Callable[..., Flask],
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    evening = create_evening(first_dealer="Dora")
    other = make_app().test_client()
    interleave(monkeypatch, lambda: other.post(f"/api/v1/evenings/{evening}/hands", json=G1))
    second = record_hand(evening, G2)["hand"]
    assert (second["number"], second["dealer"]) == (2, "Anna")  # not hand 1, dealt by Dora
    interleave(monkeypatch, lambda: other.post(f"/api/v1/evenings/{evening}/close"))
    refused = client.post(f"/api/v1/evenings/{evening}/hands", json=G1)
    assert refused.status_code == 409
    assert refused.json["errors"]["evening"] == [
        "This evening is closed. Reopen it to change anything."
    ]
    assert len(client.get(f"/api/v1/evenings/{evening}").json["hands"]) == 2


def test_an_evening_shown_again_with_the_same_facts_is_not_replayed_again(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scorekeeper.operations import views

    evening = create_evening(first_dealer="Dora")
    record_hand(evening, G1)
    replays: list[int] = []
    replay = views.ledger_mod.replay

    def counted(*args: Any, **kwargs: Any) -> Any:
        replays.append(len(args[2]))
        return replay(*args, **kwargs)

    monkeypatch.setattr(views.ledger_mod, "replay", counted)
    url = f"/api/v1/evenings/{evening}"
    shown = client.get(url).json
    assert client.get(url).json == shown
    assert client.get(f"/evenings/{evening}").status_code == 200
    assert replays == []  # recording the hand replayed these facts already
    changed = client.put(f"{url}/hands/1", json={**G1, "points": 20, "version": 1})
    assert changed.status_code == 200
    assert replays == [1]  # the check of the change; the answer and the page reuse it
    assert client.get(url).json["balances"] != shown["balances"]
    assert replays == [1]


def test_a_hand_as_recorded_is_one_row_and_its_first_version_is_kept_when_changed(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    recorded = client.post(f"/api/v1/evenings/{evening}/hands", json=G1)
    assert recorded.status_code == 201
    url = f"/api/v1/evenings/{evening}/hands/1"
    first = client.get(f"{url}/revisions").json["revisions"]
    assert [(r["version"], r["input"], r["source"]) for r in first] == [(1, G1, "api")]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(HandRevision)) == 0
    changed = client.put(url, json={**G2, "version": 1})
    assert changed.status_code == 200
    revisions = client.get(f"{url}/revisions").json["revisions"]
    assert [(r["version"], r["input"]["contract"]) for r in revisions] == [
        (1, "doppelt"),
        (2, "ohne"),
    ]
    assert revisions[0] == first[0]  # the first version as it was shown before
    client.delete(url, json={"reason": "misdeal", "version": 2})
    versions = client.get(f"{url}/revisions").json["revisions"]
    assert [r["version"] for r in versions] == [1, 2, 3]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(HandRevision)) == 3


def test_voiding_a_hand_as_recorded_keeps_its_first_version(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    client.post(f"/api/v1/evenings/{evening}/hands", json=G1)
    url = f"/api/v1/evenings/{evening}/hands/1"
    client.delete(url, json={"reason": "misdeal"})
    revisions = client.get(f"{url}/revisions").json["revisions"]
    assert [r["version"] for r in revisions] == [1, 2]
    assert revisions[0]["input"] == G1
    assert "void" not in revisions[0]
    assert revisions[1]["void"] == {"reason": "misdeal"}
