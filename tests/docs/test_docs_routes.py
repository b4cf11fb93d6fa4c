"""docs/api.md and docs/openapi.json against the app's URL map, both ways.

Every route documented in docs/api.md must exist in the app, and every /api/ route of the
app must be documented there and in the OpenAPI description. Routes of the public contract
that other work is building now are named in BEING_BUILT: documented, not yet in the app.
The test fails as soon as one of them lands, so the list is emptied as they arrive (the
lead's job), never left stale.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorekeeper import create_app

DOCS = Path(__file__).resolve().parents[2] / "docs"
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
# A documented route: a table row whose first cell is `METHOD /path`.
DOCUMENTED = re.compile(r"^\| `(" + "|".join(METHODS) + r") (/[^`\s]*)`", re.M)

# Documented from shared/spec (clubs.md, events.md, game-record.md's seat entry), being built now.
BEING_BUILT: set[str] = set()
# In the app still, retired by the contract (clubs.md: "GET /api/ratings is gone"), so not documented.
BEING_REMOVED: set[str] = set()


def shape(route: str) -> str:
    """``METHOD /path`` with every parameter as ``<>``: Flask's ``<int:k>``, the docs' ``<k>``, OpenAPI's ``{k}``."""
    return re.sub(r"<[^>]*>|\{[^}]*\}", "<>", route)


def shapes(routes) -> set[str]:
    return {shape(r) for r in routes}


@pytest.fixture(scope="module")
def url_map() -> set[str]:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://"}, start=False
    )
    return {
        shape(f"{method} {rule.rule}")
        for rule in app.url_map.iter_rules()
        for method in rule.methods or ()
        if method in METHODS
    }


@pytest.fixture(scope="module")
def documented() -> set[str]:
    found = {f"{method} {path}" for method, path in DOCUMENTED.findall((DOCS / "api.md").read_text("utf-8"))}
    assert len(found) > 20, "docs/api.md's route tables were not found"
    return found


@pytest.fixture(scope="module")
def openapi_routes() -> set[str]:
    document = json.loads((DOCS / "openapi.json").read_text("utf-8"))
    return {
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in item
        if method.upper() in METHODS
    }


def api(routes: set[str]) -> set[str]:
    return {r for r in routes if r.split(" ", 1)[1].startswith("/api/")}


def test_every_documented_route_exists_or_is_named_as_being_built(url_map, documented):
    missing = shapes(documented) - url_map - shapes(BEING_BUILT)
    assert not missing, f"documented in docs/api.md but not in the app: {sorted(missing)}"


def test_every_api_route_of_the_app_is_documented(url_map, documented):
    undocumented = api(url_map) - shapes(documented) - shapes(BEING_REMOVED)
    assert not undocumented, f"in the app but not in docs/api.md: {sorted(undocumented)}"


def test_the_being_built_list_holds_only_what_is_documented_and_not_yet_there(url_map, documented):
    assert shapes(BEING_BUILT) <= shapes(documented), "a BEING_BUILT route is not in docs/api.md"
    landed = shapes(BEING_BUILT) & url_map
    assert not landed, f"now in the app: take these out of BEING_BUILT: {sorted(landed)}"


def test_the_being_removed_list_holds_only_what_the_app_still_has(url_map, documented):
    gone = shapes(BEING_REMOVED) - url_map
    assert not gone, f"no longer in the app: take these out of BEING_REMOVED: {sorted(gone)}"
    assert not shapes(BEING_REMOVED) & shapes(documented)


def test_the_openapi_paths_are_the_documented_api_routes(documented, openapi_routes):
    assert shapes(openapi_routes) == api(shapes(documented))


def test_every_openapi_path_exists_or_is_being_built_and_every_api_route_is_there(url_map, openapi_routes):
    assert not shapes(openapi_routes) - url_map - shapes(BEING_BUILT)
    assert not api(url_map) - shapes(openapi_routes) - shapes(BEING_REMOVED)


def test_shapes_compare_flask_docs_and_openapi_spellings():
    assert shape("PUT /api/games/<game_id>/deals/<int:k>") == shape("PUT /api/games/{id}/deals/{k}")
    assert shape("GET /help/<game>") == "GET /help/<>"
