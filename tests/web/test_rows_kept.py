"""Board rows kept drawn by value (cache.row_fragment, issue 28): a worker that did not take the
write scores the game anew, and still draws only the rows that changed."""

from __future__ import annotations

from tests.web.table_helpers import FLAT, api_game, auth

HX = {"HX-Request": "true"}
OTHER = {"tricks": [1, 4, 4, 4], "agents": ["L", "O", "R", "S"]}


def forget_scored_games(app) -> None:
    """As another worker process: no scored object of this one's (its rows stay drawn)."""
    for name in ("scorekeeper.latest_results", "scorekeeper.objects"):
        store = app.extensions.get(name)
        if store is not None:
            store.clear()
    app.extensions["cache"][next(iter(app.extensions["cache"]))].clear()


def kept_rows(app, gid):
    rows = app.extensions["scorekeeper.rows"].get(gid)
    return {slot[0]: html for slot, (_deal, _by, html) in rows.items()}


def test_rows_are_reused_after_a_replay_and_redrawn_when_a_deal_before_them_changes(app, client):
    gid, key = api_game(client, deals=[FLAT, FLAT, FLAT])
    url = f"/g/{gid}/live?part=live&lang=en"
    assert client.get(url, headers=HX).status_code == 200
    before = kept_rows(app, gid)
    assert sorted(before) == [0, 1, 2]

    # Another worker takes a deal; this one scores the whole game anew (new objects) and draws.
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=auth(key)).status_code == 201
    forget_scored_games(app)
    assert client.get(url, headers=HX).status_code == 200
    after = kept_rows(app, gid)
    assert sorted(after) == [0, 1, 2, 3]
    assert all(after[i] is before[i] for i in range(3))  # the same drawn rows, not drawn again

    # The first deal corrected: its row and every later one show new totals, so all are redrawn.
    fixed = client.put(f"/api/games/{gid}/deals/0", json=OTHER, headers=auth(key))
    assert fixed.status_code == 200, fixed.json
    forget_scored_games(app)
    page = client.get(url, headers=HX).get_data(as_text=True)
    redrawn = kept_rows(app, gid)
    assert all(redrawn[i] is not after[i] for i in range(4))
    # What the board shows is the corrected game, as a fresh render would draw it.
    app.extensions["scorekeeper.rows"].clear()
    forget_scored_games(app)
    assert client.get(url, headers=HX).get_data(as_text=True) == page
