"""The Secret Agent deal form: tricks per player, assignment cards, trump call."""

from __future__ import annotations

from collections.abc import Iterable
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
            "tricks": last_count(getattr(self, f"tricks_{s}").data for s in range(setup.n)),
            "agents": last_card(getattr(self, f"agents_{s}").data for s in range(setup.n)),
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


def last_count(given: Iterable[Any]) -> list[Any]:
    """The tricks, with one player's left out filled in when the others' are whole numbers that
    leave 0 to 13 for him: the rules force it (they add up to 13), so the form need not ask it
    (as static/app.js fills it in with JavaScript)."""
    counts = list(given)
    blank = [s for s, v in enumerate(counts) if v is None]
    known = [v for v in counts if v is not None]
    if len(blank) == 1 and all(isinstance(v, int) for v in known) and 0 <= TRICKS - sum(known) <= TRICKS:
        counts[blank[0]] = TRICKS - sum(known)
    return counts


def last_card(given: Iterable[Any]) -> list[Any]:
    """The assignment cards, with one player's left out filled in when the others hold three
    different cards: the four are dealt once each, so the last is forced."""
    cards = list(given)
    blank = [s for s, v in enumerate(cards) if v is None]
    left = set(CARD_NAMES) - set(cards)
    if len(blank) == 1 and len(cards) == len(CARD_NAMES) and len(left) == 1:
        cards[blank[0]] = left.pop()
    return cards
