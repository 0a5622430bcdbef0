"""The season's downloads take the query the season page takes: a filter or an order the
page would refuse is refused for the spreadsheet and the printout as well (422, the page
with the refusal in words), never answered with a table of defaults nobody asked for
(``web/club/pages.py``, docs/club.md "The season")."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

EN = {"Accept-Language": "en"}


@pytest.fixture
def group(client: FlaskClient) -> int:
    return int(client.post("/api/v1/groups", json={"name": "Donnerstag"}).json["id"])


BAD = [
    ("sort=money;DROP", "order the table does not have"),
    ("order=sideways", "order the table does not have"),
    ("from=x'", "date"),
    ("to=2026-13-01", "date"),
    ("game=skat", "Choose"),
]


@pytest.mark.parametrize("query", [q for q, _ in BAD])
@pytest.mark.parametrize("ext", ["", ".csv", ".pdf"])
def test_a_query_the_page_refuses_is_refused_for_every_download(
    client: FlaskClient, group: int, query: str, ext: str
) -> None:
    answer = client.get(f"/groups/{group}/season{ext}?{query}", headers=EN)
    assert answer.status_code == 422, (query, ext)
    assert answer.mimetype == "text/html"
    assert 'role="alert"' in answer.text


def test_the_sort_refusal_says_what_the_table_shows(client: FlaskClient, group: int) -> None:
    page = client.get(f"/groups/{group}/season.csv?sort=money;DROP", headers=EN).text
    assert "sorted by money, most first" in page


@pytest.mark.parametrize("ext", [".csv", ".pdf"])
def test_a_good_query_downloads(client: FlaskClient, group: int, ext: str) -> None:
    query = "from=2026-01-01&to=2026-12-31&sort=person&order=asc&game=troggen"
    answer = client.get(f"/groups/{group}/season{ext}?{query}", headers=EN)
    assert answer.status_code == 200
    assert answer.mimetype in ("text/csv", "application/pdf")


def test_the_spreadsheet_keeps_each_currency_together_in_the_order_asked(
    client: FlaskClient, group: int
) -> None:
    """An evening in CHF and one in EUR, sorted by money: the rows come table by table
    (game, unit, currency), each table by money, never EUR and CHF mixed by amount."""
    for currency, bid in (("CHF", {"points": 50}), ("EUR", {"points": 20})):
        body = {
            "game": "troggen",
            "players": ["Anna", "Bert", "Clara", "Dora"],
            "date": "2026-03-01",
            "options": {"currency": currency},
        }
        evening = client.post("/api/v1/evenings", json=body).json["id"]
        hand = {"contract": "einfach", "bidder": "Anna", **bid}
        assert client.post(f"/api/v1/evenings/{evening}/hands", json=hand).status_code == 201
        assert (
            client.put(f"/api/v1/evenings/{evening}/group", json={"group": group}).status_code
            == 200
        )
    csv = client.get(
        f"/groups/{group}/season.csv?from=2026-01-01&to=2026-12-31&sort=money&order=desc",
        headers=EN,
    )
    assert csv.status_code == 200
    currencies = [line.split(",")[3] for line in csv.text.splitlines()[1:]]
    assert currencies == ['"CHF"'] * 4 + ['"EUR"'] * 4
    for block in (csv.text.splitlines()[1:5], csv.text.splitlines()[5:]):
        money = [float(line.split(",")[6]) for line in block]
        assert money == sorted(money, reverse=True)
