"""The clubs' JSON API, as clubs.md states it: create, join, roles, invites, removal, lists."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from scorekeeper.db import db
from scorekeeper.models import Invite, MemberKey, utcnow

from .helpers import bearer, club_game, join, new_club

END = {"end": True}


def test_a_club_is_made_joined_and_shown_to_its_members(app, client):
    made = new_club(client, "Thursday Euchre", "Olga")
    assert made["slug"] == "thursday-euchre" and made["name"] == "Thursday Euchre"
    assert made["role"] == "owner" and made["member_key"] and made["invite"]
    ann = join(app.test_client(), made["slug"], made["invite"], "Ann")
    assert ann == {"member_key": ann["member_key"], "role": "member", "player": "Ann"}
    club_game(client, made["slug"], made["member_key"], ["Ann", "Bob"], [{"points": [3, 1]}])
    shown = client.get("/api/clubs/thursday-euchre", headers=bearer(ann["member_key"]))
    assert shown.status_code == 200
    assert shown.json["slug"] == "thursday-euchre" and shown.json["role"] == "member"
    assert {"name": "Olga", "role": "owner"} in shown.json["members"]
    assert {"name": "Ann", "role": "member"} in shown.json["members"]
    assert shown.json["players"] == ["Ann", "Bob"]
    # A second club with the same name gets a slug of its own.
    assert new_club(client, "Thursday Euchre")["slug"] == "thursday-euchre-2"


def test_a_stranger_or_a_wrong_key_sees_no_club_at_all(app, client):
    made = new_club(client, "Home games")
    for headers in ({}, bearer("nope-nope-nope"), bearer(new_club(client, "Other")["member_key"])):
        for path in ("/api/clubs/home-games", "/api/clubs/home-games/games", "/api/clubs/home-games/ratings"):
            answer = client.get(path, headers=headers)
            assert answer.status_code == 404, (path, headers)
            assert "Home games" not in answer.get_data(as_text=True)
    # The same answer as a club that does not exist.
    assert client.get("/api/clubs/no-such-club", headers=bearer(made["member_key"])).status_code == 404


def test_a_wrong_revoked_or_expired_invite_answers_404_and_joins_nobody(app, client):
    made = new_club(client, "Spades")
    slug, owner = made["slug"], bearer(made["member_key"])
    assert (
        client.post(f"/api/clubs/{slug}/join", json={"invite": "wrong-token", "name": "Eve"}).status_code
        == 404
    )
    week = client.post(f"/api/clubs/{slug}/invites", json={"role": "member", "expires": 7}, headers=owner)
    assert week.status_code == 201
    assert client.delete(f"/api/clubs/{slug}/invites/{week.json['invite']}", headers=owner).status_code == 204
    refused = client.post(f"/api/clubs/{slug}/join", json={"invite": week.json["invite"], "name": "Eve"})
    assert refused.status_code == 404
    old = client.post(f"/api/clubs/{slug}/invites", json={"expires": 1}, headers=owner).json["invite"]
    with app.app_context():
        db.session.execute(update(Invite).values(expires_at=utcnow() - timedelta(minutes=1)))
        db.session.commit()
    assert client.post(f"/api/clubs/{slug}/join", json={"invite": old, "name": "Eve"}).status_code == 404
    members = client.get(f"/api/clubs/{slug}", headers=owner).json["members"]
    assert [m["name"] for m in members] == ["Olga"]


def test_an_invite_makes_an_admin_and_only_admins_invite_or_remove(app, client):
    made = new_club(client, "Pairs")
    slug, owner = made["slug"], bearer(made["member_key"])
    admin_invite = client.post(f"/api/clubs/{slug}/invites", json={"role": "admin"}, headers=owner).json[
        "invite"
    ]
    ada = join(app.test_client(), slug, admin_invite, "Ada")
    assert ada["role"] == "admin"
    bob = join(app.test_client(), slug, made["invite"], "Bob")
    assert (
        client.post(f"/api/clubs/{slug}/invites", json={}, headers=bearer(bob["member_key"])).status_code
        == 403
    )
    assert (
        client.delete(f"/api/clubs/{slug}/members/Ada", headers=bearer(bob["member_key"])).status_code == 403
    )
    assert client.post(f"/api/clubs/{slug}/invites", json={"role": "owner"}, headers=owner).status_code == 422
    bad = client.post(f"/api/clubs/{slug}/invites", json={"expires": 0}, headers=owner)
    assert bad.status_code == 422 and bad.json["errors"][0]["field"] == "expires"
    # An admin removes a member: that member's key answers 404 from then on.
    assert (
        client.delete(f"/api/clubs/{slug}/members/Bob", headers=bearer(ada["member_key"])).status_code == 204
    )
    assert client.get(f"/api/clubs/{slug}", headers=bearer(bob["member_key"])).status_code == 404
    assert (
        client.delete(f"/api/clubs/{slug}/members/Olga", headers=bearer(ada["member_key"])).status_code == 409
    )
    assert client.delete(f"/api/clubs/{slug}/members/Nobody", headers=owner).status_code == 404


def test_joining_takes_a_free_player_or_a_new_name_never_a_member(app, client):
    made = new_club(client, "Tally night")
    slug = made["slug"]
    club_game(client, slug, made["member_key"], ["Ann", "Bob"])
    join(app.test_client(), slug, made["invite"], "Ann")
    again = client.post(f"/api/clubs/{slug}/join", json={"invite": made["invite"], "name": "ann"})
    assert again.status_code == 409 and again.json["errors"][0]["field"] == "name"
    empty = client.post(f"/api/clubs/{slug}/join", json={"invite": made["invite"], "name": " "})
    assert empty.status_code == 422 and empty.json["errors"][0]["field"] == "name"
    assert join(app.test_client(), slug, made["invite"], "Bob")["player"] == "Bob"


def test_club_games_are_listed_to_members_newest_first_and_personal_games_to_nobody(app, client):
    made = new_club(client, "Lists")
    slug, key = made["slug"], made["member_key"]
    first = club_game(client, slug, key, ["Ann", "Bob"], [{"points": [1, 0]}, END])
    second = club_game(client, slug, key, ["Cid", "Dee"])
    personal = client.post("/api/games", json={"game": "tally", "players": ["Zed", "Yan"]})
    assert personal.status_code == 201
    listed = client.get(f"/api/clubs/{slug}/games", headers=bearer(key)).json["games"]
    assert [g["id"] for g in listed] == [second["id"], first["id"]]
    assert listed[1] == {
        "id": first["id"],
        "game": "tally",
        "players": ["Ann", "Bob"],
        "finished": True,
        "updated": listed[1]["updated"],
    }
    assert personal.json["id"] not in str(listed)
    # A club game needs a member's key; a stranger's try is refused like a missing club.
    stranger = client.post("/api/games", json={"game": "tally", "players": ["A", "B"], "club": slug})
    assert stranger.status_code == 404 and stranger.json["errors"][0]["field"] == "club"


def test_the_global_ratings_are_gone_and_a_clubs_ratings_count_its_games_only(app, client):
    assert client.get("/api/ratings").status_code == 404
    one, two = new_club(client, "One"), new_club(client, "Two")
    club_game(client, "one", one["member_key"], ["Ann", "Bob"], [{"points": [5, 1]}, END])
    club_game(client, "two", two["member_key"], ["Ann", "Cid"], [{"points": [1, 5]}, END])
    rated = client.get("/api/clubs/one/ratings", headers=bearer(one["member_key"])).json
    assert [p["name"] for p in rated["players"]] == ["Ann", "Bob"]
    assert rated["players"][0]["games"] == 1
    assert (
        client.get("/api/clubs/one/ratings?game=chess", headers=bearer(one["member_key"])).status_code == 404
    )


def test_member_keys_are_stored_hashed_and_die_after_400_days_of_disuse(app, client):
    made = new_club(client, "Keys")
    with app.app_context():
        stored = db.session.scalars(select(MemberKey.key_hash)).all()
        assert made["member_key"] not in stored and len(stored[0]) == 64
        assert made["invite"] not in db.session.scalars(select(Invite.token_hash)).all()
        db.session.execute(update(MemberKey).values(used_at=utcnow() - timedelta(days=401)))
        db.session.commit()
    assert client.get("/api/clubs/keys", headers=bearer(made["member_key"])).status_code == 404


def test_bad_bodies_never_give_a_500(client):
    made = new_club(client, "Fuzz")
    owner = bearer(made["member_key"])
    for body in (None, [], "x", 3, {"name": 3}, {"name": "x" * 81}, {"name": "\x00"}, {"name": ""}):
        answer = client.post("/api/clubs", json=body)
        assert answer.status_code in (400, 422), (body, answer.status_code)
    for body in ({"invite": 3}, {"invite": None}, {}, {"invite": made["invite"], "name": ["Ann"]}):
        assert client.post("/api/clubs/fuzz/join", json=body).status_code in (404, 422)
    for body in ({"expires": "7"}, {"expires": True}, {"role": None}, {"expires": 10**12}):
        assert client.post("/api/clubs/fuzz/invites", json=body, headers=owner).status_code == 422
    assert client.delete("/api/clubs/fuzz/invites/" + "x" * 300, headers=owner).status_code == 404
    assert client.get("/api/clubs/" + "a" * 500, headers=owner).status_code == 404
