"""The club's pages (docs/club.md, "Pages"): groups, members and evenings managed from
forms, refusals shown at their field, the season table with its downloads, a member's
season, two members compared, and the highlights on the settlement page and printout."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

EN = {"Accept-Language": "en"}
DE = {"Accept-Language": "de"}
FOUR = ["Anna", "Bert", "Clara", "Dora"]
HANDS = [
    {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"},
    {"contract": "einfach", "bidder": "Bert", "points": 20},
    {"contract": "einfach", "bidder": "Clara", "points": 50},
]


def pdf_text(data: bytes) -> str:
    """The PDF's text as poppler reads it."""
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"],
        input=data,
        check=True,
        capture_output=True,
        timeout=60,
    ).stdout.decode()


def new_group(client: FlaskClient, name: str = "Donnerstag") -> int:
    """A group started from its form; its number."""
    answer = client.post("/groups", data={"new-name": name}, headers=EN)
    assert answer.status_code == 303, answer.text
    found = re.search(r"/groups/(\d+)$", answer.headers["Location"])
    assert found is not None
    return int(found.group(1))


def played(
    client: FlaskClient,
    create_evening: Callable[..., int],
    group: int | None,
    day: str = "2026-03-05",
    players: list[str] | None = None,
) -> int:
    """A Troggen evening in CHF with three hands, in ``group`` (or none)."""
    extra: dict[str, Any] = {"group": group} if group is not None else {}
    evening = create_evening(players or FOUR, date=day, options={"currency": "CHF"}, **extra)
    for hand in HANDS:
        names = players or FOUR
        body = {**hand, "bidder": names[FOUR.index(hand["bidder"])]}
        answer = client.post(f"/api/v1/evenings/{evening}/hands", json=body)
        assert answer.status_code == 201, answer.json
    return evening


def members(client: FlaskClient, group: int) -> dict[str, int]:
    """The group's members by name."""
    found = client.get(f"/api/v1/groups/{group}").json["members"]
    return {m["name"]: m["id"] for m in found}


def test_a_group_is_started_from_the_list_and_a_refusal_shown_at_the_field(
    client: FlaskClient,
) -> None:
    assert "There is no group yet." in client.get("/groups", headers=EN).text
    group = new_group(client)
    page = client.get("/groups", headers=EN).text
    assert "Donnerstag" in page
    assert "0 evenings" in page
    assert "0 members" in page
    refused = client.post("/groups", data={"new-name": "donnerstag"}, headers=EN)
    assert refused.status_code == 422
    assert re.search(r'class="field has-error".*A group of this name exists', refused.text, re.S)
    blank = client.post("/groups", data={"new-name": "  "}, headers=EN)
    assert blank.status_code == 422
    assert "Enter a name." in blank.text
    assert client.get(f"/groups/{group}", headers=EN).status_code == 200


def test_the_home_page_links_to_the_groups(client: FlaskClient) -> None:
    assert 'href="/groups"' in client.get("/", headers=EN).text


def test_rename_group_and_member_and_merge(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client)
    played(client, create_evening, group)
    played(client, create_evening, group, "2026-03-12", ["Hansi", "Bert", "Clara", "Dora"])
    answer = client.post(f"/groups/{group}/name", data={"group-name": "Freitag"})
    assert answer.status_code == 303
    assert "Freitag" in client.get(f"/groups/{group}", headers=EN).text
    ids = members(client, group)
    answer = client.post(
        f"/groups/{group}/members/{ids['Anna']}/name", data={f"m{ids['Anna']}-name": "Anna B."}
    )
    assert answer.status_code == 303
    assert "Anna B." in members(client, group)
    refused = client.post(
        f"/groups/{group}/members/{ids['Bert']}/merge",
        data={f"g{ids['Bert']}-other": str(ids["Clara"])},
        headers=EN,
    )
    assert refused.status_code == 422
    assert "They sat at one table on 05.03.2026, so they are two people" in refused.text
    assert "Nothing was changed." in refused.text
    assert f'href="#member-{ids["Bert"]}"' in refused.text
    assert "Bert" in members(client, group)
    assert "Clara" in members(client, group)
    # A merge cannot be undone: the first tap asks once more, naming both.
    chosen = {f"g{ids['Anna']}-other": str(ids["Hansi"])}
    asked = client.post(f"/groups/{group}/members/{ids['Anna']}/merge", data=chosen, headers=EN)
    assert asked.status_code == 200
    assert "Are Hansi and Anna B. one person?" in asked.text
    assert 'name="confirmed" value="1"' in asked.text
    assert "Hansi" in members(client, group)
    # A confirmation naming someone else than the member of that number now asks again.
    other = {**chosen, "confirmed": "1", "other_name": "Em"}
    asked = client.post(f"/groups/{group}/members/{ids['Anna']}/merge", data=other, headers=EN)
    assert asked.status_code == 200
    assert "Are Hansi and Anna B. one person?" in asked.text
    assert "Hansi" in members(client, group)
    chosen = {**chosen, "other_name": "Hansi"}
    merged = client.post(
        f"/groups/{group}/members/{ids['Anna']}/merge", data={**chosen, "confirmed": "1"}
    )
    assert merged.status_code == 303
    # Tapped twice: the second finds nothing to merge, and says so.
    again = client.post(
        f"/groups/{group}/members/{ids['Anna']}/merge",
        data={**chosen, "confirmed": "1"},
        headers=EN,
    )
    assert again.status_code == 303
    shown = client.get(again.headers["Location"], headers=EN).text
    assert "That member is not listed any more: merged already" in shown
    assert "Hansi" not in members(client, group)
    page = client.get(f"/groups/{group}", headers=EN).text
    assert "written at the table as Anna, Hansi" in page
    none_chosen = client.post(
        f"/groups/{group}/members/{ids['Bert']}/merge", data={f"g{ids['Bert']}-other": ""}
    )
    assert none_chosen.status_code == 422


def test_members_are_listed_by_name(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client)
    played(client, create_evening, group, players=["dora", "Bert", "Äbi", "Clara"])
    page = client.get(f"/groups/{group}", headers=EN).text
    listed = re.findall(
        r'<li id="member-\d+">\s*<p class="member-head"><a [^>]*><strong>([^<]+)', page
    )
    assert listed == ["Äbi", "Bert", "Clara", "dora"]


def test_an_evening_is_put_into_the_group_and_taken_out(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client)
    evening = played(client, create_evening, None)
    page = client.get(f"/groups/{group}", headers=EN).text
    assert f'<option value="{evening}">' in page
    answer = client.post(f"/groups/{group}/evenings", data={"evening": str(evening)})
    assert answer.status_code == 303
    assert client.get(f"/api/v1/groups/{group}").json["evenings"][0]["id"] == evening
    assert set(members(client, group)) == set(FOUR)
    again = client.post(f"/groups/{group}/evenings", data={"evening": str(evening)}, headers=EN)
    assert again.status_code == 422
    assert "Choose an evening from the list." in again.text
    out = client.post(f"/groups/{group}/evenings/{evening}/out")
    assert out.status_code == 303
    assert client.get(f"/api/v1/groups/{group}").json["evenings"] == []


def test_the_season_table_sorts_and_filters(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client)
    evening = played(client, create_evening, group)
    page = client.get(f"/groups/{group}/season?from=2026-01-01&to=2026-12-31", headers=EN)
    assert page.status_code == 200
    assert "Troggen · Jetons · CHF" in page.text
    for name in FOUR:
        assert name in page.text
    assert f'href="/evenings/{evening}/settlement"' in page.text
    assert 'aria-sort="descending"' in page.text  # money, most first
    by_name = client.get(
        f"/groups/{group}/season?from=2026-01-01&to=2026-12-31&sort=person&order=asc",
        headers=EN,
    ).text
    rows = re.findall(r'<th scope="row"[^>]*><a [^>]*>([^<]+)</a>', by_name)
    assert rows == sorted(FOUR)
    empty = client.get(f"/groups/{group}/season?from=2027-01-01&to=2027-12-31", headers=EN)
    assert "No evening of this group in this range." in empty.text
    refused = client.get(f"/groups/{group}/season?from=2026-13-01", headers=EN)
    assert refused.status_code == 422
    assert "Write the date as year-month-day" in refused.text


def test_the_season_downloads(client: FlaskClient, create_evening: Callable[..., int]) -> None:
    group = new_group(client)
    played(client, create_evening, group, players=["=1+1", "Bert", "Clara", "Dora"])
    query = "?from=2026-01-01&to=2026-12-31"
    csv = client.get(f"/groups/{group}/season.csv{query}", headers=EN)
    assert csv.status_code == 200
    assert csv.mimetype == "text/csv"
    lines = csv.text.splitlines()
    assert lines[0].startswith('"Member","Game","Unit","Currency","Evenings"')
    assert len(lines) == 5
    assert any(line.startswith('"\'=1+1","Troggen","Jetons","CHF",1,3,') for line in lines)
    assert not any(line.startswith("=") for line in lines)
    pdf = client.get(f"/groups/{group}/season.pdf{query}", headers=EN)
    assert pdf.status_code == 200
    assert pdf.mimetype == "application/pdf"
    text = pdf_text(pdf.data)
    assert "Donnerstag" in text
    assert "Season table" in text
    for name in ("Bert", "Clara", "Dora"):
        assert name in text
    net = client.get(f"/api/v1/groups/{group}/season{query}", headers=EN).json["rows"]
    bert = next(r for r in net if r["name"] == "Bert")
    assert f"CHF {bert['money'].lstrip('-')}" in text.replace("\u2212", "").replace("+", "")
    # The links to the downloads keep the order the table is shown in.
    page = client.get(f"/groups/{group}/season{query}&sort=person&order=asc", headers=EN).text
    links = {}
    for ext in ("csv", "pdf"):
        link = re.search(rf'href="(/groups/{group}/season\.{ext}\?[^"]*)"', page)
        assert link is not None
        links[ext] = link.group(1).replace("&amp;", "&")
        assert "sort=person" in links[ext]
        assert "order=asc" in links[ext]
    rows = client.get(links["csv"], headers=EN).text.splitlines()[1:]
    assert [row.split(",")[0] for row in rows] == ['"\'=1+1"', '"Bert"', '"Clara"', '"Dora"']


def test_a_members_page_and_a_comparison(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client)
    evening = played(client, create_evening, group)
    ids = members(client, group)
    page = client.get(f"/groups/{group}/members/{ids['Anna']}?from=2026-01-01", headers=EN)
    assert page.status_code == 200
    text = page.text
    assert "<svg" in text
    assert "running-chart-0" in text
    assert "<script" not in text
    assert f'href="/evenings/{evening}/settlement"' in text
    assert "Doppelt: bid" in text
    assert "Pagat in the last trick won (own side)" in text
    assert "Gegen den Talon: bid" not in text  # never happened: left out
    assert "What never happened (0) is left out" in text
    german = client.get(f"/groups/{group}/members/{ids['Anna']}?from=2026-01-01", headers=DE)
    assert "Doppelt: geboten" in german.text
    compared = client.get(
        f"/groups/{group}/compare?a={ids['Anna']}&b={ids['Bert']}&from=2026-01-01", headers=EN
    )
    assert compared.status_code == 200
    assert "Anna and Bert" in compared.text
    assert "Doppelt: bid" in compared.text
    # Every column has a head a screen reader can say (axe-core: empty table headers).
    assert '<th scope="col"></th>' not in compared.text
    assert compared.text.count('<th scope="col">Figure</th>') >= 1
    chooser = client.get(f"/groups/{group}/compare", headers=EN)
    assert chooser.status_code == 200
    assert "Compare two members" in chooser.text


MISERES = [
    {"contract": "misere", "points": {"Anna": 8, "Bert": 20, "Clara": 12, "Dora": 15}},
    {"contract": "misere", "points": {"Anna": 20, "Bert": 8, "Clara": 15, "Dora": 12}},
]


def figure_rows(html: str) -> list[tuple[str, list[str]]]:
    """A comparison's rows: the figure's words and each member's value as shown."""
    return [
        (words, re.findall(r'<td class="num">([^<]*)</td>', cells))
        for words, cells in re.findall(r'<th scope="row">([^<]*)</th>(.*?)</tr>', html, re.S)
    ]


def test_a_comparison_lists_misere_places_in_order_with_zeros(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    """Both played the game: a place one of them never took is 0, not the dash of a game
    never played, and the places stand in order before the last trick's figures."""
    group = new_group(client)
    evening = played(client, create_evening, group)
    for hand in MISERES:
        answer = client.post(f"/api/v1/evenings/{evening}/hands", json=hand)
        assert answer.status_code == 201, answer.json
    ids = members(client, group)
    page = client.get(
        f"/groups/{group}/compare?a={ids['Clara']}&b={ids['Anna']}&from=2026-01-01", headers=EN
    )
    assert page.status_code == 200
    rows = figure_rows(page.text)
    places = [(w, v) for w, v in rows if w.startswith("Misère: place")]
    assert places == [
        ("Misère: place 1", ["0", "1"]),
        ("Misère: place 2", ["1", "0"]),
        ("Misère: place 3", ["1", "0"]),
        ("Misère: place 4", ["0", "1"]),
        ("Misère: place 5", ["0", "0"]),
        ("Misère: place 6", ["0", "0"]),
    ]
    words = [w for w, _ in rows]
    assert words.index("Misère: place 6") < words.index("King in the last trick won (own side)")
    shown = client.get(f"/groups/{group}/members/{ids['Clara']}?from=2026-01-01", headers=EN)
    assert re.search(r"Misère: place 2.*Misère: place 3", shown.text, re.S)
    assert "Misère: place 1" not in shown.text  # never happened: left out


def test_the_new_evening_form_offers_the_groups(client: FlaskClient) -> None:
    assert "Table group" not in client.get("/evenings/new", headers=EN).text
    group = new_group(client)
    form = client.get("/evenings/new", headers=EN).text
    assert "Table group" in form
    assert f'<option value="{group}">Donnerstag</option>' in form
    # The group page's button starts an evening with its group chosen.
    page = client.get(f"/groups/{group}", headers=EN).text
    assert f'href="/evenings/new?group={group}"' in page
    chosen = client.get(f"/evenings/new?group={group}", headers=EN).text
    assert f'<option selected value="{group}">Donnerstag</option>' in chosen
    assert (
        "selected"
        not in client.get("/evenings/new?group=999", headers=EN)
        .text.split('name="group"', 1)[1]
        .split("</select>", 1)[0]
    )
    data = {
        "variant": "troggen/blumenstein-2015",
        "seat_0": "Anna",
        "seat_1": "Bert",
        "seat_2": "Clara",
        "seat_3": "Dora",
        "dealer_seat": "0",
        "group": str(group),
        "opt_currency": "CHF",
    }
    shown = client.get("/evenings/new").text
    for key, value in re.findall(r'name="(opt_[a-z_]+)"[^>]*value="([^"]*)"', shown):
        data.setdefault(key, value)
    answer = client.post("/evenings", data=data, headers=EN)
    assert answer.status_code == 303, answer.text
    assert len(client.get(f"/api/v1/groups/{group}").json["evenings"]) == 1


def test_the_settlement_shows_the_highlights(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = played(client, create_evening, None)
    page = client.get(f"/evenings/{evening}/settlement", headers=EN).text
    assert "Highlights of the evening" in page
    assert re.search(r"Best hand: \w+ won \+\d+ jetons in hand \d+\.", page)
    assert "Bid most:" in page
    german = client.get(f"/evenings/{evening}/settlement", headers=DE).text
    assert re.search(r"Beste Runde: \w+ gewann \+\d+ Jetons in Runde \d+\.", german)
    pdf = client.get(f"/evenings/{evening}/settlement.pdf")
    text = " ".join(pdf_text(pdf.data).split())
    assert "Best hand:" in text or "Beste Runde:" in text
    # Money won reads as on the page, with its sign.
    assert re.search(r"CHF \+\d+\.\d\d", text)


def test_an_evenings_settlement_and_printouts_name_its_group(
    app: Flask, client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    group = new_group(client, "Stammtisch Rössli")
    evening = played(client, create_evening, group)
    link = f'<a href="/groups/{group}">Stammtisch Rössli</a>'
    assert link in client.get(f"/evenings/{evening}/settlement", headers=EN).text
    # A tablet without the PIN reads the group's name, but is not led to its pages.
    tablet = app.test_client()
    tablet.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    page = tablet.get(f"/evenings/{evening}/settlement", headers=EN)
    assert page.status_code == 200
    assert "Stammtisch Rössli" in page.text
    assert link not in page.text
    for printout in ("settlement.pdf", "sheet.pdf"):
        text = pdf_text(client.get(f"/evenings/{evening}/{printout}").data)
        assert "2015) · Stammtisch Rössli · 05.03.2026" in " ".join(text.split()), printout
    alone = played(client, create_evening, None)
    assert "/groups/" not in client.get(f"/evenings/{alone}/settlement", headers=EN).text


PAGES = [
    "/groups",
    "/groups/{g}",
    "/groups/{g}/season",
    "/groups/{g}/season.csv",
    "/groups/{g}/season.pdf",
    "/groups/{g}/members/{m}",
    "/groups/{g}/compare?a={m}&b={m}",
]


@pytest.mark.parametrize("path", PAGES)
def test_a_tablet_needs_the_pin_for_the_group_pages(
    app: Flask, create_evening: Callable[..., int], client: FlaskClient, path: str
) -> None:
    group = new_group(client)
    played(client, create_evening, group)
    url = path.format(g=group, m=members(client, group)["Anna"])
    tablet = app.test_client()
    tablet.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    assert tablet.get(url).status_code == 403
    assert tablet.post(f"/groups/{group}/name", data={"group-name": "X"}).status_code == 403
    assert app.test_client().get(url).status_code == 200  # the laptop itself
    app.config["ACCESS_PIN"] = "4711"
    assert tablet.post("/api/v1/unlock", json={"pin": "4711"}).status_code == 200
    assert tablet.get(url).status_code == 200
