"""A game's result at its version: scored by the rules, below both the read side and the write gate.

Both sides ask :func:`result` (the read side's ``read.result``, the one name); it owns "the game's result at its version": the in-request memo,
the shared cache (:mod:`scorekeeper.cache`), and scoring on from the result this process last
knew (another worker wrote the versions between) instead of replaying the whole game.
"""

from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import bindparam, select

from . import cache, rules, stores
from .db import db
from .games import GAMES
from .lru import LocalLRU
from .models import AnyGame, Change
from .rules import GameResult, InvalidFacts, Msg, Setup
from .rules.base import play_on

FORMAT = "scorekeeper-game/1"


def game_rules(game: AnyGame) -> rules.Game:
    found = GAMES.get(game.kind)
    if found is None:  # a game kind removed from the registry: nothing can score it
        raise LookupError(game.kind)
    return found


def setup_of(game: AnyGame) -> Setup:
    return Setup(tuple(game.players), dict(game.options), game.first_dealer)


def _check_setup(game: AnyGame) -> None:
    # A set-up finished after creation (Hidden Secrets' allotments, see set_options)
    # takes no deal until the rules accept it whole.
    errors = game_rules(game).check_setup(setup_of(game))
    if errors:
        raise InvalidFacts(errors)


def result(
    game: AnyGame, more: Sequence[Mapping[str, Any]] = (), known: GameResult | None = None
) -> GameResult:
    """``game`` at its version (``known``, when the caller has it), with the deals ``more`` played on.

    Without ``more``: the game's unredacted result, scored once per version (per request, per
    process, shared through the cache). Never shown as it is: pages read through
    :mod:`scorekeeper.read`, which redacts.
    """
    if known is None:
        known = _at_version(game)
    if not more:
        return known
    _check_setup(game)
    return play_on(game_rules(game), setup_of(game), known, more)


def replay(game: AnyGame, deals: Sequence[Mapping[str, Any]] | None = None) -> GameResult:
    """``game`` replayed whole from its set-up, or with other ``deals`` in place of its own
    (a correction's candidate): nothing kept, nothing reused."""
    if deals:
        _check_setup(game)
    return rules.play(game_rules(game), setup_of(game), game.facts if deals is None else deals)


def remember(game: AnyGame, result: GameResult | None) -> None:
    """A write scored the game at its new version already: later reads reuse that.

    Called by the write gates only (:mod:`scorekeeper.service.gate`, ``new_game_gate``), after
    their commit: who computes a result keeps it."""
    if isinstance(result, GameResult):
        _memo()[(game.id, game.version)] = result
        _keep_latest(game, result)
        # Shared too: the next page (or the next deal's scoring) starts from it, not from a replay;
        # and kept as it is in this process, so the next write here does not unpickle it again.
        cache.keep(cache.key("result", game.id, game.version), result)


def known_result(game: AnyGame) -> GameResult | None:
    """The result this request scored the game at its current version, if it did (nothing computed)."""
    return _memo().get((game.id, game.version))


def full_record(game: AnyGame, result: GameResult, render: Callable[[Msg], str]) -> dict[str, Any]:
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


# -- the result at a version: once per request, once per process, shared ------------------


def _memo() -> dict[tuple[str, int], GameResult]:
    """The request's results by (game id, version)."""
    return cache.request_memo("read_results")


def _at_version(game: AnyGame) -> GameResult:
    key = (game.id, game.version)
    memo = _memo()
    if key not in memo:
        memo[key] = cache.remember(cache.key("result", *key), lambda: _score(game), objects=True)
        _keep_latest(game, memo[key])
    return memo[key]


def _score(game: AnyGame) -> GameResult:
    """The game scored at its version: from where this process last scored it, when that is the
    start of the same game (another worker wrote the versions between), else a whole replay."""
    version, known = _latest().get(game.id) or (0, None)
    if isinstance(known, bytes):  # a game not among the last kept here (LIVELY_GAMES, LIVELY_DEALS)
        known = pickle.loads(known)
    if known is not None and known.setup == setup_of(game):
        # Only deals appended since (the usual case: the other worker recorded them): their facts
        # are in the history, and the deals already known need not be read at all.
        since = db.session.connection().execute(_SINCE, {"game_key": game.id, "known": version}).all()
        if len(since) == game.version - version and all(row.kind in QUIET for row in since):
            appended = [row.after for row in since if row.kind == "append"]
            return result(game, appended, known)
        facts = game.facts
        if len(known.deals) <= len(facts) and all(
            d.facts == f for d, f in zip(known.deals, facts, strict=False)
        ):
            # The same setup and the same first deals score the same: only the rest is played.
            if facts:
                _check_setup(game)
            return rules.play(game_rules(game), setup_of(game), facts, after=known)
    return replay(game)


# What changed since a version this process knows; built once (a statement costs more to build than to run).
_SINCE = (
    select(Change.__table__.c.kind, Change.__table__.c.after)
    .where(
        Change.__table__.c.game_id == bindparam("game_key"), Change.__table__.c.version > bindparam("known")
    )
    .order_by(Change.__table__.c.version)
)

# Changes that leave every recorded deal as it was (an append only adds one).
QUIET = frozenset({"append", "draft", "archive", "unarchive", "orders_in"})


# Per game, the latest (version, result) this process scored or wrote: the next version scores on from it.
LATEST = stores.store("latest_results", "LOCAL_GAMES", doc="each game's latest result")


def _latest() -> LocalLRU[str, tuple[int, GameResult | bytes]]:
    return LATEST()


# How many games' latest results stay objects (those kept here most recently), and how many deals
# at most; the others' are pickled. A result is a few hundred small objects (each deal's
# messages), and a worker keeping a crowd's thousands of games as objects made every collection
# of the garbage collector scan a million of them, stopping the worker for most of a second
# (benchmarks/run.py --sweep at 3,000 tables: bursts of refused polls). Bytes are never scanned.
# The games being played here stay objects (a few hundred, or a few dozen long ones: the
# benchmark's POSTs), so they pay no pickling and keep the objects the API's record splices by
# identity (web/api/game_json.py); a game of a crowd pays one pickling per version and one loading
# per version and process (0.2-0.4 ms each, for a dozen deals). Past these, games
# kept in turn evict each other: every write would pickle and load its whole game (the
# benchmark's POSTs at 0.6 of their rate).
LIVELY_GAMES = 256
LIVELY_DEALS = 8000


class _Lively:
    """The games whose latest result is kept as an object, least recently kept first, with the
    number of deals each holds. Not a store of its own: the bookkeeping of :data:`LATEST`'s
    objects, bounded by ``LIVELY_GAMES`` and ``LIVELY_DEALS``."""

    def __init__(self) -> None:
        self.games: OrderedDict[str, int] = OrderedDict()
        self.deals = 0
        self.lock = threading.Lock()


def _keep_latest(game: AnyGame, result: GameResult) -> None:
    if not has_app_context():
        return
    latest = _latest()
    lively = current_app.extensions.get("scorekeeper.lively_results")
    if lively is None:
        lively = current_app.extensions.setdefault("scorekeeper.lively_results", _Lively())
    with lively.lock:
        latest.put(game.id, (game.version, result))
        lively.deals -= lively.games.pop(game.id, 0)
        lively.games[game.id] = deals = max(1, len(result.deals))
        lively.deals += deals
        while len(lively.games) > 1 and (lively.deals > LIVELY_DEALS or len(lively.games) > LIVELY_GAMES):
            quiet, deals = lively.games.popitem(last=False)
            lively.deals -= deals
            kept = latest.get(quiet)
            if kept is not None and isinstance(kept[1], GameResult):
                latest.put(quiet, (kept[0], pickle.dumps(kept[1], pickle.HIGHEST_PROTOCOL)))
