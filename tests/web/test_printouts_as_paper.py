"""Every printout read as paper (docs/presentation.md "The score sheet as paper"): players
with names of up to 40 letters, 3 to 8 at a table, German and English. The words printed
are words of the printout, none broken inside; nothing is drawn outside the page; six
players get 35 hands and more a page; the amounts printed are the settlement's. The first
and last page of each are kept as PNG in ``test-artifacts/printouts`` to look at."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.paper import broken_words, keep_png, layout_text, outside, pages_of, printed_html

#: Names as long as the app takes them: words to wrap at, one word longer than any
#: column, names alike at their start.
LONG = [
    "Anna-Lena Bartholomäus von Wattenwyl",
    "Maximilianbartholomäusfriedrichwattenwy",
    "Christine Dorothea Emmanuela Friederike",
    "Dorothea",
    "Emmanuel Zwahlen-Hügli",
    "Friederike von Steiger-Wattenwyl",
    "Gottfried Keller",
    "Hildegard von Bingen-Rupertsberg",
]
LAST_TRICKS = ["none"] * 6 + ["pagat_won", "pagat_lost", "king_won", "king_lost"]


def troggen_hand(rnd: random.Random, players: list[str]) -> dict[str, Any]:
    """A Troggen hand at five or six: a bid with a partner, or now and then a Misère."""
    if rnd.random() < 0.1:
        points = [rnd.randint(4, 11) for _ in players[:-1]]
        points.append(66 - 8 - sum(points))
        return {"contract": "misere", "points": dict(zip(players, points, strict=True))}
    bidder = rnd.choice(players)
    return {
        "contract": rnd.choice(["einfach", "doppelt", "ohne", "gegen"]),
        "bidder": bidder,
        "partner": rnd.choice([None, *[p for p in players if p != bidder]]),
        "points": rnd.randint(15, 55),
        "last_trick": rnd.choice(LAST_TRICKS),
    }


def record(client: FlaskClient, evening: int, hand: dict[str, Any]) -> None:
    answer = client.post(f"/api/v1/evenings/{evening}/hands", json=hand)
    assert answer.status_code == 201, answer.json


def evening_of(client: FlaskClient, game: str, players: list[str], **extra: Any) -> int:
    body = {"game": game, "players": players, "title": "Abend im Museum Blumenstein", **extra}
    answer = client.post("/api/v1/evenings", json=body)
    assert answer.status_code == 201, answer.json
    return int(answer.json["id"])


def read_as_paper(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, path: str, name: str
) -> tuple[bytes, str]:
    """The printout at ``path``, checked as paper: words whole, all inside the page."""
    with printed_html(monkeypatch) as seen:
        answer = client.get(path)
    assert answer.status_code == 200, answer.data[:300]
    pdf = answer.data
    assert seen, "rendered here, not kept from an earlier test"
    keep_png(pdf, name)
    assert broken_words(pdf, seen[-1]) == [], name
    assert outside(pdf) == [], name
    return pdf, layout_text(pdf)


def names_whole(text: str, players: list[str], *, on_one_line: bool = False) -> None:
    """Every word of every name is printed whole somewhere (the legend at least); on the
    score sheet, every name whole on one line (the players' key)."""
    words = set(text.split())
    for player in players:
        for word in player.split():
            assert word in words, word
    lines = [" ".join(line.split()) for line in text.splitlines()]
    for player in players if on_one_line else ():
        assert any(player in line for line in lines), player


def amounts_printed(client: FlaskClient, evening: int, text: str) -> None:
    """Each player's net and each payment of the settlement stand on the last page."""
    settlement = client.get(f"/api/v1/evenings/{evening}/settlement").json
    currency = client.get(f"/api/v1/evenings/{evening}").json["options"].get("currency", "")
    plain = text.replace("\u2212", "-")
    for player, net in settlement["net"].items():
        sign = "+" if not net.startswith("-") and net != "0.00" else ""
        assert f"{currency} {sign}{net}".strip() in plain, (player, net)
    for payment in settlement["transfers"]:
        assert f"{currency} {payment['amount']}" in plain, payment


def test_troggen_at_six_with_long_names_200_hands(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = LONG[:6]
    evening = evening_of(client, "troggen", players, language="de")
    rnd = random.Random(6)
    for _ in range(200):
        record(client, evening, troggen_hand(rnd, players))
    pdf, text = read_as_paper(client, monkeypatch, f"/evenings/{evening}/sheet.pdf", "troggen-6-de")
    names_whole(text, players, on_one_line=True)
    pages = pages_of(pdf)
    assert 200 / len(pages) >= 35, len(pages)
    assert pages[0].width < pages[0].height  # six players fit upright
    assert text.count("Übertrag") == len(pages) - 1
    assert "Legende" in text
    names_whole(text, players)
    amounts_printed(client, evening, text.split("\f")[-2])
    pdf, text = read_as_paper(
        client, monkeypatch, f"/evenings/{evening}/settlement.pdf", "troggen-6-de-settlement"
    )
    names_whole(text, players)
    amounts_printed(client, evening, text)


def test_doppen_at_three_in_english(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    players = LONG[1:4]
    evening = evening_of(client, "doppen", players, language="en")
    anna, maxi, christine = players
    hands: list[dict[str, Any]] = [
        {"contract": "dreier", "soloist": anna, "points": 41},
        {"contract": "pass", "penalties": [{"player": christine}]},
        {
            "contract": "zweier",
            "soloist": maxi,
            "points": 33,
            "kontra": {"game": 1, "pagat": 0},
            "announced": {"pagat": maxi},
            "pagat": {"player": maxi, "result": "lost"},
        },
        {
            "contract": "solo",
            "soloist": christine,
            "points": 40,
            "announced": {"pagat": christine},
            "pagat": {"player": christine, "result": "won"},
            "trull": christine,
        },
    ]
    rnd = random.Random(3)
    for index in range(40):
        hand = hands[index] if index < len(hands) else {}
        hand = hand or {
            "contract": rnd.choice(["dreier", "unterer", "zweier", "einer"]),
            "soloist": rnd.choice(players),
            "points": rnd.randint(20, 55),
        }
        record(client, evening, hand)
    _, text = read_as_paper(client, monkeypatch, f"/evenings/{evening}/sheet.pdf", "doppen-3-en")
    for label in ("Aufschreibsystem", "Kasse", "Own Kasse notes", "Legend", "n·S"):
        assert label in text, label
    names_whole(text, players, on_one_line=True)
    amounts_printed(client, evening, text.split("\f")[-2])
    _, text = read_as_paper(
        client, monkeypatch, f"/evenings/{evening}/settlement.pdf", "doppen-3-en-settlement"
    )
    amounts_printed(client, evening, text)


def test_troggu_at_eight_with_misere(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    players = LONG
    evening = evening_of(client, "troggu", players, variant="visp", language="de")
    rnd = random.Random(8)
    for index in range(40):
        if index % 10 == 9:
            points = [rnd.randint(8, 14) for _ in players[:-1]]
            points.append(92 - sum(points))
            hand: dict[str, Any] = {
                "contract": "misere",
                "points": dict(zip(players, points, strict=True)),
                "fool_and_i_in_tapp": True,
            }
        else:
            declarer, partner = rnd.sample(players, 2)
            hand = {"contract": "normal", "declarer": declarer, "partner": partner}
            hand["points"] = rnd.randint(40, 90)
        record(client, evening, hand)
    _, text = read_as_paper(client, monkeypatch, f"/evenings/{evening}/sheet.pdf", "troggu-8-de")
    names_whole(text, players, on_one_line=True)
    assert re.search(r"\bM\b", text)  # the Misère's code, explained by the legend
    amounts_printed(client, evening, text.split("\f")[-2])


def test_striche_at_three_in_english(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    players = LONG[4:7]
    evening = evening_of(client, "troggu", players, variant="eisten-stalden", language="en")
    for index in range(12):
        record(client, evening, {"team": [players[index % 3]], "points": 50 + index})
    _, text = read_as_paper(client, monkeypatch, f"/evenings/{evening}/sheet.pdf", "striche-3-en")
    assert "|" in text
    names_whole(text, players, on_one_line=True)
    _, text = read_as_paper(
        client, monkeypatch, f"/evenings/{evening}/settlement.pdf", "striche-3-en-settlement"
    )
    names_whole(text, players)


def test_the_season_and_the_tournament_printouts(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, create_evening: Callable[..., int]
) -> None:
    made = client.post("/groups", data={"new-name": "Donnerstagsrunde Blumenstein"})
    group = int(made.headers["Location"].rsplit("/", 1)[1])
    players = LONG[:4]
    for day in ("2026-03-05", "2026-03-12"):
        evening = create_evening(players, date=day, group=group, options={"currency": "CHF"})
        for index in range(4):
            record(client, evening, {"contract": "einfach", "bidder": players[index], "points": 40})
    _, text = read_as_paper(
        client, monkeypatch, f"/groups/{group}/season.pdf?from=2026-01-01&to=2026-12-31", "season"
    )
    names_whole(text, players)
    body = {
        "name": "Troggen-Turnier im Museum Blumenstein",
        "game": "troggen",
        "rounds": 1,
        "deals_per_player": 1,
        "password": "geheim123",
        "language": "de",
    }
    tid = client.post("/api/v1/tournaments", json=body).json["id"]
    for name in LONG:
        entrant = {"name": name, "club": "Tarockclub Solothurn"}
        assert client.post(f"/api/v1/tournaments/{tid}/entrants", json=entrant).status_code == 201
    assert client.post(f"/api/v1/tournaments/{tid}/rounds").status_code == 201
    started = client.post(f"/api/v1/tournaments/{tid}/rounds/1/start").json
    for table in started["tables"]:
        names = [p["name"] for p in table["players"]]
        body = {"contract": "doppelt", "bidder": names[0], "points": 44}
        record(client, table["evening"], body)
    kinds = ("rounds/1/seating", "rounds/1/cards", "rounds/1/sheets", "rounds/1/results")
    for kind in (*kinds, "standings"):
        path = f"/tournaments/{tid}/{kind}.pdf"
        _, text = read_as_paper(client, monkeypatch, path, kind.replace("/", "-"))
        names_whole(text, LONG)
