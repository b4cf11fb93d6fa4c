"""The game record's JSON Schema, assembled from the games' own fragments.

``games/record.schema.json`` holds what every record shares (seats, names, the output's derived
fields); each registered game adds, from its folder's ``schema.json``, its branch of
``GameRecord`` (the fragment's ``then``: its player counts, options and deals or turns, checked
when ``game`` is its key) and its definitions (the fragment's ``$defs``), and its key joins the
``GameKind`` enum. ``docs/game-record.schema.json`` is this assembly written out (the docs and
the API serve that file); tests/docs/test_schema_assembled.py checks it is, and rewrites it with
``SCOREKEEPER_REGENERATE=1``.

Pure: no Flask, no database.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .folder import Folder

BASE = Path(__file__).with_name("record.schema.json")


def fragment(folder: Folder) -> dict[str, Any]:
    """A game's fragment: ``{"then": {...}, "$defs": {...}}`` from its folder's ``schema.json``."""
    found: dict[str, Any] = json.loads((folder.path / "schema.json").read_text(encoding="utf-8"))
    if set(found) != {"then", "$defs"}:
        raise ValueError(f"{folder.key}/schema.json holds 'then' and '$defs', not {sorted(found)}")
    return found


def assemble(folders: Iterable[Folder]) -> dict[str, Any]:
    """The whole record schema: the base with every game's kind, branch and definitions."""
    schema: dict[str, Any] = json.loads(BASE.read_text(encoding="utf-8"))
    schema.pop("$comment", None)  # the base's note to its editors, not the schema's
    defs = schema["$defs"]
    kinds: list[str] = []
    branches: list[dict[str, Any]] = []
    for folder in folders:
        part = fragment(folder)
        clash = set(part["$defs"]) & set(defs)
        if clash:
            raise ValueError(f"{folder.key}/schema.json redefines {sorted(clash)}")
        kinds.append(folder.key)
        branches.append(
            {
                "if": {"properties": {"game": {"const": folder.key}}, "required": ["game"]},
                "then": part["then"],
            }
        )
        defs.update(copy.deepcopy(part["$defs"]))
    defs["GameKind"] = {"enum": kinds}
    defs["GameRecord"]["allOf"] = branches
    return schema


def text(schema: dict[str, Any]) -> str:
    """The schema as the docs file holds it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
