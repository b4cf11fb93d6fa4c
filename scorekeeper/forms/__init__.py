"""Forms: the new-game form and the base of every game's entry form.

Each game's entry form lives in its own folder (``scorekeeper/games/<key>/form.py``) and is
named by the game's plugin (:mod:`scorekeeper.plugins`, the one registry on the web side). It has
``for_setup(setup, data)`` (a bound form with inputs per seat), ``to_facts(setup)``,
``data_from(facts)`` and a ``template`` to render it.

A game entered in steps (bids, then tricks) also gives its form class
``to_draft(setup, current_draft)``, returning a draft step object whose
``facts`` are the new draft and whose ``errors(result)`` are the rules'
errors for the half-entered deal; the draft is kept on the game
(``POST /g/<id>/draft``) and pre-fills the form until the deal is recorded.
Which games do so is said by their plugin.
"""

from .base import RulesForm, new_game_form

__all__ = ["RulesForm", "new_game_form"]
