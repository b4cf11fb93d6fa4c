"""Spades at an event: partnership Spades, 4 hands a round by default."""

from __future__ import annotations

from ..traits import EventTraits

TRAITS = EventTraits(partnership=True, default_hands=4, partnership_options={"mode": "partnership"})
