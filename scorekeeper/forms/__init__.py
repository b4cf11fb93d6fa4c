"""Forms: the new-game form and, per game, the form that enters one deal's facts.

``ENTRY_FORMS`` is the explicit registry: a game key to its entry form class,
which has ``for_setup(setup, data)`` (a bound form with inputs per seat),
``to_facts(setup)``, ``data_from(facts)`` and a ``template`` to render it.
"""

from .base import RulesForm, new_game_form
from .secret_agent import SecretAgentEntry

ENTRY_FORMS = {
    "secret_agent": SecretAgentEntry,
}

__all__ = ["ENTRY_FORMS", "RulesForm", "new_game_form"]
