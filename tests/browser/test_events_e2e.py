"""A club evening on phone-sized Chromium: the director starts round 1, a table scores it on its
own phone from the table card's link, and the board and the standings follow."""

from playwright.sync_api import Page, expect

from scorekeeper.events import service as events
from tests.scenes import euchre_evening

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def tap(page: Page, name: str, value: str) -> None:
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_director_starts_a_round_and_a_table_scores_it(live_server, phone: Page, on_server):
    with on_server():
        event, key = events.create_event(euchre_evening(PLAYERS, "Euchre night", hands=1, minutes=20))
        event_id = event.id
    page = phone
    page.goto(f"{live_server}/e/{event_id}/direct?key={key}")
    expect(page.locator("h1")).to_have_text("Euchre night")
    no_sideways_scroll(page)
    page.get_by_role("button", name="Start round 1").tap()
    expect(page.locator(".flash")).to_contain_text("Round 1 has started.")
    expect(page.locator(".ev-tables li")).to_have_count(2)
    expect(page.locator(".ev-tables li").first).to_contain_text("0 of")  # not late: no clock ran out
    no_sideways_scroll(page)
    # The table card's link, opened on the table's own phone.
    page.locator(".ev-tables li").first.get_by_text("Scorer link and QR").tap()
    link = page.locator(".ev-tables li").first.locator("a[href*='key=']").get_attribute("href")
    # "Ann & Cy v Bob & Di": the partnerships shown; seats clockwise, partners opposite.
    pair, other = (
        p.split(" & ") for p in page.locator(".ev-tables li .names").first.inner_text().split(" v ")
    )
    seats = [pair[0], other[0], pair[1], other[1]]
    table_phone = page.context.browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    ).new_page()
    table_phone.goto(link)
    expect(table_phone.locator(".status")).to_contain_text("A game of 1 hand.")
    no_sideways_scroll(table_phone)
    # Seat 1 (the first named) goes alone and marches: 4 points for the first pair.
    tap(table_phone, "trump", "H")
    tap(table_phone, "maker", "0")
    tap(table_phone, "alone", "1")
    tap(table_phone, "maker_tricks", "5")
    table_phone.get_by_role("button", name="Record deal").tap()
    expect(table_phone.locator(".status")).to_contain_text(f"{seats[0]} & {seats[2]} win, 4 to 0.")
    # The director's page and the board show the table finished and the standings.
    page.reload()
    expect(page.locator(".ev-tables li").first).to_contain_text("finished")
    expect(page.locator(".ev-standings tbody tr").first).to_contain_text(seats[0])
    expect(page.locator(".ev-standings tbody tr").first).to_contain_text("ahead of")
    page.goto(f"{live_server}/e/{event_id}/board")
    expect(page.locator(".ev-board")).to_contain_text("Round 1 of 7")
    assert page.locator("a[href*='key=']").count() == 0
    no_sideways_scroll(page)
