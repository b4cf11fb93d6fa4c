"""The games: one folder each, and the one registry naming them.

A game's folder holds everything of it: ``__init__.py`` (its pure parts, ``PARTS``: the rules
and its traits at an event), ``rules.py`` (pure: facts in, points out; no Flask, no SQLAlchemy),
``event.py`` if it plays partnership events, ``form.py`` (its entry form), ``plugin.py`` (its web
side, :class:`~scorekeeper.games.base.Plugin`), ``templates/games/<key>/`` (found by the app's
template loader), ``help/<lang>.md`` (the players' rules in each language), and if it needs
them ``pages.py`` (its own pages, :mod:`scorekeeper.games.pages`) and ``static/entry.js`` /
``static/entry.css`` (its entry's behaviour and style, on its pages only).

Adding a game: its folder, and one line in :data:`REGISTRY` (the checklist: docs/developers.md,
"Adding a game"). Everything else here is a view of
the registry: :data:`GAMES` (the rules by key), :func:`event_traits`, :data:`TEMPLATE_FOLDERS`,
and on the web's side :mod:`scorekeeper.plugins`. This module imports only the folders' pure
parts, so the scoring core names a game without loading any web code.
"""

from __future__ import annotations

from ..rules import Game
from .folder import Folder
from .traits import NONE, EventTraits

# The registry: one line a game, its folder's package; the new-game page lists them in this order.
REGISTRY = (
    "scorekeeper.games.secret_agent",
    "scorekeeper.games.euchre",
    "scorekeeper.games.spades",
    "scorekeeper.games.secrets",
    "scorekeeper.games.abracadabra",
    "scorekeeper.games.tally",
)

FOLDERS: dict[str, Folder] = {}
GAMES: dict[str, Game] = {}
# The folders holding each game's templates (``templates/games/<key>/...`` inside them); the app's
# loader reads this list when it is made, so a game registered later is found by the next app.
TEMPLATE_FOLDERS: list[str] = []


def register(package: str) -> Folder:
    """Register the game whose folder is the package ``package`` (the registry's one line).

    The registry's own lines are registered when this module is imported; a test registers a
    game of its own the same way (and :func:`unregister` takes it away again).
    """
    folder = Folder.load(package)
    if folder.key in FOLDERS:
        raise ValueError(f"a game called {folder.key!r} is registered already")
    FOLDERS[folder.key] = folder
    GAMES[folder.key] = folder.rules
    TEMPLATE_FOLDERS.append(str(folder.templates))
    return folder


def unregister(key: str) -> None:
    folder = FOLDERS.pop(key)
    del GAMES[key]
    TEMPLATE_FOLDERS.remove(str(folder.templates))


for _package in REGISTRY:
    register(_package)


def event_traits(kind: str) -> EventTraits:
    """What the game ``kind`` brings to an event, as its folder says (mixers only if unsaid)."""
    folder = FOLDERS.get(kind)
    return folder.event if folder is not None else NONE


def get(key: str) -> Game | None:
    """The registered game called ``key``, or None."""
    return GAMES.get(key)


__all__ = [
    "FOLDERS",
    "GAMES",
    "REGISTRY",
    "TEMPLATE_FOLDERS",
    "event_traits",
    "get",
    "register",
    "unregister",
]
