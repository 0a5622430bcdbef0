"""A write's messages are said once, and only about a change that was kept
(``web/writing.py``): a run rolled back takes back what it flashed."""

from __future__ import annotations

from flask import Flask, flash, get_flashed_messages
from sqlalchemy.exc import IntegrityError

from scorekeeper.web.writing import Answered, Written, write


def test_a_write_run_again_after_a_lost_race_says_its_message_once(app: Flask) -> None:
    runs: list[int] = []

    def make() -> Written[str]:
        runs.append(1)
        flash("The group is renamed.")
        if len(runs) == 1:
            raise IntegrityError("INSERT", {}, Exception("another request took the name"))
        return Written("renamed")

    with app.test_request_context("/groups/1/rename", method="POST"):
        flash("Welcome.")
        assert write(make) == "renamed"
        assert len(runs) == 2
        assert get_flashed_messages() == ["Welcome.", "The group is renamed."]


def test_a_refused_write_takes_back_what_it_flashed_before_refusing(app: Flask) -> None:
    def make() -> Written[str]:
        flash("The set-up was saved.")
        raise Answered(lambda: "refused")

    with app.test_request_context("/tournaments/1/settings", method="POST"):
        flash("Welcome.")
        assert write(make) == "refused"
        assert get_flashed_messages() == ["Welcome."]
