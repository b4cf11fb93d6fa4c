"""secret_agent's entry in the web's registry (:mod:`scorekeeper.plugins`)."""

from __future__ import annotations

from ..base import plugin
from .form import SecretAgentEntry

PLUGIN = plugin("secret_agent", SecretAgentEntry, preview=True, small_replies=True)
