"""Pending seat entries (spec "Seat entry"): kept apart from the game, replaced
when sent again, and only their seat's own reader gets their contents."""

from scorekeeper.service.seats import clear_pending, own_pending, put_pending, who_sent


def make_game(client) -> str:
    response = client.post("/api/games", json={"game": "secret_agent", "players": ["A", "B", "C", "D"]})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.json["id"]


def test_sending_again_replaces_and_who_sent_tells_only_seats(app, client):
    game_id = make_game(client)
    with app.app_context():
        put_pending(game_id, 2, "orders", 1, {"orders": [1], "guard": "J"})
        put_pending(game_id, 0, "orders", 1, {"orders": [3], "guard": "Q"})
        put_pending(game_id, 2, "orders", 1, {"orders": [2], "guard": "K"})
        assert who_sent(game_id, "orders", 1) == [0, 2]
        assert who_sent(game_id, "orders", 2) == []
        assert own_pending(game_id, 2, "orders", 1) == {"orders": [2], "guard": "K"}
        assert own_pending(game_id, 1, "orders", 1) is None


def test_pending_entries_leave_the_game_record_alone(app, client):
    game_id = make_game(client)
    before = client.get(f"/api/games/{game_id}").get_data()
    with app.app_context():
        put_pending(game_id, 1, "allotment", 0, {"values": [1] * 10})
    assert client.get(f"/api/games/{game_id}").get_data() == before


def test_clearing_drops_one_kind_or_all(app, client):
    game_id = make_game(client)
    with app.app_context():
        put_pending(game_id, 0, "orders", 1, {"orders": []})
        put_pending(game_id, 0, "allotment", 0, {"values": [0] * 10})
        clear_pending(game_id, "orders")
        assert who_sent(game_id, "orders", 1) == []
        assert who_sent(game_id, "allotment", 0) == [0]
        clear_pending(game_id)
        assert who_sent(game_id, "allotment", 0) == []
