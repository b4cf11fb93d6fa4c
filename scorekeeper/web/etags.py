"""ETags and caching of the followed regions: what an answer was drawn at, and who may keep it."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import request
from flask_babel import get_locale

from ..models import Game

# What Flask-Compress appends to a compressed answer's strong ETag ("7" -> "7:br").
CONTENT_CODINGS = frozenset({"br", "gzip", "deflate", "zstd"})


def bare_etag(tag: str | None) -> str | None:
    """An ETag as this app made it, without the encoding suffix Flask-Compress added: a client
    sends back the tag it got, whatever encoding it accepts with the next request. (An empty tag,
    ``""``, parses as None: it stays so, and is refused as before.)"""
    if not tag:
        return tag
    base, colon, coding = tag.rpartition(":")
    return base if colon and coding in CONTENT_CODINGS else tag


def if_match_versions() -> set[int] | None:
    """The versions a write's ``If-Match`` names, for the games' and the events' API alike (None:
    no header, or ``*``). Each tag is read as this app made it, whatever the encoding suffix
    Flask-Compress added: ``"7"``, ``"7:gzip"`` and ``"7:br"`` are version 7. ValueError when a
    tag is no version: a weak one (If-Match compares strongly, and this API answers none), or
    other than ASCII digits (``int()`` refuses some that ``str.isdigit()`` accepts, such as ``²``)."""
    if "If-Match" not in request.headers or request.if_match.star_tag:
        return None
    # An empty tag ("") parses as None, and a weak one is left out (as_set): every tag must be a
    # version this API answered.
    tags = {bare_etag(t) for t in request.if_match.as_set()}
    if not tags or not all(t and t.isascii() and t.isdigit() and len(t) < 10 for t in tags):
        raise ValueError("If-Match names no version")
    return {int(t) for t in tags if t}


def changed_at(updated_at: datetime) -> float:
    """A game's last change as epoch seconds (stored naive, in UTC): X-Poll-After's "changing"."""
    return updated_at.replace(tzinfo=UTC).timestamp()


def follow_caching(scorer: bool, language_in_url: bool) -> tuple[str, str]:
    """Cache-Control and Vary of a followed region's answer (200 or 304).

    A viewer's region on a URL that names its language is the same for every phone that asks:
    a shared cache (nginx, a CDN) may keep it for a second, so a crowd following one game costs
    the app about one request a second (docs/live-updates.md). A scorer's region never: it is
    drawn for the key its cookie holds.
    """
    if not scorer and language_in_url:
        return "public, max-age=1", "Accept-Encoding"
    return "private, no-cache", "Cookie, Accept-Language, Accept-Encoding"


def live_etag_value(game_id: str, version: int, editable: bool, part: str) -> str:
    """Everything a followed region's HTML depends on besides the stored facts, which ``version`` stands for."""
    return f"{game_id}.{version}.{get_locale()}.{'s' if editable else 'v'}.{part}"


def live_etag(game: Game, editable: bool, part: str) -> str:
    """The ETag a followed region was rendered at (``data-etag``; app.js sends it back as If-None-Match)."""
    return 'W/"' + live_etag_value(game.id, game.version, bool(editable), part) + '"'
