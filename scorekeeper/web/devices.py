"""This device: its id and label, and the games it opened (its "My games")."""

from __future__ import annotations

from flask import g, request

from ..clubs.service import remember_game
from ..service import new_token
from .cookies import DEVICE_COOKIE, OPENED_COOKIE
from .form_tokens import TOKEN
from .loading import GAME_ID


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
