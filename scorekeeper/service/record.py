"""The game record of shared/spec/game-record.md: reading one in, and scoring a stored game.

Every record is checked by replaying the whole game through the rules.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from .. import rules
from ..models import AnyGame
from ..rules import FieldError, GameResult, InvalidFacts, Setup, msg
from ..rules.base import N_, check_setup, play_on

FORMAT = "scorekeeper-game/1"


class RecordError(InvalidFacts):
    """A game record (import or API body) that cannot be accepted."""


def new_token(nbytes: int) -> str:
    return secrets.token_urlsafe(nbytes)


def game_rules(game: AnyGame) -> rules.Game:
    found = rules.get(game.kind)
    if found is None:  # a game kind removed from the registry: nothing can score it
        raise LookupError(game.kind)
    return found


def setup_of(game: AnyGame) -> Setup:
    return Setup(tuple(game.players), dict(game.options), game.first_dealer)


def score(game: AnyGame, deals: Sequence[Mapping[str, Any]] | None = None) -> GameResult:
    """The derived state of ``game``, or of ``game`` with other deals in its place.

    Pages do not call this: they read through :mod:`scorekeeper.read`, which scores once per version.
    """
    if deals:
        # A set-up finished after creation (Hidden Secrets' allotments, see set_options)
        # takes no deal until the rules accept it whole.
        errors = game_rules(game).check_setup(setup_of(game))
        if errors:
            raise InvalidFacts(errors)
    return rules.play(game_rules(game), setup_of(game), game.facts if deals is None else deals)


def score_on(game: AnyGame, facts: Sequence[Mapping[str, Any]], known: GameResult) -> GameResult:
    """``game`` with its deals ``facts``, scored on from ``known``, the result of their first deals."""
    if facts:
        errors = game_rules(game).check_setup(setup_of(game))
        if errors:
            raise InvalidFacts(errors)
    return rules.play(game_rules(game), setup_of(game), facts, after=known)


def score_appended(game: AnyGame, stored: GameResult, facts: Mapping[str, Any]) -> GameResult:
    """The game with one more deal, scored on from ``stored`` (the game as stored) without a replay."""
    # The stored deals' facts come with their results: a long game's deals are not read again.
    return score_more(game, stored, [facts])


def score_more(game: AnyGame, known: GameResult, more: Sequence[Mapping[str, Any]]) -> GameResult:
    """``game`` as ``known`` (its result at an earlier version) and the deals ``more`` appended since."""
    if more:
        errors = game_rules(game).check_setup(setup_of(game))
        if errors:
            raise InvalidFacts(errors)
    return play_on(game_rules(game), setup_of(game), known, more)


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
    game = rules.get(data.get("game")) if isinstance(data.get("game"), str) else None
    if game is None:
        raise RecordError(
            [FieldError("game", msg(N_("Unknown game; known games: {games}."), games=", ".join(rules.GAMES)))]
        )
    waiting_ok = waiting_ok and not data.get(game.record_key)
    errors, setup = check_setup(
        game, data.get("players"), data.get("options"), data.get("first_dealer"), waiting_ok
    )
    if errors:
        raise RecordError(errors)
    for seat, name in enumerate(setup.players):
        if "\x00" in name:  # never typed, and no database text can hold it
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


def full_record(game: AnyGame, result: GameResult, render) -> dict[str, Any]:
    """The game record of the spec: the input facts plus every derived field, unredacted.

    What anyone may read is :func:`scorekeeper.read.public_record`: it applies the game's redaction.
    """
    kind = game_rules(game)
    return {
        "format": FORMAT,
        "game": game.kind,
        "options": dict(game.options),
        "players": game.players,
        "first_dealer": game.first_dealer,
        # ``result`` is the game's at its version, so its deals' facts are the stored ones.
        kind.record_key: [d.facts for d in result.deals],
        "id": game.id,
        "scores": [list(d.scores) for d in result.deals],
        "explanations": [[render(x) for x in d.explanations] for d in result.deals],
        "totals": list(result.totals),
        "next_dealer": result.next_dealer,
        "finished": result.finished,
        "winners": list(result.winners),
        "tiebreak": result.tiebreak,
    }
