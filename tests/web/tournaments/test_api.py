"""The tournament JSON API (docs/tournaments.md): set-up, entrants, rounds, tables, standings and
the organiser's corrections, driven as the organiser's laptop and the tables' tablets do.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.core.draw import draw_round, table_plan
from scorekeeper.db.extensions import db
from scorekeeper.db.tournament_models import TournamentEvent
from scorekeeper.operations.tournament_rounds import CODE_ALPHABET, CODE_LENGTH
from tests.web.tournaments.support import (
    EN,
    NAMES,
    close,
    create_tournament,
    draw,
    exact,
    ledger_totals,
    ok,
    play,
    play_round,
    register,
    seated,
    setup_body,
    start,
)

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]


def events(app: Flask, tournament: int, kind: str) -> list[TournamentEvent]:
    """The tournament's log entries of one kind, oldest first."""
    with app.app_context():
        found = db.session.scalars(
            select(TournamentEvent)
            .where(TournamentEvent.tournament_id == tournament, TournamentEvent.kind == kind)
            .order_by(TournamentEvent.id)
        ).all()
        db.session.expunge_all()
        return list(found)


def round_json(client: FlaskClient, tournament: int, number: int) -> dict[str, Any]:
    return ok(client.get(f"/api/v1/tournaments/{tournament}/rounds/{number}"))


# -- set-up ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field"),
    [
        pytest.param({"name": None}, "name", id="missing-name"),
        pytest.param({"name": "   "}, "name", id="blank-name"),
        pytest.param({"game": "schach"}, "game", id="bad-game"),
        pytest.param({"game": None}, "game", id="missing-game"),
        pytest.param(
            {"game": "troggu", "variant": "eisten-stalden"}, "variant", id="eisten-stalden"
        ),
        pytest.param({"options": {"end_pot": "carry"}}, "options.end_pot", id="carry"),
        pytest.param({"options": {"colour": "red"}}, "options.colour", id="unknown-option"),
        pytest.param({"password": "12345"}, "password", id="short-password"),
        pytest.param({"password": None}, "password", id="no-password"),
        pytest.param({"rounds": 0}, "rounds", id="no-rounds"),
        pytest.param({"rounds": 21}, "rounds", id="too-many-rounds"),
        pytest.param({"deals_per_player": 0}, "deals_per_player", id="no-deals"),
        pytest.param({"scoring": "elo"}, "scoring", id="bad-scoring"),
        pytest.param({"surprise": 1}, "surprise", id="unknown-key"),
    ],
)
def test_a_bad_set_up_is_refused_with_the_field_and_stores_nothing(
    client: FlaskClient, snapshot: Snapshot, change: dict[str, Any], field: str
) -> None:
    before = snapshot()
    body = {k: v for k, v in {**setup_body(), **change}.items() if v is not None}
    response = client.post("/api/v1/tournaments", json=body, headers=EN)
    assert response.status_code == 422, response.json
    errors = response.json["errors"]
    assert field in errors, errors
    assert all(isinstance(m, str) and m for m in errors[field])
    assert snapshot() == before


def test_carrying_the_pot_is_refused_with_the_reason(client: FlaskClient) -> None:
    """A table ends with its round: the pot cannot be carried to a next evening."""
    body = setup_body(options={"end_pot": "carry"})
    errors = client.post("/api/v1/tournaments", json=body, headers=EN).json["errors"]
    assert errors == {
        "options.end_pot": ["Every table ends with its round: share the pot or pay it back."]
    }


def test_several_mistakes_are_all_named(client: FlaskClient) -> None:
    body = {"game": "troggen", "rounds": 99, "deals_per_player": 2, "password": "x"}
    errors = client.post("/api/v1/tournaments", json=body, headers=EN).json["errors"]
    assert set(errors) == {"name", "rounds", "password"}
    assert errors["password"] == ["Choose an organiser password of at least 6 characters."]


def test_the_set_up_is_stored_with_its_defaults_and_without_the_password(
    client: FlaskClient,
) -> None:
    response = client.post("/api/v1/tournaments", json=setup_body(rounds=4, deals_per_player=2))
    data = ok(response, 201)
    assert response.headers["Location"] == f"/api/v1/tournaments/{data['id']}"
    assert data["game"] == "troggen"
    assert data["variant"] == "blumenstein-2015"
    assert data["options"]["end_pot"] == "split"
    assert (data["rounds"], data["deals_per_player"], data["scoring"]) == (4, 2, "sum")
    assert data["frozen"] is False
    shown = ok(client.get(data["links"]["rounds"].rsplit("/rounds", 1)[0]))
    assert "password" not in shown
    assert "password_hash" not in shown
    assert "museum-2026" not in str(shown)


# -- entrants --------------------------------------------------------------------------------


def test_entrants_get_the_next_free_number_or_the_one_given(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    assert register(client, tournament, ["Anna", "Bert"]) == [1, 2]
    given = client.post(
        f"/api/v1/tournaments/{tournament}/entrants", json={"name": "Clara", "number": 17}
    )
    assert ok(given, 201)["number"] == 17
    assert register(client, tournament, ["Dora"]) == [18]
    listed = ok(client.get(f"/api/v1/tournaments/{tournament}/entrants"))["entrants"]
    assert [(e["number"], e["name"], e["present"]) for e in listed] == [
        (1, "Anna", True),
        (2, "Bert", True),
        (17, "Clara", True),
        (18, "Dora", True),
    ]


def test_a_start_number_is_a_number_or_null_for_the_next_free_one(client: FlaskClient) -> None:
    """As the document says: null (or leaving it out) takes the next number, digits count
    as the number, and anything else, an empty text included, is refused."""
    tournament = create_tournament(client)
    url = f"/api/v1/tournaments/{tournament}/entrants"
    assert ok(client.post(url, json={"name": "Anna", "number": None}), 201)["number"] == 1
    assert ok(client.post(url, json={"name": "Bert", "number": " 7 "}), 201)["number"] == 7
    for wrong in ["", "sieben", 0, 1.5, True]:
        refused = client.post(url, json={"name": "Clara", "number": wrong}, headers=EN)
        assert refused.status_code == 422, wrong
        assert list(refused.json["errors"]) == ["number"]


def test_a_taken_start_number_is_refused_naming_its_holder(
    client: FlaskClient, snapshot: Snapshot
) -> None:
    tournament = create_tournament(client)
    register(client, tournament, ["Anna", "Bert", "Clara"])
    before = snapshot()
    response = client.post(
        f"/api/v1/tournaments/{tournament}/entrants",
        json={"name": "Dora", "number": 2},
        headers=EN,
    )
    assert response.status_code == 422
    assert response.json["errors"] == {"number": ["Start number 2 is Bert's already."]}
    assert snapshot() == before


def test_a_start_number_cannot_change(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, ["Anna"])
    response = client.patch(f"/api/v1/tournaments/{tournament}/entrants/1", json={"number": 5})
    assert response.status_code == 422
    assert set(response.json["errors"]) == {"number"}


def test_repeated_names_are_allowed_and_seated_under_distinct_names(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, ["Anna", "Bert", "anna ", "Clara", "Dora", "Emil", "Frieda"])
    register(client, tournament, ["Gustav"])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    seats = {}
    for table in round_["tables"]:
        evening = ok(client.get(f"/api/v1/evenings/{table['evening']}"))
        seats |= dict(zip(seated(table), evening["players"], strict=True))
    assert seats[1] == "Anna (1)"
    assert seats[3] == "anna (3)"
    assert seats[2] == "Bert"
    assert len(set(seats.values())) == 8
    standings = ok(client.get(f"/api/v1/tournaments/{tournament}/standings"))["standings"]
    assert {s["number"]: s["name"] for s in standings}[3] == "anna"


def test_a_late_arrival_joins_from_the_next_round(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:8])
    first = start(client, tournament, draw(client, tournament)["number"])
    late = ok(
        client.post(f"/api/v1/tournaments/{tournament}/entrants", json={"name": "Quirin"}), 201
    )
    assert (late["number"], late["joins_round"]) == (9, 2)
    assert 9 not in {n for t in first["tables"] for n in seated(t)}
    ok(close(client, tournament, 1, confirm=True))
    second = draw(client, tournament)
    drawn = {n for t in second["tables"] for n in seated(t)} | {b["number"] for b in second["byes"]}
    assert drawn == set(range(1, 10))
    # Nine Troggen players: a table of four and one of five.
    assert sorted(len(t["players"]) for t in second["tables"]) == [4, 5]


def test_a_dropout_plays_out_the_round_and_is_not_drawn_again(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:9])
    first = start(client, tournament, draw(client, tournament)["number"])
    dropped = client.patch(f"/api/v1/tournaments/{tournament}/entrants/4", json={"dropped": True})
    assert ok(dropped)["left_after"] == 1
    assert 4 in {n for t in first["tables"] for n in seated(t)}
    play_round(client, first)
    ok(close(client, tournament, 1))
    second = draw(client, tournament)
    assert 4 not in {n for t in second["tables"] for n in seated(t)}
    assert 4 not in {b["number"] for b in second["byes"]}
    assert sorted(len(t["players"]) for t in second["tables"]) == [4, 4]
    # The round the dropout played still counts.
    standings = ok(client.get(f"/api/v1/tournaments/{tournament}/standings"))["standings"]
    line = next(s for s in standings if s["number"] == 4)
    assert [r["round"] for r in line["rounds"]] == [1]
    assert line["hands"] in (4, 5)


def test_a_checked_out_player_is_not_drawn(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:9])
    ok(client.patch(f"/api/v1/tournaments/{tournament}/entrants/9", json={"present": False}))
    round_ = draw(client, tournament)
    assert {n for t in round_["tables"] for n in seated(t)} == set(range(1, 9))
    assert round_["byes"] == []


# -- rounds ----------------------------------------------------------------------------------


def test_the_draw_needs_enough_players(client: FlaskClient, snapshot: Snapshot) -> None:
    tournament = create_tournament(client)
    register(client, tournament, ["Anna", "Bert", "Clara"])
    before = snapshot()
    response = client.post(f"/api/v1/tournaments/{tournament}/rounds", headers=EN)
    assert response.status_code == 409
    assert response.json["errors"] == {
        "round": ["3 players are checked in; a table needs at least 4."]
    }
    assert snapshot() == before


def test_seven_troggen_players_take_turns_to_sit_out(client: FlaskClient) -> None:
    """One bye a round, and nobody sits out twice before everyone has once."""
    tournament = create_tournament(client, rounds=7)
    register(client, tournament, NAMES[:7])
    byes = []
    for number in range(1, 8):
        round_ = draw(client, tournament)
        assert [len(t["players"]) for t in round_["tables"]] == [6]
        assert len(round_["byes"]) == 1
        byes.append(round_["byes"][0]["number"])
        start(client, tournament, number)
        ok(close(client, tournament, number, confirm=True))
    assert sorted(byes) == list(range(1, 8))


def test_the_stored_seed_reproduces_the_draw(client: FlaskClient) -> None:
    """Each round's draw is draw_round over the present players, the earlier rounds as
    stored and the seed stored with it."""
    tournament = create_tournament(client, rounds=3)
    register(client, tournament, NAMES[:13])
    plan = table_plan("troggen")
    for number in (1, 2, 3):
        round_ = draw(client, tournament)
        stored = ok(client.get(f"/api/v1/tournaments/{tournament}/rounds"))["rounds"]
        history = [
            SimpleNamespace(
                tables=[seated(t) for t in r["tables"]], byes=[b["number"] for b in r["byes"]]
            )
            for r in stored[:-1]
        ]
        again = draw_round(range(1, 14), history, seed=stored[-1]["seed"], preference=plan)
        assert [list(t) for t in again.tables] == [seated(t) for t in round_["tables"]]
        assert list(again.byes) == [b["number"] for b in round_["byes"]]
        assert again.repeated_pairs == round_["repeated_pairs"]
        # Another seed draws another round.
        other = draw_round(range(1, 14), history, seed=stored[-1]["seed"] + 1, preference=plan)
        assert other.tables != again.tables
        start(client, tournament, number)
        ok(close(client, tournament, number, confirm=True))
    logged = events(client.application, tournament, "drawn")
    assert [e.detail["seed"] for e in logged] == [
        r["seed"] for r in ok(client.get(f"/api/v1/tournaments/{tournament}/rounds"))["rounds"]
    ]


def test_a_swap_before_the_start_changes_the_draw_and_is_logged(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:8])
    round_ = draw(client, tournament)
    first, second = seated(round_["tables"][0]), seated(round_["tables"][1])
    a, b = first[1], second[2]
    swapped = ok(
        client.post(f"/api/v1/tournaments/{tournament}/rounds/1/swap", json={"a": a, "b": b})
    )
    assert seated(swapped["tables"][0]) == [b if n == a else n for n in first]
    assert seated(swapped["tables"][1]) == [a if n == b else n for n in second]
    assert swapped["seed"] == round_["seed"]
    assert round_json(client, tournament, 1)["tables"] == swapped["tables"]
    [logged] = events(client.application, tournament, "swap")
    assert logged.detail == {"round": 1, "a": a, "b": b}
    # The tables play as swapped.
    started = start(client, tournament, 1)
    assert [seated(t) for t in started["tables"]] == [seated(t) for t in swapped["tables"]]


@pytest.mark.parametrize(
    ("body", "field"),
    [({"a": 1, "b": 1}, "b"), ({"a": 1, "b": 99}, "b"), ({"a": "x", "b": 2}, "a")],
    ids=["same", "not-drawn", "not-a-number"],
)
def test_an_impossible_swap_is_refused(
    client: FlaskClient, snapshot: Snapshot, body: dict[str, Any], field: str
) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:8])
    draw(client, tournament)
    before = snapshot()
    response = client.post(f"/api/v1/tournaments/{tournament}/rounds/1/swap", json=body)
    assert response.status_code == 422
    assert field in response.json["errors"]
    assert snapshot() == before


def test_a_swap_after_the_start_is_refused(client: FlaskClient, snapshot: Snapshot) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:8])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    a, b = seated(round_["tables"][0])[0], seated(round_["tables"][1])[0]
    before = snapshot()
    for path in ("swap", "redraw", "start"):
        response = client.post(
            f"/api/v1/tournaments/{tournament}/rounds/1/{path}", json={"a": a, "b": b}, headers=EN
        )
        assert response.status_code == 409, path
        assert response.json["errors"] == {
            "round": ["Round 1 has started; its seating can no longer change."]
        }
    assert snapshot() == before


def test_starting_a_round_opens_one_evening_per_table(client: FlaskClient) -> None:
    """Tables of 4 and 5 with two deals each: 8 and 10 hands, a code, the first seat deals."""
    tournament = create_tournament(client, deals_per_player=2)
    register(client, tournament, NAMES[:9])
    drawn = draw(client, tournament)
    assert drawn["state"] == "drawn"
    assert all("code" not in t for t in drawn["tables"])
    round_ = start(client, tournament, 1)
    assert round_["state"] == "started"
    assert len(round_["tables"]) == 2
    codes = [t["code"] for t in round_["tables"]]
    assert len(set(codes)) == 2
    assert all(re.fullmatch(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", c) for c in codes)
    assert len({t["evening"] for t in round_["tables"]}) == 2
    names = {
        e["number"]: e["name"]
        for e in ok(client.get(f"/api/v1/tournaments/{tournament}/entrants"))["entrants"]
    }
    for table in round_["tables"]:
        size = len(table["players"])
        assert table["hands_due"] == 2 * size
        assert (table["hands"], table["finished"]) == (0, False)
        evening = ok(client.get(f"/api/v1/evenings/{table['evening']}"))
        assert evening["players"] == [names[n] for n in seated(table)]
        assert evening["next_dealer"] == evening["players"][0]
        assert evening["options"]["end_pot"] == "split"
        assert evening["closed"] is False
    tournament_data = ok(client.get(f"/api/v1/tournaments/{tournament}"))
    assert tournament_data["frozen"] is True


def test_the_set_up_freezes_when_the_first_round_starts(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:4])
    renamed = client.patch(
        f"/api/v1/tournaments/{tournament}", json={"version": 1, "rounds": 5, "name": "Cup"}
    )
    assert ok(renamed)["rounds"] == 5
    start(client, tournament, draw(client, tournament)["number"])
    refused = client.patch(f"/api/v1/tournaments/{tournament}", json={"version": 2, "rounds": 6})
    assert refused.status_code == 409
    assert set(refused.json["errors"]) == {"tournament"}
    allowed = client.patch(
        f"/api/v1/tournaments/{tournament}", json={"version": 2, "name": "Cup 2"}
    )
    assert ok(allowed)["name"] == "Cup 2"
    stale = client.patch(f"/api/v1/tournaments/{tournament}", json={"version": 2, "name": "Old"})
    assert stale.status_code == 409


def test_the_next_draw_waits_for_the_round_to_close(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:8])
    draw(client, tournament)
    for state in ("drawn", "started"):
        response = client.post(f"/api/v1/tournaments/{tournament}/rounds", headers=EN)
        assert response.status_code == 409, state
        assert response.json["errors"] == {"round": ["Close round 1 before drawing the next."]}
        if state == "drawn":
            start(client, tournament, 1)
    ok(close(client, tournament, 1, confirm=True))
    assert draw(client, tournament)["number"] == 2


def test_closing_with_unfinished_tables_needs_confirming(
    client: FlaskClient, snapshot: Snapshot
) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:12])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    first, second, third = round_["tables"]
    play(client, first["evening"], 4)
    play(client, second["evening"], 2)
    before = snapshot()
    refused = close(client, tournament, 1)
    assert refused.status_code == 422
    message = refused.json["errors"]["confirm"][0]
    assert "2, 3" in message
    assert snapshot() == before
    closed = ok(close(client, tournament, 1, confirm=True))
    assert closed["state"] == "closed"
    assert [(t["hands"], t["finished"]) for t in closed["tables"]] == [
        (4, True),
        (2, True),
        (0, True),
    ]
    for table in (second, third):
        assert ok(client.get(f"/api/v1/evenings/{table['evening']}"))["closed"] is True
    [logged] = events(client.application, tournament, "closed")
    assert logged.detail == {"round": 1, "unfinished": [2, 3]}
    # The hands played so far count.
    totals = ledger_totals(client, tournament)
    standings = ok(client.get(f"/api/v1/tournaments/{tournament}/standings"))["standings"]
    assert {s["number"]: exact(s["total"]) for s in standings} == totals
    assert any(totals.values())


@pytest.mark.parametrize(
    ("sent", "field", "words"),
    [
        ([{"confirm": True}], "body", "Send it as a JSON object."),
        ({"confirm": "yes"}, "confirm", "Say yes or no (true or false)."),
        ({"confirm": 1}, "confirm", "Say yes or no (true or false)."),
    ],
)
def test_a_confirmation_that_is_not_true_or_false_is_refused_not_read_as_no(
    client: FlaskClient, snapshot: Snapshot, sent: object, field: str, words: str
) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:12])
    start(client, tournament, draw(client, tournament)["number"])
    before = snapshot()
    url = f"/api/v1/tournaments/{tournament}/rounds/1/close"
    refused = client.post(url, json=sent, headers=EN)
    assert refused.status_code == 422
    assert refused.json["errors"][field] == [words]
    assert snapshot() == before


def test_closing_twice_is_harmless_and_an_unstarted_round_cannot_close(
    client: FlaskClient,
) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:4])
    draw(client, tournament)
    refused = close(client, tournament, 1, confirm=True)
    assert refused.status_code == 409
    start(client, tournament, 1)
    ok(close(client, tournament, 1, confirm=True))
    assert ok(close(client, tournament, 1, confirm=True))["state"] == "closed"
    assert len(events(client.application, tournament, "closed")) == 1


def test_no_draw_after_the_last_round(client: FlaskClient, snapshot: Snapshot) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, NAMES[:4])
    start(client, tournament, draw(client, tournament)["number"])
    ok(close(client, tournament, 1, confirm=True))
    before = snapshot()
    response = client.post(f"/api/v1/tournaments/{tournament}/rounds", headers=EN)
    assert response.status_code == 409
    assert response.json["errors"] == {"round": ["The only round has been played."]}
    assert snapshot() == before


def test_unknown_tournament_round_or_entrant_is_404(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    assert client.get(f"/api/v1/tournaments/{tournament}/rounds/1").status_code == 404
    missing = client.patch(f"/api/v1/tournaments/{tournament}/entrants/5", json={})
    assert missing.status_code == 404
    assert client.get("/api/v1/tournaments/99/standings").status_code == 404


# -- tables and standings --------------------------------------------------------------------


def test_a_table_closes_itself_when_its_last_hand_is_in(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:8])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    table = round_["tables"][0]
    play(client, table["evening"], 3)
    assert ok(client.get(f"/api/v1/evenings/{table['evening']}"))["closed"] is False
    play(client, table["evening"], 1, seed=9)
    assert ok(client.get(f"/api/v1/evenings/{table['evening']}"))["closed"] is True
    extra = client.post(
        f"/api/v1/evenings/{table['evening']}/hands",
        json={"contract": "einfach", "bidder": table["players"][0]["name"], "won": True},
    )
    assert extra.status_code == 409
    states = round_json(client, tournament, 1)["tables"]
    assert [(t["hands"], t["hands_due"], t["finished"]) for t in states] == [
        (4, 4, True),
        (0, 4, False),
    ]


def test_a_voided_hand_is_played_again_before_the_table_closes(client: FlaskClient) -> None:
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:4])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    evening = round_["tables"][0]["evening"]
    play(client, evening, 3)
    ok(client.delete(f"/api/v1/evenings/{evening}/hands/2", json={"reason": "vergeben"}))
    play(client, evening, 1, seed=4)
    assert ok(client.get(f"/api/v1/evenings/{evening}"))["closed"] is False
    assert round_json(client, tournament, 1)["tables"][0]["hands"] == 3
    play(client, evening, 1, seed=5)
    assert ok(client.get(f"/api/v1/evenings/{evening}"))["closed"] is True


def test_standings_are_the_sum_of_the_tables_ledgers(client: FlaskClient) -> None:
    """Two rounds of nine players (a table of four and one of five, two deals each),
    compared with each table's settlement, player by player."""
    tournament = create_tournament(client, rounds=2, deals_per_player=2)
    register(client, tournament, NAMES[:9])
    for number in (1, 2):
        round_ = start(client, tournament, draw(client, tournament)["number"])
        play_round(client, round_, seed=number)
        ok(close(client, tournament, number))
    data = ok(client.get(f"/api/v1/tournaments/{tournament}/standings"))
    totals = ledger_totals(client, tournament)
    lines = {s["number"]: s for s in data["standings"]}
    assert {n: exact(s["total"]) for n, s in lines.items()} == totals
    assert len(set(totals.values())) > 2  # the hands gave different results
    for line in data["standings"]:
        assert exact(line["total"]) == sum(exact(r["result"]) for r in line["rounds"])
        assert line["hands"] == sum(r["hands"] for r in line["rounds"])
        assert line["hands"] in (16, 18, 20)
        assert exact(line["per_hand"]) == exact(line["total"]) / line["hands"]
    order = [(-exact(s["total"]), -exact(s["best_round"]), s["hands"]) for s in data["standings"]]
    assert order == sorted(order)
    assert data["standings"][0]["place"] == 1
    assert "best round" in data["rule"]


def test_a_bye_scores_the_round_average(client: FlaskClient) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, NAMES[:7])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    play_round(client, round_, seed=3)
    ok(close(client, tournament, 1))
    [bye] = round_["byes"]
    totals = ledger_totals(client, tournament)
    lines = {
        s["number"]: s
        for s in ok(client.get(f"/api/v1/tournaments/{tournament}/standings"))["standings"]
    }
    line = lines[bye["number"]]
    assert exact(line["total"]) == totals[bye["number"]]
    assert line["rounds"] == [
        {
            "round": 1,
            "table": None,
            "bye": True,
            "result": line["total"],
            "score": line["total"],
            "hands": 0,
        }
    ]
    assert line["per_hand"] is None


def test_rank_scoring_gives_table_points(client: FlaskClient) -> None:
    tournament = create_tournament(client, rounds=1, scoring="rank")
    register(client, tournament, NAMES[:8])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    play_round(client, round_, seed=7)
    data = ok(client.get(f"/api/v1/tournaments/{tournament}/standings"))
    assert data["scoring"] == "rank"
    by_table: Counter[int] = Counter()
    for line in data["standings"]:
        [played] = line["rounds"]
        by_table[played["table"]] += exact(played["score"])
        assert 0 <= exact(line["total"]) <= 60
    # 30 points per seat at each table of four.
    assert dict(by_table) == {1: 120, 2: 120}


def test_an_organisers_correction_of_a_closed_table_changes_the_standings(
    client: FlaskClient, app: Flask
) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, NAMES[:4])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    evening = round_["tables"][0]["evening"]
    play(client, evening, 4, seed=1)
    assert ok(client.get(f"/api/v1/evenings/{evening}"))["closed"] is True
    before = ok(client.get(f"/api/v1/tournaments/{tournament}/standings"))["standings"]
    hand = ok(client.get(f"/api/v1/evenings/{evening}/hands/4"))
    players = hand["players"]
    # The last hand's bid was someone else's: the result moves to another player.
    other = players[(players.index(hand["input"]["bidder"]) + 1) % 4]
    corrected = {**hand["input"], "bidder": other, "version": 1}
    # Without a reason the closed table refuses the change.
    plain = client.put(f"/api/v1/evenings/{evening}/hands/4", json=corrected)
    assert plain.status_code == 409
    response = client.put(
        f"/api/v1/evenings/{evening}/hands/4",
        json={**corrected, "correction": "Bieter verwechselt"},
    )
    assert ok(response)["version"] == 2
    assert response.json["input"]["bidder"] == other
    after = ok(client.get(f"/api/v1/tournaments/{tournament}/standings"))["standings"]
    totals = ledger_totals(client, tournament)
    assert {s["number"]: exact(s["total"]) for s in after} == totals
    assert {s["number"]: s["total"] for s in after} != {s["number"]: s["total"] for s in before}
    revisions = ok(client.get(f"/api/v1/evenings/{evening}/hands/4/revisions"))["revisions"]
    assert [r.get("correction") for r in revisions] == [None, "Bieter verwechselt"]
    [logged] = events(app, tournament, "correction")
    assert logged.reason == "Bieter verwechselt"
    assert logged.detail == {"round": 1, "table": 1, "hand": 4}
    # The table stays closed.
    assert ok(client.get(f"/api/v1/evenings/{evening}"))["closed"] is True


def test_an_organisers_void_of_a_closed_table_is_a_correction_too(
    client: FlaskClient, app: Flask
) -> None:
    tournament = create_tournament(client, rounds=1)
    register(client, tournament, NAMES[:4])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    evening = round_["tables"][0]["evening"]
    play(client, evening, 4, seed=2)
    voided = client.delete(f"/api/v1/evenings/{evening}/hands/3", json={"reason": "doppelt"})
    assert ok(voided)["void"] == {"reason": "doppelt"}
    [logged] = events(app, tournament, "correction")
    assert (logged.reason, logged.detail["hand"]) == ("doppelt", 3)
    assert round_json(client, tournament, 1)["tables"][0]["hands"] == 3


@pytest.mark.parametrize(
    "body",
    [[1], "text", 3, {"version": True, "a": [], "name": {}}],
    ids=["list", "string", "number", "wrong-types"],
)
def test_malformed_bodies_are_refused_without_a_server_error(
    client: FlaskClient, snapshot: Snapshot, body: object
) -> None:
    """No request ever produces a 500 (docs/api.md "Errors"), and a refused one changes nothing."""
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:8])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    evening = round_["tables"][0]["evening"]
    play(client, evening, 1)
    calls = [
        ("POST", "/api/v1/tournaments"),
        ("PATCH", f"/api/v1/tournaments/{tournament}"),
        ("POST", f"/api/v1/tournaments/{tournament}/entrants"),
        ("PATCH", f"/api/v1/tournaments/{tournament}/entrants/1"),
        ("POST", f"/api/v1/tournaments/{tournament}/rounds/1/swap"),
        ("PUT", f"/api/v1/evenings/{evening}/hands/1"),
        ("DELETE", f"/api/v1/evenings/{evening}/hands/1"),
        ("POST", f"/api/v1/evenings/{evening}/hands"),
    ]
    before = snapshot()
    for method, path in calls:
        response = client.open(path, method=method, json=body)
        assert 400 <= response.status_code < 500, (method, path, response.status_code)
        assert "errors" in response.json
    assert snapshot() == before


def test_a_retried_last_hand_is_recorded_once(client: FlaskClient, snapshot: Snapshot) -> None:
    """A tablet that lost the answer to its last hand sends it again: the table has closed
    meanwhile, and the retry gets the first answer back instead of a refusal."""
    tournament = create_tournament(client)
    register(client, tournament, NAMES[:4])
    round_ = start(client, tournament, draw(client, tournament)["number"])
    evening = round_["tables"][0]["evening"]
    play(client, evening, 3)
    last = {"contract": "einfach", "bidder": round_["tables"][0]["players"][3]["name"]}
    key = {"Idempotency-Key": "table-1-hand-4"}
    first = client.post(
        f"/api/v1/evenings/{evening}/hands", json={**last, "won": True}, headers=key
    )
    assert ok(first, 201)["hand"]["number"] == 4
    before = snapshot()
    again = client.post(
        f"/api/v1/evenings/{evening}/hands", json={**last, "won": True}, headers=key
    )
    assert again.status_code == 201
    assert again.json == first.json
    assert snapshot() == before
    assert len(ok(client.get(f"/api/v1/evenings/{evening}"))["hands"]) == 4
