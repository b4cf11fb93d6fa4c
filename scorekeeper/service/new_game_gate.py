"""The write gate's door for new games: a game is made in one transaction (its row, seats,
deals, summary and its "create" change), once per submission token.

Beside :mod:`.gate` (which changes existing games) so each stays one readable file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .. import rules
from ..db import db, one_writer
from ..keys import hash_key
from ..models import Change, Deal, Game, Seat
from ..rules import GameResult, InvalidFacts, Setup
from ..scoring import remember, replay
from .gate import AlreadyDone, Via, keep_summary, summary_columns
from .intake import new_id, new_token


def create_game(
    game_rules_: rules.Game,
    setup: Setup,
    deals: Sequence[Mapping[str, Any]] = (),
    via: Via | None = None,
    result: GameResult | None = None,
    game_id: str | None = None,
    key: str | None = None,
    club_id: int | None = None,
) -> tuple[Game, str]:
    """Store a new game (already checked) and return it with its edit key (``club_id``: the club's
    game, else a personal one).

    ``result``: the game scored already (by the caller's check), else it is scored here for its summary.
    ``game_id`` and ``key``: given by an event, whose table keys derive from the game's id.
    A submission whose token made a game already (the form sent twice at once) raises
    :class:`AlreadyDone` with that game's creation: the token is unique among creations in the
    database itself, so however many copies race, one game is made.
    """
    key = key or new_token(24)
    try:
        with one_writer():
            game, result = _stage(game_rules_, setup, deals, via, result, game_id, key, club_id)
            db.session.commit()
    except IntegrityError:
        db.session.rollback()
        token = (via or Via()).token
        done = db.session.scalar(select(Change).where(Change.kind == "create", Change.token == token))
        if done is None:
            raise
        raise AlreadyDone(done) from None
    # The gate scored the new game (or was handed its score): it keeps it for the answer and the reads.
    remember(game, result)
    return game, key


def stage_game(
    game_rules_: rules.Game,
    setup: Setup,
    deals: Sequence[Mapping[str, Any]] = (),
    via: Via | None = None,
    result: GameResult | None = None,
    game_id: str | None = None,
    key: str | None = None,
    club_id: int | None = None,
) -> Game:
    """:func:`create_game`'s rows, added to the caller's transaction and not committed: an event's
    round start makes its tables' games and the round in one transaction, or nothing."""
    return _stage(game_rules_, setup, deals, via, result, game_id, key, club_id)[0]


def _stage(
    game_rules_: rules.Game,
    setup: Setup,
    deals: Sequence[Mapping[str, Any]],
    via: Via | None,
    result: GameResult | None,
    game_id: str | None,
    key: str | None,
    club_id: int | None,
) -> tuple[Game, GameResult | None]:
    via = via or Via()
    game = Game(
        id=game_id or new_id(),
        kind=game_rules_.key,
        options=dict(setup.options),
        first_dealer=setup.first_dealer,
        edit_key_hash=hash_key(key or new_token(24)),
        version=1,
        seats=[Seat(position=i, name=name) for i, name in enumerate(setup.players)],
        deals=[Deal(position=k, facts=dict(facts)) for k, facts in enumerate(deals)],
        club_id=club_id,
    )
    db.session.add(game)
    db.session.flush()  # the game row first: its history and summary refer to it
    if result is None:
        try:
            result = replay(game)
        except (InvalidFacts, LookupError):
            result = None  # a set-up still waiting for its seats' parts (Hidden Secrets): no summary yet
    if result is not None:
        keep_summary(game, summary_columns(game, result))
    db.session.add(
        Change(
            game_id=game.id,
            version=1,
            kind="create",
            after=len(game.deals),
            # A replayed submission (a double-tapped Rematch) finds the game it created.
            token=via.token,
            device_id=via.device_id,
            device=(via.device or "")[:80],
        )
    )
    return game, result
