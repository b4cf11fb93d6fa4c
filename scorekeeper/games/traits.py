"""A game's traits at an event (events.md): whether its tables can seat partnerships (seats 0+2
v 1+3, for progressive and pairs), how many hands an event's table plays by default, the options
a partnership event sets, and the figures its standings add (Euchre's lone hands). Each game
says its own in its folder (``games/<key>/event.py``), declared with its rules in its ``__init__.py`` (``PARTS``);
a game that says nothing plays mixers only.

Pure: no Flask, no database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class EventTraits:
    partnership: bool = False
    default_hands: int | None = None
    # Options a partnership event's tables get (Spades: the partnership mode).
    partnership_options: Mapping[str, Any] = field(default_factory=dict)
    # Per seat, the lone hands made in these deals' facts (an extra standings column), if the game has them.
    lone_hands: Callable[[Sequence[Mapping[str, Any]]], Counter] | None = None


NONE = EventTraits()
