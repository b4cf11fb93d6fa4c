"""A game's own stylesheet comes in its page's body (web/games/assets.py), and a boosted visit
swaps the body alone: the page must be shown with its style, not restyled a moment later under
the scorer's thumb (the whole Tally game's test once saw a tap meant for Ann's points land on
Bob's field when the rows moved)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import until
from tests.scenes import api

# Recorded the moment htmx has put the new body in: Tally's rows are a grid only by entry.css.
WATCH = """() => {
  window.__shown = [];
  document.addEventListener("htmx:afterSwap", function () {
    var seat = document.querySelector(".tally-seat");
    if (seat) { window.__shown.push(getComputedStyle(seat).display); }
  });
}"""

# A stylesheet link put in the body by hand: what a page's visit would keep, a deal's answer not;
# and the swaps settled since (app.js's own listener, added first, has heard each before).
PLANTED = """() => {
  var link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/planted.css";
  document.querySelector("main").appendChild(link);
  window.__settled = 0;
  document.addEventListener("htmx:afterSettle", function () { window.__settled += 1; });
}"""
# The stylesheets kept in <head>, by address.
KEPT = """() => Array.from(document.head.querySelectorAll("link[rel=stylesheet]"), l => l.getAttribute("href"))"""


def test_a_game_page_reached_by_a_boosted_visit_is_shown_with_its_style(live_server, phone: Page):
    page = phone
    page.goto(f"{live_server}/new/tally")
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        page.fill(f"#players_{seat}", name)
    page.evaluate(WATCH)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".status")).to_contain_text("Deal 1")
    assert page.evaluate("window.__shown") == ["grid"]  # a boosted swap, shown styled
    first = page.locator("#points_0").bounding_box()
    page.wait_for_timeout(500)
    assert page.locator("#points_0").bounding_box() == first


def test_a_deal_saved_in_place_leaves_the_kept_styles_alone(live_server, phone: Page):
    """Only a page's visit (a boosted swap) looks for stylesheets to keep: the answer to a deal
    saved in place (as a poll's, every few seconds) is no page, and one found in the body then is
    left where it is."""
    page = phone
    game = api(live_server, "/api/games", {"game": "tally", "players": ["Ann", "Bob", "Cid"]})
    page.goto(f"{live_server}/g/{game['id']}?key={game['edit_key']}")
    page.evaluate(PLANTED)
    page.locator("#points_0").tap()
    page.keyboard.type("5")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".board tbody tr[id^=deal-]")).to_have_count(1)
    until(page, "() => window.__settled > 0")
    kept = page.evaluate(KEPT)
    assert not [h for h in kept if "planted" in h]
    games = [h for h in kept if "/static/games/" in h]
    assert len(games) == 1 and "/games/tally/entry.css" in games[0]  # its own style, kept once
