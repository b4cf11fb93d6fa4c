"""The club's pages on a 360 px phone: the leaderboard, a player's rating chart, the players list."""

import json
import urllib.request

from playwright.sync_api import Page, expect


def post_game(server, record):
    request = urllib.request.Request(
        server + "/api/games", data=json.dumps(record).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_leaderboard_player_rating_and_players_list_on_a_phone(live_server, phone: Page):
    players = ["Annabelle Longname", "Bob", "Cid", "Dee"]
    for points in ([9, 5, 1, 0], [1, 5, 9, 3], [9, 1, 5, 3]):
        post_game(
            live_server, {"game": "tally", "players": players, "deals": [{"points": points}, {"end": True}]}
        )
    page = phone
    page.goto(live_server + "/")
    page.get_by_role("link", name="Ratings").tap()
    expect(page.locator("h1")).to_have_text("Ratings")
    expect(page.locator(".leaderboard tbody tr")).to_have_count(4)
    no_sideways_scroll(page)
    page.get_by_role("link", name="Bob").first.tap()
    expect(page.locator("#rating-chart svg")).to_be_visible()
    expect(page.locator(".head-to-head tbody tr")).to_have_count(3)
    no_sideways_scroll(page)
    page.goto(live_server + "/players/tidy")
    page.select_option("#old", "Dee")
    page.fill("#new", "Deirdre")
    page.get_by_role("button", name="Rename everywhere").tap()
    expect(page.locator(".flash-ok").first).to_contain_text("Dee is now Deirdre in 3 games.")
    page.get_by_role("button", name="Undo").tap()
    expect(page.locator(".flash-ok").first).to_contain_text("Rename undone in 3 games.")
    no_sideways_scroll(page)
