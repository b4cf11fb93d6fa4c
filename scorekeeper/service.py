"""Reading and changing games: the one place the web pages and the JSON API share.

Every change is checked by replaying the whole game through the rules
before anything is written, so a refused entry leaves the record as it was.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from . import rules
from .db import db
from .models import Deal, Game, Seat, hash_key
from .rules import FieldError, GameResult, InvalidFacts, Setup, msg
from .rules.base import N_, check_setup

FORMAT = "scorekeeper-game/1"


class RecordError(InvalidFacts):
    """A game record (import or API body) that cannot be accepted."""


def new_token(nbytes: int) -> str:
    return secrets.token_urlsafe(nbytes)


def game_rules(game: Game) -> rules.Game:
    found = rules.get(game.kind)
    if found is None:  # a game kind removed from the registry: nothing can score it
        raise LookupError(game.kind)
    return found


def setup_of(game: Game) -> Setup:
    return Setup(tuple(game.players), dict(game.options), game.first_dealer)


def score(game: Game, deals: Sequence[Mapping[str, Any]] | None = None) -> GameResult:
    """The derived state of ``game``, or of ``game`` with other deals in its place."""
    return rules.play(game_rules(game), setup_of(game), game.facts if deals is None else deals)


def parse_record(data: Any) -> tuple[rules.Game, Setup, list[dict[str, Any]]]:
    """Check a whole game record; raise :class:`RecordError` naming the first problems."""
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
    errors, setup = check_setup(game, data.get("players"), data.get("options"), data.get("first_dealer"))
    if errors:
        raise RecordError(errors)
    deals = data.get(game.record_key, [])
    if not isinstance(deals, list):
        raise RecordError([FieldError(game.record_key, msg(N_("This must be a list.")))])
    try:
        rules.play(game, setup, deals)
    except InvalidFacts as exc:
        raise RecordError(exc.errors) from None
    return game, setup, copy.deepcopy(deals)


def create_game(
    game_rules_: rules.Game, setup: Setup, deals: Sequence[Mapping[str, Any]] = ()
) -> tuple[Game, str]:
    """Store a new game (already checked) and return it with its edit key."""
    key = new_token(24)
    game = Game(
        id=new_token(12),
        kind=game_rules_.key,
        options=dict(setup.options),
        first_dealer=setup.first_dealer,
        edit_key_hash=hash_key(key),
        seats=[Seat(position=i, name=name) for i, name in enumerate(setup.players)],
        deals=[Deal(position=k, facts=dict(facts)) for k, facts in enumerate(deals)],
    )
    db.session.add(game)
    db.session.commit()
    return game, key


def append_deal(game: Game, facts: Mapping[str, Any]) -> GameResult:
    """Add the next deal; raise :class:`InvalidFacts` (deal index set) and change nothing if refused."""
    facts = copy.deepcopy(dict(facts))
    result = score(game, [*game.facts, facts])
    position = game.deals[-1].position + 1 if game.deals else 0
    game.deals.append(Deal(position=position, facts=facts))
    game.draft = None  # the half-entered deal is now a whole one
    game.touch()
    db.session.commit()
    return result


def save_draft(game: Game, draft: Mapping[str, Any] | None) -> None:
    """Keep (or with None, drop) the next deal's half-entered facts, checked by the caller."""
    game.draft = copy.deepcopy(dict(draft)) if draft is not None else None
    game.touch()
    db.session.commit()


def replace_deal(game: Game, k: int, facts: Mapping[str, Any]) -> GameResult:
    """Correct deal ``k``; every later deal is rescored and must still be legal."""
    facts = copy.deepcopy(dict(facts))
    candidate = game.facts
    candidate[k] = facts
    result = score(game, candidate)
    game.deals[k].facts = facts
    game.touch()
    db.session.commit()
    return result


def delete_deal(game: Game, k: int) -> GameResult:
    """Remove deal ``k``; refused when a later deal would become illegal."""
    candidate = game.facts
    del candidate[k]
    result = score(game, candidate)
    db.session.delete(game.deals[k])
    game.deals.pop(k)
    game.touch()
    db.session.commit()
    return result


def export_record(game: Game, result: GameResult | None = None, translate=None) -> dict[str, Any]:
    """The game record of the spec: the input facts plus every derived field."""
    result = result or score(game)
    kind = game_rules(game)
    render = (lambda m: m.render(translate)) if translate else (lambda m: m.render())
    record = {
        "format": FORMAT,
        "game": game.kind,
        "options": dict(game.options),
        "players": game.players,
        "first_dealer": game.first_dealer,
        kind.record_key: game.facts,
        "id": game.id,
        "scores": [list(d.scores) for d in result.deals],
        "explanations": [[render(x) for x in d.explanations] for d in result.deals],
        "totals": list(result.totals),
        "next_dealer": result.next_dealer,
        "finished": result.finished,
        "winners": list(result.winners),
        "tiebreak": result.tiebreak,
    }
    if kind.hides_scores(result.setup) and not result.finished:
        # Private facts (Hidden Secrets' values) stay out of the public record until the end.
        record.update(rendered(kind.public_export(result.setup, result) or {}, render))
    return record


def rendered(value: Any, render) -> Any:
    """``value`` with every :class:`Msg` inside it turned into text."""
    if isinstance(value, rules.Msg):
        return render(value)
    if isinstance(value, Mapping):
        return {k: rendered(v, render) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rendered(v, render) for v in value]
    return value
