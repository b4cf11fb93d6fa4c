"""An unchanged ``/g/<id>/live`` poll answered below Flask: one indexed query, then 304.

Every open game page polls ``/live`` every few seconds, and almost every poll
finds the game unchanged. Such a poll needs only the game's version, whether
it is deleted and its key hash (for the role): one primary-key query on a
pooled connection. It opens no Flask context, no session and no template,
sets no cookie, and carries the same headers as the view's 304 (the ETag,
its caching, Vary and the security headers).

Anything else (no If-None-Match, a changed or deleted game, an unknown one,
any surprise) goes on to the view in ``table.live``, which stays the one
place that renders; the ETag comes from the same ``live_etag_value`` parts.
"""

from __future__ import annotations

import logging
import re

from flask import Flask
from sqlalchemy import Engine, bindparam, select
from werkzeug.http import parse_etags
from werkzeug.wrappers import Request

from .. import limits
from ..i18n import FORMATS
from ..keys import key_matches
from .common import KEY_COOKIE, changed_at, follow_caching
from .security import HEADERS
from .shed import CHANGED_AT

log = logging.getLogger(__name__)
PATH = re.compile(r"/g/([A-Za-z0-9_-]{1,32})/live")
PARTS = ("live", "board")


class LivePoll:
    def __init__(self, app: Flask, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app
        self.engine: Engine | None = None
        self.languages = tuple(app.config["LANGUAGES"])
        self.default_locale = str(app.config.get("BABEL_DEFAULT_LOCALE") or "en")

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_IF_NONE_MATCH"):
            match = PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match and self.app.config.get("LIVE_FAST_PATH", True):
                try:
                    headers = self.not_modified(environ, match.group(1))
                except Exception:  # the view answers whatever this could not
                    log.warning("live fast path failed", exc_info=True)
                    headers = None
                if headers is not None:
                    start_response("304 NOT MODIFIED", headers)
                    return []
        return self.wsgi_app(environ, start_response)

    def not_modified(self, environ, game_id: str) -> list[tuple[str, str]] | None:
        """The 304's headers when the poller's ETag is current, else None (the view answers)."""
        request = Request(environ, populate_request=False)
        args = request.args
        part = args.get("part")
        # NUL anywhere is the view's 400 (security.refuse_nul); several ``part``s are its business too.
        if part not in PARTS or len(args.getlist("part")) != 1:
            return None
        if any("\x00" in k + v for k, v in args.items(multi=True)):
            return None
        row = self.row(game_id)
        if row is None or row.deleted_at is not None:
            return None
        environ[CHANGED_AT] = changed_at(row.updated_at)
        # As table.live decides: the scorer only on the scorer's URL with the game's key.
        scorer = args.get("as") == "scorer"
        editable = scorer and key_matches(row.edit_key_hash, request.cookies.get(KEY_COOKIE))
        if editable and limits.refuses_credentials(self.app, request.remote_addr):
            # The view refuses this address's keys before testing them: a 304 here for the
            # right key only would answer a guess the view would not.
            return None
        # The same parts as common.live_etag_value, with the locale i18n.select_locale picks.
        etag = f"{game_id}.{row.version}.{self.locale(request)}.{'s' if editable else 'v'}.{part}"
        if not parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains_weak(etag):
            return None
        cache_control, vary = follow_caching(scorer, args.get("lang") in self.languages)
        headers = [
            ("ETag", f'W/"{etag}"'),
            ("Cache-Control", cache_control),
            ("Vary", vary),
            *HEADERS.items(),
        ]
        if environ.get("wsgi.url_scheme") == "https":
            headers.append(("Strict-Transport-Security", "max-age=31536000"))
        return headers

    def locale(self, request: Request) -> str:
        chosen = request.args.get("lang")
        if chosen not in self.languages:
            chosen = request.cookies.get("lang")
        if chosen not in self.languages:
            chosen = request.accept_languages.best_match(self.languages)
        if chosen is not None:
            chosen = FORMATS.get(chosen, chosen)
        return str(chosen or self.default_locale)

    def row(self, game_id: str):
        if self.engine is None:
            from ..db import db

            with self.app.app_context():
                self.engine = db.engine
        with self.engine.connect() as conn:
            return conn.execute(LIVE_ROW, {"game_id": game_id}).one_or_none()


def _live_row():
    from ..models import Game

    return select(Game.version, Game.deleted_at, Game.edit_key_hash, Game.club_id, Game.updated_at).where(
        Game.id == bindparam("game_id")
    )


LIVE_ROW = _live_row()


def init_app(app: Flask) -> None:
    # Flask's way to wrap an app in WSGI middleware, though it types wsgi_app as a method.
    app.wsgi_app = LivePoll(app, app.wsgi_app)  # type: ignore[method-assign]
