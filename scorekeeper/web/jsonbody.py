"""The request class: a JSON body nested too deeply is the client's mistake (400), not a 500.

Python's JSON parser raises RecursionError, not ValueError, on very deep nesting, so
Flask's own "bad JSON" handling never sees it.
"""

from __future__ import annotations

from typing import Any

from flask import Request
from werkzeug.exceptions import BadRequest

TOO_DEEP = "The JSON body is nested too deeply."


class JSONSafeRequest(Request):
    def get_json(self, force: bool = False, silent: bool = False, cache: bool = True) -> Any:
        try:
            return super().get_json(force=force, silent=silent, cache=cache)
        except RecursionError:
            # Refused even when ``silent``: "not JSON" would hide what is wrong.
            raise BadRequest(description=TOO_DEEP) from None
