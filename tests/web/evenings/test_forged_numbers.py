"""A number a form or an address sends is read only when written in the digits 0 to 9 and
small enough for a database's id column: "²" or another script's digits, or a number
larger than any row's, is refused in words or names nothing, never a server error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.web.forms import chosen_id, number_or_text
from tests.web.club.test_group_pages import members, new_group, played
from tests.web.evenings.test_pages import NEW

EN = {"Accept-Language": "en"}
FORGED = ["²", "٢", "99999999999999999999999", "0", "-1", "1e3", " 7"]


def test_only_the_digits_0_to_9_make_a_number() -> None:
    assert number_or_text("12") == 12
    assert number_or_text("²") == "²"
    assert number_or_text("٢") == "٢"
    assert chosen_id("2147483647") == 2147483647
    assert chosen_id("2147483648") is None
    assert chosen_id("0") is None
    assert chosen_id("٢") is None


@pytest.mark.parametrize("value", FORGED)
def test_forged_choices_on_the_group_page_are_refused_in_words(
    client: FlaskClient, create_evening: Callable[..., Any], value: str
) -> None:
    group = new_group(client)
    played(client, create_evening, group)
    played(client, create_evening, None, "2026-03-12")
    anna = members(client, group)["Anna"]
    for confirmed in ({}, {"confirmed": "1"}):
        merge = client.post(
            f"/groups/{group}/members/{anna}/merge",
            data={f"g{anna}-other": value, **confirmed},
            headers=EN,
        )
        assert merge.status_code in (303, 422), merge.text[:300]
    put_in = client.post(f"/groups/{group}/evenings", data={"evening": value}, headers=EN)
    assert put_in.status_code == 422
    assert "Choose an evening from the list." in put_in.text
    compare = client.get(f"/groups/{group}/compare?a={value}&b={anna}", headers=EN)
    assert compare.status_code < 500
    assert len(members(client, group)) == 4


@pytest.mark.parametrize("value", FORGED)
def test_forged_choices_on_the_new_evening_form_are_refused_in_words(
    client: FlaskClient, value: str
) -> None:
    new_group(client)
    for field in ("group", "carried_from"):
        answer = client.post("/evenings", data={**NEW, field: value}, headers=EN)
        assert answer.status_code in (303, 422), answer.text[:300]
    assert client.get(f"/evenings/new?carried_from={value}", headers=EN).status_code == 200
    assert client.get(f"/evenings/new?group={value}", headers=EN).status_code == 200
