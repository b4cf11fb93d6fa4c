"""A ladder ("king's table") evening through the JSON API (events.md, ``ladder``)."""

from tests.conftest import bearer, make_event, play_table

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy"]
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
MARCH_13 = {"trump": "S", "maker": 1, "alone": False, "defender_alone": None, "maker_tricks": 5}
LONER_0 = {"trump": "C", "maker": 0, "alone": True, "defender_alone": None, "maker_tricks": 5}


def test_a_ladder_evening_moves_winners_up_and_splits_partners(app, client):
    event_id, key = make_event(
        app, name="King's table", format="ladder", game="euchre", players=NAMES, hands=2, rounds=3
    )
    doc = client.get(f"/api/events/{event_id}").get_json()
    assert doc["format"] == "ladder"
    first, second, third = doc["rounds"]
    # Only round 1 is planned, in the order given; the last player sits out.
    assert [t["seats"] for t in first["tables"]] == [NAMES[0:4], NAMES[4:8]]
    assert first["sitting_out"] == ["Ivy"]
    assert second["tables"] == [] and third["tables"] == []
    rnd = client.post(f"/api/events/{event_id}/rounds", json={}, headers=bearer(key)).get_json()
    game = client.get(f"/api/games/{rnd['tables'][0]['game']}").get_json()
    assert game["options"]["hands"] == 2 and game["options"]["hands_tiebreak"] is True
    t1, t2 = rnd["tables"]
    play_table(client, t1, LONER_0, MARCH_13)  # Ann+Cy 4, Bob+Di 2: Ann & Cy win table 1
    play_table(client, t2, MARCH_13, MARCH_13)  # Fay+Hal 4, Eve+Gus 0: Fay & Hal move up
    doc = client.get(f"/api/events/{event_id}").get_json()
    by_name = {s["name"]: s for s in doc["standings"]}
    assert by_name["Ann"]["points"] == 4 and by_name["Ann"]["wins"] == 1 and by_name["Ann"]["loners"] == 1
    assert by_name["Bob"]["wins"] == 0 and by_name["Ivy"]["wins"] == 0
    assert by_name["Ivy"]["points"] == 3  # the round's mean: (4+2+4+2+0+4+0+4)/8 = 2.5, half up
    rnd2 = client.post(f"/api/events/{event_id}/rounds", json={}, headers=bearer(key)).get_json()
    seats = [t["seats"] for t in rnd2["tables"]]
    # Table 1: X = Ann & Cy (stay), Y = Fay & Hal (up): Ann, Fay, Hal, Cy.
    assert seats[0] == ["Ann", "Fay", "Hal", "Cy"]
    # Table 2: X = Bob & Di (down), Y = Eve & Gus (stay); a sit-out re-enters at the last table
    # and someone else sits out in turn (the first of the round's sitters by rotation).
    assert "Ivy" in seats[1] and len(rnd2["sitting_out"]) == 1 and rnd2["sitting_out"] != ["Ivy"]
    doc = client.get(f"/api/events/{event_id}").get_json()
    assert doc["rounds"][2]["tables"] == []  # round 3 is seated when it starts


def test_ladder_standings_explain_rounds_won(app, client):
    event_id, key = make_event(
        app, name="Ladder", format="ladder", game="euchre", players=NAMES[:4], hands=1, rounds=2
    )
    rnd = client.post(f"/api/events/{event_id}/rounds", json={}, headers=bearer(key)).get_json()
    play_table(client, rnd["tables"][0], MADE_02)  # Ann & Cy 1, Bob & Di 0
    rnd = client.post(f"/api/events/{event_id}/rounds", json={}, headers=bearer(key)).get_json()
    # One table: the winners count as X: Ann, Bob, Di, Cy (Ann partners Di, Bob partners Cy).
    assert rnd["tables"][0]["seats"] == ["Ann", "Bob", "Di", "Cy"]
    play_table(client, rnd["tables"][0], MARCH_13)  # Bob & Cy 2
    doc = client.get(f"/api/events/{event_id}").get_json()
    table = [(s["name"], s["points"], s["wins"]) for s in doc["standings"]]
    assert table == [("Cy", 3, 2), ("Bob", 2, 1), ("Ann", 1, 1), ("Di", 0, 0)]


def test_ladder_refusals(app, client):
    from scorekeeper.events.checks import check_event
    from scorekeeper.refusals import Refusal

    base = {"name": "L", "format": "ladder", "game": "euchre", "players": NAMES}
    for bad, field in (
        ({**base, "shuffle": "yes"}, "shuffle"),
        ({**base, "format": "progressive", "shuffle": True}, "shuffle"),
        ({**base, "game": "tally"}, "game"),
        ({**base, "players": NAMES[:3]}, "players"),
    ):
        try:
            check_event(bad)
        except Refusal as exc:
            assert exc.errors[0].field == field
        else:
            raise AssertionError(bad)
    checked = check_event({**base, "shuffle": True, "options": {"hands_tiebreak": False}})
    assert checked["options"]["hands_tiebreak"] is True and checked["settings"]["shuffle"] is True
    assert checked["options"]["hands"] == 8
