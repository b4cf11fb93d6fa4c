"""``GET /api/openapi.json``: the API's OpenAPI 3.1 description, shipped with the code.

The document is ``docs/openapi.json`` (inside the package in a wheel, see setup.py). The
game record's JSON Schema, ``docs/game-record.schema.json``, is the one source of the
record's shape: its definitions are put into the document's ``components.schemas`` here,
once per process, so the two can never disagree. Tests keep the document's paths in step
with the app's routes and validate it against the OpenAPI specification.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from flask import Blueprint, current_app
from flask.typing import ResponseReturnValue

from ...paths import site_folder

bp = Blueprint("docs", __name__)
DOCS = site_folder("docs")
RECORD_REF = "#/$defs/"
COMPONENT_REF = "#/components/schemas/"


def read(name: str) -> Any:
    return json.loads((DOCS / name).read_text(encoding="utf-8"))


def record_schema() -> dict:
    """The game record's JSON Schema (docs/game-record.schema.json)."""
    return read("game-record.schema.json")


def as_components(schema: dict) -> dict[str, Any]:
    """The record schema's definitions as OpenAPI components, their references re-pointed."""

    def repoint(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                key: (COMPONENT_REF + value[len(RECORD_REF) :])
                if key == "$ref" and isinstance(value, str) and value.startswith(RECORD_REF)
                else repoint(value)
                for key, value in node.items()
            }
        if isinstance(node, list):
            return [repoint(item) for item in node]
        return node

    return {name: repoint(definition) for name, definition in schema["$defs"].items()}


# Not a registered store: one constant document, bounded by nature.
@cache
def openapi_document() -> str:
    document = read("openapi.json")
    document["components"]["schemas"] = {
        **as_components(record_schema()),
        **document["components"].get("schemas", {}),
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


@bp.get("/api/openapi.json")
def openapi() -> ResponseReturnValue:
    """The OpenAPI 3.1 description of the JSON API."""
    response = current_app.response_class(openapi_document(), mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Access-Control-Allow-Origin"] = "*"  # API tools read it from their own origin
    return response
