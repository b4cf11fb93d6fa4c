"""The request class: a JSON body nested too deeply is the client's mistake (400), not a 500.

Python's JSON parser raises RecursionError, not ValueError, on very deep nesting, so
Flask's own "bad JSON" handling never sees it.
"""

from __future__ import annotations

from typing import Any

from flask import Request, request
from werkzeug.exceptions import BadRequest

from ..refusals import Refusal
from ..rules.base import N_

TOO_DEEP = N_("The JSON body is nested too deeply.")


class JSONSafeRequest(Request):
    def get_json(self, force: bool = False, silent: bool = False, cache: bool = True) -> Any:
        try:
            return super().get_json(force=force, silent=silent, cache=cache)
        except RecursionError:
            # Refused even when ``silent``: "not JSON" would hide what is wrong.
            raise BadRequest(description=TOO_DEEP) from None


def json_body(object_only: bool = True, required: bool = False) -> Any:
    """The one reader of a JSON API call's body.

    ``object_only``: the body must be a JSON object (an empty body reads as ``{}`` unless
    ``required``). Anything else is refused (400) in the API's one error shape.
    """
    data = request.get_json(silent=True)
    if data is None:
        if required:
            raise Refusal(None, N_("The body must be JSON."), 400)
        data = {}
    if object_only and not isinstance(data, dict):
        raise Refusal(None, N_("The body must be a JSON object."), 400)
    return data
