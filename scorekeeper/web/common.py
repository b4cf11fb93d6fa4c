"""What every view needs: the game loader, the edit key, and htmx-aware rendering."""

from __future__ import annotations

from typing import Any

from flask import abort, make_response, render_template, request
from flask.typing import ResponseReturnValue

from ..db import db
from ..models import Game

KEY_COOKIE = "edit_key"
KEY_MAX_AGE = 3 * 365 * 24 * 3600


def load_game(game_id: str) -> Game:
    """The game with this id (seats and deals loaded with it), or 404."""
    game = db.session.get(Game, game_id)
    if game is None:
        abort(404)
    return game


def presented_key() -> str | None:
    """The edit key this request carries: API bearer header, else the scorer's cookie."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[len("Bearer ") :].strip()
    return request.cookies.get(KEY_COOKIE)


def can_edit(game: Game) -> bool:
    return game.key_matches(presented_key())


def require_edit(game: Game) -> None:
    if not can_edit(game):
        abort(403)


def remember_key(response, game: Game, key: str):
    """Keep the edit key on this device, sent only to this game's pages."""
    response.set_cookie(
        KEY_COOKIE,
        key,
        max_age=KEY_MAX_AGE,
        path=f"/g/{game.id}",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


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
