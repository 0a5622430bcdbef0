"""Behind the front, the app sees the tablet's address, never one the tablet made up."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from tests.server.conftest import StartServer, Tablet

#: A real server: it runs after the parallel part, with the machine to itself.
pytestmark = pytest.mark.alone


def test_checks_by_address_see_the_tablets_own(
    start_server: StartServer, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_ACCESS_PIN", "4711")
    server = start_server(workers=1, threads=1, ready="/openapi.json")
    tablet = Tablet()
    # This machine (loopback): the backup page opens, whatever address the request claims.
    spoofed = {"X-Forwarded-For": "192.168.1.30"}
    assert tablet.call(f"{server.url}/backup", headers=spoofed).status == 200
    # A wrong PIN is counted against the address the connection came from.
    wrong = server.api(tablet, "POST", "/unlock", {"pin": "0000"}, headers=spoofed)
    assert wrong.status == 401, wrong.text
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            remotes = connection.execute(text("SELECT remote FROM login_attempt")).scalars().all()
    finally:
        engine.dispose()
    assert remotes == ["127.0.0.1"]
