"""``scorekeeper db rescore``: every game's list summary rebuilt from a fresh replay (the
summary is a cache keyed by the game's version: facts in, points derived)."""

from __future__ import annotations

import click
from flask.cli import with_appcontext
from sqlalchemy import select

from ..db import db
from ..models import Game, GameSummary
from ..rules import InvalidFacts
from ..scoring import replay
from .gate import keep_summary, summary_columns


def rescore(batch: int = 200) -> tuple[int, int]:
    """Rebuild every game's list summary from a fresh replay; return (games summarised, games left out).

    A game no rules can score (its set-up still waiting, an unknown kind) gets no summary:
    lists leave it out, as they did when replaying. Safe beside running writes: a summary
    written here for a version a write has since passed is stale, and lists replay that game.
    """
    done = skipped = 0
    last = ""
    while True:
        games = db.session.scalars(select(Game).where(Game.id > last).order_by(Game.id).limit(batch)).all()
        if not games:
            return done, skipped
        for game in games:
            try:
                result = replay(game)
            except (InvalidFacts, LookupError):
                row = db.session.get(GameSummary, game.id)
                if row is not None:
                    db.session.delete(row)
                skipped += 1
                continue
            keep_summary(game, summary_columns(game, result))
            done += 1
        last = games[-1].id
        db.session.commit()
        db.session.expunge_all()


@click.command("rescore")
@with_appcontext
def rescore_command() -> None:
    """Rebuild every game's list summary (totals, leader, winners, deals) from a fresh replay."""
    done, skipped = rescore()
    click.echo(
        f"{done} games summarised" + (f", {skipped} left out (no rules can score them)." if skipped else ".")
    )
