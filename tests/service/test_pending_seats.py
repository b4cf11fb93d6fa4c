"""Pending seat entries (spec "Seat entry"): kept apart from the game's deals, replaced when sent
again, and only their seat's own reader gets their contents."""

from scorekeeper.read.pending import own_orders, who_sent
from tests.web.test_seat_orders import bearer, new_game, orders


def test_sending_again_replaces_and_who_sent_tells_only_seats(app, client):
    game_id, _key, tokens = new_game(client)
    for guard in (3, 8):
        sent = client.put(
            f"/api/games/{game_id}/orders/2",
            json={"orders": orders(2), "guard": guard},
            headers=bearer(tokens[2]),
        )
        assert sent.json == {"turn": 1, "waiting": [0, 1]}
    with app.app_context():
        assert who_sent(game_id, 1) == [2] and who_sent(game_id, 2) == []
        assert own_orders(game_id, 2, 1) == {"orders": orders(2), "guard": 8}
        assert own_orders(game_id, 0, 1) is None


def test_pending_orders_leave_the_deals_alone_and_move_the_version(client):
    game_id, _key, tokens = new_game(client)
    before = client.get(f"/api/games/{game_id}")
    client.put(
        f"/api/games/{game_id}/orders/0", json={"orders": orders(0), "guard": 2}, headers=bearer(tokens[0])
    )
    after = client.get(f"/api/games/{game_id}")
    assert after.json["turns"] == before.json["turns"] == [] and after.json["totals"] == before.json["totals"]
    # Every phone sees who is in: the record's version (its ETag) moved.
    assert after.headers["ETag"] != before.headers["ETag"]
