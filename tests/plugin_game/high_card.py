""" "High Card": a seventh game nobody has yet, written as a whole folder into a temporary directory
and registered with one line (:func:`scorekeeper.games.register`), to show that a game is its
folder plus that line. Each deal names the player who turned the highest card; that player
scores one point; the first to the target (default 5) wins.

Nothing here is written outside the folder: every file of the game is in :data:`FILES`.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from pathlib import Path

from scorekeeper import games
from scorekeeper.games.folder import Folder
from tests.plugged import plugged_in

RULES = """
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.base import N_, DealScore, FieldError, Game, Option, Setup, is_seat, msg, refuse, require_keys


class HighCard(Game):
    key = "high_card"
    title = N_("High Card")
    player_counts = (2, 3, 4, 5, 6)
    options = (Option("target", N_("Target"), 5, minimum=1, maximum=50),)
    fact_keys = ("high",)

    def check_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> list[FieldError]:
        errors = require_keys(facts, self.fact_keys, self.fact_keys)
        if not errors and not is_seat(facts["high"], setup.n):
            errors.append(refuse("high", N_("Name the player who turned the highest card.")))
        return errors

    def score_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> DealScore:
        scores = tuple(1 if seat == facts["high"] else 0 for seat in range(setup.n))
        return DealScore(scores, tuple(msg(N_("highest card: 1")) if s else msg(N_("0")) for s in scores))

    def random_deal(self, setup: Setup, state: Any, dealer: int, rng: random.Random) -> dict[str, Any]:
        return {"high": rng.randrange(setup.n)}

    def reached_end(self, setup: Setup, totals: tuple[int, ...], deals_played: int, state: Any) -> bool:
        return max(totals) >= setup.options.get("target", 5)
"""

FORM = """
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from scorekeeper.forms.base import RulesForm, seat_radio
from scorekeeper.rules import Setup


class HighCardEntry(RulesForm):
    template = "games/high_card/_entry.html"

    def to_facts(self, setup: Setup) -> dict[str, Any]:
        return {"high": self.high.data}

    @classmethod
    def for_setup(cls, setup: Setup, data: dict[str, Any] | None = None) -> "HighCardEntry":
        fields = {"high": seat_radio(_l("Highest card"), list(enumerate(setup.players)))}
        return type("HighCardEntryForm", (cls,), fields)(data=data)

    @staticmethod
    def data_from(facts: dict[str, Any]) -> dict[str, Any]:
        return {"high": facts["high"]}
"""

ENTRY = """{% from "_macros.html" import form_head, group_errors, chips %}
<form id="entry" class="entry" method="post" action="{{ action }}" novalidate
      {% if live %}hx-post="{{ action }}" hx-target="#live" hx-swap="outerHTML show:#live:top"{% endif %}>
  {{ form_head(form) }}
  {{ group_errors(form, "deals") }}
  <fieldset class="high-card">
    <legend>{{ _("Highest card") }}</legend>
    {{ group_errors(form, "high") }}
    {{ chips(form.high, "grid3") }}
  </fieldset>
  <button type="submit" class="primary big block">{{ submit_label or _("Record deal") }}</button>
</form>
"""

HELP = {
    "en": "# High Card\n\nEveryone turns a card; the highest card scores one point. First to the target wins.\n",
    "pl": "# Najwyższa karta\n\nKażdy odkrywa kartę; najwyższa karta daje jeden punkt. Wygrywa ten, kto pierwszy osiągnie cel.\n",
    "pt": "# Carta Alta\n\nCada um vira uma carta; a carta mais alta ganha um ponto. Ganha quem chegar primeiro ao objetivo.\n",
}

SCHEMA = {
    "then": {
        "properties": {
            "players": {"minItems": 2, "maxItems": 6},
            "options": {"$ref": "#/$defs/HighCardOptions"},
            "deals": {"type": "array", "items": {"$ref": "#/$defs/HighCardDeal"}},
        },
        "not": {"required": ["turns"]},
    },
    "$defs": {
        "HighCardOptions": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"target": {"type": "integer", "minimum": 1, "maximum": 50, "default": 5}},
        },
        "HighCardDeal": {
            "type": "object",
            "required": ["high"],
            "additionalProperties": False,
            "properties": {"high": {"$ref": "#/$defs/Seat"}, "dealer": {"$ref": "#/$defs/Dealer"}},
        },
    },
}

EXAMPLE = {
    "game": "high_card",
    "options": {"target": 3},
    "players": ["Ann", "Bob", "Cid"],
    "deals": [{"high": 0}, {"high": 2}],
}

FILES = {
    "__init__.py": (
        "from scorekeeper.games.folder import Parts\n"
        "from .rules import HighCard\n\n"
        "PARTS = Parts(rules=HighCard())\n"
    ),
    "rules.py": RULES,
    "form.py": FORM,
    "plugin.py": (
        "from scorekeeper.games.base import plugin\n"
        "from .form import HighCardEntry\n\n"
        'PLUGIN = plugin("high_card", HighCardEntry)\n'
    ),
    "templates/games/high_card/_entry.html": ENTRY,
    **{f"help/{lang}.md": text for lang, text in HELP.items()},
    "schema.json": json.dumps(SCHEMA, indent=2),
    "example.json": json.dumps(EXAMPLE, indent=2),
}


def write_folder(root: Path, files: dict[str, str] = FILES) -> Path:
    """The game's folder, every file of it, as the package ``high_card`` under ``root``."""
    folder = root / "high_card"
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def installed(root: Path) -> AbstractContextManager[Folder]:
    """``with installed(root) as folder:`` the folder written under ``root``, importable and
    registered (the one registry line a game needs), for the block."""
    return plugged_in(root, "high_card", write_folder, games.register, lambda: games.unregister("high_card"))
