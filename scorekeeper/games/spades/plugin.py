"""spades's entry in the web's registry (:mod:`scorekeeper.plugins`)."""

from __future__ import annotations

from ..base import plugin
from .form import BidsStep, SpadesEntry, seating

PLUGIN = plugin(
    "spades",
    SpadesEntry,
    draft_step=BidsStep,
    # Seating is asked, not preset: left untapped, 4 players play in pairs (as a table of four
    # does), any other number on their own (issue 41).
    setup_defaults={"opt_mode": ""},
    setup_options=seating,
    preview=True,
    small_replies=True,
    board_rows="games/spades/_board_rows.html",
)
