"""``GET /api/openapi.json``: the API's OpenAPI 3.1 description, made from the code.

The document is ``docs/openapi.json`` (inside the package in a wheel, see setup.py) as
:mod:`.describe` makes it: the game record's definitions, the registries' kinds, options and
formats, and every status each call answers. The repository's file is already what it makes (a
test keeps it so: ``python -m scorekeeper.web.api.describe`` writes it again); serving it made
afresh means a file left behind by a code change never reaches a client.
"""

from __future__ import annotations

from threading import Lock

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue

from ...events.formats import FORMATS
from ...games import GAMES
from . import describe

bp = Blueprint("docs", __name__)

# Not a registered store: one document, made again only when the registries change (a game or
# format registered after start-up is described as it is served); one slot, bounded by nature.
_made: dict[str, tuple[tuple[int, ...], str]] = {}
_making = Lock()


def openapi_document() -> str:
    mark = tuple(id(x) for x in (*GAMES.values(), *FORMATS.values()))
    made = _made.get("doc")
    if made is None or made[0] != mark:
        with _making:
            made = _made["doc"] = (mark, describe.text(describe.document()))
    return made[1]


@bp.get("/api/openapi.json")
def openapi() -> ResponseReturnValue:
    """The OpenAPI 3.1 description of the JSON API."""
    response = current_app.response_class(openapi_document(), mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Access-Control-Allow-Origin"] = "*"  # API tools read it from their own origin
    return response
