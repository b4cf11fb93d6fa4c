"""``GET /api/openapi.json``: the API's OpenAPI 3.1 description, made from the code.

The document is ``docs/openapi.json`` (inside the package in a wheel, see setup.py) as
:mod:`.describe` makes it: the game record's definitions, the registries' kinds, options and
formats, and every status each call answers. The repository's file is already what it makes (a
test keeps it so: ``python -m scorekeeper.web.api.describe`` writes it again); serving it made
afresh means a file left behind by a code change never reaches a client.
"""

from __future__ import annotations

from functools import cache

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue

from . import describe

bp = Blueprint("docs", __name__)


# Not a registered store: one constant document, bounded by nature.
@cache
def openapi_document() -> str:
    return describe.text(describe.document())


@bp.get("/api/openapi.json")
def openapi() -> ResponseReturnValue:
    """The OpenAPI 3.1 description of the JSON API."""
    response = current_app.response_class(openapi_document(), mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Access-Control-Allow-Origin"] = "*"  # API tools read it from their own origin
    return response
