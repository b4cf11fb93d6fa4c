"""Writes first under a crowd: the outermost WSGI layer counts requests and paces the polls.

Every request is counted in flight (:class:`scorekeeper.load.Load`), with how long it waited for
a thread when the server says (``scorekeeper serve``'s worker does). A follower's poll (a game's
``/live``, an event board's htmx poll) that waited too long, or that finds every other thread
busy under a server that does not say, is refused with ``503`` and ``Retry-After`` before any
database work. Every poll answered (200 or 304) carries ``X-Poll-After``, the seconds to wait
before the next one; the page's script follows it (docs/live-updates.md).

Only polls are ever refused: a deal, a page, an API call is served however busy the process is.
"""

from __future__ import annotations

import time

from flask import Flask

from ...load import Load, PollPolicy, follower_poll, waited

# Set by the poll's answer (livepoll.py, table.live): when the game last changed, epoch seconds.
CHANGED_AT = "scorekeeper.changed_at"
# Set by an answer of the version before the newest (livepoll.py): asked back in a second.
POLL_SOON = "scorekeeper.poll_soon"
REFUSAL = b"Busy: this page asks again in a few seconds.\n"


def is_poll(environ) -> bool:
    return follower_poll(
        environ.get("REQUEST_METHOD", ""),
        environ.get("PATH_INFO", ""),
        environ.get("HTTP_HX_REQUEST") == "true",
    )


def refusal_headers(later: int) -> list[tuple[str, str]]:
    """A refused poll's headers: "ask again in ``later`` seconds" (also the event loop's refusal,
    web/live/loopanswer.py)."""
    return [
        ("Content-Type", "text/plain; charset=utf-8"),
        ("Content-Length", str(len(REFUSAL))),
        ("Retry-After", str(later)),
        ("X-Poll-After", str(later)),
        ("Cache-Control", "no-store"),
    ]


def poll_after(load: Load, environ, others: int, wait: float | None) -> int:
    """The seconds an answered poll asks its follower to wait (X-Poll-After), from the pace and
    when the game last changed (also the event loop's answers, web/live/loopanswer.py)."""
    changed = environ.get(CHANGED_AT)
    ago = time.time() - changed if changed is not None else None
    after = load.spread(load.poll_after(others, ago, wait))
    if environ.get(POLL_SOON) and after <= load.policy.base:
        after = 1  # an earlier version, while the new one is drawn (web/live/livepoll.py)
    return after


class Shed:
    def __init__(self, wsgi_app, load: Load):
        self.wsgi_app = wsgi_app
        self.load = load

    def __call__(self, environ, start_response):
        wait = waited()
        others = self.load.enter(wait)
        try:
            if not is_poll(environ):
                return _Leaving(self.wsgi_app(environ, start_response), self.load)
            if self.load.should_shed(others, wait):
                start_response("503 SERVICE UNAVAILABLE", refusal_headers(self.load.retry_after()))
                self.load.leave()
                return [REFUSAL]

            def start(status, headers, exc_info=None):
                if status[:3] in ("200", "304"):
                    headers = [*headers, ("X-Poll-After", str(poll_after(self.load, environ, others, wait)))]
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
