"""The member cookie: a device's member keys, one per club, joined by "." (clubs.md: HttpOnly,
SameSite=Lax, Secure when the request came over HTTPS, 400 days)."""

from __future__ import annotations

from typing import Any

from flask import request

from ... import limits
from ...clubs import service
from ..cookies import MEMBER_COOKIE, MEMBER_KEYS_MAX, MEMBER_MAX_AGE, drop_cookie, keep_cookie
from ..form_tokens import TOKEN


def _set(response: Any, keys: list[str]) -> Any:
    if keys:
        return keep_cookie(response, MEMBER_COOKIE, ".".join(keys), MEMBER_MAX_AGE)
    return drop_cookie(response, MEMBER_COOKIE)


def _held() -> list[str]:
    raw = request.cookies.get(MEMBER_COOKIE, "")
    return [k for k in raw.split(".") if TOKEN.fullmatch(k)][-MEMBER_KEYS_MAX:] if raw else []


def keep_member_key(response: Any, key: str) -> Any:
    """Add a new membership's key to this device's cookie, dropping keys that no longer work
    (a removed member, a signed-out device), so the cookie never fills up with dead ones."""
    live = [k for k in _held() if service.memberships([k])]
    # Handed to the device that just made the club or joined it by its (tested) invite: proven for
    # this address, so its first page is never refused while a prankster keeps it over its failures.
    limits.handed(key)
    return _set(response, [*live, key][-MEMBER_KEYS_MAX:])


def forget_member_key(response: Any, club_id: int) -> Any:
    """Drop this device's key of ``club_id`` (and any dead key) from the cookie."""
    kept = []
    for k in _held():
        found = service.memberships([k])
        if found and all(m.club_id != club_id for m in found):
            kept.append(k)
    return _set(response, kept)
