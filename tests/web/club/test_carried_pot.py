"""The pot carried to the next evening of a group (docs/troggen.md §8): linked when the later
evening starts or afterwards, a fact of the later evening, kept up to date along the chain
whenever the earlier evening changes, and conserved across every evening of the chain."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db.extensions import db
from scorekeeper.db.models import EveningRevision
from tests.web.club.test_group_pages import pdf_text
from tests.web.club.test_groups import new_group

EN = {"Accept-Language": "en"}
FOUR = ["Anna", "Bert", "Clara", "Dora"]
CARRY = {"end_pot": "carry"}
#: Anna bids Einfach and loses: her stake and the others', 6 jetons, stay in the pot.
LOST = {"contract": "einfach", "bidder": "Anna", "points": 20}
#: Bert bids Einfach and wins: he takes the whole pot.
WON = {"contract": "einfach", "bidder": "Bert", "points": 50}
#: The new-evening form for the four, carrying its pot on, as a table fills it in.
NEW_EVENING = {
    "variant": "troggen/blumenstein-2015",
    **{f"seat_{i}": name for i, name in enumerate(FOUR)},
    "dealer_seat": "0",
    "opt_unit_value": "0.10",
    "opt_currency": "CHF",
    "opt_coin": "0.05",
    "opt_end_pot": "carry",
    "opt_threshold": "fixed-35",
    "opt_partner_rounding": "nearest",
    "opt_last_trick_payers": "all-others",
}


@pytest.fixture
def chain(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> tuple[int, int]:
    """A group's evening that carries a pot of 6 on, and the next evening taking it over."""
    group = new_group(client)["id"]
    first = create_evening(FOUR, group=group, options=CARRY, date="2026-11-14")
    record_hand(first, LOST)
    second = create_evening(FOUR, group=group, options=CARRY, date="2026-11-21", carried_from=first)
    return first, second


@pytest.fixture
def open_pot(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> tuple[int, int]:
    """A group, and its evening that carries a pot of 6 on, taken over by no evening yet."""
    group = new_group(client)["id"]
    first = create_evening(FOUR, group=group, options=CARRY)
    record_hand(first, LOST)
    return group, first


def evening(client: FlaskClient, evening_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/v1/evenings/{evening_id}")
    assert answer.status_code == 200
    return dict(answer.json)


def settlement(client: FlaskClient, evening_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/v1/evenings/{evening_id}/settlement")
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def net(client: FlaskClient, evening_id: int) -> dict[str, Decimal]:
    return {p: Decimal(v) for p, v in settlement(client, evening_id)["net"].items()}


def test_the_later_evening_opens_with_the_pot_and_both_statements_say_so(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    assert evening(client, first)["carried_to"] == second
    assert evening(client, second)["carried_in"] == 6
    assert evening(client, second)["carried_from"] == first
    assert evening(client, second)["pot"] == 6
    assert net(client, first)["pot"] == Decimal("0.60")
    # Tonight carries its pot on too: one pile, and nothing happened to it yet.
    assert net(client, second) == {"Anna": 0, "Bert": 0, "Clara": 0, "Dora": 0}


def test_money_is_conserved_across_the_chain(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    chain: tuple[int, int],
) -> None:
    _first, second = chain
    record_hand(second, LOST)
    record_hand(second, WON)
    for each in chain:
        assert sum(net(client, each).values()) == 0
    players = sum(v for each in chain for p, v in net(client, each).items() if p in FOUR)
    assert players + evening(client, second)["pot"] * Decimal("0.10") == 0
    won = settlement(client, second)
    # Bert took the 6 carried in and tonight's 6 stakes and his own: the pot pays him.
    assert won["net"]["pot"] == "-0.60"
    assert {"from": "pot", "to": "Bert", "amount": "0.60"} in won["pairwise"]
    page = client.get(f"/evenings/{second}/settlement", headers=EN).text
    assert "From the pot to Bert" in page
    german = client.get(f"/evenings/{second}/settlement", headers={"Accept-Language": "de"})
    assert "Aus dem Einsatz an Bert" in german.text


def test_a_correction_in_the_first_evening_flows_to_the_last(
    client: FlaskClient,
    app: Flask,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    chain: tuple[int, int],
) -> None:
    first, second = chain
    group = evening_group(client, first)
    third = create_evening(FOUR, group=group, options=CARRY, carried_from=second)
    assert evening(client, third)["carried_in"] == 6
    before = evening(client, third)["version"]
    voided = client.delete(f"/api/v1/evenings/{first}/hands/1", json={"reason": "misdealt"})
    assert voided.status_code == 200, voided.json
    assert evening(client, second)["carried_in"] == 0
    assert evening(client, third)["carried_in"] == 0
    assert evening(client, third)["version"] == before + 1
    record_hand(first, LOST)
    record_hand(first, LOST)
    assert evening(client, second)["carried_in"] == 12
    assert evening(client, third)["carried_in"] == 12
    for each in (first, second, third):
        assert sum(net(client, each).values()) == 0
    with app.app_context():
        kept = db.session.query(EveningRevision).filter_by(evening_id=third).all()
        assert [r.settings.get("carried_in") for r in kept] == [None, 6, 0, 6, 12]
    page = client.get(f"/evenings/{third}/settlement", headers=EN).text
    assert "with a correction of that evening; it was 6 jetons." in page


def evening_group(client: FlaskClient, evening_id: int) -> int:
    groups = client.get("/api/v1/groups").json["groups"]
    for group in groups:
        shown = client.get(f"/api/v1/groups/{group['id']}").json
        if evening_id in [e["id"] for e in shown["evenings"]]:
            return int(group["id"])
    raise AssertionError("the evening is in no group")


def test_changing_the_end_rule_of_the_earlier_evening_empties_the_carried_pot(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    version = evening(client, first)["version"]
    changed = client.patch(
        f"/api/v1/evenings/{first}", json={"version": version, "options": {"end_pot": "split"}}
    )
    assert changed.status_code == 200, changed.json
    assert evening(client, second)["carried_in"] == 0
    assert "carried" not in net(client, second)
    version = evening(client, first)["version"]
    client.patch(
        f"/api/v1/evenings/{first}", json={"version": version, "options": {"end_pot": "carry"}}
    )
    assert evening(client, second)["carried_in"] == 6


def test_a_closed_later_evening_refuses_the_change_and_nothing_is_stored(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    assert client.post(f"/api/v1/evenings/{second}/close").status_code == 200
    voided = client.delete(
        f"/api/v1/evenings/{first}/hands/1", json={"reason": "misdealt"}, headers=EN
    )
    assert voided.status_code == 422
    assert "closed" in voided.json["errors"]["carried_from"][0]
    assert evening(client, first)["hands"][0].get("void") is None
    assert evening(client, second)["carried_in"] == 6
    # A change that leaves the pot as it is goes through.
    renamed = client.patch(
        f"/api/v1/evenings/{first}",
        json={"version": evening(client, first)["version"], "title": "Martini"},
    )
    assert renamed.status_code == 200


def test_the_link_is_removed_and_made_again_afterwards(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    removed = client.put(f"/api/v1/evenings/{second}/carried-pot", json={"carried_from": None})
    assert removed.json == {"evening": second, "carried_from": None, "carried_in": 0}
    assert evening(client, first)["carried_to"] is None
    assert "carried" not in net(client, second)
    made = client.put(f"/api/v1/evenings/{second}/carried-pot", json={"carried_from": first})
    assert made.json == {"evening": second, "carried_from": first, "carried_in": 6}


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        ("own", "own pot"),
        ("no-group", "same table group"),
        ("split", "does not carry"),
        ("taken", "went to the evening of 21.11.2026 (number 2) already"),
        ("unit", "played for 0.10 a jeton; choose the same unit value"),
        ("currency", "played in CHF; choose the same currency"),
        ("game", "is another game or variant"),
        ("circle", "took its pot from this one"),
        ("missing", "There is no evening"),
    ],
)
def test_a_link_that_cannot_be_is_refused_in_words(
    client: FlaskClient,
    create_evening: Callable[..., int],
    record_hand: Callable[..., Any],
    chain: tuple[int, int],
    make: str,
    problem: str,
) -> None:
    first, second = chain
    group = evening_group(client, first)
    target = create_evening(FOUR, group=group, options=CARRY)
    source = create_evening(FOUR, group=group, options=CARRY)
    record_hand(source, LOST)
    if make == "taken":
        source = first
    elif make == "own":
        source = target
    elif make == "no-group":
        target = create_evening(FOUR, options=CARRY)
    elif make == "split":
        source = create_evening(FOUR, group=group)
        record_hand(source, LOST)
    elif make == "unit":
        target = create_evening(FOUR, group=group, options={"unit_value": "0.50"})
    elif make == "currency":
        target = create_evening(FOUR, group=group, options={"currency": "EUR"})
    elif make == "game":
        target = create_evening(FOUR, group=group, game="troggu")
    elif make == "circle":
        target, source = first, second
    elif make == "missing":
        source = 999
    answer = client.put(
        f"/api/v1/evenings/{target}/carried-pot", json={"carried_from": source}, headers=EN
    )
    assert answer.status_code == 422, answer.json
    assert problem in answer.json["errors"]["carried_from"][0]


def test_a_unit_value_written_otherwise_is_the_same_value(
    client: FlaskClient, create_evening: Callable[..., int], open_pot: tuple[int, int]
) -> None:
    group, first = open_pot
    options = {**CARRY, "unit_value": "0.1"}
    second = create_evening(FOUR, group=group, options=options, carried_from=first)
    assert evening(client, second)["carried_in"] == 6


def test_a_linked_evening_keeps_its_group(client: FlaskClient, chain: tuple[int, int]) -> None:
    first, _ = chain
    other = new_group(client, "Montagsrunde")["id"]
    moved = client.put(f"/api/v1/evenings/{first}/group", json={"group": other}, headers=EN)
    assert moved.status_code == 422
    assert "remove that link first" in moved.json["errors"]["group"][0]


def test_the_group_page_names_the_links_and_keeps_linked_evenings_in(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    group = evening_group(client, first)
    page = client.get(f"/groups/{group}", headers=EN).text
    # Each names the other evening as the list does, by day, title and number, linked.
    assert re.search(
        rf'Its pot went on to <a href="/evenings/{second}/settlement">21\.11\.2026 · '
        rf"[^<]* \(#{second}\)</a>\.",
        page,
    )
    assert re.search(
        rf'Opens with the pot of <a href="/evenings/{first}/settlement">14\.11\.2026 · '
        rf"[^<]* \(#{first}\)</a>\.",
        page,
    )
    assert f"/groups/{group}/evenings/{second}/carried-pot/out" in page
    assert f"/evenings/{first}/out" not in page
    assert f"/evenings/{second}/out" not in page
    # A page from before the link was made still has the button: the refusal is said
    # at that evening, on the group's page, and the evening stays.
    taken = client.post(f"/groups/{group}/evenings/{first}/out", headers=EN)
    assert taken.status_code == 422
    assert taken.mimetype == "text/html"
    assert re.search(
        rf'<li id="evening-{first}">\s*<a [^>]*>[^<]*</a>\s*<p class="error" role="alert">'
        r"This evening&#39;s pot is carried from or to another evening of its group",
        taken.text,
        re.S,
    )
    assert evening_group(client, first) == group


def test_the_group_page_opens_an_evening_without_its_carried_pot(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    group = evening_group(client, first)
    out = f"/groups/{group}/evenings/{second}/carried-pot/out"
    answer = client.post(out, headers=EN)
    assert answer.status_code == 303
    assert (evening(client, second)["carried_in"], evening(client, first)["carried_to"]) == (
        0,
        None,
    )
    assert answer.headers["Location"].endswith(f"/groups/{group}")  # where the message is
    page = client.get(f"/groups/{group}", headers=EN).text
    assert (
        "The evening of 21.11.2026 opens without a carried pot now; the pot of the evening "
        "of 14.11.2026 is open again." in page
    )
    assert "The evening of 14.11.2026 carries its pot on: 6 jetons." in page
    assert f"/evenings/{second}/out" in page  # no longer linked: it may leave the group
    assert client.post(out, headers=EN).status_code == 303  # pressed twice: nothing more
    assert client.post(f"/groups/{group}/evenings/999/carried-pot/out").status_code == 404


def refused_at(answer: Any, evening_id: int, words: str) -> bool:
    """Whether the group page came back refused (422) with ``words`` said at that evening."""
    return answer.status_code == 422 and bool(
        re.search(
            rf'<li id="evening-{evening_id}">\s*<a [^>]*>[^<]*</a>\s*<p class="error" role="alert">'
            + re.escape(words),
            answer.text,
        )
    )


def test_an_evening_played_with_its_carried_pot_keeps_it_and_offers_no_way_out(
    client: FlaskClient, chain: tuple[int, int], record_hand: Callable[..., Any]
) -> None:
    first, second = chain
    group = evening_group(client, first)
    record_hand(second, WON)
    out = f"/groups/{group}/evenings/{second}/carried-pot/out"
    page = client.get(f"/groups/{group}", headers=EN).text
    assert out not in page
    assert "Hands were played with that pot, so it stays with this evening." in page
    refused = client.post(out, headers=EN)  # a page from before the hand
    assert refused_at(refused, second, "Hands were played with that pot")
    assert evening(client, second)["carried_in"] == 6


def test_a_closed_evening_keeps_its_carried_pot_and_the_group_page_says_why(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    group = evening_group(client, first)
    assert client.post(f"/api/v1/evenings/{second}/close").status_code == 200
    refused = client.post(f"/groups/{group}/evenings/{second}/carried-pot/out", headers=EN)
    assert refused_at(refused, second, "This evening is closed: reopen it on its settlement")
    assert evening(client, second)["carried_in"] == 6


def test_a_player_cannot_be_called_like_the_carried_pot(client: FlaskClient) -> None:
    answer = client.post(
        "/api/v1/evenings", json={"game": "troggen", "players": [*FOUR[:3], "Carried"]}
    )
    assert answer.status_code == 422


def test_the_group_page_offers_the_open_pot_and_starts_the_next_evening_with_it(
    client: FlaskClient, create_evening: Callable[..., int], record_hand: Callable[..., Any]
) -> None:
    group = new_group(client)["id"]
    first = create_evening(FOUR, group=group, options=CARRY, date="2026-11-14", title="Martini")
    record_hand(first, LOST)
    page = client.get(f"/groups/{group}", headers=EN).text
    assert "The evening of 14.11.2026 carries its pot on: 6 jetons." in page
    start = f"/evenings/new?variant=troggen/blumenstein-2015&amp;carried_from={first}"
    assert start in page
    form = client.get(start.replace("&amp;", "&"), headers=EN).text
    assert f'<option selected value="{first}">' in form or f'value="{first}" selected' in form
    assert "Martini · 6 jetons" in form
    assert 'value="Dora"' in form
    body = {**NEW_EVENING, "date": "2026-11-21", "carried_from": str(first)}
    started = client.post("/evenings", data=body, headers=EN)
    assert started.status_code == 303, started.text
    second = int(started.headers["Location"].rsplit("/", 1)[-1])
    assert evening(client, second)["carried_in"] == 6
    assert evening_group(client, second) == group
    table = client.get(f"/evenings/{second}", headers=EN).text
    assert "opened with 6 jetons carried in" in table
    later = client.get(f"/evenings/{second}/settlement", headers=EN).text
    assert "Pot carried from the evening of" in later
    assert "14.11.2026</a>: 6 jetons." in later
    earlier = client.get(f"/evenings/{first}/settlement", headers=EN).text
    assert "21.11.2026</a>: 6 jetons." in earlier
    # Said once: what is left in the pot is what went on.
    assert "Left in the pot" not in earlier
    screen = client.get(f"/evenings/{first}", headers=EN).text
    assert "a hand recorded or corrected here changes that evening too" in screen
    assert f'href="/evenings/{second}/settlement"' in screen
    # Back to the form that started it: it says where the pot went, not a blank form.
    again = client.get(start.replace("&amp;", "&"), headers=EN).text
    assert "That pot was taken over already, by the evening of 21.11.2026." in again
    assert f'href="/evenings/{second}"' in again
    offered = client.get(f"/groups/{group}", headers=EN).text
    assert "14.11.2026 carries its pot on" not in offered
    assert "21.11.2026 carries its pot on: 6 jetons." in offered
    printed = client.get(f"/evenings/{second}/settlement.pdf", headers=EN)
    assert printed.status_code == 200
    words = pdf_text(printed.data)
    assert "Pot carried from the evening of 14.11.2026: 6 jetons." in words


def test_an_evening_that_shares_the_pot_out_names_who_keeps_the_one_carried_in(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    version = evening(client, second)["version"]
    shared = {"version": version, "options": {"end_pot": "split"}}
    assert client.patch(f"/api/v1/evenings/{second}", json=shared).status_code == 200
    assert net(client, second) == {
        "Anna": Decimal("0.10"),
        "Bert": Decimal("0.20"),
        "Clara": Decimal("0.20"),
        "Dora": Decimal("0.10"),
        "carried": Decimal("-0.60"),
    }
    page = client.get(f"/evenings/{second}/settlement", headers=EN).text
    assert "From the pot of 14.11.2026 to Bert" in page
    german = client.get(f"/evenings/{second}/settlement", headers={"Accept-Language": "de"})
    assert "Aus dem Einsatz vom 14.11.2026 an Bert" in german.text
    # The printouts speak the evening's language, German by default.
    words = pdf_text(client.get(f"/evenings/{second}/settlement.pdf", headers=EN).data)
    assert "Einsatz vom 14.11.2026" in words
    sheet = pdf_text(client.get(f"/evenings/{second}/sheet.pdf", headers=EN).data)
    assert "(mit 6 übernommenen Jetons begonnen)" in sheet
    assert evening(client, first)["carried_to"] == second


def test_a_refused_pot_on_the_form_is_said_at_its_field(
    client: FlaskClient, open_pot: tuple[int, int]
) -> None:
    _group, first = open_pot
    body = {**NEW_EVENING, "opt_unit_value": "0.50", "carried_from": str(first)}
    refused = client.post("/evenings", data=body, headers=EN)
    assert refused.status_code == 422
    assert "played for 0.10 a jeton; choose the same unit value" in refused.text
    # Said at the top too, leading down to the field: the form is long on a phone.
    summary = refused.text.split('id="not-saved"', 1)[1].split("</div>", 1)[0]
    assert 'href="#carried_from"' in summary
    assert "choose the same unit value" in summary
    assert len(client.get("/api/v1/evenings").json["evenings"]) == 1


def test_correcting_on_the_page_warns_and_then_says_what_the_later_evening_got(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    edit = client.get(f"/evenings/{first}/hands/1/edit", headers=EN).text
    assert "a correction or a void here changes that evening's pot too" in edit
    assert f'href="/evenings/{second}/settlement"' in edit
    voided = client.post(f"/evenings/{first}/hands/1/void", data={"reason": "misdealt"}, headers=EN)
    assert voided.status_code == 303
    page = client.get(voided.headers["Location"], headers=EN).text
    assert "The pot carried into the evening of 21.11.2026 is now 0 jetons; it was 6." in page
    assert evening(client, second)["carried_in"] == 0


def test_voiding_on_the_page_says_which_closed_evening_stands_in_the_way(
    client: FlaskClient, chain: tuple[int, int]
) -> None:
    first, second = chain
    assert client.post(f"/api/v1/evenings/{second}/close").status_code == 200
    edit = client.get(f"/evenings/{first}/hands/1/edit", headers=EN).text
    assert "which is closed: reopen that evening first, then correct this hand." in edit
    voided = client.post(f"/evenings/{first}/hands/1/void", data={"reason": "misdealt"}, headers=EN)
    assert voided.status_code == 303
    page = client.get(voided.headers["Location"], headers=EN).text
    assert "carried into the evening of 21.11.2026, which is closed" in page
    assert evening(client, first)["hands"][0].get("void") is None
