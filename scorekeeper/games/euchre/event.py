"""Euchre at an event: partnerships, 8 hands a round by default, lone hands made counted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..traits import EventTraits


def lone_hands(facts: Sequence[Mapping[str, Any]]) -> Counter:
    """Lone hands made per seat: played alone for the making side, taking 3 tricks or more."""
    made: Counter = Counter()
    for deal in facts:
        alone = deal.get("alone")
        if deal.get("thrown_in") or alone in (None, False) or deal.get("maker_tricks", 0) < 3:
            continue
        made[deal.get("maker") if alone is True else alone] += 1
    return made


TRAITS = EventTraits(partnership=True, default_hands=8, lone_hands=lone_hands)
