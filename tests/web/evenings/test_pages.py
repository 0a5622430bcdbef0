"""Pages with Flask's test client: every form's happy path and its error paths."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import PLAYERS5

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
EN = {"Accept-Language": "en"}
DE = {"Accept-Language": "de-CH"}

NEW = {
    "seat_0": "Anna",
    "seat_1": "Bert",
    "seat_2": "Clara",
    "seat_3": "Dora",
    "dealer_seat": "3",
    "title": "Museumsabend",
    "opt_unit_value": "0.10",
    "opt_currency": "CHF",
    "opt_coin": "0.05",
    "opt_end_pot": "split",
    "opt_threshold": "fixed-35",
    "opt_partner_rounding": "nearest",
    "opt_last_trick_payers": "all-others",
}
BID = {
    "contract": "doppelt",
    "bidder": "Anna",
    "points": "41",
    "result": "points",
    "last_trick": "pagat_won",
}


def errors(html: str) -> list[str]:
    """The error messages a page shows next to its fields."""
    return [m.strip() for m in re.findall(r'class="error"[^>]*>([^<]*)<', html)]


def test_empty_home_invites_a_new_evening(client: FlaskClient) -> None:
    page = client.get("/", headers=EN)
    assert page.status_code == 200
    assert "No evening yet" in page.text
    assert "/evenings/new" in page.text


def test_new_evening_page_offers_seats_rules_and_known_players(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    create_evening()
    page = client.get("/evenings/new", headers=EN).text
    assert 'name="seat_5"' in page
    assert 'name="seat_6"' not in page  # Troggen seats at most six
    assert '<option value="Bert">' in page  # suggested from earlier evenings
    assert "What happens to jetons left in the pot when the evening ends." in page
    assert "shared equally among the players at the table" in page


def test_new_evening_redirects_to_its_table(client: FlaskClient) -> None:
    response = client.post("/evenings", data=NEW, headers=EN)
    assert response.status_code == 303
    page = client.get(response.headers["Location"], headers=EN).text
    assert "Museumsabend" in page
    assert "The evening has started." in page
    data = client.get("/api/v1/evenings/1").json
    assert data["players"] == ["Anna", "Bert", "Clara", "Dora"]
    assert data["next_dealer"] == "Dora"


def test_empty_seats_in_between_are_skipped(client: FlaskClient) -> None:
    data = {**NEW, "seat_1": "", "seat_4": "Bert", "dealer_seat": "0"}
    assert client.post("/evenings", data=data).status_code == 303
    assert client.get("/api/v1/evenings/1").json["players"] == ["Anna", "Clara", "Dora", "Bert"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param({"seat_3": ""}, "played by 4 to 6 players, not 3", id="three-players"),
        pytest.param({"seat_2": "anna"}, "anna is listed twice.", id="duplicate"),
        pytest.param(
            {"opt_unit_value": "zehn"}, "Write the amount as a decimal number", id="unit-value"
        ),
        pytest.param({"opt_currency": "Franken"}, "three-letter currency code", id="currency"),
        pytest.param(
            {"opt_end_pot": "keep"}, "Choose one of: split, refund, carry.", id="tampered-choice"
        ),
        pytest.param({"date": "gestern"}, "Choose a date from the calendar", id="date"),
    ],
)
def test_new_evening_errors_are_shown_next_to_the_field(
    client: FlaskClient, snapshot: Snapshot, change: dict[str, str], message: str
) -> None:
    before = snapshot()
    response = client.post("/evenings", data={**NEW, **change}, headers=EN)
    assert response.status_code == 422
    assert any(message in e for e in errors(response.text)), errors(response.text)
    # Also at the top of the long form, leading down to where it is to be fixed.
    summary = response.text.split('id="not-saved"', 1)[1].split("</div>", 1)[0]
    assert message in summary
    assert 'value="Anna"' in response.text  # what was typed is kept
    assert snapshot() == before


def test_the_game_chosen_in_the_form_is_the_game_started(client: FlaskClient) -> None:
    # The page was drawn for Troggen; Doppen is picked and Start tapped, without JavaScript.
    picked = {**NEW, "seat_3": "", "dealer_seat": "2", "shown": "troggen/blumenstein-2015"}
    picked["variant"] = "doppen/kirchberg"
    shown = client.post("/evenings", data=picked, headers=EN)
    # No evening yet: the page now shows Doppen's house rules, with the names as typed.
    assert shown.status_code == 200
    assert client.get("/api/v1/evenings").json["evenings"] == []
    assert "are now those of Doppen (Kirchberg am Wechsel)" in shown.text
    assert '<option value="doppen/kirchberg" selected>' in shown.text
    assert 'name="shown" value="doppen/kirchberg"' in shown.text
    for name in ("Anna", "Bert", "Clara", "Museumsabend"):
        assert f'value="{name}"' in shown.text
    assert re.search(r'name="dealer_seat" value="2"\s+checked', shown.text)
    assert 'name="opt_kasse_base"' in shown.text
    assert 'name="opt_end_pot"' not in shown.text  # Troggen's rules are gone
    # Start again: Doppen starts, with the three names.
    form = dict(re.findall(r'name="(opt_\w+)"[^>]*value="([^"]*)"', shown.text))
    kept = {k: v for k, v in picked.items() if not k.startswith("opt_")}
    again = kept | form | {"shown": "doppen/kirchberg"}
    response = client.post("/evenings", data=again, headers=EN)
    assert response.status_code == 303, errors(response.text)
    data = client.get("/api/v1/evenings/1").json
    assert data["game"] == "doppen"
    assert data["players"] == ["Anna", "Bert", "Clara"]


def test_a_count_wrong_for_the_chosen_game_names_that_game_and_keeps_every_name(
    client: FlaskClient,
) -> None:
    five = {**NEW, "seat_4": "Emil", "variant": "doppen/kirchberg", "shown": "doppen/kirchberg"}
    response = client.post("/evenings", data=five, headers=EN)
    assert response.status_code == 422
    assert any("played by 3 to 4 players, not 5" in e for e in errors(response.text))
    assert 'value="Emil"' in response.text  # the fifth name has a seat to stay in


@pytest.fixture
def evening(client: FlaskClient) -> int:
    """A four-player evening started through the page; Dora deals first."""
    assert client.post("/evenings", data=NEW).status_code == 303
    return 1


def test_table_screen_shows_turn_pot_and_entry(client: FlaskClient, evening: int) -> None:
    page = client.get(f"/evenings/{evening}", headers=EN).text
    assert "Deals" in page
    assert "<strong>Dora</strong>" in page
    assert 'name="contract"' in page
    assert 'name="token"' in page
    assert "Save hand" in page
    # The rotation's dealer is preselected, so saving untouched records the right dealer.
    assert '<option selected value="Dora">Dora</option>' in page
    assert "Dealer: <strong>Dora</strong>" in page


def test_record_a_hand_then_see_it_with_undo(client: FlaskClient, evening: int) -> None:
    response = client.post(f"/evenings/{evening}/hands", data={**BID, "token": "a"}, headers=EN)
    assert response.status_code == 303
    assert response.headers["Location"] == f"/evenings/{evening}?saved=1"
    page = client.get(response.headers["Location"], headers=EN).text
    assert "Hand 1 saved" in page
    assert "Undo" in page
    assert "Pagat won in the last trick" in page
    assert client.get(f"/api/v1/evenings/{evening}").json["balances"]["Anna"] == 12


def test_a_double_tap_records_one_hand(client: FlaskClient, evening: int) -> None:
    first = client.post(f"/evenings/{evening}/hands", data={**BID, "token": "same"})
    again = client.post(f"/evenings/{evening}/hands", data={**BID, "token": "same"})
    assert first.headers["Location"] == again.headers["Location"]
    assert len(client.get(f"/api/v1/evenings/{evening}").json["hands"]) == 1


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(
            {"bidder": "Anna", "points": "40"}, "Tap one of the buttons.", id="no-contract"
        ),
        pytest.param({"contract": "einfach", "points": "40"}, "Choose a player.", id="no-bidder"),
        pytest.param(
            {"contract": "einfach", "bidder": "Anna", "points": "90"},
            "Enter a number between 0 and 70.",
            id="points-range",
        ),
        pytest.param(
            {"contract": "einfach", "bidder": "Anna", "points": "vierzig"},
            "Enter a whole number.",
            id="points-text",
        ),
        pytest.param(
            {"contract": "einfach", "bidder": "Anna"},
            "Enter the points of the Bieterin",
            id="points-missing",
        ),
        pytest.param(
            {"contract": "misere", "misere_0": "10", "misere_1": "20", "misere_2": "21"},
            "Enter a whole number.",
            id="misere-missing",
        ),
        pytest.param(
            {
                "contract": "misere",
                "misere_0": "1",
                "misere_1": "2",
                "misere_2": "3",
                "misere_3": "4",
            },
            "must add up to between 45 and 71",
            id="misere-sum",
        ),
    ],
)
def test_hand_errors_are_shown_and_nothing_is_stored(
    client: FlaskClient, evening: int, snapshot: Snapshot, data: dict[str, str], message: str
) -> None:
    before = snapshot()
    response = client.post(f"/evenings/{evening}/hands", data={**data, "token": "x"}, headers=EN)
    assert response.status_code == 422
    assert any(message in e for e in errors(response.text)), errors(response.text)
    assert not any("Choose one of:" in e for e in errors(response.text))
    assert snapshot() == before


def test_a_tampered_choice_still_names_the_keys(client: FlaskClient, evening: int) -> None:
    """Only nothing tapped is said as "tap a button"; a value no button sends is named."""
    data = {"contract": "solo", "bidder": "Anna", "points": "40", "token": "t"}
    response = client.post(f"/evenings/{evening}/hands", data=data, headers=EN)
    assert response.status_code == 422
    assert any("Choose one of: einfach" in e for e in errors(response.text))


def test_misere_errors_name_whose_points_are_wrong(client: FlaskClient, evening: int) -> None:
    data = {"contract": "misere", "misere_0": "zehn", "misere_1": "20", "token": "w"}
    response = client.post(f"/evenings/{evening}/hands", data=data, headers=EN)
    assert response.status_code == 422
    shown = errors(response.text)
    assert any(e.startswith("Anna: ") for e in shown), shown
    for name in ("Clara", "Dora"):
        assert any(e.startswith(f"{name}: ") for e in shown), (name, shown)
    assert not any(e.startswith("Bert: ") for e in shown), shown
    german = errors(client.post(f"/evenings/{evening}/hands", data=data, headers=DE).text)
    assert "Anna: Ganze Zahl eingeben." in german


def test_implausible_misere_asks_to_confirm(client: FlaskClient, evening: int) -> None:
    data = {
        "contract": "misere",
        "misere_0": "10",
        "misere_1": "20",
        "misere_2": "21",
        "misere_3": "11",
        "talon_points": "4",
        "token": "m",
    }
    response = client.post(f"/evenings/{evening}/hands", data=data, headers=EN)
    assert response.status_code == 422
    # The total the checksum shows (70) is named, so "Sum: 62 / 70" and 66 agree.
    assert "the talon holds 4 of the 70 points, so they should add up to 66" in response.text
    assert 'name="confirm"' in response.text
    confirmed = client.post(f"/evenings/{evening}/hands", data={**data, "confirm": "y"})
    assert confirmed.status_code == 303
    assert client.get(f"/api/v1/evenings/{evening}").json["pot"] == 8


def test_five_players_choose_a_partner_or_none(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    evening = create_evening(PLAYERS5)
    page = client.get(f"/evenings/{evening}", headers=EN).text
    assert "Partner (held the called king)" in page
    data = {
        "contract": "einfach",
        "bidder": "Anna",
        "partner": "",
        "points": "40",
        "result": "points",
        "kulanz": "0",
        "token": "p",
    }
    assert client.post(f"/evenings/{evening}/hands", data=data).status_code == 303
    hand = client.get(f"/api/v1/evenings/{evening}").json["hands"][0]
    assert hand["input"]["partner"] is None
    assert hand["deltas"]["Anna"] == 4


def test_quick_won_button_records_won(client: FlaskClient, evening: int) -> None:
    data = {"contract": "einfach", "bidder": "Bert", "points": "", "result": "won", "token": "w"}
    assert client.post(f"/evenings/{evening}/hands", data=data).status_code == 303
    assert client.get(f"/api/v1/evenings/{evening}").json["hands"][0]["input"]["won"] is True


def test_preview_shows_what_the_hand_pays(client: FlaskClient, evening: int) -> None:
    response = client.post(f"/evenings/{evening}/hands/preview", data=BID, headers=EN)
    assert response.status_code == 200
    assert "This hand pays" in response.text
    assert "+12" in response.text
    incomplete = client.post(
        f"/evenings/{evening}/hands/preview", data={"contract": "einfach"}, headers=EN
    )
    assert "Choose a player." in incomplete.text
    assert client.get(f"/api/v1/evenings/{evening}").json["hands"] == []


def test_the_live_result_names_the_chosen_contract(client: FlaskClient, evening: int) -> None:
    """docs/presentation.md: the Save bar keeps the contract just tapped in view."""
    complete = client.post(f"/evenings/{evening}/hands/preview", data=BID, headers=EN)
    assert '<strong class="preview-contract">Doppelt</strong> ' in complete.text
    incomplete = client.post(
        f"/evenings/{evening}/hands/preview", data={"contract": "einfach"}, headers=EN
    )
    assert '<strong class="preview-contract">Einfach</strong>' in incomplete.text
    nothing = client.post(f"/evenings/{evening}/hands/preview", data={}, headers=EN)
    assert "preview-contract" not in nothing.text
    # Eisten-Stalden chooses a team, not a contract: its live result names none.
    body = {"game": "troggu", "variant": "eisten-stalden", "players": list("ABCDEF")}
    striche = client.post("/api/v1/evenings", json=body).json["id"]
    answer = client.post(f"/evenings/{striche}/hands/preview", data={"team": "A"}, headers=EN)
    assert answer.status_code == 200
    assert "preview-contract" not in answer.text


def test_undo_voids_and_gives_the_deal_back(client: FlaskClient, evening: int) -> None:
    client.post(f"/evenings/{evening}/hands", data={**BID, "token": "u"})
    undo = {"version": "1"}  # the receipt's: the save it offers Undo for
    response = client.post(f"/evenings/{evening}/hands/1/undo", data=undo, headers=EN)
    assert response.status_code == 303
    data = client.get(f"/api/v1/evenings/{evening}").json
    assert data["hands"][0]["void"] == {"reason": "undo"}
    assert data["next_dealer"] == "Dora"
    again = client.post(f"/evenings/{evening}/hands/1/undo", data=undo, headers=EN)
    assert "already taken back" in client.get(again.headers["Location"], headers=EN).text


def test_history_shows_voided_hands_struck_through(client: FlaskClient, evening: int) -> None:
    client.post(f"/evenings/{evening}/hands", data={**BID, "token": "h"})
    client.post(f"/evenings/{evening}/hands/1/void", data={"reason": "falsch gezählt"})
    page = client.get(f"/evenings/{evening}/hands", headers=EN).text
    assert "falsch gezählt" in page
    assert 'class="hand void"' in page
    assert "Doppelt" in page


def test_edit_a_hand_with_its_history(client: FlaskClient, evening: int) -> None:
    client.post(f"/evenings/{evening}/hands", data={**BID, "token": "e"})
    page = client.get(f"/evenings/{evening}/hands/1/edit", headers=EN).text
    assert 'value="41"' in page
    assert "Version 1" in page
    response = client.post(
        f"/evenings/{evening}/hands/1/edit", data={**BID, "points": "30", "version": "1"}
    )
    assert response.status_code == 303
    data = client.get(f"/api/v1/evenings/{evening}").json
    assert data["hands"][0]["version"] == 2
    assert data["pot"] == 12
    assert data["hands"][0]["dealer"] == "Dora"


def test_stale_edit_says_someone_else_changed_it(client: FlaskClient, evening: int) -> None:
    client.post(f"/evenings/{evening}/hands", data={**BID, "token": "s"})
    client.post(f"/evenings/{evening}/hands/1/edit", data={**BID, "points": "30", "version": "1"})
    response = client.post(
        f"/evenings/{evening}/hands/1/edit",
        data={**BID, "points": "20", "version": "1"},
        headers=EN,
    )
    assert response.status_code == 409
    assert "Someone else changed this hand meanwhile" in response.text
    assert client.get(f"/api/v1/evenings/{evening}").json["hands"][0]["input"]["points"] == 30


def test_invalid_edit_is_shown_and_nothing_changes(
    client: FlaskClient, evening: int, snapshot: Snapshot
) -> None:
    client.post(f"/evenings/{evening}/hands", data={**BID, "token": "i"})
    before = snapshot()
    response = client.post(
        f"/evenings/{evening}/hands/1/edit",
        data={**BID, "points": "99", "version": "1"},
        headers=EN,
    )
    assert response.status_code == 422
    assert "Enter a number between 0 and 70." in errors(response.text)
    assert snapshot() == before


def test_void_needs_a_reason(client: FlaskClient, evening: int, snapshot: Snapshot) -> None:
    client.post(f"/evenings/{evening}/hands", data={**BID, "token": "v"})
    before = snapshot()
    response = client.post(f"/evenings/{evening}/hands/1/void", data={"reason": " "}, headers=EN)
    assert response.status_code == 303
    assert (
        "Say why the hand is voided." in client.get(response.headers["Location"], headers=EN).text
    )
    assert snapshot() == before


def test_change_the_table(client: FlaskClient, evening: int) -> None:
    page = client.get(f"/evenings/{evening}/seating", headers=EN).text
    assert 'value="Anna"' in page
    data = {
        "seat_0": "Anna",
        "seat_1": "Bert",
        "seat_2": "Clara",
        "seat_3": "Dora",
        "seat_4": "Emil",
        "dealer_seat": "4",
    }
    assert client.post(f"/evenings/{evening}/seating", data=data).status_code == 303
    state = client.get(f"/api/v1/evenings/{evening}").json
    assert state["players"] == PLAYERS5
    assert state["next_dealer"] == "Emil"


def test_seating_errors_are_shown(client: FlaskClient, evening: int, snapshot: Snapshot) -> None:
    before = snapshot()
    response = client.post(
        f"/evenings/{evening}/seating", data={"seat_0": "Anna", "seat_1": "Bert"}, headers=EN
    )
    assert response.status_code == 422
    assert any("not 2" in e for e in errors(response.text))
    assert snapshot() == before


def test_language_switch_is_remembered(client: FlaskClient) -> None:
    client.post("/language/de")
    page = client.get("/", headers=EN)
    assert '<html lang="de">' in page.text
    assert "Neuen Abend beginnen" in page.text or "Abend" in page.text


def test_unknown_page_is_a_friendly_404(client: FlaskClient) -> None:
    response = client.get("/evenings/77", headers={"Accept-Language": "de-CH"})
    assert response.status_code == 404
    assert "<html" in response.text
    assert "Es gibt keinen Abend 77." in response.text
    assert "Zurück zu den Abenden" in response.text
    unknown = client.get("/no/such/page", headers={"Accept-Language": "de-CH"})
    assert "Diese Seite gibt es nicht. Prüfen Sie die Adresse" in unknown.text
    english = client.get("/no/such/page", headers=EN)
    assert english.status_code == 404
    assert "There is no such page. Check the address" in english.text
    assert "requested URL" not in english.text  # the server's own English is not shown


def test_errors_without_words_of_their_own_get_plain_ones(client: FlaskClient) -> None:
    wrong_method = client.delete("/", headers=EN)
    assert wrong_method.status_code == 405
    assert "use the buttons on the page" in wrong_method.text
    assert wrong_method.headers["Allow"] == "GET, HEAD, OPTIONS"  # RFC 9110 requires it
    # The API speaks to a program, which has no buttons and no pages.
    api = client.get("/api/v1/no-such-thing", headers=EN)
    assert api.status_code == 404
    no_address = "There is no such address in the API. Check the address."
    assert api.json == {"errors": {"request": [no_address]}}
    api_method = client.put("/api/v1/evenings", headers=EN)
    assert api_method.status_code == 405
    assert api_method.headers["Allow"] == "GET, HEAD, OPTIONS, POST"
    takes = "This address does not take PUT; it takes GET, HEAD, OPTIONS, POST."
    assert api_method.json == {"errors": {"request": [takes]}}
    # A refusal that says what is missing keeps its own words.
    evening = client.get("/api/v1/evenings/999", headers=EN)
    assert evening.json == {"errors": {"request": ["There is no evening 999."]}}


def test_home_lists_open_evenings_first_and_closed_ones_below(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    closed = create_evening(title="Letzte Woche")
    create_evening(title="Heute")
    client.post(f"/api/v1/evenings/{closed}/close")
    page = client.get("/", headers=EN).text
    assert page.index("Continue where you left off") < page.index("Heute")
    assert page.index("Heute") < page.index("Closed evenings") < page.index("Letzte Woche")


def test_correct_the_settings(client: FlaskClient, evening: int) -> None:
    page = client.get(f"/evenings/{evening}/settings", headers=EN).text
    assert 'value="Museumsabend"' in page
    data = {
        **{k: v for k, v in NEW.items() if k.startswith("opt_")},
        "title": "Neuer Titel",
        "opt_unit_value": "0.20",
        "version": "1",
    }
    response = client.post(f"/evenings/{evening}/settings", data=data)
    assert response.status_code == 303
    state = client.get(f"/api/v1/evenings/{evening}").json
    assert state["title"] == "Neuer Titel"
    assert state["options"]["unit_value"] == "0.20"
    assert state["version"] == 2
    stale = client.post(f"/evenings/{evening}/settings", data={**data, "title": "X"}, headers=EN)
    assert stale.status_code == 422
    assert "Someone else changed the settings meanwhile" in stale.text
    bad = client.post(
        f"/evenings/{evening}/settings",
        data={**data, "version": "2", "opt_coin": "0.003"},
        headers=EN,
    )
    assert bad.status_code == 422
    assert any("whole cents" in e for e in errors(bad.text))
    assert client.get(f"/api/v1/evenings/{evening}").json["options"]["coin"] == "0.05"
    # A version no form sends ("²" reads as a digit but is none) is refused in words.
    forged = client.post(f"/evenings/{evening}/settings", data={**data, "version": "²"}, headers=EN)
    assert forged.status_code == 422


def test_a_closed_evening_shows_its_end_as_settled(client: FlaskClient, evening: int) -> None:
    """docs/presentation.md "A finished tournament table": a closed evening's table screen
    shows the pot and balances after its end rule (the pot of 6 split), as the settlement
    and a tournament's standings count them, not the running balances before it."""
    hand = {"contract": "einfach", "bidder": "Anna", "points": 20}
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=hand).status_code == 201
    running = client.get(f"/evenings/{evening}", headers=EN).text
    assert '<span class="name">Anna</span> <span class="amount minus">\u22123</span>' in running
    final = client.get(f"/api/v1/evenings/{evening}/settlement").json["final"]
    assert client.post(f"/evenings/{evening}/close").status_code == 303
    page = client.get(f"/evenings/{evening}", headers=EN).text
    assert "The evening is closed: the pot and balances after its end rule" in page
    assert "<span>Pot</span> <strong>0</strong>" in page
    shown = dict(
        re.findall(r'<span class="name">(\w+)</span> <span class="amount[^"]*">([^<]+)<', page)
    )
    assert {p: int(v.replace("\u2212", "-").lstrip("+")) for p, v in shown.items()} == final
