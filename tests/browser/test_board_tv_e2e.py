"""The board on a 1920x1080 TV (events.md, Screens): the whole screen and no scroll bar, no site
header or footer, every standing of a 40-player evening on screen at once in type readable across
a hall, this round's ten tables with their partnerships; 80 players page by themselves."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper import create_app
from scorekeeper.events import rounds
from scorekeeper.events import service as events

TV = {"width": 1920, "height": 1080}
FIRST = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
LAST = ["Adams", "Brown", "Clark", "Davis", "Evans", "Ford", "Green", "Hill"]


def names(count: int) -> list[str]:
    return [f"{FIRST[i % 10]} {LAST[i // 10]}" for i in range(count)]


def evening(database_url: str, count: int) -> str:
    """A progressive Euchre evening of ``count`` players, round 1 started with a clock."""
    app = create_app(
        {"SECRET_KEY": "browser-test", "SQLALCHEMY_DATABASE_URI": database_url, "AUTO_MIGRATE": False}
    )
    with app.app_context():
        event, _key = events.create_event(
            {
                "name": "Hall night",
                "format": "progressive",
                "game": "euchre",
                "players": names(count),
                "rounds": 3,
                "minutes": 20,
            }
        )
        rounds.start_round(event)
        return event.id


def tv_page(browser: Browser, scheme: str = "light") -> Page:
    page = browser.new_context(viewport=TV, color_scheme=scheme).new_page()
    page.set_default_timeout(10_000)
    return page


def no_scroll(page: Page) -> None:
    sizes = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth, innerHeight]"
    )
    assert sizes[0] <= sizes[2] and sizes[1] <= sizes[3], sizes


def on_screen(page: Page, selector: str) -> list[dict]:
    """Each element's box, font size and whether its text is cut (ellipsis)."""
    return page.eval_on_selector_all(
        selector,
        """els => els.map(e => { const r = e.getBoundingClientRect(); const n = e.querySelector('.tv-name, .tv-seats') || e;
             return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                     font: parseFloat(getComputedStyle(e).fontSize), cut: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1,
                     visible: getComputedStyle(e).visibility === 'visible'} })""",
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_40_player_board_shows_every_standing_at_once(browser, live_server, database_url, scheme):
    event_id = evening(database_url, 40)
    page = tv_page(browser, scheme)
    page.goto(f"{live_server}/e/{event_id}/board")
    expect(page.locator(".tv-round")).to_contain_text("Round 1 of 3")
    expect(page.locator(".tv-clock")).to_contain_text("minutes left")
    assert page.locator("header.bar, footer.foot, form, button").count() == 0  # no site chrome, no controls
    no_scroll(page)
    rows = on_screen(page, ".tv-rows li")
    assert len(rows) == 40
    for row in rows:
        assert row["visible"] and not row["cut"], row
        assert (
            row["top"] >= 0
            and row["bottom"] <= TV["height"]
            and row["left"] >= 0
            and row["right"] <= TV["width"]
        )
        assert row["font"] >= 24  # about 1/40 of the screen's height: read from across a hall
    shown = page.locator(".tv-rows .tv-name").all_inner_texts()
    assert sorted(shown) == sorted(names(40))
    # This round's 10 tables, each with its partnerships, all on screen.
    tables = on_screen(page, ".tv-table-list li")
    assert len(tables) == 10
    for table in tables:
        assert (
            table["visible"] and not table["cut"] and table["bottom"] <= TV["height"] and table["font"] >= 24
        ), table
    first = page.locator(".tv-table-list li").first.locator(".tv-seats").inner_text()
    assert first.count(" & ") == 2 and " v " in first


def test_80_players_page_by_themselves(browser, live_server, database_url):
    event_id = evening(database_url, 80)
    page = tv_page(browser)
    page.goto(f"{live_server}/e/{event_id}/board")
    no_scroll(page)
    pages = page.locator(".tv-standings .tv-page")
    expect(pages).to_have_count(2)
    expect(pages.nth(0)).to_contain_text("Page 1 of 2")
    seen = set()
    for moment in (1_000, 13_000, 25_000):  # each page shows for 12 s, then the next, then the first again
        page.evaluate(
            f"() => document.getAnimations().forEach(a => {{ a.currentTime = {moment}; a.pause(); }})"
        )
        rows = [r for r in on_screen(page, ".tv-standings .tv-rows li") if r["visible"]]
        assert len(rows) in (60, 20), len(rows)
        assert all(r["bottom"] <= TV["height"] and not r["cut"] for r in rows)
        visible = page.eval_on_selector_all(
            ".tv-rows .tv-name",
            "els => els.filter(e => getComputedStyle(e).visibility === 'visible').map(e => e.textContent)",
        )
        seen.add(frozenset(visible))
    assert len(seen) == 2 and set().union(*seen) == set(names(80))  # every standing, page by page
    # 20 tables: 12 on the first page, 8 on the second.
    expect(page.locator(".tv-tables .tv-page")).to_have_count(2)
