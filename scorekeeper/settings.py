"""Where the settings come from: the defaults here, then ``config.py`` in the instance folder,
then the environment (``SCOREKEEPER_<NAME>``, and the plain names deployments set before).

Every setting the app reads is listed, with its default and its variable, in
docs/settings.md; tests/test_settings.py keeps that table and the code in step.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Config

from .problems import HostProblem

PREFIX = "SCOREKEEPER"


class SettingError(HostProblem):
    """A setting from the environment that cannot mean anything: the app does not start with it."""


def defaults(instance_path: str) -> dict[str, Any]:
    """The settings before ``config.py`` and the environment say otherwise."""
    return {
        # None: this instance's own random key, kept in instance/secret_key (web/security.py).
        "SECRET_KEY": None,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(instance_path) / 'scorekeeper.sqlite'}",
        # A scoring page stays open all evening: its CSRF token must not expire.
        "WTF_CSRF_TIME_LIMIT": None,
        "PERMANENT_SESSION_LIFETIME": timedelta(days=365),
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        # Request size limits: a whole game record fits well within them.
        "MAX_CONTENT_LENGTH": 1024 * 1024,
        "MAX_FORM_MEMORY_SIZE": 64 * 1024,
        "MAX_FORM_PARTS": 1000,
        "AUTO_MIGRATE": True,
        # Behind a reverse proxy: how many set X-Forwarded-* (Werkzeug's ProxyFix); 0 trusts none.
        "PROXY_FIX": 0,
        "LANGUAGES": ("en", "pl", "pt"),
        # A followed page polls every LIVE_POLL_SECONDS; under load the server asks for up to
        # LIVE_POLL_CEILING (X-Poll-After, Retry-After: docs/live-updates.md).
        "LIVE_POLL_SECONDS": 3,
        "LIVE_POLL_CEILING": 15,
        # An event's board (the hall's TV) asks for the standings every BOARD_REFRESH_SECONDS.
        "BOARD_REFRESH_SECONDS": 10,
        # Threads per worker process (`scorekeeper serve` sets it). Under a server that does not say
        # how long a request waited (serve's worker does), with 2 or more, a poll that finds every
        # other thread busy is refused (503) to keep one for writes. 0: never refused.
        "SERVER_THREADS": 0,
        # Games each process keeps drawn board rows and latest results of: a game followed all
        # evening draws one row per deal and scores one deal per deal, not its whole board. Enough
        # for a crowd of 10,000 tables, each worker following every one of them.
        "LOCAL_GAMES": 16384,
        # Where viewers' live answers are kept whole for every worker to share (web/live/answers.py);
        # None: not kept. `scorekeeper serve` sets a directory of its own for each start.
        "LIVE_ANSWERS_DIR": None,
        # The most players one event may seat (pairs: players in its pairs): checked before any
        # seating is planned, so one request's work stays bounded (400 x 13 rounds: well under 1 s).
        "EVENT_MAX_PLAYERS": 400,
        "BABEL_DEFAULT_LOCALE": "en",
        # Clubs (clubs.md): who may make one ("open": anyone; "admin": with ADMIN_KEY as Bearer
        # or typed on the form), and the club an upgraded install's games went into.
        "CLUB_CREATION": "open",
        "ADMIN_KEY": None,
        "DEFAULT_CLUB": "Home",
        # The server's address as the phones reach it, for links printed by the command line.
        "BASE_URL": None,
        # Abuse limits per client address (scorekeeper/limits.py); off with RATELIMIT_ENABLED.
        # Every new club's slug ends in a random tail, so a slug never tells that another club's
        # name is taken (clubs.md); off: plain slugs, -2 for a name taken.
        "CLUB_SLUG_TAIL": True,
        "RATELIMIT_ENABLED": True,
        "LIMIT_FAILED_CREDENTIALS": "10 per minute",
        "LIMIT_CREATE_GAMES": "120 per hour",
        "LIMIT_CREATE_CLUBS": "10 per day",
        "LIMIT_JOINS": "30 per hour",
    }


def whole_number(name: str, text: str) -> int:
    """A count or a switch as the plain variables always took it: 2, or true/yes/on (1), false/no/off (0)."""
    value = text.strip().lower()
    words = {"true": 1, "yes": 1, "on": 1, "false": 0, "no": 0, "off": 0}
    if value in words:
        return words[value]
    try:
        return int(value)
    except ValueError:
        raise SettingError(f"{name} must be a whole number or true/false, not {text!r}") from None


def text(_name: str, value: str) -> str:
    return value


# The plain variables that worked before SCOREKEEPER_*: the setting each sets, and how its text is read.
# They win over SCOREKEEPER_* (the server tells its workers AUTO_MIGRATE=0 this way); an empty one is unset.
ALIASES: Mapping[str, tuple[str, Callable[[str, str], Any]]] = {
    "SECRET_KEY": ("SECRET_KEY", text),
    "DATABASE_URL": ("SQLALCHEMY_DATABASE_URI", text),
    "CACHE_REDIS_URL": ("CACHE_REDIS_URL", text),
    "CLUB_KEY": ("CLUB_KEY", text),
    "PROXY_FIX": ("PROXY_FIX", whole_number),
    "AUTO_MIGRATE": ("AUTO_MIGRATE", whole_number),
}
# Settings whose value is text whatever it looks like: SCOREKEEPER_CLUB_KEY=1234 is the text "1234"
# (JSON would make it a number, and a secret key of digits would break every session).
TEXT = frozenset(
    {
        "SECRET_KEY",
        "CLUB_KEY",
        "ADMIN_KEY",
        "DEFAULT_CLUB",
        "CLUB_CREATION",
        "BASE_URL",
        "SQLALCHEMY_DATABASE_URI",
        "CACHE_REDIS_URL",
        "CACHE_KEY_PREFIX",
        "PDF_FOLDER",
        "LIVE_ANSWERS_DIR",
        "PDF_CHROMIUM",
        "BABEL_DEFAULT_LOCALE",
        "LIMIT_FAILED_CREDENTIALS",
        "LIMIT_CREATE_GAMES",
        "LIMIT_CREATE_CLUBS",
        "LIMIT_JOINS",
        "RATELIMIT_STORAGE_URI",
        "RATELIMIT_STRATEGY",
        "RATELIMIT_KEY_PREFIX",
    }
)
# Whole numbers (or switches, which JSON's true/false are too): checked at start, not at first request.
NUMBERS = (
    "PROXY_FIX",
    "AUTO_MIGRATE",
    "LIVE_POLL_SECONDS",
    "LIVE_POLL_CEILING",
    "BOARD_REFRESH_SECONDS",
    "SERVER_THREADS",
    "LOCAL_GAMES",
    "RATELIMIT_ENABLED",
    "EVENT_MAX_PLAYERS",
    "CLUB_SLUG_TAIL",
)


def from_environment(config: Config, environ: Mapping[str, str] | None = None) -> None:
    """Read ``SCOREKEEPER_<NAME>`` for every setting (values parsed as JSON: ``2``, ``false``,
    ``["en", "pl"]``; anything else is text), then the plain names of :data:`ALIASES`."""
    environ = os.environ if environ is None else environ
    config.from_prefixed_env(PREFIX)
    for name in TEXT:
        raw = environ.get(f"{PREFIX}_{name}")
        if raw is not None:
            config[name] = raw
    for variable, (name, parse) in ALIASES.items():
        raw = environ.get(variable)
        if raw:
            config[name] = parse(variable, raw)
    for name in NUMBERS:
        value = config.get(name)
        if value is not None and not isinstance(value, int):  # bool is an int: a switch
            raise SettingError(
                f"{name} ({PREFIX}_{name}) must be a whole number or true/false, not {value!r}"
            )
