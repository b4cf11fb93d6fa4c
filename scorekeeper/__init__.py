"""Scorekeeper: the scorer's phone applies each card game's exact rules."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from flask import Flask

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
DEFAULT_SECRET_KEY = "dev-only-change-me"
# Settings that may also come from the environment (a container, a process manager), beside
# SECRET_KEY and DATABASE_URL: number of proxies in front (0: none), and whether a start migrates.
INT_ENV_SETTINGS = ("PROXY_FIX", "AUTO_MIGRATE")


def site_folder(name: str) -> Path:
    """templates/ or static/: inside the package in an installed wheel, else at the top of the checkout."""
    shipped = PACKAGE / name
    return shipped if shipped.is_dir() else ROOT / name


def instance_folder() -> Path:
    """Where the SQLite database, the secret key and config.py live.

    ``SCOREKEEPER_INSTANCE`` (``scorekeeper --instance``) names it. Otherwise a
    checkout keeps ``instance/`` beside the code, and an installed wheel (whose
    package folder may be read-only or replaced on upgrade) keeps the user's data
    folder, ``$XDG_DATA_HOME/scorekeeper`` (``~/.local/share/scorekeeper``).
    """
    named = os.environ.get("SCOREKEEPER_INSTANCE")
    if named:
        return Path(named).expanduser().resolve()
    if (ROOT / "pyproject.toml").is_file():
        return ROOT / "instance"
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "scorekeeper"


def database_url(url: str) -> str:
    """Point plain PostgreSQL URLs at the psycopg 3 driver we ship."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def create_app(test_config: dict | None = None, *, start: bool = True) -> Flask:
    """Build the app: config from instance/ and the environment, then extensions and blueprints.

    ``start=False`` builds it without touching anything (no instance folder, key or
    database): the command line does so to list its commands and print help, and
    starts the app (:func:`start_app`) only for a command that really uses it.
    """
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=str(instance_folder()),
        template_folder=str(site_folder("templates")),
        static_folder=str(site_folder("static")),
    )
    app.config.from_mapping(
        # None: this instance's own random key, kept in instance/secret_key (web/security.py).
        SECRET_KEY=None,
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite'}",
        # A scoring page stays open all evening: its CSRF token must not expire.
        WTF_CSRF_TIME_LIMIT=None,
        PERMANENT_SESSION_LIFETIME=timedelta(days=365),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Request size limits: a whole game record fits well within them.
        MAX_CONTENT_LENGTH=1024 * 1024,
        MAX_FORM_MEMORY_SIZE=64 * 1024,
        MAX_FORM_PARTS=1000,
        AUTO_MIGRATE=True,
        # Behind a reverse proxy: how many set X-Forwarded-* (Werkzeug's ProxyFix); 0 trusts none.
        PROXY_FIX=0,
        LANGUAGES=("en", "pl", "pt"),
        BABEL_DEFAULT_LOCALE="en",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
        if os.environ.get("CLUB_KEY"):  # guards the players list's renames and privacy (web/club.py)
            app.config["CLUB_KEY"] = os.environ["CLUB_KEY"]
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
        for name in INT_ENV_SETTINGS:
            value = os.environ.get(name, "").strip().lower()
            if value:
                words = {"true": 1, "yes": 1, "on": 1, "false": 0, "no": 0, "off": 0}
                app.config[name] = words[value] if value in words else int(value)
    else:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    from . import i18n
    from .db import db, migrate
    from .web import api, errors, games, main, security, table, templating

    db.init_app(app)
    migrate.init_app(app, db)
    from flask_migrate.cli import db as db_commands

    from .service.gate import rescore_command

    db_commands.add_command(rescore_command)  # scorekeeper db rescore: the lists' summaries anew
    i18n.init_app(app)
    from flask_wtf.csrf import CSRFProtect

    csrf = CSRFProtect(app)
    csrf.exempt(api.bp)
    app.register_blueprint(main.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(table.bp)
    from .web import ends

    app.register_blueprint(ends.bp)  # rematch, a new game with these players, archiving
    security.init_app(app)
    from .web import records

    app.register_blueprint(records.bp)  # lists, players, exports, import, backup commands
    from .web import secrets as secrets_pages

    app.register_blueprint(secrets_pages.bp)  # Secrets: allotments, private links and reports
    from .web import club

    app.register_blueprint(club.bp)  # ratings leaderboards, the players list, `ratings rebuild`
    errors.init_app(app)
    templating.init_app(app)

    from . import cache
    from .web import wire

    cache.init_app(app)  # views, regions and QR codes, once per game version
    wire.init_app(app)  # compression, static files cached for a year, the session cookie only when written
    from . import middleware
    from .web import pwa

    app.register_blueprint(pwa.bp)  # the installable app: manifest, service worker, offline page
    from .web import livepoll

    livepoll.init_app(app)  # an unchanged /live poll: 304 below Flask after one query
    middleware.init_app(app)  # /healthz, request ids, ProxyFix
    if start:
        start_app(app)
    return app


def start_app(app: Flask) -> Flask:
    """Make the app ready to serve: its instance folder, secret key and schema (once per app)."""
    if app.extensions.get("scorekeeper.started"):
        return app
    app.extensions["scorekeeper.started"] = True
    from .db import upgrade_schema
    from .web import security

    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    security.ensure_secret_key(app, DEFAULT_SECRET_KEY)
    if app.config["AUTO_MIGRATE"]:
        upgrade_schema(app)
    return app
