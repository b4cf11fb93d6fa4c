"""The Euchre deal form: trump and its round (and, optionally, the turned-up suit a round-2 trump
differs from), the maker, who played alone, the makers' tricks.

Every input is a row of chips. With stick the dealer off the form has a second
submit button, ``thrown_in``: pressing it sends ``{"thrown_in": True}`` and
nothing else, whatever else was tapped (the rules refuse any other fact on a
thrown-in deal). The rules judge everything; their errors land as group
errors named after the fact (``maker``, ``defender_alone``...).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, RadioField
from wtforms.validators import Optional

from ...forms.base import RulesForm, choices, lenient_int
from ...rules import Setup
from .rules import SUITS, TRICKS, option, partner

# The chips' values for "who played alone for the makers"; the facts carry false, true
# (the maker) or the lone player's seat, here the maker's partner.
NO, YES, PARTNER = 0, 1, 2


def radio(label: Any, pairs: Iterable[tuple[Any, Any]], default: Any = None) -> RadioField:
    """A chip row parsed leniently (the rules name what is wrong), with a pre-selected default."""
    return RadioField(
        label,
        choices=choices(pairs),
        coerce=lenient_int,
        validate_choice=False,
        validators=[Optional()],
        default=default,
    )


class EuchreEntry(RulesForm):
    """Fields are built per game by :meth:`for_setup`: the players' names and the options shape them."""

    template = "games/euchre/_entry.html"

    # The second submit button, shown only with stick the dealer off.
    thrown_in = BooleanField(_l("Thrown in"))

    def to_facts(self, setup: Setup) -> dict[str, Any]:
        if self.thrown_in.data:
            # Nothing else: a thrown-in deal is not played (the rules refuse it under stick the dealer).
            return {"thrown_in": True}
        alone = self.alone.data
        maker = self.maker.data
        if alone == PARTNER:
            # Without a maker there is no partner: the maker's own error says what is missing.
            alone = partner(maker) if isinstance(maker, int) and 0 <= maker < 4 else True
        else:
            alone = {NO: False, YES: True}.get(alone, alone)
        facts: dict[str, Any] = {
            "trump": self.trump.data,
            "maker": maker,
            "alone": alone,
            "maker_tricks": self.maker_tricks.data,
        }
        if self.round.data is not None:
            facts["round"] = self.round.data
        if self.turned_up.data:
            facts["turned_up"] = self.turned_up.data
        if hasattr(self, "defender_alone"):
            facts["defender_alone"] = self.defender_alone.data
        return facts

    @classmethod
    def for_setup(cls, setup: Setup, data: dict[str, Any] | None = None) -> EuchreEntry:
        """A form class with a chip per player, bound to the request or to ``data``."""
        seats = list(enumerate(setup.players))
        fields: dict[str, Any] = {
            "trump": radio(_l("Trump"), ((key, _l(name)) for key, name in SUITS.items())),
            "round": radio(_l("Trump was"), [(1, _l("turned up")), (2, _l("named (second round)"))]),
            # Optional, and asked only after a round-2 trump: the suit everyone passed, which the
            # rules check the named trump against. "Not recorded" (the default) leaves it out.
            "turned_up": radio(
                _l("Turned-up suit"),
                [*((key, _l(name)) for key, name in SUITS.items()), ("", _l("not recorded"))],
                default="",
            ),
            "maker": radio(_l("Maker"), seats),
            "alone": radio(
                _l("Maker alone"),
                [(NO, _l("no")), (YES, _l("yes, alone")), (PARTNER, _l("the partner alone"))],
                default=NO,
            ),
            "maker_tricks": radio(_l("Tricks won by the makers"), [(n, str(n)) for n in range(TRICKS + 1)]),
        }
        if option(setup, "defend_alone"):
            fields["defender_alone"] = radio(_l("Lone defender"), [("", _l("nobody")), *seats])
        return type("EuchreEntryForm", (cls,), fields)(data=data)

    @staticmethod
    def data_from(facts: dict[str, Any]) -> dict[str, Any]:
        """The form's values for a recorded deal (a thrown-in deal leaves every chip at its default)."""
        if facts.get("thrown_in"):
            return {}
        return {
            "trump": facts.get("trump"),
            "round": facts.get("round"),
            "turned_up": facts.get("turned_up") or "",
            "maker": facts.get("maker"),
            "alone": _alone_chip(facts),
            "defender_alone": facts.get("defender_alone"),
            "maker_tricks": facts.get("maker_tricks"),
        }


def _alone_chip(facts: dict[str, Any]) -> int:
    alone = facts.get("alone")
    if alone is True or alone == facts.get("maker") and not isinstance(alone, bool):
        return YES
    return NO if alone is False or alone is None else PARTNER
