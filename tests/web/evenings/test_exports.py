"""Printouts and archives: PDFs (text and a real render), CSV, JSON export and import,
and closing an evening."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.conftest import PLAYERS5

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
EN = {"Accept-Language": "en"}

HANDS5 = [
    {"contract": "doppelt", "bidder": "Anna", "partner": "Dora", "points": 30},
    {"contract": "misere", "points": {"Anna": 8, "Bert": 20, "Clara": 12, "Dora": 15, "Emil": 12}},
    {
        "contract": "einfach",
        "bidder": "Clara",
        "partner": "Emil",
        "points": 37,
        "last_trick": "pagat_won",
    },
    {"contract": "gegen", "bidder": "Bert", "partner": None, "points": 20},
]


@pytest.fixture
def evening(
    create_evening: Callable[..., int], record_hand: Callable[..., Any], client: FlaskClient
) -> int:
    """A five-player evening with a pot left, a voided hand and a correction."""
    evening = create_evening(
        PLAYERS5,
        title="Spielabend im Museum",
        place="Solothurn",
        date="2026-11-21",
        first_dealer="Emil",
        language="de",
    )
    for body in HANDS5:
        record_hand(evening, body)
    client.delete(f"/api/v1/evenings/{evening}/hands/4", json={"reason": "falsch gezählt"})
    record_hand(evening, {"contract": "einfach", "bidder": "Dora", "partner": "Bert", "points": 20})
    client.put(
        f"/api/v1/evenings/{evening}/hands/5",
        json={
            "contract": "einfach",
            "bidder": "Dora",
            "partner": "Bert",
            "points": 21,
            "version": 1,
        },
    )
    client.post(
        f"/api/v1/evenings/{evening}/seating",
        json={"players": ["Anna", "Bert", "Fritz", "Clara", "Dora"], "dealer": "Fritz"},
    )
    record_hand(
        evening, {"contract": "doppelt", "bidder": "Fritz", "partner": "Anna", "points": 44}
    )
    return evening


def pdf_text(data: bytes) -> str:
    """All text of a PDF."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def render_png(data: bytes, folder: Path) -> list[Path]:
    """Render every page with poppler, as a person's viewer would; a broken PDF fails here."""
    source = folder / "doc.pdf"
    source.write_bytes(data)
    subprocess.run(
        ["pdftoppm", "-r", "40", "-png", str(source), str(folder / "page")],
        check=True,
        capture_output=True,
        timeout=60,
    )
    pages = sorted(folder.glob("page*.png"))
    assert pages
    assert all(p.stat().st_size > 1000 for p in pages)
    return pages


def test_score_sheet_pdf(client: FlaskClient, evening: int, tmp_path: Path) -> None:
    response = client.get(f"/evenings/{evening}/sheet.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert "2026-11-21-sheet" in response.headers["Content-Disposition"]
    text = pdf_text(response.data)
    for expected in (
        "Spielabend im Museum",
        "Solothurn",
        "21.11.2026",
        "Anna",
        "Emil",
        "Doppelt",
        "Misère",
        "Gegen",
        "falsch gezählt",
        "CHF 0.10",
        "Pagat",
    ):
        assert expected in text, expected
    render_png(response.data, tmp_path)


def test_settlement_pdf_names_rule_amounts_and_signature_lines(
    client: FlaskClient, evening: int, tmp_path: Path
) -> None:
    api = client.get(f"/api/v1/evenings/{evening}/settlement").json
    response = client.get(f"/api/v1/evenings/{evening}/settlement.pdf")
    assert response.status_code == 200
    text = pdf_text(response.data)
    assert "Abrechnung" in text
    for transfer in api["transfers"]:
        assert f"CHF {transfer['amount']}" in text
    assert text.count("Signature") + text.count("Unterschrift") >= 1
    assert len(PdfReader(io.BytesIO(response.data)).pages) == 1
    render_png(response.data, tmp_path)


def test_settlement_pdf_follows_the_end_rule_asked(client: FlaskClient, evening: int) -> None:
    split = pdf_text(client.get(f"/api/v1/evenings/{evening}/settlement.pdf").data)
    refund = pdf_text(client.get(f"/api/v1/evenings/{evening}/settlement.pdf?end_pot=refund").data)
    assert split != refund
    bad = client.get(f"/api/v1/evenings/{evening}/settlement.pdf?end_pot=keep")
    assert bad.status_code == 422


def test_english_evening_prints_in_english(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    evening = create_evening(language="en")
    record_hand(evening, {"contract": "einfach", "bidder": "Anna", "points": 40})
    text = pdf_text(
        client.get(
            f"/api/v1/evenings/{evening}/settlement.pdf", headers={"Accept-Language": "de"}
        ).data
    )
    assert "Settlement" in text
    assert "CHF 0.10" in text


def test_hands_csv(client: FlaskClient, evening: int) -> None:
    response = client.get(f"/evenings/{evening}/hands.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [r["hand"] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    assert rows[5]["Emil"] == ""  # Emil had left the table
    assert rows[0]["Anna"] == "-8"
    assert rows[1]["points.Bert"] == "20"
    assert rows[3]["void"] == "falsch gezählt"
    assert rows[3]["Bert"] == "0"
    assert rows[2]["pot after"] == "0"


def test_settlement_csv(client: FlaskClient, evening: int) -> None:
    api = client.get(f"/api/v1/evenings/{evening}/settlement").json
    text = client.get(f"/evenings/{evening}/settlement.csv").text
    assert text.startswith('"party","units","money (CHF)"\r\n')  # text quoted
    table = list(csv.reader(io.StringIO(text, newline="")))
    parties = {row[0]: row[2] for row in table[1 : table.index([])]}  # before the payments
    for player, amount in api["net"].items():
        assert parties[player] == amount
        assert f'"{player}",' in text  # a name quoted, an amount bare: a number
        assert f",{amount}\r\n" in text


def test_export_then_import_gives_the_same_ledger_and_settlement(
    client: FlaskClient, evening: int
) -> None:
    archive = client.get(f"/api/v1/evenings/{evening}/export").json
    assert archive["format"] == "scorekeeper-evening"
    assert len(archive["hands"][4]["revisions"]) == 2
    assert archive["hands"][3]["void_reason"] == "falsch gezählt"
    response = client.post("/api/v1/evenings/import", json=archive)
    assert response.status_code == 201
    copy = response.json["id"]
    original = client.get(f"/api/v1/evenings/{evening}").json
    imported = client.get(f"/api/v1/evenings/{copy}").json
    for key in ("hands", "balances", "pot", "players", "all_players", "options", "next_dealer"):
        assert imported[key] == original[key], key
    assert (
        client.get(f"/api/v1/evenings/{copy}/settlement").json
        == client.get(f"/api/v1/evenings/{evening}/settlement").json
    )
    revisions = client.get(f"/api/v1/evenings/{copy}/hands/5/revisions").json["revisions"]
    assert [r["input"]["points"] for r in revisions] == [20, 21]


def test_an_imported_evening_keeps_its_language_and_closing(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    english = create_evening(language="en")
    client.post(f"/api/v1/evenings/{english}/close")
    archive = client.get(f"/api/v1/evenings/{english}/export").json
    copy = client.post("/api/v1/evenings/import", json=archive).json
    assert copy["language"] == "en"
    assert copy["closed"] is True
    reopened = client.post(f"/api/v1/evenings/{english}/reopen").json
    archive = client.get(f"/api/v1/evenings/{english}/export").json
    assert client.post("/api/v1/evenings/import", json=archive).json["closed"] is False
    assert reopened["closed"] is False


def test_import_page_takes_an_uploaded_file(client: FlaskClient, evening: int) -> None:
    data = client.get(f"/evenings/{evening}/export.json").data
    response = client.post(
        "/import",
        data={"archive": (io.BytesIO(data), "abend.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303
    assert len(client.get("/api/v1/evenings").json["evenings"]) == 2


def damaged(archive: dict[str, Any]) -> list[tuple[str, dict[str, Any] | list[int]]]:
    """Archives broken in the ways files get broken."""

    def changed(path: list[Any], value: Any) -> dict[str, Any]:
        copy = json.loads(json.dumps(archive))
        target = copy
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return copy

    return [
        ("not an archive", [1, 2, 3]),
        ("foreign format", changed(["format"], "other-app")),
        ("newer version", changed(["version"], 99)),
        ("unknown game", changed(["evening", "game"], "skat")),
        ("bad option", changed(["evening", "options", "end_pot"], "keep")),
        ("hand without input", changed(["hands", 0, "input"], None)),
        ("impossible hand", changed(["hands", 0, "input", "points"], 99)),
        ("duplicate hand number", changed(["hands", 1, "number"], 1)),
        ("dealer not seated", changed(["hands", 0, "dealer"], "Zora")),
        ("no seating", changed(["seatings"], [])),
        ("bad time", changed(["hands", 0, "created_at"], "yesterday")),
        ("hand not an object", changed(["hands", 0], "hand 1")),
        ("revision not an object", changed(["hands", 0, "revisions", 0], None)),
        ("seating not an object", changed(["seatings", 0], 1)),
        ("settings revision not an object", changed(["settings_revisions", 0], [])),
        ("number beyond the database", changed(["hands", 0, "number"], 10**20)),
        ("version zero", changed(["hands", 0, "revisions", 0, "version"], 0)),
        ("dealer name far too long", changed(["hands", 0, "dealer"], "Z" * 300)),
        # Values SQLite would store but PostgreSQL's columns cannot hold.
        ("name too long", changed(["seatings", 0, "players", 0], "A" * 81)),
        ("NUL in a dealer's name", changed(["hands", 0, "dealer"], "Anna\u0000")),
        ("hand number too large", changed(["hands", 0, "number"], 2**31)),
        ("version too large", changed(["hands", 0, "revisions", 0, "version"], 2**63)),
    ]


def test_damaged_or_foreign_archives_are_refused_and_change_nothing(
    client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    archive = client.get(f"/api/v1/evenings/{evening}/export").json
    before = snapshot()
    for name, broken in damaged(archive):
        response = client.post("/api/v1/evenings/import", json=broken)
        assert response.status_code == 422, name
        assert response.json["errors"], name
        assert snapshot() == before, name


def test_import_refuses_texts_it_would_have_to_cut(
    client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    """Nothing of an archive is cut or stripped: a text too long for its column, or
    holding a NUL, refuses the file and names the field (docs/archives.md)."""
    exported = client.get(f"/api/v1/evenings/{evening}/export").json
    before = snapshot()
    too_long = {**exported, "evening": {**exported["evening"], "title": "Abend" + "x" * 300}}
    response = client.post("/api/v1/evenings/import", json=too_long, headers=EN)
    assert response.status_code == 422
    assert "the title of the evening is 305 characters long" in response.json["errors"]["file"][0]
    hands = [dict(h) for h in exported["hands"]]
    hands[3] = {**hands[3], "void_reason": "falsch\u0000 gezählt"}
    response = client.post("/api/v1/evenings/import", json={**exported, "hands": hands}, headers=EN)
    assert response.status_code == 422
    assert "NUL character" in response.json["errors"]["file"][0]
    assert snapshot() == before


def test_import_page_refuses_a_broken_file(client: FlaskClient, snapshot: Snapshot) -> None:
    before = snapshot()
    response = client.post(
        "/import",
        data={"archive": (io.BytesIO(b"\xff\xfe"), "x.json")},
        content_type="multipart/form-data",
        headers={"Accept-Language": "en"},
    )
    assert response.status_code == 422
    assert "not an evening archive" in response.text
    missing = client.post("/import", data={}, headers={"Accept-Language": "en"})
    assert "Choose the archive file" in missing.text
    assert snapshot() == before


WRITES = [
    (
        "post",
        "/api/v1/evenings/{e}/hands",
        {"contract": "einfach", "bidder": "Anna", "partner": None, "points": 40},
    ),
    ("put", "/api/v1/evenings/{e}/hands/1", {**HANDS5[0], "version": 1}),
    ("delete", "/api/v1/evenings/{e}/hands/1", {"reason": "x"}),
    ("post", "/api/v1/evenings/{e}/seating", {"players": PLAYERS5[:4]}),
    ("patch", "/api/v1/evenings/{e}", {"version": 3, "title": "neu"}),
]


def test_closed_evening_is_read_only_until_reopened(
    client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    closed = client.post(f"/api/v1/evenings/{evening}/close")
    assert closed.status_code == 200
    assert closed.json["closed"] is True
    before = snapshot()
    for method, url, body in WRITES:
        response = getattr(client, method)(url.format(e=evening), json=body)
        assert response.status_code == 409, url
        assert response.json["errors"]["evening"] == [
            "This evening is closed. Reopen it to change anything."
        ]
    page = client.post(f"/evenings/{evening}/hands", data={"contract": "einfach"})
    assert page.status_code == 303
    assert snapshot() == before
    table = client.get(f"/evenings/{evening}", headers={"Accept-Language": "en"}).text
    assert "This evening is closed" in table
    assert 'name="contract"' not in table
    assert client.get(f"/api/v1/evenings/{evening}/settlement").status_code == 200
    reopened = client.post(f"/api/v1/evenings/{evening}/reopen")
    assert reopened.json["closed"] is False
    history = client.get(f"/api/v1/evenings/{evening}/revisions").json["revisions"]
    assert [r["settings"]["closed"] for r in history][-2:] == [True, False]
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=WRITES[0][2]).status_code == 201


def test_close_and_reopen_from_the_settlement_page(client: FlaskClient, evening: int) -> None:
    assert client.post(f"/evenings/{evening}/close").status_code == 303
    page = client.get(f"/evenings/{evening}/settlement", headers={"Accept-Language": "en"}).text
    assert "Reopen the evening" in page
    assert "Mark as paid" not in page
    assert client.post(f"/evenings/{evening}/reopen").status_code == 303
    assert client.get(f"/api/v1/evenings/{evening}").json["closed"] is False


def test_settlement_of_eight_players_fits_one_page(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    first = ["Anna", "Bert", "Clara", "Dora", "Emil", "Fritz"]
    second = ["Gina", "Hans", "Clara", "Dora", "Emil", "Fritz"]
    evening = create_evening(first)
    for table in (first, second):
        client.post(f"/api/v1/evenings/{evening}/seating", json={"players": table})
        for i, bidder in enumerate(table):
            partner = table[(i + 2) % len(table)]
            points = 20 + 7 * i % 30
            record_hand(
                evening,
                {
                    "contract": "doppelt",
                    "bidder": bidder,
                    "partner": partner,
                    "points": points,
                    "last_trick": "none",
                },
            )
    data = client.get(f"/evenings/{evening}/settlement.pdf").data
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
    text = pdf_text(data)
    assert "Gina" in text
    assert "Hans" in text


def test_a_hand_kept_under_an_earlier_check_imports_shows_and_is_held_to_it_once_corrected(
    client: FlaskClient,
) -> None:
    """A Troggu hand with points no side can hold (stored before that was refused) comes
    back from an archive, its evening shows, and only a correction must satisfy the check."""
    start = {"game": "troggu", "variant": "visp", "players": ["Anna", "Beat", "Carla", "Dani"]}
    evening = client.post("/api/v1/evenings", json=start).json["id"]
    hand = {"contract": "normal", "declarer": "Anna", "points": 40}
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=hand).status_code == 201
    archive = client.get(f"/api/v1/evenings/{evening}/export").json
    archive["hands"][0]["input"]["points"] = 5  # what an older version let through
    for revision in archive["hands"][0].get("revisions", []):
        revision["input"]["points"] = 5
    copy = client.post("/api/v1/evenings/import", json=archive)
    assert copy.status_code == 201, copy.json
    kept = copy.json["id"]
    assert client.get(f"/evenings/{kept}").status_code == 200
    assert client.get(f"/api/v1/evenings/{kept}").json["hands"][0]["input"]["points"] == 5
    again = {**hand, "points": 5, "version": 1}
    english = {"Accept-Language": "en"}
    refused = client.put(f"/api/v1/evenings/{kept}/hands/1", json=again, headers=english)
    assert refused.status_code == 422
    assert "at least 14 points" in refused.json["errors"]["points"][0]
    fixed = client.put(f"/api/v1/evenings/{kept}/hands/1", json={**again, "points": 15})
    assert fixed.status_code == 200, fixed.json
