"""``GET /healthz``: can this server answer? The database answers and its schema is current.

For a load balancer or a process manager, asked every few seconds: it runs
below Flask (a WSGI wrapper), so it opens no session, sets no cookie and
renders nothing; one small query per call.
"""

from __future__ import annotations

import json
from functools import cache

from flask import Flask

from .._version import __version__

PATH = "/healthz"


# Not a registered store: one constant (the code's migration heads), bounded by nature.
@cache
def schema_heads() -> frozenset[str]:
    """The newest revisions of our migrations (read once: they change only with the code)."""
    from alembic.script import ScriptDirectory

    from ..db import MIGRATIONS

    return frozenset(ScriptDirectory(MIGRATIONS).get_heads())


def check(app: Flask) -> tuple[bool, dict]:
    """Whether the database answers with the newest schema, and what was found."""
    from ..db import db

    try:
        with app.app_context(), db.engine.connect() as conn:
            found = set(conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalars())
    except Exception as error:  # any failure to answer is "not healthy", never a 500
        return False, {"status": "unavailable", "version": __version__, "database": type(error).__name__}
    heads = schema_heads()
    if found != heads:
        return False, {
            "status": "schema-outdated",
            "version": __version__,
            "schema": sorted(found),
            "expected": sorted(heads),
        }
    return True, {"status": "ok", "version": __version__, "schema": sorted(found)}


class HealthCheck:
    """Answers ``GET /healthz`` itself; passes every other request on."""

    def __init__(self, wsgi_app, app: Flask):
        self.wsgi_app = wsgi_app
        self.app = app

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") != PATH or environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return self.wsgi_app(environ, start_response)
        healthy, found = check(self.app)
        body = json.dumps(found).encode()
        start_response(
            "200 OK" if healthy else "503 Service Unavailable",
            [
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(body))),
                ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"),
            ],
        )
        return [b""] if environ["REQUEST_METHOD"] == "HEAD" else [body]


def init_app(app: Flask) -> None:
    # Flask's way to wrap an app in WSGI middleware, though it types wsgi_app as a method.
    app.wsgi_app = HealthCheck(app.wsgi_app, app)  # type: ignore[method-assign]
