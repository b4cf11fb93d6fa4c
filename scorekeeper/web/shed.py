"""Writes first under a crowd: the outermost WSGI layer counts requests and paces the polls.

Every request is counted in flight (:class:`scorekeeper.load.Load`). A follower's poll (a game's
``/live``, an event board's htmx poll) is refused with ``503`` and ``Retry-After`` when every
other thread of this process is busy, before any database work: the thread stays free for the
scorer's deal that comes next. Every poll answered (200 or 304) carries ``X-Poll-After``, the
seconds to wait before the next one; the page's script follows it (docs/live-updates.md).

Only polls are ever refused: a deal, a page, an API call is served however busy the process is.
"""

from __future__ import annotations

import re
import time

from flask import Flask

from ..load import Load, PollPolicy

# What a follower polls: a game's followed regions (a seat's console's too), and an event's board
# (htmx asks for it).
GAME_POLL = re.compile(r"/g/[A-Za-z0-9_-]{1,32}(?:/p/\d{1,4}/[A-Za-z0-9_-]{1,64})?/live")
BOARD_POLL = re.compile(r"/e/[A-Za-z0-9_-]{1,32}/board")
# Set by the poll's answer (livepoll.py, table.live): when the game last changed, epoch seconds.
CHANGED_AT = "scorekeeper.changed_at"
REFUSAL = b"Busy: this page asks again in a few seconds.\n"


def is_poll(environ) -> bool:
    if environ.get("REQUEST_METHOD") != "GET":
        return False
    path = environ.get("PATH_INFO", "")
    if GAME_POLL.fullmatch(path):
        return True
    return bool(BOARD_POLL.fullmatch(path)) and environ.get("HTTP_HX_REQUEST") == "true"


class Shed:
    def __init__(self, wsgi_app, load: Load):
        self.wsgi_app = wsgi_app
        self.load = load

    def __call__(self, environ, start_response):
        others = self.load.enter()
        try:
            if not is_poll(environ):
                return _Leaving(self.wsgi_app(environ, start_response), self.load)
            if self.load.should_shed(others):
                wait = str(self.load.retry_after())
                start_response(
                    "503 SERVICE UNAVAILABLE",
                    [
                        ("Content-Type", "text/plain; charset=utf-8"),
                        ("Content-Length", str(len(REFUSAL))),
                        ("Retry-After", wait),
                        ("X-Poll-After", wait),
                        ("Cache-Control", "no-store"),
                    ],
                )
                self.load.leave()
                return [REFUSAL]

            def start(status, headers, exc_info=None):
                if status[:3] in ("200", "304"):
                    changed = environ.get(CHANGED_AT)
                    ago = time.time() - changed if changed is not None else None
                    headers = [*headers, ("X-Poll-After", str(self.load.poll_after(others, ago)))]
                return start_response(status, headers, exc_info)

            return _Leaving(self.wsgi_app(environ, start), self.load)
        except BaseException:
            self.load.leave()
            raise


class _Leaving:
    """The answer's body; the request leaves the count when the server closes it (sent or not)."""

    def __init__(self, body, load: Load):
        self.body = body
        self.load = load
        self.closed = False

    def __iter__(self):
        return iter(self.body)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.load.leave()


def init_app(app: Flask) -> None:
    policy = PollPolicy(
        base=int(app.config["LIVE_POLL_SECONDS"]),
        ceiling=max(int(app.config["LIVE_POLL_SECONDS"]), int(app.config["LIVE_POLL_CEILING"])),
    )
    load = Load(int(app.config["SERVER_THREADS"]), policy)
    app.extensions["scorekeeper.load"] = load
    # Flask's documented way to wrap the app in middleware; its types see a method there.
    app.wsgi_app = Shed(app.wsgi_app, load)  # type: ignore[method-assign]
