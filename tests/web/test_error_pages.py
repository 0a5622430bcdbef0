"""A refusal that no page caught itself is still said on a page, in words: a guest who
pressed a button never sees the API's JSON."""

from __future__ import annotations

from flask import Flask

from scorekeeper.core.rules.base import ImplausibleHandError, InvalidSettingsError, msg
from scorekeeper.operations import StaleVersionError

EN = {"Accept-Language": "en"}


def test_uncaught_refusals_answer_a_page_with_a_page_and_the_api_with_json(
    new_app: Flask,
) -> None:
    app = new_app  # routes are added: no other test may see them

    def refused() -> str:
        raise InvalidSettingsError.single("group", msg("Choose a group from the list."))

    def doubtful() -> str:
        raise ImplausibleHandError({"points": (msg("Please check the points."),)})

    def stale() -> str:
        raise StaleVersionError(3)

    for name, view in (("refused", refused), ("doubtful", doubtful), ("stale", stale)):
        app.add_url_rule(f"/test/{name}", name, view)
        app.add_url_rule(f"/api/v1/test/{name}", f"api-{name}", view)
    client = app.test_client()
    for name, status, words in (
        ("refused", 422, "Choose a group from the list."),
        ("doubtful", 422, "Please check the points."),
        ("stale", 409, "Someone changed this meanwhile."),
    ):
        page = client.get(f"/test/{name}", headers=EN)
        assert (page.status_code, page.mimetype) == (status, "text/html"), name
        assert words in page.text
        assert "{" not in page.text.split("<main", 1)[1]
        answer = client.get(f"/api/v1/test/{name}", headers=EN)
        assert (answer.status_code, answer.mimetype) == (status, "application/json"), name
        assert words in str(answer.json)
