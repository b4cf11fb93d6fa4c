"""Every error answer in one place: styled pages (or an htmx fragment) for pages, JSON for /api/.

The API blueprint has its own handlers (:func:`init_api`). An address under
/api/ that matches no route never reaches a blueprint, so the app-wide
handler answers those in JSON too. A deal or game that went away while a
write was on its way (``DealGone``/``GameGone``) is a 404 wherever it surfaces.
"""

from __future__ import annotations

from flask import Blueprint, Flask, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import Forbidden, HTTPException, NotFound

from ..i18n import render
from ..service import DealGone, GameGone, TableLocked
from .common import is_htmx

PAGE_CODES = (400, 403, 404, 405, 409, 413, 422, 500)
GONE = "This game or deal is not there any more."


def json_error(error) -> ResponseReturnValue:
    """API clients get JSON, never a page to parse."""
    code = getattr(error, "code", 500) or 500
    return jsonify(
        {"error": getattr(error, "name", "Error"), "message": getattr(error, "description", "")}
    ), code


def page_error(error) -> ResponseReturnValue:
    if request.path.startswith("/api/"):
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
    if request.path.startswith("/api/"):
        return json_error(Forbidden(error.message.render()))
    template = "_error.html" if is_htmx() else "error.html"
    return render_template(template, code=403, error=None, message=render(error.message)), 403


def init_app(app: Flask) -> None:
    for code in PAGE_CODES:
        app.register_error_handler(code, page_error)
    app.register_error_handler(DealGone, gone)
    app.register_error_handler(GameGone, gone)
    app.register_error_handler(TableLocked, locked)


def init_api(bp: Blueprint) -> None:
    bp.register_error_handler(HTTPException, json_error)
    bp.register_error_handler(TableLocked, locked)
    bp.register_error_handler(DealGone, lambda error: json_error(NotFound(GONE)))
    bp.register_error_handler(GameGone, lambda error: json_error(NotFound(GONE)))
