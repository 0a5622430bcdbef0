"""Only this installation's own host names are served, and a write from a browser must come
from the address it is sent to (docs/hall-safety.md, "Only our own host names").

The test client sends whatever ``Host`` it is given, and no traffic leaves the process: the
addresses below are only header values.
"""

from __future__ import annotations

import html
import socket
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import hosts

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]
EN = {"Accept-Language": "en"}
DE = {"Accept-Language": "de-CH"}
FOREIGN = "rebind.evil.example:5000"
#: What a page that rebound its name to the laptop sends along.
REBOUND = {"Host": FOREIGN, "Origin": f"http://{FOREIGN}"}
BID = {"contract": "doppelt", "bidder": "Anna", "points": 41, "last_trick": "pagat_won"}
FORM_BID = {**BID, "points": "41", "result": "points", "token": "t1"}
NEW = {
    "seat_0": "Anna",
    "seat_1": "Bert",
    "seat_2": "Clara",
    "seat_3": "Dora",
    "dealer_seat": "3",
    "title": "Museumsabend",
}
NEW_PLAYERS = ["Anna", "Bert", "Clara", "Dora"]


def status(client: FlaskClient, path: str, headers: dict[str, str] | None = None) -> int:
    """The status of a GET, its (streamed) body closed."""
    with client.get(path, headers=headers) as answer:
        return answer.status_code


def calls(evening: int) -> list[tuple[str, str, dict[str, Any]]]:
    """Reads and writes of pages and the API: (method, path, keyword arguments)."""
    return [
        ("GET", "/", {}),
        ("GET", f"/evenings/{evening}", {}),
        ("GET", "/static/style.css", {}),
        ("GET", "/backup", {}),
        ("GET", "/backup/scorekeeper-backup.zip", {}),
        ("POST", "/evenings", {"data": NEW}),
        ("POST", f"/evenings/{evening}/hands", {"data": FORM_BID}),
        ("POST", "/backup/restore", {"data": {}}),
        ("GET", "/api/v1/evenings", {}),
        ("GET", f"/api/v1/evenings/{evening}", {}),
        ("POST", f"/api/v1/evenings/{evening}/hands", {"json": BID}),
        ("POST", "/api/v1/evenings", {"json": {"game": "troggen", "players": NEW_PLAYERS}}),
        ("GET", "/no/such/page", {}),
    ]


def test_a_foreign_name_is_refused_for_reads_and_writes_and_nothing_is_stored(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot
) -> None:
    evening = create_evening()
    before = snapshot()
    for method, path, kwargs in calls(evening):
        with client.open(path, method=method, headers={**REBOUND, **EN}, **kwargs) as answer:
            assert answer.status_code == 421, (method, path, answer.status_code)
            if path.startswith("/api/"):
                message = answer.json["errors"]["host"][0]
                assert "rebind.evil.example is not one of this installation's" in message
                assert "SCOREKEEPER_HOST_NAMES" in message
            else:
                assert answer.mimetype == "text/html"
                assert "SCOREKEEPER_HOST_NAMES=rebind.evil.example" in answer.text
            assert "Set-Cookie" not in answer.headers  # no session under that name
    assert snapshot() == before
    # The same requests under the laptop's own name are served.
    assert status(client, "/backup/scorekeeper-backup.zip") == 200
    assert client.post(f"/api/v1/evenings/{evening}/hands", json=BID).status_code == 201


def test_the_refusal_page_names_the_setting_in_german_and_english(client: FlaskClient) -> None:
    page = client.get("/", headers={"Host": "scores.hall:5000", **DE})
    assert page.status_code == 421
    text = html.unescape(page.text)
    assert '<html lang="de">' in text  # the request's language first
    assert text.index('lang="de"') < text.index('<section lang="en">')
    assert "Der Name scores.hall ist keine Adresse dieser Installation" in text
    assert "The name scores.hall is not one of this installation's addresses" in text
    assert "SCOREKEEPER_HOST_NAMES=scores.hall" in text
    assert 'HOST_NAMES = ["scores.hall"]' in text
    assert "instance/config.py" in text
    assert "<script" not in text
    assert "style=" not in text
    assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    english = client.get("/", headers={"Host": "scores.hall", **EN}).text
    assert english.index('<section lang="en">') < english.index('<section lang="de">')

    answer = client.get("/api/v1/evenings", headers={"Host": "scores.hall", **DE})
    assert answer.status_code == 421
    assert answer.json["errors"]["host"] == [
        "Der Name scores.hall ist keine Adresse dieser Installation, deshalb wurde nichts "
        "gelesen und nichts gespeichert. Wenn dieser Laptop absichtlich unter diesem Namen "
        "erreicht wird, tragen Sie ihn in die Einstellung SCOREKEEPER_HOST_NAMES (oder "
        "HOST_NAMES in instance/config.py) ein und starten Sie Scorekeeper neu."
    ]


def test_the_host_is_checked_before_the_csrf_and_the_access_checks(
    make_app: Callable[..., Flask],
) -> None:
    """A form without its token, a locked installation: the name is what is refused."""
    app = make_app(ACCESS_PIN="4711")
    assert app.config.get("WTF_CSRF_ENABLED", True)
    first = app.before_request_funcs[None][0]
    assert first.__name__ == "only_own_host_names"
    client = app.test_client()
    assert client.post("/evenings", data=NEW, headers=REBOUND).status_code == 421
    assert client.get("/", headers=REBOUND).status_code == 421
    assert client.post("/evenings", data=NEW).status_code == 400  # no token: CSRF
    assert client.get("/").status_code == 303  # the PIN first


def own_names() -> list[str]:
    """Names and addresses this installation answers to in the tests below."""
    machine = socket.gethostname()
    named = [
        "127.0.0.1",
        "127.0.0.1:5000",
        "192.0.2.7",
        "192.0.2.7:8080",
        "10.0.0.12:5000",
        "[::1]",
        "[::1]:5000",
        "[fe80::1c2d:3e4f]:5000",
        "localhost",
        "localhost:5000",
        "Tablet.Localhost:5000",
        machine,
        f"{machine}:5000",
        f"{machine.split('.')[0]}.local:5000",
        socket.getfqdn(),
        "scores.museum.example:8000",  # PUBLIC_URL's
        "laptop.local",  # configured
        "LAPTOP.LOCAL.:5000",
    ]
    return list(dict.fromkeys(named))  # the machine may be called localhost


@pytest.mark.parametrize("host", own_names())
def test_addresses_localhost_the_machine_and_configured_names_are_served(
    make_app: Callable[..., Flask], host: str
) -> None:
    app = make_app(
        WTF_CSRF_ENABLED=False,
        PUBLIC_URL="http://scores.museum.example:8000",
        HOST_NAMES=["laptop.local"],
    )
    client = app.test_client()
    headers = {"Host": host, **EN}
    assert client.get("/", headers=headers).status_code == 200
    assert status(client, "/static/style.css", headers) == 200
    created = client.post(
        "/api/v1/evenings", json={"game": "troggen", "players": NEW_PLAYERS}, headers=headers
    )
    assert created.status_code == 201, created.json
    evening = created.json["id"]
    page = client.post(f"/evenings/{evening}/hands", data=FORM_BID, headers=headers)
    assert page.status_code == 303
    assert status(client, "/backup/scorekeeper-backup.zip", headers) == 200


@pytest.mark.parametrize(
    "host",
    [
        "rebind.evil.example",
        "localhost.evil.example",
        "127.0.0.1.evil.example",
        "laptop.local.evil.example",
        "evil-localhost",
        "192.0.2",
        "[::1",
        "::1",
        "",
    ],
)
def test_lookalike_names_are_refused(client: FlaskClient, host: str) -> None:
    assert client.get("/", headers={"Host": host}).status_code == 421
    assert client.get("/api/v1/evenings", headers={"Host": host}).status_code == 421


def test_the_setting_is_read_from_the_environment_as_a_list_of_names(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_HOST_NAMES", "laptop.local, Scores.Hall:5000")
    client = make_app().test_client()
    for host in ("laptop.local:5000", "scores.hall", "SCORES.HALL:80"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    assert client.get("/", headers={"Host": "other.hall"}).status_code == 421


def test_names_are_worked_out_from_the_settings() -> None:
    assert hosts.names_for("laptop", "laptop.fritz.box") == {
        "laptop",
        "laptop.fritz.box",
        "laptop.local",
    }
    assert hosts.names_for("Annas-MacBook.local", "Annas-MacBook.local") == {"annas-macbook.local"}
    assert hosts.configured_names("a.hall, ,B.hall:5000") == {"a.hall", "b.hall"}
    assert hosts.configured_names(["http://c.hall:5000/", "d.hall."]) == {"c.hall", "d.hall"}
    assert hosts.configured_names(None) == set()
    assert hosts.public_url_name("http://192.168.1.20:5000") == "192.168.1.20"
    assert hosts.public_url_name("scores.hall:5000/") == "scores.hall"
    assert hosts.public_url_name(None) == ""


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://localhost", "localhost", True),
        ("https://localhost", "localhost", True),
        ("http://localhost:80", "localhost", True),
        ("http://laptop.local:5000", "laptop.local:5000", True),
        ("http://LAPTOP.local:5000", "laptop.local:5000", True),
        ("http://[::1]:5000", "[::1]:5000", True),
        ("http://laptop.local", "laptop.local:5000", False),
        ("http://laptop.local:5001", "laptop.local:5000", False),
        ("http://evil.example", "localhost", False),
        ("http://localhost.evil.example", "localhost", False),
        ("http://user@localhost", "localhost", False),
        ("ftp://localhost", "localhost", False),
        ("null", "localhost", False),
        ("", "localhost", False),
        ("http://[::1", "[::1]", False),
        ("http://localhost:99999", "localhost", False),
    ],
)
def test_an_origin_is_the_same_address(origin: str, host: str, same: bool) -> None:
    assert hosts.same_origin(origin, host) is same


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "http://localhost.evil.example", "http://localhost:8080", "null"],
)
def test_a_page_form_from_another_origin_is_refused_and_stores_nothing(
    client: FlaskClient, create_evening: Callable[..., int], snapshot: Snapshot, origin: str
) -> None:
    evening = create_evening()
    before = snapshot()
    headers = {"Origin": origin, **EN}
    for path, data in [("/evenings", NEW), (f"/evenings/{evening}/hands", FORM_BID)]:
        answer = client.post(path, data=data, headers=headers)
        assert answer.status_code == 403, (path, answer.status_code)
        assert "Requests from other sites are refused." in answer.text
    assert snapshot() == before


def test_a_page_form_from_its_own_origin_or_without_one_is_taken(
    make_app: Callable[..., Flask],
) -> None:
    client = make_app(WTF_CSRF_ENABLED=False, HOST_NAMES="laptop.local").test_client()
    created = client.post("/api/v1/evenings", json={"game": "troggen", "players": NEW_PLAYERS})
    evening = created.json["id"]
    sent = [
        {"Origin": "http://localhost"},
        {"Origin": "https://localhost"},
        {"Host": "laptop.local:5000", "Origin": "http://laptop.local:5000"},
        {"Host": "192.0.2.7:5000", "Origin": "http://192.0.2.7:5000"},
        {"Host": "[::1]:5000", "Origin": "http://[::1]:5000"},
        {},  # no Origin: not a browser, or an older one
        {"Sec-Fetch-Site": "cross-site"},  # looked at on the API only, as before
    ]
    for number, headers in enumerate(sent):
        data = {**FORM_BID, "token": f"own-{number}"}
        answer = client.post(f"/evenings/{evening}/hands", data=data, headers=headers)
        assert answer.status_code == 303, (headers, answer.status_code)
    assert len(client.get(f"/api/v1/evenings/{evening}").json["hands"]) == len(sent)


def test_a_page_form_with_its_token_from_another_origin_is_refused(
    make_app: Callable[..., Flask], snapshot: Snapshot
) -> None:
    """CSRF on, as at the table: the token is right, the origin is not."""
    client = make_app().test_client()
    page = client.get("/evenings/new")
    token = page.text.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    before = snapshot()
    data = {**NEW, "csrf_token": token}
    refused = client.post("/evenings", data=data, headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403
    assert snapshot() == before
    taken = client.post("/evenings", data=data, headers={"Origin": "http://localhost"})
    assert taken.status_code == 303


def test_the_api_keeps_refusing_other_sites_by_fetch_metadata(
    client: FlaskClient, create_evening: Callable[..., int]
) -> None:
    """Sec-Fetch-Site is looked at on the API only, as before."""
    evening = create_evening()
    cross = {"Sec-Fetch-Site": "cross-site"}
    api = client.post(f"/api/v1/evenings/{evening}/hands", json=BID, headers=cross)
    assert api.status_code == 403
    refused = client.post(
        f"/api/v1/evenings/{evening}/hands", json=BID, headers={"Origin": "http://evil.example"}
    )
    assert refused.json["errors"]["access"] == ["Requests from other sites are refused."]


def wsgi_status(app: Flask, environ: dict[str, Any]) -> int:
    """The status ``app`` answers a WSGI environ built by hand."""
    from werkzeug.test import run_wsgi_app

    environ.setdefault("REMOTE_ADDR", "127.0.0.1")  # this machine: the backup opens
    body, status, _ = run_wsgi_app(app, environ)
    b"".join(body)
    return int(status.split(" ", 1)[0])


def test_a_request_without_a_host_is_addressed_to_nobody(client: FlaskClient) -> None:
    """Werkzeug would take the server's own name for a request without ``Host``."""
    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(path="/backup").get_environ()
    assert wsgi_status(client.application, environ) == 200
    del environ["HTTP_HOST"]
    assert wsgi_status(client.application, environ) == 421


@pytest.mark.parametrize(
    ("target", "served"),
    [
        ("/backup", True),
        ("http://localhost/backup", True),
        ("HTTP://127.0.0.1:5000/backup", True),
        ("http://rebind.evil.example/backup", False),
        ("https://rebind.evil.example:5000/backup?x=1", False),
        ("http://user@rebind.evil.example/backup", False),
        ("http://[::1/backup", False),
    ],
)
def test_an_absolute_request_line_is_addressed_to_its_own_name(
    client: FlaskClient, target: str, served: bool
) -> None:
    """A server takes the name of an absolute request line over ``Host``: served beside a
    local ``Host`` it would answer for another site (the direct servers keep the line)."""
    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(path="/backup", headers={"Host": "localhost"}).get_environ()
    environ["RAW_URI"] = environ["REQUEST_URI"] = target
    assert wsgi_status(client.application, environ) == (200 if served else 421)


def test_the_name_the_front_read_is_checked_too(client: FlaskClient) -> None:
    """Behind the front the workers get a plain path; the front names the request line's
    host (``X-Front-Host``, taken only from the front: ``TrustedFront``)."""
    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(path="/backup", headers={"Host": "localhost"}).get_environ()
    environ[hosts.FRONT_HOST] = "rebind.evil.example"
    assert wsgi_status(client.application, environ) == 421
    assert hosts.asked_names({"HTTP_HOST": "Laptop.Local:80", hosts.FRONT_HOST: "x"}) == [
        "laptop.local",
        "x",
    ]
