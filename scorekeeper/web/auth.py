"""Who is looking: the viewer's role, resolved once per request.

A role comes from one of four places, each compared in constant time with one function:

- the scorer's cookie (pages; set by a scoring link or on creation);
- a scoring link's ``?key=`` (the game page only, which keeps it in the cookie);
- ``Authorization: Bearer <edit key>`` (the JSON API only: the API is exempt
  from CSRF, so it never takes the cookie a browser sends on its own);
- a seat's private link (``/g/<id>/p/<seat>/<token>``, Hidden Secrets).

Views declare what they need with :func:`game_route`; they get the game and the role.
A presented key or link is tested under the failed-credential limit (scorekeeper/limits.py):
every wrong one counts against the address (settled when the request ends, so the API's Bearer
that is not the game's key but a member's or the director's is none), and an address over the
limit is refused before a key it has not proven is tested. No key at all is a viewer, never a
failure.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import abort, current_app, g, request
from sqlalchemy import select

from .. import limits
from ..access import Access, Membership, Viewer
from ..clubs import service as clubs
from ..db import db
from ..events import table_links
from ..keys import hash_key, key_matches
from ..models import AnyGame, Club, Event, MemberKey
from ..read import SCORER, VIEWER, Role, TableState, event_of, seat_role, table_state
from ..refusals import Denied
from .cookies import DEVICE_COOKIE, KEY_COOKIE, MEMBER_COOKIE, MEMBER_KEYS_MAX
from .form_tokens import TOKEN
from .loading import load_game

# The blueprints that answer JSON: their credentials come in the Authorization header only.
API_BLUEPRINTS = frozenset({"api", "clubs_api", "events_api"})
SLUG = clubs.SLUG
# The event's director key, sent to one table game's pages only: set by the director's page's
# "Correct this table" link (events/pages.py), so the director's own cookie stays on /e/<id>.
DIRECTOR_COOKIE = "table_director"
DIRECTOR_COOKIE_AGE = 60 * 60 * 24 * 2  # long enough to correct after the evening; asked again later


def presented_key() -> str | None:
    """The edit key this request carries: for the API the bearer header only, for pages the cookie."""
    if request.blueprint in API_BLUEPRINTS or request.path.startswith("/api/"):
        header = request.headers.get("Authorization", "")
        return header[len("Bearer ") :].strip() if header.startswith("Bearer ") else None
    return request.cookies.get(KEY_COOKIE)


def private_token(game: AnyGame, seat: int) -> str:
    """The unguessable part of ``seat``'s private link (128 bits of an HMAC; nothing is stored)."""
    key = current_app.secret_key
    key = key if isinstance(key, bytes) else str(key).encode()
    digest = hmac.new(key, f"secrets-private:{game.id}:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()


def seat_link_ok(game: AnyGame, seat: int, token: str) -> bool:
    return 0 <= seat < len(game.players) and hmac.compare_digest(
        token.encode(), private_token(game, seat).encode()
    )


def role_for(game: AnyGame, judged: bool = True) -> Role:
    """The role of this request for ``game``: scorer (its edit key, or an admin of its club) or viewer.

    ``judged``: a presented key that is neither the game's nor a live member key is a failed
    check. A view that takes the Bearer as another credential too (a seat's token) says False,
    and judges it itself."""
    key = presented_key()
    if key:
        limits.check_credentials(key)
        if key_matches(game.edit_key_hash, key):
            limits.right_credential(key)
            return SCORER
        if judged:
            # Wrong as this game's key; it may yet prove a member's or the director's (settled
            # at the request's end), never excused by a valid member cookie beside it.
            limits.failed_credential(key)
    # Only a caller who shows some member key is looked up: a plain viewer costs no query.
    if game.club_id is not None and member_keys() and may().correct_game(game):
        return SCORER
    # An event table's director scores it too (and alone may correct it once it is locked).
    if table_director(game) is not None:
        return SCORER
    return VIEWER


def event_cookie(event: Event) -> str:
    """The pages' cookie holding an event's director key (scoped to the event's pages)."""
    return f"event_{event.id}"


def event_key(event: Event) -> str | None:
    """The director key this request shows for ``event``: the API's bearer, or the pages' cookie."""
    if request.blueprint in API_BLUEPRINTS or request.path.startswith("/api/"):
        return presented_key()
    return request.cookies.get(event_cookie(event)) or None


def holds_event_key(event: Event) -> bool:
    """Whether this request shows ``event``'s own director key (a wrong one counts, once)."""
    return director_name(event, event_key(event)) is not None


def director_name(event: Event, key: str | None, judged: bool = True) -> str | None:
    """Who directs ``event`` in this request, as a game's history names them: the owner's or
    admin's member name, or "director" for the key its creator was given; None: nobody.
    Once per request and event: a page asks several times. A presented key that is wrong
    counts against the address (unless it is a member's key: the API's bearer is either), but
    not when ``judged`` is False (:func:`role_for` counts the API's bearer once itself)."""
    memo = g.setdefault("director_names", {})
    if event.id not in memo:
        name = None
        if event.club_id is not None and member_keys():
            name = may().director_name(event)
        if name is None and key:
            limits.check_credentials(key)
            if key_matches(event.director_key_hash, key):
                limits.right_credential(key)
                name = "director"
            elif judged:
                limits.failed_credential(key)
        memo[event.id] = name
    return memo[event.id]


def directing(event: Event) -> str:
    """Who directs ``event`` in this request, as its history names them (a view that asked
    ``may().direct_event`` first): a member's name, else "director" for the event's key."""
    return director_name(event, event_key(event)) or "director"


def hand_event(event: Event, doc: dict[str, Any], *more: str) -> None:
    """A director's event document (``doc``) hands its caller, a proven director, every table's
    link and every started table's scoring key (and ``more``: the players' links a page shows):
    proven for this address (limits.handed), so the phones at the hall that open them are never
    refused while a prankster there keeps the address over its failures."""
    tokens = [table_links.table_token(event.id, t["table"]) for t in doc.get("table_links", ())]
    keys = [t["edit_key"] for r in doc["rounds"] for t in r["tables"] if t.get("edit_key")]
    limits.handed(*tokens, *keys, *more)


def director_credential() -> str | None:
    """The director key a request about a table game may carry: the API's bearer, or the pages'
    cookie that the director's page set for this game's pages."""
    if request.blueprint in API_BLUEPRINTS or request.path.startswith("/api/"):
        return presented_key()
    return request.cookies.get(DIRECTOR_COOKIE) or None


def table_director(game: Any) -> str | None:
    """The director (by name, as :func:`director_name`) of the event whose table plays ``game``,
    if this request shows their credential; None otherwise, and for a game of no event.
    A request that shows no credential at all costs nothing."""
    game_id = getattr(game, "id", None)
    if not game_id or not (director_credential() or member_keys()):
        return None
    memo = g.setdefault("table_directors", {})
    if game_id not in memo:
        place = event_of(game_id)
        event = db.session.get(Event, place["id"]) if place is not None else None
        # The API's bearer is also tried as the game's key: role_for counts a wrong one, once.
        api = request.blueprint in API_BLUEPRINTS or request.path.startswith("/api/")
        memo[game_id] = None if event is None else director_name(event, director_credential(), not api)
    return memo[game_id]


def table_lock() -> TableState | None:
    """This request's game's event table, when it is locked (its round closed, or its result
    confirmed): then only its director may change it, giving a reason (the write gate's rule,
    service.locks.correction_at); None for any other game. What the pages show follows it."""
    state = g.get("table")
    return state if state is not None and state.locked else None


def correcting() -> bool:
    """Whether this request is a director's at a locked table: the forms then ask for a reason."""
    return table_lock() is not None and g.get("correction_by") is not None


def locked_out() -> bool:
    """Whether this request's scorer may no longer change its locked table (the pages then offer
    no entry, correction or undo; a write would be refused by the gate all the same)."""
    return table_lock() is not None and g.get("correction_by") is None


def may_delete_game() -> bool:
    """Whether this request's scorer is offered deleting its game: any game of no event; an
    event table's only by the event's director (service.locks.directors_act refuses it to the
    table's phone: offering it there asked for a confirmation and then did nothing)."""
    return g.get("table") is None or g.get("correction_by") is not None


def resolve_table(game: Any, role: Role) -> None:
    """For a scorer of an event's table: its state and whether the caller directs it (``g``)."""
    g.correction_by = table_director(game) if role.editable else None
    g.table = table_state(game.id) if role.editable else None


# -- clubs: who the caller is, once per request ---------------------------------------------


def member_keys() -> list[str]:
    """The member keys this request shows: the API's bearer, or the pages' cookie (one per club)."""
    if request.blueprint in API_BLUEPRINTS or request.path.startswith("/api/"):
        bearer = presented_key()
        return [bearer] if bearer else []
    raw = request.cookies.get(MEMBER_COOKIE, "")
    return [k for k in raw.split(".") if TOKEN.fullmatch(k)][-MEMBER_KEYS_MAX:] if raw else []


def viewer() -> Viewer:
    """The caller as the visibility rule sees it (scorekeeper.access): its device and live memberships."""
    found = g.get("viewer")
    if found is None:
        device = request.cookies.get(DEVICE_COOKIE, "")
        keys = member_keys()
        found = Viewer(
            device_hash=clubs.device_hash(device) if TOKEN.fullmatch(device) else None,
            memberships=tuple(judged_memberships(keys)) if keys else (),
        )
        g.viewer = found
    return found


def judged_memberships(keys: list[str]) -> list[Membership]:
    """The live memberships of ``keys``, each key tested under the failed-credential limit:
    every one that is no live member key counts (a member key for another club of the same
    device is live, so no failure), and an address over its failures is refused before keys
    it has not proven are tested."""
    limits.check_credentials(*keys)
    found = clubs.memberships(keys)
    distinct = set(keys)
    if len(found) == len(distinct):  # one row per live key: every key is live
        for key in distinct:
            limits.right_credential(key)
        return found
    live = set(
        db.session.scalars(select(MemberKey.key_hash).where(MemberKey.id.in_([m.key_id for m in found])))
    )
    for key in distinct:
        if hash_key(key) in live:
            limits.right_credential(key)
        else:
            limits.failed_credential(key)
    return found


def may() -> Access:
    """The access layer's predicates for this request's caller (resolved once: :func:`viewer`)."""
    return Access(viewer(), holds_event_key=holds_event_key)


def club_route(need: str = "member", refused: str = "") -> Callable:
    """Load the URL's club for a caller who belongs to it, and call the view with the club and
    the caller's membership in place of ``slug``.

    Anyone else gets 404, as for a club that does not exist (clubs.md: existence is not
    revealed); a member without the rights ``need`` names ("admin", "owner") gets 403 saying
    ``refused`` (marked with ``N_``: what the route does and who may). An API caller whose key
    proves nothing has failed a credential check.
    """
    # Every 403 names the thing refused, never a generic message (issue 56): a route for admins or
    # the owner without its words is a mistake found at start, not a 403 that says nothing.
    if need != "member" and not refused:
        raise ValueError(f"club_route({need!r}) needs the words of what it refuses (access.REFUSED)")

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(slug: str, **kwargs: Any) -> Any:
            # viewer() tests each key shown (a member's key for another club is live: no failure).
            membership = viewer().in_club(slug) if SLUG.fullmatch(slug) else None
            if membership is None:
                abort(404)
            allowed = {"member": may().see_club, "admin": may().run_club, "owner": may().own_club}[need]
            if not allowed(membership.club_id):
                raise Denied(None, refused)
            club = db.session.get(Club, membership.club_id)
            if club is None:
                abort(404)
            g.membership = membership
            return view(club, membership, **kwargs)

        return wrapper

    return decorate


def game_route(
    scorer: bool = False,
    deleted: bool = False,
    seat_link: bool = False,
    message: str | None = None,
    lean: bool = False,
    other_keys: bool = False,
) -> Callable:
    """Load the URL's game (404 if absent, or deleted unless ``deleted``), resolve the role once
    (``g.role``) and call the view with ``game`` in place of ``game_id``.

    ``scorer``: anyone else gets 403 (with ``message``, for API clients).
    ``seat_link``: the URL's ``seat`` and ``token`` must be that seat's private link (else 404);
    the role is that seat, whoever opens it.
    ``lean``: the view gets a :class:`~scorekeeper.models.GameHead` (row and players, read
    without the ORM) for the JSON API's hot calls, which never touch a deal row.
    ``other_keys``: the Bearer may be another credential the view tests (a seat's token), so
    a key that is not the game's is no failure yet (:func:`role_for`'s ``judged``).
    """

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(game_id: str, **kwargs: Any) -> Any:
            game = load_game(game_id, deleted, lean)
            if seat_link:
                if not limits.credential(kwargs["token"], lambda t: seat_link_ok(game, kwargs["seat"], t)):
                    abort(404)
                role = seat_role(kwargs["seat"])
            else:
                role = role_for(game, judged=not other_keys)
            if scorer and not role.editable:
                abort(403, description=message)
            g.game, g.role = game, role
            # Who may correct a locked event table (the write gate asks it through the Via), and
            # the table's state for the pages: asked of a scorer only; no query for other games.
            resolve_table(game, role)
            return view(game, **kwargs)

        return wrapper

    return decorate


def role() -> Role:
    """The role :func:`game_route` resolved for this request."""
    return g.get("role", VIEWER)
