"""A logout ends the session on every worker process, not only on the one that served it
(docs/hall-safety.md "PINs, passwords and tokens")."""

from __future__ import annotations

import time

from scorekeeper.web.access import REVOKED_CHECK_SECONDS
from tests.live.conftest import StartServer, Tablet
from tests.web.tournaments.support import setup_body


def test_a_logout_ends_the_token_on_every_worker(start_server: StartServer) -> None:
    server = start_server(workers=3, threads=1)
    laptop = Tablet()
    body = setup_body(name="Herbstturnier", rounds=2)
    created = server.api(laptop, "POST", "/tournaments", body)
    assert created.status == 201, created.text
    tournament, token = created.json["id"], created.json["token"]
    auth = {"Authorization": f"Bearer {token}"}
    rounds = f"/tournaments/{tournament}/rounds"
    # Every worker serves the token once at least, and trusts it for a moment.
    assert {server.api(Tablet(), "GET", rounds, headers=auth).status for _ in range(15)} == {200}

    csrf = laptop.csrf_token(f"{server.url}/tournaments/{tournament}/settings")
    out = laptop.call(
        f"{server.url}/tournaments/{tournament}/logout", "POST", form={"csrf_token": csrf}
    )
    assert out.status == 200  # the login page, after the redirect
    # A worker trusts a token it checked for at most REVOKED_CHECK_SECONDS: within that
    # (and a little for the requests themselves) every worker refuses it.
    deadline = time.monotonic() + REVOKED_CHECK_SECONDS + 5
    while True:
        seen = {server.api(Tablet(), "GET", rounds, headers=auth).status for _ in range(15)}
        if seen == {401}:
            break
        assert seen <= {200, 401}, seen
        assert time.monotonic() < deadline, seen
