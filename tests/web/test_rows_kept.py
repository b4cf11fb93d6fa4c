"""Board rows kept drawn by value (cache.row_fragment, issue 28): a worker that did not take the
write scores the game anew, and still draws only the rows that changed."""

from __future__ import annotations

import gc
import pickle
import random
import zlib
from types import SimpleNamespace

from scorekeeper import cache, rules, scoring
from scorekeeper.games import GAMES
from scorekeeper.read.redaction import redact
from tests.conftest import bearer
from tests.web.table_helpers import FLAT, api_game

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
    return {slot[0]: html for slot, (_by, html) in rows.items()}


def test_rows_are_kept_compressed_and_read_back_as_drawn(app, client):
    """A crowd's rows fit in a worker's memory compressed: each kept row reads back to the very
    HTML the board shows, in less space than that HTML."""
    gid, _ = api_game(client, deals=[FLAT, FLAT, FLAT])
    page = client.get(f"/g/{gid}/live?part=live&lang=en", headers=HX).get_data(as_text=True)
    kept = kept_rows(app, gid)
    assert sorted(kept) == [0, 1, 2]
    for packed in kept.values():
        row = zlib.decompress(packed).decode()
        assert "<tr" in row and row in page and len(packed) < len(row.encode())
    # Drawn again from what was kept: the same page.
    forget_scored_games(app)
    assert client.get(f"/g/{gid}/live?part=live&lang=en", headers=HX).get_data(as_text=True) == page


def test_rows_are_reused_after_a_replay_and_redrawn_when_a_deal_before_them_changes(app, client):
    gid, key = api_game(client, deals=[FLAT, FLAT, FLAT])
    url = f"/g/{gid}/live?part=live&lang=en"
    assert client.get(url, headers=HX).status_code == 200
    before = kept_rows(app, gid)
    assert sorted(before) == [0, 1, 2]

    # Another worker takes a deal; this one scores the whole game anew (new objects) and draws.
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    forget_scored_games(app)
    assert client.get(url, headers=HX).status_code == 200
    after = kept_rows(app, gid)
    assert sorted(after) == [0, 1, 2, 3]
    assert all(after[i] is before[i] for i in range(3))  # the same drawn rows, not drawn again

    # The first deal corrected: its row and every later one show new totals, so all are redrawn.
    fixed = client.put(f"/api/games/{gid}/deals/0", json=OTHER, headers=bearer(key))
    assert fixed.status_code == 200, fixed.json
    forget_scored_games(app)
    page = client.get(url, headers=HX).get_data(as_text=True)
    redrawn = kept_rows(app, gid)
    assert all(redrawn[i] is not after[i] for i in range(4))
    # What the board shows is the corrected game, as a fresh render would draw it.
    app.extensions["scorekeeper.rows"].clear()
    forget_scored_games(app)
    assert client.get(url, headers=HX).get_data(as_text=True) == page


SPADES_PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def random_game(kind: str, players, options, count: int, seed: int):
    """The kind's rules, the setup, and ``count`` deals drawn by the kind's ``random_deal``."""
    game = GAMES.get(kind)
    _errors, setup = rules.base.check_setup(game, players, options, 0)
    rng = random.Random(seed)
    deals: list = []
    for _ in range(count):
        result = rules.play(game, setup, deals)
        deals.append(game.random_deal(setup, result.state, result.next_dealer, rng))
    return game, setup, deals


def spades_deals(count: int, seed: int):
    return random_game("spades", SPADES_PLAYERS, {"target": 10**6}, count, seed)


def test_a_rows_key_names_its_deal_and_every_one_before_it(app):
    game, setup, deals = spades_deals(4, 1)
    other = spades_deals(4, 2)[2][1]
    assert other != deals[1]
    with app.test_request_context():
        keys = cache.deal_keys(rules.play(game, setup, deals), SPADES_PLAYERS)
        # Scored anew (new objects, as in another worker): the same keys.
        assert cache.deal_keys(rules.play(game, setup, deals), SPADES_PLAYERS) == keys
        assert len(set(keys)) == 4
        # The second deal corrected: the first row stands, it and every later one are drawn again.
        corrected = cache.deal_keys(rules.play(game, setup, [deals[0], other, *deals[2:]]), SPADES_PLAYERS)
        assert corrected[0] == keys[0]
        assert all(corrected[i] != keys[i] for i in range(1, 4))
        renamed = cache.deal_keys(rules.play(game, setup, deals), ["Zed", *SPADES_PLAYERS[1:]])
        assert not set(renamed) & set(keys)


def test_a_redacted_result_is_keyed_apart_from_the_whole_one(app):
    """Hidden Secrets: the same facts show redacted figures until the end, whole ones after."""
    values = [4, 4, 4, 4, 4, 5, 5, 5, 5, 5]
    options = {"hidden": True, "turns": 5, "values": [values] * 3}
    game, setup, deals = random_game("secrets", ["Ann", "Bob", "Cid"], options, 2, 5)
    whole = rules.play(game, setup, deals)
    public = redact(game, whole)
    assert public.deals[0].facts == whole.deals[0].facts and public.deals[0] != whole.deals[0]
    with app.test_request_context():
        assert not set(cache.deal_keys(public, setup.players)) & set(cache.deal_keys(whole, setup.players))


def test_kept_rows_and_results_are_nothing_the_collector_scans(app, client, monkeypatch):
    """A crowd's thousands of games kept as objects made each collection scan a million of them:
    rows are kept as digests and strings, and a result as bytes once others were scored since."""
    monkeypatch.setattr(scoring, "LIVELY_DEALS", 1)
    gid, key = api_game(client, deals=[FLAT, FLAT, FLAT])
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    assert client.get(f"/g/{gid}/live?part=live&lang=en", headers=HX).status_code == 200
    latest = app.extensions["scorekeeper.latest_results"]
    assert isinstance(latest.get(gid)[1], rules.GameResult)  # the latest scored here: as it is
    other, other_key = api_game(client, deals=[FLAT])
    assert client.post(f"/api/games/{other}/deals", json=FLAT, headers=bearer(other_key)).status_code == 201
    gc.collect()  # a tuple of atoms is untracked by the first collection that meets it
    rows = app.extensions["scorekeeper.rows"].get(gid)
    assert len(rows) == 4
    assert not any(gc.is_tracked(slot) or gc.is_tracked(entry) for slot, entry in rows.items())
    _version, kept = latest.get(gid)
    assert isinstance(kept, bytes) and len(pickle.loads(kept).deals) == 4
    # Scored on from those bytes, as by a process that kept nothing else: the next deal replays nothing.
    app.extensions["scorekeeper.objects"].clear()
    with app.app_context():
        cache.cache.clear()

    def no_replay(*args, **kwargs):
        raise AssertionError("replayed whole")

    monkeypatch.setattr(scoring, "replay", no_replay)
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    assert len(client.get(f"/api/games/{gid}").json["deals"]) == 5


def test_games_kept_in_turn_within_the_limits_stay_objects(app, monkeypatch):
    """The games being played here are never pickled in turn (each write would load and pickle its
    whole game); past the number of games, or of deals, the least recently kept one is."""
    monkeypatch.setattr(scoring, "LIVELY_GAMES", 3)
    game, setup, deals = spades_deals(5, 3)
    result = rules.play(game, setup, deals)
    with app.test_request_context():
        for turn in range(4):
            for name in ("a", "b", "c"):
                scoring._keep_latest(SimpleNamespace(id=name, version=turn), result)
        latest = app.extensions["scorekeeper.latest_results"]
        assert all(latest.get(name)[1] is result for name in ("a", "b", "c"))
        scoring._keep_latest(SimpleNamespace(id="d", version=0), result)
        assert isinstance(latest.get("a")[1], bytes)  # the least recently kept
        assert all(latest.get(name)[1] is result for name in ("b", "c", "d"))
        monkeypatch.setattr(scoring, "LIVELY_DEALS", 10)  # two games of 5 deals
        scoring._keep_latest(SimpleNamespace(id="c", version=4), result)
        assert isinstance(latest.get("b")[1], bytes)  # now the least recently kept
        assert latest.get("d")[1] is result and latest.get("c")[1] is result
