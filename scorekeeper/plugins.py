"""The games as the web sees them: one explicit entry per game, from the game's own folder.

Each :class:`~scorekeeper.games.base.Plugin` names the game's rules, its entry form, its
templates' folder and its optional steps (a set-up finished after creation, deals entered in
steps, a preview, "same as last deal", small htmx replies). Views ask the plugin; they never
probe a form or the rules with ``getattr``/``hasattr``.

Adding a game: the checklist in docs/developers.md ("Adding a game"); here, its plugin's one
line in :data:`PLUGINS` below.
"""

from __future__ import annotations

from .games.abracadabra.plugin import PLUGIN as ABRACADABRA
from .games.base import Plugin
from .games.euchre.plugin import PLUGIN as EUCHRE
from .games.secret_agent.plugin import PLUGIN as SECRET_AGENT
from .games.secrets.plugin import PLUGIN as SECRETS
from .games.spades.plugin import PLUGIN as SPADES
from .games.tally.plugin import PLUGIN as TALLY

PLUGINS: dict[str, Plugin] = {
    plugin.key: plugin for plugin in (SECRET_AGENT, EUCHRE, SPADES, SECRETS, ABRACADABRA, TALLY)
}


def get(key: str) -> Plugin | None:
    return PLUGINS.get(key)


__all__ = ["PLUGINS", "Plugin", "get"]
