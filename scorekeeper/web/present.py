"""Words for the state of a game, shared by the game page, the lists and the sheet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields
from typing import Any

from flask import Flask
from flask_babel import format_date, format_decimal, ngettext
from flask_babel import gettext as _

from ..rules import GameResult, Option, Setup
from ..rules.base import N_, format_counts


def side_names(players: Sequence[str], result: GameResult, seats: Sequence[int]) -> list[str]:
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
            # Deals that do not count (Abracadabra's thrown-in ones) add one to play.
            planned += len(result.deals) - kind.counted_deals(result)
        if planned:
            line = round_text(kind, "Deal %(n)s of %(total)s.", n=number, total=planned)
        else:
            line = round_text(kind, "Deal %(n)s.", n=number)
    if result.next_dealer is not None:
        line += " " + _("%(name)s deals.", name=players[result.next_dealer])
    return line


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


def public_result(kind, result: GameResult) -> GameResult:
    """``result`` as everybody may see it: while a game hides its scores (Hidden Secrets
    before the end), its public figures only (``Game.public_export``), a figure
    nobody may know yet being None (shown "?"), and no game-specific detail.
    Every page showing a game's scores shows this, never the raw result.
    """
    if result.finished or not kind.hides_scores(result.setup) or isinstance(result, PublicResult):
        return result
    public = kind.public_export(result.setup, result) or {}
    scores = public.get("scores", [d.scores for d in result.deals])
    explanations = public.get("explanations", [d.explanations for d in result.deals])
    running: list[int | None] = [0] * result.setup.n
    deals = []
    for deal, points, lines in zip(result.deals, scores, explanations, strict=True):
        running = [None if t is None or p is None else t + p for t, p in zip(running, points, strict=True)]
        deals.append(
            replace(deal, scores=tuple(points), explanations=tuple(lines), totals=tuple(running), detail={})
        )
    setup = result.setup
    setup = Setup(setup.players, public.get("options", setup.options), setup.first_dealer)
    totals = public.get("totals", running if result.deals else result.totals)
    fields = {f.name: getattr(result, f.name) for f in dataclass_fields(GameResult)}
    fields.update(setup=setup, deals=tuple(deals), totals=tuple(totals))
    return PublicResult(**fields)


@dataclass(frozen=True)
class PublicResult(GameResult):
    """A :class:`GameResult` already made public by :func:`public_result` (its details are gone)."""

    @property
    def leaders(self) -> tuple[int, ...]:
        # Nobody leads while a total is unknown: naming a leader would tell about it.
        return () if None in self.totals else super().leaders


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
        round_text=round_text,
        side_names=side_names,
        join_names=join_names,
        option_text=option_text,
        format_date=format_date,
        format_counts=format_counts,
    )
