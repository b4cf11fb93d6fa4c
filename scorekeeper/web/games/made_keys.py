"""A made game's edit key, derived from its form's submission token: a repeated submission finds the same game and key."""

from __future__ import annotations

import hashlib
import hmac

from flask import current_app

from ...keys import key_matches
from ...models import Game
from ..cookies import remember_key


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
