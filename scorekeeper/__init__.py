"""Scorekeeper: the scorer's phone applies each card game's exact rules."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

from ._version import __version__ as __version__  # re-exported: scorekeeper.__version__
from .paths import instance_folder, site_folder
from .problems import AppCommands

DEFAULT_SECRET_KEY = "dev-only-change-me"


def database_url(url: str) -> str:
    """Point plain PostgreSQL URLs at the psycopg 3 driver we ship."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def create_app(test_config: dict | None = None, *, start: bool = True) -> Flask:
    """Build the app: its settings, then each part in the order its hooks must run.

    ``test_config`` replaces ``config.py`` and the environment. ``start=False`` builds it
    without touching anything (no instance folder, key or database): the command line does
    so to list its commands and print help, and starts the app (:func:`start_app`) only for
    a command that really uses it.
    """
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=str(instance_folder()),
        template_folder=str(site_folder("templates")),
        static_folder=str(site_folder("static")),
    )
    # Every command of the app ends a host problem with its words, not a traceback (problems.py).
    app.cli = AppCommands(app.name)
    _configure_settings(app, test_config)
    _configure_database(app)
    _configure_i18n(app)
    _configure_csrf(app)
    _configure_blueprints(app)
    _configure_security(app)
    _configure_pages(app)
    _configure_caching(app)
    _configure_limits(app)
    _configure_wire(app)
    _configure_middleware(app)
    if start:
        start_app(app)
    return app


def own_instance(app: Flask) -> None:
    """The instance folder and the SQLite database, made the owner's only: they hold every game
    and the secret key. (SQLite gives its -wal and -shm files the database file's permissions.)
    Whatever makes them first (``serve``, ``db upgrade``, any command) makes them so."""
    Path(app.instance_path).mkdir(mode=0o700, parents=True, exist_ok=True)
    owner_only_sqlite(app.config["SQLALCHEMY_DATABASE_URI"])


def owner_only_sqlite(url: str) -> None:
    """Create a new SQLite database file readable and writable by its owner only."""
    from sqlalchemy.engine import make_url

    found = make_url(url)
    if found.get_backend_name() != "sqlite" or not found.database or found.database == ":memory:":
        return
    path = Path(found.database)
    if not path.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


def _configure_settings(app: Flask, test_config: dict | None) -> None:
    """The defaults, then ``config.py`` and the environment (docs/settings.md), or the test's."""
    from . import settings

    app.config.from_mapping(settings.defaults(app.instance_path))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        settings.from_environment(app.config)
    else:
        app.config.from_mapping(test_config)


def _configure_database(app: Flask) -> None:
    """SQLAlchemy and the migrations; ``scorekeeper db rescore`` rebuilds the lists' summaries."""
    from flask_migrate.cli import db as db_commands

    from .db import db, migrate
    from .service.rescore import rescore_command
    from .stores import stores_command

    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        from .extras import require

        require("psycopg", "DATABASE_URL (PostgreSQL)")
    db.init_app(app)
    migrate.init_app(app, db)
    db_commands.add_command(rescore_command)
    # ``scorekeeper stores``: the process's in-memory stores and their sizes (beside the database's).
    app.cli.add_command(stores_command)


def _configure_i18n(app: Flask) -> None:
    """Babel, the catalogs compiled at start, the language of each request."""
    from . import i18n

    i18n.init_app(app)


def _configure_csrf(app: Flask) -> None:
    """Every form post carries a CSRF token; the JSON API, which takes no cookie as a key, is exempt."""
    from flask_wtf.csrf import CSRFProtect

    from .web.api import clubs as api_clubs
    from .web.api import events as api_events
    from .web.api import games as api_games

    csrf = CSRFProtect(app)
    csrf.exempt(api_games.bp)
    csrf.exempt(api_events.bp)
    csrf.exempt(api_clubs.bp)


def _configure_blueprints(app: Flask) -> None:
    # Where two wings have a module of one name (pages, clubs, events), it is imported as
    # <wing>_<module>: the name says where it lives (web/<wing>/<module>.py), never an old name.
    from .clubs import cli as clubs_cli
    from .web import help, main, pwa
    from .web.api import clubs as api_clubs
    from .web.api import docs
    from .web.api import events as api_events
    from .web.api import games as api_games
    from .web.clubs import pages as clubs_pages
    from .web.events import confirm as events_confirm
    from .web.events import pages as events_pages
    from .web.events import season
    from .web.events import tables as events_tables
    from .web.games import assets as game_assets
    from .web.games import ends, plugin_pages, records, table
    from .web.games import pages as games_pages
    from .web.security import IntegerConverter

    # Before any rule is added: each rule compiles its converters when it is registered.
    app.url_map.converters["int"] = IntegerConverter
    for bp in (
        main.bp,
        games_pages.bp,
        api_games.bp,
        table.bp,
        ends.bp,  # rematch, a new game with these players, archiving
        records.bp,  # lists, players, exports, import, backup commands
        # The games' own pages (Secrets: allotments, private links and consoles), by the registry.
        *plugin_pages.blueprints(),
        game_assets.bp,  # each game's entry script and style, from its folder
        clubs_pages.bp,  # a club's pages: members, invites, players, ratings; `ratings rebuild`
        api_clubs.bp,  # the clubs' JSON API
        clubs_cli.bp,  # `scorekeeper clubs`: list, create, invite, delete
        pwa.bp,  # the installable app: manifest, service worker, offline page
        api_events.bp,  # club evenings: the event document, rounds, players
        events_pages.bp,  # the director's page, the board, print sheets, the CSV; the door
        events_confirm.tables,  # a table's confirmation, from its game page
        events_tables.bp,  # a table's phone for the whole event, the round clock
        season.bp,  # a club's season: its page and CSV
        season.api,  # a club's season as JSON
        help.bp,  # the rules of each game for the players, /help
        docs.bp,  # /api/openapi.json
    ):
        app.register_blueprint(bp)


def _configure_security(app: Flask) -> None:
    """Request limits, no NUL in any input, the security headers, the device cookie."""
    from .web import jsonbody, security

    security.init_app(app)
    jsonbody.init_app(app)  # an /api body that is not a JSON object: 400 before any view runs


def _configure_pages(app: Flask) -> None:
    """Error pages (JSON for the API) and the templates' helpers."""
    from .web import errors, templating

    errors.init_app(app)
    templating.init_app(app)


def _configure_caching(app: Flask) -> None:
    """Views, regions and QR codes, once per game version (in the process, or in Redis)."""
    from . import cache

    cache.init_app(app)


def _configure_limits(app: Flask) -> None:
    """Abuse limits: failed credential checks and creations per address (Flask-Limiter)."""
    from . import limits

    limits.init_app(app)


def _configure_wire(app: Flask) -> None:
    """Compression, static files cached for a year, the session cookie only when written."""
    from .web import wire

    wire.init_app(app)


def _configure_middleware(app: Flask) -> None:
    """Below Flask, outermost last: an unchanged /live poll answers 304 after one query,
    then /healthz, request ids and ProxyFix; outermost, the count of requests in flight that
    refuses a poll before any work when the process is full (writes first)."""
    from . import middleware
    from .web.live import livepoll, shed

    livepoll.init_app(app)
    middleware.init_app(app)
    shed.init_app(app)


def start_app(app: Flask) -> Flask:
    """Make the app ready to serve: its instance folder, secret key and schema (once per app)."""
    if app.extensions.get("scorekeeper.started"):
        return app
    app.extensions["scorekeeper.started"] = True
    from .db import upgrade_schema
    from .web import security

    own_instance(app)
    security.ensure_secret_key(app, DEFAULT_SECRET_KEY)
    if app.config["AUTO_MIGRATE"]:
        upgrade_schema(app)
    warn_retired_settings(app)
    return app


CLUB_KEY_RETIRED = (
    "CLUB_KEY is set but no longer used: clubs have admins now. "
    "`scorekeeper clubs invite <slug> --admin` gives an admin link "
    "(`scorekeeper clubs invite Home --admin` for the club an upgrade made); then unset CLUB_KEY."
)


def warn_retired_settings(app: Flask) -> None:
    """Say so at start when a retired setting is still configured: it is read, never an error."""
    if app.config.get("CLUB_KEY"):
        app.logger.warning(CLUB_KEY_RETIRED)
