"""An event's print sheets (events.md, Screens, Print): house rules in words and in the reader's
language (the same helper as a game's score sheet, only the options in force), table cards from the
creation, a score card per player, and no cache keeping a director's sheets."""

from __future__ import annotations

import re
from functools import partial

import pytest

from scorekeeper.events import service as events
from tests.conftest import make_event

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy"]


# A progressive Euchre night of nine, eight hands a game, three rounds, stick the dealer.
make = partial(
    make_event,
    name="Euchre night",
    format="progressive",
    game="euchre",
    players=PLAYERS,
    hands=8,
    rounds=3,
    options={"stick_the_dealer": True},
)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_house_rules_are_printed_in_words_never_as_option_keys(app, client):
    event_id, _ = make(app)
    printed = text(client.get(f"/e/{event_id}/print").get_data(as_text=True))
    assert "Stick the dealer: yes" in printed and "Hands per game: 8" in printed
    assert "A defender may play alone: yes" in printed and "equal totals play on: no" in printed
    assert "stick_the_dealer" not in printed and "True" not in printed and "hands_tiebreak" not in printed
    assert "Points to win" not in printed  # a progressive round is a number of hands: no target


def test_house_rules_in_the_readers_language(app, client):
    event_id, _ = make(app)
    client.set_cookie("lang", "pl")
    printed = text(client.get(f"/e/{event_id}/print").get_data(as_text=True))
    assert "Rozdający nie może spasować: tak" in printed and "Rozdań na grę: 8" in printed
    assert "Stick the dealer" not in printed


def test_the_score_sheet_of_a_game_lists_the_same_options_in_force(client):
    to_target = client.post("/api/games", json={"game": "euchre", "players": ["A", "B", "C", "D"]}).json
    sheet = text(client.get(f"/g/{to_target['id']}/sheet").get_data(as_text=True))
    assert "Points to win: 10" in sheet and "Hands per game" not in sheet and "After the hands" not in sheet
    by_hands = client.post(
        "/api/games", json={"game": "euchre", "players": ["A", "B", "C", "D"], "options": {"hands": 4}}
    ).json
    sheet = text(client.get(f"/g/{by_hands['id']}/sheet").get_data(as_text=True))
    assert "Hands per game: 4" in sheet and "Points to win" not in sheet
    pairs = client.post(
        "/api/games",
        json={"game": "spades", "players": ["A", "B", "C", "D"], "options": {"mode": "partnership"}},
    ).json
    sheet = text(client.get(f"/g/{pairs['id']}/sheet").get_data(as_text=True))
    assert "Blind nil allowed: yes" in sheet and "Sandbags" not in sheet and "A set costs" not in sheet


def test_table_cards_print_from_the_creation_and_their_codes_only_for_the_director(app, client):
    event_id, key = make(app)
    viewer = app.test_client()
    before = viewer.get(f"/e/{event_id}/print").get_data(as_text=True)
    cards = re.findall(r'<p class="ev-card-number">Table (\d+)</p>', before)
    assert cards == ["1", "2"]  # 9 players: two tables, one sitting out each round
    assert "key=" not in before
    client.get(f"/e/{event_id}/direct?key={key}")
    client.post(f"/e/{event_id}/rounds", data={})
    directed = client.get(f"/e/{event_id}/print")
    assert directed.headers["Cache-Control"] == "no-store"
    html = directed.get_data(as_text=True)
    assert re.findall(r'<p class="ev-card-number">Table (\d+)</p>', html) == ["1", "2"]
    assert html.count("Table 1&#39;s scorer link") + html.count("Table 1's scorer link") >= 1
    after = viewer.get(f"/e/{event_id}/print")
    assert after.headers["Cache-Control"] == "no-cache" and "key=" not in after.get_data(as_text=True)
    assert "/p/" not in after.get_data(as_text=True)  # nor the players' own links


def test_a_score_card_per_player_with_their_rounds_tables_and_partners(app, client):
    event_id, key = make(app)
    with app.app_context():
        from scorekeeper.db import db
        from scorekeeper.models import Event

        doc = events.document(db.session.get(Event, event_id))
    html = client.get(f"/e/{event_id}/print").get_data(as_text=True)
    cards = html.split('<section class="ev-card ev-score-card">')[1:]
    assert len(cards) == len(PLAYERS)
    for card in cards:
        name = re.search(r"<h3>([^<]+?) <span", card).group(1)
        rows = re.findall(r"<tr>\s*<th scope=\"row\">(\d+)</th>(.*?)</tr>", card, re.S)
        assert [int(n) for n, _ in rows] == [1, 2, 3]
        for (_number, row), rnd in zip(rows, doc["rounds"], strict=True):
            if name in rnd["sitting_out"]:
                assert "Sitting out" in row
                continue
            table = next(t for t in rnd["tables"] if name in t["seats"])
            seats = table["seats"]
            me = seats.index(name)
            cells = [text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            assert cells[0] == str(table["table"]) and cells[1] == seats[(me + 2) % 4]
            assert cells[2] == f"{seats[(me + 1) % 4]} and {seats[(me + 3) % 4]}"
            assert cells[3] == ""  # a box to write the points in
    # Directors' cards carry each player's own link as a QR code.
    client.get(f"/e/{event_id}/direct?key={key}")
    directed = client.get(f"/e/{event_id}/print").get_data(as_text=True)
    assert directed.count('class="ev-card-qr"') == len(PLAYERS)


@pytest.mark.parametrize("lang", ["en", "pl", "pt"])
def test_the_print_page_in_each_language(app, client, lang):
    event_id, key = make(app)
    client.set_cookie("lang", lang)
    client.get(f"/e/{event_id}/direct?key={key}")
    page = client.get(f"/e/{event_id}/print")
    assert page.status_code == 200 and "ev-score-card" in page.get_data(as_text=True)


def test_without_chromium_the_pdf_sends_back_to_the_print_page(app, client):
    event_id, _ = make(app)
    app.config["PDF_CHROMIUM"] = ""
    answer = client.get(f"/e/{event_id}/print.pdf")
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/e/{event_id}/print")
    assert client.get("/e/nothing-here/print.pdf").status_code == 404
