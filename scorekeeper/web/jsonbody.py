"""The API's bodies: a JSON object, or nothing; anything else is refused (400) before anything
happens, in the API's one error shape.

Every ``/api`` call that takes a body (POST, PUT, PATCH) has it read here once, before its view
runs (:func:`init_app`): a body that is not JSON (``nope``, a truncated ``{"close": true``), or
is JSON but not an object (``[1, 2]``, ``"x"``), answers 400 and the view never runs, so it can
neither start a round nor be read as ``{}``. An empty body is ``{}`` to the calls whose fields
are all optional; the calls that need one (a record, a deal) ask with ``required``.

Python's JSON parser raises RecursionError, not ValueError, on very deep nesting, so the
request class turns that into the same 400.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, request

from ..refusals import Refusal
from ..rules.base import N_

TOO_DEEP = N_("The JSON body is nested too deeply.")
NOT_JSON = N_("The body is not JSON: send a JSON object (Content-Type: application/json).")
NOT_OBJECT = N_("The body must be a JSON object.")
BODIES = frozenset({"POST", "PUT", "PATCH"})


class JSONSafeRequest(Request):
    def get_json(self, force: bool = False, silent: bool = False, cache: bool = True) -> Any:
        try:
            return super().get_json(force=force, silent=silent, cache=cache)
        except RecursionError:
            # Refused even when ``silent``: "not JSON" would hide what is wrong.
            raise Refusal(None, TOO_DEEP, 400) from None

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        raise Refusal(None, NOT_JSON, 400)


def json_body(required: bool = False) -> dict[str, Any]:
    """The one reader of a JSON API call's body: a JSON object (an empty body reads as ``{}``
    unless ``required``). Anything else is refused (400) in the API's one error shape."""
    if not request.get_data(cache=True).strip():
        if required:
            raise Refusal(None, NOT_OBJECT, 400)
        return {}
    data = request.get_json(force=True)
    if not isinstance(data, dict):
        raise Refusal(None, NOT_OBJECT, 400)
    return data


def init_app(app: Flask) -> None:
    @app.before_request
    def api_bodies() -> None:
        # Only a call that reached a route: an address that is not there is 404, a method it
        # does not take 405, whatever the body.
        if request.method in BODIES and request.url_rule is not None and request.path.startswith("/api/"):
            json_body()
