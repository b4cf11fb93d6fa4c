"""spades's entry in the web's registry (:mod:`scorekeeper.plugins`)."""

from __future__ import annotations

from ..base import plugin
from .form import BidsStep, SpadesEntry

PLUGIN = plugin(
    "spades",
    SpadesEntry,
    draft_step=BidsStep,
    preview=True,
    small_replies=True,
    board_rows="games/spades/_board_rows.html",
)
