"""Safety headers, the session cookie and the secret key (issue #8, "Ready for a museum hall").

Anyone in the hall can reach the app from a phone. These tests pin what keeps a forged form,
an injected script or a framing page from doing harm, and that the app will not start in
production with a key someone could guess.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.web import security
from tests.conftest import sqlite_only

TEMPLATES = Path(__file__).parents[1] / "templates"
LONG_SECRET = "x" * security.MIN_SECRET_LENGTH


def served(tmp_path: Path, **config: object) -> Flask:
    """The app as ``scripts/serve`` runs it: neither testing nor debugging."""
    return create_app(
        {"DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite'}", **config},
        instance_path=str(tmp_path),
    )


@pytest.mark.parametrize(
    "path", ["/", "/evenings/new", "/api/v1/evenings", "/static/style.css", "/no-such-page"]
)
def test_every_answer_carries_the_safety_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    response.close()  # a static file stays open until closed
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_error_pages_carry_the_headers_too(client: FlaskClient) -> None:
    response = client.post("/api/v1/evenings", data="{", content_type="application/json")
    assert response.status_code == 400
    assert response.headers["X-Frame-Options"] == "DENY"


def test_session_cookie_is_http_only_and_same_site(client: FlaskClient) -> None:
    response = client.post("/language/de")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # served over plain HTTP on the hall's network


@sqlite_only
def test_secure_cookie_can_be_switched_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_SESSION_COOKIE_SECURE", "true")
    app = served(tmp_path)
    assert app.config["SESSION_COOKIE_SECURE"] is True
    cookie = app.test_client().post("/language/de").headers["Set-Cookie"]
    assert "Secure" in cookie


def test_the_session_signer_is_made_once_for_the_same_keys(client: FlaskClient) -> None:
    app = client.application
    sessions = app.session_interface
    assert sessions.get_signing_serializer(app) is sessions.get_signing_serializer(app)


def page_language(client: FlaskClient, **headers: str) -> str:
    """The language the start page is shown in."""
    page = client.get("/", headers=headers).get_data(as_text=True)
    return page.split('<html lang="', 1)[1].split('"', 1)[0]


def test_a_changed_secret_key_no_longer_accepts_old_cookies(client: FlaskClient) -> None:
    client.post("/language/de")
    assert page_language(client) == "de"
    client.application.secret_key = "another " + LONG_SECRET
    assert page_language(client) == "en"  # the cookie's signature no longer holds
    client.post("/language/de")
    assert page_language(client) == "de"


def test_a_request_without_cookies_starts_an_empty_session(client: FlaskClient) -> None:
    client.post("/language/de")
    client.delete_cookie("session")
    assert page_language(client) == "en"
    assert page_language(client, **{"Accept-Language": "de-CH, en;q=0.5"}) == "de"
    assert "Set-Cookie" not in client.get("/").headers


def test_a_short_secret_is_refused_in_production(tmp_path: Path) -> None:
    with pytest.raises(security.StartupError, match="at least 32 are needed"):
        served(tmp_path, SECRET_KEY="changeme")
    assert not (tmp_path / "secret_key").exists()


def test_a_short_secret_is_refused_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "secret")
    with pytest.raises(security.StartupError, match="SECRET_KEY has 6 characters"):
        served(tmp_path)


@sqlite_only
def test_a_long_given_secret_is_used(tmp_path: Path) -> None:
    assert served(tmp_path, SECRET_KEY=LONG_SECRET).config["SECRET_KEY"] == LONG_SECRET
    assert not (tmp_path / "secret_key").exists()


@sqlite_only
def test_tests_and_debugging_may_use_a_short_secret(tmp_path: Path) -> None:
    assert served(tmp_path, SECRET_KEY="test", TESTING=True).config["SECRET_KEY"] == "test"
    assert served(tmp_path, SECRET_KEY="dev", DEBUG=True).config["SECRET_KEY"] == "dev"


@sqlite_only
def test_generated_secret_leaves_no_draft_behind(tmp_path: Path) -> None:
    key = served(tmp_path).config["SECRET_KEY"]
    assert len(key) == 64
    assert sorted(p.name for p in tmp_path.iterdir() if "secret" in p.name) == ["secret_key"]


def test_an_empty_instance_secret_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret_key").write_text("\n")
    with pytest.raises(security.StartupError, match="empty or too short"):
        served(tmp_path)


def test_an_unreadable_instance_secret_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "secret_key").mkdir()  # unreadable as a file, whoever runs the tests
    with pytest.raises(security.StartupError, match="cannot be read or created"):
        served(tmp_path)


def test_an_unwritable_instance_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_args: object, **_kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    # Permissions do not stop root, who may run the tests; the refusal is simulated.
    monkeypatch.setattr(security.os, "open", refuse)
    with pytest.raises(security.StartupError, match=r"Make the folder .* writable"):
        served(tmp_path)


class InlineCode(HTMLParser):
    """Collects inline scripts, event handlers and styles, which the policy would block."""

    def __init__(self, *, styles: bool = True) -> None:
        super().__init__()
        self.found: list[str] = []
        self.styles = styles
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "script":
            self._script = "src" not in names
            if self._script:
                self.found.append("<script> without src")
        if tag == "style" and self.styles:
            self.found.append("<style> element")
        self.found += [f"{name}= on <{tag}>" for name in names if name.startswith("on")]
        if "style" in names and self.styles:
            self.found.append(f"style= on <{tag}>")
        for name, value in attrs:
            if name in {"href", "action", "src"} and (value or "").startswith("javascript:"):
                self.found.append(f"javascript: URL on <{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = False


def inline_code(html: str, *, styles: bool = True) -> list[str]:
    """What in ``html`` a policy without 'unsafe-inline' would block (styles included)."""
    parser = InlineCode(styles=styles)
    parser.feed(html)
    return parser.found


def test_the_checker_finds_inline_code() -> None:
    page = '<p style="color:red" onclick="x()"><script>alert(1)</script><a href="javascript:x">'
    assert len(inline_code(page)) == 4
    assert inline_code('<script src="/static/table.js" defer></script>') == []
    assert inline_code('<td style="width: 8mm">', styles=False) == []


@pytest.mark.parametrize(
    "template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_no_template_contains_inline_script_or_style(template: Path) -> None:
    """Printouts may style inline: WeasyPrint renders them on the server, no browser does."""
    printout = template.relative_to(TEMPLATES).parts[0] == "pdf"
    assert inline_code(template.read_text(encoding="utf-8"), styles=not printout) == []
