"""A write keeps the result it scored in its process: the next write to that game replays nothing."""

from __future__ import annotations

import pickle

from sqlalchemy import inspect
from sqlalchemy.orm import lazyload

from scorekeeper import rules, scoring
from scorekeeper.games import GAMES
from scorekeeper.rules import base as rules_base
from tests.conftest import bearer
from tests.web.table_helpers import FLAT, api_game


def test_consecutive_api_deals_replay_nothing(client, monkeypatch):
    gid, key = api_game(client, deals=[FLAT])
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    replays = []
    real = rules_base.play

    def counted(game, setup, deals, after=None):
        if after is None:  # a replay from the first deal; ``after``: one more deal on a stored result
            replays.append(len(deals))
        return real(game, setup, deals, after)

    monkeypatch.setattr(rules_base, "play", counted)
    monkeypatch.setattr(rules, "play", counted)
    for n in range(3):
        reply = client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key))
        assert reply.status_code == 201 and len(reply.json["deals"]) == 3 + n
    assert replays == []


def nothing_shared(monkeypatch) -> None:
    """As if the versions since were written by another worker, and no shared cache (Redis on
    CI's PostgreSQL run) holds their results either: only this process's latest results remain."""
    from scorekeeper import cache

    monkeypatch.setattr(cache, "get", lambda name: cache._MISSING)


def counting_plays(monkeypatch) -> list[tuple[int, int]]:
    """(deals scored from, deals in all) of every play."""
    plays: list[tuple[int, int]] = []
    real = rules_base.play

    def counted(game, setup, deals, after=None):
        plays.append((len(after.deals) if after is not None else 0, len(deals)))
        return real(game, setup, deals, after)

    monkeypatch.setattr(rules_base, "play", counted)
    monkeypatch.setattr(rules, "play", counted)
    return plays


def test_a_process_that_missed_versions_scores_on_from_the_deals_it_knows(app, client, monkeypatch):
    gid, key = api_game(client, deals=[FLAT] * 5)
    client.get(f"/g/{gid}")  # this process scores the 5 deals
    # Another worker records two deals: here nothing is kept for those versions.
    for _ in range(2):
        assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    app.extensions.get("scorekeeper.objects", {}).clear()
    latest = app.extensions["scorekeeper.latest_results"]
    nothing_shared(monkeypatch)
    plays = counting_plays(monkeypatch)
    with app.app_context():
        from scorekeeper import read
        from scorekeeper.db import db
        from scorekeeper.models import Game

        # What this process last scored: the 7 deals (it wrote them). Make it know only the first 5,
        # at the version they had (2 appends ago).
        game = db.session.get(Game, gid)
        five = rules.play(GAMES.get("secret_agent"), scoring.setup_of(game), game.facts[:5])
        latest[gid] = (game.version - 2, pickle.dumps(five))
        db.session.expunge_all()
        game = db.session.get(Game, gid, options=[lazyload(Game.deals)])
        plays.clear()
        result = read.result(game)
        assert plays == [(5, 7)]  # deals 6 and 7 played, not a replay of all 7
        assert "deals" in inspect(game).unloaded  # their facts came from the history: no deal was read
        assert result == scoring.replay(game)


def test_a_correction_among_the_known_deals_is_replayed_whole(app, client, monkeypatch):
    gid, key = api_game(client, deals=[FLAT] * 4)
    client.get(f"/g/{gid}")
    sweep = {"tricks": [13, 0, 0, 0], "agents": ["S", "L", "O", "R"]}
    assert client.put(f"/api/games/{gid}/deals/1", json=sweep, headers=bearer(key)).status_code == 200
    app.extensions.get("scorekeeper.objects", {}).clear()
    nothing_shared(monkeypatch)
    plays = counting_plays(monkeypatch)
    with app.app_context():
        from scorekeeper import read
        from scorekeeper.db import db
        from scorekeeper.models import Game

        game = db.session.get(Game, gid)
        latest = app.extensions["scorekeeper.latest_results"]
        known = rules.play(GAMES.get("secret_agent"), scoring.setup_of(game), [FLAT] * 4)
        latest[gid] = (game.version - 1, pickle.dumps(known))
        plays.clear()
        result = read.result(game)
        assert plays == [(0, 4)]  # deal 2 differs from what this process knew: a whole replay
        assert result.deals[1].scores == scoring.replay(game).deals[1].scores


def test_the_gate_keeps_what_it_scored_without_the_caller(app, client):
    """Who computes keeps: a write through the service (no view, no ``remember`` by the caller)
    leaves its result at the new version in the request's memo and the process's latest."""
    gid, _key = api_game(client, deals=[FLAT])
    with app.app_context():
        from scorekeeper import service
        from scorekeeper.db import db
        from scorekeeper.models import Game

        game = db.session.get(Game, gid)
        result = service.append_deal(game, FLAT)
        assert scoring.known_result(game) is result
        assert app.extensions["scorekeeper.latest_results"].get(gid) == (game.version, result)


def test_a_draft_hands_the_known_result_to_its_version(app, client):
    """A quiet change (a draft) changes no deal: the gate hands the result this request scored on
    to the new version; a request that scored nothing has nothing to hand on."""
    gid, _key = api_game(client, deals=[FLAT])
    with app.app_context():
        from scorekeeper import service
        from scorekeeper.db import db
        from scorekeeper.models import Game

        game = db.session.get(Game, gid)
        assert scoring.known_result(game) is None
        service.save_draft(game, {"tricks": [1, 2, 3, 4]})
        assert scoring.known_result(game) is None  # nothing was scored: nothing invented
        before = scoring.result(game)
        service.save_draft(game, None)
        assert scoring.known_result(game) is before


def test_the_result_at_a_version_has_one_name():
    """``read.result`` is the one name of the game's result at its version: no aliases beside it."""
    from scorekeeper import read, service

    assert read.result is scoring.result
    assert not hasattr(read, "full_result") and not hasattr(scoring, "score")
    assert not hasattr(service, "score") and not hasattr(read, "remember")
