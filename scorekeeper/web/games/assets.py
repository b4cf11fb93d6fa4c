"""A game's own entry script and style: ``games/<key>/static/entry.js`` and ``entry.css`` in
its folder, served at ``/static/games/<key>/<file>`` (under ``/static/``, so the service worker
keeps them as it keeps the site's) and loaded only on that game's pages: its game page, its
new-game page, its score sheet and its own pages (``base.html`` asks :func:`tags`).

Like the site's static files (web/wire.py), each URL carries ``?v=`` and the file's content
hash; a request with the current hash is cached for a year, immutable.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, abort, request, send_from_directory, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup, escape

from ... import stores
from ...games import FOLDERS

bp = Blueprint("game_assets", __name__)

# What a game page links: its folder's entry style and script, when it has them.
STYLE, SCRIPT = "entry.css", "entry.js"
YEAR = 365 * 24 * 3600
HASHES = stores.store("game_asset_hashes", 256, doc="each game's entry script and style's content hash")


def folder_of(key: str) -> Path | None:
    folder = FOLDERS.get(key)
    return None if folder is None else folder.path / "static"


def digest(key: str, name: str) -> str | None:
    """The content hash of the game ``key``'s file ``name``, read again when it changes; None if absent."""
    static = folder_of(key)
    if static is None:
        return None
    path = static / name
    try:
        mtime = path.stat().st_mtime_ns
    except (OSError, ValueError):
        return None
    known = HASHES()
    seen = known.get((key, name))
    if seen is None or seen[0] != mtime:
        if not path.is_file() or not path.resolve().is_relative_to(static.resolve()):
            return None
        seen = (mtime, hashlib.sha256(path.read_bytes()).hexdigest()[:12])
        known.put((key, name), seen)
    return str(seen[1])


@bp.get("/static/games/<key>/<path:filename>")
def asset(key: str, filename: str) -> ResponseReturnValue:
    static = folder_of(key)
    if static is None:
        abort(404)
    response = send_from_directory(static, filename)  # a path outside the folder: 404
    version = request.args.get("v")
    if version and version == digest(key, filename):
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
        response.cache_control.no_cache = None
    return response


def tags(key: str) -> Markup:
    """The game ``key``'s entry style and script, as the tags a page puts in its body (a boosted
    visit swaps the body alone, so they come with it; the script starts once, see its file)."""
    out = []
    style, script = digest(key, STYLE), digest(key, SCRIPT)
    if style:
        href = url_for("game_assets.asset", key=key, filename=STYLE, v=style)
        out.append(f'<link rel="stylesheet" href="{escape(href)}">')
    if script:
        src = url_for("game_assets.asset", key=key, filename=SCRIPT, v=script)
        out.append(f'<script src="{escape(src)}" defer></script>')
    return Markup("\n".join(out))


def style_text(key: str) -> str:
    """The game's entry style itself (a printed sheet inlines its styles), or nothing."""
    static = folder_of(key)
    path = static / STYLE if static is not None else None
    return path.read_text(encoding="utf-8") if path is not None and path.is_file() else ""
