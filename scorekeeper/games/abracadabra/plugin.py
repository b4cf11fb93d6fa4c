"""abracadabra's entry in the web's registry (:mod:`scorekeeper.plugins`)."""

from __future__ import annotations

from ..base import plugin
from .form import AbracadabraEntry, TrickStep

PLUGIN = plugin(
    "abracadabra",
    AbracadabraEntry,
    draft_step=TrickStep,
    preview=True,
    small_replies=True,
    board_rows="games/abracadabra/_board_rows.html",
)
