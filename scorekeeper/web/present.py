"""Words for the state of a game, shared by the game page, the lists and the sheet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Flask
from flask_babel import format_date, format_decimal, ngettext
from flask_babel import gettext as _

from ..rules import GameResult, Option
from ..rules.base import format_counts


def side_names(players: Sequence[str], result: GameResult, seats: Sequence[int]) -> list[str]:
    """Names of the sides holding these seats: "Ann" or, for pairs, "Ann & Cid"."""
    names = []
    for side in result.sides:
        if side[0] in seats:
            names.append(" & ".join(players[s] for s in side))
    return names


def join_names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("%(first)s and %(last)s", first=", ".join(names[:-1]), last=names[-1])


def status_line(players: Sequence[str], kind, result: GameResult) -> str:
    """One sentence: who won, who is tied, or which deal comes next and who deals it."""
    if result.finished:
        names = side_names(players, result, result.winners)
        return ngettext("%(names)s wins.", "%(names)s share the win.", len(names), names=join_names(names))
    if result.tiebreak:
        names = side_names(players, result, result.leaders)
        line = _("%(names)s are tied for the lead: another deal breaks the tie.", names=join_names(names))
    else:
        planned = kind.planned_deals(result.setup)
        number = len(result.deals) + 1
        if planned:
            line = _("Deal %(n)s of %(total)s.", n=number, total=planned)
        else:
            line = _("Deal %(n)s.", n=number)
    if result.next_dealer is not None:
        line += " " + _("%(name)s deals.", name=players[result.next_dealer])
    return line


def option_text(option: Option, value: Any) -> str:
    """An option's value in words, for the score sheet."""
    if value is None:
        return _("none")
    if option.kind == "bool":
        return _("yes") if value else _("no")
    for choice, label in option.choices:
        if choice == value:
            return _(label)
    return format_decimal(value) if isinstance(value, int) else str(value)


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(
        status_line=status_line,
        side_names=side_names,
        join_names=join_names,
        option_text=option_text,
        format_date=format_date,
        format_counts=format_counts,
    )
