"""Wording (issue 42): a pair wins in the plural, a count of points in the language's plural forms,
a join page that offers no choice when there is none, and the invite made with a new club shown to
its creator."""

from __future__ import annotations

import re

from scorekeeper.events import rounds
from scorekeeper.events import service as events
from tests.clubs.helpers import club_game, new_club

MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}


def status(html: str) -> str:
    found = re.search(r'<p id="status"[^>]*>(.*?)</p>', html, re.S) or re.search(
        r"<h2[^>]*>(.*?)</h2>", html, re.S
    )
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip()


def test_a_pair_wins_in_the_plural_a_player_in_the_singular(client):
    game = client.post(
        "/api/games",
        json={
            "game": "euchre",
            "players": ["Kim", "Jo", "Eve", "Al"],
            "options": {"hands": 1},
            "deals": [MADE_02],
        },
    ).json
    page = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert "Kim &amp; Eve win." in page and "Kim &amp; Eve wins." not in page
    client.set_cookie("lang", "pl")
    polish = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert "Kim i Eve wygrywają." in polish
    tally = client.post(
        "/api/games",
        json={
            "game": "tally",
            "players": ["Ann", "Bob"],
            "options": {"target": 5},
            "deals": [{"points": [5, 1]}],
        },
    ).json
    client.set_cookie("lang", "en")
    assert "Ann wins." in client.get(f"/g/{tally['id']}").get_data(as_text=True)


def test_a_players_points_in_the_plural_forms_of_the_catalog(app, client):
    with app.app_context():
        event, _key = events.create_event(
            {
                "name": "N",
                "format": "progressive",
                "game": "euchre",
                "players": ["A", "B", "C", "D"],
                "hands": 1,
                "rounds": 1,
            }
        )
        rnd = rounds.start_round(event)
        table_game, seats = rnd.tables[0].game_id, list(rnd.tables[0].seats)
        event_id = event.id
        links = {e: f"/e/{event_id}/p/{e}/{events.player_token(event, e)}" for e in range(4)}
        key = events.table_key(table_game)
    assert (
        client.post(
            f"/api/games/{table_game}/deals", json=MADE_02, headers={"Authorization": f"Bearer {key}"}
        ).status_code
        == 201
    )
    winner, loser = seats[0], seats[1]  # seats 0+2 made the hand: 1 point each
    assert "Place 1 · 1 point<" in client.get(links[winner]).get_data(as_text=True)
    assert "Place 3 · 0 points<" in client.get(links[loser]).get_data(as_text=True)
    client.set_cookie("lang", "pl")
    assert "Miejsce 1 · 1 punkt<" in client.get(links[winner]).get_data(as_text=True)
    assert "Miejsce 3 · 0 punktów<" in client.get(links[loser]).get_data(as_text=True)


def test_the_join_page_offers_a_choice_only_when_there_is_one(app, client):
    made = new_club(client, "Empty")
    link = f"/c/empty/join/{made['invite']}"
    page = app.test_client().get(link).get_data(as_text=True)
    assert "Or a new name" not in page and "Someone new" not in page and 'type="radio"' not in page
    assert "Your name" in page
    joined = app.test_client().post(link, data={"name": "Zoe"})
    assert joined.status_code == 303
    # Once the club has a free player, the choice is offered, and the name is the other way.
    club_game(client, "empty", made["member_key"], ["Ann", "Bob"])
    page = app.test_client().get(link).get_data(as_text=True)
    assert 'value="Ann"' in page and "Someone new" in page and "Or a new name" in page


def test_the_invite_made_with_a_new_club_is_shown_to_its_creator_once(app, client):
    made = client.post("/clubs/new", data={"name": "Friday Spades", "player": "Olga"})
    assert made.status_code == 303
    first = client.get("/c/friday-spades")
    html = first.get_data(as_text=True)
    link = re.search(r"<code>(http://localhost/c/friday-spades/join/[^<]+)</code>", html).group(1)
    assert 'class="qr' in html and first.headers["Cache-Control"] == "no-store"
    assert "/join/" not in client.get("/c/friday-spades").get_data(as_text=True)  # shown only once
    newcomer = app.test_client()
    assert newcomer.get(link.replace("http://localhost", "")).status_code == 200
    assert newcomer.post(link.replace("http://localhost", ""), data={"name": "Pat"}).status_code == 303
