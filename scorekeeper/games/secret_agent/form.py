"""The Secret Agent deal form: tricks per player, assignment cards, trump call."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from ...forms.base import RulesForm, seat_radio
from ...rules import Setup
from ...rules.cards import TRUMPS
from .rules import CARD_NAMES, TRICKS


class SecretAgentEntry(RulesForm):
    """Fields ``tricks_<seat>`` and ``agents_<seat>`` are added per seat by :meth:`for_setup`."""

    template = "games/secret_agent/_entry.html"

    def to_facts(self, setup: Setup) -> dict[str, Any]:
        facts: dict[str, Any] = {
            "tricks": [getattr(self, f"tricks_{s}").data for s in range(setup.n)],
            "agents": [getattr(self, f"agents_{s}").data for s in range(setup.n)],
        }
        if self.trump.data:
            facts["trump"] = self.trump.data
        return facts

    @classmethod
    def for_setup(cls, setup: Setup, data: dict[str, Any] | None = None) -> SecretAgentEntry:
        """A form class with one input group per seat, bound to the request or to ``data``."""
        fields: dict[str, Any] = {
            "trump": seat_radio(
                _l("Trump"), [("", _l("not recorded")), *((k, _l(v)) for k, v in TRUMPS.items())]
            )
        }
        for seat, name in enumerate(setup.players):
            fields[f"tricks_{seat}"] = seat_radio(name, [(n, str(n)) for n in range(TRICKS + 1)])
            fields[f"agents_{seat}"] = seat_radio(name, [(k, _l(v)) for k, v in CARD_NAMES.items()])
        return type("SecretAgentEntryForm", (cls,), fields)(data=data)

    @staticmethod
    def data_from(facts: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {"trump": facts.get("trump") or ""}
        for seat, (tricks, card) in enumerate(zip(facts["tricks"], facts["agents"], strict=True)):
            data[f"tricks_{seat}"] = tricks
            data[f"agents_{seat}"] = card
        return data
