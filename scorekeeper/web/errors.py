"""Every error answer in one place: styled pages (or an htmx fragment) for pages, JSON for /api/.

Registered once, on the app (:func:`init_app`): every refusal of the house's one family
(:mod:`scorekeeper.refusals`, the rules' ``InvalidFacts`` and the write gates' outcomes
included) and every HTTP error is answered here, so a view raises and never translates. Under
/api/ the answer is ``{"errors": [{"field", "message"}]}`` (``deal`` where a deal is meant; a
stale write's 409 adds ``record``); an address under /api/ that matches no route is answered
in JSON too. A 405 names the methods the address takes (``Allow``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, Response, jsonify, make_response, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import InvalidRequestError
from werkzeug.exceptions import HTTPException

from .. import read
from ..db import db
from ..events import service as events
from ..i18n import render
from ..models import Club, Event
from ..refusals import Missing, Refusal, Stale
from ..rules import FieldError
from ..rules.base import N_
from .regions import is_htmx

PAGE_CODES = (400, 403, 404, 405, 409, 413, 422, 500)
# What an error says when nothing more particular is known (the pages' words, in the catalogs).
GENERIC = {
    400: N_("The page was out of date or the request was malformed. Go back, reload and try again."),
    403: N_(
        "Only the scorer's device can change this game. Open the scoring link on this device to take over."
    ),
    404: N_("There is nothing at this address. Check the link."),
    405: N_("That action is not available here."),
    409: N_("Someone else changed this game meanwhile. Reload to see the newest state."),
    413: N_("That is too large to accept."),
    422: N_("That entry breaks the rules."),
    500: N_("Something went wrong on our side. Your entry was not saved."),
}


def is_api() -> bool:
    return request.path.startswith("/api/")


def error_json(error: FieldError) -> dict[str, Any]:
    """One problem as the API lists it, in the caller's language: its field (null: none), and
    its deal only where one is meant (game-record.md; a rule's seat is named in its message)."""
    item: dict[str, Any] = {"field": error.field or None, "message": render(error.message)}
    if error.deal is not None:
        item["deal"] = error.deal
    return item


def errors_response(errors: Iterable[FieldError], status: int = 422, **extra: Any) -> Response:
    """The API's one refusal shape: ``{"errors": [{"field", "message"}]}`` (a stale write's 409
    adds ``record``), never cached."""
    response = jsonify({"errors": [error_json(e) for e in errors], **extra})
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def refused(exc: Refusal, page: Callable[[str], ResponseReturnValue] | None = None) -> ResponseReturnValue:
    """Answer a refusal: the API's JSON errors, or a page. ``page(message)`` draws the page the
    user was on with the message where the eye is (a form keeps what was typed); without one, the
    error page says it."""
    if is_api():
        if isinstance(exc, Stale):
            return stale(exc)
        return errors_response(exc.errors, exc.status)
    message = " ".join(render(e.message) for e in exc.errors)
    if page is not None:
        return page(message)
    template = "_error.html" if is_htmx() else "error.html"
    return render_template(template, code=exc.status, error=None, message=message), exc.status


def stale(exc: Stale) -> Response:
    """409 for a change based on a version that is gone: nothing of it was done. With the game's
    record or the event's document as it is now (and its ETag), to send the change again on."""
    thing = exc.aggregate
    if isinstance(thing, Club):
        return errors_response(exc.errors, 409)
    if isinstance(thing, Event):
        # The transaction that lost is over: the event as the winner left it.
        db.session.rollback()
        try:
            db.session.refresh(thing)
        except InvalidRequestError:  # deleted meanwhile (its club deleted): gone, as if never there
            return make_response(refused(Missing(None, N_("No such event."))))
        from .auth import hand_event, may  # auth reads this module's answers: asked when drawn

        director = may().direct_event(thing)
        try:
            record = events.document(thing, director=director)
        except Missing as gone:  # its club deleted between the refresh and the drawing: a 404
            return make_response(refused(gone))
        if director:
            hand_event(thing, record)  # what a director's document hands out is proven for them
    else:
        record = read.public_record(thing)
    response = errors_response(exc.errors, 409, record=record)
    response.set_etag(str(thing.version))
    return response


def _described(error: HTTPException) -> str:
    """An HTTP error's words: what the view said (``abort(..., description=...)``), else the status's."""
    own = getattr(error, "description", None)
    if own and own != type(error).description:
        return render(own)
    return render(GENERIC.get(getattr(error, "code", 500) or 500, ""))


def _with_headers(response: Response, error: HTTPException) -> Response:
    """The error's own headers on the answer drawn for it: a 405's ``Allow``, a 429's ``Retry-After``."""
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


def json_error(error: HTTPException) -> ResponseReturnValue:
    """API clients get JSON in the one shape, never a page to parse."""
    code = getattr(error, "code", 500) or 500
    response = jsonify({"errors": [{"field": None, "message": _described(error)}]})
    response.status_code = code
    response.headers["Cache-Control"] = "no-store"
    return _with_headers(response, error)


def page_error(error: HTTPException) -> ResponseReturnValue:
    if is_api():
        return json_error(error)
    code = getattr(error, "code", 500) or 500
    if code not in PAGE_CODES:
        return error
    template = "_error.html" if is_htmx() else "error.html"
    response = make_response(render_template(template, code=code, error=error), code)
    return _with_headers(response, error)


def init_app(app: Flask) -> None:
    """The one registration: every HTTP error and every refusal, pages and API alike."""
    app.register_error_handler(HTTPException, page_error)
    app.register_error_handler(Refusal, lambda exc: refused(exc))
