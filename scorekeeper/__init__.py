"""Scorekeeper: the scorer's phone applies each card game's exact rules."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SECRET_KEY = "dev-only-change-me"


def database_url(url: str) -> str:
    """Point plain PostgreSQL URLs at the psycopg 3 driver we ship."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: config from instance/ and the environment, then extensions and blueprints."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
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
        LANGUAGES=("en", "pl", "pt"),
        BABEL_DEFAULT_LOCALE="en",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    else:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    from .web import security

    security.ensure_secret_key(app, DEFAULT_SECRET_KEY)

    from . import i18n
    from .db import db, migrate, upgrade_schema
    from .web import api, errors, games, main, table, templating

    db.init_app(app)
    migrate.init_app(app, db)
    i18n.init_app(app)
    from flask_wtf.csrf import CSRFProtect

    csrf = CSRFProtect(app)
    csrf.exempt(api.bp)
    app.register_blueprint(main.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(table.bp)
    security.init_app(app)
    from .web import records

    app.register_blueprint(records.bp)  # lists, players, exports, import, backup commands
    from .web import secrets as secrets_pages

    app.register_blueprint(secrets_pages.bp)  # Secrets: allotments, private links and reports
    errors.init_app(app)
    templating.init_app(app)

    @app.before_request
    def keep_session() -> None:
        # The CSRF token lives in the session: keep it past a browser restart,
        # so a scoring page reopened from a phone's tabs still submits.
        from flask import session

        session.permanent = True

    if app.config["AUTO_MIGRATE"]:
        upgrade_schema(app)
    return app
