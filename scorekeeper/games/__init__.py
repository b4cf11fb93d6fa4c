"""The games, one folder each, and the registry of their rules.

A game's folder holds everything of it: ``rules.py`` (pure: facts in, points out; no Flask,
no SQLAlchemy), ``form.py`` (its entry form), ``templates/games/<key>/`` (its own templates,
found by the app's template loader) and ``plugin.py`` (its entry in the web's registry,
:mod:`scorekeeper.plugins`).

This module imports only the rules modules, so the scoring core (the read side, the write
gate, the CLI) can name a game without loading any web code. Adding a game: its folder, one
line in :data:`GAMES` and one in ``plugins.PLUGINS``.
"""

from __future__ import annotations

from ..rules import Game
from .abracadabra.rules import Abracadabra
from .euchre.rules import Euchre
from .secret_agent.rules import SecretAgent
from .secrets.rules import Secrets
from .spades.rules import Spades
from .tally.rules import Tally

GAMES: dict[str, Game] = {
    game.key: game for game in (SecretAgent(), Euchre(), Spades(), Secrets(), Abracadabra(), Tally())
}

# The folders holding each game's templates (``templates/games/<key>/...`` inside them).
TEMPLATE_FOLDERS = tuple(f"{__path__[0]}/{key}/templates" for key in GAMES)


def get(key: str) -> Game | None:
    """The registered game called ``key``, or None."""
    return GAMES.get(key)


__all__ = ["GAMES", "TEMPLATE_FOLDERS", "get"]
