"""The JSON API described as OpenAPI 3.1, served at ``/api/v1/openapi.json``.

Bodies of hands differ per game (docs/api.md "Hands"); they are described loosely here and
validated by each variant, which answers 422 with a message per field.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.core.rules import VARIANTS
from scorekeeper.core.validation import NAME_LENGTH, VOID_LENGTH
from scorekeeper.web import openapi_parts
from scorekeeper.web.openapi_parts import NOT_BLANK, STORED, TEXT, json_answer
from scorekeeper.web.openapi_tournaments import paths as tournament_paths


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


_json = json_answer


ERRORS = {
    "400": _json(_ref("Errors"), "The body is not valid JSON."),
    "401": _json(_ref("Errors"), "Enter the installation's PIN first (when it has one)."),
    "403": _json(_ref("Errors"), "A tournament table: only its device and its organiser."),
    "409": _json(
        _ref("Errors"),
        "The evening is closed, the version is stale, or the hand's number is taken.",
    ),
    "404": _json(_ref("Errors"), "No such evening or hand."),
    "422": _json(
        _ref("Errors"),
        "Impossible input (errors), input to confirm (warnings), or an Idempotency-Key "
        "already used for another request.",
    ),
}


def across_fields(rules: str) -> dict[str, Any]:
    """The ``422`` of rules across fields, in the evenings' error shape."""
    return openapi_parts.across_fields(rules, _ref("Errors"))


#: A player's name: at most 40 characters, not blank, no NUL (docs/limits.md).
NAME = {**NOT_BLANK, "maxLength": NAME_LENGTH}
#: The players of a table, in playing order: the smallest table of any game to the
#: largest; the game's own range is a rule across fields.
PLAYERS = {
    "type": "array",
    "minItems": min(v.min_players for v in VARIANTS.values()),
    "maxItems": max(v.max_players for v in VARIANTS.values()),
    "items": NAME,
}
#: A player named or left out (null: the rotation's, or the one stored).
OPTIONAL_NAME = {"anyOf": [{"type": "string"}, {"type": "null"}]}

#: The end rule to settle with; left out or empty: the evening's own.
END_POT = {
    "name": "end_pot",
    "in": "query",
    "required": False,
    "schema": {"enum": ["split", "refund", "carry", ""]},
    "description": "The end-of-evening rule to settle with; left out or empty: the evening's.",
}
EVENING_ID = {"name": "evening_id", "in": "path", "required": True, "schema": STORED}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": STORED}
IDEMPOTENCY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "maxLength": 200},
    "description": (
        "A repeat of the same request with a key already used answers as the first request "
        "did; the key with another request is refused with 422 (docs/recording.md)."
    ),
}


#: What a hand's body must fit beyond its schema.
HAND_RULES = (
    "a hand's facts are the game's own (docs/api.md): its contract and announcements, "
    "players who are at the table, points in range, a Misère's points adding up (or "
    "confirmed), and a version that is a whole number."
)
#: What the end rule asked for must fit.
END_POT_RULE = "`end_pot` only for a game that keeps a pot to the end (Troggen)."


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def spec() -> dict[str, Any]:
    """The OpenAPI document."""
    games = sorted({game for game, _ in VARIANTS})
    variants = sorted({key for _, key in VARIANTS})
    body = {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Scorekeeper API", "version": "1"},
        "paths": {
            "/api/v1/evenings": {
                "get": {
                    "summary": "List evenings, newest first",
                    "responses": {
                        "200": _json({"type": "object"}, "The evenings."),
                        "401": ERRORS["401"],
                    },
                },
                "post": {
                    "summary": "Create an evening",
                    "parameters": [IDEMPOTENCY],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("NewEvening")}},
                    },
                    "responses": {
                        "201": _json(_ref("Evening"), "The evening."),
                        **ERRORS,
                        "422": across_fields(
                            "the number of players is the game's own (Troggen 4 to 6, Doppen "
                            "3 or 4, Troggu by region), names are told apart without regard "
                            "to case, a name's case-folded form is at most 80 characters, the "
                            "first dealer is one of the players, the variant belongs to the "
                            "game, and the options and their values are the game's own."
                        ),
                    },
                },
            },
            "/api/v1/evenings/{evening_id}": {
                "parameters": [EVENING_ID],
                "get": {
                    "summary": "An evening with its ledger",
                    "responses": {"200": _json(_ref("Evening"), "The evening."), **ERRORS},
                },
                "patch": {
                    "summary": "Correct settings (title, place, date, first_dealer, options)",
                    "requestBody": _body(_ref("EveningSettings")),
                    "responses": {
                        "200": _json(_ref("Evening"), "The evening."),
                        "409": _json(_ref("Evening"), "Stale version."),
                        **ERRORS,
                        "422": across_fields(
                            "the first dealer must be at the table; the options and their "
                            "values are the game's own."
                        ),
                    },
                },
            },
            "/api/v1/evenings/{evening_id}/revisions": {
                "parameters": [EVENING_ID],
                "get": {
                    "summary": "Settings at every version",
                    "responses": {"200": _json({"type": "object"}, "Revisions."), **ERRORS},
                },
            },
            "/api/v1/evenings/{evening_id}/seating": {
                "parameters": [EVENING_ID],
                "post": {
                    "summary": "Change the table from the next hand on",
                    "parameters": [IDEMPOTENCY],
                    "requestBody": _body(_ref("Seating")),
                    "responses": {
                        "200": _json(_ref("Evening"), "The evening."),
                        **ERRORS,
                        "422": across_fields(
                            "the number of players is the game's own, names are told apart "
                            "without regard to case, and the dealer is one of them."
                        ),
                    },
                },
            },
            "/api/v1/evenings/{evening_id}/hands": {
                "parameters": [EVENING_ID],
                "post": {
                    "summary": "Record the next hand",
                    "parameters": [IDEMPOTENCY],
                    "requestBody": body,
                    "responses": {
                        "201": _json({"type": "object"}, "The hand."),
                        **ERRORS,
                        "422": across_fields(HAND_RULES),
                    },
                },
            },
            "/api/v1/evenings/{evening_id}/hands/{number}": {
                "parameters": [EVENING_ID, NUMBER],
                "get": {
                    "summary": "One hand",
                    "responses": {"200": _json(_ref("Hand"), "The hand."), **ERRORS},
                },
                "put": {
                    "summary": "Replace a hand's facts (with version)",
                    "requestBody": _body(
                        {
                            "type": "object",
                            "required": ["version"],
                            "properties": {"version": {"type": "integer"}},
                        }
                    ),
                    "responses": {
                        "200": _json(_ref("Hand"), "The hand."),
                        "409": _json(_ref("Hand"), "Stale version."),
                        **ERRORS,
                        "422": across_fields(HAND_RULES),
                    },
                },
                "delete": {
                    "summary": "Void a hand with a reason",
                    "requestBody": _body(
                        {
                            "type": "object",
                            "required": ["reason"],
                            "properties": {"reason": {**NOT_BLANK, "maxLength": VOID_LENGTH}},
                        }
                    ),
                    "responses": {
                        "200": _json(_ref("Hand"), "The voided hand."),
                        "409": _json(_ref("Errors"), "Voided already."),
                        **ERRORS,
                    },
                },
            },
            "/api/v1/evenings/{evening_id}/hands/{number}/revisions": {
                "parameters": [EVENING_ID, NUMBER],
                "get": {
                    "summary": "Every version of a hand, oldest first",
                    "responses": {"200": _json({"type": "object"}, "Revisions."), **ERRORS},
                },
            },
            "/api/v1/evenings/{evening_id}/sheet.pdf": {
                "parameters": [EVENING_ID],
                "get": {
                    "summary": "The score sheet as PDF",
                    "responses": {
                        "200": {"description": "PDF", "content": {"application/pdf": {}}},
                        **ERRORS,
                    },
                },
            },
            "/api/v1/evenings/{evening_id}/settlement.pdf": {
                "parameters": [
                    EVENING_ID,
                    END_POT,
                ],
                "get": {
                    "summary": "The settlement to sign, as PDF",
                    "responses": {
                        "200": {"description": "PDF", "content": {"application/pdf": {}}},
                        **ERRORS,
                        "422": across_fields(END_POT_RULE),
                    },
                },
            },
            "/api/v1/evenings/{evening_id}/export": {
                "parameters": [EVENING_ID],
                "get": {
                    "summary": "The whole evening as a JSON archive",
                    "responses": {"200": _json({"type": "object"}, "Archive."), **ERRORS},
                },
            },
            "/api/v1/evenings/import": {
                "post": {
                    "summary": "Store an archive as a new evening",
                    "requestBody": body,
                    "responses": {
                        "201": _json(_ref("Evening"), "The evening."),
                        **ERRORS,
                        "422": across_fields(
                            "an archive as `export` writes it, every hand fitting its game's "
                            "rules when replayed (docs/archives.md)."
                        ),
                    },
                },
            },
            "/api/v1/evenings/{evening_id}/close": {
                "parameters": [EVENING_ID],
                "post": {
                    "summary": "Close the evening: read-only until reopened",
                    "responses": {"200": _json(_ref("Evening"), "The evening."), **ERRORS},
                },
            },
            "/api/v1/evenings/{evening_id}/reopen": {
                "parameters": [EVENING_ID],
                "post": {
                    "summary": "Reopen a closed evening",
                    "responses": {"200": _json(_ref("Evening"), "The evening."), **ERRORS},
                },
            },
            **tournament_paths(games, variants),
            "/api/v1/evenings/{evening_id}/settlement": {
                "parameters": [
                    EVENING_ID,
                    END_POT,
                ],
                "get": {
                    "summary": "Nets, transfers and the pairwise table",
                    "responses": {
                        "200": _json({"type": "object"}, "Settlement."),
                        **ERRORS,
                        "422": across_fields(END_POT_RULE),
                    },
                },
            },
        },
        "components": {
            "schemas": {
                "Errors": {
                    "type": "object",
                    "properties": {
                        "errors": {
                            "type": "object",
                            "additionalProperties": {"type": "array", "items": {"type": "string"}},
                        },
                        "warnings": {"type": "object"},
                    },
                },
                "NewEvening": {
                    "type": "object",
                    "required": ["game", "players"],
                    "additionalProperties": False,
                    "properties": {
                        "game": {"enum": games},
                        "variant": {"enum": variants},
                        "players": PLAYERS,
                        "first_dealer": OPTIONAL_NAME,
                        "title": TEXT,
                        "place": TEXT,
                        "date": {"type": "string", "format": "date"},
                        "options": {"type": "object", "additionalProperties": {"type": "string"}},
                    },
                },
                "EveningSettings": {
                    "type": "object",
                    "required": ["version"],
                    "additionalProperties": False,
                    "properties": {
                        "version": {"type": "integer"},
                        "title": TEXT,
                        "place": TEXT,
                        "date": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
                        "first_dealer": OPTIONAL_NAME,
                        "options": {"type": "object", "additionalProperties": {"type": "string"}},
                    },
                },
                "Seating": {
                    "type": "object",
                    "required": ["players"],
                    "additionalProperties": False,
                    "properties": {"players": PLAYERS, "dealer": OPTIONAL_NAME},
                },
                "Hand": {
                    "type": "object",
                    "properties": {
                        "number": {"type": "integer"},
                        "dealer": {"type": "string"},
                        "version": {"type": "integer"},
                        "input": {"type": "object"},
                        "deltas": {"type": "object"},
                        "lines": {"type": "array"},
                    },
                },
                "Evening": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "integer"},
                        "game": {"type": "string"},
                        "players": {"type": "array", "items": {"type": "string"}},
                        "hands": {"type": "array", "items": _ref("Hand")},
                        "balances": {"type": "object"},
                    },
                },
            }
        },
    }
