"""The folder guard: every registered game's folder holds every part of the game, so a missing
part fails here, not on a player's ``/help`` or new-game page.

A game is its folder plus one line of :data:`scorekeeper.games.REGISTRY`: its pure parts declared
in its ``__init__.py``, its rules, entry form, web side, entry template and help in every
language, its record schema's fragment and an example record
(:data:`scorekeeper.games.folder.PART_FILES`), its title translated in every catalog.
"""

from __future__ import annotations

import json
import shutil
from functools import cache

import pytest
from babel.messages.pofile import read_po
from jsonschema import Draft202012Validator

from scorekeeper import catalogs, games, plugins
from scorekeeper.games import schema
from scorekeeper.games.folder import LANGUAGES, PART_FILES, Folder


@cache
def catalog(locale: str):
    with catalogs.po_path(locale).open("rb") as f:
        return read_po(f, locale=locale, domain=catalogs.DOMAIN)


def problems(folder: Folder) -> list[str]:
    """What is wrong with a registered game's folder, in words (nothing for a whole game)."""
    found = [f"{folder.key}: no {part}" for part in folder.missing()]
    for lang in LANGUAGES:
        path = folder.help_file(lang)
        if path.is_file() and not path.read_text(encoding="utf-8").startswith("# "):
            found.append(f"{folder.key}: help/{lang}.md does not start with its title ('# ...')")
    example = folder.path / "example.json"
    if example.is_file() and (folder.path / "schema.json").is_file():
        record = json.loads(example.read_text(encoding="utf-8"))
        if record.get("game") != folder.key:
            found.append(f"{folder.key}: example.json is not a record of {folder.key}")
        # The example is a valid record by the schema its own fragment makes (with the others').
        others = [other for key, other in games.FOLDERS.items() if key != folder.key]
        whole = schema.assemble([*others, folder])
        validator = Draft202012Validator({**whole, "$ref": "#/$defs/GameRecord"})
        found += [
            f"{folder.key}: example.json {list(e.absolute_path)}: {e.message}"
            for e in validator.iter_errors(record)
        ]
    for locale in catalogs.LOCALES:
        entry = catalog(locale).get(folder.rules.title)
        if entry is None or not entry.string:
            found.append(f"{folder.key}: its title {folder.rules.title!r} is not translated in {locale}")
    return found


@pytest.mark.parametrize("key", list(games.REGISTRY), ids=lambda package: package.rsplit(".", 1)[-1])
def test_every_registered_game_folder_holds_every_part(key):
    folder = games.FOLDERS[key.rsplit(".", 1)[-1]]
    assert folder.package == key
    assert problems(folder) == []
    # Its web side is the one in its folder, and names the registry's own rules.
    assert plugins.get(folder.key) is folder.plugin
    assert folder.plugin.rules is games.GAMES[folder.key]


def test_the_registry_is_the_one_list_of_games():
    # The rules, the event traits and the web's plugins are all read from the registry's lines.
    keys = [package.rsplit(".", 1)[-1] for package in games.REGISTRY]
    assert list(games.FOLDERS) == keys == list(games.GAMES) == list(plugins.PLUGINS)
    assert games.event_traits("euchre") is games.FOLDERS["euchre"].event
    assert not games.event_traits("tally").partnership and not games.event_traits("nothing").partnership


@pytest.mark.parametrize("part", PART_FILES)
def test_the_guard_fails_when_a_part_is_removed(tmp_path, part):
    # A copy of tally's folder without one part: the guard names exactly that part.
    tally = games.FOLDERS["tally"]
    copy = tmp_path / "tally"
    shutil.copytree(tally.path, copy, ignore=shutil.ignore_patterns("__pycache__"))
    folder = Folder("elsewhere.tally", copy, tally.parts)
    assert problems(folder) == []
    part = part.replace("<key>", "tally")
    (copy / part).unlink()
    assert problems(folder) == [f"tally: no {part}"]


def test_the_guard_fails_when_a_help_page_has_no_title(tmp_path):
    euchre = games.FOLDERS["euchre"]
    copy = tmp_path / "euchre"
    shutil.copytree(euchre.path, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "help" / "pl.md").write_text("Zasady bez tytułu\n", encoding="utf-8")
    assert problems(Folder("elsewhere.euchre", copy, euchre.parts)) == [
        "euchre: help/pl.md does not start with its title ('# ...')"
    ]


def test_registering_a_package_that_declares_no_parts_says_so():
    with pytest.raises(TypeError, match="must declare PARTS"):
        games.register("scorekeeper.rules")
    assert "rules" not in games.GAMES


def test_the_guard_fails_when_the_example_is_another_games(tmp_path):
    tally = games.FOLDERS["tally"]
    copy = tmp_path / "tally"
    shutil.copytree(tally.path, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(games.FOLDERS["euchre"].path / "example.json", copy / "example.json")
    assert problems(Folder("elsewhere.tally", copy, tally.parts)) == [
        "tally: example.json is not a record of tally"
    ]


def test_the_guard_fails_when_the_example_breaks_its_own_schema(tmp_path):
    tally = games.FOLDERS["tally"]
    copy = tmp_path / "tally"
    shutil.copytree(tally.path, copy, ignore=shutil.ignore_patterns("__pycache__"))
    record = json.loads((copy / "example.json").read_text(encoding="utf-8"))
    record["deals"][0]["points"] = "ten"
    (copy / "example.json").write_text(json.dumps(record), encoding="utf-8")
    found = problems(Folder("elsewhere.tally", copy, tally.parts))
    assert len(found) == 1 and found[0].startswith("tally: example.json ['deals', 0")
