"""Abuse limits (shared/spec/clubs.md, "Abuse limits"): the one place they are counted.

Counted per client address (as ProxyFix leaves it; an IPv6 address by its /64, which is what one
subscriber gets, so a new address per guess buys nothing) in Flask-Limiter's storage: Redis when
the shared cache is configured (``CACHE_REDIS_URL``), so every worker and every app server count
together; each process on its own otherwise.

Nothing is limited by default: reading and scoring never are, however many tables one address
carries. What is:

- failed credential checks (``LIMIT_FAILED_CREDENTIALS``): a view tests a presented credential
  with :func:`credential`, or calls :func:`check_credentials` before testing it and
  :func:`failed_credential` when it was wrong. Only failures count; once an address is over,
  whatever credential it presents is refused (429) *before* it is tested, the right one too:
  were it tested first, a refusal for the wrong ones only would tell the guess that hit.
  No credential at all (a plain viewer) is never a failure.
- creations (:data:`CREATIONS`): ``@limit("games")`` on a view that creates. A POST that
  created something (an answer below 400) counts; one from an address over the figure is
  refused before it does anything.

A refusal is :class:`Limited`: 429 with ``Retry-After`` in seconds, the API's JSON errors
under /api/, a short page in the reader's language elsewhere. A storage that fails (Redis down)
limits nothing: the site stays up, as a failing cache is a miss (cache.py).
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Flask, current_app, g, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import format_timedelta
from flask_babel import gettext as _
from flask_limiter import Limiter
from limits import RateLimitItem, parse_many
from werkzeug.exceptions import TooManyRequests

from .settings import SettingError

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])

CREDENTIALS = "credentials"
# What can be created, and the setting that gives its figure.
CREATIONS = {"games": "LIMIT_CREATE_GAMES", "clubs": "LIMIT_CREATE_CLUBS", "joins": "LIMIT_JOINS"}
SETTINGS = {CREDENTIALS: "LIMIT_FAILED_CREDENTIALS", **CREATIONS}
EXTENSION = "scorekeeper.limits"
# Methods that only read: a form shown by a creating view is never counted nor refused.
READS = frozenset({"GET", "HEAD", "OPTIONS"})

# The API's messages are English, as all of its errors are (docs/api.md).
API_MESSAGES = {
    CREDENTIALS: "Too many wrong keys or links from this address: try again in {wait} seconds.",
    "games": "Too many new games from this address: try again in {wait} seconds.",
    "clubs": "Too many new clubs from this address: try again in {wait} seconds.",
    "joins": "Too many clubs joined from this address: try again in {wait} seconds.",
}


def page_message(what: str, wait: str) -> str:
    if what == CREDENTIALS:
        return _("Too many wrong keys or links from this address. Try again in %(wait)s.", wait=wait)
    if what == "games":
        return _("Too many new games from this address. Try again in %(wait)s.", wait=wait)
    if what == "clubs":
        return _("Too many new clubs from this address. Try again in %(wait)s.", wait=wait)
    return _("Too many clubs joined from this address. Try again in %(wait)s.", wait=wait)


class Limited(TooManyRequests):
    """An address over one of its limits: ``what`` (a name of :data:`SETTINGS`), ``wait`` seconds."""

    def __init__(self, what: str, wait: int) -> None:
        super().__init__(API_MESSAGES[what].format(wait=wait), retry_after=wait)
        self.what = what
        self.wait = wait


def address_key(remote_addr: str | None) -> str:
    """What an address is counted as: itself, or an IPv6 address's /64."""
    if not remote_addr:
        return "unknown"
    try:
        found = ipaddress.ip_address(remote_addr)
    except ValueError:
        return remote_addr
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.IPv6Network((found, 64), strict=False))
    return str(found)


def client_address() -> str:
    return address_key(request.remote_addr)


def figures(app: Flask) -> dict[str, list[RateLimitItem]]:
    """Each limit's windows from its setting ("10 per minute", "10/minute; 100/day"); empty: no limit.

    Read at start, so a figure that means nothing stops the app there, not at a request."""
    found: dict[str, list[RateLimitItem]] = {}
    for name, setting in SETTINGS.items():
        text = app.config.get(setting)
        try:
            found[name] = list(parse_many(text)) if text else []
        except (TypeError, ValueError):
            raise SettingError(
                f"{setting} must be a rate such as '10 per minute' or '10/minute; 100/day', not {text!r}"
            ) from None
    return found


@dataclass
class Limits:
    """An app's limits: Flask-Limiter's strategy over its storage, and each limit's windows."""

    limiter: Limiter
    windows: dict[str, list[RateLimitItem]]
    prefix: str

    def _keys(self, name: str, address: str) -> tuple[str, ...]:
        return (self.prefix, name, address) if self.prefix else (name, address)

    def wait(self, name: str, address: str) -> int:
        """Seconds until ``address`` is under limit ``name`` again; 0: it is now."""
        if not self.limiter.enabled or not self.windows[name]:
            return 0
        keys = self._keys(name, address)
        longest = 0.0
        try:
            for item in self.windows[name]:
                reset, remaining = self.limiter.limiter.get_window_stats(item, *keys)
                if remaining <= 0:
                    longest = max(longest, reset - time.time(), 1)
        except Exception:  # a limit's storage that fails must never fail the request
            log.warning("rate limit storage failed: %s not checked", name, exc_info=True)
            return 0
        return math.ceil(longest)

    def hit(self, name: str, address: str) -> None:
        if not self.limiter.enabled:
            return
        keys = self._keys(name, address)
        try:
            for item in self.windows[name]:
                self.limiter.limiter.hit(item, *keys)
        except Exception:
            log.warning("rate limit storage failed: %s not counted", name, exc_info=True)


def init_app(app: Flask) -> None:
    config = app.config
    # Only the configured Redis, never the environment's that a test's app reads for its cache
    # (cache.py): a test's app counts from nothing. A deployment's setting is in its config.
    config.setdefault("RATELIMIT_STORAGE_URI", config.get("CACHE_REDIS_URL") or "memory://")
    # "10 a minute" means any 60 seconds, not 20 across the turn of a clock minute.
    config.setdefault("RATELIMIT_STRATEGY", "moving-window")
    # Sites sharing one Redis count apart, and app servers of one site (one database) together.
    database = hashlib.sha256(str(config["SQLALCHEMY_DATABASE_URI"]).encode()).hexdigest()[:8]
    config.setdefault("RATELIMIT_KEY_PREFIX", f"sk:{database}")
    windows = figures(app)
    # No default limits: Flask-Limiter's own check then finds nothing to count on any route.
    limiter = Limiter(client_address, app=app)
    app.extensions[EXTENSION] = Limits(limiter, windows, str(config.get("RATELIMIT_KEY_PREFIX") or ""))
    app.register_error_handler(Limited, refused)


def _limits(app: Flask | None = None) -> Limits | None:
    return cast("Limits | None", (app or current_app).extensions.get(EXTENSION))


def check(name: str) -> None:
    """Refuse (:class:`Limited`) this request's address if it is over limit ``name``."""
    state = _limits()
    if state is None:
        return
    wait = state.wait(name, client_address())
    if wait:
        raise Limited(name, wait)


def hit(name: str) -> None:
    """Count one against limit ``name`` for this request's address."""
    state = _limits()
    if state is not None:
        state.hit(name, client_address())


def limit(name: str) -> Callable[[F], F]:
    """``@limit("games")`` under the route: its POSTs are refused over the figure, and count
    when they created (an answer below 400; a form sent back with errors created nothing)."""
    if name not in CREATIONS:
        raise ValueError(f"no creation limit called {name!r}: one of {', '.join(CREATIONS)}")

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> ResponseReturnValue:
            if request.method in READS:
                return view(*args, **kwargs)
            check(name)
            response = make_response(view(*args, **kwargs))
            if response.status_code < 400:
                hit(name)
            return response

        return cast(F, wrapper)

    return decorate


def check_credentials() -> None:
    """Before a presented credential is tested: refuse (429) an address over its failures.

    Asked of the storage once per request, however many credentials the request has tested."""
    if g.get("_limits_credentials_ok"):
        return
    check(CREDENTIALS)
    g._limits_credentials_ok = True


def failed_credential() -> None:
    """A presented credential was wrong: one failure for this address (once per request)."""
    if g.get("_limits_failed"):
        return
    g._limits_failed = True
    hit(CREDENTIALS)


def credential(presented: str | None, matches: Callable[[str], bool]) -> bool:
    """Whether ``presented`` is right (``matches`` tests it), under the failed-credential limit.

    Nothing presented is no failure; otherwise an address over its failures is refused before
    the test, and a wrong one counts."""
    if not presented:
        return False
    check_credentials()
    if matches(presented):
        return True
    failed_credential()
    return False


def refuses_credentials(app: Flask, remote_addr: str | None) -> bool:
    """Whether ``app`` refuses credentials from this address now (for what answers below Flask)."""
    state = _limits(app)
    return state is not None and state.wait(CREDENTIALS, address_key(remote_addr)) > 0


def refused(error: Limited) -> ResponseReturnValue:
    if request.path.startswith("/api/"):
        response = jsonify({"errors": [{"field": None, "message": error.description}]})
    else:
        wait = format_timedelta(timedelta(seconds=error.wait), threshold=1)
        # An htmx request for a fragment gets the fragment (web.common.is_htmx's rule; limits sit
        # below the web, so it reads the two headers itself).
        fragment = request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"
        template = "_error.html" if fragment else "error.html"
        message = page_message(error.what, wait)
        response = make_response(render_template(template, code=429, message=message))
    response.status_code = 429
    response.headers["Retry-After"] = str(error.wait)
    response.headers["Cache-Control"] = "no-store"
    return response
