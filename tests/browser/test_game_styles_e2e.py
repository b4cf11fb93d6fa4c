"""A game's own stylesheet comes in its page's body (web/games/assets.py), and a boosted visit
swaps the body alone: the page must be shown with its style, not restyled a moment later under
the scorer's thumb (the whole Tally game's test once saw a tap meant for Ann's points land on
Bob's field when the rows moved)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# Recorded the moment htmx has put the new body in: Tally's rows are a grid only by entry.css.
WATCH = """() => {
  window.__shown = [];
  document.addEventListener("htmx:afterSwap", function () {
    var seat = document.querySelector(".tally-seat");
    if (seat) { window.__shown.push(getComputedStyle(seat).display); }
  });
}"""


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
