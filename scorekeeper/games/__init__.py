"""The games, one folder each, and the registry of their rules.

A game's folder holds everything of it: ``rules.py`` (pure: facts in, points out; no Flask,
no SQLAlchemy), ``form.py`` (its entry form), ``templates/games/<key>/`` (its own templates,
found by the app's template loader) and ``plugin.py`` (its entry in the web's registry,
:mod:`scorekeeper.plugins`).

This module imports only the rules modules, so the scoring core (the read side, the write
gate, the CLI) can name a game without loading any web code. Adding a game: the checklist in
docs/developers.md ("Adding a game"); here, one line in :data:`GAMES`.
"""

from __future__ import annotations

from ..rules import Game
from .abracadabra.rules import Abracadabra
from .euchre.event import TRAITS as EUCHRE_AT_EVENTS
from .euchre.rules import Euchre
from .secret_agent.rules import SecretAgent
from .secrets.rules import Secrets
from .spades.event import TRAITS as SPADES_AT_EVENTS
from .spades.rules import Spades
from .tally.rules import Tally
from .traits import NONE, EventTraits

GAMES: dict[str, Game] = {
    game.key: game for game in (SecretAgent(), Euchre(), Spades(), Secrets(), Abracadabra(), Tally())
}

# What each game brings to an event (games/<key>/event.py); the others play mixers only.
EVENT_TRAITS: dict[str, EventTraits] = {"euchre": EUCHRE_AT_EVENTS, "spades": SPADES_AT_EVENTS}


def event_traits(kind: str) -> EventTraits:
    return EVENT_TRAITS.get(kind, NONE)


# The folders holding each game's templates (``templates/games/<key>/...`` inside them).
TEMPLATE_FOLDERS = tuple(f"{__path__[0]}/{key}/templates" for key in GAMES)


def get(key: str) -> Game | None:
    """The registered game called ``key``, or None."""
    return GAMES.get(key)


__all__ = ["EVENT_TRAITS", "GAMES", "TEMPLATE_FOLDERS", "event_traits", "get"]
