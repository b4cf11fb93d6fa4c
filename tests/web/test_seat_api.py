"""Spec "Seat entry": the scorer's list of seat links and tokens."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

VALUES = [[4, 0, 0, 0, 0, 0, 0, 0, 0, 41], [0, 6, 0, 0, 0, 0, 0, 0, 0, 39], [0, 0, 8, 0, 0, 0, 0, 0, 0, 37]]


def test_the_scorer_gets_each_seats_link_and_token_and_nobody_else_does(client):
    created = client.post(
        "/api/games",
        json={
            "game": "secrets",
            "players": ["Ann", "Bob", "Cid"],
            "options": {"hidden": True, "values": VALUES},
        },
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    game_id, key = created.json["id"], created.json["edit_key"]
    assert client.get(f"/api/games/{game_id}/seats").status_code == 403
    answer = client.get(f"/api/games/{game_id}/seats", headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 200
    seats = answer.json["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert len({s["token"] for s in seats}) == 3
    for s in seats:
        assert s["link"].endswith(f"/g/{game_id}/p/{s['seat']}/{s['token']}")
        assert client.get(s["link"]).status_code == 200
    # A token opens its own seat only.
    wrong = seats[0]["link"].replace("/p/0/", "/p/1/")
    assert client.get(wrong).status_code == 404
    assert (
        client.get("/api/games/nosuchgame/seats", headers={"Authorization": f"Bearer {key}"}).status_code
        == 404
    )


def test_a_seat_puts_its_own_allotment_only(client):
    created = client.post(
        "/api/games",
        json={
            "game": "secrets",
            "players": ["Ann", "Bob", "Cid"],
            "options": {"hidden": True, "values": VALUES},
        },
    ).json
    game_id, key = created["id"], created["edit_key"]
    seats = client.get(f"/api/games/{game_id}/seats", headers={"Authorization": f"Bearer {key}"}).json[
        "seats"
    ]
    own = {"Authorization": f"Bearer {seats[1]['token']}"}
    new_row = [0, 0, 0, 0, 0, 0, 0, 0, 6, 39]
    before = client.get(f"/api/games/{game_id}").get_data()
    # Another seat's token or a seat that is not there: 404; no token: 403; nothing kept.
    assert (
        client.put(f"/api/games/{game_id}/allotment/0", json={"values": new_row}, headers=own).status_code
        == 404
    )
    # No credential at all is refused as every write is (403); a credential for another seat is 404.
    assert client.put(f"/api/games/{game_id}/allotment/1", json={"values": new_row}).status_code == 403
    assert (
        client.put(f"/api/games/{game_id}/allotment/7", json={"values": new_row}, headers=own).status_code
        == 404
    )
    bad = client.put(f"/api/games/{game_id}/allotment/1", json={"values": "x"}, headers=own)
    assert bad.status_code == 422 and bad.json["errors"][0]["field"] == "values"
    assert client.get(f"/api/games/{game_id}").get_data() == before
    assert (
        client.put(f"/api/games/{game_id}/allotment/1", json={"values": new_row}, headers=own).status_code
        == 204
    )
    # The allotment is the seat's own: the public record does not show it.
    assert client.get(f"/api/games/{game_id}").json["options"]["values"] is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=12) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values | st.fixed_dictionaries({"values": json_values}), seat=st.integers(-2, 5))
def test_the_seat_routes_never_answer_500(client, body, seat):
    created = client.post(
        "/api/games",
        json={
            "game": "secrets",
            "players": ["Ann", "Bob", "Cid"],
            "options": {"hidden": True, "values": VALUES},
        },
    ).json
    game_id, key = created["id"], created["edit_key"]
    for headers in ({}, {"Authorization": f"Bearer {key}"}, {"Authorization": "Bearer x"}):
        answer = client.put(f"/api/games/{game_id}/allotment/{seat}", json=body, headers=headers)
        assert answer.status_code < 500
        assert client.get(f"/api/games/{game_id}/seats", headers=headers).status_code < 500


def test_a_hidden_game_made_without_values_waits_for_each_seat_and_shows_who_is_in(client):
    """Spec "Seat entry": created without `values`, turn 1 waits for every seat's allotment, sent
    from the seats; the record says who is in, never what, and the turn plays once all are."""
    created = client.post(
        "/api/games", json={"game": "secrets", "players": ["Ann", "Bob", "Cid"], "options": {"hidden": True}}
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    game_id, key = created.json["id"], created.json["edit_key"]
    assert created.json["waiting"] == {"turn": 1, "in": []}
    assert created.json["options"]["values"] is None
    scorer = {"Authorization": f"Bearer {key}"}
    seats = client.get(f"/api/games/{game_id}/seats", headers=scorer).json["seats"]
    turn = {
        "orders": [
            [{"spy": s, "target": (p + 1) % 3, "secret": "A"} for s in ("club", "diamond", "heart", "spade")]
            for p in range(3)
        ],
        "guards": ["J", "J", "J"],
    }
    # Turn 1 cannot be played before every allotment is in.
    early = client.post(f"/api/games/{game_id}/deals", json=turn, headers=scorer)
    assert early.status_code == 422
    for seat in (2, 0):
        put = client.put(
            f"/api/games/{game_id}/allotment/{seat}",
            json={"values": VALUES[seat]},
            headers={"Authorization": f"Bearer {seats[seat]['token']}"},
        )
        assert put.status_code == 204
    record = client.get(f"/api/games/{game_id}").json
    assert record["waiting"] == {"turn": 1, "in": [0, 2]}
    assert record["options"]["values"] is None and "41" not in client.get(f"/api/games/{game_id}").get_data(
        as_text=True
    )
    # The scorer enters the allotment of a player without a phone (Bob).
    assert (
        client.put(
            f"/api/games/{game_id}/allotment/1", json={"values": VALUES[1]}, headers=scorer
        ).status_code
        == 204
    )
    record = client.get(f"/api/games/{game_id}").json
    assert "waiting" not in record
    played = client.post(f"/api/games/{game_id}/deals", json=turn, headers=scorer)
    assert played.status_code == 201, played.get_data(as_text=True)
    assert len(played.json["turns"]) == 1 and "waiting" not in played.json
