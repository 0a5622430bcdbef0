"""The OpenAPI document is data (``scorekeeper/web/openapi.json``): every figure in it
that the code also holds agrees with the code, so changing a limit without the document
fails here (docs/development.md "Change the API")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from scorekeeper import LANGUAGES
from scorekeeper.core.rules import VARIANTS
from scorekeeper.core.standings import SCORINGS
from scorekeeper.core.validation import NAME_LENGTH, TEXT_LENGTH, VOID_LENGTH
from scorekeeper.db.idempotency import MAX_KEY_LENGTH
from scorekeeper.operations.tournament_setup import (
    MAX_DEALS,
    MAX_ROUNDS,
    MAX_START_NUMBER,
    NAME_OF_TOURNAMENT_LENGTH,
    PASSWORD_LENGTH,
)
from scorekeeper.web.addresses import LARGEST
from scorekeeper.web.openapi import spec

DOCUMENT = spec()


def properties(node: object, name: str) -> Iterator[dict[str, Any]]:
    """Every schema of a property called ``name``, anywhere in the document."""
    if isinstance(node, dict):
        found = node.get("properties", {})
        if isinstance(found, dict) and name in found:
            yield found[name]
        for value in node.values():
            yield from properties(value, name)
    elif isinstance(node, list):
        for value in node:
            yield from properties(value, name)


def bounds(schemas: list[dict[str, Any]], key: str) -> set[str]:
    """``key`` of each schema that declares it, itself or in an alternative (a number or
    null), as text; schemas that leave it out (an answer's shape) are skipped."""
    found = set()
    for schema in schemas:
        for part in (schema, *schema.get("anyOf", ())):
            if key in part:
                found.add(repr(part[key]))
    return found


@pytest.mark.parametrize(
    ("name", "key", "expected"),
    [
        ("game", "enum", sorted({game for game, _ in VARIANTS})),
        ("variant", "enum", sorted({key for _, key in VARIANTS})),
        ("title", "maxLength", TEXT_LENGTH),
        ("place", "maxLength", TEXT_LENGTH),
        ("club", "maxLength", TEXT_LENGTH),
        ("reason", "maxLength", VOID_LENGTH),
        ("rounds", "maximum", MAX_ROUNDS),
        ("deals_per_player", "maximum", MAX_DEALS),
        ("scoring", "enum", list(SCORINGS)),
        ("language", "enum", list(LANGUAGES)),
        ("password", "minLength", PASSWORD_LENGTH),
        ("password", "maxLength", TEXT_LENGTH),
    ],
)
def test_a_property_keeps_the_codes_figure(name: str, key: str, expected: object) -> None:
    assert bounds(list(properties(DOCUMENT, name)), key) == {repr(expected)}


def test_names_and_tables_keep_their_sizes() -> None:
    players = list(properties(DOCUMENT, "players"))
    arrays = [p for p in players if p.get("type") == "array" and "minItems" in p]
    assert len(arrays) >= 2  # a new evening's table and a seating change
    for table in arrays:
        assert table["minItems"] == min(v.min_players for v in VARIANTS.values())
        assert table["maxItems"] == max(v.max_players for v in VARIANTS.values())
        assert table["items"]["maxLength"] == NAME_LENGTH
    names = list(properties(DOCUMENT, "name"))
    assert bounds(names, "maxLength") == {repr(NAME_LENGTH), repr(NAME_OF_TOURNAMENT_LENGTH)}
    numbers = list(properties(DOCUMENT, "number"))
    assert bounds(numbers, "maximum") == {repr(MAX_START_NUMBER)}


def test_parameters_keep_the_codes_figures() -> None:
    parameters = DOCUMENT["components"]["parameters"]
    assert parameters["IdempotencyKey"]["schema"]["maxLength"] == MAX_KEY_LENGTH
    for name in ("EveningId", "TournamentId", "Number"):
        assert parameters[name]["schema"]["maximum"] == LARGEST
    end_rules = VARIANTS["troggen", "blumenstein-2015"].option_specs
    spec_ = next(s for s in end_rules if s.key == "end_pot")
    assert parameters["EndPot"]["schema"]["enum"] == [*(c for c, _ in spec_.choices), ""]


def test_every_route_of_the_api_is_documented_with_its_methods(app: Flask) -> None:
    served = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1") and rule.rule != "/api/v1/openapi.json":
            path = rule.rule.replace("<int:", "{").replace("<", "{").replace(">", "}")
            methods = {m.lower() for m in rule.methods or ()} - {"head", "options"}
            served.setdefault(path, set()).update(methods)
    documented = {
        path: {m for m in operations if m != "parameters"}
        for path, operations in DOCUMENT["paths"].items()
    }
    assert documented == served


def test_every_reference_resolves() -> None:
    def refs(node: object) -> Iterator[str]:
        if isinstance(node, dict):
            if "$ref" in node:
                yield node["$ref"]
            for value in node.values():
                yield from refs(value)
        elif isinstance(node, list):
            for value in node:
                yield from refs(value)

    for ref in refs(DOCUMENT):
        _, section, kind, name = ref.split("/")
        assert name in DOCUMENT[section][kind], ref
