"""Schemathesis against the OpenAPI document the app serves at ``/api/v1/openapi.json``.

Every documented operation gets cases generated from its schema, valid ones and ones that
break it (negative mode), sent through the Flask test client (WSGI, no server) against the
fuzzing world, with ids that exist most of the time, as the organiser, the table device or
an anonymous caller, sometimes with the installation PIN set. Checked for every answer:
not a server error, a status and content type the document lists, a body that fits the
documented schema. Documented schemas that are precise (a new evening, a tournament's
set-up, an entrant, a swap) must also refuse what breaks them; hand bodies are described
loosely on purpose (each game validates its own, see ``scorekeeper/web/openapi.py``), so there
the hypothesis fuzzer of ``test_api_fuzz`` covers the validators. As everywhere in the
fuzz tests, a refusal must change no row (``login_attempt`` aside: wrong passwords and
codes are counted on purpose).

``FUZZ_SCHEMA_EXAMPLES`` (environment) raises the number of cases per operation.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from scorekeeper.web.openapi import spec
from tests.conftest import sqlite_only
from tests.fuzz.strategies import path_values, weighted
from tests.fuzz.world import World, url_rules, without_counted

#: The fuzzers' world is a SQLite file of its own, put back after every change (world.py).
pytestmark = sqlite_only

OPERATIONS = sorted(
    (path, method.upper())
    for path, operations in spec()["paths"].items()
    for method in operations
    if method != "parameters"
)
EXAMPLES = int(os.environ.get("FUZZ_SCHEMA_EXAMPLES", "5"))
#: Operations whose request schema is precise enough that breaking it must be refused.
PRECISE = {
    ("/api/v1/evenings", "POST"),
    ("/api/v1/tournaments", "POST"),
    ("/api/v1/tournaments/{tournament_id}", "PATCH"),
    ("/api/v1/tournaments/{tournament_id}/entrants", "POST"),
    ("/api/v1/tournaments/{tournament_id}/entrants/{number}", "PATCH"),
    ("/api/v1/tournaments/{tournament_id}/rounds/{number}/swap", "POST"),
}
SCHEMA_SETTINGS = settings(
    max_examples=EXAMPLES,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.large_base_example,
    ],
)


@pytest.fixture(scope="module")
def api_schema(world: World) -> schemathesis.BaseSchema:
    """The document as the app serves it."""
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", world.app)


def as_rule(path: str) -> str:
    """``/evenings/{evening_id}`` written as a Flask rule, ``/evenings/<evening_id>``."""
    return re.sub(r"\{(\w+)\}", r"<\1>", path)


@st.composite
def path_parameters(draw: st.DrawFn, world: World, path: str) -> dict[str, Any]:
    """The world's ids (or missing ones) for the path, typed as the document says; where
    the fuzzer's value is no number, schemathesis generates one itself."""
    values = draw(path_values(world, as_rule(path)))
    typed: dict[str, Any] = {}
    for name, value in values.items():
        if name == "code":
            typed[name] = value.strip() or "X"
        elif value.isdigit() and int(value) < 2**63:
            typed[name] = int(value)
    return typed


@pytest.mark.parametrize(("path", "method"), OPERATIONS, ids=[f"{m} {p}" for p, m in OPERATIONS])
def test_documented_operation_answers_as_documented(
    world: World, api_schema: schemathesis.BaseSchema, path: str, method: str
) -> None:
    operation = api_schema[path][method]
    checks = [
        not_a_server_error,
        status_code_conformance,
        content_type_conformance,
        response_schema_conformance,
    ]

    @SCHEMA_SETTINGS
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        mode = data.draw(st.sampled_from([GenerationMode.POSITIVE, GenerationMode.NEGATIVE]))
        parameters = data.draw(path_parameters(world, path), label="path parameters")
        case = data.draw(operation.as_strategy(generation_mode=mode, path_parameters=parameters))
        caller = data.draw(
            weighted((50, st.just("organiser")), (20, st.just("table")), (30, st.just("anonymous")))
        )
        pin = data.draw(st.integers(0, 9), label="pin") == 0
        note(f"{mode.value} case as {caller}{' with a PIN' if pin else ''}")
        before = world.snapshot()
        with world.pin(pin):
            response = case.call(session=world.client(), headers=world.callers[caller])
        after = world.snapshot()
        try:
            note(f"answer {response.status_code}: {response.content[:300]!r}")
            extra = [negative_data_rejection] if (path, method) in PRECISE else []
            case.validate_response(response, checks=checks + extra)
            if response.status_code >= 400:
                assert without_counted(after) == without_counted(before), "a refusal changed data"
        finally:
            world.reset_if_changed(after)

    fuzz()


def test_every_api_route_is_documented(world: World) -> None:
    """The document and the app's routes name the same operations (the document itself
    aside), so that schemathesis reaches every endpoint."""
    routes = {
        (re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule), method)
        for rule, _, method in url_rules(api=True)
        if rule != "/api/v1/openapi.json"
    }
    assert routes == set(OPERATIONS)
    served = world.client().get("/api/v1/openapi.json")
    assert served.json == spec()
