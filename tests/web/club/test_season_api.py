"""The season table, a member's statistics and two members compared, through the JSON
API (docs/club.md): figures follow the evenings' settlements, filters refuse what they
cannot read, and an evening's highlights come with its settlement."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from flask.testing import FlaskClient

EN = {"Accept-Language": "en"}
FOUR = ["Anna", "Bert", "Clara", "Dora"]
HANDS = [
    {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"},
    {"contract": "einfach", "bidder": "Bert", "points": 20},
    {"contract": "einfach", "bidder": "Clara", "points": 50},
]


def played_evening(
    client: FlaskClient, create_evening: Callable[..., int], group: int, day: str
) -> int:
    """A Troggen evening of the group on ``day`` with three hands."""
    evening = create_evening(FOUR, group=group, date=day, options={"currency": "CHF"})
    for hand in HANDS:
        answer = client.post(f"/api/v1/evenings/{evening}/hands", json=hand)
        assert answer.status_code == 201, answer.json
    return evening


def season(client: FlaskClient, group: int, query: str = "") -> dict[str, Any]:
    """The season table as the API answers it."""
    answer = client.get(f"/api/v1/groups/{group}/season{query}", headers=EN)
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def test_the_season_sums_each_members_evenings(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = client.post("/api/v1/groups", json={"name": "Donnerstag"}).json["id"]
    evenings = [
        played_evening(client, create_evening, group, day) for day in ("2026-03-05", "2026-03-12")
    ]
    table = season(client, group, "?from=2026-01-01&to=2026-12-31")
    assert table["evenings"] == 2
    assert {r["name"] for r in table["rows"]} == set(FOUR)
    nets: dict[str, Decimal] = {}
    for evening in evenings:
        settled = client.get(f"/api/v1/evenings/{evening}/settlement").json
        for name, amount in settled["net"].items():
            nets[name] = nets.get(name, Decimal(0)) + Decimal(amount)
    for row in table["rows"]:
        assert Decimal(row["money"]) == nets[row["name"]]
        assert row["evenings"] == 2
        assert row["hands"] == 6
    money = [Decimal(r["money"]) for r in table["rows"]]
    assert money == sorted(money, reverse=True)  # most first unless asked otherwise
    by_name = season(client, group, "?from=2026-01-01&to=2026-12-31&sort=person&order=asc")
    assert [r["name"] for r in by_name["rows"]] == sorted(FOUR)
    assert season(client, group, "?from=2027-01-01&to=2027-12-31")["rows"] == []


def test_a_member_page_and_a_comparison(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = client.post("/api/v1/groups", json={"name": "Donnerstag"}).json["id"]
    played_evening(client, create_evening, group, "2026-03-05")
    members = {m["name"]: m["id"] for m in client.get(f"/api/v1/groups/{group}").json["members"]}
    url = f"/api/v1/groups/{group}/members/{members['Anna']}/statistics?from=2026-01-01"
    anna = client.get(url).json
    assert anna["name"] == "Anna"
    assert [e["hands"] for e in anna["evenings"]] == [3]
    assert anna["figures"]["troggen.contract.doppelt.played"] == 1
    assert anna["figures"]["troggen.last_trick.pagat.won"] == 1
    assert len(anna["running"][0]["points"]) == 1
    both = client.get(
        f"/api/v1/groups/{group}/compare?a={members['Anna']}&b={members['Bert']}&from=2026-01-01"
    ).json
    figures = {f["key"]: (f["a"], f["b"]) for f in both["figures"]}
    assert figures["troggen.contract.doppelt.played"] == (1, 0)
    assert figures["troggen.contract.einfach.played"] == (0, 1)


def test_misere_places_are_every_place_in_order_with_zeros(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    """A member who played Troggen has every Misère place as a figure, 0 for a place never
    taken; two members line up place by place, in order."""
    group = client.post("/api/v1/groups", json={"name": "Donnerstag"}).json["id"]
    evening = played_evening(client, create_evening, group, "2026-03-05")
    misere = {"contract": "misere", "points": {"Anna": 8, "Bert": 20, "Clara": 12, "Dora": 15}}
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=misere).status_code == 201
    members = {m["name"]: m["id"] for m in client.get(f"/api/v1/groups/{group}").json["members"]}
    url = f"/api/v1/groups/{group}/members/{members['Clara']}/statistics?from=2026-01-01"
    clara = client.get(url).json["figures"]
    assert [clara[f"troggen.misere.place.{n}"] for n in range(1, 7)] == [0, 1, 0, 0, 0, 0]
    both = client.get(
        f"/api/v1/groups/{group}/compare?a={members['Clara']}&b={members['Anna']}&from=2026-01-01"
    ).json
    places = [(f["key"], f["a"], f["b"]) for f in both["figures"] if ".misere." in f["key"]]
    assert places == [
        ("troggen.misere.place.1", 0, 1),
        ("troggen.misere.place.2", 1, 0),
        ("troggen.misere.place.3", 0, 0),
        ("troggen.misere.place.4", 0, 0),
        ("troggen.misere.place.5", 0, 0),
        ("troggen.misere.place.6", 0, 0),
    ]


def test_filters_refuse_what_they_cannot_read(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Donnerstag"}).json["id"]
    for query, field in [
        ("?from=gestern", "from"),
        ("?from=2026-12-31&to=2026-01-01", "to"),
        ("?game=poker", "game"),
        ("?game=troggen&variant=kirchberg", "variant"),
        ("?sort=luck", "sort"),
    ]:
        answer = client.get(f"/api/v1/groups/{group}/season{query}", headers=EN)
        assert answer.status_code == 422, query
        assert field in answer.json["errors"], query
    missing = client.get(f"/api/v1/groups/{group}/compare?a=1&b=x", headers=EN)
    assert missing.status_code in (404, 422)


def test_an_evening_names_its_highlights(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = client.post("/api/v1/groups", json={"name": "Donnerstag"}).json["id"]
    evening = played_evening(client, create_evening, group, "2026-03-05")
    found = client.get(f"/api/v1/evenings/{evening}/highlights").json
    assert "highlights" not in client.get(f"/api/v1/evenings/{evening}/settlement").json
    assert found["most_bids"]["hands"] == 1
    assert found["best_hand"]["hand"] in (1, 2, 3)
    assert found["biggest_pot"]["winner"] in FOUR
    assert found["longest_carry"] is None or found["longest_carry"]["hands"] >= 1
