"""Words for the state of a game, shared by the game page, the lists and the sheet.

Registered as template globals by :mod:`.templating`; none of them scores or redacts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from flask_babel import format_decimal, format_timedelta, ngettext
from flask_babel import gettext as _

from ..read import Summary
from ..rules import GameResult, Option
from ..rules.base import N_


def side_names(players: Sequence[str], result: GameResult | Summary, seats: Sequence[int]) -> list[str]:
    """Names of the sides holding these seats: "Ann" or, for pairs, "Ann & Cid"."""
    names = []
    for side in result.sides:
        if side[0] in seats:
            names.append(pair_name(players, side))
    return names


def pair_name(players: Sequence[str], side: Sequence[int]) -> str:
    """A side in words: "Ann", or partners "Ann & Cid" in the page's language."""
    if len(side) == 2:
        return _("%(first)s & %(second)s", first=players[side[0]], second=players[side[1]])
    return " & ".join(players[s] for s in side)


def seating_line(seats: Sequence[str], partners: bool = True) -> str:
    """Who sits at a table, with the partnerships (events.md, Screens): "Ann & Cy v Bob & Di".

    Seats are clockwise and partners sit opposite (0+2 v 1+3) at a partnership table of four;
    any other table (a mixer's, everyone for themselves) is its names in seat order."""
    if partners and len(seats) == 4:
        return _("%(pair)s v %(other)s", pair=pair_name(seats, (0, 2)), other=pair_name(seats, (1, 3)))
    return ", ".join(seats)


def join_names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("%(first)s and %(last)s", first=", ".join(names[:-1]), last=names[-1])


def status_line(players: Sequence[str], kind, result: GameResult | Summary) -> str:
    """One sentence: who won, who is tied, or which deal comes next and who deals it."""
    if result.finished:
        names = side_names(players, result, result.winners)
        if len(names) == 1 and sum(1 for side in result.sides if side[0] in result.winners for _ in side) > 1:
            return _("%(pair)s win.", pair=names[0])  # "Kim & Eve win.": a pair is a plural subject
        return ngettext("%(names)s wins.", "%(names)s share the win.", len(names), names=join_names(names))
    if result.tiebreak:
        names = side_names(players, result, result.leaders)
        line = _("%(names)s are tied for the lead: another deal breaks the tie.", names=join_names(names))
    else:
        number = len(result.deals) + 1
        if isinstance(result, Summary):
            planned = result.planned  # counted when the summary was written
        else:
            planned = kind.planned_deals(result.setup)
            if planned:
                # Deals that do not count (Abracadabra's thrown-in ones) add one to play.
                planned += len(result.deals) - kind.counted_deals(result)
        if planned:
            line = round_text(kind, "Deal %(n)s of %(total)s.", n=number, total=planned)
        else:
            line = round_text(kind, "Deal %(n)s.", n=number)
    if result.next_dealer is not None:
        line += " " + _("%(name)s deals.", name=players[result.next_dealer])
    return line


def lead_line(players: Sequence[str], kind, result: GameResult) -> str:
    """Who leads and with how much ("Ann leads with 46."), or, at the end, who won."""
    if result.finished or not result.deals or not result.leaders:
        return status_line(players, kind, result)
    names = side_names(players, result, result.leaders)
    points = format_decimal(result.totals[result.leaders[0]])
    if len(names) == 1:
        return _("%(name)s leads with %(points)s.", name=names[0], points=points)
    return _("%(names)s share the lead with %(points)s.", names=join_names(names), points=points)


# Sentences about a game's rounds in the words of its ``deal_word`` ("turn" for Secrets):
# whole sentences, so each language words them its own way. Deals need no entry.
ROUND_WORDS = {
    "turn": {
        N_("Deal %(n)s"): N_("Turn %(n)s"),
        N_("Deal %(n)s."): N_("Turn %(n)s."),
        N_("Deal %(n)s of %(total)s."): N_("Turn %(n)s of %(total)s."),
        N_("Correct this deal"): N_("Correct this turn"),
        N_("Every deal after it is scored again."): N_("Every turn after it is resolved again."),
        N_("Delete deal %(n)s?"): N_("Delete turn %(n)s?"),
        N_("Delete this deal"): N_("Delete this turn"),
        N_("Deal %(n)s recorded."): N_("Turn %(n)s resolved."),
        N_("Deal %(n)s corrected; the scores after it are recalculated."): N_(
            "Turn %(n)s corrected; the turns after it are resolved again."
        ),
        N_("Deal %(n)s deleted; the scores after it are recalculated."): N_(
            "Turn %(n)s deleted; the turns after it are resolved again."
        ),
        N_("Deal %(n)s cannot be deleted: %(why)s"): N_("Turn %(n)s cannot be deleted: %(why)s"),
    },
}


def round_text(kind, text: str, **params: Any) -> str:
    """``text``, a sentence about deals, translated in the game's own word for its rounds."""
    return _(ROUND_WORDS.get(kind.deal_word, {}).get(text, text), **params)


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


def house_rules(kind: Any, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A game's house rules in words, in the page's language: (the option's label, its value), for
    the options in force only (:meth:`~scorekeeper.rules.Game.option_in_force`: no target in a game
    of a number of hands). The one wording of a game's score sheet and an event's print sheets."""
    from ..games import GAMES

    rules = GAMES[kind] if isinstance(kind, str) else kind
    return [
        (_(option.label), option_text(option, options.get(option.key, option.default)))
        for option in rules.options
        if option.kind != "custom" and rules.option_in_force(option.key, options)
    ]


def ago(when: datetime, now: datetime | None = None) -> str:
    """How long ago something happened, in words: "5 minutes ago" (times are naive UTC)."""
    from ..models import utcnow

    return format_timedelta(when - (now or utcnow()), add_direction=True)


# A member's role in words. What a role may do is the access layer's (``may()``); these only name
# it, so that templates never compare roles themselves.
_ROLE_WORDS = {"owner": N_("owner"), "admin": N_("admin"), "member": N_("member")}


def role_word(role: str) -> str:
    """``owner``, ``admin`` or ``member`` in the reader's language."""
    return _(_ROLE_WORDS[role])


def role_note(role: str) -> str:
    """A role worth saying beside a name: the owner's or an admin's; a plain member's is ""."""
    return "" if role == "member" else role_word(role)


def role_change(role: str) -> tuple[str, str]:
    """The role a set-role button gives an admin or a member, and its label: the other one."""
    return ("member", _("Make a member")) if role == "admin" else ("admin", _("Make an admin"))
