"""Spades: its folder holds all of it. Here its pure parts (the registry imports this
module, so nothing of the web): its rules and its traits at an event (``event.py``).

Beside them: the entry form (``form.py``), its web side (``plugin.py``), its templates and its
help in each language (``help/<lang>.md``).
"""

from __future__ import annotations

from ..folder import Parts
from .event import TRAITS
from .rules import Spades

PARTS = Parts(rules=Spades(), event=TRAITS)
