"""Forms: the new-game form and, per game, the form that enters one deal's facts.

Each game's entry form class (named by the game's entry in
:mod:`scorekeeper.plugins`, the one registry on the web side) has ``for_setup(setup, data)`` (a bound form with inputs per seat),
``to_facts(setup)``, ``data_from(facts)`` and a ``template`` to render it.

A game entered in steps (bids, then tricks) also gives its form class
``to_draft(setup, current_draft)``, returning a draft step object whose
``facts`` are the new draft and whose ``errors(result)`` are the rules'
errors for the half-entered deal; the draft is kept on the game
(``POST /g/<id>/draft``) and pre-fills the form until the deal is recorded.
Which games do so is said by their entry in :mod:`scorekeeper.plugins`.
"""

from .abracadabra import AbracadabraEntry
from .base import RulesForm, new_game_form
from .euchre import EuchreEntry
from .secret_agent import SecretAgentEntry
from .secrets import SecretsEntry
from .spades import SpadesEntry
from .tally import TallyEntry

__all__ = [
    "AbracadabraEntry",
    "EuchreEntry",
    "RulesForm",
    "SecretAgentEntry",
    "SecretsEntry",
    "SpadesEntry",
    "TallyEntry",
    "new_game_form",
]
