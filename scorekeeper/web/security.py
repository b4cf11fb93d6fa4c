"""Safe by default: security headers on every answer, the secret key, this device's cookie.

The Content-Security-Policy allows scripts, styles and images from this
origin only: no inline script or style (htmx's own indicator style is turned
off in base.html's htmx-config), no third party, no framing.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, abort, g, request
from werkzeug import routing
from werkzeug.exceptions import RequestEntityTooLarge

from ..problems import HostProblem
from .cookies import DEVICE_COOKIE, KEY_MAX_AGE, OPENED_COOKIE, drop_cookie, keep_cookie
from .jsonbody import JSONSafeRequest

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    # Same-origin requests keep their Referer (Flask-WTF checks it over HTTPS);
    # no other origin ever sees an address, so a scoring link's key cannot leak.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
SECRET_KEY_FILE = "secret_key"


class InsecureConfig(HostProblem):
    """The app would run with a secret key anyone can read in the source."""


def ensure_secret_key(app: Flask, default: str) -> None:
    """Refuse the default key outside debug and testing; with none configured, use this instance's own.

    On a fresh machine ``scorekeeper run`` generates a random key once and keeps
    it in ``instance/secret_key`` (readable by its owner only), so sessions and
    CSRF tokens survive a restart. A key set in the environment or
    ``instance/config.py`` wins; setting it to the default is refused.
    """
    key = app.config.get("SECRET_KEY")
    if not key:
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))
        return
    if key == default and not (app.debug or app.testing):
        raise InsecureConfig(
            "SECRET_KEY is the default from the source code: set a random SECRET_KEY in the environment "
            "or instance/config.py, or leave it unset to have one generated in instance/secret_key."
        )


def instance_secret_key(instance: Path) -> str:
    """This instance's secret key, generated and kept on first use."""
    path = instance / SECRET_KEY_FILE
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if len(key) >= 32:
        return key
    instance.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
    return key


class LimitedRequest(JSONSafeRequest):
    """A request (JSON nested too deeply is a 400) whose every form field, url-encoded or multipart, is held to ``MAX_FORM_MEMORY_SIZE``.

    Werkzeug enforced this limit for url-encoded bodies up to 3.1.8 and stopped
    in 3.1.9; the promise "a field over 64 KiB is 413" is ours, so we keep it
    here, whatever the parser does. Uploaded files are bounded by
    ``MAX_CONTENT_LENGTH`` alone (an imported game record may be larger).
    """

    def _load_form_data(self) -> None:
        super()._load_form_data()
        limit = self.max_form_memory_size
        if limit is None:
            return
        form = self.__dict__.get("form")
        if form is not None and any(len(k) + len(v) > limit for k, v in form.items(multi=True)):
            raise RequestEntityTooLarge()


WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class IntegerConverter(routing.IntegerConverter):
    """``<int:...>`` in a URL: at most 2**31 - 1 (PostgreSQL's INTEGER; SQLite's is wider), so a
    number the database cannot hold answers 404 as any id that is not there, never a 500; and at
    most 10 digits are read, so a 5,000-digit one costs nothing. (Werkzeug's name, kept: what
    reads the routes, such as the route-walking tests, knows it by it.)"""

    regex = r"[0-9]{1,10}"  # ASCII digits only (rules.base.read_whole): \d matches ٣ too

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**31 - 1)
        super().__init__(map, *args, **kwargs)


def has_nul(request) -> bool:
    """Whether any input carries a NUL character: never valid, and PostgreSQL cannot store it in text."""
    if "\x00" in request.path or any("\x00" in k + v for k, v in request.args.items(multi=True)):
        return True
    if request.is_json:
        raw = request.get_data(cache=True)
        return b"\x00" in raw or b"\\u0000" in raw
    if request.method in ("POST", "PUT", "PATCH", "DELETE"):
        return any("\x00" in k + v for k, v in request.form.items(multi=True))
    return False


def init_app(app: Flask) -> None:
    app.request_class = LimitedRequest

    @app.before_request
    def refuse_nul() -> None:
        if has_nul(request):
            abort(400)

    @app.before_request
    def pages_take_forms() -> None:
        # A page's form reads a JSON body as its fields (Flask-WTF): a list, or a value of the
        # wrong shape, then failed inside the form (a 500). Pages are posted as forms; JSON is
        # the API's, under /api/.
        if request.method in WRITES and request.is_json and not request.path.startswith("/api/"):
            abort(400)

    @app.after_request
    def secure_headers(response):
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
        new_device = g.get("new_device")
        if new_device:
            # Names the device in the game's history; it grants nothing.
            keep_cookie(response, DEVICE_COOKIE, new_device, KEY_MAX_AGE)
            opened = g.get("opened")
            if opened:  # kept until the device comes back to its lists (devices.keep_opened)
                keep_cookie(response, OPENED_COOKIE, opened, KEY_MAX_AGE)
        elif g.get("drop_opened"):
            drop_cookie(response, OPENED_COOKIE)
        return response
