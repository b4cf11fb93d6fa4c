"""The events API's Idempotency-Key is scoped to its caller and its event, and its If-Match takes
the ETag as answered, compressed or not (issue 57: N4, P8)."""

from functools import partial

from tests.clubs.helpers import new_club
from tests.conftest import bearer, make_event

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


# A progressive Euchre night of eight, one hand a game.
make = partial(make_event, name="N", format="progressive", game="euchre", players=PLAYERS, hands=1)


def status_of_rounds(client, event_id, key):
    doc = client.get(f"/api/events/{event_id}", headers=bearer(key)).get_json()
    return [r["status"] for r in doc["rounds"]]


def test_one_idempotency_key_in_two_events_starts_a_round_in_each(app, client):
    one, one_key = make(app)
    two, two_key = make(app, rounds=3)
    same = {"Idempotency-Key": "round-start-0001"}
    first = client.post(f"/api/events/{one}/rounds", json={}, headers=bearer(one_key, **same))
    assert first.status_code == 201
    # Another event's director, the same key: that event's own round starts.
    other = client.post(f"/api/events/{two}/rounds", json={}, headers=bearer(two_key, **same))
    assert other.status_code == 201, other.get_json()
    assert other.get_json()["status"] == "playing" and other.get_json()["tables"][0]["game"]
    assert status_of_rounds(client, two, two_key)[0] == "playing"
    # The repeat of the first call answers its round again and starts nothing.
    again = client.post(f"/api/events/{one}/rounds", json={}, headers=bearer(one_key, **same))
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert status_of_rounds(client, one, one_key).count("playing") == 1
    assert (
        status_of_rounds(client, one, one_key).count("planned")
        == len(status_of_rounds(client, one, one_key)) - 1
    )


def test_the_same_key_from_another_director_of_the_event_is_a_call_of_its_own(app, client):
    """A club's owner directs its events with their member key: the event's creator's key under
    the same Idempotency-Key is not their call, and a second round is refused as any is (409)."""
    club = new_club(client, "Scoped")
    made = client.post(
        f"/api/clubs/{club['slug']}/events",
        json={"name": "E", "format": "progressive", "game": "euchre", "players": PLAYERS, "hands": 1},
        headers=bearer(club["member_key"]),
    )
    assert made.status_code == 201
    event_id, director_key = made.get_json()["id"], made.get_json()["director_key"]
    same = {"Idempotency-Key": "round-start-0002"}
    assert (
        client.post(
            f"/api/events/{event_id}/rounds", json={}, headers=bearer(director_key, **same)
        ).status_code
        == 201
    )
    owner = client.post(f"/api/events/{event_id}/rounds", json={}, headers=bearer(club["member_key"], **same))
    assert owner.status_code == 409 and owner.get_json()["errors"][0]["field"] == "close"


def test_if_match_takes_the_events_etag_compressed(app, client):
    event_id, key = make(app)
    got = client.get(f"/api/events/{event_id}", headers=bearer(key, **{"Accept-Encoding": "gzip"}))
    etag = got.headers["ETag"]
    assert got.headers.get("Content-Encoding") == "gzip" and etag.endswith(':gzip"')
    started = client.post(
        f"/api/events/{event_id}/rounds", json={}, headers=bearer(key, **{"If-Match": etag})
    )
    assert started.status_code == 201, started.get_json()
    # The same tag again is stale now: 409, not 400, and nothing more started.
    stale = client.post(
        f"/api/events/{event_id}/rounds", json={"close": True}, headers=bearer(key, **{"If-Match": etag})
    )
    assert stale.status_code == 409
    version = client.get(f"/api/events/{event_id}", headers=bearer(key)).headers["ETag"].strip('"')
    changed = client.post(
        f"/api/events/{event_id}/players",
        json={"add": ["Ivy"]},
        headers=bearer(key, **{"If-Match": f'"{version}:br"'}),
    )
    assert changed.status_code == 200, changed.get_json()
    # What is no version of this API is still refused, with the reason, and never a 500.
    for bad in ('"banana"', '"²"', '"1:rot13"', f'W/"{version}"'):
        refused = client.post(
            f"/api/events/{event_id}/players", json={"add": ["Jo"]}, headers=bearer(key, **{"If-Match": bad})
        )
        assert refused.status_code == 400 and refused.get_json()["errors"][0]["field"] == "If-Match"


def test_a_games_if_match_reads_the_same_tags(app, client):
    """One reader of If-Match for games and events: the encoded tag is its version, a weak tag
    is refused as before, and a digit int() refuses is a 400, never a 500."""
    made = client.post(
        "/api/games", json={"game": "euchre", "players": ["Ann", "Bob", "Cy", "Di"]}
    ).get_json()
    deal = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
    url = f"/api/games/{made['id']}/deals"
    key = made["edit_key"]
    assert client.post(url, json=deal, headers=bearer(key, **{"If-Match": '"1:gzip"'})).status_code == 201
    assert client.post(url, json=deal, headers=bearer(key, **{"If-Match": '"1"'})).status_code == 409
    assert client.post(url, json=deal, headers=bearer(key, **{"If-Match": 'W/"2"'})).status_code == 400
    assert client.post(url, json=deal, headers=bearer(key, **{"If-Match": '"²"'})).status_code == 400
