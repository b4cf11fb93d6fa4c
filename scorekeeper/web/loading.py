"""A game loaded for a view: by its id (404 when absent or deleted), seats with it, deals when asked."""

from __future__ import annotations

import re
from typing import Literal, overload

from flask import abort
from sqlalchemy.orm import joinedload, lazyload

from ..db import db
from ..models import AnyGame, Game, GameHead

# Game ids, idempotency tokens and device ids: URL-safe base64, nothing else reaches the database.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
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
