"""The API's OpenAPI 3.1 description, made from the code (issue 56).

``docs/openapi.json`` holds what only a person can write (each call's summary, its prose, its
request and answer bodies); everything the code knows is made here and written into it, so the
file, what ``/api/openapi.json`` serves and the app cannot disagree:

- the game record's definitions (assembled from the registered games' folders, as
  ``docs/game-record.schema.json`` is for the built-in ones) as ``components.schemas``, so that
  the file validates on its own;
- the registries: the game kinds (``scorekeeper.games``) and each game's options with their
  types, bounds and choices; the event formats (``scorekeeper.events.formats``) and each
  format's own settings (its :class:`~scorekeeper.events.formats.Option`'s schema), and a
  round's statuses;
- the refusals: every 4xx any call answers, each with the one error body (``Errors``:
  ``{"errors": [{"field", "message"}]}``, ``deal`` where a deal is meant; a stale write's 409
  adds ``record``), from the rules of :data:`ANSWERS` below and the routes' own.

``python -m scorekeeper.web.api.describe`` (or ``scorekeeper openapi``) writes the file again;
``tests/docs/test_openapi_and_schema.py`` fails while the file is not what this makes.
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

from ...events.formats import FORMATS
from ...events.formats import options as format_options
from ...games import FOLDERS, GAMES, schema
from ...paths import site_folder

DOCS = site_folder("docs")
RECORD_REF = "#/$defs/"
COMPONENT_REF = "#/components/schemas/"
RESPONSES = "#/components/responses/"


def read(name: str) -> Any:
    return json.loads((DOCS / name).read_text(encoding="utf-8"))


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


# -- the registries --------------------------------------------------------------------------


def camel(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("_"))


def option_schema(option: Any, written: dict[str, Any]) -> dict[str, Any]:
    """One game option as the rules check it; a "custom" option (the game checks it itself) keeps
    the schema written for it."""
    if option.kind == "custom":
        return written
    schema: dict[str, Any] = {k: v for k, v in written.items() if k in ("description", "title", "examples")}
    if option.kind == "bool":
        schema["type"] = "boolean"
    elif option.kind == "choice":
        schema["enum"] = [value for value, _ in option.choices]
    else:
        schema["type"] = "integer"
        if option.minimum is not None:
            schema["minimum"] = option.minimum
        if option.maximum is not None:
            schema["maximum"] = option.maximum
    if option.nullable:
        if "enum" in schema:
            schema["enum"] = [*schema["enum"], None]
        else:
            schema["type"] = [schema["type"], "null"]
    schema["default"] = option.default
    return schema


def registries(schemas: dict[str, Any]) -> None:
    """Game kinds and options, event formats, pairings and round statuses, as the code has them."""
    schemas["GameKind"]["enum"] = list(GAMES)
    for kind, game in GAMES.items():
        name = f"{camel(kind)}Options"
        if name not in schemas:
            continue
        written = schemas[name].setdefault("properties", {})
        schemas[name]["properties"] = {o.key: option_schema(o, written.get(o.key, {})) for o in game.options}
        schemas[name]["additionalProperties"] = False
    formats = list(FORMATS)
    for name in ("EventInput", "Event"):
        if name in schemas:
            schemas[name]["properties"]["format"]["enum"] = formats
    if "EventInput" in schemas:
        properties = schemas["EventInput"]["properties"]
        properties["game"] = {"$ref": COMPONENT_REF + "GameKind"}
        for key, option in format_options().items():  # each format's settings, as its file says
            properties[key] = dict(option.schema)
    if "EventRound" in schemas:
        schemas["EventRound"]["properties"]["status"]["enum"] = list(ROUND_STATUSES)


# What a round of an event is at (events/service.round_status).
ROUND_STATUSES = ("done", "playing", "planned")


# -- the refusals ------------------------------------------------------------------------------


def errors_schema(record: str | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"$ref": COMPONENT_REF + "Errors"}
    if record is None:
        return schema
    return {
        "allOf": [
            schema,
            {
                "type": "object",
                "required": ["record"],
                "properties": {"record": {"$ref": COMPONENT_REF + record}},
            },
        ]
    }


def answer(description: str, record: str | None = None, headers: dict | None = None) -> dict[str, Any]:
    made: dict[str, Any] = {"description": description}
    if headers:
        made["headers"] = headers
    made["content"] = {"application/json": {"schema": errors_schema(record)}}
    return made


ALLOW = {"Allow": {"description": "The methods the address takes.", "schema": {"type": "string"}}}
RETRY = {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}}

# Every refusal's answer: the one error body, and a stale write's the thing as it is now.
STANDARD = {
    "BadRequest": answer(
        "The request is malformed: a body that is not a JSON object, a bad If-Match or "
        "Idempotency-Key, a NUL character anywhere; nothing changed."
    ),
    "Forbidden": answer(
        "The call needs a key it did not carry, or one that may not do this; nothing changed."
    ),
    "NotFound": answer("No such thing, or one the caller may not see (the same answer)."),
    "MethodNotAllowed": answer(
        "The address does not take this method (Allow names those it takes).", headers=ALLOW
    ),
    "Clash": answer("Not now: the state of things refuses it; nothing changed."),
    "Conflict": answer(
        "The game changed since the version in If-Match; nothing was written (record: the newer one).",
        "GameRecordOutput",
    ),
    "EventConflict": answer(
        "The event changed meanwhile, or its round is still open; nothing was done (record: the event now).",
        "Event",
    ),
    "TooLarge": answer("The body is too large; nothing changed."),
    "Invalid": answer("An invalid record, deal or body; nothing changed."),
    "TooMany": answer("Too many failed credential checks or creations from this address.", headers=RETRY),
}
REFUSALS = {
    400: "BadRequest",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    409: "Clash",
    413: "TooLarge",
    422: "Invalid",
    429: "TooMany",
}

# What each call answers besides what every call may (400; 404 with a path parameter; 413 and
# 422 with a body; 429 with a credential): (method, path) -> {status: standard answer}.
ANSWERS: dict[tuple[str, str], dict[int, str]] = {
    ("post", "/api/games"): {404: "NotFound", 409: "Clash"},
    ("post", "/api/games/{id}/deals"): {403: "Forbidden", 409: "Conflict"},
    ("put", "/api/games/{id}/deals/{k}"): {403: "Forbidden", 409: "Conflict"},
    ("delete", "/api/games/{id}/deals/{k}"): {403: "Forbidden", 409: "Conflict", 422: "Invalid"},
    ("get", "/api/games/{id}/seats"): {403: "Forbidden"},
    ("put", "/api/games/{id}/allotment/{seat}"): {403: "Forbidden", 409: "Clash"},
    ("put", "/api/games/{id}/orders/{seat}"): {403: "Forbidden", 409: "Clash"},
    ("post", "/api/clubs"): {403: "Forbidden", 404: "NotFound", 409: "Clash"},
    ("post", "/api/clubs/{slug}/join"): {409: "Clash"},
    ("post", "/api/clubs/{slug}/invites"): {403: "Forbidden", 409: "Clash"},
    ("delete", "/api/clubs/{slug}/invites/{token}"): {403: "Forbidden", 409: "Clash"},
    ("delete", "/api/clubs/{slug}/members/{name}"): {403: "Forbidden", 409: "Clash"},
    ("get", "/api/clubs/{slug}/ratings"): {},
    ("get", "/api/clubs/{slug}/season"): {422: "Invalid"},
    ("post", "/api/clubs/{slug}/events"): {409: "Clash"},
    ("post", "/api/events/{id}/rounds"): {403: "Forbidden", 409: "EventConflict"},
    ("post", "/api/events/{id}/players"): {403: "Forbidden", 409: "EventConflict"},
    ("post", "/api/events/{id}/rounds/{round}/tables/{table}/confirm"): {
        403: "Forbidden",
        409: "Clash",
        422: "Invalid",
    },
    ("post", "/api/events/{id}/rounds/{round}/close"): {403: "Forbidden", 409: "EventConflict"},
    ("post", "/api/events/{id}/arrivals"): {409: "Clash"},
    ("delete", "/api/events/{id}/arrivals/{name}"): {403: "Forbidden", 409: "EventConflict"},
}
METHODS = ("get", "put", "post", "delete", "patch")
# Calls that check no credential and count nothing (no 429).
UNCOUNTED = {("get", "/api/openapi.json")}


def statuses(doc: dict[str, Any]) -> None:
    """Every status each call answers, each 4xx with the one error body (a description written
    for the call is kept beside the reference)."""
    doc["components"]["responses"] = copy.deepcopy(STANDARD)
    for path, item in doc["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            has_params = "{" in path
            answers: dict[int, str] = {400: "BadRequest"}
            if has_params:
                answers[404] = "NotFound"
            if "requestBody" in operation:
                answers.update({413: "TooLarge", 422: "Invalid"})
            if (method, path) not in UNCOUNTED:
                answers[429] = "TooMany"
            answers.update(ANSWERS.get((method, path), {}))
            responses = operation["responses"]
            for status in responses:
                # A refusal written for the call: its status's one answer, its words kept.
                if status.startswith("4") and int(status) not in answers:
                    answers[int(status)] = REFUSALS[int(status)]
            for status, name in answers.items():
                written = responses.get(str(status), {})
                made: dict[str, Any] = {"$ref": RESPONSES + name}
                description = written.get("description")
                if description and description != STANDARD[name]["description"]:
                    made["description"] = description
                responses[str(status)] = made
            operation["responses"] = dict(sorted(responses.items()))


def document(written: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole description: what is written in docs/openapi.json, and what the code knows."""
    doc = copy.deepcopy(written if written is not None else read("openapi.json"))
    components = doc.setdefault("components", {})
    own = {k: v for k, v in components.get("schemas", {}).items() if k not in ("Problem",)}
    # The registry of the moment: a game registered after start-up is described as it is served.
    record = as_components(schema.assemble(FOLDERS.values()))
    components["schemas"] = {**record, **{k: v for k, v in own.items() if k not in record}}
    registries(components["schemas"])
    statuses(doc)
    return doc


def text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def main() -> None:
    """Write docs/openapi.json as the code makes it."""
    path = DOCS / "openapi.json"
    path.write_text(text(document()), encoding="utf-8")
    sys.stdout.write(f"wrote {path}\n")


if __name__ == "__main__":
    main()
