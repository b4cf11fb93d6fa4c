"""What a restored value must hold to (archive.py's format 1, snapshot.py's format 2): a stored
column's value as its type and length allow (:func:`decoder`), a JSON column's nesting and
text, a game's first problem in words, and its half-entered deal (draft) judged as the game's
entry form would. Apart from the readers of the formats: these say what is storable, they read
no file and write nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Column, DateTime, Integer, String

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


MAX_INT = 2**31 - 1  # the databases' INTEGER
MAX_JSON_DEPTH = 32  # a game's facts or an event's seating are a few levels deep


def storable_text(text: str) -> bool:
    """Text every database stores as it is: no NUL, no lone surrogate (``"\\ud800"`` is valid
    JSON, not UTF-8)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def json_problem(value: Any) -> str | None:
    """What makes a JSON column's value one the app never stores (None: nothing): nesting
    deeper than :data:`MAX_JSON_DEPTH` (a reader would recurse past Python's limit) or text no
    database stores. Walked without recursion."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not storable_text(item):
                return "holds text no database stores (a NUL or a lone surrogate)"
            continue
        if not isinstance(item, dict | list):
            continue
        if depth > MAX_JSON_DEPTH:
            return f"is nested deeper than {MAX_JSON_DEPTH} levels"
        if isinstance(item, dict):
            stack.extend((k, depth) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        else:
            stack.extend((v, depth + 1) for v in item)
    return None


def decoder(column: Column) -> Callable[[Any], Any]:
    """A JSON value into the column's value; ValueError says what the column takes."""
    kind = column.type
    name = f"“{column.name}”"

    def check(value: Any) -> Any:
        if value is None:
            if column.nullable:
                return None
            raise ValueError(f"{name} may not be null")
        if isinstance(kind, Boolean):
            if isinstance(value, bool):
                return value
            raise ValueError(f"{name} must be true or false")
        if isinstance(kind, Integer):
            if isinstance(value, int) and not isinstance(value, bool) and -MAX_INT - 1 <= value <= MAX_INT:
                return value
            raise ValueError(f"{name} must be a whole number")
        if isinstance(kind, DateTime):
            if isinstance(value, str) and len(value) <= 40:
                try:
                    stamp = datetime.fromisoformat(value)
                    return stamp.astimezone(UTC).replace(tzinfo=None) if stamp.tzinfo else stamp
                except (ValueError, OverflowError):  # year 1 an hour east of UTC is before year 1
                    pass
            raise ValueError(f"{name} must be an ISO date and time")
        if isinstance(kind, String):
            if (
                isinstance(value, str)
                and (kind.length is None or len(value) <= kind.length)
                and storable_text(value)
            ):
                return value
            raise ValueError(f"{name} must be text of at most {kind.length} characters")
        if isinstance(kind, JSON):
            problem = json_problem(value)
            if problem:
                raise ValueError(f"{name} {problem}")
            return value
        raise ValueError(f"{name}: this server cannot read a {kind} column")  # a new column type

    return check
