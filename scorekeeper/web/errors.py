"""Every error answer in one place: styled pages (or an htmx fragment) for pages, JSON for /api/.

The API blueprint has its own handlers (:func:`init_api`). An address under
/api/ that matches no route never reaches a blueprint, so the app-wide
handler answers those in JSON too. A deal or game that went away while a
write was on its way (``DealGone``/``GameGone``) is a 404 wherever it surfaces.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, NotFound

from ..i18n import render
from ..refusals import Refusal
from ..rules import FieldError, InvalidFacts
from ..rules.base import N_
from ..service import DealGone, GameGone, TableLocked
from .regions import is_htmx

PAGE_CODES = (400, 403, 404, 405, 409, 413, 422, 500)
GONE = N_("This game or deal is not there any more.")
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
    """One problem as the API lists it, in the caller's language: its field, and its deal."""
    # "deal" always, as game-record.md has it since version 1 (null: no deal is meant); a
    # rule's seat is named in its message already.
    return {"deal": error.deal, "field": error.field or None, "message": render(error.message)}


def errors_response(errors: Iterable[FieldError], status: int = 422, **extra: Any) -> Response:
    """The API's one refusal shape: ``{"errors": [{"field", "message"}]}`` (a stale write's 409
    adds ``record``), never cached."""
    response = jsonify({"errors": [error_json(e) for e in errors], **extra})
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def refused(
    exc: Refusal | InvalidFacts, page: Callable[[str], ResponseReturnValue] | None = None
) -> ResponseReturnValue:
    """Answer a refusal: the API's JSON errors, or a page. ``page(message)`` draws the page the
    user was on with the message where the eye is (a form keeps what was typed); without one, the
    error page says it."""
    status = getattr(exc, "status", 422)
    if is_api():
        return errors_response(exc.errors, status)
    message = " ".join(render(e.message) for e in exc.errors)
    if page is not None:
        return page(message)
    template = "_error.html" if is_htmx() else "error.html"
    return render_template(template, code=status, error=None, message=message), status


def _described(error: HTTPException) -> str:
    """An HTTP error's words: what the view said (``abort(..., description=...)``), else the status's."""
    own = getattr(error, "description", None)
    if own and own != type(error).description:
        return render(own)
    return render(GENERIC.get(getattr(error, "code", 500) or 500, ""))


def json_error(error: HTTPException) -> ResponseReturnValue:
    """API clients get JSON in the one shape, never a page to parse."""
    code = getattr(error, "code", 500) or 500
    response = jsonify({"errors": [{"field": None, "message": _described(error)}]})
    response.status_code = code
    return response


def page_error(error) -> ResponseReturnValue:
    if is_api():
        return json_error(error)
    code = getattr(error, "code", 500) or 500
    template = "_error.html" if is_htmx() else "error.html"
    return render_template(template, code=code, error=error), code


def gone(error: LookupError) -> ResponseReturnValue:
    """A deal or game that went away while a write was on its way: 404, as if it never was."""
    return page_error(NotFound(GONE))


def locked(error: TableLocked) -> ResponseReturnValue:
    """A write at an event's table whose round closed (or whose result was confirmed), from
    someone who is not its director: 403, saying who may and how (the write gate's rule)."""
    return refused(Refusal(None, error.message, 403))


def init_app(app: Flask) -> None:
    for code in PAGE_CODES:
        app.register_error_handler(code, page_error)
    app.register_error_handler(DealGone, gone)
    app.register_error_handler(GameGone, gone)
    app.register_error_handler(TableLocked, locked)
    app.register_error_handler(Refusal, lambda exc: refused(exc))


def init_api(bp: Blueprint) -> None:
    bp.register_error_handler(HTTPException, json_error)
    bp.register_error_handler(TableLocked, locked)
    bp.register_error_handler(Refusal, lambda exc: refused(exc))
    bp.register_error_handler(DealGone, lambda error: json_error(NotFound(GONE)))
    bp.register_error_handler(GameGone, lambda error: json_error(NotFound(GONE)))
