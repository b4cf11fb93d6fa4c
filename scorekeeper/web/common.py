"""What every view needs: the game loader, the edit key's cookie, forms' versions and tokens, htmx-aware rendering.

Who may do what is :mod:`.auth`'s business."""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import UTC, datetime
from typing import Any, Literal, overload

from flask import abort, current_app, g, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from sqlalchemy.orm import joinedload, lazyload

from ..clubs.service import remember_game
from ..db import db
from ..keys import key_matches
from ..models import AnyGame, Game, GameHead
from ..refusals import Refusal
from ..rules.base import N_
from ..service import Via, new_token

KEY_COOKIE = "edit_key"
KEY_MAX_AGE = 3 * 365 * 24 * 3600
DEVICE_COOKIE = "device"
# The game a device opened on its first visit, before it had a device cookie to list it under:
# written to "My games" when the device comes back with its cookie (see remember_opened).
OPENED_COOKIE = "opened"
# A device's club memberships: its member keys, one per club, joined by "." (clubs.md: an
# HttpOnly, SameSite=Lax cookie, Secure over HTTPS, 400 days).
MEMBER_COOKIE = "member"
MEMBER_MAX_AGE = 400 * 24 * 3600
# The member keys one cookie may carry (one per club): each is tested, and each wrong one counts
# against the address (limits.py), so a cookie cannot carry a hundred guesses at once.
MEMBER_KEYS_MAX = 10
# The new-game form's last choice of club on this device (a slug, or "" for personal).
CLUB_CHOICE_COOKIE = "new_club"
# Game ids, idempotency tokens and device ids: URL-safe base64, nothing else reaches the database.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")
# The hidden inputs of every form that changes a game (templates/_macros.html, form_head).
VERSION_FIELD = "base_version"
TOKEN_FIELD = "submit_token"


# Built once: load_game runs on every game request. The seats come in the game's own query
# (a join costs half of a second query), the deals only when asked for.
DEALS_LATER = (joinedload(Game.seats), lazyload(Game.deals))


@overload
def load_game(game_id: str, deleted: bool = False, lean: Literal[False] = False) -> Game: ...
@overload
def load_game(game_id: str, deleted: bool = False, *, lean: Literal[True]) -> GameHead: ...
@overload
def load_game(game_id: str, deleted: bool, lean: bool) -> AnyGame: ...


def load_game(game_id: str, deleted: bool = False, lean: bool = False) -> AnyGame:
    """The game with this id (seats loaded with it), or 404; a deleted one only if asked.

    Its deals are read only when asked for (a write, the scorer's entry form): a page whose
    view and board come from the cache never parses a long game's deals. ``lean``: its row
    and players only, without the ORM (:class:`GameHead`), for the JSON API's append and export.
    """
    game: AnyGame | None = None
    if GAME_ID.fullmatch(game_id):
        game = GameHead.load(game_id) if lean else db.session.get(Game, game_id, options=DEALS_LATER)
    if game is None or (game.deleted_at is not None and not deleted):
        abort(404)
    return game


def keep_cookie(response: Any, name: str, value: str, max_age: int, path: str = "/") -> Any:
    """Every cookie of the app is set here, one way: never read by scripts (HttpOnly), not sent
    with other sites' posts (SameSite=Lax), and only over HTTPS when the request came so."""
    response.set_cookie(
        name, value, max_age=max_age, path=path, httponly=True, samesite="Lax", secure=request.is_secure
    )
    return response


def drop_cookie(response: Any, name: str, path: str = "/") -> Any:
    response.delete_cookie(name, path=path, httponly=True, samesite="Lax", secure=request.is_secure)
    return response


def made_key(token: str | None) -> str | None:
    """The edit key of the game a form's submission makes, derived from its token and the
    server's secret: a copy of the submission that lost the race to create (a double tap)
    answers the game the first one made, with the same key, nothing stored to find it."""
    if not token:
        return None
    secret = str(current_app.secret_key or "").encode()
    return hmac.new(secret, f"made:{token}".encode(), hashlib.sha256).hexdigest()[:32]


def remember_made(response, game: Game, token: str | None):
    """Keep a made game's key on this device, when this submission's token is the one that made it."""
    key = made_key(token)
    if key is not None and key_matches(game.edit_key_hash, key):
        return remember_key(response, game, key)
    return response


def remember_key(response, game: Game, key: str):
    """Keep the edit key on this device, sent only to this game's pages."""
    return keep_cookie(response, KEY_COOKIE, key, KEY_MAX_AGE, f"/g/{game.id}")


def is_htmx() -> bool:
    """An htmx request for a fragment (a boosted navigation wants the whole page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def render_region(page: str, partial: str, status: int = 200, **context: Any) -> ResponseReturnValue:
    """The whole page, or to htmx only the region that changed."""
    htmx = is_htmx()
    response = make_response(render_template(partial if htmx else page, **context), status)
    response.vary.add("HX-Request")
    if htmx and status == 422:
        # A refused entry: bring the form (and its messages) into view, not the scoreboard.
        response.headers["HX-Reswap"] = "outerHTML show:#entry:top"
    return response


def device_label(agent: str) -> str:
    """A short name for the device a change came from: "Chrome on Android", "curl"."""
    systems = [
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("CrOS", "ChromeOS"),
        ("Windows", "Windows"),
        ("Mac OS X", "Mac"),
        ("Linux", "Linux"),
    ]
    browsers = [
        ("SamsungBrowser/", "Samsung Internet"),
        ("Firefox/", "Firefox"),
        ("FxiOS/", "Firefox"),
        ("Edg", "Edge"),
        ("OPR/", "Opera"),
        ("CriOS/", "Chrome"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    ]
    system = next((name for mark, name in systems if mark in agent), None)
    browser = next((name for mark, name in browsers if mark in agent), None)
    if browser and system:
        return f"{browser} · {system}"
    if browser or system:
        return browser or system or ""
    product = agent.split("/", 1)[0].split(" ", 1)[0].strip()
    return "".join(ch for ch in product if ch.isprintable())[:40] or "?"


def device() -> tuple[str, str]:
    """This device's id (its cookie; a new one is set with the response) and its label."""
    known = request.cookies.get(DEVICE_COOKIE, "")
    if TOKEN.fullmatch(known):
        return known, device_label(request.user_agent.string)
    if "new_device" not in g:
        g.new_device = new_token(12)
    return g.new_device, device_label(request.user_agent.string)


def remember_opened(game_id: str) -> None:
    """List a game this device opened under its "My games". A device that shows its cookie is
    written at once (once per process and pair: clubs.remember_game); a first visit, which has
    no cookie yet, only gets the game in a cookie beside its new device cookie, written by
    :func:`keep_opened` when the device comes back with both. A visitor that keeps no cookies
    (a link preview, a crawler, a load test) so never writes a row: reading a game stays a read."""
    known = request.cookies.get(DEVICE_COOKIE, "")
    if TOKEN.fullmatch(known):
        remember_game(known, game_id)
    else:
        device()  # the new device cookie, set with the response
        g.opened = game_id


def keep_opened() -> None:
    """Before a device's lists: the game it opened on its first visit goes under "My games"."""
    known = request.cookies.get(DEVICE_COOKIE, "")
    opened = request.cookies.get(OPENED_COOKIE, "")
    if opened and TOKEN.fullmatch(known) and GAME_ID.fullmatch(opened):
        remember_game(known, opened)
    if opened:
        g.drop_opened = True


def form_token() -> str:
    """The submission token a form carries: the one posted (a retry keeps it), else a new one."""
    posted = request.form.get(TOKEN_FIELD, "") if request.method == "POST" else ""
    return posted if TOKEN.fullmatch(posted) else new_token(16)


def stamp_form(form: Any, game: Game, fresh: bool = False) -> Any:
    """Give a form that changes ``game`` the version it shows and its submission token (form_head renders them).

    A fresh form (after a write) gets a new token; a form shown again with the
    user's entry (refused, or stale) keeps the posted one: it was not recorded.
    """
    form.base_version = game.version
    form.submit_token = new_token(16) if fresh else form_token()
    return form


def form_via() -> Via:
    """A page's write: the version its form was rendered from and its submission token, if it has them."""
    raw = request.form.get(VERSION_FIELD)
    version = None
    if raw is not None:
        if not (raw.isdigit() and len(raw) < 10):
            abort(400)
        version = int(raw)
    token = request.form.get(TOKEN_FIELD, "")
    device_id, label = device()
    # A director's correction at a locked event table: who (auth's game_route) and why (the form).
    return Via(
        version,
        token if TOKEN.fullmatch(token) else None,
        device_id,
        label,
        by=g.get("correction_by"),
        reason=request.form.get("reason"),
    )


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


def idempotency_key() -> str | None:
    """An API call's ``Idempotency-Key`` header (None without one); 400 when it is malformed."""
    token = request.headers.get("Idempotency-Key")
    if token is not None and not TOKEN.fullmatch(token):
        raise Refusal(
            "Idempotency-Key",
            N_("Idempotency-Key must be 8-64 characters: letters, digits, - and _."),
            400,
        )
    return token


def api_via(game: AnyGame) -> Via:
    """An API write: ``If-Match: "<version>"`` (the ETag the API answered) and ``Idempotency-Key``."""
    version = None
    if "If-Match" in request.headers and not request.if_match.star_tag:
        # An empty tag ("") parses as None: every tag must be a version this API answered.
        tags = {bare_etag(t) for t in request.if_match.as_set()}
        if not tags or not all(t and t.isdigit() and len(t) < 10 for t in tags):
            abort(400, description=N_('If-Match must be the game\'s ETag, e.g. If-Match: "7".'))
        versions = {int(t) for t in tags if t}
        version = game.version if game.version in versions else min(versions)
    token = idempotency_key()
    label = device_label(request.user_agent.string)
    # A director's correction at a locked event table: who (auth's game_route) and why (the
    # body's "reason", which is no part of a deal's facts).
    body = request.get_json(silent=True) if request.is_json else None
    reason = body.get("reason") if isinstance(body, dict) else None
    return Via(
        version,
        token,
        None,
        f"API · {label}",
        by=g.get("correction_by"),
        reason=reason if isinstance(reason, str) else None,
    )


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
