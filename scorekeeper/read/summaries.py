"""Summaries: what the lists show of a game (home, games, players), public figures only.

The write gate keeps one :class:`GameSummary` row per game (:func:`summarize`); lists read them in
one query through :func:`list_views`, replaying only a game whose row is missing or stale.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from .. import scoring
from ..db import db
from ..models import AnyGame, Game, GameSummary
from ..rules import GameResult, InvalidFacts
from .redaction import redact
from .views import Status


@dataclass(frozen=True)
class Summary:
    """What a list shows of a game, as everybody may see it: a stored :class:`GameSummary` row.

    It answers what the lists ask of a :class:`GameResult` (``status_line``, the player
    record): totals, sides, leaders, winners, whether finished, the deals' count.
    """

    version: int
    deal_count: int
    finished: bool
    tiebreak: bool
    planned: int | None  # the deals the game will have, counting those that do not count
    next_dealer: int | None
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int | None, ...]
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    last_activity: datetime | None = None
    # The game's own flag, not the summary's: archiving changes no score.
    archived: bool = False

    @property
    def deals(self) -> range:
        # Lists only count the deals (len(result.deals)); their details stay on the game's page.
        return range(self.deal_count)

    @property
    def status(self) -> Status:
        return Status(
            self.finished,
            self.tiebreak,
            self.deal_count,
            self.planned,
            self.next_dealer,
            self.winners,
            self.leaders,
        )


def summarize(game: AnyGame, result: GameResult) -> dict[str, Any]:
    """The :class:`GameSummary` columns of ``game`` scored as ``result`` (its full result): public figures only."""
    kind = scoring.game_rules(game)
    public = redact(kind, result)
    planned = kind.planned_deals(result.setup)
    if planned:
        # Deals that do not count (Abracadabra's thrown-in ones) add one to play.
        planned += len(public.deals) - kind.counted_deals(public)
    return {
        "version": game.version,
        "deals": len(public.deals),
        "finished": public.finished,
        "tiebreak": public.tiebreak,
        "planned": planned or None,
        "next_dealer": public.next_dealer,
        "sides": [list(side) for side in public.sides],
        "totals": list(public.totals),
        "leaders": list(public.leaders),
        "winners": list(public.winners),
        "last_activity": game.updated_at,
    }


def summary_of(row: GameSummary, archived: bool = False) -> Summary:
    return Summary(
        version=row.version,
        deal_count=row.deals,
        finished=row.finished,
        tiebreak=row.tiebreak,
        planned=row.planned,
        next_dealer=row.next_dealer,
        sides=tuple(tuple(side) for side in row.sides),
        totals=tuple(row.totals),
        leaders=tuple(row.leaders),
        winners=tuple(row.winners),
        last_activity=row.last_activity,
        archived=archived,
    )


def list_views(games: Iterable[Game]) -> list[tuple[Game, Summary]]:
    """Each listed game with its public summary; a game no rules can score is left out.

    The one door for lists (home, games, players). The summaries come in one query
    (the write gate keeps them); a game whose summary is missing or stale (a backup
    restored, a database from before summaries) is replayed instead.
    """
    games = list(games)
    ids = [game.id for game in games]
    rows = {}
    if ids:
        rows = {
            row.game_id: row
            for row in db.session.scalars(select(GameSummary).where(GameSummary.game_id.in_(ids)))
        }
    out = []
    for game in games:
        row = rows.get(game.id)
        if row is not None and row.version == game.version:
            out.append((game, summary_of(row, bool(game.archived))))
            continue
        try:
            out.append(
                (game, summary_of(GameSummary(**summarize(game, scoring.result(game))), bool(game.archived)))
            )
        except (LookupError, InvalidFacts):
            continue
    return out
