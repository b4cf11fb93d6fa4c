"""The clubs under the abuse limits, the operator's command line, and fuzzed club routes."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web import test_limits
from tests.web.test_limits import ELSEWHERE, phone, retry_after

from .helpers import as_member, bearer, club_game, join, new_club

# Apps with limits of the test's own (the suite's config sets them out of the way).
make_app = test_limits.make_app


def test_guessing_invites_or_member_keys_is_429_and_a_right_invite_still_joins_from_elsewhere(make_app):
    app = make_app(LIMIT_FAILED_CREDENTIALS="10 per minute")
    made = new_club(phone(app, ELSEWHERE), "Guarded")
    guesser = phone(app)
    for n in range(10):
        assert (
            guesser.post("/api/clubs/guarded/join", json={"invite": f"guess-{n}", "name": "X"}).status_code
            == 404
        )
    refused = guesser.post("/api/clubs/guarded/join", json={"invite": made["invite"], "name": "Eve"})
    assert refused.status_code == 429 and retry_after(refused) <= 60
    assert refused.json["errors"][0]["field"] is None
    assert guesser.get("/api/clubs/guarded", headers=bearer(made["member_key"])).status_code == 429
    assert guesser.get(f"/c/guarded/join/{made['invite']}").status_code == 429
    # Elsewhere, the right invite and the right key are never slowed.
    assert join(phone(app, ELSEWHERE), "guarded", made["invite"], "Eve")["player"] == "Eve"
    assert (
        phone(app, ELSEWHERE).get("/api/clubs/guarded", headers=bearer(made["member_key"])).status_code == 200
    )


def test_a_members_key_for_another_club_is_no_wrong_guess(make_app):
    app = make_app(LIMIT_FAILED_CREDENTIALS="3 per minute")
    mine = new_club(phone(app), "Mine")
    new_club(phone(app, ELSEWHERE), "Theirs")
    hall = phone(app)
    for _ in range(6):
        assert hall.get("/api/clubs/theirs", headers=bearer(mine["member_key"])).status_code == 404
    assert hall.get("/api/clubs/mine", headers=bearer(mine["member_key"])).status_code == 200


def test_clubs_and_joins_are_limited_per_address(make_app):
    app = make_app(LIMIT_CREATE_CLUBS="2 per day", LIMIT_JOINS="2 per hour")
    hall = phone(app)
    made = new_club(hall, "One")
    new_club(hall, "Two")
    third = hall.post("/api/clubs", json={"name": "Three"})
    assert third.status_code == 429 and retry_after(third) > 3600
    assert phone(app, ELSEWHERE).post("/api/clubs", json={"name": "Three"}).status_code == 201
    for name in ("Ann", "Bob"):
        join(hall, "one", made["invite"], name)
    assert hall.post("/api/clubs/one/join", json={"invite": made["invite"], "name": "Cid"}).status_code == 429
    # A refused join (a name already a member) made nothing and counts nothing.
    other = phone(app, "192.0.2.44")
    assert (
        other.post("/api/clubs/one/join", json={"invite": made["invite"], "name": "Ann"}).status_code == 409
    )
    join(other, "one", made["invite"], "Cid")
    join(other, "one", made["invite"], "Dee")


def test_club_creation_by_the_operator_only(make_app):
    app = make_app(CLUB_CREATION="admin", ADMIN_KEY="operator-secret-key")
    client = app.test_client()
    assert client.post("/api/clubs", json={"name": "Nope"}).status_code == 403
    assert client.post("/api/clubs", json={"name": "Nope"}, headers=bearer("wrong")).status_code == 404
    made = client.post("/api/clubs", json={"name": "Yes"}, headers=bearer("operator-secret-key"))
    assert made.status_code == 201 and made.json["role"] == "owner"
    page = client.post("/clubs/new", data={"name": "Page", "player": "Olga"})
    assert page.status_code == 403 and "operator" in page.get_data(as_text=True)
    ok = client.post(
        "/clubs/new", data={"name": "Page", "player": "Olga", "admin_key": "operator-secret-key"}
    )
    assert ok.status_code == 303


def test_the_operators_commands(app, client, tmp_path):
    runner = app.test_cli_runner()
    made = runner.invoke(args=["clubs", "create", "Friday Whist", "--url", "https://scores.example.org"])
    assert made.exit_code == 0, made.output
    link = next(line for line in made.output.splitlines() if line.startswith("https://"))
    assert link.startswith("https://scores.example.org/c/friday-whist/join/")
    assert "█" in made.output or "▀" in made.output  # the QR code, in the terminal
    token = link.rsplit("/", 1)[1]
    admin = join(client, "friday-whist", token, "Ada")
    assert admin["role"] == "admin"
    invite = runner.invoke(args=["clubs", "invite", "friday-whist"])
    assert invite.exit_code == 0 and "/c/friday-whist/join/" in invite.output
    member = join(app.test_client(), "friday-whist", invite.output.split("/join/")[1].split()[0], "Mel")
    assert member["role"] == "member"
    club_game(client, "friday-whist", admin["member_key"], ["Ada", "Mel"], [{"points": [1, 2]}])
    listed = runner.invoke(args=["clubs", "list"])
    assert "friday-whist\tFriday Whist\t2 members\t1 games" in listed.output
    out = tmp_path / "club.json"
    exported = runner.invoke(args=["export", "--club", "friday-whist", "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    backup = json.loads(out.read_text("utf-8"))
    assert backup["scope"] == {"club": "friday-whist"} and len(backup["tables"]["game"]) == 1
    assert [c["name"] for c in backup["tables"]["club"]] == ["Friday Whist"]
    assert runner.invoke(args=["export", "--club", "nope"]).exit_code != 0
    assert runner.invoke(args=["clubs", "invite", "nope"]).exit_code != 0
    gone = runner.invoke(args=["clubs", "delete", "friday-whist", "--yes"])
    assert gone.exit_code == 0 and "1 games" in gone.output
    assert client.get("/api/clubs/friday-whist", headers=bearer(admin["member_key"])).status_code == 404
    # The backup puts it back as it was: its members, their keys and its game.
    restored = runner.invoke(args=["import", str(out)])
    assert restored.exit_code == 0 and "Restored 1 club, " in restored.output and "1 game," in restored.output
    shown = client.get("/api/clubs/friday-whist", headers=bearer(admin["member_key"]))
    assert shown.status_code == 200


text = st.text(st.characters(codec="utf-8"), max_size=60)
value = st.one_of(st.none(), st.booleans(), st.integers(-(10**12), 10**12), text, st.lists(text, max_size=3))
CLUB_POSTS = [
    "/c/fuzz/invites",
    "/c/fuzz/invites/1/revoke",
    "/c/fuzz/members/1/remove",
    "/c/fuzz/members/2/role",
    "/c/fuzz/devices/1/signout",
    "/c/fuzz/players/rename",
    "/c/fuzz/players/private",
    "/c/fuzz/players/undo",
    "/c/fuzz/delete",
    "/clubs/new",
]
API_CALLS = [
    ("POST", "/api/clubs"),
    ("POST", "/api/clubs/fuzz/join"),
    ("POST", "/api/clubs/fuzz/invites"),
    ("DELETE", "/api/clubs/fuzz/invites/x"),
    ("DELETE", "/api/clubs/fuzz/members/Ann"),
    ("POST", "/api/games"),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    page=st.sampled_from(CLUB_POSTS),
    form=st.dictionaries(
        st.sampled_from(
            ["name", "player", "role", "expires", "old", "new", "private", "group", "confirm", "pick"]
        ),
        text,
        max_size=5,
    ),
    call=st.sampled_from(API_CALLS),
    body=st.dictionaries(
        st.sampled_from(["name", "player", "invite", "role", "expires", "club", "game", "players"]),
        value,
        max_size=5,
    ),
    query=text,
)
def test_no_input_to_a_club_route_gives_a_500(app, client, page, form, call, body, query):
    if FUZZ.get("app") is not app:
        FUZZ.clear()
        FUZZ["app"] = app
        made = new_club(client, "Fuzz")
        club_game(client, "fuzz", made["member_key"], ["Ann", "Bob"], [{"points": [1, 2]}])
        FUZZ.update(owner=made["member_key"], invite=made["invite"])
    owner = as_member(app, FUZZ["owner"])
    assert owner.post(page, data=form).status_code < 500, (page, form)
    method, path = call
    answer = app.test_client().open(path, method=method, json=body, headers=bearer(FUZZ["owner"]))
    assert answer.status_code < 500, (call, body)
    for url in ("/c/fuzz/player", "/c/fuzz/games", "/c/fuzz/ratings", f"/c/fuzz/join/{FUZZ['invite']}"):
        assert owner.get(url, query_string={"name": query, "player": query, "game": query}).status_code < 500


FUZZ: dict = {}
