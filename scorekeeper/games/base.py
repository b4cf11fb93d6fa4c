"""What a game's folder gives the web: its :class:`Plugin` (rules, entry form, templates, steps).

Each ``games/<key>/plugin.py`` builds one with :func:`plugin`; :mod:`scorekeeper.plugins` lists
them. Views ask the plugin; they never probe a form or the rules with ``getattr``/``hasattr``.
What a game *means* (its reports, its private pages, what it hides) is the rules' own, as
hooks of :class:`scorekeeper.rules.Game`; a plugin says only how the web enters and shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..forms.base import DraftStep, RulesForm
from ..rules import Game, Setup
from . import GAMES

SetupLater = Callable[[Game, Any, Mapping[str, Any], Any], Setup | None]
# Options the new-game form enters in the game's own way: (posted form, player count) -> options.
SetupOptions = Callable[[Mapping[str, Any], int], Mapping[str, Any]]


@dataclass(frozen=True)
class Plugin:
    key: str
    rules: Game
    entry_form: type[RulesForm]
    # Folder of the game's own templates (_entry, _status, _scoreboard, _deal...).
    templates: str
    # A set-up that the new-game form may leave unfinished, completed on the game page.
    setup_later: SetupLater | None = None
    # Deals entered in steps: the form keeps a draft (POST /g/<id>/draft); this step
    # judges a kept draft (a restored backup's too).
    draft_step: type[DraftStep] | None = None
    # Options typed in the new-game form in the game's own way (tally: a team label per seat),
    # shown by games/<key>/_setup_options.html.
    setup_options: SetupOptions | None = None
    # The new-game form's own defaults over the options' (an option left to be asked: no chip
    # ticked, ``setup_options`` deciding from the players when none is tapped).
    setup_defaults: Mapping[str, Any] | None = None
    # The entry form shows the deal's points before Record (POST /g/<id>/preview): for games
    # entered in one form or, for a deal entered in steps, at its last step (the posted inputs
    # over the kept draft make the whole deal: Spades' tricks, Abracadabra's counts). What the
    # game hides from the scorer stays hidden (read.preview).
    preview: bool = False
    # The entry form offers "Same as last deal" (GET /g/<id>?same=last): the form filled from the
    # last deal's facts, recorded only by Record. For games whose deals often repeat at a real
    # table (a tally's fixed payouts); where cards decide each deal afresh it would save no tap.
    same_as_last: bool = False
    # The htmx reply to one more deal carries only what changed (games/_deal_reply.html): the new
    # row, the foot and the board's other changing parts, drawn by ``board_rows``'s macros (the ones
    # the game's whole board draws with). Off for a board that is more than rows (Secrets' reports).
    small_replies: bool = False
    board_rows: str = "games/_board_rows.html"

    @property
    def drafts(self) -> bool:
        return self.draft_step is not None


def plugin(key: str, entry_form: type[RulesForm], **steps: Any) -> Plugin:
    """The plugin of the registered game ``key``: its templates are ``games/<key>/...``."""
    return Plugin(key=key, rules=GAMES[key], entry_form=entry_form, templates=f"games/{key}/", **steps)
