"""Board rows drawn once per process while their deals are the same scored objects.

Every board drawn with kept rows must read exactly as one drawn from nothing (every cache
emptied), through appends, corrections, deletions and a rename, in each board's language.
"""

from __future__ import annotations

import random

import pytest

from scorekeeper import cache, rules
from scorekeeper.games import GAMES
from tests.conftest import bearer

SPADES = {"bids": [3, 3, 3, 3], "tricks": [4, 3, 3, 3]}


def fresh_board(app, client, gid: str, headers: dict) -> str:
    """The board as drawn when this process has kept nothing (no rows, views or regions)."""
    with app.app_context():
        cache.cache.clear()
    for name in ("scorekeeper.rows", "scorekeeper.objects", "scorekeeper.latest_results"):
        app.extensions.get(name, {}).clear()
    return client.get(f"/g/{gid}/live?part=board", headers=headers).get_data(as_text=True)


@pytest.mark.parametrize(
    "kind, players, options",
    [
        ("spades", ["Ann", "Bob", "Cid", "Dee"], {"target": 10**6}),
        ("euchre", ["Ann", "Bob", "Cid", "Dee"], {"target": 10**6}),
        ("tally", ["Ann", "Bob", "Cid"], {}),
        ("secret_agent", ["Ann", "Bob", "Cid", "Dee"], {"deals": 52}),
    ],
)
def test_a_board_with_kept_rows_reads_as_one_drawn_from_nothing(app, client, kind, players, options):
    game = GAMES.get(kind)
    reply = client.post("/api/games", json={"game": kind, "players": players, "options": options})
    assert reply.status_code == 201, reply.json
    gid, key = reply.json["id"], reply.json["edit_key"]
    rng = random.Random(7)
    _errors, setup = rules.base.check_setup(game, players, options, 0)
    for step in range(14):
        record = client.get(f"/api/games/{gid}").json
        deals = record[game.record_key]
        result = rules.play(game, setup, deals)
        roll = rng.random()
        if roll < 0.65 or len(deals) < 2:
            facts = game.random_deal(setup, result.state, result.next_dealer, rng)
            answer = client.post(f"/api/games/{gid}/deals", json=facts, headers=bearer(key))
        elif roll < 0.85:
            k = rng.randrange(len(deals))
            facts = game.random_deal(
                setup, result.deals[k - 1].state if k else None, result.deals[k].dealer, rng
            )
            answer = client.put(f"/api/games/{gid}/deals/{k}", json=facts, headers=bearer(key))
        else:
            answer = client.delete(f"/api/games/{gid}/deals/{rng.randrange(len(deals))}", headers=bearer(key))
        assert answer.status_code in (200, 201, 422), answer.json
        # Each language its own rows: the board in Polish, then in English from the rows kept so far.
        for language in ("pl", "en"):
            headers = {"HX-Request": "true", "Accept-Language": language}
            kept = client.get(f"/g/{gid}/live?part=board", headers=headers).get_data(as_text=True)
            assert kept == fresh_board(app, client, gid, headers), (kind, step, language)
            # Drawn again, from the rows this process now keeps, for the next step to build on.
            client.get(f"/g/{gid}/live?part=board", headers=headers)
    assert 'id="deal-' in kept


def test_a_rename_redraws_the_rows_with_the_new_name(app, client):
    reply = client.post(
        "/api/games",
        json={"game": "euchre", "players": ["Ann", "Bob", "Cid", "Dee"], "deals": [], "options": {}},
    )
    gid, key = reply.json["id"], reply.json["edit_key"]
    game = GAMES.get("euchre")
    _errors, setup = rules.base.check_setup(game, ["Ann", "Bob", "Cid", "Dee"], {}, 0)
    rng = random.Random(3)
    result = rules.play(game, setup, [])
    for _ in range(3):
        facts = game.random_deal(setup, result.state, result.next_dealer, rng)
        assert client.post(f"/api/games/{gid}/deals", json=facts, headers=bearer(key)).status_code == 201
        result = rules.play(game, setup, [*(d.facts for d in result.deals), facts])
    before = client.get(f"/g/{gid}/live?part=board").get_data(as_text=True)
    assert "Zed" not in before
    with app.app_context():
        from scorekeeper import service
        from scorekeeper.db import db
        from scorekeeper.models import Game

        service.rename_seat(db.session.get(Game, gid), 0, "Ann", "Zed")
    after = client.get(f"/g/{gid}/live?part=board").get_data(as_text=True)
    assert after == fresh_board(app, client, gid, {})
