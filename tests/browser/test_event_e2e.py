"""A club evening of progressive Euchre on 360 px phones, end to end (issue #26).

The director opens the director's link, taps "Start round 1" (a real form post), hands table 1's
scorer link to that table's phone, which scores its 2 hands by tapping; the director's page, the
board and the event document then show table 1 finished and the standings worked out from
those 2 hands. Nothing scrolls sideways at 360 px and every control tapped is 44 x 44 px or more.

The hands at table 1 (seats clockwise, partners opposite: seats 1 + 3 against seats 2 + 4),
worked out by hand from shared/rules/euchre.md:
  hand 1: seat 1 goes alone in hearts and takes all 5 tricks: 4 points for seats 1 + 3;
  hand 2: seat 2 makes spades with 3 tricks: 1 point for seats 2 + 4.
Table 1 ends 4 to 1. Progressive standings give each player their pair's points, then rank by
lone hands made: seat 1 (4 points, 1 loner) first, seat 3 (4, 0) second, seats 2 and 4 (1 each)
share third, and table 2's four players, who have not played, share fifth with 0.
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from scorekeeper.events import service as events
from tests.scenes import euchre_evening

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
PHONE = {"width": 360, "height": 740}


def make_event(on_server) -> tuple[str, str]:
    """A personal progressive Euchre event of 8 players, 2 hands a table, 10 minutes a round.

    (A club's event is created by ``POST /api/clubs/<slug>/events``, which is not built yet:
    the service makes the same event without a club.)"""
    with on_server():
        event, key = events.create_event(euchre_evening(PLAYERS, "Thursday progressive", hands=2, minutes=10))
        return event.id, key


def phone_page(browser: Browser, **options) -> Page:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **options
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def no_sideways_scroll(page: Page) -> None:
    # What sticks out, named, should it fail (a long link that does not wrap, say).
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > 360 || e.scrollWidth > 360)
            .map(e => `${e.tagName}.${e.className}: right ${Math.round(e.getBoundingClientRect().right)}, scrollWidth ${e.scrollWidth}`)"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, wide


def big_enough(locator) -> None:
    """A control a thumb taps: at least 44 x 44 CSS px."""
    box = locator.bounding_box()
    assert box is not None, "the control is not drawn"
    assert box["width"] >= 44 and box["height"] >= 44, f"{locator}: {box['width']:.0f}x{box['height']:.0f}"


def tap(page: Page, name: str, value: str) -> None:
    # The radio is drawn as a chip: tap its label, as a thumb would.
    chip = page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])')
    big_enough(chip)
    chip.tap()


def enter_deal(page: Page, trump: str, maker: int, tricks: int, alone: bool = False) -> None:
    tap(page, "trump", trump)
    tap(page, "round", "1")
    tap(page, "maker", str(maker))
    tap(page, "alone", "1" if alone else "0")
    tap(page, "maker_tricks", str(tricks))
    record = page.get_by_role("button", name="Record deal")
    big_enough(record)
    record.tap()


def standings(page: Page) -> list[list[str]]:
    """The standings table's rows: rank, name (with any tie note), points, loners, round 1."""
    rows = page.locator(".ev-standings tbody tr")
    return [[c.strip() for c in rows.nth(i).locator("td, th").all_inner_texts()] for i in range(rows.count())]


def test_a_round_started_on_the_directors_phone_and_scored_on_a_tables_phone(
    live_server, browser: Browser, on_server
):
    event_id, key = make_event(on_server)
    director = phone_page(browser)
    director.goto(f"{live_server}/e/{event_id}/direct?key={key}")
    expect(director.locator("h1")).to_have_text("Thursday progressive")
    no_sideways_scroll(director)

    start = director.get_by_role("button", name="Start round 1")
    big_enough(start)
    start.tap()
    expect(director.locator(".flash")).to_contain_text("Round 1 has started.")
    expect(director.locator("#round")).to_have_text("Round 1 of 7")
    # The clock: 10 minutes from the start (9 once the first second has gone).
    # The round clock counts down each second (minutes:seconds from the server's time).
    expect(director.locator(".ev-clock")).to_have_text(
        re.compile(r"^\s*Round 1: time left (10:00|9:[0-5]\d)\s*$")
    )
    tables = director.locator(".ev-tables li")
    expect(tables).to_have_count(2)
    for i in range(2):
        expect(tables.nth(i)).to_contain_text(f"Table {i + 1}")
        expect(tables.nth(i)).to_contain_text("0 of 2 hands")
        # Issue 54, item 2: a table just started is not late (nothing red before the clock runs out).
        expect(tables.nth(i)).not_to_contain_text("not started")
        # Each table's scorer link, behind its own "Scorer link and QR".
        assert tables.nth(i).locator("a[href*='key=']").count() == 1
    no_sideways_scroll(director)

    # Table 1's link and QR, opened on the director's phone and handed to the table's phone.
    reveal = tables.first.locator("summary", has_text="Scorer link and QR")
    big_enough(reveal)
    reveal.tap()
    link = tables.first.locator("a[href*='key=']")
    expect(link).to_be_visible()
    expect(tables.first.locator("svg")).to_be_visible()  # the QR code
    no_sideways_scroll(director)
    href = link.get_attribute("href")
    assert href and f"/e/{event_id}" not in href
    # "Ann & Cy v Bob & Di": the partnerships shown (events.md, Screens).
    pair, other = (p.split(" & ") for p in tables.first.locator(".names").inner_text().split(" v "))
    seats = [pair[0], other[0], pair[1], other[1]]  # clockwise: partners opposite
    assert len(seats) == 4 and set(seats) <= set(PLAYERS)
    others = [p for p in PLAYERS if p not in seats]
    assert sorted(re.split(r" & | v ", tables.nth(1).locator(".names").inner_text())) == sorted(others)

    table = phone_page(browser)
    table.goto(href)
    expect(table.locator(".status")).to_contain_text("A game of 2 hands.")
    no_sideways_scroll(table)
    enter_deal(table, "H", maker=0, tricks=5, alone=True)
    expect(table.locator(".board tfoot td")).to_have_text(["2 hands", "4", "0"])
    no_sideways_scroll(table)
    enter_deal(table, "S", maker=1, tricks=3)
    expect(table.locator(".status")).to_contain_text(f"{seats[0]} & {seats[2]} win, 4 to 1.")
    expect(table.locator("#entry")).to_have_count(0)
    no_sideways_scroll(table)

    first, third = seats[0], seats[2]
    second, fourth = seats[1], seats[3]
    expected = [
        ["1", first, "4", "1", "4"],
        ["2", third, "4", "0", "4"],
        *sorted(([3, name, "1", "0", "1"] for name in (second, fourth)), key=lambda r: r[1]),
        *sorted(([5, name, "0", "0", "0"] for name in others), key=lambda r: r[1]),
    ]
    expected = [[str(r[0]), *r[1:]] for r in expected]

    def shown(rows: list[list[str]]) -> list[list[str]]:
        # The name cell carries how a tie was settled ("ahead on loners ..."): the name comes first.
        return [[r[0], r[1].split("\n")[0].strip(), *r[2:]] for r in rows]

    # The director's page: table 1 finished, table 2 not started, and the standings.
    director.reload()
    expect(tables.first).to_contain_text("finished")
    expect(tables.first).not_to_contain_text("not started")
    expect(tables.nth(1)).to_contain_text("0 of 2 hands")
    assert shown(standings(director)) == expected
    expect(director.locator(".ev-standings tbody tr").first).to_contain_text("ahead of")
    no_sideways_scroll(director)

    # The event document says the same: 2 of 2 hands at table 1, the points per player.
    doc = director.request.get(f"{live_server}/api/events/{event_id}").json()
    round_1 = doc["rounds"][0]
    assert round_1["status"] == "playing"
    assert [(t["hands_played"], t["finished"]) for t in round_1["tables"]] == [(2, True), (0, False)]
    points = {s["name"]: (s["rank"], s["points"], s["loners"]) for s in doc["standings"]}
    assert points[first] == (1, 4, 1) and points[third] == (2, 4, 0)
    assert points[second] == points[fourth] == (3, 1, 0)
    assert all(points[name] == (5, 0, 0) for name in others)

    # The board, as a wall screen or a player's phone shows it: no keys, the same figures.
    board = phone_page(browser)
    board.goto(f"{live_server}/e/{event_id}/board")
    expect(board.locator(".ev-board")).to_contain_text("Round 1 of 7")
    expect(board.locator(".ev-board [role=timer]")).to_have_text(re.compile(r"(10|9) minutes left"))
    board_tables = board.locator(".tv-table-list li")
    expect(board_tables).to_have_count(2)
    expect(board_tables.first).to_contain_text("finished")
    expect(board_tables.nth(1)).to_contain_text("0 of 2 hands")
    # The board shows rank, name and points (made to be read across a hall), then the first
    # tie-break's figure (issue 54, item 8).
    rows = board.locator(".tv-rows li")
    on_board = [
        [c.strip() for c in rows.nth(i).locator("span, strong").all_inner_texts()][:3]
        for i in range(rows.count())
    ]
    assert on_board == [row[:3] for row in shown(expected)]
    assert board.locator("a[href*='key=']").count() == 0
    no_sideways_scroll(board)
    for page in (director, table, board):
        page.context.close()


def test_the_round_starts_without_javascript(live_server, browser: Browser, on_server):
    event_id, key = make_event(on_server)
    page = phone_page(browser, java_script_enabled=False)
    page.goto(f"{live_server}/e/{event_id}/direct?key={key}")
    page.click("text=Start round 1")
    expect(page.locator(".flash")).to_contain_text("Round 1 has started.")
    expect(page.locator(".ev-tables li")).to_have_count(2)
    expect(page.locator(".ev-clock")).to_contain_text("time left")
    # The scorer links are there without a script: <details> opens by itself.
    page.locator(".ev-tables li").first.locator("summary").click()
    expect(page.locator(".ev-tables li").first.locator("a[href*='key=']")).to_be_visible()
    no_sideways_scroll(page)
    page.context.close()
