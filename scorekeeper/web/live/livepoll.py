"""An unchanged ``/g/<id>/live`` poll answered below Flask: one indexed query, then 304.

Every open game page polls ``/live`` every few seconds, and almost every poll
finds the game unchanged. Such a poll needs only the game's version, whether
it is deleted and its key hash (for the role): one primary-key query on a
pooled connection. It opens no Flask context, no session and no template,
sets no cookie, and carries the same headers as the view's 304 (the ETag,
its caching, Vary and the security headers).

A changed game's poll by a viewer, on a URL naming its language (the answer a
shared cache may keep), is answered here too when a worker already drew that
version: the answer kept whole, as sent (web/live/answers.py). The first poll of a
version goes on to the view, and its answer is kept on the way out.

Anything else (a scorer's poll, a deleted game, an unknown one, any surprise)
goes on to the view in ``table.live``, which stays the one place that
renders; the ETag comes from the same ``live_etag_value`` parts.
"""

from __future__ import annotations

import io
import logging
import re
import threading
import time
from collections.abc import Collection
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import Engine, bindparam, select
from werkzeug.http import parse_etags
from werkzeug.wrappers import Request

from ... import limits
from ...i18n import FORMATS
from ...keys import key_matches
from ...rules.base import read_whole
from ...service.gate import AFTER_COMMIT
from ..cookies import KEY_COOKIE
from ..etags import changed_at, follow_caching
from ..security import HEADERS
from .answers import ASKED, AnswerStore, Asks
from .shed import CHANGED_AT, POLL_SOON

log = logging.getLogger(__name__)
PATH = re.compile(r"/g/([A-Za-z0-9_-]{1,32})/live")
PARTS = ("live", "board")
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# What the view marks a region's answer with when it is what changed since a version (table.live).
DELTA = "x-live-delta"
# Set on the environ of a region drawn by a write (not asked by a phone): never marks it followed,
# never answered with an earlier version.
DRAWING = "scorekeeper.drawing"
# How long after a change a poll is answered from the version before, while the write draws the new
# one (under a second when it draws at all): after that, the poll draws it.
DRAWING_GRACE = 2.0
# The request headers a drawing copies from the write's request: where the app is (scheme, host,
# prefix, behind a proxy), never who asked (no cookie, no credential).
PLACE = (
    "wsgi.url_scheme",
    "wsgi.version",
    "wsgi.errors",
    "wsgi.multithread",
    "wsgi.multiprocess",
    "wsgi.run_once",
    "SERVER_NAME",
    "SERVER_PORT",
    "SERVER_PROTOCOL",
    "SCRIPT_NAME",
    "HTTP_HOST",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_FORWARDED_PREFIX",
)

# The games the write on this thread changed (service.gate's hook adds them), drawn after it.
_writing = threading.local()


def changed(game_id: str, version: int) -> None:
    """service.gate's after-commit hook: a game this thread's write changed, to draw after it."""
    games = getattr(_writing, "games", None)
    if games is not None:
        games[game_id] = version


@dataclass(frozen=True)
class Keep:
    """The view answers this poll; its answer is kept at ``path`` if a shared cache could keep it.

    ``since``: the page's version, when it asked for what changed since (X-Live-Since): the view
    draws that (about half a whole region's drawing), kept beside the region's whole answer for
    the other phones at that version (the same as the write would have drawn it)."""

    path: Path
    stamp: str
    etag: str
    since: str = ""


class LivePoll:
    def __init__(self, app: Flask, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app
        self.engine: Engine | None = None
        self.languages = tuple(app.config["LANGUAGES"])
        self.default_locale = str(app.config.get("BABEL_DEFAULT_LOCALE") or "en")
        self._answers: AnswerStore | None = None
        self._asks: Asks | None = None
        # Games whose drawing waits in the pool (scorekeeper serve): one drawing each.
        self._pending: set[str] = set()
        self._pending_lock = threading.Lock()

    @property
    def answers(self) -> AnswerStore | None:
        """Where viewers' answers are kept (``LIVE_ANSWERS_DIR``), or None: not kept."""
        folder = self.app.config.get("LIVE_ANSWERS_DIR")
        if not folder:
            return None
        if self._answers is None or str(self._answers.root) != str(folder):
            self._answers = AnswerStore(Path(folder))
        return self._answers

    @property
    def asks(self) -> Asks:
        """Which viewers' regions are followed (shared under ``LIVE_ANSWERS_DIR``, else this process's)."""
        folder = self.app.config.get("LIVE_ANSWERS_DIR")
        root = Path(folder) if folder else None
        if self._asks is None or self._asks.root != root:
            self._asks = Asks(root, ASKED.of(self.app))
        return self._asks

    def __call__(self, environ, start_response):
        if (
            environ.get("REQUEST_METHOD") in WRITES
            and self.app.config.get("LIVE_DRAW_ON_WRITE", True)
            # Only where the server draws beside its writes (scorekeeper serve's pool): a sync
            # worker (gunicorn's, the dev server's) drawing before the write's answer served 25%
            # fewer API deals a second (benchmarks/run.py), so there the first poll draws, as before.
            and "scorekeeper.draw_later" in self.app.extensions
        ):
            return self.writing(environ, start_response)
        if environ.get("REQUEST_METHOD") == "GET" and (
            environ.get("HTTP_IF_NONE_MATCH") or self.app.config.get("LIVE_ANSWERS_DIR")
        ):
            match = PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match and self.app.config.get("LIVE_FAST_PATH", True):
                try:
                    game_id = match.group(1)
                    fast = self.answer(environ, game_id, self.row(game_id))
                except Exception:  # the view answers whatever this could not
                    log.warning("live fast path failed", exc_info=True)
                    fast = None
                if isinstance(fast, Keep):
                    return self.keeping(environ, start_response, fast)
                if fast is not None:
                    status, headers, body = fast
                    start_response(status, headers)
                    return body
        return self.wsgi_app(environ, start_response)

    def answer(
        self, environ, game_id: str, row: Any
    ) -> tuple[str, list[tuple[str, str]], list[bytes]] | Keep | None:
        """The answer given here (a 304, or a viewer's kept 200), what to keep of the view's, or None.

        ``row`` is the game's row as its caller read it (:meth:`row`, :meth:`rows`; None: no such
        game): a write's drawing has it already, and the event loop reads a turn's polls' at once."""
        request = Request(environ, populate_request=False)
        args = request.args
        part = args.get("part")
        # NUL anywhere is the view's 400 (security.refuse_nul); several ``part``s are its business too.
        if part not in PARTS or len(args.getlist("part")) != 1:
            return None
        if any("\x00" in k + v for k, v in args.items(multi=True)):
            return None
        if row is None or row.deleted_at is not None:
            return None
        environ[CHANGED_AT] = changed_at(row.updated_at)
        # As table.live decides: the scorer only on the scorer's URL with the game's key.
        scorer = args.get("as") == "scorer"
        editable = scorer and key_matches(row.edit_key_hash, request.cookies.get(KEY_COOKIE))
        if editable and limits.refuses_credentials(
            self.app, request.remote_addr, request.cookies.get(KEY_COOKIE)
        ):
            # The view refuses this address's keys before testing them: a 304 here for the
            # right key only would answer a guess the view would not.
            return None
        # The same parts as etags.live_etag_value, with the locale i18n.select_locale picks.
        locale = self.locale(request)
        etag = f"{game_id}.{row.version}.{locale}.{'s' if editable else 'v'}.{part}"
        secure = environ.get("wsgi.url_scheme") == "https"
        drawing = environ.get(DRAWING, False)
        lang = args.get("lang")
        if not scorer and lang is not None and lang in self.languages and not drawing:
            # A viewer follows this region: the game's writes draw it for the polls to come.
            since = bool(environ.get("HTTP_X_LIVE_SINCE"))
            self.asks.mark(game_id, part, lang, environ.get("HTTP_ACCEPT_ENCODING", ""), since)
        inm = environ.get("HTTP_IF_NONE_MATCH")
        if inm and parse_etags(inm).contains_weak(etag):
            cache_control, vary = follow_caching(scorer, args.get("lang") in self.languages)
            headers = [
                ("ETag", f'W/"{etag}"'),
                ("Cache-Control", cache_control),
                ("Vary", vary),
                *HEADERS.items(),
            ]
            return "304 NOT MODIFIED", with_scheme(headers, secure), []
        answers = self.answers
        if answers is None or scorer or args.get("lang") not in self.languages:
            return None  # only a viewer's answer on a URL naming its language is the same for all
        path = answers.path(game_id, part, locale, environ.get("HTTP_ACCEPT_ENCODING", ""))
        # The version and the last change: a game restored under an old id is another history.
        stamp = f"{etag} {row.updated_at}"
        since = environ.get("HTTP_X_LIVE_SINCE", "").removeprefix("W/").strip('"')
        if since and not drawing:
            # What changed since the page's version, drawn by the write (table.live_delta).
            delta = answers.get(answers.delta_path(path, since), f"{stamp} since {since}")
            if delta is not None:
                return "200 OK", with_scheme(delta[0], secure), [delta[1]]
        kept = answers.get(path, stamp)
        if kept is None:
            earlier = None if drawing else self.earlier(answers, path, game_id, row)
            if earlier is None:
                if since and not drawing:
                    # What changed since the page's version, drawn by the view (or the whole region,
                    # where changes will not do) and kept: the next phones at that version read it.
                    return Keep(path, stamp, etag, since)
                # Drawn whole by the view, as every phone may be answered, and kept so.
                environ.pop("HTTP_X_LIVE_SINCE", None)
                return Keep(path, stamp, etag)
            # The game changed a moment ago and its write is drawing the new version: the version
            # before, asked again in a second, rather than a second drawing of the same version.
            environ[POLL_SOON] = True
            headers, body = earlier
            before = next((v for k, v in headers if k.lower() == "etag"), "")
            if inm and before and parse_etags(inm).contains_weak(before.removeprefix("W/").strip('"')):
                kept_headers = [(k, v) for k, v in headers if k.lower() in ("etag", "cache-control", "vary")]
                return "304 NOT MODIFIED", with_scheme([*kept_headers, *HEADERS.items()], secure), []
            return "200 OK", with_scheme(headers, secure), [body]
        headers, body = kept
        return "200 OK", with_scheme(headers, secure), [body]

    def earlier(self, answers: AnswerStore, path: Path, game_id: str, row) -> tuple[list, bytes] | None:
        """The answer kept for the version just before the game's newest, if that changed a moment
        ago (its write is drawing it); else None."""
        if time.time() - changed_at(row.updated_at) > DRAWING_GRACE:
            return None
        if answers.drawn_next(game_id) != row.version:
            return None  # no drawing of this version on its way here (another server's write)
        found = answers.get_any(path)
        if found is None:
            return None
        stamp, headers, body = found
        version = stamp.split(" ", 1)[0].split(".")
        # The ETag's parts: game, version, locale, role, part. Only this game's, and only older.
        kept = read_whole(version[1], 9) if len(version) >= 2 and version[0] == game_id else None
        if kept is None or not kept < row.version:
            return None
        return headers, body

    def keeping(self, environ, start_response, keep: Keep):
        """The view's answer, kept for the next polls that ask the same: whole where a shared cache
        could keep it (public, no cookie); for a page that asked what changed since its version
        (``keep.since``), that delta, beside the region's answer, for the pages at that version
        (marked private only because it varies by X-Live-Since: a proxy never shares it). Only
        the version asked for: a write that came between answers another one, kept by nobody."""
        seen: list = []

        def start(status, headers, exc_info=None):
            seen[:] = [status, headers]
            return start_response(status, headers, exc_info)

        body = self.wsgi_app(environ, start)
        answers = self.answers
        if not seen or not seen[0].startswith("200 ") or answers is None:
            return body
        headers = seen[1]
        named = {k.lower(): v for k, v in headers}
        if "set-cookie" in named or named.get("etag") != f'W/"{keep.etag}"':
            return body
        if keep.since and DELTA in named:
            path, stamp = answers.delta_path(keep.path, keep.since), f"{keep.stamp} since {keep.since}"
        elif named.get("cache-control", "").startswith("public"):
            path, stamp = keep.path, keep.stamp
        else:
            return body
        data = drained(body)
        answers.put(path, stamp, headers, data)
        return [data]

    def writing(self, environ, start_response):
        """A write, then its changed games' followed regions drawn (issue 40): once per change, by the
        write, so that the polls that follow are answered from what it drew and never draw.

        Drawn after the write's own request is done (its contexts popped, its transaction
        committed), as a phone's poll would be, by a thread of ``scorekeeper serve``'s pool, after
        every waiting write, in turn with the polls (scorekeeper/serve/worker.py), so a deal's answer
        never waits for its followers' drawing. Past the pool's bound (``later`` says no), the
        first poll of the version draws it, as without this."""
        outer = getattr(_writing, "games", None)
        _writing.games = games = {}
        try:
            body = self.wsgi_app(environ, start_response)
        finally:
            _writing.games = outer
        place = {k: v for k, v in environ.items() if k in PLACE}
        later = self.app.extensions.get("scorekeeper.draw_later")
        for game_id, version in games.items():
            if later is not None:
                # Polls of this version meanwhile are answered from the one before (earlier()):
                # only where its drawing is on its way, in this server (another server's write
                # is drawn by the first poll here, never answered stale).
                if self.answers is not None:
                    self.answers.drawing(game_id, version)
                # scorekeeper serve: drawn by a thread of the pool, after the writes, among the
                # polls; a game already waiting for its drawing is drawn once, at its newest.
                with self._pending_lock:
                    if game_id in self._pending:
                        continue
                    self._pending.add(game_id)
                if not later(partial(self.draw_pending, game_id, place)):
                    with self._pending_lock:
                        self._pending.discard(game_id)
                    if self.answers is not None:
                        self.answers.drawn(game_id, version)  # left to the polls
                continue
            self.draw_safely(game_id, place)
        return body

    def draw_pending(self, game_id: str, place: dict) -> None:
        with self._pending_lock:
            self._pending.discard(game_id)
        self.draw_safely(game_id, place)

    def draw_safely(self, game_id: str, place: dict) -> None:
        try:
            self.draw(game_id, place)
        except Exception:  # the write is done; a poll draws what this could not
            log.warning("live answer not drawn on write", exc_info=True)

    def draw(self, game_id: str, place: dict | None = None) -> int:
        """Draw each followed viewer's region of ``game_id`` at its newest version; how many drawn.

        Asked as a phone would ask it (same URL, same ``Accept-Encoding``, no cookie), through the
        view: kept whole where the workers share answers (``LIVE_ANSWERS_DIR``), else the view's
        drawing kept in the shared cache under its ETag (table.live), where the polls find it.
        Only what was asked: the whole region for the polls that ask for it (a proxy's cache, a
        page without the script), what changed since the version before (table.live_delta) for
        the pages that ask for what changed (``X-Live-Since``). Drawing both for every change
        drew twice what any one poll takes: behind nginx, which clears X-Live-Since, no delta was
        ever sent; a page's own polls take the delta, and a page too far behind draws the whole."""
        drawn = 0
        asks = self.asks.followed(game_id)
        row = self.row(game_id) if asks else None
        if row is None or row.deleted_at is not None:
            return 0
        wholes = {(part, lang, encoding) for part, lang, encoding, since in asks if not since}
        deltas = {(part, lang, encoding) for part, lang, encoding, since in asks if since}
        if row.version == 1:
            # No version before to say what changed since: the whole region.
            wholes |= deltas
            deltas = set()
        for part, lang, encoding in sorted(wholes):
            environ = self.asked(game_id, part, lang, encoding, place)
            fast = self.answer(environ, game_id, row) if self.answers is not None else None
            if self.answers is None or isinstance(fast, Keep):
                status, _headers, _data = self.call(
                    self.keeping if isinstance(fast, Keep) else None, environ, fast
                )
                drawn += status.startswith("200")
        for part, lang, encoding in sorted(deltas):
            drawn += self.draw_delta(game_id, part, lang, encoding, place, row)
        if self.answers is not None:
            self.answers.drawn(game_id, row.version)
        return drawn

    def draw_delta(self, game_id: str, part: str, lang: str, encoding: str, place, row) -> int:
        """What changed since the version before ``row``'s, as a page drawn at it asks (X-Live-Since)."""
        environ = self.asked(game_id, part, lang, encoding, place)
        locale = self.locale(Request(environ, populate_request=False))
        since = f"{game_id}.{row.version - 1}.{locale}.v.{part}"
        answers = self.answers
        etag = f"{game_id}.{row.version}.{locale}.v.{part}"
        if answers is not None:
            path = answers.path(game_id, part, locale, encoding)
            if (
                answers.get(answers.delta_path(path, since), f"{etag} {row.updated_at} since {since}")
                is not None
            ):
                return 0  # a poll at that version came first and drew it (keeping)
        environ["HTTP_X_LIVE_SINCE"] = f'W/"{since}"'
        status, headers, data = self.call(None, environ, None)
        named = {k.lower(): v for k, v in headers}
        if not status.startswith("200") or DELTA not in named or named.get("etag") != f'W/"{etag}"':
            return 0  # the whole region only (or a write came between)
        if answers is not None:
            path = answers.path(game_id, part, locale, encoding)
            answers.put(
                answers.delta_path(path, since), f"{etag} {row.updated_at} since {since}", headers, data
            )
        return 1

    def asked(self, game_id: str, part: str, lang: str, encoding: str, place) -> dict:
        """The environ of a follower's poll of this region, drawn by a write (no cookie, no ETag)."""
        environ = {k: v for k, v in (place or {}).items() if k in PLACE}
        environ.setdefault("wsgi.url_scheme", "http")
        environ.setdefault("SERVER_NAME", "localhost")
        environ.setdefault("SERVER_PORT", "80")
        environ.setdefault("SERVER_PROTOCOL", "HTTP/1.1")
        environ.setdefault("wsgi.errors", io.StringIO())
        environ.update(
            {
                "REQUEST_METHOD": "GET",
                "PATH_INFO": f"/g/{game_id}/live",
                "QUERY_STRING": f"part={part}&lang={lang}",
                "REMOTE_ADDR": "127.0.0.1",
                "HTTP_HX_REQUEST": "true",
                "wsgi.input": io.BytesIO(b""),
                DRAWING: True,
            }
        )
        if encoding:
            environ["HTTP_ACCEPT_ENCODING"] = encoding
        return environ

    def call(self, keeping, environ, keep) -> tuple[str, list[tuple[str, str]], bytes]:
        """The app's answer to ``environ`` (through ``keeping`` when it is to be kept), read whole."""
        seen: list = ["", []]

        def start(status, headers, exc_info=None):
            seen[:] = [status, headers]
            return lambda data: None

        body = keeping(environ, start, keep) if keeping is not None else self.wsgi_app(environ, start)
        return seen[0], seen[1], drained(body)

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
        with self.connect() as conn:
            return conn.execute(LIVE_ROW, {"game_id": game_id}).one_or_none()

    def rows(self, game_ids: Collection[str]) -> dict[str, Any]:
        """The rows of several games in one query, by id (a game not found is absent): the event
        loop's answers to a turn's polls (web/live/loopanswer.py). Read one by one, each poll's query
        was about half of its answer's cost, and gave up the interpreter lock a few times, each
        time waiting to get it back from the threads drawing and writing."""
        if not game_ids:
            return {}
        with self.connect() as conn:
            return {row.id: row for row in conn.execute(LIVE_ROWS, {"ids": list(game_ids)})}

    def connect(self):
        if self.engine is None:
            from ...db import db

            with self.app.app_context():
                self.engine = db.engine
        return self.engine.connect()


def _live_rows():
    """What a poll's answer reads of its game: one game's row (by ``game_id``), and several's (by
    ``ids``: the event loop's polls, read together). Built once, and the view's poll (table.live)
    reads the same statement: a second statement of the same shape shares its compiled form, and
    each run of it rebuilt the result's columns (SQLAlchemy's ``_adapt_to_context``), a third of a
    304's cost (benchmarks/run.py: /live 304 at 0.77 of the bare app against 0.90)."""
    from ...models import Game

    columns = (Game.id, Game.version, Game.deleted_at, Game.edit_key_hash, Game.club_id, Game.updated_at)
    return (
        select(*columns).where(Game.id == bindparam("game_id")),
        select(*columns).where(Game.id.in_(bindparam("ids", expanding=True))),
    )


LIVE_ROW, LIVE_ROWS = _live_rows()


def init_app(app: Flask) -> None:
    # Flask's way to wrap an app in WSGI middleware, though it types wsgi_app as a method.
    poll = LivePoll(app, app.wsgi_app)
    app.wsgi_app = poll  # type: ignore[method-assign]
    app.extensions["scorekeeper.livepoll"] = poll  # the worker answers kept polls in its event loop
    if changed not in AFTER_COMMIT:
        AFTER_COMMIT.append(changed)


def with_scheme(headers: list[tuple[str, str]], secure: bool) -> list[tuple[str, str]]:
    """An answer's headers, with HSTS over HTTPS as web/security.py adds it."""
    return [*headers, ("Strict-Transport-Security", "max-age=31536000")] if secure else headers


def drained(body) -> bytes:
    """A WSGI answer's bytes, its iterable closed as the WSGI contract asks of whoever reads it."""
    try:
        return b"".join(body)
    finally:
        close = getattr(body, "close", None)
        if close is not None:
            close()
