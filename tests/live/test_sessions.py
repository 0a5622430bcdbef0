"""Sessions are signed cookies: any process with the instance's secret reads them."""

from __future__ import annotations

from pathlib import Path

from tests.live.conftest import StartServer, Tablet


def test_two_processes_sharing_the_instance_serve_one_session(
    start_server: StartServer, tmp_path: Path
) -> None:
    instance = tmp_path / "hall"
    first = start_server(workers=1, instance=instance)
    second = start_server(workers=1, instance=instance)
    tablet = Tablet()
    assert 'lang="en"' in tablet.call(f"{first.url}/").text
    # The CSRF token lives in the session the first process signed; the second accepts it
    # only if it reads that session, and keeps the language in it for the first to read.
    token = tablet.csrf_token(f"{first.url}/")
    switched = tablet.call(f"{second.url}/language/de", "POST", form={"csrf_token": token})
    assert switched.status == 200
    assert 'lang="de"' in tablet.call(f"{first.url}/").text
    # Nothing of the session is kept on the server (the front keeps its own folder there).
    kept = [p.name for p in instance.iterdir() if not p.name.startswith("front-")]
    assert kept == ["secret_key"]
    # Another tablet's cookie from a server with another secret is not taken.
    stranger = start_server(workers=1, instance=tmp_path / "elsewhere")
    other = Tablet()
    refused = other.call(
        f"{stranger.url}/language/de", "POST", form={"csrf_token": other.csrf_token(first.url)}
    )
    assert refused.status == 400
