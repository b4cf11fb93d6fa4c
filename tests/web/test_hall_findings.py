"""Issue 39's smaller findings, each shown on the outcome a caller sees: nothing of a club reaches
a stranger, every CSV is safe to open, compressed ETags are usable, sizes are checked first."""

from __future__ import annotations

import re

from scorekeeper.clubs import roster
from scorekeeper.models import Club
from tests.clubs.helpers import as_member, club_game, new_club
from tests.conftest import bearer


def datalist(html: str) -> list[str]:
    found = re.search(r'<datalist id="known-players">(.*?)</datalist>', html, re.S)
    assert found, "no datalist"
    return re.findall(r'<option value="([^"]*)">', found.group(1))


def test_a_club_games_again_page_lists_the_clubs_players_to_its_members_only(app, client):
    club = new_club(client, "Leaky", player="Olga")
    game = club_game(client, club["slug"], club["member_key"], ["Ann", "Bob"])
    club_game(client, club["slug"], club["member_key"], ["Zed", "Yvo"])
    with app.app_context():
        club_id = app.extensions["sqlalchemy"].session.query(Club).filter_by(slug=club["slug"]).one().id
        roster.set_private(club_id, "Quill", True)
    stranger = app.test_client()
    page = stranger.get(f"/g/{game['id']}/again")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert datalist(html) == []
    assert "Zed" not in html and "Yvo" not in html and "Quill" not in html
    member = as_member(app, club["member_key"])
    assert {"Zed", "Yvo"} <= set(datalist(member.get(f"/g/{game['id']}/again").get_data(as_text=True)))


FORMULAS = ["=cmd|' /C calc'!A0", "+1+1", "@SUM(A1)", "-2+3", "Ann", "Bob", "Cid", "Dee"]


def test_an_events_results_csv_neutralises_formulas_as_the_game_csv_does(app, client):
    import csv
    import io

    from scorekeeper.events import service as events

    with app.app_context():
        event, _key = events.create_event(
            {"name": "Formulas", "format": "progressive", "game": "euchre", "players": FORMULAS, "hands": 1}
        )
        event_id = event.id
    text = client.get(f"/e/{event_id}/results.csv").get_data(as_text=True)
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    assert {"'=cmd|' /C calc'!A0", "'+1+1", "'@SUM(A1)", "'-2+3"} <= set(cells)
    assert not any(cell.startswith(("=", "+", "@", "-", "\t", "\r")) for cell in cells)


def test_if_match_takes_a_compressed_answers_etag_whatever_the_accept_encoding(client):
    from tests.web.table_helpers import FLAT, api_game

    gid, key = api_game(client, deals=[FLAT] * 6)
    got = client.get(f"/api/games/{gid}", headers={"Accept-Encoding": "br"})
    assert got.headers.get("Content-Encoding") == "br"
    etag = got.headers["ETag"]
    assert etag.endswith(':br"')
    written = client.post(
        f"/api/games/{gid}/deals",
        json=FLAT,
        headers={**bearer(key), "If-Match": etag, "Accept-Encoding": "gzip"},
    )
    assert written.status_code == 201, written.get_data(as_text=True)
    stale = client.post(f"/api/games/{gid}/deals", json=FLAT, headers={**bearer(key), "If-Match": etag})
    assert stale.status_code == 409
    fresh = client.get(f"/api/games/{gid}", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    assert fresh.endswith(':gzip"')
    assert client.get(f"/api/games/{gid}", headers={"If-None-Match": fresh}).status_code == 304


def test_an_events_size_is_refused_before_any_seating_is_planned(app, client, monkeypatch):
    from scorekeeper.events import seating

    def never(*_args, **_kwargs):
        raise AssertionError("seating planned for an event that is refused")

    club = new_club(client, "Big Hall")
    key = {"Authorization": f"Bearer {club['member_key']}"}
    app.config["EVENT_MAX_PLAYERS"] = 12
    names = [f"P{n}" for n in range(13)]
    body = {"name": "Too big", "format": "progressive", "game": "euchre", "players": names, "hands": 1}
    for name in ("progressive", "mixer", "reseat_progressive", "round_robin"):
        monkeypatch.setattr(seating, name, never)
    refused = client.post(f"/api/clubs/{club['slug']}/events", json=body, headers=key)
    assert refused.status_code == 422
    assert [(e["field"], e["message"]) for e in refused.json["errors"]] == [
        ("players", "An event seats at most 12 players; this one has 13.")
    ]
    monkeypatch.undo()
    made = client.post(f"/api/clubs/{club['slug']}/events", json={**body, "players": names[:12]}, headers=key)
    assert made.status_code == 201, made.json
    event_id, director = made.json["id"], {"Authorization": f"Bearer {made.json['director_key']}"}
    monkeypatch.setattr(seating, "reseat_progressive", never)
    grown = client.post(f"/api/events/{event_id}/players", json={"add": ["Late"]}, headers=director)
    assert (
        grown.status_code == 422
        and grown.json["errors"][0]["message"] == "An event seats at most 12 players; this one has 13."
    )
    # The default is the spec's figure, and a list far past it is refused as quickly.
    app.config["EVENT_MAX_PLAYERS"] = 400
    huge = [f"N{n}" for n in range(5000)]
    refused = client.post(f"/api/clubs/{club['slug']}/events", json={**body, "players": huge}, headers=key)
    assert (
        refused.status_code == 422
        and refused.json["errors"][0]["message"] == "An event seats at most 400 players; this one has 5,000."
    )


def test_import_refuses_a_number_of_thousands_of_digits_with_a_message(client):
    import io
    import json

    from tests.web.table_helpers import FLAT

    for digits in (5000, 4000, 400):
        number = "9" * digits
        text = json.dumps({"game": "secret_agent", "players": ["A", "B", "C", "D"], "deals": [FLAT]})
        text = text.replace('"tricks": [4,', f'"tricks": [{number},')
        answer = client.post(
            "/import",
            data={"record": (io.BytesIO(text.encode()), "game.json")},
            content_type="multipart/form-data",
        )
        assert answer.status_code == 422, (digits, answer.status_code)
        if digits > 4300:
            assert "far too long to be a score" in answer.get_data(as_text=True)


def test_a_new_clubs_slug_never_tells_that_another_club_has_its_name(app, client):
    app.config["CLUB_SLUG_TAIL"] = True  # the default (the suite's config turns it off)
    first = new_club(app.test_client(), "Thursday Euchre")["slug"]
    second = new_club(app.test_client(), "Thursday Euchre")["slug"]
    alone = new_club(app.test_client(), "Friday Whist")["slug"]
    for slug, base in ((first, "thursday-euchre"), (second, "thursday-euchre"), (alone, "friday-whist")):
        assert re.fullmatch(rf"{base}-[a-z2-9]{{5}}", slug), slug
    assert first != second


def test_the_default_settings_give_slugs_a_tail():
    from scorekeeper import settings

    assert settings.defaults("/tmp/x")["CLUB_SLUG_TAIL"] is True


def test_a_tables_scorer_neither_deletes_a_running_events_game_nor_archives_a_locked_one(app, client):
    from scorekeeper.events import service as events
    from scorekeeper.models import Game

    with app.app_context():
        event, key = events.create_event(
            {
                "name": "Night",
                "format": "progressive",
                "game": "euchre",
                "players": list("ABCDEFGH"),
                "hands": 1,
            }
        )
        event_id = event.id
    director = {"Authorization": f"Bearer {key}"}
    table = client.post(f"/api/events/{event_id}/rounds", json={}, headers=director).get_json()["tables"][0]
    gid = table["game"]
    scorer = app.test_client()
    assert scorer.get(f"/g/{gid}?key={table['edit_key']}").status_code == 303
    deleted = scorer.post(f"/g/{gid}/delete", data={})
    assert deleted.status_code == 403
    assert "only the event&#39;s director can delete it" in deleted.get_data(as_text=True)
    closed = client.post(f"/api/events/{event_id}/rounds", json={"close": True}, headers=director)
    assert closed.status_code == 201
    archived = scorer.post(f"/g/{gid}/archive", data={})
    assert archived.status_code == 403
    assert "only the event&#39;s director can archive it" in archived.get_data(as_text=True)
    with app.app_context():
        game = app.extensions["sqlalchemy"].session.get(Game, gid)
        assert game.deleted_at is None and not game.archived
    # The director may archive it (no play changes: no reason asked).
    boss = app.test_client()
    assert boss.get(f"/e/{event_id}/direct?key={key}").status_code == 303
    assert boss.get(f"/e/{event_id}/tables/{gid}/correct").status_code in (302, 303)
    assert boss.post(f"/g/{gid}/archive", data={}).status_code == 303


def test_an_admin_neither_unmakes_nor_removes_nor_signs_out_another_admin(app, client):
    from scorekeeper.models import Member, MemberKey
    from tests.clubs.helpers import bearer, join

    club = new_club(client, "Admins")
    invite = client.post(
        f"/api/clubs/{club['slug']}/invites", json={"role": "admin"}, headers=bearer(club["member_key"])
    )
    ann = join(app.test_client(), club["slug"], invite.json["invite"], "Ann")
    join(app.test_client(), club["slug"], invite.json["invite"], "Bob")
    with app.app_context():
        session = app.extensions["sqlalchemy"].session
        bob = session.query(Member).filter_by(name="Bob").one()
        bob_id, bob_key = bob.id, session.query(MemberKey).filter_by(member_id=bob.id).one().id
    as_ann = as_member(app, ann["member_key"])
    base = f"/c/{club['slug']}/members/{bob_id}"
    assert as_ann.post(f"{base}/role", data={"role": "member"}).status_code == 403
    assert as_ann.post(f"{base}/remove", data={}).status_code == 403
    assert as_ann.post(f"/c/{club['slug']}/devices/{bob_key}/signout", data={}).status_code == 403
    with app.app_context():
        session = app.extensions["sqlalchemy"].session
        assert session.get(Member, bob_id).role == "admin"
        assert session.get(MemberKey, bob_key) is not None
    # The owner may.
    owner = as_member(app, club["member_key"])
    assert owner.post(f"{base}/role", data={"role": "member"}).status_code == 303


def test_a_member_device_does_not_join_its_club_again_under_a_second_name(app, client):
    from scorekeeper.models import Member
    from tests.clubs.helpers import bearer, join

    club = new_club(client, "Twice")
    ann = join(app.test_client(), club["slug"], club["invite"], "Ann")
    phone = as_member(app, ann["member_key"])
    posted = phone.post(f"/c/{club['slug']}/join/{club['invite']}", data={"pick": "", "name": "Annabel"})
    assert posted.status_code == 303
    api = app.test_client().post(
        f"/api/clubs/{club['slug']}/join",
        json={"invite": club["invite"], "name": "Annette"},
        headers=bearer(ann["member_key"]),
    )
    assert api.status_code == 409 and "already" in api.json["errors"][0]["message"]
    with app.app_context():
        names = {m.name for m in app.extensions["sqlalchemy"].session.query(Member).all()}
    assert "Annabel" not in names and "Annette" not in names and "Ann" in names


HOSTILE_NAMES = [
    "Ann\u202eevil",
    "Zero\u200bwidth",
    "Two\nlines",
    "Tab\there",
    "\u2066Iso\u2069",
    "A\u2028B",
    "Bo\u200db",
]


def test_one_name_rule_refuses_bidi_zero_width_and_line_breaks_everywhere(app, client):
    from tests.clubs.helpers import bearer

    club = new_club(client, "Names")
    member = bearer(club["member_key"])
    for hostile in HOSTILE_NAMES:
        game = client.post("/api/games", json={"game": "tally", "players": [hostile, "Bob"]})
        assert game.status_code == 422, hostile
        assert "invisible characters" in game.json["errors"][0]["message"]
        event = {"name": "Night", "format": "progressive", "game": "euchre", "hands": 1}
        players = [hostile, "B", "C", "D"]
        assert (
            client.post(
                f"/api/clubs/{club['slug']}/events", json={**event, "players": players}, headers=member
            ).status_code
            == 422
        )
        named = {**event, "name": f"Night {hostile}", "players": ["A", "B", "C", "D"]}
        assert client.post(f"/api/clubs/{club['slug']}/events", json=named, headers=member).status_code == 422
        assert app.test_client().post("/api/clubs", json={"name": hostile}).status_code == 422
        joined = app.test_client().post(
            f"/api/clubs/{club['slug']}/join", json={"invite": club["invite"], "name": hostile}
        )
        assert joined.status_code == 422 and "invisible characters" in joined.json["errors"][0]["message"]
    for fine in ("Zoë", "José María", "李小龍", "🎲 Dice"):
        assert client.post("/api/games", json={"game": "tally", "players": [fine, "Bob"]}).status_code == 201


def test_every_answer_carrying_a_key_or_its_qr_is_no_store_and_others_are_not(app, client):
    from scorekeeper.events import service as events
    from tests.web.table_helpers import api_game

    with app.app_context():
        event, key = events.create_event(
            {
                "name": "Night",
                "format": "progressive",
                "game": "euchre",
                "players": list("ABCDEFGH"),
                "hands": 1,
            }
        )
        event_id = event.id
    director = app.test_client()
    director.get(f"/e/{event_id}/direct?key={key}")
    started = client.post(
        f"/api/events/{event_id}/rounds", json={}, headers={"Authorization": f"Bearer {key}"}
    )
    assert started.headers["Cache-Control"] == "no-store"  # the tables' edit keys
    printed = director.get(f"/e/{event_id}/print")
    assert printed.status_code == 200 and "<svg" in printed.get_data(as_text=True)
    assert printed.headers["Cache-Control"] == "no-store"
    made = client.post("/api/games", json={"game": "tally", "players": ["A", "B"]})
    assert made.headers["Cache-Control"] == "no-store"
    club = client.post("/api/clubs", json={"name": "Secrets kept"})
    assert club.headers["Cache-Control"] == "no-store"
    owner = as_member(app, club.json["member_key"])
    invite = owner.post(f"/c/{club.json['slug']}/invites", data={"role": "member"})
    assert "/join/" in invite.get_data(as_text=True) and invite.headers["Cache-Control"] == "no-store"
    # What carries none keeps its own caching.
    gid, _key = api_game(client)
    assert "no-store" not in app.test_client().get(f"/api/games/{gid}").headers.get("Cache-Control", "")
    assert "no-store" not in app.test_client().get(f"/g/{gid}").headers.get("Cache-Control", "")


def test_handing_over_removing_and_deleting_ask_to_be_confirmed_on_a_second_page(app, client):
    from scorekeeper.models import Club, Member
    from tests.clubs.helpers import join

    club = new_club(client, "Careful")
    ann = join(app.test_client(), club["slug"], club["invite"], "Ann")
    with app.app_context():
        ann_id = app.extensions["sqlalchemy"].session.query(Member).filter_by(name="Ann").one().id
    owner = as_member(app, club["member_key"])
    base = f"/c/{club['slug']}/members/{ann_id}"
    for path, consequence in (
        (f"{base}/owner", "becomes its owner"),
        (f"{base}/remove", "Their devices stop at once"),
        (f"/c/{club['slug']}/delete", "deleted for good"),
    ):
        first = owner.post(path, data={})
        html = first.get_data(as_text=True)
        assert first.status_code == 200 and consequence in html
        assert 'name="confirmed" value="yes"' in html and f'action="{path}"' in html
    with app.app_context():
        session = app.extensions["sqlalchemy"].session
        assert session.get(Member, ann_id).role == "member"
        assert session.query(Club).filter_by(slug=club["slug"]).one() is not None
    # Ann leaving asks too; the confirmed step acts.
    leave = as_member(app, ann["member_key"]).post(f"{base}/remove", data={})
    assert leave.status_code == 200 and "can come back only with a new invite" in leave.get_data(as_text=True)
    assert owner.post(f"{base}/owner", data={"confirmed": "yes"}).status_code == 303
    with app.app_context():
        assert app.extensions["sqlalchemy"].session.get(Member, ann_id).role == "owner"


def test_the_confirmation_and_refusals_are_in_the_readers_language(app, client):
    from scorekeeper.models import Member
    from tests.clubs.helpers import join

    club = new_club(client, "Języki")
    join(app.test_client(), club["slug"], club["invite"], "Ann")
    with app.app_context():
        ann_id = app.extensions["sqlalchemy"].session.query(Member).filter_by(name="Ann").one().id
    owner = as_member(app, club["member_key"])
    for language, word in (("pl", "Przekazać"), ("pt", "Entregar")):
        page = owner.post(
            f"/c/{club['slug']}/members/{ann_id}/owner", data={}, headers={"Accept-Language": language}
        )
        assert word in page.get_data(as_text=True)
    form = {
        "players_0": "A\u202eB",
        "players_1": "Bob",
        "players_2": "Cid",
        "players_3": "Dee",
        "first_dealer": "0",
    }
    refused = client.post("/new/secret_agent", data=form, headers={"Accept-Language": "pl"})
    assert refused.status_code == 422 and "niewidocznych znaków" in refused.get_data(as_text=True)
