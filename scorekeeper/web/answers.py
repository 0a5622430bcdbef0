"""The shapes every part of the web answers in: a JSON reply, and the API's error shape
with one message (docs/api.md "Errors"). A module of its own, which imports nothing of the
web, so that the host check, the error pages and the API can all answer alike."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request


def reply(data: dict[str, Any], status: int, location: str | None = None) -> Response:
    """A JSON response with an optional ``Location``."""
    response = jsonify(data)
    response.status_code = status
    if location:
        response.headers["Location"] = location
    return response


def wants_json() -> bool:
    """API requests get JSON errors; pages get HTML."""
    return request.path.startswith("/api/")


def json_error(status: int, field: str, message: str) -> Response:
    """The API's error shape with one message."""
    return reply({"errors": {field: [message]}}, status)
