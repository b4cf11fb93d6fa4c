"""Redaction: hidden values (Hidden Secrets before the end) leave a result here and nowhere else.

Pure: no Flask, no database. Every view, list summary and preview passes through :func:`redact`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields
from typing import Any

from .. import rules
from ..rules import GameResult, Setup


def redact(kind: rules.Game, result: GameResult) -> GameResult:
    """``result`` as everybody may see it: while a game hides its scores (Hidden Secrets
    before the end), its public figures only (``Game.public_export``), a figure
    nobody may know yet being None (shown "?"), and no game-specific detail.
    """
    if result.finished or not kind.hides_scores(result.setup) or isinstance(result, PublicResult):
        return result
    public = kind.public_export(result.setup, result) or {}
    scores = public.get("scores", [d.scores for d in result.deals])
    explanations = public.get("explanations", [d.explanations for d in result.deals])
    running: list[Any] = [0] * result.setup.n  # ints, and None where unknown: no DealResult's type
    deals = []
    for deal, points, lines in zip(result.deals, scores, explanations, strict=True):
        running = [None if t is None or p is None else t + p for t, p in zip(running, points, strict=True)]
        deals.append(
            replace(
                deal,
                scores=tuple(points),
                explanations=tuple(lines),
                totals=tuple(running),
                detail={},
                state=None,
            )
        )
    setup = result.setup
    setup = Setup(setup.players, public.get("options", setup.options), setup.first_dealer)
    totals = public.get("totals", running if result.deals else result.totals)
    fields = {f.name: getattr(result, f.name) for f in dataclass_fields(GameResult)}
    fields.update(setup=setup, deals=tuple(deals), totals=tuple(totals), state=None)
    return PublicResult(**fields)


@dataclass(frozen=True)
class PublicResult(GameResult):
    """A :class:`GameResult` already made public by :func:`redact` (its details are gone)."""

    @property
    def leaders(self) -> tuple[int, ...]:
        # Nobody leads while a total is unknown: naming a leader would tell about it.
        return () if None in self.totals else super().leaders
