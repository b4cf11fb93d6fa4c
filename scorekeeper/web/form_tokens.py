"""A form that changes a game: the version it was drawn from and its submission token."""

from __future__ import annotations

import re
from typing import Any

from flask import g, request

from ..models import Game
from ..service import new_token

# Idempotency tokens and device ids: URL-safe base64 (as game ids), nothing else reaches the database.
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")
# The hidden inputs of every form that changes a game (templates/_macros.html, form_head).
VERSION_FIELD = "base_version"
TOKEN_FIELD = "submit_token"


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


def answers_version(game: Game) -> None:
    """This request's answer says the version it leaves ``game`` at (``X-Game-Version``, added by
    web/games/pages.py ``game_version``): a phone sending what it kept offline (static/offline.js)
    knows from it that the deal or orders were taken, and bases the next deal on it."""
    g.answered_version = game
