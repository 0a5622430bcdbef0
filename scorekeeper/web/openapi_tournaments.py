"""The tournament endpoints of the OpenAPI document (``/api/v1/openapi.json``)."""

from __future__ import annotations

from typing import Any

from scorekeeper.core.standings import SCORINGS
from scorekeeper.core.validation import NAME_LENGTH, TEXT_LENGTH
from scorekeeper.operations.tournament_setup import (
    MAX_DEALS,
    MAX_ROUNDS,
    MAX_START_NUMBER,
    NAME_OF_TOURNAMENT_LENGTH,
    PASSWORD_LENGTH,
)
from scorekeeper.web import openapi_parts
from scorekeeper.web.openapi_parts import NO_NUL, NOT_BLANK, STORED, TEXT, json_answer

_json = json_answer


def _body(schema: dict[str, Any], *, required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


OBJECT = {"type": "object"}
ERRORS = {
    "400": _json(OBJECT, "The body is not valid JSON."),
    "401": _json(OBJECT, "Log in as the organiser first (or send its bearer token)."),
    "404": _json(OBJECT, "No such tournament, round, player or table code."),
    "409": _json(OBJECT, "Not possible in this state (round started, set-up frozen...)."),
    "422": _json(OBJECT, "Impossible input, a message per field."),
    "429": _json(OBJECT, "Too many wrong passwords or codes from this address: wait."),
}


def across_fields(rules: str) -> dict[str, Any]:
    """The ``422`` of rules across fields, in the tournaments' error shape."""
    return openapi_parts.across_fields(rules, OBJECT)


SETUP_RULES = (
    "the variant belongs to the game, the options and their values are the game's own, "
    "and the scoring rule fits the game."
)
NAME_RULES = (
    "a name's case-folded form is at most 80 characters, and the tournament has room for "
    "another player."
)

TOURNAMENT_ID = {"name": "tournament_id", "in": "path", "required": True, "schema": STORED}
ROUND = {"name": "number", "in": "path", "required": True, "schema": STORED}
START_NUMBER = {"name": "number", "in": "path", "required": True, "schema": STORED}
CODE = {
    "name": "code",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "maxLength": 20},
}


def _post(
    summary: str,
    body: dict[str, Any] | None,
    answer: str,
    status: str = "200",
    *,
    rules: str | None = None,
) -> dict[str, Any]:
    """An operation with a body; ``rules``: what a body fitting its schema must also
    fit (its ``422``, see ``across_fields``)."""
    responses = {status: _json(OBJECT, answer), **ERRORS}
    if rules is not None:
        responses["422"] = across_fields(rules)
    operation: dict[str, Any] = {"summary": summary, "responses": responses}
    if body is not None:
        operation["requestBody"] = _body(body)
    return operation


def whole_number(**limits: int) -> dict[str, Any]:
    """A whole number, as JSON or as its digits: the API shares its validators with the
    pages, whose forms send text (spaces around the digits are ignored)."""
    digits = {"type": "string", "pattern": r"^\s*-?[0-9]+\s*$"}
    return {"anyOf": [{"type": "integer", **limits}, digits]}


def paths(games: list[str], variants: list[str]) -> dict[str, Any]:
    """The tournament, round, table and standings endpoints."""
    setup = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "name": {**NOT_BLANK, "maxLength": NAME_OF_TOURNAMENT_LENGTH},
            "place": TEXT,
            "date": {"type": "string", "format": "date"},
            "game": {"enum": games},
            "variant": {"enum": variants},
            "options": {"type": "object", "additionalProperties": {"type": "string"}},
            "rounds": whole_number(minimum=1, maximum=MAX_ROUNDS),
            "deals_per_player": whole_number(minimum=1, maximum=MAX_DEALS),
            "scoring": {"enum": list(SCORINGS)},
            "language": {"enum": ["de", "en"]},
            "password": {
                "type": "string",
                "minLength": PASSWORD_LENGTH,
                "maxLength": TEXT_LENGTH,
                "pattern": NO_NUL,
            },
            "version": {"type": "integer"},
        },
    }
    entrant = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "name": {**NOT_BLANK, "maxLength": NAME_LENGTH},
            "club": TEXT,
            "number": {
                "anyOf": [
                    *whole_number(minimum=1, maximum=MAX_START_NUMBER)["anyOf"],
                    {"type": "null"},
                ],
                "description": "Left out or null: the next free start number.",
            },
            "present": {"type": "boolean"},
            "dropped": {"type": "boolean"},
        },
    }
    password = {"type": "object", "properties": {"password": {"type": "string"}}}
    base = "/api/v1/tournaments/{tournament_id}"
    rounds = f"{base}/rounds/{{number}}"
    return {
        "/api/v1/unlock": {
            "post": _post(
                "Give the installation PIN: a session cookie and a bearer token",
                {"type": "object", "properties": {"pin": {"type": "string"}}},
                "The token.",
            )
        },
        "/api/v1/tournaments": {
            "get": {
                "summary": "Every tournament",
                "responses": {"200": _json(OBJECT, "The list."), "401": ERRORS["401"]},
            },
            "post": _post(
                "Set up a tournament (its creator is its organiser)",
                {**setup, "required": ["name", "game", "rounds", "deals_per_player", "password"]},
                "The tournament and a token.",
                "201",
                rules=SETUP_RULES,
            ),
        },
        f"{base}/login": {
            "parameters": [TOURNAMENT_ID],
            "post": _post("Log in as the organiser", password, "A bearer token."),
        },
        base: {
            "parameters": [TOURNAMENT_ID],
            "get": {
                "summary": "The set-up",
                "responses": {"200": _json(OBJECT, "The tournament."), **ERRORS},
            },
            "patch": _post(
                "Change the set-up (frozen once a round has started)",
                {**setup, "required": ["version"]},
                "The tournament.",
                rules=SETUP_RULES,
            ),
        },
        f"{base}/entrants": {
            "parameters": [TOURNAMENT_ID],
            "get": {
                "summary": "Every registered player",
                "responses": {"200": _json(OBJECT, "The players."), **ERRORS},
            },
            "post": _post(
                "Register a player",
                {**entrant, "required": ["name"]},
                "The player with a start number.",
                "201",
                rules=NAME_RULES,
            ),
        },
        f"{base}/entrants/{{number}}": {
            "parameters": [TOURNAMENT_ID, START_NUMBER],
            "patch": _post(
                "Check in or out, drop out or return, correct a name",
                entrant,
                "The player.",
                rules=NAME_RULES,
            ),
        },
        f"{base}/rounds": {
            "parameters": [TOURNAMENT_ID],
            "get": {
                "summary": "Every round with its draw and tables",
                "responses": {"200": _json(OBJECT, "The rounds."), **ERRORS},
            },
            "post": _post("Draw the next round", None, "The drawn round.", "201"),
        },
        rounds: {
            "parameters": [TOURNAMENT_ID, ROUND],
            "get": {
                "summary": "A round: draw, tables, codes, progress",
                "responses": {"200": _json(OBJECT, "The round."), **ERRORS},
            },
        },
        f"{rounds}/redraw": {
            "parameters": [TOURNAMENT_ID, ROUND],
            "post": _post("Draw again before the start", None, "The round."),
        },
        f"{rounds}/swap": {
            "parameters": [TOURNAMENT_ID, ROUND],
            "post": _post(
                "Swap two players before the start",
                {
                    "type": "object",
                    "required": ["a", "b"],
                    "properties": {"a": whole_number(), "b": whole_number()},
                },
                "The round.",
            ),
        },
        f"{rounds}/start": {
            "parameters": [TOURNAMENT_ID, ROUND],
            "post": _post("Start the round: tables and codes", None, "The round."),
        },
        f"{rounds}/close": {
            "parameters": [TOURNAMENT_ID, ROUND],
            "post": _post(
                "Close the round (confirm to close unfinished tables)",
                {"type": "object", "properties": {"confirm": {"type": "boolean"}}},
                "The round.",
                rules="a round with unfinished tables closes only with `confirm`.",
            ),
        },
        f"{base}/standings": {
            "parameters": [TOURNAMENT_ID],
            "get": {
                "summary": "The standings (public)",
                "responses": {"200": _json(OBJECT, "The standings."), **ERRORS},
            },
        },
        "/api/v1/tables/{code}/open": {
            "parameters": [CODE],
            "post": _post(
                "Open a table by its code: binds the caller to it", None, "The table and a token."
            ),
        },
    }
