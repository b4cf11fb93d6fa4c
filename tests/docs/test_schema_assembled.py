"""docs/game-record.schema.json is the assembly of the games' own fragments (games/<key>/schema.json
over games/record.schema.json): a game's part of the record schema is written in its folder.

``SCOREKEEPER_REGENERATE=1 python -m pytest tests/docs/test_schema_assembled.py`` rewrites the docs
file from the fragments (then review and commit it).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from scorekeeper import games
from scorekeeper.games import schema
from scorekeeper.games.folder import Folder

DOCS_SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "game-record.schema.json"


def test_the_docs_schema_is_the_assembled_one():
    assembled = schema.text(schema.assemble(games.FOLDERS.values()))
    if os.environ.get("SCOREKEEPER_REGENERATE"):
        DOCS_SCHEMA.write_text(assembled, encoding="utf-8")
    assert DOCS_SCHEMA.read_text(encoding="utf-8") == assembled, (
        "docs/game-record.schema.json differs from the games' fragments: "
        "SCOREKEEPER_REGENERATE=1 python -m pytest tests/docs/test_schema_assembled.py"
    )


def test_each_game_adds_its_kind_its_branch_and_its_definitions():
    whole = schema.assemble(games.FOLDERS.values())
    assert whole["$defs"]["GameKind"]["enum"] == list(games.GAMES)
    branches = {
        b["if"]["properties"]["game"]["const"]: b["then"] for b in whole["$defs"]["GameRecord"]["allOf"]
    }
    assert branches["tally"]["properties"]["options"] == {"$ref": "#/$defs/TallyOptions"}
    assert "TallyDeal" in whole["$defs"] and "$comment" not in whole


def test_a_changed_fragment_changes_the_schema_and_a_clash_is_refused(tmp_path):
    tally = games.FOLDERS["tally"]
    copy = tmp_path / "tally"
    shutil.copytree(tally.path, copy, ignore=shutil.ignore_patterns("__pycache__"))
    fragment = json.loads((copy / "schema.json").read_text(encoding="utf-8"))
    fragment["then"]["properties"]["players"]["maxItems"] = 8
    (copy / "schema.json").write_text(json.dumps(fragment), encoding="utf-8")
    moved = Folder("elsewhere.tally", copy, tally.parts)
    others = [folder for key, folder in games.FOLDERS.items() if key != "tally"]
    whole = schema.assemble([*others, moved])
    branch = whole["$defs"]["GameRecord"]["allOf"][-1]
    assert branch["then"]["properties"]["players"]["maxItems"] == 8
    # Two games defining the same name would overwrite each other's: refused, by name.
    with pytest.raises(ValueError, match="TallyDeal"):
        schema.assemble([*games.FOLDERS.values(), moved])
