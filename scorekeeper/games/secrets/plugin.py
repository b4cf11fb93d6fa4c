"""secrets's entry in the web's registry (:mod:`scorekeeper.plugins`)."""

from __future__ import annotations

from ..base import plugin
from .form import SecretsEntry, setup_later

PLUGIN = plugin("secrets", SecretsEntry, setup_later=setup_later, preview=True)
