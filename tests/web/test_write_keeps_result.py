"""A write keeps the result it scored in its process: the next write to that game replays nothing."""

from __future__ import annotations

from scorekeeper import rules
from scorekeeper.rules import base as rules_base
from tests.web.table_helpers import FLAT, api_game, auth


def test_consecutive_api_deals_replay_nothing(client, monkeypatch):
    gid, key = api_game(client, deals=[FLAT])
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=auth(key)).status_code == 201
    replays = []
    real = rules_base.play

    def counted(game, setup, deals, after=None):
        if after is None:  # a replay from the first deal; ``after``: one more deal on a stored result
            replays.append(len(deals))
        return real(game, setup, deals, after)

    monkeypatch.setattr(rules_base, "play", counted)
    monkeypatch.setattr(rules, "play", counted)
    for n in range(3):
        reply = client.post(f"/api/games/{gid}/deals", json=FLAT, headers=auth(key))
        assert reply.status_code == 201 and len(reply.json["deals"]) == 3 + n
    assert replays == []
