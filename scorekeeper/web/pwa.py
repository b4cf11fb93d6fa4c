"""The app on a phone's home screen: web app manifest, service worker and offline page.

The service worker is served from the site's root (``/sw.js``), not ``/static/``,
so its scope covers every page. Its cache name carries a hash of the static
files, so a new release replaces the cached assets.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from flask import Blueprint, current_app, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

bp = Blueprint("pwa", __name__)

# Kept by the service worker at install: what every page needs, and the offline page. Not
# offline.js: only the pages that enter facts load it (a viewer's phone never fetches it), and
# such a page has it kept through the worker once the worker serves it (static/offline.js).
PRECACHE = (
    "app.css",
    "app.js",
    "clock.js",
    "htmx.min.js",
    "favicon.svg",
    "icons/icon.svg",
    "icons/icon-192.png",
)
ICONS = (
    ("icons/icon.svg", "any", "image/svg+xml", "any"),
    ("icons/icon-192.png", "192x192", "image/png", "any"),
    ("icons/icon-512.png", "512x512", "image/png", "any"),
    ("icons/maskable-512.png", "512x512", "image/png", "maskable"),
)
THEME = "#14532d"


# Not a registered store: one hash per static folder (one or two), bounded by nature.
@cache
def static_version(folder: str) -> str:
    """A short hash of every static file's name, size and time: a new release, a new cache."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*")):
        if path.is_file():
            stat = path.stat()
            digest.update(f"{path.relative_to(folder)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:12]


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    body = {
        "name": _("Scorekeeper"),
        "short_name": _("Scorekeeper"),
        "description": _("Scores for card games played with real cards."),
        "start_url": url_for("main.index"),
        "scope": url_for("main.index"),
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": [
            {"src": url_for("static", filename=name), "sizes": sizes, "type": kind, "purpose": purpose}
            for name, sizes, kind, purpose in ICONS
        ],
    }
    response = current_app.response_class(
        json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json"
    )
    response.cache_control.no_cache = True
    return response


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    static = current_app.static_folder
    assert static is not None  # the app serves its static folder
    source = (Path(static) / "sw.js").read_text(encoding="utf-8")
    settings = {
        "version": static_version(static),
        "static": url_for("static", filename=""),
        "offline": url_for("pwa.offline"),
        "precache": [url_for("static", filename=name) for name in PRECACHE] + [url_for("pwa.offline")],
    }
    body = source.replace("/*SETTINGS*/ {}", json.dumps(settings), 1)
    response = current_app.response_class(body, mimetype="text/javascript")
    # Browsers check for a new worker at every visit: it must never be served from a cache.
    response.cache_control.no_cache = True
    return response


@bp.get("/offline")
def offline() -> ResponseReturnValue:
    """Shown by the service worker for a page it has not kept, while the connection is down."""
    return render_template("offline.html")
