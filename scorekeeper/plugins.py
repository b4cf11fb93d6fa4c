"""The games as the web sees them: one explicit entry per game, next to the pure rules.

Each :class:`Plugin` names the game's rules, its entry form, its templates'
folder and its optional steps: a set-up finished after creation (Hidden
Secrets' allotments), deals entered in steps (a kept draft), its own turn
reports, and private per-seat pages. Views ask the plugin; they never probe
a form or the rules with ``getattr``/``hasattr``.

Adding a game: its rules (a module listed in ``rules.GAMES``), its entry form
and templates, and one entry in :data:`PLUGINS` naming them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from . import rules
from .forms import (
    AbracadabraEntry,
    EuchreEntry,
    RulesForm,
    SecretAgentEntry,
    SecretsEntry,
    SpadesEntry,
    TallyEntry,
)
from .forms.abracadabra import TrickStep
from .forms.base import DraftStep
from .forms.secrets import setup_later as secrets_setup_later
from .forms.spades import BidsStep
from .forms.tally import teams_from_form
from .rules import GameResult, Setup
from .rules.secrets import is_hidden, turn_reports

SetupLater = Callable[[rules.Game, Any, Mapping[str, Any], Any], Setup | None]
# Options the new-game form enters in the game's own way: (posted form, player count) -> options.
SetupOptions = Callable[[Mapping[str, Any], int], Mapping[str, Any]]
Reports = Callable[[Setup, GameResult, int | None], dict[str, Any]]


@dataclass(frozen=True)
class Plugin:
    key: str
    rules: rules.Game
    entry_form: type[RulesForm]
    # Folder of the game's own templates (_entry, _status, _scoreboard, _deal...).
    templates: str
    # A set-up that the new-game form may leave unfinished, completed on the game page.
    setup_later: SetupLater | None = None
    # Deals entered in steps: the form keeps a draft (POST /g/<id>/draft); this step
    # judges a kept draft (a restored backup's too).
    draft_step: type[DraftStep] | None = None
    # The game's own turn reports: public ones (seat None) or one seat's private ones.
    reports: Reports | None = None
    # Per-seat private pages (links, allotments) for games set up this way.
    private_pages: Callable[[Setup], bool] | None = None
    # Options typed in the new-game form in the game's own way (tally: a team label per seat),
    # shown by games/<key>/_setup_options.html.
    setup_options: SetupOptions | None = None
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

    def has_private_pages(self, setup: Setup) -> bool:
        return self.private_pages is not None and self.private_pages(setup)


def _plugin(key: str, entry_form: type[RulesForm], **steps: Any) -> Plugin:
    found = rules.get(key)
    assert found is not None, f"{key} is not in rules.GAMES"
    return Plugin(key=key, rules=found, entry_form=entry_form, templates=f"games/{key}/", **steps)


PLUGINS: dict[str, Plugin] = {
    plugin.key: plugin
    for plugin in (
        _plugin("secret_agent", SecretAgentEntry, preview=True, small_replies=True),
        _plugin(
            "euchre",
            EuchreEntry,
            preview=True,
            small_replies=True,
            board_rows="games/euchre/_board_rows.html",
        ),
        _plugin(
            "spades",
            SpadesEntry,
            draft_step=BidsStep,
            preview=True,
            small_replies=True,
            board_rows="games/spades/_board_rows.html",
        ),
        _plugin(
            "secrets",
            SecretsEntry,
            setup_later=secrets_setup_later,
            reports=turn_reports,
            private_pages=is_hidden,
            preview=True,
        ),
        _plugin(
            "abracadabra",
            AbracadabraEntry,
            draft_step=TrickStep,
            preview=True,
            small_replies=True,
            board_rows="games/abracadabra/_board_rows.html",
        ),
        _plugin(
            "tally",
            TallyEntry,
            setup_options=lambda form, n: {"teams": teams_from_form(form, n)},
            same_as_last=True,
            small_replies=True,
        ),
    )
}


def get(key: str) -> Plugin | None:
    return PLUGINS.get(key)
