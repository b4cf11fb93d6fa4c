"""A game's folder as the registry holds it: what the folder declares (:class:`Parts`, in its
``__init__.py``) and where its other parts lie (:class:`Folder`).

A folder's ``__init__.py`` declares only its pure parts (``PARTS = Parts(rules=..., event=...)``):
its rules and its traits at an event. Everything the web needs (the entry form, the templates,
the help) is found in the same folder by name when first asked for, so the scoring core (the
read side, the write gate, the CLI) names every game without loading a form or a template.

Pure: no Flask, no database; the plug-in (``plugin.py``) is imported only when asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ..rules import Game
from .traits import NONE, EventTraits

if TYPE_CHECKING:  # the web's side of a game: imported lazily, never by the scoring core
    from .base import Plugin

LANGUAGES = ("en", "pl", "pt")
# The files every game's folder holds, by their path in it (``<key>`` is the game's key): the
# guard test (tests/rules/test_folders.py) checks each registered game's with :meth:`Folder.missing`.
PART_FILES = (
    "__init__.py",
    "rules.py",
    "form.py",
    "plugin.py",
    "templates/games/<key>/_entry.html",
    "schema.json",  # its part of the record schema (scorekeeper.games.schema)
    "example.json",  # a record of it, as a client imports it (docs and tests)
    *(f"help/{lang}.md" for lang in LANGUAGES),
)


@dataclass(frozen=True)
class Parts:
    """What a game's folder declares in its ``__init__.py``: its pure parts."""

    rules: Game
    # Which events it plays and how its hands are counted there (events.md); mixers only if unsaid.
    event: EventTraits = NONE


@dataclass(frozen=True, eq=False)
class Folder:
    """One registered game: its package (the registry's line), its folder and its declared parts."""

    package: str
    path: Path
    parts: Parts

    @classmethod
    def load(cls, package: str) -> Folder:
        """The folder of the game package ``package`` (its ``__init__`` declares ``PARTS``)."""
        module = import_module(package)
        parts = getattr(module, "PARTS", None)
        if not isinstance(parts, Parts):
            raise TypeError(f"{package} must declare PARTS = Parts(rules=..., ...) in its __init__.py")
        return cls(package, folder_of(module), parts)

    @property
    def key(self) -> str:
        return self.parts.rules.key

    @property
    def rules(self) -> Game:
        return self.parts.rules

    @property
    def event(self) -> EventTraits:
        return self.parts.event

    @property
    def templates(self) -> Path:
        """The folder holding ``games/<key>/...`` templates, which the app's loader searches."""
        return self.path / "templates"

    def missing(self) -> list[str]:
        """The parts this folder lacks, by their path in it (none for a complete game)."""
        parts = (part.replace("<key>", self.key) for part in PART_FILES)
        return [part for part in parts if not (self.path / part).is_file()]

    def help_file(self, lang: str) -> Path:
        """The players' help in ``lang`` (Markdown, its first line the title)."""
        return self.path / "help" / f"{lang}.md"

    @cached_property
    def plugin(self) -> Plugin:
        """The game's web side (``plugin.py``), imported the first time the web asks for it."""
        plugin: Plugin = import_module(f"{self.package}.plugin").PLUGIN
        if plugin.key != self.key:
            raise TypeError(f"{self.package}.plugin is {plugin.key!r}'s, not {self.key!r}'s")
        return plugin


def folder_of(module: ModuleType) -> Path:
    paths = list(getattr(module, "__path__", ()))
    if len(paths) != 1:
        raise TypeError(f"{module.__name__} must be a package with one folder")
    return Path(paths[0])
