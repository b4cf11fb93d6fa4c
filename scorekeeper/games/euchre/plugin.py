"""euchre's entry in the web's registry (:mod:`scorekeeper.plugins`)."""

from __future__ import annotations

from ..base import plugin
from .form import EuchreEntry

PLUGIN = plugin(
    "euchre",
    EuchreEntry,
    preview=True,
    small_replies=True,
    board_rows="games/euchre/_board_rows.html",
)
