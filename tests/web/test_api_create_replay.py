"""POST /api/games with an Idempotency-Key: a repeat answers the game's edit key only to the one
who made it, the same credential or (without one) the same address (issue 57, N3)."""

from tests.clubs.helpers import bearer, join, new_club

RECORD = {"game": "euchre", "players": ["Ann", "Bob", "Cy", "Di"]}
MAKER = "203.0.113.7"
STRANGER = "198.51.100.9"


def at(app, address):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_a_replay_from_another_address_without_a_credential_gets_the_game_without_its_key(app):
    same = {"Idempotency-Key": "create-once-0001"}
    made = at(app, MAKER).post("/api/games", json=RECORD, headers=same)
    assert made.status_code == 201 and made.get_json()["edit_key"]
    game_id, key = made.get_json()["id"], made.get_json()["edit_key"]
    # The maker's own retry: the same game and key.
    again = at(app, MAKER).post("/api/games", json=RECORD, headers=same)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["id"] == game_id and again.get_json()["edit_key"] == key
    # Anyone else replaying the key and body: the game, never its key, and no second game.
    replayed = at(app, STRANGER).post("/api/games", json=RECORD, headers=same)
    assert replayed.status_code == 201 and replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.get_json()["id"] == game_id and "edit_key" not in replayed.get_json()
    assert key not in replayed.get_data(as_text=True)
    with_a_bearer = at(app, MAKER).post(
        "/api/games", json=RECORD, headers={**same, **bearer("some-other-key")}
    )
    assert with_a_bearer.status_code == 201 and "edit_key" not in with_a_bearer.get_json()
    # Another record under the key: 409, nothing made.
    other = at(app, STRANGER).post(
        "/api/games", json={**RECORD, "players": ["W", "X", "Y", "Z"]}, headers=same
    )
    assert other.status_code == 409 and other.get_json()["errors"][0]["field"] == "Idempotency-Key"
    # The key still scores the game; the stranger's answer scores nothing.
    deal = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
    assert at(app, STRANGER).post(f"/api/games/{game_id}/deals", json=deal).status_code == 403
    assert (
        at(app, MAKER).post(f"/api/games/{game_id}/deals", json=deal, headers=bearer(key)).status_code == 201
    )


def test_a_club_games_replay_answers_its_key_to_the_member_who_made_it_only(app, client):
    club = new_club(client, "Replays")
    other = join(client, club["slug"], club["invite"], "Bea")
    body = {**RECORD, "club": club["slug"]}
    same = {"Idempotency-Key": "create-once-0002"}
    made = at(app, MAKER).post("/api/games", json=body, headers={**same, **bearer(club["member_key"])})
    assert made.status_code == 201
    # The owner's retry from another address (a phone moving to mobile data): its key, by the credential.
    moved = at(app, STRANGER).post("/api/games", json=body, headers={**same, **bearer(club["member_key"])})
    assert moved.status_code == 201 and moved.get_json()["edit_key"] == made.get_json()["edit_key"]
    # Another member of the club at the maker's address: the game, not its key.
    bea = at(app, MAKER).post("/api/games", json=body, headers={**same, **bearer(other["member_key"])})
    assert bea.status_code == 201 and bea.get_json()["id"] == made.get_json()["id"]
    assert "edit_key" not in bea.get_json()
