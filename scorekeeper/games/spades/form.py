"""The Spades deal form, entered in two steps as the table plays it.

Step 1, the bids (``bids_<seat>``), is posted to the draft endpoint and
kept on the game while the hand is played; step 2, the tricks won
(``tricks_<seat>``), records the deal, the bids coming from the draft. The
correction page shows both steps as one full form.

A bid chip's value is the bid (0 is nil, partnership only) or ``"blind"``
for a blind nil: one tap declares it, and the facts get ``bids[s] = 0`` with
``blind[s] = True``. The rules judge everything, nil in cutthroat included;
their ``blind`` errors land on the player's bid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

from ...forms.base import DraftStep, RulesForm, seat_radio
from ...rules import FieldError, Game, GameResult, Setup
from ...rules.base import N_, refuse
from .rules import CUTTHROAT, PARTNERSHIP, Spades, bid_range, blind_allowed, is_partnership, tricks_per_deal

# The chip value of a blind nil bid.
BLIND = "blind"


@dataclass(frozen=True)
class BidsStep(DraftStep):
    """The bids, kept while the hand is played, if the rules accept them."""

    def errors(self, rules: Game, result: GameResult) -> list[FieldError]:
        if result.finished:
            return [
                refuse(
                    "deals", N_("The game ended after deal {n}: no deal can follow it."), n=len(result.deals)
                )
            ]
        assert isinstance(rules, Spades)  # the step of Spades' form, judged by Spades' rules
        return rules.check_bids(result.setup, self.facts)


class SpadesEntry(RulesForm):
    """Fields ``bids_<seat>`` and ``tricks_<seat>`` are added per seat by :meth:`for_setup`."""

    template = "games/spades/_entry.html"

    # Set per game by for_setup, for the template.
    tricks_total = 13
    partnership = False
    # "bids" once this form was posted as step 1: shown again (refused, or stale), it stays step 1.
    entering: str | None = None

    @classmethod
    def for_setup(cls, setup: Setup, data: dict[str, Any] | None = None) -> SpadesEntry:
        """A form class with a bid and a tricks row of chips per seat, bound to the request or ``data``."""
        total = tricks_per_deal(setup)
        lo, hi = bid_range(setup)
        bids: list[tuple[Any, Any]] = []
        if lo == 0:
            bids.append((0, _l("nil")))
            if blind_allowed(setup):
                bids.append((BLIND, _l("blind nil")))
        bids += [(n, str(n)) for n in range(max(lo, 1), hi + 1)]
        fields: dict[str, Any] = {"tricks_total": total, "partnership": is_partnership(setup)}
        for seat, name in enumerate(setup.players):
            fields[f"bids_{seat}"] = seat_radio(name, bids)
            fields[f"tricks_{seat}"] = seat_radio(name, [(n, str(n)) for n in range(total + 1)])
        return type("SpadesEntryForm", (cls,), fields)(data=data)

    def field_name(self, error: FieldError) -> str:
        # A blind mark belongs to the player's bid: show it there.
        if error.field == "blind" and error.seat is not None:
            return f"bids_{error.seat}"
        return super().field_name(error)

    def bid_facts(self, setup: Setup) -> dict[str, Any]:
        """``bids`` and, when a blind nil was bid, ``blind``, as the rules take them."""
        bids, blind = [], []
        for seat in range(setup.n):
            value = getattr(self, f"bids_{seat}").data
            blind.append(value == BLIND)
            bids.append(0 if value == BLIND else value)
        facts: dict[str, Any] = {"bids": bids}
        if any(blind):
            facts["blind"] = blind
        return facts

    def to_facts(self, setup: Setup) -> dict[str, Any]:
        facts = self.bid_facts(setup)
        tricks = [getattr(self, f"tricks_{s}").data for s in range(setup.n)]
        # One count left out is forced (they add up to the tricks per deal): filled in here too,
        # for a page without JavaScript (static/app.js fills it in at once).
        blank = [s for s, v in enumerate(tricks) if v is None]
        known = [v for v in tricks if v is not None]
        total = tricks_per_deal(setup)
        if len(blank) == 1 and all(isinstance(v, int) for v in known) and 0 <= total - sum(known) <= total:
            tricks[blank[0]] = total - sum(known)
        facts["tricks"] = tricks
        return facts

    def to_draft(self, setup: Setup, current_draft: Mapping[str, Any]) -> BidsStep:
        """Step 1 replaces the bids kept so far (a draft holds nothing else)."""
        self.entering = "bids"
        return BidsStep(self.bid_facts(setup))

    @staticmethod
    def data_from(facts: Mapping[str, Any]) -> dict[str, Any]:
        """The form's values for a draft (bids only) or a recorded deal."""

        def listed(key: str) -> list[Any]:
            value = facts.get(key)
            return value if isinstance(value, list) else []

        data: dict[str, Any] = {}
        blind = listed("blind")
        for seat, bid in enumerate(listed("bids")):
            is_blind = bid == 0 and seat < len(blind) and blind[seat] is True
            data[f"bids_{seat}"] = BLIND if is_blind else bid
        for seat, won in enumerate(listed("tricks")):
            data[f"tricks_{seat}"] = won
        return data


def seating(formdata: Mapping[str, Any], n: int) -> dict[str, Any]:
    """The ``mode`` option when the new-game form's Seating was left untapped: pairs for 4 players,
    on their own otherwise. A chip tapped stands as tapped (the rules judge it)."""
    if formdata.get("opt_mode") in (CUTTHROAT, PARTNERSHIP):
        return {}
    return {"mode": PARTNERSHIP if n == 4 else CUTTHROAT}
