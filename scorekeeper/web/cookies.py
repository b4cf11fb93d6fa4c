"""The app's cookies: their names and ages, and the one way each is set (HttpOnly, SameSite=Lax, Secure over HTTPS)."""

from __future__ import annotations

from typing import Any

from flask import request

from .. import limits
from ..models import Game

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


def remember_key(response, game: Game, key: str):
    """Keep the edit key on this device, sent only to this game's pages.

    The key is handed to a caller who proved a credential (the key itself, a table link, the
    game it rematches) or who just made the game: proven for this address, so its first use is
    never refused while a prankster keeps the address over its failures (limits.handed)."""
    limits.handed(key)
    return keep_cookie(response, KEY_COOKIE, key, KEY_MAX_AGE, f"/g/{game.id}")
