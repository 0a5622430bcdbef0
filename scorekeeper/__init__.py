"""Scorekeeper: score and settlement companion for tarock games at a real table."""

from __future__ import annotations

import os
from datetime import timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from flask import Flask, has_request_context, request, session
from sqlalchemy.engine import Engine
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from scorekeeper.core.validation import LANGUAGES
from scorekeeper.db.extensions import babel, csrf, db, migrate
from scorekeeper.db.schema import MIGRATIONS
from scorekeeper.operations.schema import upgrade_schema
from scorekeeper.web import access, addresses, bodies, hosts, security

#: The languages as Babel reads them, parsed once: every answer looks its language up.
LOCALES = {language: Locale.parse(language) for language in LANGUAGES}


def create_app(
    test_config: dict[str, Any] | None = None, instance_path: str | None = None
) -> Flask:
    """Build the app: defaults, ``instance/config.py``, ``SCOREKEEPER_*`` env, test config.

    The database is brought to the current schema on start, so nobody migrates by hand;
    a server that starts several workers does it once before and turns ``AUTO_MIGRATE`` off.
    The instance folder (config, secret key, SQLite file) is ``instance/`` in the checkout
    unless ``instance_path`` or ``SCOREKEEPER_INSTANCE_PATH`` names another.
    """
    if instance_path is None and os.environ.get("SCOREKEEPER_INSTANCE_PATH"):
        instance_path = os.path.abspath(os.environ["SCOREKEEPER_INSTANCE_PATH"])
    app = Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    os.makedirs(app.instance_path, exist_ok=True)
    from scorekeeper.server import front

    app.config.from_mapping(
        DATABASE_URL="sqlite:///" + os.path.join(app.instance_path, "scorekeeper.sqlite"),
        SQLALCHEMY_ENGINE_OPTIONS={},
        AUTO_MIGRATE=True,
        JSON_SORT_KEYS=False,
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        BABEL_DEFAULT_TIMEZONE="Europe/Zurich",
        ACCESS_PIN=None,
        # Wrong PINs, passwords and table codes (docs/hall-safety.md "PINs, passwords and
        # tokens"): per address, LOGIN_ATTEMPTS in LOGIN_WINDOW_SECONDS, then wait; from
        # all addresses together, past LOGIN_DELAY_AFTER wrong ones in
        # LOGIN_DELAY_WINDOW_SECONDS every try waits 1 s after the last wrong one,
        # doubling with each further one up to LOGIN_DELAY_MAX_SECONDS.
        LOGIN_ATTEMPTS=5,
        LOGIN_WINDOW_SECONDS=900,
        LOGIN_DELAY_AFTER=10,
        LOGIN_DELAY_WINDOW_SECONDS=3600,
        LOGIN_DELAY_MAX_SECONDS=300,
        # How an organiser's password is stored: werkzeug's method string. scrypt takes a
        # tenth of a second on the organiser's laptop, which a guesser pays for every try.
        # A stored hash names its own method, so checking one follows what it was made with.
        PASSWORD_HASH_METHOD="scrypt",
        # How long an unlocked device, a login and their tokens last: an evening or a
        # tournament day (also the session cookie's lifetime, Flask's being 31 days).
        SESSION_HOURS=16,
        PUBLIC_URL=None,
        # More names the laptop is reached by (scorekeeper.web.hosts): a comma-separated text
        # or a list; its addresses, localhost and its own names need none.
        HOST_NAMES=(),
        # The session holds the CSRF token: never readable by scripts, never sent along
        # with another site's forms. Secure only where the app is served over HTTPS.
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=False,
        # Uploads (an archive, a backup): far more than years of evenings. Every other
        # request's body is at most BODY_MAX_BYTES (scorekeeper.web.bodies).
        MAX_CONTENT_LENGTH=100 * 1024 * 1024,
        BODY_MAX_BYTES=bodies.BODY_MAX_BYTES,
        # What the front lets one address send (docs/server.md "One address cannot crowd
        # out the others"): connections in hand, requests a second, and a burst of them.
        ADDRESS_CONNECTIONS=front.CONNECTIONS_PER_ADDRESS,
        ADDRESS_REQUESTS_PER_SECOND=front.REQUESTS_PER_SECOND,
        ADDRESS_BURST=front.BURST,
        # How long the front waits for a client's headers or the next part of its body.
        CLIENT_SECONDS=front.CLIENT_SECONDS,
        # Printouts (scorekeeper.web.printouts): the disk they may keep in the instance
        # folder, and the print workers' sockets to ask ahead ([print, long]; scripts/start).
        PRINT_CACHE_MB=500,
        PRINT_SOCKETS=None,
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("SCOREKEEPER")
    if test_config:
        app.config.update(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = app.config["DATABASE_URL"]
    access.check_settings(app)
    app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(hours=app.config["SESSION_HOURS"])
    app.config["SECRET_KEY"] = security.secret_key(
        app.config.get("SECRET_KEY"),
        Path(app.instance_path),
        production=not (app.testing or app.debug),
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]

    register_extensions(app)
    security.register(app)
    addresses.register(app)
    bodies.register(app)
    register_blueprints(app)
    hosts.register(app)  # after the others: its check is put before all of theirs
    register_filters(app)
    register_commands(app)
    # Behind scripts/start's front the tablet's address is the one the front names.
    app.wsgi_app = front.TrustedFront(app.wsgi_app)  # type: ignore[method-assign]
    if app.config["AUTO_MIGRATE"]:
        upgrade_schema(app)
    return app


def select_locale() -> Locale | None:
    """The language chosen on the page (remembered), else the browser's, else English."""
    if not has_request_context():
        return None
    chosen = session.get("lang") if not request.path.startswith("/api/") else None
    if chosen in LOCALES:
        return LOCALES[chosen]
    return browser_locale(request.headers.get("Accept-Language", ""))


@lru_cache(maxsize=64)
def browser_locale(header: str) -> Locale:
    """The browser's most preferred language the app speaks, by its main tag (``de-CH``
    is German, even before a plain ``en``); English when it prefers none of them.

    Kept by the header's text: the tablets of a hall send the same few.
    """
    for tag, quality in parse_accept_header(header, LanguageAccept):
        if quality <= 0:
            break  # in order of preference: the rest are refused
        if tag == "*":
            return LOCALES[LANGUAGES[0]]
        main = tag.replace("_", "-").split("-", 1)[0].lower()
        if main in LOCALES:
            return LOCALES[main]
    return LOCALES["en"]


def register_extensions(app: Flask) -> None:
    """Bind the extensions to this app (the models first, so the metadata has every table)."""
    import scorekeeper.db.models
    import scorekeeper.db.tournament_models  # noqa: F401

    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    babel.init_app(app, locale_selector=select_locale)
    csrf.init_app(app)
    with app.app_context():
        configure_engine(db.engine)


def configure_engine(engine: Engine) -> None:
    """Give ``engine``'s connections their database's settings (``scorekeeper.db.sqlite``,
    ``scorekeeper.db.postgres``): the app's engine, and any other engine that must run as the
    app's does (the benchmark's bare endpoint)."""
    from scorekeeper.db import postgres, sqlite

    if engine.dialect.name == "sqlite":
        sqlite.configure(engine)
    elif engine.dialect.name == "postgresql":
        postgres.configure(engine)


def register_blueprints(app: Flask) -> None:
    """The JSON API and the pages."""
    from scorekeeper.web import errors, guard
    from scorekeeper.web import managed as installation
    from scorekeeper.web.club import api as groups_api
    from scorekeeper.web.club import pages as groups
    from scorekeeper.web.evenings import api, exports, hands, paper, settlement
    from scorekeeper.web.evenings import pages as evenings
    from scorekeeper.web.installation import access_pages, backups, players, tools
    from scorekeeper.web.tournament_tables import evening_title, table_info
    from scorekeeper.web.tournaments import api as tournament_api
    from scorekeeper.web.tournaments import pages as tournaments
    from scorekeeper.web.tournaments import printouts as tournament_pdfs
    from scorekeeper.web.tournaments import tables

    guard.register(app)
    app.add_template_global(table_info)
    app.add_template_global(evening_title)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    app.register_blueprint(tournament_api.bp)
    csrf.exempt(tournament_api.bp)
    app.register_blueprint(groups_api.bp)
    csrf.exempt(groups_api.bp)
    app.register_blueprint(access_pages.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(tournament_pdfs.bp)
    app.register_blueprint(evenings.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(settlement.bp)
    app.register_blueprint(exports.bp)
    app.register_blueprint(paper.bp)
    app.register_blueprint(tools.bp)
    app.register_blueprint(backups.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(groups.bp)
    errors.register(app)
    installation.register(app)


def register_filters(app: Flask) -> None:
    """Jinja filters for amounts and money."""
    from scorekeeper.web import jinja_filters

    jinja_filters.register(app)


def register_commands(app: Flask) -> None:
    """Click commands (``flask --app scorekeeper ...``)."""
    from scorekeeper.server import cli

    cli.register(app)
