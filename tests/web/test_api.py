"""The JSON API of shared/spec/game-record.md, call by call."""

import pytest

from tests.conftest import bearer

RECORD = {
    "format": "scorekeeper-game/1",
    "game": "secret_agent",
    "options": {"deals": 4},
    "players": ["Ann", "Bob", "Cid", "Dee"],
    "first_dealer": 0,
    "deals": [{"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"], "trump": "NT"}],
}
FLAT = {"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]}
SWEEP = {"tricks": [13, 0, 0, 0], "agents": ["S", "L", "O", "R"]}  # 169, 100, 130, 100


@pytest.fixture
def created(client):
    response = client.post("/api/games", json=RECORD)
    assert response.status_code == 201
    return response.json


def test_create_returns_the_record_with_derived_fields_and_key(created):
    assert created["edit_key"] and created["id"]
    for key in ("format", "game", "options", "players", "first_dealer", "deals"):
        assert created[key] == RECORD[key]
    assert created["scores"] == [[12, 9, 9, 9]]
    assert created["explanations"][0][0] == "4 x 3 (agent Bob, Left) = 12"
    assert created["totals"] == [12, 9, 9, 9]
    assert created["next_dealer"] == 1
    assert (created["finished"], created["winners"], created["tiebreak"]) == (False, [], False)


def test_export_is_the_same_record_without_the_key(client, created):
    exported = client.get(f"/api/games/{created['id']}").json
    assert exported == {k: v for k, v in created.items() if k != "edit_key"}


def test_options_left_out_take_their_defaults(client):
    record = client.post("/api/games", json={"game": "secret_agent", "players": ["A", "B", "C", "D"]}).json
    assert record["options"] == {"deals": 4} and record["first_dealer"] == 0 and record["deals"] == []


def test_import_of_a_whole_game_recomputes_the_winner(client):
    record = {**RECORD, "deals": [SWEEP, FLAT, FLAT, FLAT]}
    result = client.post("/api/games", json=record).json
    assert result["totals"] == [169 + 36, 100 + 27, 130 + 27, 100 + 27]
    assert result["finished"] and result["winners"] == [0] and result["next_dealer"] is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": "bridge"}, "game"),
        ({"format": "other/2"}, "format"),
        ({"options": {"rounds": 3}}, "options"),
        ({"options": {"deals": "four"}}, "deals"),
        ({"players": ["Ann", "Bob", "Cid"]}, "players"),
        ({"players": ["Ann", "Bob", "Cid", " ann "]}, "players"),
        ({"players": ["Ann", "Bob", "Cid", ""]}, "players"),
        ({"players": ["Ann", "Bob", "Cid", "x" * 41]}, "players"),
        ({"first_dealer": 4}, "first_dealer"),
        ({"deals": [{"tricks": [4, 3, 3, 4], "agents": ["L", "O", "R", "S"]}]}, "tricks"),
        ({"deals": "none"}, "deals"),
    ],
)
def test_invalid_records_are_422_with_field_errors_and_create_nothing(client, change, field):
    response = client.post("/api/games", json={**RECORD, **change})
    assert response.status_code == 422
    errors = response.json["errors"]
    assert errors[0]["field"] == field and errors[0]["message"]
    # A deal is named only where one is meant (the record's "tricks" is its deal 0's).
    assert set(errors[0]) == ({"deal", "field", "message"} if field == "tricks" else {"field", "message"})
    assert client.get("/").get_data(as_text=True).count("/g/") == 0


def test_a_bad_deal_in_an_import_names_its_index(client):
    response = client.post("/api/games", json={**RECORD, "deals": [FLAT, {"tricks": [13, 0, 0, 0]}]})
    assert response.status_code == 422
    assert response.json["errors"] == [{"deal": 1, "field": "agents", "message": "This is required."}]


def test_append_replace_delete_with_the_key(client, created):
    gid, key = created["id"], created["edit_key"]
    appended = client.post(f"/api/games/{gid}/deals", json=SWEEP, headers=bearer(key))
    assert appended.status_code == 201 and appended.json["scores"][1] == [169, 100, 130, 100]
    replaced = client.put(f"/api/games/{gid}/deals/0", json=SWEEP, headers=bearer(key))
    assert replaced.status_code == 200 and replaced.json["totals"] == [338, 200, 260, 200]
    deleted = client.delete(f"/api/games/{gid}/deals/0", headers=bearer(key))
    assert deleted.status_code == 200 and deleted.json["totals"] == [169, 100, 130, 100]
    assert len(client.get(f"/api/games/{gid}").json["deals"]) == 1


@pytest.mark.parametrize("headers", [{}, bearer("wrong"), {"Authorization": "Basic abc"}])
def test_writes_without_the_key_are_403_and_change_nothing(client, created, headers):
    gid = created["id"]
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=headers).status_code == 403
    assert client.put(f"/api/games/{gid}/deals/0", json=SWEEP, headers=headers).status_code == 403
    assert client.delete(f"/api/games/{gid}/deals/0", headers=headers).status_code == 403
    assert client.get(f"/api/games/{gid}").json["deals"] == RECORD["deals"]


def test_bad_deal_is_422_and_changes_nothing(client, created):
    gid, key = created["id"], created["edit_key"]
    response = client.post(
        f"/api/games/{gid}/deals",
        json={"tricks": [4, 3, 3, 3], "agents": ["L", "L", "R", "S"]},
        headers=bearer(key),
    )
    assert response.status_code == 422
    assert response.json["errors"] == [
        {
            "deal": 1,
            "field": "agents",
            "message": "Left is given to both Ann and Bob: each card is dealt once.",
        }
    ]
    bad_put = client.put(f"/api/games/{gid}/deals/0", json={"tricks": [1], "agents": []}, headers=bearer(key))
    assert bad_put.status_code == 422 and bad_put.json["errors"][0]["deal"] == 0
    assert client.post(f"/api/games/{gid}/deals", json=[1, 2], headers=bearer(key)).status_code == 400
    assert client.get(f"/api/games/{gid}").json["deals"] == RECORD["deals"]


def test_missing_things_and_non_json(client, created):
    gid, key = created["id"], created["edit_key"]
    assert client.get("/api/games/nope").status_code == 404
    assert client.put(f"/api/games/{gid}/deals/5", json=FLAT, headers=bearer(key)).status_code == 404
    assert client.delete(f"/api/games/{gid}/deals/1", headers=bearer(key)).status_code == 404
    response = client.post("/api/games", data="not json", content_type="application/json")
    assert response.status_code == 400 and response.json["errors"][0]["message"]
