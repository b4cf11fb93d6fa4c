"""POST /api/games with an Idempotency-Key, sent 5 times at once: one game, every answer the first.

Threads against one served app, on the database DATABASE_URL picks (SQLite by default).
"""

from __future__ import annotations

from sqlalchemy import func, select

from scorekeeper.models import Game
from tests.races.test_house_races import count, served  # noqa: F401  (the fixture)
from tests.web.test_table_concurrency import all_at_once, call

RECORD = {"game": "tally", "players": ["Ann", "Bob", "Cid"], "deals": [{"points": [3, 2, 1]}]}


def test_five_posts_with_one_idempotency_key_make_one_game(served):  # noqa: F811
    app, port = served
    headers = {"Idempotency-Key": "race-create-0001"}
    answers = all_at_once([lambda: call(port, "POST", "/api/games", RECORD, headers) for _ in range(5)])
    statuses = [status for status, _h, _b in answers]
    assert statuses == [201] * 5, answers
    assert len({body["id"] for _s, _h, body in answers}) == 1
    assert len({body["edit_key"] for _s, _h, body in answers}) == 1
    # One answer made the game; the others say they repeat it.
    replayed = [h.get("Idempotent-Replayed") for _s, h, _b in answers]
    assert replayed.count("true") == 4 and replayed.count(None) == 1
    assert count(app, select(func.count(Game.id))) == 1
    # The repeat's record is the first answer's.
    first = next(body for _s, h, body in answers if h.get("Idempotent-Replayed") is None)
    assert all(body == first for _s, _h, body in answers)
    # The key works: the game takes a deal with it.
    status, _h, _b = call(
        port,
        "POST",
        f"/api/games/{first['id']}/deals",
        {"points": [1, 1, 1]},
        {"Authorization": f"Bearer {first['edit_key']}"},
    )
    assert status == 201


def test_another_body_with_the_same_key_is_refused_and_makes_nothing(served):  # noqa: F811
    app, port = served
    headers = {"Idempotency-Key": "race-create-0002"}
    status, _h, first = call(port, "POST", "/api/games", RECORD, headers)
    assert status == 201
    other = {**RECORD, "players": ["Ann", "Bob", "Zoe"]}
    status, _h, body = call(port, "POST", "/api/games", other, headers)
    assert status == 409 and body["errors"][0]["field"] == "Idempotency-Key" and "edit_key" not in body
    # Without a key, the same record makes another game, as before.
    status, _h, again = call(port, "POST", "/api/games", RECORD)
    assert status == 201 and again["id"] != first["id"]
    assert count(app, select(func.count(Game.id))) == 2
    status, _h, body = call(port, "POST", "/api/games", RECORD, {"Idempotency-Key": "no"})
    assert status == 400 and body["errors"][0]["field"] == "Idempotency-Key"
