"""What goes over the wire: compression, static files cached for a year, and a session cookie only when it is needed.

- Responses are compressed (Flask-Compress: brotli when the browser takes it, else gzip).
- Every ``url_for("static", ...)`` carries ``?v=`` and a hash of the file's content; a
  request with the current hash is answered ``Cache-Control: public, max-age=31536000,
  immutable`` (a changed file has a new URL, so nothing stale is ever kept).
- A hashed static file is compressed once per process at the strongest level (brotli 11,
  gzip 9), scripts and style sheets minified first (rjsmin, rcssmin), and kept: it never changes under its URL, so the phone's first load is as small
  as it can be and no request pays for that compression twice.
- The session (it holds the CSRF token) is made permanent when it is written, and its
  cookie is never sent with a static file or a 304: those touch no session at all.
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface
from flask_compress import Compress

from .. import stores
from ..lru import LocalLRU
from . import secrecy

YEAR = 365 * 24 * 3600
compress = Compress()
# Text worth compressing; images (PNG) and PDF files are compressed already.
COMPRESSED = [
    "text/html",
    "text/css",
    "text/plain",
    "text/csv",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
]


# A few dozen static files: each one's hash, and each one compressed per encoding (a file changed
# in place, during development, takes a new entry; the oldest go).
STATIC_HASHES = stores.store("static_hashes", 1024, doc="each static file's content hash")
PACKED_STATIC = stores.store("packed_static", 1024, doc="static files compressed per encoding")


class StaticHashes:
    """The content hash of each static file, read once per file per process (and again if it changes)."""

    def __init__(self, folder: str, known: LocalLRU[str, tuple[int, str]]):
        self.folder = Path(folder)
        self.known = known

    def __call__(self, filename: str) -> str | None:
        path = self.folder / filename
        try:
            mtime = path.stat().st_mtime_ns
        except (OSError, ValueError):
            return None
        seen = self.known.get(filename)
        if seen is None or seen[0] != mtime:
            if not path.is_file() or not path.resolve().is_relative_to(self.folder.resolve()):
                return None
            seen = (mtime, hashlib.sha256(path.read_bytes()).hexdigest()[:12])
            self.known.put(filename, seen)
        return seen[1]


class PackedStatic:
    """Static files compressed once, at the strongest level, per (file, hash, encoding)."""

    def __init__(self, folder: str, packed: LocalLRU[tuple[str, str, str], bytes]):
        self.folder = Path(folder)
        self.packed = packed

    def __call__(self, filename: str, digest: str, encoding: str) -> bytes:
        key = (filename, digest, encoding)
        body = self.packed.get(key)
        if body is None:
            raw = minified(filename, (self.folder / filename).read_bytes())
            body = brotli.compress(raw, quality=11) if encoding == "br" else gzip.compress(raw, 9, mtime=0)
            self.packed.put(key, body)
        return body


def minified(filename: str, raw: bytes) -> bytes:
    """A script or style sheet without its comments and spaces (the repo keeps them readable)."""
    if filename.endswith(".min.js"):
        return raw  # minified by its makers (htmx)
    if filename.endswith(".js"):
        return rjsmin.jsmin(raw.decode()).encode()
    if filename.endswith(".css"):
        return rcssmin.cssmin(raw.decode()).encode()
    return raw


def accepted_encoding() -> str | None:
    offered = request.accept_encodings
    for encoding in ("br", "gzip"):
        if offered[encoding]:
            return encoding
    return None


def compress_refusal(response: Response, least: int) -> None:
    """A 4xx text answer compressed as Flask-Compress would a 2xx one (brotli 5, else gzip 6)."""
    if response.direct_passthrough or response.is_streamed or "Content-Encoding" in response.headers:
        return
    if response.mimetype not in COMPRESSED:
        return
    response.vary.add("Accept-Encoding")
    encoding = accepted_encoding()
    raw = response.get_data()
    if encoding is None or len(raw) < least:
        return
    body = brotli.compress(raw, quality=5) if encoding == "br" else gzip.compress(raw, 6)
    response.set_data(body)
    response.headers["Content-Encoding"] = encoding


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, permanent once written, and left alone on static files and 304s."""

    def open_session(self, app, request):
        if not request.cookies.get(self.get_cookie_name(app)) and app.secret_key:
            # Nothing to read (an API client, a first visit): no signer is built for it.
            return self.session_class()
        return super().open_session(app, request)

    def get_cookie_secure(self, app) -> bool:
        # SESSION_COOKIE_SECURE is one value for every request; the site is often reached over
        # both (HTTPS through its proxy, plain HTTP on the LAN), and the other cookies follow
        # each request's scheme: so does this one, never sent in clear once set over HTTPS.
        return bool(super().get_cookie_secure(app)) or request.is_secure

    def save_session(self, app, session, response) -> None:
        if request.endpoint == "static" or response.status_code == 304:
            return
        if session.modified and session and not session.permanent:
            # The CSRF token lives here: keep it past a browser restart, so a scoring page
            # reopened from a phone's tabs still submits.
            session.permanent = True
        super().save_session(app, session, response)


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    compress.init_app(app)
    # After Flask-Compress: its hook then runs after this one, which reads the plain body.
    secrecy.init_app(app)
    app.session_interface = SessionInterface()
    hashes = StaticHashes(app.static_folder or "static", STATIC_HASHES.of(app))
    packed = PackedStatic(app.static_folder or "static", PACKED_STATIC.of(app))

    @app.url_defaults
    def hashed_static(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "v" not in values:
            digest = hashes(values.get("filename") or "")
            if digest:
                values["v"] = digest

    @app.after_request
    def cache_static(response: Response) -> Response:
        if request.endpoint == "static" and response.status_code in (200, 304):
            filename = (request.view_args or {}).get("filename", "")
            if request.args.get("v") and request.args.get("v") == hashes(filename):
                response.cache_control.public = True
                response.cache_control.max_age = YEAR
                response.cache_control.immutable = True
                response.cache_control.no_cache = None
                if response.status_code == 200 and response.mimetype in COMPRESSED:
                    pack(response, filename, request.args["v"])
        return response

    @app.after_request
    def compress_refusals(response: Response) -> Response:
        # Flask-Compress leaves every answer outside 2xx alone; a refused entry (422), a conflict
        # (409) or a missing page (404) is read on the same phone over the same network.
        if 400 <= response.status_code < 500:
            compress_refusal(response, int(app.config["COMPRESS_MIN_SIZE"]))
        return response

    def pack(response: Response, filename: str, digest: str) -> None:
        """The file's kept strongest compression in place of the file (Flask-Compress then
        leaves a response that already has its encoding alone)."""
        response.vary.add("Accept-Encoding")
        encoding = accepted_encoding()
        if encoding is None:
            return
        body = packed(filename, digest, encoding)
        if len(body) >= (response.content_length or 0):
            return
        response.direct_passthrough = False
        response.set_data(body)
        response.headers["Content-Encoding"] = encoding
        etag, weak = response.get_etag()
        if etag:
            response.set_etag(f"{etag}-{encoding}", weak=bool(weak))
