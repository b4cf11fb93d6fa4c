"""tally's entry in the web's registry (:mod:`scorekeeper.plugins`)."""

from __future__ import annotations

from ..base import plugin
from .form import TallyEntry, teams_from_form

PLUGIN = plugin(
    "tally",
    TallyEntry,
    setup_options=lambda form, n: {"teams": teams_from_form(form, n)},
    same_as_last=True,
    small_replies=True,
)
