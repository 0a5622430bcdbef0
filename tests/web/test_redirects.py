"""After a login, the PIN or a language switch the browser goes back only to a path of
this application (``scorekeeper/web/redirects.py``, docs/hall-safety.md "Redirects")."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from urllib.parse import quote, unquote, urljoin, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.web.redirects import is_local_path, safe_next
from tests.web.tournaments.support import PASSWORD, create_tournament

PIN = "2468"

#: Each would take a browser to another site, or is no plain path.
BAD = [
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "/%09/evil.example/",
    "/\t/evil.example/",
    "/%5Cevil.example",
    "/%5c%5cevil.example",
    "%2F%2Fevil.example",
    "/%2F%2Fevil.example",
    "/%252F%252Fevil.example",
    "/%25252F%25252F%25252F%25252Fevil.example",
    "https://evil.example",
    "https:evil.example",
    "HTTPS://evil.example",
    "javascript:alert(1)",
    "/ /evil",
    "/%20/evil",
    "\t//evil",
    " /evenings/3",
    "/evenings/3\r\nSet-Cookie: x=1",
    "/evenings/3%0d%0aSet-Cookie:%20x=1",
    "/\u3000/evil.example",
    "/\u200b/evil.example",
    "/evenings/3\x00",
    "evenings/3",
    "",
]
#: Paths of this application: the browser goes exactly there.
GOOD = ["/evenings/3", "/tournaments/4?x=1", "/", "/tournaments/4/players?page=2&x=a%2Cb"]


def stays_inside(location: str) -> None:
    """A ``Location`` the browser resolves to this very host, and plainly so."""
    parts = urlsplit(location)
    assert not parts.scheme, location
    assert not parts.netloc, location
    assert location.startswith("/"), location
    assert not location.startswith("//"), location
    assert "\\" not in unquote(location), location
    assert not any(c.isspace() or ord(c) < 32 for c in unquote(location)), location
    assert urlsplit(urljoin("http://localhost/", location)).netloc == "localhost", location


def in_query(value: str) -> list[str]:
    """``value`` sent as the app reads it, and as typed into the address bar."""
    return [f"next={quote(value, safe='')}", f"next={value}"]


def hidden_next(page: str) -> str:
    """The ``next`` the page's form will post."""
    found = re.search(r'name="next"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="next"', page)
    assert found is not None, page
    return unescape(found.group(1) or found.group(2) or "")


# -- the rule itself --------------------------------------------------------------------------


@pytest.mark.parametrize("value", BAD)
def test_a_value_that_could_leave_the_app_is_refused(value: str) -> None:
    assert not is_local_path(value)


@pytest.mark.parametrize("value", GOOD)
def test_a_path_of_the_app_is_kept(value: str) -> None:
    assert is_local_path(value)


def test_refused_goes_home_or_to_the_fallback(app: Flask) -> None:
    with app.test_request_context():
        assert safe_next("//evil.example") == "/"
        assert safe_next(None) == "/"
        assert safe_next("https://evil.example", "/tournaments/1") == "/tournaments/1"
        assert safe_next("/evenings/3", "/tournaments/1") == "/evenings/3"
        # Letters beyond ASCII are sent percent-encoded, as a header must carry them.
        assert safe_next("/evenings?title=Zürich") == "/evenings?title=Z%C3%BCrich"


@given(st.text(alphabet=st.sampled_from(list("/\\:%09aAe.? #@\t\r\n\x00\u3000")), max_size=12))
def test_whatever_is_accepted_resolves_to_this_host(value: str) -> None:
    if is_local_path(value):
        stays_inside(value)


# -- through the real pages ---------------------------------------------------------------------


@pytest.fixture
def tournament(client: FlaskClient) -> int:
    return create_tournament(client)


@pytest.mark.parametrize("value", BAD)
def test_the_organisers_login_never_leaves_the_app(app: Flask, tournament: int, value: str) -> None:
    home = f"/tournaments/{tournament}"
    for query in in_query(value):
        laptop = app.test_client()
        form = laptop.get(f"/tournaments/{tournament}/login", query_string=query)
        assert form.status_code == 200
        posted = hidden_next(form.get_data(as_text=True))
        assert posted == ""
        for sent in (posted, value):
            login = laptop.post(
                f"/tournaments/{tournament}/login", data={"password": PASSWORD, "next": sent}
            )
            assert login.status_code == 303, query
            stays_inside(login.headers["Location"])
            assert login.headers["Location"] == home


@pytest.mark.parametrize("value", GOOD)
def test_the_organisers_login_goes_back_where_it_was_asked(
    app: Flask, tournament: int, value: str
) -> None:
    laptop = app.test_client()
    form = laptop.get(f"/tournaments/{tournament}/login", query_string=f"next={quote(value)}")
    posted = hidden_next(form.get_data(as_text=True))
    assert posted == value
    login = laptop.post(
        f"/tournaments/{tournament}/login", data={"password": PASSWORD, "next": posted}
    )
    assert login.status_code == 303
    assert login.headers["Location"] == value


def test_the_login_asked_for_by_a_page_comes_back_to_it(app: Flask, tournament: int) -> None:
    laptop = app.test_client()
    asked = laptop.get(f"/tournaments/{tournament}/players?page=2")
    assert asked.status_code == 303
    form = laptop.get(asked.headers["Location"])
    posted = hidden_next(form.get_data(as_text=True))
    login = laptop.post(
        f"/tournaments/{tournament}/login", data={"password": PASSWORD, "next": posted}
    )
    assert login.headers["Location"] == f"/tournaments/{tournament}/players?page=2"


@pytest.fixture
def pin_app(make_app: Callable[..., Flask]) -> Flask:
    return make_app(WTF_CSRF_ENABLED=False, ACCESS_PIN=PIN)


@pytest.mark.parametrize("value", BAD)
def test_the_pin_never_leaves_the_app(pin_app: Flask, value: str) -> None:
    for query in in_query(value):
        phone = pin_app.test_client()
        form = phone.get("/unlock", query_string=query)
        assert form.status_code == 200
        posted = hidden_next(form.get_data(as_text=True))
        assert posted == ""
        for sent in (posted, value):
            unlocked = phone.post("/unlock", data={"pin": PIN, "next": sent})
            assert unlocked.status_code == 303
            stays_inside(unlocked.headers["Location"])
            assert unlocked.headers["Location"] == "/"
        wrong = pin_app.test_client().post("/unlock", data={"pin": "1357", "next": value})
        assert wrong.status_code == 401
        assert hidden_next(wrong.get_data(as_text=True)) == "/"


@pytest.mark.parametrize("value", GOOD)
def test_the_pin_goes_back_where_it_was_asked(pin_app: Flask, value: str) -> None:
    phone = pin_app.test_client()
    form = phone.get("/unlock", query_string=f"next={quote(value)}")
    posted = hidden_next(form.get_data(as_text=True))
    assert posted == value
    unlocked = phone.post("/unlock", data={"pin": PIN, "next": posted})
    assert unlocked.status_code == 303
    assert unlocked.headers["Location"] == value


@pytest.mark.parametrize(
    "referrer",
    [
        "http://evil.example/evenings/3",
        "https://evil.example/",
        "http://localhost.evil.example/evenings/3",
        "http://localhost//evil.example/",
        "http://localhost/%09/evil.example/",
        "http://localhost/%5Cevil.example",
        "javascript:alert(1)",
        "//evil.example/",
        "/\\evil.example",
        "ftp://localhost/evenings/3",
        "",
    ],
)
def test_the_language_switch_never_leaves_the_app(client: FlaskClient, referrer: str) -> None:
    switched = client.post("/language/de", headers={"Referer": referrer})
    assert switched.status_code == 303
    stays_inside(switched.headers["Location"])
    assert switched.headers["Location"] == "/"


@pytest.mark.parametrize(
    ("referrer", "back"),
    [
        ("http://localhost/evenings/3", "/evenings/3"),
        ("https://localhost/tournaments/4?x=1", "/tournaments/4?x=1"),
        ("http://localhost/", "/"),
    ],
)
def test_the_language_switch_goes_back_to_the_page(
    client: FlaskClient, referrer: str, back: str
) -> None:
    switched = client.post("/language/en", headers={"Referer": referrer})
    assert switched.status_code == 303
    assert switched.headers["Location"] == back
