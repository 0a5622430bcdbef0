"""Archives are checked whole before anything is stored (docs/archives.md, "Checks").

A damaged or edited archive is refused with a message naming its first problem, as 422
with ``{"errors": {"file": [...]}}`` from the API, and nothing is stored. Nothing is cut,
stripped or filled in. What the app itself writes (a void undone by a correction, a
table changed twice before a hand, a closed table corrected with a reason) still imports.
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import operations
from scorekeeper.db.extensions import db
from scorekeeper.db.models import Evening, Player
from scorekeeper.operations import anonymising, evening_archives
from tests.played import EVENINGS

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
Archive = dict[str, Any]
EN = {"Accept-Language": "en"}
DE = {"Accept-Language": "de"}


def play_troggen(client: FlaskClient) -> int:
    """The Troggen evening of ``tests.played``: five players, then four; hand 2 voided,
    hand 3 corrected, the title corrected."""
    start, requests = EVENINGS[0]
    evening = int(client.post("/api/v1/evenings", json=start).json["id"])
    for method, path, body in requests:
        url = f"/api/v1/evenings/{evening}" + (f"/{path}" if path else "")
        response = client.open(url, method=method, json=body)
        assert response.status_code < 300, response.json
    return evening


@pytest.fixture
def exported(client: FlaskClient) -> Archive:
    """The Troggen evening's archive, as exported."""
    evening = play_troggen(client)
    data: Archive = client.get(f"/api/v1/evenings/{evening}/export").json
    assert [len(h["revisions"]) for h in data["hands"]] == [1, 2, 2, 1]
    assert [s["from_hand"] for s in data["seatings"]] == [1, 4]
    assert len(data["settings_revisions"]) == 2
    return data


def count(app: Flask) -> int:
    """How many evenings the installation holds."""
    with app.app_context():
        return db.session.query(Evening).count()


def damaged(data: Archive, change: Callable[[Archive], Any]) -> Archive:
    """A copy of ``data`` with ``change`` made to it."""
    copied = copy.deepcopy(data)
    change(copied)
    return copied


def swap_numbers(a: Archive, i: int, j: int) -> None:
    hands = a["hands"]
    hands[i]["number"], hands[j]["number"] = hands[j]["number"], hands[i]["number"]


def set_both(a: Archive, hand: int, key: str, value: Any) -> None:
    """Change a hand and its last version alike, so only the change itself is wrong."""
    a["hands"][hand][key] = value
    a["hands"][hand]["revisions"][-1][key] = value


def second_table_stranger(a: Archive) -> None:
    """Write a player of the second table in small letters (not hand 4's dealer)."""
    dealer = a["hands"][3]["dealer"]
    players = a["seatings"][1]["players"]
    i = next(i for i, p in enumerate(players) if p != dealer and p in a["seatings"][0]["players"])
    players[i] = players[i].lower()


def void_again(a: Archive) -> None:
    """Hand 2, voided in its version 2, voided once more in a version 3."""
    revisions = a["hands"][1]["revisions"]
    revisions.append({**revisions[-1], "version": 3})


#: Each damage and the exact first problem named (English), before " Nothing was imported."
REFUSALS: dict[str, tuple[Callable[[Archive], Any], str]] = {
    "a gap": (
        lambda a: a["hands"].pop(1),
        "The file is damaged: hand 2 is missing (the hands jump from 1 to 3).",
    ),
    "the first hand gone": (
        lambda a: a["hands"].pop(0),
        "The file is damaged: hand 1 is missing (the hands start at 2).",
    ),
    "a repeat": (
        lambda a: a["hands"][2].__setitem__("number", 2),
        "The file is damaged: hand 2 appears twice.",
    ),
    "two numbers swapped": (
        lambda a: swap_numbers(a, 1, 2),
        "The file is damaged: the hands are out of order (hand 3 comes before hand 2).",
    ),
    "a contradicting revision": (
        lambda a: a["hands"][2]["revisions"][-1]["input"].__setitem__("points", 30),
        "The file is damaged: hand 3 contradicts its last version (2): the input differs.",
    ),
    "a void lost from the hand": (
        lambda a: a["hands"][1].__setitem__("void_reason", None),
        "The file is damaged: hand 2 contradicts its last version (2): the void_reason differs.",
    ),
    "a revision missing": (
        lambda a: a["hands"][2]["revisions"].pop(0),
        "The file is damaged: version 1 of hand 3 is missing (the versions start at 2).",
    ),
    "a revision twice": (
        lambda a: a["hands"][2]["revisions"][1].__setitem__("version", 1),
        "The file is damaged: version 1 of hand 3 appears twice.",
    ),
    "no history": (
        lambda a: a["hands"][0].__setitem__("revisions", []),
        "The file is damaged: hand 1 has no history.",
    ),
    "a void that changes the facts": (
        lambda a: set_both(a, 1, "input", {**a["hands"][1]["input"], "contract": "bettel"}),
        "The file is damaged: version 2 of hand 2 voids it and changes its facts; a void "
        "keeps them.",
    ),
    "a void in the first version": (
        lambda a: a["hands"][0]["revisions"][0].__setitem__("void_reason", "x"),
        "The file is damaged: hand 1 is voided in its first version; a hand is recorded "
        "before it is voided.",
    ),
    "voided twice": (
        void_again,
        "The file is damaged: version 3 of hand 2 voids it again; it was voided already.",
    ),
    "a void without a reason": (
        lambda a: set_both(a, 1, "void_reason", "  "),
        "The file is damaged: hand 2 is voided without a reason.",
    ),
    "recorded after its first version": (
        lambda a: a["hands"][0].__setitem__("created_at", "2999-01-01T00:00:00Z"),
        "The file is damaged: hand 1 was recorded after its first version.",
    ),
    "a dealer not at the table": (
        lambda a: a["hands"][0].__setitem__("dealer", "Zora"),
        "The file is damaged: hand 1 is dealt by Zora, who is not at its table.",
    ),
    "a settings revision missing": (
        lambda a: a["settings_revisions"].pop(0),
        "The file is damaged: settings version 1 is missing (the versions start at 2).",
    ),
    "the last settings revision missing": (
        lambda a: a["settings_revisions"].pop(),
        "The file is damaged: the evening's title is not the one of its last settings version (1).",
    ),
    "no settings history": (
        lambda a: a["settings_revisions"].clear(),
        "The file is damaged: the evening's settings have no history.",
    ),
    "settings that contradict the evening": (
        lambda a: a["evening"]["options"].__setitem__("end_pot", "carry"),
        "The file is damaged: the evening's options is not the one of its last settings "
        "version (2).",
    ),
    "another first dealer": (
        lambda a: a["seatings"][0].__setitem__("dealer", "Anna"),
        "The file is damaged: the evening's first_dealer is not the one of its last settings "
        "version (2).",
    ),
    "a seating before hand 1": (
        lambda a: a["seatings"][0].__setitem__("from_hand", 2),
        "The file is damaged: the first seating starts at hand 2, not at hand 1.",
    ),
    "overlapping seatings": (
        lambda a: a["seatings"].append({**a["seatings"][0], "from_hand": 2}),
        "The file is damaged: seating 3 starts at hand 2, before the seating listed before "
        "it (hand 4).",
    ),
    "a seating after the hands": (
        lambda a: a["seatings"][1].__setitem__("from_hand", 9),
        "The file is damaged: seating 2 starts at hand 9, but the evening's last hand is hand 4.",
    ),
    "a title too long": (
        lambda a: a["evening"].__setitem__("title", "x" * 201),
        "The file is damaged: the title of the evening is 201 characters long; at most 200 fit.",
    ),
    "a source too long": (
        lambda a: a["hands"][0]["revisions"][0].__setitem__("source", "tablet-" * 10),
        "The file is damaged: the source of version 1 of hand 1 is 70 characters long; at "
        "most 40 fit.",
    ),
    "a void reason too long": (
        lambda a: set_both(a, 1, "void_reason", "x" * 501),
        "The file is damaged: the void_reason of hand 2 is 501 characters long; at most 500 fit.",
    ),
    "a NUL in the title": (
        lambda a: a["evening"].__setitem__("title", "Abend\u0000"),
        "The file is damaged: the title of the evening holds a NUL character, which no text "
        "may hold.",
    ),
    "a NUL in a void reason": (
        lambda a: set_both(a, 1, "void_reason", "falsch\u0000 gezählt"),
        "The file is damaged: the void_reason of hand 2 holds a NUL character, which no "
        "text may hold.",
    ),
    "a title that is not text": (
        lambda a: a["evening"].__setitem__("title", 42),
        "The file is damaged: the evening has no valid title.",
    ),
    "a date that is not text": (
        lambda a: a["evening"].__setitem__("date", 20261121),
        "The file is damaged: the evening has no valid date.",
    ),
    "no variant": (
        lambda a: a["evening"].pop("variant"),
        "The file is damaged: the evening has no valid variant.",
    ),
    "a key nobody writes": (
        lambda a: a["hands"][0].__setitem__("comment", "Anna was late"),
        "The file is damaged: entry 1 of the hands holds “comment”, which this version of "
        "Scorekeeper does not know.",
    ),
    "a language nobody speaks": (
        lambda a: a["settings_revisions"][-1]["settings"].__setitem__("language", "fr"),
        "The file is damaged: settings version 2 has no valid language.",
    ),
    "a name with spaces": (
        lambda a: a["seatings"][0]["players"].__setitem__(1, "Bert "),
        "The file is damaged: the players of seating 1 are not valid: “Bert ” has spaces "
        "before or after it.",
    ),
    "a reserved name": (
        lambda a: a["seatings"][0]["players"].__setitem__(1, "Pot"),
        "The file is damaged: the players of seating 1 are not valid: Pot is reserved for "
        "the pot or the Kasse; please choose another name.",
    ),
    "one player spelled two ways": (
        second_table_stranger,
        "The file is damaged: one player is named both “{name}” and “{other}”.",
    ),
    "a hand against the rules": (
        lambda a: set_both(a, 0, "input", {**a["hands"][0]["input"], "points": 99}),
        "The file is damaged: hand 1 does not fit the rules: ",
    ),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_a_damaged_archive_names_its_first_problem_and_stores_nothing(
    app: Flask, client: FlaskClient, exported: Archive, snapshot: Snapshot, name: str
) -> None:
    change, problem = REFUSALS[name]
    broken = damaged(exported, change)
    if "{name}" in problem:  # the two spellings, as the file has them
        first = {p.lower(): p for p in broken["seatings"][0]["players"]}
        other = next(p for p in broken["seatings"][1]["players"] if p.islower())
        problem = problem.format(name=first[other], other=other)
    before, evenings = snapshot(), count(app)
    response = client.post("/api/v1/evenings/import", json=broken, headers=EN)
    assert response.status_code == 422, response.json
    assert list(response.json["errors"]) == ["file"]
    (said,) = response.json["errors"]["file"]
    if problem.endswith(": "):
        assert said.startswith(problem), said
        assert said.endswith(" Nothing was imported."), said
    else:
        assert said == f"{problem} Nothing was imported."
    assert count(app) == evenings
    assert snapshot() == before


def test_the_first_problem_is_named_when_there_are_several(
    client: FlaskClient, exported: Archive
) -> None:
    def several(a: Archive) -> None:
        a["hands"].pop(2)  # a gap after hand 2
        a["hands"][0]["revisions"][0]["source"] = "x" * 41  # an earlier problem
        a["settings_revisions"].pop(0)  # earlier still: the settings come first

    response = client.post("/api/v1/evenings/import", json=damaged(exported, several), headers=EN)
    assert response.json["errors"]["file"] == [
        "The file is damaged: settings version 1 is missing (the versions start at 2). "
        "Nothing was imported."
    ]


def test_the_problem_is_said_in_german_too(client: FlaskClient, exported: Archive) -> None:
    response = client.post(
        "/api/v1/evenings/import", json=damaged(exported, REFUSALS["a gap"][0]), headers=DE
    )
    assert response.status_code == 422
    assert response.json["errors"]["file"] == [
        "Die Datei ist beschädigt: Runde 2 fehlt (die Runden springen von 1 auf 3). Es wurde "
        "nichts importiert."
    ]
    long_title = damaged(exported, REFUSALS["a title too long"][0])
    response = client.post("/api/v1/evenings/import", json=long_title, headers=DE)
    assert response.json["errors"]["file"] == [
        "Die Datei ist beschädigt: Das Feld «title» bei dem Abend ist 201 Zeichen lang; "
        "höchstens 200 haben Platz. Es wurde nichts importiert."
    ]


def test_the_import_page_names_the_problem_and_stores_nothing(
    client: FlaskClient, exported: Archive, snapshot: Snapshot
) -> None:
    broken = damaged(exported, REFUSALS["a contradicting revision"][0])
    before = snapshot()
    response = client.post(
        "/import",
        data={"archive": (io.BytesIO(json.dumps(broken).encode()), "abend.json")},
        content_type="multipart/form-data",
        headers=EN,
    )
    assert response.status_code == 422
    assert (
        "The file is damaged: hand 3 contradicts its last version (2): the input differs. "
        "Nothing was imported."
    ) in response.text
    assert snapshot() == before


def ledger(client: FlaskClient, evening: int) -> dict[str, Any]:
    """What an evening shows of its hands and balances."""
    data = client.get(f"/api/v1/evenings/{evening}").json
    return {k: data[k] for k in ("hands", "balances", "pot", "players", "next_dealer")}


def test_a_void_undone_by_a_correction_imports(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    """A voided hand corrected afterwards stands again: a void need not be the last version."""
    evening = create_evening()
    hand = {"contract": "einfach", "bidder": "Anna", "points": 40}
    record_hand(evening, hand)
    client.delete(f"/api/v1/evenings/{evening}/hands/1", json={"reason": "zu früh"})
    again = client.put(f"/api/v1/evenings/{evening}/hands/1", json={**hand, "version": 2})
    assert again.status_code == 200, again.json
    data = client.get(f"/api/v1/evenings/{evening}/export").json
    assert [r["void_reason"] for r in data["hands"][0]["revisions"]] == [None, "zu früh", None]
    response = client.post("/api/v1/evenings/import", json=data)
    assert response.status_code == 201, response.json
    assert ledger(client, response.json["id"]) == ledger(client, evening)


def test_a_table_changed_twice_before_a_hand_imports(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(["Anna", "Bert", "Clara", "Dora", "Emil"])
    record_hand(evening, {"contract": "einfach", "bidder": "Anna", "partner": None, "points": 40})
    for players in (["Anna", "Bert", "Clara", "Dora"], ["Anna", "Bert", "Clara", "Emil"]):
        seating = client.post(f"/api/v1/evenings/{evening}/seating", json={"players": players})
        assert seating.status_code == 200, seating.json
    record_hand(evening, {"contract": "einfach", "bidder": "Emil", "points": 40})
    data = client.get(f"/api/v1/evenings/{evening}/export").json
    assert [s["from_hand"] for s in data["seatings"]] == [1, 2, 2]
    response = client.post("/api/v1/evenings/import", json=data)
    assert response.status_code == 201, response.json
    assert ledger(client, response.json["id"]) == ledger(client, evening)


def test_a_correction_of_a_closed_table_keeps_its_reason(
    app: Flask,
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
) -> None:
    """The reason an organiser gave for correcting a closed table travels with the hand."""
    evening = create_evening()
    hand = {"contract": "einfach", "bidder": "Anna", "points": 40}
    record_hand(evening, hand)
    assert client.post(f"/api/v1/evenings/{evening}/close").status_code == 200
    with app.test_request_context():
        operations.replace_hand(
            evening, 1, {**hand, "points": 41, "version": 1}, source="api", correction="Zählfehler"
        )
        db.session.commit()
    data = client.get(f"/api/v1/evenings/{evening}/export").json
    assert [r["correction"] for r in data["hands"][0]["revisions"]] == [None, "Zählfehler"]
    response = client.post("/api/v1/evenings/import", json=data)
    assert response.status_code == 201, response.json
    copy_ = response.json["id"]
    assert response.json["closed"] is True
    revisions = client.get(f"/api/v1/evenings/{copy_}/hands/1/revisions").json["revisions"]
    assert [r.get("correction") for r in revisions] == [None, "Zählfehler"]
    assert client.get(f"/api/v1/evenings/{copy_}/export").json["hands"] == data["hands"]


def test_a_hand_never_changed_is_stored_as_the_app_stores_it(
    app: Flask, client: FlaskClient, exported: Archive
) -> None:
    """One row, no revision; exported again it says exactly what the file said."""
    response = client.post("/api/v1/evenings/import", json=exported)
    assert response.status_code == 201, response.json
    with app.app_context():
        evening = db.session.get(Evening, response.json["id"])
        assert evening is not None
        assert [len(h.revisions) for h in evening.hands] == [0, 2, 2, 0]
        again = evening_archives.export_evening(evening)
    assert again["hands"] == exported["hands"]
    assert again["seatings"] == exported["seatings"]
    assert again["settings_revisions"][:-1] == exported["settings_revisions"]
    assert again["settings_revisions"][-1]["source"] == "api"


# Damage at random -------------------------------------------------------------------------


def drop_hand(a: Archive, i: int) -> None:
    if a["hands"]:
        a["hands"].pop(i % len(a["hands"]))


def swap_hands(a: Archive, i: int) -> None:
    if n := len(a["hands"]):
        swap_numbers(a, i % n, (i + 1) % n)


def change_revision_input(a: Archive, i: int) -> None:
    revisions = [r for h in a["hands"] for r in h["revisions"]]
    if not revisions:
        return
    revision = revisions[i % len(revisions)]
    points = revision["input"].get("points")
    if isinstance(points, int):
        revision["input"] = {**revision["input"], "points": points + 1}
    else:
        revision["input"] = {**revision["input"], "contract": "einfach"}


def drop_revision(a: Archive, i: int) -> None:
    if a["hands"] and (revisions := a["hands"][i % len(a["hands"])]["revisions"]):
        revisions.pop(i % len(revisions))


def drop_settings_revision(a: Archive, i: int) -> None:
    if a["settings_revisions"]:
        a["settings_revisions"].pop(i % len(a["settings_revisions"]))


def change_void_reason(a: Archive, i: int) -> None:
    if a["hands"]:
        hand = a["hands"][i % len(a["hands"])]
        hand["void_reason"] = None if hand["void_reason"] else "verzählt"


def duplicate_hand(a: Archive, i: int) -> None:
    if a["hands"]:
        a["hands"].insert(i % len(a["hands"]), copy.deepcopy(a["hands"][i % len(a["hands"])]))


DAMAGES = [
    drop_hand,
    swap_hands,
    change_revision_input,
    drop_revision,
    drop_settings_revision,
    change_void_reason,
    duplicate_hand,
]


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=st.sampled_from(DAMAGES), i=st.integers(min_value=0, max_value=20))
def test_damage_at_random_is_refused_or_harmless(
    app: Flask, client: FlaskClient, damage: Callable[[Archive, int], None], i: int
) -> None:
    """Whatever one thing is damaged, the file is refused with nothing stored, or it imports
    to the ledger the table saw. The one damage here no check can see is a file that ends a
    whole hand early: it is the evening as it stood before that hand, and imports as such.
    (Several changes made to agree with each other can say another evening: the checks find
    damage and contradictions, not a careful rewrite; docs/archives.md, "What no check can
    see".)"""
    original = original_evening(client)
    data = client.get(f"/api/v1/evenings/{original}/export").json
    broken = copy.deepcopy(data)
    damage(broken, i)
    evenings = count(app)
    response = client.post("/api/v1/evenings/import", json=broken, headers=EN)
    if response.status_code == 422:
        assert list(response.json["errors"]) == ["file"], response.json
        assert response.json["errors"]["file"][0].endswith(" Nothing was imported.")
        assert count(app) == evenings
        return
    assert response.status_code == 201, response.json
    assert count(app) == evenings + 1
    imported = ledger(client, response.json["id"])
    expected = ledger(client, original)
    hands = len(imported["hands"])
    assert imported["hands"] == expected["hands"][:hands]
    if hands == len(expected["hands"]):
        assert imported == expected
    else:
        assert len(broken["hands"]) == hands < len(data["hands"])


def original_evening(client: FlaskClient) -> int:
    """The Troggen evening, played once per test (the first evening of the installation)."""
    evenings = client.get("/api/v1/evenings").json["evenings"]
    if evenings:
        return int(min(e["id"] for e in evenings))
    return play_troggen(client)


def test_a_closed_evening_anonymised_later_imports_closed(
    app: Flask, client: FlaskClient, exported: Archive
) -> None:
    """Anonymising writes a settings version after the closing: the evening stays closed,
    since the moment it was closed."""
    evening = client.post("/api/v1/evenings/import", json=exported).json["id"]
    assert client.post(f"/api/v1/evenings/{evening}/close").status_code == 200
    with app.test_request_context(headers=EN):
        bert = db.session.query(Player).filter_by(name="Bert").one()
        anonymising.anonymise_player(bert.id)
        db.session.commit()
    data = client.get(f"/api/v1/evenings/{evening}/export").json
    assert [r["source"] for r in data["settings_revisions"]][-2:] == ["api", "anonymise"]
    response = client.post("/api/v1/evenings/import", json=data)
    assert response.status_code == 201, response.json
    assert response.json["closed"] is True
    assert ledger(client, response.json["id"]) == ledger(client, evening)
    with app.app_context():
        closing = data["settings_revisions"][-2]["at"]
        copy_ = db.session.get(Evening, response.json["id"])
        assert copy_ is not None
        assert copy_.closed_at is not None
        assert evening_archives.stamp(copy_.closed_at) == closing


def test_newest_settings_from_before_language_and_closing_import_german_and_open(
    client: FlaskClient, exported: Archive
) -> None:
    """An evening started before the printouts' language and closing existed."""
    for revision in exported["settings_revisions"]:
        del revision["settings"]["language"], revision["settings"]["closed"]
    response = client.post("/api/v1/evenings/import", json=exported)
    assert response.status_code == 201, response.json
    assert response.json["language"] == "de"
    assert response.json["closed"] is False
