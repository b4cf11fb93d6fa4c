"""What a restored game must hold to (archive.py's format 1, snapshot.py's format 2): its first
problem in words, and its half-entered deal (draft) judged as the game's entry form would."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import rules
from ..rules import N_, FieldError
from ..rules import Game as Rules


def first_problem(errors: Sequence[FieldError], kind: Rules | None = None) -> str:
    """The first error of a refused record in words: where (deal and field) and why."""
    error = errors[0]
    where = error.field
    if error.deal is not None:
        word = kind.deal_word if kind else N_("deal")
        where = f"{word} {error.deal + 1}, {error.field}"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {error.message.render()}{more}"


def check_draft(game_rules: Rules, result: rules.GameResult, draft: Any) -> None:
    """A draft is what the game's entry form keeps between steps: its shape is the form's to judge."""
    if draft is None:
        return
    from .. import plugins

    plugin = plugins.get(game_rules.key)
    if plugin is None or plugin.draft_step is None:
        raise ValueError(f"“draft” must be null: a {game_rules.key} deal is not entered in steps")
    if not isinstance(draft, dict):
        raise ValueError("“draft” must be an object or null")
    allowed = set(game_rules.fact_keys) | {"dealer"}
    unknown = sorted(str(key) for key in draft if key not in allowed)
    if unknown:
        raise ValueError(f"“draft” holds {', '.join(unknown)}, which is not a fact of this game")
    try:
        errors = plugin.draft_step(dict(draft)).errors(game_rules, result)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):
        raise ValueError("“draft” is not a half-entered deal of this game") from None
    if errors:
        raise ValueError(f"“draft”: {first_problem(errors)}")
