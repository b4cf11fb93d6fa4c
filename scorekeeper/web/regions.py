"""htmx: whether a request wants a fragment, and the whole page or only its changed region as the answer."""

from __future__ import annotations

from typing import Any

from flask import make_response, render_template, request
from flask.typing import ResponseReturnValue


def is_htmx() -> bool:
    """An htmx request for a fragment (a boosted navigation wants the whole page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def render_region(page: str, partial: str, status: int = 200, **context: Any) -> ResponseReturnValue:
    """The whole page, or to htmx only the region that changed."""
    htmx = is_htmx()
    response = make_response(render_template(partial if htmx else page, **context), status)
    response.vary.add("HX-Request")
    if htmx and status == 422:
        # A refused entry: bring the form (and its messages) into view, not the scoreboard.
        response.headers["HX-Reswap"] = "outerHTML show:#entry:top"
    return response
