"""API: an Idempotency-Key means one request (docs/recording.md, "One key, one request").

The same key with the same request gets the first answer, whoever among its requester's
devices sends it; the same key with another request is 422 and runs nothing; another
requester's key is another key; a secret in an answer is never replayed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert

from scorekeeper.db.extensions import db
from scorekeeper.db.models import IdempotentResponse
from scorekeeper.web import writing
from tests.conftest import PLAYERS4
from tests.web.tournaments.support import EN, setup_body

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]

G1 = {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"}
OTHER = {"contract": "einfach", "bidder": "Bert", "points": 30}


def hands(client: FlaskClient, evening: int) -> list[dict[str, Any]]:
    """The evening's hands as the API lists them."""
    return list(client.get(f"/api/v1/evenings/{evening}").json["hands"])


def test_same_key_same_body_in_another_key_order_gets_the_first_answer(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    url = f"/api/v1/evenings/{evening}/hands"
    key = {"Idempotency-Key": "tablet-3-0001"}
    first = client.post(url, json=G1, headers=key)
    reordered = dict(reversed(list(G1.items())))
    again = client.post(url, json=reordered, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    assert again.headers["Location"] == first.headers["Location"]
    assert len(hands(client, evening)) == 1


def test_same_key_with_another_hand_is_refused_and_records_nothing(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot
) -> None:
    evening = create_evening()
    url = f"/api/v1/evenings/{evening}/hands"
    key = {"Idempotency-Key": "tablet-3-0002", **EN}
    assert client.post(url, json=G1, headers=key).status_code == 201
    before = snapshot()
    refused = client.post(url, json=OTHER, headers=key)
    assert refused.status_code == 422
    message = refused.json["errors"]["Idempotency-Key"][0]
    assert "already used for another request" in message
    assert snapshot() == before
    assert [h["input"] for h in hands(client, evening)] == [G1]
    # The first request is still answered as before.
    assert client.post(url, json=G1, headers=key).status_code == 201
    assert len(hands(client, evening)) == 1


def test_same_key_on_another_path_of_the_evening_is_refused(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot
) -> None:
    evening = create_evening()
    key = {"Idempotency-Key": "k-7"}
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=G1, headers=key).status_code == (
        201
    )
    before = snapshot()
    seating = {"players": [*PLAYERS4, "Emil"]}
    response = client.post(f"/api/v1/evenings/{evening}/seating", json=seating, headers=key)
    assert response.status_code == 422
    assert "Idempotency-Key" in response.json["errors"]
    assert snapshot() == before


def test_german_message_for_a_reused_key(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    url = f"/api/v1/evenings/{evening}/hands"
    assert client.post(url, json=G1, headers={"Idempotency-Key": "k"}).status_code == 201
    refused = client.post(
        url, json=OTHER, headers={"Idempotency-Key": "k", "Accept-Language": "de"}
    )
    assert refused.status_code == 422
    assert "Schlüssel" in refused.json["errors"]["Idempotency-Key"][0]


def test_keys_are_independent_across_evenings(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    first, second = create_evening(), create_evening()
    key = {"Idempotency-Key": "shared"}
    assert client.post(f"/api/v1/evenings/{first}/hands", json=G1, headers=key).status_code == 201
    other = client.post(f"/api/v1/evenings/{second}/hands", json=OTHER, headers=key)
    assert other.status_code == 201
    assert [h["input"]["bidder"] for h in hands(client, second)] == ["Bert"]


def test_a_device_unlocked_again_finds_its_answer(
    make_app: Callable[..., Flask], snapshot: Snapshot
) -> None:
    """A tablet whose token expired while its outbox waited, unlocked again with the PIN,
    is the same requester: its hand is not recorded twice."""
    app = make_app(WTF_CSRF_ENABLED=False, ACCESS_PIN="4711")
    first_token = app.test_client().post("/api/v1/unlock", json={"pin": "4711"}).json["token"]
    second_token = app.test_client().post("/api/v1/unlock", json={"pin": "4711"}).json["token"]
    client = app.test_client()
    auth = {"Authorization": f"Bearer {first_token}"}
    created = client.post(
        "/api/v1/evenings", json={"game": "troggen", "players": PLAYERS4}, headers=auth
    )
    evening = created.json["id"]
    url = f"/api/v1/evenings/{evening}/hands"
    key = "outbox-1"
    first = client.post(url, json=G1, headers={**auth, "Idempotency-Key": key})
    again = app.test_client().post(
        url, json=G1, headers={"Authorization": f"Bearer {second_token}", "Idempotency-Key": key}
    )
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    assert len(client.get(f"/api/v1/evenings/{evening}", headers=auth).json["hands"]) == 1


def test_another_requester_gets_no_stored_answer(make_app: Callable[..., Flask]) -> None:
    """The organiser of one tournament and the organiser of another are two requesters:
    the same key and body of one are not the other's answer."""
    app = make_app(WTF_CSRF_ENABLED=False)
    alice, bob = app.test_client(), app.test_client()
    first = alice.post("/api/v1/tournaments", json=setup_body(name="Erstes"))
    second = bob.post("/api/v1/tournaments", json=setup_body(name="Zweites"))
    one, two = first.json["id"], second.json["id"]
    key = {"Idempotency-Key": "register-1"}
    entrant = {"name": "Anna"}
    by_alice = alice.post(f"/api/v1/tournaments/{one}/entrants", json=entrant, headers=key)
    assert by_alice.status_code == 201
    # Bob logs in to Alice's tournament too: his rights differ (two tournaments), so the
    # same key and body are a new request of his, not a replay of hers.
    assert (
        bob.post(
            f"/api/v1/tournaments/{one}/login", json={"password": setup_body()["password"]}
        ).status_code
        == 200
    )
    by_bob = bob.post(f"/api/v1/tournaments/{one}/entrants", json=entrant, headers=key)
    assert by_bob.json != by_alice.json  # run anew (a second Anna), not Alice's answer
    assert two != one
    # Alice herself still gets her answer.
    again = alice.post(f"/api/v1/tournaments/{one}/entrants", json=entrant, headers=key)
    assert again.json == by_alice.json


def test_a_replayed_tournament_creation_carries_no_token(
    make_app: Callable[..., Flask], snapshot: Snapshot
) -> None:
    app = make_app(WTF_CSRF_ENABLED=False)
    creator, guest = app.test_client(), app.test_client()
    key = {"Idempotency-Key": "new-tournament"}
    created = creator.post("/api/v1/tournaments", json=setup_body(), headers=key)
    assert created.status_code == 201
    assert created.json["token"]
    before = snapshot()
    replayed = guest.post("/api/v1/tournaments", json=setup_body(), headers=key)
    assert replayed.status_code == 201
    assert "token" not in replayed.json
    assert replayed.json["id"] == created.json["id"]
    # The replay logged nobody in: the guest is not the organiser.
    tournament = created.json["id"]
    assert guest.post(f"/api/v1/tournaments/{tournament}/rounds").status_code == 401
    other_body = guest.post("/api/v1/tournaments", json=setup_body(name="Mine"), headers=key)
    assert other_body.status_code == 422
    assert snapshot() == before


def test_a_hand_sent_as_a_number_already_taken_is_a_conflict(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot
) -> None:
    evening = create_evening()
    url = f"/api/v1/evenings/{evening}/hands"
    assert client.post(url, json={**G1, "number": 1}).status_code == 201
    before = snapshot()
    late = client.post(url, json={**OTHER, "number": 1}, headers=EN)
    assert late.status_code == 409
    assert "next hand is 2" in late.json["errors"]["number"][0]
    assert snapshot() == before
    assert client.post(url, json={**OTHER, "number": 2}).status_code == 201
    bad = client.post(url, json={**OTHER, "number": "drei"}, headers=EN)
    assert bad.status_code == 422
    assert "number" in bad.json["errors"]


def test_the_same_request_racing_itself_gets_the_first_answer(
    client: FlaskClient, create_evening: Callable[..., int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resend that looked for its key before the first send was stored, and then found
    the hand's number taken by it, is answered as the first."""
    evening = create_evening()
    url = f"/api/v1/evenings/{evening}/hands"
    key = {"Idempotency-Key": "race"}
    first = client.post(url, json={**G1, "number": 1}, headers=key)
    real = writing.stored_answer
    calls: list[str] = []

    def late_lookup(scope: str, who: str, found: str) -> Any:
        calls.append(found)
        return None if len(calls) == 1 else real(scope, who, found)

    monkeypatch.setattr(writing, "stored_answer", late_lookup)
    again = client.post(url, json={**G1, "number": 1}, headers=key)
    assert calls == ["race", "race"]
    assert again.status_code == 201
    assert again.json == first.json
    other = client.post(url, json={**OTHER, "number": 1}, headers={**key, **EN})
    assert other.status_code == 422
    assert len(hands(client, evening)) == 1


def test_an_answer_kept_before_keys_had_requesters_is_still_found(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening()
    with app.app_context():
        db.session.execute(
            insert(IdempotentResponse).values(
                scope=f"evening:{evening}",
                requester="",
                key="old",
                fingerprint=None,
                status=201,
                body={"kept": "before the upgrade"},
                location=None,
            )
        )
        db.session.commit()
    answer = client.post(
        f"/api/v1/evenings/{evening}/hands", json=G1, headers={"Idempotency-Key": "old"}
    )
    assert answer.status_code == 201
    assert answer.json == {"kept": "before the upgrade"}
    assert hands(client, evening) == []
