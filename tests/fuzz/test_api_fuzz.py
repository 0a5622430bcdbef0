"""Fuzzing every JSON API endpoint (issue #8 "Bad input"; docs/api.md: "No request ever produces a
500, and a refused request changes nothing").

Every route under ``/api/v1`` is read from the app's ``url_map`` and gets generated requests
with each method it allows: bodies of every shape (valid ones, valid ones with one place
changed, any JSON, raw bytes that are not JSON), path values that exist and that cannot,
and the three callers (organiser, table device, anonymous) or a forged token, sometimes
with the installation PIN set. Each answer must not be a server error, must be JSON in the
error shape of docs/api.md when it refuses, and a refusal must leave every table's rows as they
were, but for ``login_attempt``: wrong passwords, PINs and table codes are counted there on
purpose, refused or not, so that guessing slows down.

``FUZZ_EXAMPLES`` (environment) raises the number of requests per route for a deeper run.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from tests.conftest import sqlite_only
from tests.fuzz.bodies import QUERIES, VALID_BODIES
from tests.fuzz.strategies import RAW_BODIES, body_of, fill, headers, path_values, texts
from tests.fuzz.world import World, rule_values, url_rules, without_counted

#: The fuzzers' world is a SQLite file of its own, put back after every change (world.py).
pytestmark = sqlite_only

API_RULES = url_rules(api=True)
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "20"))
#: A PDF takes a moment to render, a password to check: these routes get fewer requests
#: (a PDF's only input is its path and ``end_pot``).
SLOW = {"api.sheet_pdf", "api.settlement_pdf", "tournament_api.login"}


def examples_for(endpoint: str) -> int:
    """How many requests a route gets."""
    return max(3, EXAMPLES // 5) if endpoint in SLOW else EXAMPLES


FUZZ_SETTINGS = settings(
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


def is_message_map(value: Any) -> bool:
    """``{"field": ["message", ...], ...}`` with at least one field."""
    return (
        isinstance(value, dict)
        and bool(value)
        and all(
            isinstance(k, str)
            and isinstance(v, list)
            and v
            and all(isinstance(m, str) and m for m in v)
            for k, v in value.items()
        )
    )


def check_api_answer(response: TestResponse, endpoint: str) -> None:
    """No server error; JSON (or the PDF asked for); refusals in docs/api.md's error shape."""
    status = response.status_code
    assert status < 500, response.get_data()[:500]
    assert not 300 <= status < 400, f"the API redirected to {response.location}"
    if status < 400:
        expected = "application/pdf" if endpoint.endswith("_pdf") else "application/json"
        assert response.mimetype == expected
        return
    assert response.mimetype == "application/json", response.get_data()[:300]
    data = response.get_json()
    if isinstance(data, dict) and "errors" in data:
        assert is_message_map(data["errors"]), data
    elif status == 422:
        assert isinstance(data, dict), data
        assert is_message_map(data.get("warnings")), data
    else:
        # A stale version answers 409 with the record as it is now (docs/api.md "Hands").
        assert status == 409, data
        assert isinstance(data, dict), data
        assert "version" in data, data


def query_bytes(query: dict[str, str]) -> str:
    """The query string as a client would send it; lone surrogates go as the bytes Python
    would write for them (not UTF-8, which the app must refuse or ignore)."""
    return urlencode(
        {
            k.encode("utf-8", "surrogatepass"): v.encode("utf-8", "surrogatepass")
            for k, v in query.items()
        }
    )


def send(world: World, data: st.DataObject, rule: str, endpoint: str, method: str) -> None:
    """Draw one request to ``rule``, send it, check the answer and the database."""
    values = data.draw(path_values(world, rule), label="path values")
    path = fill(rule, values)
    caller, sent = data.draw(headers(world), label="caller and headers")
    pin = data.draw(st.integers(0, 9), label="pin") == 0
    query: dict[str, str] = {}
    if method == "GET" and data.draw(st.booleans()):
        query["end_pot"] = data.draw(st.one_of(st.sampled_from(QUERIES["end_pot"]), texts))
    if data.draw(st.integers(0, 5)) == 0:
        query[data.draw(st.text(max_size=6))] = data.draw(texts)
    valid = VALID_BODIES[endpoint](world, values)
    body = data.draw(body_of(valid), label="body") if method != "GET" else None
    content_type = data.draw(
        st.sampled_from(
            [
                "application/json",
                "application/json",
                "application/json; charset=latin-1",
                "text/plain",
                "application/x-www-form-urlencoded",
                "multipart/form-data",
                None,
            ]
        )
    )
    note(f"{method} {path} as {caller}{' with a PIN' if pin else ''}, query {query!r}")
    note(f"headers {sent!r}, content type {content_type!r}")
    note(f"body {body[:300] if body else body!r}")

    before = world.snapshot()
    with world.pin(pin):
        response = world.client().open(
            path,
            method=method,
            data=body,
            headers=sent,
            content_type=content_type,
            query_string=query_bytes(query),
        )
    after = world.snapshot()
    try:
        note(f"answer {response.status_code} {response.mimetype}: {response.get_data()[:300]!r}")
        check_api_answer(response, endpoint)
        if response.status_code >= 400:
            assert without_counted(after) == without_counted(before), "a refusal changed data"
    finally:
        world.reset_if_changed(after)


@pytest.mark.parametrize(
    ("rule", "endpoint", "method"), API_RULES, ids=[f"{m} {r}" for r, _, m in API_RULES]
)
def test_api_route_survives_bad_input(world: World, rule: str, endpoint: str, method: str) -> None:
    @settings(FUZZ_SETTINGS, max_examples=examples_for(endpoint))
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        send(world, data, rule, endpoint, method)

    fuzz()


#: JSON that parses but is no text, or numbers Python reads differently from other clients.
ODD_JSON = [
    b'{"title": "\\ud800", "name": "\\udfff", "players": ["\\ud83d"]}',
    b'{"points": NaN, "version": Infinity, "a": -Infinity}',
    b'{"version": 1e400, "points": -0, "number": 1.0}',
    b'{"version": 123456789012345678901234567890, "a": 99999999999999999999}',
]


@pytest.mark.parametrize(
    ("rule", "endpoint", "method"),
    [r for r in API_RULES if r[2] != "GET"],
    ids=[f"{m} {r}" for r, _, m in API_RULES if m != "GET"],
)
def test_api_route_refuses_every_odd_body(
    world: World, rule: str, endpoint: str, method: str
) -> None:
    """Every body that is not JSON, or JSON of an odd kind, sent once to a stored object."""
    path = fill(rule, {k: str(v) for k, v in rule_values(world, rule)[0].items()})
    for body in [*RAW_BODIES, *ODD_JSON]:
        before = world.baseline  # every change was put back (``reset_if_changed``)
        response = world.client().open(
            path,
            method=method,
            data=body,
            headers=world.callers["organiser"],
            content_type="application/json",
        )
        after = world.snapshot()
        try:
            check_api_answer(response, endpoint)
            if response.status_code >= 400:
                assert without_counted(after) == without_counted(before), body[:80]
        finally:
            world.reset_if_changed(after)


def test_every_api_rule_is_fuzzed(world: World) -> None:
    """The parametrisation covers every API route and method the app has now, and each
    endpoint has its valid bodies listed (so a new endpoint gets nearly good input too)."""
    live = sorted(
        (rule.rule, rule.endpoint, method)
        for rule in world.app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    )
    assert live == API_RULES
    assert {endpoint for _, endpoint, _ in API_RULES} == set(VALID_BODIES)
