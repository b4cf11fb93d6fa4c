"""Everyone knows where to sit (events.md, Screens): each player's page says where to go in large
type and follows the event live (a 304 while nothing changed, the next round by itself); a member
who plays sees the same block at the top of /e/<id>, nobody else does."""

from __future__ import annotations

import re

from scorekeeper.db import db
from scorekeeper.events import service as events
from scorekeeper.models import Event
from tests.clubs.helpers import as_member, bearer, join, new_club

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Mel"]
NIGHT = {
    "name": "Euchre night",
    "format": "progressive",
    "game": "euchre",
    "players": PLAYERS,
    "hands": 1,
    "rounds": 3,
}
HX = {"HX-Request": "true"}


def player_link(app, event_id: str, name: str) -> str:
    with app.app_context():
        event = db.session.get(Event, event_id)
        entrant = event.entrants.index(name)
        return f"/e/{event_id}/p/{entrant}/{events.player_token(event, entrant)}"


def round_table(app, event_id: str, number: int, name: str) -> dict:
    with app.app_context():
        doc = events.document(db.session.get(Event, event_id))
    return next(t for t in doc["rounds"][number - 1]["tables"] if name in t["seats"])


def go_line(html: str) -> str:
    found = re.search(r'<h2 id="ev-me-go" class="ev-go">([^<]*)</h2>', html)
    assert found, "no where-to-go heading"
    return found.group(1)


def test_a_players_page_says_where_to_go_and_follows_the_next_round(app, client):
    with app.app_context():
        event, key = events.create_event({**NIGHT, "minutes": 30})
        event_id = event.id
    link = player_link(app, event_id, "Ann")
    phone = app.test_client()
    page = phone.get(link)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    html = page.get_data(as_text=True)
    first = round_table(app, event_id, 1, "Ann")
    seat = first["seats"].index("Ann") + 1
    assert go_line(html) == f"Round 1: table {first['table']}, seat {seat}"
    # Who partners whom, Ann's side first: the seats turned to start at hers.
    s = first["seats"][seat - 1 :] + first["seats"][: seat - 1]
    assert f'<p class="ev-go-who">Ann &amp; {s[2]} v {s[1]} &amp; {s[3]}</p>' in html
    assert "Next: round 1, when the director starts it" in html
    assert f'hx-get="{link}"' in html and 'hx-trigger="poll"' in html and 'http-equiv="refresh"' in html

    # The region's poll: its own answer, then a 304 while nothing changed, paced by X-Poll-After.
    region = phone.get(link, headers=HX)
    assert region.status_code == 200 and "<html" not in region.get_data(as_text=True)
    assert "X-Poll-After" in region.headers and region.headers["Cache-Control"] == "no-store"
    tag = region.headers["ETag"]
    again = phone.get(link, headers={**HX, "If-None-Match": tag})
    assert again.status_code == 304 and "X-Poll-After" in again.headers

    # The director starts round 1: the next poll draws it, without the "next" line.
    client.get(f"/e/{event_id}/direct?key={key}")
    assert client.post(f"/e/{event_id}/rounds", data={}).status_code == 303
    moved = phone.get(link, headers={**HX, "If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    html = moved.get_data(as_text=True)
    assert go_line(html) == f"Round 1: table {first['table']}, seat {seat}" and "Next: round" not in html
    assert 'class="ev-me ev-me-now"' in html
    assert 'id="ev-clock"' in html and "data-ends-at" in html  # the round clock, in the region

    # A wrong token's poll is a 404 like its page.
    other = player_link(app, event_id, "Bob")
    assert phone.get(other.rsplit("/", 1)[0] + "/" + link.rsplit("/", 1)[1], headers=HX).status_code == 404


def test_a_member_who_plays_sees_where_to_sit_at_the_top_of_the_event(app, client):
    made = new_club(client, "The Lodge", "Olga")
    slug = made["club"]["slug"] if isinstance(made.get("club"), dict) else made.get("slug", "the-lodge")
    mel = join(app.test_client(), slug, made["invite"], "mel")  # the name as the member typed it
    made_event = client.post(f"/api/clubs/{slug}/events", json=NIGHT, headers=bearer(made["member_key"]))
    assert made_event.status_code == 201, made_event.json
    event_id = made_event.json["id"]
    first = round_table(app, event_id, 1, "Mel")

    member = as_member(app, mel["member_key"])
    page = member.get(f"/e/{event_id}")
    html = page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "no-store"
    assert go_line(html) == f"Round 1: table {first['table']}, seat {first['seats'].index('Mel') + 1}"
    assert html.index('id="ev-me"') < html.index('id="round"')  # at the top
    assert f'hx-get="/e/{event_id}/me"' in html
    region = member.get(f"/e/{event_id}/me", headers=HX)
    assert region.status_code == 200 and 'id="ev-me"' in region.get_data(as_text=True)
    assert 'id="ev-clock"' not in region.get_data(as_text=True)  # /e/<id> shows its own clock
    assert (
        member.get(f"/e/{event_id}/me", headers={**HX, "If-None-Match": region.headers["ETag"]}).status_code
        == 304
    )

    # The owner (Olga, who does not play) and a stranger see no such block, and no /me.
    owner = as_member(app, made["member_key"])
    assert 'id="ev-me"' not in owner.get(f"/e/{event_id}").get_data(as_text=True)
    assert owner.get(f"/e/{event_id}/me", headers=HX).status_code == 404
    stranger = app.test_client()
    assert 'id="ev-me"' not in stranger.get(f"/e/{event_id}").get_data(as_text=True)
    assert stranger.get(f"/e/{event_id}/me", headers=HX).status_code == 404


def test_the_clock_script_loads_only_on_the_pages_that_show_a_round_clock(app, client, new_game):
    """static/clock.js is no part of every page's cold load: the director's page, a player's page
    and a table's phone load it (in the body, so a boosted visit runs it too); a game page not."""
    script = '<script src="/static/clock.js'
    with app.app_context():
        event, key = events.create_event({**NIGHT, "minutes": 30})
        event_id = event.id
    assert script not in client.get("/").get_data(as_text=True)
    plain = client.get(new_game()).get_data(as_text=True)
    assert "<h1" in plain and script not in plain
    client.get(f"/e/{event_id}/direct?key={key}")
    client.post(f"/e/{event_id}/rounds", data={})
    director = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert "data-ends-at" in director and script in director
    assert director.index(script) > director.index("</main>")  # in the body, after the page
    assert script in app.test_client().get(player_link(app, event_id, "Ann")).get_data(as_text=True)
    with app.app_context():
        link = events.document(db.session.get(Event, event_id), director=True)["table_links"][0]["link"]
    table = app.test_client().get(link.replace("http://localhost", ""))
    assert table.status_code == 200 and "data-ends-at" in table.get_data(as_text=True)
    assert script in table.get_data(as_text=True)
