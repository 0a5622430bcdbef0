"""Tournament printouts (docs/tournaments.md, "Printouts"): seating list, table cards with their
QR codes, blank sheets, round results and standings with the winner's certificate."""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import segno
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from pypdf import PdfReader

PLAYERS = [
    ("Ärni Zwahlen", "Tarockclub Solothurn"),
    ("Bea Affolter", "Museum Blumenstein"),
    ("Christa Egger", ""),
    ("Dominik Furrer", "Tarockclub Solothurn"),
    ("Elsbeth Gerber", ""),
    ("Fritz Hügli", "Grenchen"),
    ("Gabi Iseli", ""),
    ("Hans Jäggi", "Museum Blumenstein"),
    ("Ida Kummer", ""),
]


def pdf_text(data: bytes) -> str:
    """All text of a PDF."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def pages(data: bytes) -> list[str]:
    """Each page's text."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def pdf_layout(data: bytes, page: int) -> str:
    """One page's text laid out as printed, one table row per line (poppler)."""
    return subprocess.run(
        ["pdftotext", "-layout", "-f", str(page), "-l", str(page), "-", "-"],
        input=data,
        check=True,
        capture_output=True,
        timeout=60,
    ).stdout.decode()


def render_png(data: bytes, folder: Path) -> list[Path]:
    """Render every page with poppler, as a viewer would; a broken PDF fails here."""
    source = folder / "doc.pdf"
    source.write_bytes(data)
    subprocess.run(
        ["pdftoppm", "-r", "30", "-png", str(source), str(folder / "page")],
        check=True,
        capture_output=True,
        timeout=60,
    )
    rendered = sorted(folder.glob("page*.png"))
    assert rendered
    return rendered


def get_pdf(client: FlaskClient, url: str) -> bytes:
    """A printout, checked to be a PDF shown in the browser."""
    response = client.get(url)
    assert response.status_code == 200, response.data[:300]
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].startswith("inline;")
    assert response.data.startswith(b"%PDF-")
    return response.data


def signed(value: int) -> str:
    """An amount as the printouts write it (a real minus sign)."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


@pytest.fixture
def build(client: FlaskClient) -> Callable[..., dict[str, Any]]:
    """A tournament with its players registered and round 1 drawn; the client organises it."""

    def make(players: list[tuple[str, str]] = PLAYERS, **setup: Any) -> dict[str, Any]:
        body = {
            "name": "Troggen-Turnier im Museum",
            "game": "troggen",
            "rounds": 1,
            "deals_per_player": 1,
            "password": "geheim123",
            "place": "Blumenstein",
            "date": "2026-11-21",
            "language": "en",
            **setup,
        }
        created = client.post("/api/v1/tournaments", json=body)
        assert created.status_code == 201, created.json
        tid = created.json["id"]
        for name, club in players:
            answer = client.post(
                f"/api/v1/tournaments/{tid}/entrants", json={"name": name, "club": club}
            )
            assert answer.status_code == 201, answer.json
        drawn = client.post(f"/api/v1/tournaments/{tid}/rounds")
        assert drawn.status_code == 201, drawn.json
        return {"id": tid, "round": drawn.json}

    return make


def start(client: FlaskClient, tid: int, number: int = 1) -> dict[str, Any]:
    """Start a round; its tables with codes."""
    answer = client.post(f"/api/v1/tournaments/{tid}/rounds/{number}/start")
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def play(client: FlaskClient, table: dict[str, Any], hands: int) -> None:
    """Record ``hands`` Troggen hands at a table of four, the bidder taking turns."""
    names = [p["name"] for p in table["players"]]
    assert len(names) == 4
    for i in range(hands):
        body = {"contract": "doppelt", "bidder": names[i % 4], "points": 41 + i}
        answer = client.post(f"/api/v1/evenings/{table['evening']}/hands", json=body)
        assert answer.status_code == 201, answer.json


@pytest.fixture
def played(client: FlaskClient, build: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """Nine players in round 1 (a table of four and one of five): the four finish their
    hands, the five play one, and the round is closed as it stands."""
    made = build()
    tid = made["id"]
    started = start(client, tid)
    four = next(t for t in started["tables"] if len(t["players"]) == 4)
    five = next(t for t in started["tables"] if len(t["players"]) == 5)
    play(client, four, 4)
    names = [p["name"] for p in five["players"]]
    answer = client.post(
        f"/api/v1/evenings/{five['evening']}/hands",
        json={"contract": "einfach", "bidder": names[1], "partner": names[3], "points": 45},
    )
    assert answer.status_code == 201, answer.json
    closed = client.post(f"/api/v1/tournaments/{tid}/rounds/1/close", json={"confirm": True})
    assert closed.status_code == 200, closed.json
    return {"id": tid, "round": closed.json, "four": four, "five": five}


def test_seating_list_by_table_then_alphabetical(
    client: FlaskClient, build: Callable[..., dict[str, Any]], tmp_path: Path
) -> None:
    made = build()
    data = get_pdf(client, f"/tournaments/{made['id']}/rounds/1/seating.pdf")
    text = pdf_text(data)
    for expected in ("Troggen-Turnier im Museum", "21.11.2026", "Blumenstein", "Round 1"):
        assert expected in text, expected
    for table in made["round"]["tables"]:
        assert f"Table {table['number']}" in text
        first = table["players"][0]
        assert f"{first['number']} {first['name']} deals first" in text
    where = pages(data)[-1]
    assert "Where do I sit" in where
    # Alphabetically, accents aside: Ärni comes first, Ida last.
    assert where.index("Ärni Zwahlen") < where.index("Bea Affolter") < where.index("Ida Kummer")
    seat_of = {
        p["name"]: (t["number"], seat)
        for t in made["round"]["tables"]
        for seat, p in enumerate(t["players"], start=1)
    }
    table, seat = seat_of["Hans Jäggi"]
    line = next(row for row in where.splitlines() if row.startswith("Hans Jäggi"))
    assert line.split()[-2:] == [str(table), str(seat)]
    render_png(data, tmp_path)


def test_seating_list_names_the_bye(
    client: FlaskClient, build: Callable[..., dict[str, Any]]
) -> None:
    made = build(PLAYERS[:7])
    assert made["round"]["byes"]
    bye = made["round"]["byes"][0]
    text = pdf_text(get_pdf(client, f"/tournaments/{made['id']}/rounds/1/seating.pdf"))
    assert f"{bye['number']} {bye['name']}" in text
    assert "average" in text


def test_cards_need_a_started_round(
    client: FlaskClient, build: Callable[..., dict[str, Any]]
) -> None:
    made = build()
    for what in ("cards", "results"):
        answer = client.get(f"/tournaments/{made['id']}/rounds/1/{what}.pdf")
        assert answer.status_code == 409
        assert answer.mimetype == "text/html"
        assert b"has not started" in answer.data


def qr_matrix(image: Image.Image, modules: int) -> list[list[bool]]:
    """Read the dark modules of a QR image drawn with a quiet zone of four modules."""
    grey = image.convert("L")
    step = grey.width / (modules + 8)
    return [
        [
            grey.getpixel((int((c + 4.5) * step), int((r + 4.5) * step))) < 128
            for c in range(modules)
        ]
        for r in range(modules)
    ]


def test_table_cards_carry_the_code_and_a_qr_code_of_the_table_address(
    client: FlaskClient, build: Callable[..., dict[str, Any]], tmp_path: Path
) -> None:
    made = build()
    tables = start(client, made["id"])["tables"]
    data = get_pdf(client, f"/tournaments/{made['id']}/rounds/1/cards.pdf")
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == len(tables)  # one card per page
    # WeasyPrint shares one resource dictionary between pages: read every image once.
    images = [image.image for image in reader.pages[0].images]
    assert len(images) == len(tables)
    for page, table in zip(reader.pages, tables, strict=True):
        text = page.extract_text()
        url = f"http://localhost/t/{table['code']}"
        assert table["code"] in text
        assert url in text
        assert "open localhost/t and type the code" in " ".join(text.split())
        for player in table["players"]:
            assert player["name"] in text
        assert f"{table['players'][0]['name']} deals first" in text
        expected = segno.make_qr(url, error="m")
        wanted = [[bool(v) for v in row] for row in expected.matrix]
        assert any(qr_matrix(image, len(wanted)) == wanted for image in images), url
    for png in render_png(data, tmp_path):
        with Image.open(png) as image:
            assert image.width < image.height  # A5 portrait


def test_cards_use_the_public_address(
    app: Flask, client: FlaskClient, build: Callable[..., dict[str, Any]]
) -> None:
    made = build()
    tables = start(client, made["id"])["tables"]
    page = client.get(f"/tournaments/{made['id']}/rounds/1").get_data(as_text=True)
    assert "an address only this computer knows" in page
    assert "PUBLIC_URL in README.md" in page
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000/"
    text = pdf_text(get_pdf(client, f"/tournaments/{made['id']}/rounds/1/cards.pdf"))
    assert f"http://192.168.1.20:5000/t/{tables[0]['code']}" in text
    assert "192.168.1.20:5000/t " in text or "192.168.1.20:5000/t\n" in text
    page = client.get(f"/tournaments/{made['id']}/rounds/1").get_data(as_text=True)
    assert "an address only this computer knows" not in page


def test_blank_sheets_one_page_per_table_with_a_row_per_hand(
    client: FlaskClient, build: Callable[..., dict[str, Any]], tmp_path: Path
) -> None:
    made = build(deals_per_player=3)
    data = get_pdf(client, f"/tournaments/{made['id']}/rounds/1/sheets.pdf")
    sheets = pages(data)
    assert len(sheets) == len(made["round"]["tables"])
    for number, (text, table) in enumerate(zip(sheets, made["round"]["tables"], strict=True)):
        layout = pdf_layout(data, number + 1)
        names = [p["name"] for p in table["players"]]
        due = 3 * len(names)
        assert f"{due} hands" in text
        order = [f"No. {p['number']} {p['name']}" for p in table["players"]]
        assert " → ".join(order) in " ".join(text.split())  # wrapped at five players
        for name in names:
            assert name in text
        # The facts asked for in the codes of the page that types them in, with the legend.
        for head in ("Dealer", "Game", "Who", "Pts", "Last", "Einfach", "Pagat won, lost"):
            assert head in text
        rows = [line.split(maxsplit=2) for line in layout.splitlines()]
        numbered = [r for r in rows if len(r) == 3 and r[0].isdigit() and r[1].isdigit()]
        assert [int(r[0]) for r in numbered] == list(range(1, due + 1))
        # Each hand's dealer by seat, the deal passing from seat to seat.
        assert [int(r[1]) for r in numbered] == [i % len(names) + 1 for i in range(due)]
    render_png(data, tmp_path)


def test_round_results_per_table_with_signature_lines(
    client: FlaskClient, played: dict[str, Any], tmp_path: Path
) -> None:
    data = get_pdf(client, f"/tournaments/{played['id']}/rounds/1/results.pdf")
    text = pdf_text(data)
    for table in played["round"]["tables"]:
        assert f"Table {table['number']}" in text
        for player in table["players"]:
            result = table["results"][str(player["number"])]
            assert f"{player['number']} {player['name']} {signed(result)}" in text
    assert "4 of 4 hands" in text
    assert "1 of 5 hands" in text
    assert "closed before its last hand" in text
    assert "Signature" in text
    render_png(data, tmp_path)


def test_standings_with_rounds_rule_and_certificate(
    client: FlaskClient, played: dict[str, Any], tmp_path: Path
) -> None:
    data = get_pdf(client, f"/tournaments/{played['id']}/standings.pdf")
    standings = client.get(f"/api/v1/tournaments/{played['id']}/standings").json
    texts = pages(data)
    table_text = "\n".join(t for t in texts if "First place" not in t)
    assert "Final standings" in table_text
    assert "Tarockclub Solothurn" in table_text
    assert "A bye scores the round's average" in " ".join(table_text.split())
    for line in standings["standings"]:
        assert f"{line['place']} {line['number']} {line['name']}" in table_text
    winners = [line for line in standings["standings"] if line["place"] == 1]
    certificates = [t for t in texts if "First place" in t]
    assert len(certificates) == len(winners)
    for text, winner in zip(certificates, winners, strict=True):
        assert winner["name"] in text
        assert "Troggen-Turnier im Museum" in text
    render_png(data, tmp_path)


def test_standings_before_the_end_have_no_certificate(
    client: FlaskClient, build: Callable[..., dict[str, Any]]
) -> None:
    made = build(rounds=2)
    start(client, made["id"])
    text = pdf_text(get_pdf(client, f"/tournaments/{made['id']}/standings.pdf"))
    assert "First place" not in text
    assert "Standings after round 1" in text


def test_a_german_tournament_prints_in_german_whatever_the_browser_reads(
    client: FlaskClient, build: Callable[..., dict[str, Any]]
) -> None:
    made = build(language="de")
    start(client, made["id"])
    headers = {"Accept-Language": "en"}
    base = f"/tournaments/{made['id']}/rounds/1"
    cards = pdf_text(client.get(f"{base}/cards.pdf", headers=headers).data)
    assert "Tisch" in cards
    assert "Table " not in cards
    results = pdf_text(client.get(f"{base}/results.pdf", headers=headers).data)
    assert "Unterschrift" in results
    assert "Ärni Zwahlen" in results
    sheets = pdf_text(client.get(f"{base}/sheets.pdf", headers=headers).data)
    assert "Geber" in sheets
    # Start numbers are said as such: the grid numbers the seats.
    assert "Reihenfolge der Gebenden: Nr. " in sheets


def test_printouts_are_for_the_organiser_only(
    app: Flask, client: FlaskClient, build: Callable[..., dict[str, Any]]
) -> None:
    made = build()
    start(client, made["id"])
    stranger = app.test_client()
    for path in (
        "rounds/1/seating.pdf",
        "rounds/1/cards.pdf",
        "rounds/1/sheets.pdf",
        "rounds/1/results.pdf",
        "standings.pdf",
    ):
        answer = stranger.get(f"/tournaments/{made['id']}/{path}")
        assert answer.status_code in (302, 303, 401), path
        assert answer.mimetype != "application/pdf"


def test_round_page_links_the_printouts(
    client: FlaskClient, build: Callable[..., dict[str, Any]]
) -> None:
    made = build()
    base = f"/tournaments/{made['id']}"
    page = client.get(f"{base}/rounds/1").get_data(as_text=True)
    assert f"{base}/rounds/1/seating.pdf" in page
    assert f"{base}/rounds/1/cards.pdf" not in page
    start(client, made["id"])
    page = client.get(f"{base}/rounds/1").get_data(as_text=True)
    for what in ("seating", "cards", "sheets", "results"):
        assert f"{base}/rounds/1/{what}.pdf" in page
    assert f"{base}/standings.pdf" in client.get(f"{base}/standings").get_data(as_text=True)
    assert f"{base}/standings.pdf" in client.get(base).get_data(as_text=True)


def test_players_tied_first_each_get_a_certificate(
    client: FlaskClient, build: Callable[..., dict[str, Any]]
) -> None:
    made = build(PLAYERS[:4])
    start(client, made["id"])
    closed = client.post(f"/api/v1/tournaments/{made['id']}/rounds/1/close", json={"confirm": True})
    assert closed.status_code == 200
    texts = pages(get_pdf(client, f"/tournaments/{made['id']}/standings.pdf"))
    certificates = [t for t in texts if "First place, shared" in t]
    assert len(certificates) == 4
    for name, _club in PLAYERS[:4]:
        assert sum(name in text for text in certificates) == 1, name
