"""Who is looking: the viewer's role, resolved once per request.

A role comes from one of four places, each compared in constant time with one function:

- the scorer's cookie (pages; set by a scoring link or on creation);
- a scoring link's ``?key=`` (the game page only, which keeps it in the cookie);
- ``Authorization: Bearer <edit key>`` (the JSON API only: the API is exempt
  from CSRF, so it never takes the cookie a browser sends on its own);
- a seat's private link (``/g/<id>/p/<seat>/<token>``, Hidden Secrets).

Views declare what they need with :func:`game_route`; they get the game and the role.
A presented key or link is tested under the failed-credential limit (scorekeeper/limits.py):
a wrong one counts against the address, and an address over the limit is refused before any
is tested. No key at all is a viewer, never a failure.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import abort, current_app, g, request

from .. import limits
from ..keys import key_matches
from ..models import AnyGame
from ..read import SCORER, VIEWER, Role, seat_role
from .common import KEY_COOKIE, load_game


def presented_key() -> str | None:
    """The edit key this request carries: for the API the bearer header only, for pages the cookie."""
    if request.blueprint == "api" or request.path.startswith("/api/"):
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


def role_for(key_hash: str, judged: bool = True) -> Role:
    """The role of this request for the game whose key hash is ``key_hash``: scorer or viewer.

    ``judged``: a presented key that is not the game's is a failed check. A view that takes
    the Bearer as another credential too (a seat's token) says False, and judges it itself."""
    key = presented_key()
    if not key:
        return VIEWER
    limits.check_credentials()
    if key_matches(key_hash, key):
        return SCORER
    if judged:
        limits.failed_credential()
    return VIEWER


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
                role = role_for(game.edit_key_hash, judged=not other_keys)
            if scorer and not role.editable:
                abort(403, description=message)
            g.game, g.role = game, role
            return view(game, **kwargs)

        return wrapper

    return decorate


def role() -> Role:
    """The role :func:`game_route` resolved for this request."""
    return g.get("role", VIEWER)
