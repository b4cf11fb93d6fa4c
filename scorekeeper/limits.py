"""Abuse limits (shared/spec/clubs.md, "Abuse limits"): the one place they are counted.

Counted per client address (as ProxyFix leaves it; an IPv6 address by its /64, which is what one
subscriber gets, so a new address per guess buys nothing) in Flask-Limiter's storage: Redis when
the shared cache is configured (``CACHE_REDIS_URL``), so every worker and every app server count
together; without it ``scorekeeper serve`` gives its workers one SQLite file in the instance
folder (limitstore.py), so the figures hold for the whole server; a lone process counts in memory.

Nothing is limited by default: reading and scoring never are, however many tables one address
carries. What is:

- failed credential checks (``LIMIT_FAILED_CREDENTIALS``): a view tests a presented credential
  with :func:`credential`, or calls :func:`check_credentials` before testing it and
  :func:`right_credential` or :func:`failed_credential` after. Every wrong credential of a
  request counts (three wrong keys in one request are three failures), settled when the request
  ends: the API's Bearer may be tested as a game's key, then prove to be a member's key.
  Once an address is over, a credential it has not presented correctly before is refused (429)
  *before* it is tested, the right one too: were it tested first, a refusal for the wrong ones
  only would tell the guess that hit. A credential this address *has* presented correctly
  (a scorer's key, a member's device, a director's link) is proven: never refused nor counted,
  so one careless phone or a prankster on the hall's Wi-Fi never stops the tables already
  playing. What is remembered of a proof is a keyed hash of address and credential (HMAC with
  the secret key), for a day from its last use, in the same storage (and each process's memory,
  so the hall's ordinary requests ask nothing of the storage). A credential the server hands
  out (:func:`handed`: a round's game key through its table link, the tables' links and keys in
  a director's document, a key just made) is proven for the address it is answered to. A
  request is let test no more unproven credentials than the address's windows have failures
  left (a cookie of ten member keys is no way past the figure). No credential at all (a plain
  viewer) is never a failure.
- creations (:data:`CREATIONS`): ``@limit("games")`` on a view that creates. A POST that
  created something (an answer below 400) counts; one from an address over the figure is
  refused before it does anything.

A refusal is :class:`Limited`: 429 with ``Retry-After`` in seconds, the API's JSON errors
under /api/, a short page in the reader's language elsewhere. A storage that fails (Redis down)
limits nothing: the site stays up, as a failing cache is a miss (cache.py).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar, cast

from flask import Flask, current_app, g, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import format_timedelta
from flask_babel import gettext as _
from flask_limiter import Limiter
from limits import RateLimitItem, parse_many
from werkzeug.exceptions import TooManyRequests

from . import limitstore, stores
from .lru import LocalLRU
from .settings import SettingError

log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])

CREDENTIALS = "credentials"
# What can be created, and the setting that gives its figure.
CREATIONS = {"games": "LIMIT_CREATE_GAMES", "clubs": "LIMIT_CREATE_CLUBS", "joins": "LIMIT_JOINS"}
SETTINGS = {CREDENTIALS: "LIMIT_FAILED_CREDENTIALS", **CREATIONS}
EXTENSION = "scorekeeper.limits"
# Set when RATELIMIT_STORAGE_URI was not configured (the default was taken).
DEFAULTED = "scorekeeper.limits.defaulted"
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


# How long a credential presented correctly stays proven for its address: a day from its last
# use (clubs.md: the keyed hash is kept no longer); renewed at most hourly by a process.
PROVEN_FOR = 24 * 60 * 60
RENEW_AFTER = 60 * 60
# The proofs a process keeps in memory (a hash and a time each, about 150 bytes).
PROVEN_KEPT = 50_000
# What :meth:`Limits.room` answers for a limit with no figure (or a storage that fails).
UNLIMITED = 1 << 30
PROVEN = stores.store("proven_credentials", PROVEN_KEPT, doc="credentials this address has proven")


@dataclass
class Limits:
    """An app's limits: Flask-Limiter's strategy over its storage, and each limit's windows."""

    limiter: Limiter
    windows: dict[str, list[RateLimitItem]]
    prefix: str
    secret: bytes = b""
    # Proofs this process has seen (key -> until when), so a proven credential costs no storage.
    proven_here: LocalLRU[str, float] = field(default_factory=lambda: LocalLRU(PROVEN_KEPT))
    # (init_app gives the app's registered store, PROVEN: listed and cleared with the others.)

    def _keys(self, name: str, address: str) -> tuple[str, ...]:
        return (self.prefix, name, address) if self.prefix else (name, address)

    def room(self, name: str, address: str) -> tuple[int, int]:
        """How many more ``address`` may count against limit ``name`` now (:data:`UNLIMITED`: no
        limit), and the seconds until its fullest window frees one."""
        if not self.limiter.enabled or not self.windows[name]:
            return UNLIMITED, 0
        keys = self._keys(name, address)
        stats = []
        try:
            for item in self.windows[name]:
                reset, remaining = self.limiter.limiter.get_window_stats(item, *keys)
                stats.append((max(remaining, 0), reset))
        except Exception:  # a limit's storage that fails must never fail the request
            log.warning("rate limit storage failed: %s not checked", name, exc_info=True)
            return UNLIMITED, 0
        least = min(remaining for remaining, _reset in stats)
        longest = max(max(reset - time.time(), 1) for remaining, reset in stats if remaining == least)
        return least, math.ceil(longest)

    def wait(self, name: str, address: str) -> int:
        """Seconds until ``address`` is under limit ``name`` again; 0: it is now."""
        left, wait = self.room(name, address)
        return wait if left <= 0 else 0

    def hit(self, name: str, address: str, times: int = 1) -> None:
        if not self.limiter.enabled or times < 1:
            return
        keys = self._keys(name, address)
        try:
            for item in self.windows[name]:
                # One by one: a window refuses a cost that does not fit whole, and counts nothing.
                for _ in range(min(times, item.amount)):
                    if not self.limiter.limiter.hit(item, *keys):
                        break
        except Exception:
            log.warning("rate limit storage failed: %s not counted", name, exc_info=True)

    def proof(self, address: str, credential: str) -> str:
        """The storage's name for "``address`` presented ``credential`` correctly": a keyed hash,
        so neither the credential nor whose it is can be read from the storage."""
        digest = hmac.new(self.secret, f"{address}\0{credential}".encode(), hashlib.sha256).hexdigest()[:32]
        return "/".join((*self._keys("proven", address), digest))

    def proven(self, address: str, credential: str) -> bool:
        """Whether ``address`` has presented ``credential`` correctly within the last day."""
        name = self.proof(address, credential)
        now = time.time()
        until = self.proven_here.get(name)
        if until is not None and until > now:
            return True
        try:
            storage = self.limiter.limiter.storage
            if storage.get(name) <= 0:
                return False
            self.proven_here.put(name, storage.get_expiry(name))
        except Exception:
            log.warning("rate limit storage failed: a proof not read", exc_info=True)
            return False
        return True

    def prove(self, address: str, credential: str) -> None:
        """``address`` presented ``credential`` correctly: proven for a day from now."""
        if not self.limiter.enabled:
            return
        name = self.proof(address, credential)
        now = time.time()
        until = self.proven_here.get(name)
        if until is not None and until - now > PROVEN_FOR - RENEW_AFTER:
            return
        try:
            storage = self.limiter.limiter.storage
            storage.clear(name)  # a day from this use, not from the first
            storage.incr(name, PROVEN_FOR)
        except Exception:
            log.warning("rate limit storage failed: a proof not kept", exc_info=True)
            return
        self.proven_here.put(name, now + PROVEN_FOR)


def default_storage(config: Any) -> str:
    """Redis when the shared cache is configured; else each process's memory (``scorekeeper serve``
    names its workers' shared file instead, :func:`shared_storage`)."""
    return str(config.get("CACHE_REDIS_URL") or "memory://")


def shared_storage(app: Flask) -> str | None:
    """For ``scorekeeper serve``: the URI its worker processes should count in together, when the
    app would count in each process's memory (no Redis, no storage of the operator's); else None."""
    if app.config.get("RATELIMIT_STORAGE_URI") != "memory://" or not app.extensions.get(DEFAULTED):
        return None
    return limitstore.uri_for(Path(app.instance_path) / "limits.sqlite3")


def init_app(app: Flask) -> None:
    config = app.config
    # Only the configured Redis, never the environment's that a test's app reads for its cache
    # (cache.py): a test's app counts from nothing. A deployment's setting is in its config.
    if not config.get("RATELIMIT_STORAGE_URI"):
        config["RATELIMIT_STORAGE_URI"] = default_storage(config)
        app.extensions[DEFAULTED] = True
    # "10 a minute" means any 60 seconds, not 20 across the turn of a clock minute.
    config.setdefault("RATELIMIT_STRATEGY", "moving-window")
    # Sites sharing one Redis count apart, and app servers of one site (one database) together.
    database = hashlib.sha256(str(config["SQLALCHEMY_DATABASE_URI"]).encode()).hexdigest()[:8]
    config.setdefault("RATELIMIT_KEY_PREFIX", f"sk:{database}")
    windows = figures(app)
    # No default limits: Flask-Limiter's own check then finds nothing to count on any route.
    limiter = Limiter(client_address, app=app)
    # The proofs' key is made from the secret key when first needed: it may be generated at start.
    app.extensions[EXTENSION] = Limits(
        limiter, windows, str(config.get("RATELIMIT_KEY_PREFIX") or ""), proven_here=PROVEN.of(app)
    )
    app.register_error_handler(Limited, refused)
    app.teardown_request(settle)


def _limits(app: Flask | None = None) -> Limits | None:
    found = cast("Limits | None", (app or current_app).extensions.get(EXTENSION))
    if found is not None and not found.secret:
        key = (app or current_app).secret_key
        key = key if isinstance(key, bytes) else str(key).encode()
        found.secret = hmac.new(key, b"scorekeeper.limits.proofs", hashlib.sha256).digest()
    return found


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
    when they created (an answer below 400 that is no repeat; a form sent back with errors
    created nothing)."""
    if name not in CREATIONS:
        raise ValueError(f"no creation limit called {name!r}: one of {', '.join(CREATIONS)}")

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> ResponseReturnValue:
            if request.method in READS:
                return view(*args, **kwargs)
            check(name)
            response = make_response(view(*args, **kwargs))
            # A repeat of a call already made (Idempotent-Replayed) answers the first one: it made nothing.
            if response.status_code < 400 and "Idempotent-Replayed" not in response.headers:
                hit(name)
            return response

        return cast(F, wrapper)

    return decorate


@dataclass
class Judged:
    """This request's credentials as tested so far: settled when the request ends."""

    right: set[str] = field(default_factory=set)
    wrong: set[str] = field(default_factory=set)
    # The unproven credentials let through to be tested, and how many failures the address's
    # windows had room for when first asked (once per request): a request may test no more
    # unproven credentials than there is room for, however many one cookie carries (issue 57, P5).
    admitted: set[str] = field(default_factory=set)
    room: int | None = None
    wait: int = 0


def _judged() -> Judged:
    found = g.get("_limits_judged")
    if found is None:
        found = g._limits_judged = Judged()
    return found


# What a failure recorded without naming its credential is counted as (once per request).
UNNAMED = "\0unnamed"


def check_credentials(*presented: str | None) -> None:
    """Before credentials are tested: refuse (429) an address that has no room left for them,
    unless every one presented is proven for it (presented correctly before). Each unproven one
    may prove wrong: a request is let test no more unproven credentials than the address's
    windows have failures left (10 keys in one member cookie at the 9th failure of the minute
    are refused untested, not tested all and counted past the figure). Naming none (or only
    empty ones) is one unproven."""
    state = _limits()
    if state is None or not state.limiter.enabled:
        return
    named = [p for p in presented if p]
    address = client_address()
    unproven = {p for p in named if not state.proven(address, p)}
    if named and not unproven:
        return
    judged = _judged()
    new = (unproven or {UNNAMED}) - judged.admitted
    if not new:
        return
    if judged.room is None:
        judged.room, judged.wait = state.room(CREDENTIALS, address)
    if len(judged.admitted) + len(new) > judged.room:
        raise Limited(CREDENTIALS, max(judged.wait, 1))
    judged.admitted |= new


def failed_credential(presented: str | None = None) -> None:
    """``presented`` was wrong (for what it was tested as): it counts when the request ends,
    unless it proved right for something else in it, or this address has proven it before."""
    _judged().wrong.add(presented or UNNAMED)


def right_credential(presented: str | None) -> None:
    """``presented`` was right: proven for this address from now on."""
    if not presented:
        return
    _judged().right.add(presented)
    state = _limits()
    if state is not None:
        state.prove(client_address(), presented)


def handed(*credentials: str | None) -> None:
    """The server gives this request's caller ``credentials``: proven for its address from now on,
    as if presented correctly. Only for a caller who proved a credential in this request (a table
    link handing its round's game key, a director's document handing the tables' links and keys)
    or who has just created what they open (a new game's key, a new event's director key): the
    phone that then presents them at a round change is never refused, however many wrong links a
    prankster sends from the same address (issue 57, N1)."""
    state = _limits()
    if state is None or not state.limiter.enabled:
        return
    address = client_address()
    for given in credentials:
        if given:
            state.prove(address, given)


def credential(presented: str | None, matches: Callable[[str], bool]) -> bool:
    """Whether ``presented`` is right (``matches`` tests it), under the failed-credential limit.

    Nothing presented is no failure; otherwise an address over its failures is refused before
    the test (unless this one is proven for it), and a wrong one counts."""
    if not presented:
        return False
    check_credentials(presented)
    if matches(presented):
        right_credential(presented)
        return True
    failed_credential(presented)
    return False


def settle(_error: BaseException | None = None) -> None:
    """At the end of a request: one failure for each wrong credential it carried (a wrong key
    that another test found right, or that this address proved before, is none)."""
    judged = g.pop("_limits_judged", None)
    if judged is None or not judged.wrong:
        return
    try:
        state = _limits()
        if state is None:
            return
        address = client_address()
        wrong = [w for w in judged.wrong - judged.right if w == UNNAMED or not state.proven(address, w)]
        state.hit(CREDENTIALS, address, len(wrong))
    except Exception:  # counting must never fail the answer already given
        log.warning("rate limit: failures of a request not counted", exc_info=True)


def refuses_credentials(app: Flask, remote_addr: str | None, presented: str | None = None) -> bool:
    """Whether ``app`` refuses ``presented`` from this address now, before testing it (for what
    answers below Flask): the address is over its failures and has not proven it."""
    state = _limits(app)
    if state is None or not state.limiter.enabled:
        return False
    address = address_key(remote_addr)
    if presented and state.proven(address, presented):
        return False
    return state.wait(CREDENTIALS, address) > 0


def refused(error: Limited) -> ResponseReturnValue:
    if request.path.startswith("/api/"):
        response = jsonify({"errors": [{"field": None, "message": error.description}]})
    else:
        wait = format_timedelta(timedelta(seconds=error.wait), threshold=1)
        # An htmx request for a fragment gets the fragment (web.regions.is_htmx's rule; limits sit
        # below the web, so it reads the two headers itself).
        fragment = request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"
        template = "_error.html" if fragment else "error.html"
        message = page_message(error.what, wait)
        response = make_response(render_template(template, code=429, message=message))
    response.status_code = 429
    response.headers["Retry-After"] = str(error.wait)
    response.headers["Cache-Control"] = "no-store"
    return response
