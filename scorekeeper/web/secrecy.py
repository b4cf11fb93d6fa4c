"""No answer that carries a credential is kept: ``Cache-Control: no-store`` (issue 39).

A scoring link (``?key=``), an invite (``/join/<token>``), a member's, director's or table's key
in the API's JSON, a seat's private link, or a QR code of any of them: a browser's cache, a
shared computer's back button or a proxy must not keep the page. Rather than each view
remembering to say so (the director's print page of the tables' QR codes did not), every answer
is looked at once, here, before it is compressed:

- a QR code of a secret link marks the request as it is drawn (templating.qr_svg calls
  :func:`mark`), since a code shows no text to find;
- an HTML page holding a scoring or invite link, or an API answer naming a credential field,
  is found by a plain byte search (a few microseconds on a page of tens of kilobytes).
"""

from __future__ import annotations

from flask import Flask, Response, g

# The API's credential fields ("edit_key", "member_key", "director_key", "invite", a seat's
# "token" and "link") as they appear in its JSON.
IN_JSON = (b'_key"', b'"invite"', b'"token"', b'"link"')
# A scoring link's key and an invite link, as a page writes them.
IN_PAGE = (b"?key=", b"&amp;key=", b"&key=", b"/join/")
# What each of those holds: a page holding neither is found clean in two searches, not four (each
# search reads the whole page: a 240-deal board is half a megabyte, 0.3 ms a search).
IN_PAGE_ANY = (b"key=", b"/join/")
SECRET_LINK = ("key=", "/join/", "/p/")


def mark() -> None:
    """This request's answer carries a credential that no text search would find (a QR code)."""
    g.carries_secret = True


def looked_at(secret: bool) -> None:
    """This request's answer was looked at already (a kept page, looked at once when it was kept):
    ``secret`` is what was found, and the answer is not searched again."""
    g.carries_secret = secret or bool(g.get("carries_secret"))


def secret_link(url: str) -> bool:
    """Whether ``url`` is a scoring, invite or private link (it carries its credential)."""
    return any(part in url for part in SECRET_LINK)


def carries_secret(response: Response) -> bool:
    # True: marked (mark); False: looked at already and clean (looked_at); None: search the body.
    known = g.get("carries_secret")
    if known is not None:
        return bool(known)
    if response.direct_passthrough or response.is_streamed or response.headers.get("Content-Encoding"):
        return False
    if response.mimetype == "application/json":
        first, found = None, IN_JSON
    elif response.mimetype == "text/html":
        first, found = IN_PAGE_ANY, IN_PAGE
    else:
        return False
    body = response.get_data()
    if first is not None and not any(part in body for part in first):
        return False  # none of what the links hold: no link either
    return any(part in body for part in found)


def init_app(app: Flask) -> None:
    """Registered after Flask-Compress (wire.init_app): after_request hooks run last-registered
    first, so this one reads the body before it is compressed."""

    @app.after_request
    def no_store(response: Response) -> Response:
        if carries_secret(response):
            response.headers["Cache-Control"] = "no-store"
        return response
