"""Issue 54, item 9: the evening's words. "Seating" of an event is no "game mode" in Polish or
Portuguese; the score card's column heads never break inside a word; the season's columns are
headed by the event's name and its day with the month in words; the new event's form fits 360 px
and shows "Pairing" for a pairs event only."""

from __future__ import annotations

import html
import re

from scorekeeper.events import service as events
from tests.clubs.helpers import as_member
from tests.events.test_season_pages import season  # noqa: F401 (a fixture; club is the suite's)
from tests.scenes import euchre_evening

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def make(app):
    with app.app_context():
        event, key = events.create_event(euchre_evening(PLAYERS, "Euchre night", rounds=2))
        return event.id


def test_an_events_seating_is_not_a_game_mode_in_any_language(app, client):
    event_id = make(app)
    for lang, wrong, right in (
        ("pl", "Tryb gry", "Rozsadzenie w rundach"),
        ("pt-PT", "Modo de jogo", "Lugares em cada ronda"),
        ("en", "Game mode", "Seating of the rounds"),
    ):
        for path in (f"/e/{event_id}", f"/e/{event_id}/print"):
            page = html.unescape(client.get(path, headers={"Accept-Language": lang}).get_data(as_text=True))
            assert right in page and wrong not in page, (lang, path)


def test_the_score_cards_column_heads_never_break_inside_a_word(client):
    css = client.get("/static/evening.css").get_data(as_text=True)
    rule = re.search(r"\.ev-score-table thead th \{([^}]*)\}", css).group(1)
    # Between words only: not "anywhere" (the cells' rule for long names), no hyphens.
    assert "overflow-wrap: normal" in rule and "word-break: normal" in rule and "hyphens: none" in rule


def test_the_seasons_columns_name_each_event_and_its_day_in_words(app, club, season):  # noqa: F811 (fixtures)
    member = as_member(app, club["member"])
    page = html.unescape(member.get("/c/the-lodge/season?game=euchre").get_data(as_text=True))
    heads = re.findall(r'<th scope="col" class="num season-event">(.*?)</th>', page, re.S)
    words = [" ".join(re.sub(r"<[^>]+>", " ", h).split()) for h in heads]
    assert words == ["Night 5 Jan", "Cup 12 Jan"]
    polish = html.unescape(
        member.get("/c/the-lodge/season?game=euchre", headers={"Accept-Language": "pl"}).get_data(
            as_text=True
        )
    )
    assert "5 sty" in polish


def test_the_new_event_form_fits_a_phone_and_shows_pairing_for_pairs_only(app, client, club):  # noqa: F811
    member = as_member(app, club["member"])
    page = member.get("/c/the-lodge/events/new").get_data(as_text=True)
    assert re.search(r'<div class="ev-pairing">\s*<label class="option" for="pairing">', page)
    css = client.get("/static/evening.css").get_data(as_text=True)
    assert ".ev-new select { width: 100%; max-width: 100%;" in css
    assert '.ev-new:has(#format option[value="pairs"]:checked) .ev-pairing { display: block; }' in css
    assert ".ev-new:has(#format) .ev-pairing { display: none; }" in css
