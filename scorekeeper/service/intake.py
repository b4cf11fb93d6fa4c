"""A game record of shared/spec/game-record.md read in: parsed, checked by replaying it; new ids and tokens.

Every record is checked by replaying the whole game through the rules.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping
from typing import Any

from .. import rules
from ..games import GAMES
from ..rules import FieldError, GameResult, InvalidFacts, Setup, msg
from ..rules.base import N_, check_setup
from ..scoring import FORMAT


class RecordError(InvalidFacts):
    """A game record (import or API body) that cannot be accepted."""


def new_token(nbytes: int) -> str:
    return secrets.token_urlsafe(nbytes)


def new_id(nbytes: int = 12) -> str:
    """A public id (game, event): never starts with "-", which a shell command such as
    ``scorekeeper export <id>`` would read as an option."""
    while True:
        token = secrets.token_urlsafe(nbytes)
        if token[0] != "-":
            return token


def check_record(
    data: Any, waiting_ok: bool = False
) -> tuple[rules.Game, Setup, list[dict[str, Any]], GameResult]:
    """Check a whole game record; raise :class:`RecordError` naming the first problems.

    ``waiting_ok``: a record with no deal may still wait for its waiting seats' parts
    of the set-up (a backup of a Hidden Secrets game before its allotments are in).
    """
    if not isinstance(data, Mapping):
        raise RecordError([FieldError("format", msg(N_("A game record must be a JSON object.")))])
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError(
            [FieldError("format", msg(N_("Only “{format}” records can be read."), format=FORMAT))]
        )
    name = data.get("game")
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise RecordError(
            [FieldError("game", msg(N_("Unknown game; known games: {games}."), games=", ".join(GAMES)))]
        )
    waiting_ok = waiting_ok and not data.get(game.record_key)
    errors, setup = check_setup(
        game, data.get("players"), data.get("options"), data.get("first_dealer"), waiting_ok
    )
    if errors:
        raise RecordError(errors)
    assert setup is not None  # check_setup gives the set-up whenever it finds no error
    for seat, player in enumerate(setup.players):
        if "\x00" in player:  # never typed, and no database text can hold it
            raise RecordError(
                [FieldError("players", msg(N_("A name cannot contain a NUL character.")), seat=seat)]
            )
    deals = data.get(game.record_key, [])
    if not isinstance(deals, list):
        raise RecordError([FieldError(game.record_key, msg(N_("This must be a list.")))])
    try:
        result = rules.play(game, setup, deals)
    except InvalidFacts as exc:
        raise RecordError(exc.errors) from None
    return game, setup, copy.deepcopy(deals), result


def parse_record(data: Any, waiting_ok: bool = False) -> tuple[rules.Game, Setup, list[dict[str, Any]]]:
    """:func:`check_record` without the scored result."""
    game, setup, deals, _result = check_record(data, waiting_ok)
    return game, setup, deals
